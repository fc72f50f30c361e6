"""`ttr-maps new`: a board and rules file that validate clean, simulate, and name their schema."""

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from ttr_maps.cli.main import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def schema_of(path: Path) -> dict:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    ref = first.split("$schema=", 1)[1]
    return json.loads((path.parent / ref).read_text(encoding="utf-8"))


@pytest.mark.slow
def test_blank_starter_validates_clean_and_simulates(here):
    out = run("new", "my-board")
    assert out.exit_code == 0, out.output
    board, rules = here / "my-board.yaml", here / "my-board-rules.yaml"
    assert yaml.safe_load(rules.read_text(encoding="utf-8"))["board"] == "my-board.yaml"
    assert yaml.safe_load(board.read_text(encoding="utf-8"))["meta"]["title"] == "My Board"
    for args in (["my-board"], ["my-board-rules.yaml"]):  # NAME alone finds NAME.yaml
        out = run("validate", *args, "--strict")
        assert out.exit_code == 0, out.output
        assert out.output.strip() == "1 file(s) OK"  # not even an info note
    out = run("simulate", "my-board-rules.yaml", "-n", "4", "-q")
    assert out.exit_code == 0, out.output
    summary = json.loads((here / "out" / "my-board-rules" / "summary.json").read_text(encoding="utf-8"))
    assert summary["meta"]["games"] == 4


def test_the_schema_line_names_schemas_that_accept_the_files(here):
    assert run("new", "my-board").exit_code == 0
    for name in ("my-board.yaml", "my-board-rules.yaml"):
        path = here / name
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema_of(path))


@pytest.mark.slow  # end to end: every check of a full-size board, drawing included (2-3 s of CPU each)
@pytest.mark.parametrize("source", ["usa", "europe"])
def test_a_copy_of_a_published_board_validates_without_warnings(here, source):
    out = run("new", "sub/copy", "--from", source)
    assert out.exit_code == 1 and "folder 'sub' not found" in out.output
    (here / "sub").mkdir()
    out = run("new", "sub/copy", "--from", source)
    assert out.exit_code == 0, out.output
    board = yaml.safe_load((here / "sub/copy.yaml").read_text(encoding="utf-8"))
    assert board["checks"]["G006"] == "info"  # the bundled boards' settings, stated in the copy
    assert yaml.safe_load((here / "sub/copy-rules.yaml").read_text(encoding="utf-8"))["board"] == "copy.yaml"
    out = run("validate", "sub/copy-rules.yaml", "--strict")
    assert out.exit_code == 0, out.output
    assert "warning" not in out.output


def test_existing_files_are_never_overwritten(here):
    (here / "mine-rules.yaml").write_text("my own rules\n", encoding="utf-8")
    out = run("new", "mine")
    assert out.exit_code == 1 and "already exist" in out.output
    assert not (here / "mine.yaml").exists()
    assert (here / "mine-rules.yaml").read_text(encoding="utf-8") == "my own rules\n"


def test_bad_starter_and_name_are_usage_errors(here):
    out = run("new", "x", "--from", "usaa")
    assert out.exit_code == 2 and "did you mean 'usa'?" in out.output
    out = run("new", "a board")
    assert out.exit_code == 2 and "not a usable name" in out.output
    assert list(here.iterdir()) == []
