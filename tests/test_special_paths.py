"""A path that is no file to read is named for what it is, by every reader: a loop of symbolic
links (it was "file not found"), a dangling link, a named pipe or /dev/zero (`state new` said
"not found"; opening a pipe would wait for a writer forever)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.fileio import path_problem

GOOD = Path(__file__).resolve().parent / "fixtures" / "good"


def _loop(tmp: Path) -> Path:
    os.symlink(tmp / "b.yaml", tmp / "a.yaml")
    os.symlink(tmp / "a.yaml", tmp / "b.yaml")
    return tmp / "a.yaml"


def _dangling(tmp: Path) -> Path:
    os.symlink(tmp / "gone.yaml", tmp / "link.yaml")
    return tmp / "link.yaml"


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe.yaml")
    return tmp / "pipe.yaml"


PATHS = {
    "loop": (_loop, "P002", "loop of symbolic links"),
    "dangling": (_dangling, "P001", "symbolic link to"),
    "fifo": (_fifo, "P002", "named pipe (FIFO)"),
    "dev-zero": (lambda tmp: Path("/dev/zero"), "P002", "character device"),
}
COMMANDS = [["validate", "{path}"], ["stats", "{path}"], ["state", "show", "{path}"], ["state", "legal", "{path}"],
            ["score", "{path}"], ["state", "new", "{path}", "-p", "2"], ["render", "{path}", "-o", "{tmp}/x.svg"],
            ["simulate", "{path}", "-n", "1", "-q", "-o", "{tmp}/out"], ["play", "{path}", "--no-open", "-o", "{tmp}/g.yaml"]]


@pytest.mark.parametrize("kind", PATHS)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_reader_says_what_the_path_is(tmp_path: Path, kind: str, command: list[str]) -> None:
    make, code, words = PATHS[kind]
    path = make(tmp_path)
    args = [a.format(tmp=tmp_path, path=path) for a in command]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert words in result.output
    if command[:2] != ["state", "new"]:  # state new says it in a sentence of its own
        assert f"{path}:0:0: error {code}" in result.output


def test_a_variant_whose_board_is_a_link_loop_says_so(tmp_path: Path) -> None:
    _loop(tmp_path)
    rules = (GOOD / "islands-rules.yaml").read_text(encoding="utf-8").replace("board: islands.yaml", "board: a.yaml")
    (tmp_path / "rules.yaml").write_text(rules, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "rules.yaml")])
    assert result.exit_code == 1
    assert "V001 board file 'a.yaml' not found: it is a loop of symbolic links" in result.output


def test_path_problem_follows_links_to_files_and_names_the_rest(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("x: 1\n", encoding="utf-8")
    os.symlink(tmp_path / "real.yaml", tmp_path / "ok.yaml")
    assert path_problem(tmp_path / "real.yaml") is None
    assert path_problem(tmp_path / "ok.yaml") is None
    assert path_problem(tmp_path).kind == "folder"
    assert path_problem(tmp_path / "nope.yaml") == ("missing", "not found")
    assert path_problem(tmp_path / "real.yaml" / "x").kind == "missing"  # a file used as a folder
    assert path_problem(_loop(tmp_path)).kind == "loop"
    assert path_problem("x" * 5000).kind == "missing"
