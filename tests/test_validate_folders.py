"""`validate` on folders (boards and variants found by their `format`), --min-severity and --quiet."""

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from ttr_maps.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(cli, ["validate", *map(str, args)])


def test_a_folder_is_validated_recursively_and_other_yaml_is_skipped_with_a_note(tmp_path):
    shutil.copy(ROOT / "examples/three-harbours.yaml", tmp_path / "board.yaml")
    deep = tmp_path / "deeper" / "still"
    deep.mkdir(parents=True)
    (deep / "broken.yaml").write_text("format: ttr-board/1\nmeta: {title: x}\nplaces: [\n", encoding="utf-8")
    shutil.copy(ROOT / "examples/positions/usa.yaml", tmp_path / "game.yaml")  # a position file
    (tmp_path / "notes.json").write_text('{"a": 1}', encoding="utf-8")
    hidden = tmp_path / ".cache"
    hidden.mkdir()
    (hidden / "junk.yaml").write_text("format: ttr-board/1\n", encoding="utf-8")
    out = run(tmp_path, "--format", "json")
    assert out.exit_code == 1
    found = json.loads(out.stdout)
    assert {Path(d["path"]).name for d in found} == {"board.yaml", "broken.yaml"}
    assert any(d["code"] == "P006" for d in found)  # a broken board is reported, never skipped
    assert "skipped 2 file(s) that are not boards or variants" in out.stderr


def test_tool_and_build_folders_are_not_searched(tmp_path):
    # A board project after `pip install`, `python -m build` and `npm install`: copies of the board and
    # broken files in those folders are neither validated nor counted as skipped; the board itself is.
    board = (ROOT / "examples/three-harbours.yaml").read_text(encoding="utf-8")
    (tmp_path / "board.yaml").write_text(board, encoding="utf-8")
    for folder in (".git/refs", ".venv/lib/site-packages/x", "build/lib", "dist", "node_modules/pkg", "__pycache__", "sub/.hidden", "sub/build"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "copy.yaml").write_text(board, encoding="utf-8")
        (tmp_path / folder / "broken.yaml").write_text("format: ttr-board/1\nplaces: [\n", encoding="utf-8")
        (tmp_path / folder / "other.yaml").write_text("just: data\n", encoding="utf-8")
    (tmp_path / "sub" / "inner.yaml").write_text(board, encoding="utf-8")  # a folder that is searched
    out = run(tmp_path, "--format", "json")
    assert out.exit_code == 0, out.output
    assert {Path(d["path"]).relative_to(tmp_path).as_posix() for d in json.loads(out.stdout)} == {"board.yaml", "sub/inner.yaml"}
    assert "skipped" not in out.stderr


def test_a_folder_without_boards_is_an_error(tmp_path):
    (tmp_path / "a.yaml").write_text("just: data\n", encoding="utf-8")
    out = run(tmp_path)
    assert out.exit_code == 1 and f"{tmp_path}:0:0: error P002 this folder holds no board or variant file" in out.output


def test_quiet_hides_info_and_min_severity_hides_more(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    for name in ("three-harbours.yaml", "three-harbours-rules.yaml"):  # one info note (B002), nothing to fix
        shutil.copy(ROOT / "examples" / name, folder / name)
    out = run(folder)
    assert out.exit_code == 0 and " info B002 " in out.stdout
    out = run(folder, "--quiet")
    assert out.exit_code == 0
    assert out.stdout.strip() == "2 file(s) OK (1 info note(s) hidden)"
    board = tmp_path / "b.yaml"
    board.write_text((ROOT / "examples/three-harbours.yaml").read_text(encoding="utf-8").replace("points: 10", "points: 19"), encoding="utf-8")
    out = run(board, "--strict")
    assert out.exit_code == 1 and "warning G006" in out.stdout
    out = run(board, "--strict", "--min-severity", "error")
    assert out.exit_code == 0 and "G006" not in out.stdout  # exit codes follow what is shown
