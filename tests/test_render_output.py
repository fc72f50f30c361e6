"""Writing the output file of `render` and `print`: clean errors, normal permissions, devices left alone."""

from __future__ import annotations

import os
import stat
import sys

import pytest
from click.testing import CliRunner

from conftest import MAPS
from ttr_maps.cli.main import cli
from ttr_maps.fileio import OutputError, write_atomic, write_output

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

BOARD = str(MAPS / "boards" / "usa.yaml")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc, /sys and /dev")


def _render(out: str):
    return CliRunner().invoke(cli, ["render", BOARD, "-o", out])


@linux_only
@pytest.mark.parametrize("out", ["/proc/x.svg", "/sys/x.svg"])
def test_an_unwritable_place_gives_a_message_not_a_traceback(out):
    result = _render(out)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, OSError)
    assert f"cannot write {out}" in result.output


@linux_only
def test_print_to_an_unwritable_place_gives_a_message():
    result = CliRunner().invoke(cli, ["print", BOARD, "-o", "/proc/x.pdf", "--parts", "tickets"])
    assert result.exit_code == 1
    assert "cannot write /proc/x.pdf" in result.output


@linux_only
def test_a_device_is_written_to_never_replaced():
    result = _render("/dev/null")
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    result = _render("/dev/full")
    assert result.exit_code == 1
    assert "cannot write /dev/full: No space left on device" in result.output
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_named_pipe_is_written_to_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, "hello")
        assert os.read(r, 100) == b"hello"
    finally:
        os.close(r)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_new_file_gets_the_permissions_the_umask_allows(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.svg", "x")
        write_atomic(tmp_path / "b.pdf", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.svg").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(tmp_path / "b.pdf").st_mode) == 0o640
    old = os.umask(0o022)
    try:
        result = _render(str(tmp_path / "c.svg"))
    finally:
        os.umask(old)
    assert result.exit_code == 0
    assert stat.S_IMODE(os.stat(tmp_path / "c.svg").st_mode) == 0o644


def test_a_replaced_file_keeps_its_permissions_and_a_link_keeps_pointing_at_it(tmp_path):
    target = tmp_path / "board.svg"
    target.write_text("old")
    os.chmod(target, 0o600)
    link = tmp_path / "link.svg"
    link.symlink_to(target.name)
    result = _render(str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert target.read_text().startswith("<?xml") or "<svg" in target.read_text()[:300]
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_missing_folder_is_refused_and_not_created(tmp_path):
    out = tmp_path / "nope" / "board.svg"
    result = _render(str(out))
    assert result.exit_code == 1
    assert f"folder {tmp_path / 'nope'} does not exist" in result.output
    assert "mkdir -p" in result.output
    assert not (tmp_path / "nope").exists()
    with pytest.raises(OutputError, match="does not exist"):
        write_output(out, "x")
    # The library function keeps creating folders for the callers that rely on it (simulate output).
    write_atomic(out, "x")
    assert out.read_text() == "x"


def test_a_folder_as_output_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        write_output(tmp_path, b"%PDF-1.4")


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    out = tmp_path / "board.svg"
    out.write_text("old")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OutputError, match="No space left on device"):
        write_output(out, "new")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg"]


@pytest.mark.parametrize("name", ["board.png", "board.jpg", "board", "board.SVGZ"])
def test_an_output_format_render_cannot_write_is_a_usage_error_naming_the_formats(tmp_path, name):
    result = _render(str(tmp_path / name))
    assert result.exit_code == 2, result.output
    assert "render writes SVG or PDF, chosen by the extension (.svg or .pdf)" in result.output
    assert not (tmp_path / name).exists()


def test_cards_are_svg_only():
    result = CliRunner().invoke(cli, ["render", BOARD, "-o", "cards.pdf", "--cards", "tickets"])
    assert result.exit_code == 2 and "cards are drawn as SVG only" in result.output


@pytest.mark.slow
def test_a_pdf_output_is_the_board_on_one_page_of_its_size(tmp_path):
    import re
    import subprocess

    from ttr_maps.load import load
    from ttr_maps.render import plan_board

    out = tmp_path / "Board.PDF"
    result = _render(str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type /Page\b", data)) == 1
    plan = plan_board(load(BOARD).board)
    box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", data).group(1).split()]
    assert box[2] == pytest.approx(plan.width / 25.4 * 72, abs=0.5) and box[3] == pytest.approx(plan.height / 25.4 * 72, abs=0.5)
    # Looked at as a picture: the board is drawn (the frame, the sea and the cars), not an empty page.
    subprocess.run(["pdftoppm", "-r", "10", "-png", "-singlefile", str(out), str(tmp_path / "page")], check=True)
    from PIL import Image

    colours = Image.open(tmp_path / "page.png").convert("RGB").getcolors(1 << 16)
    assert colours is not None and len(colours) > 50
