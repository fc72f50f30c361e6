"""Bundled boards and variants by name: `ttr-maps boards`, names on the command line and in files."""

import pytest
import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from ttr_maps.bundled import bundled_name, names, resolve, schemas_dir
from ttr_maps.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_boards_lists_every_bundled_file():
    out = run("boards")
    assert out.exit_code == 0, out.output
    rows = {tuple(line.split()[:2]) for line in out.output.splitlines()}
    for kind, folder in (("variant", "variants"), ("board", "boards")):
        for path in (ROOT / "maps" / folder).glob("*.yaml"):
            assert (kind, path.stem) in rows
    assert "variant  usa" in out.output and "on board usa, 2-5 players" in out.output


def test_validate_takes_a_bundled_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("validate", "europe-1912", "--select", "G001")
    assert out.exit_code == 0, out.output
    assert "OK" in out.output


@pytest.mark.slow
def test_the_readme_first_command_shows_no_warning(tmp_path, monkeypatch):
    """`ttr-maps validate usa`: the published board's known exceptions are stated in maps/ttr-maps.toml."""
    monkeypatch.chdir(tmp_path)
    out = run("validate", "usa", "--strict")
    assert out.exit_code == 0, out.output
    assert " warning " not in out.output and " error " not in out.output


def test_a_misspelt_name_is_suggested(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("validate", "eurpe")
    assert out.exit_code == 1
    assert "P001" in out.output and "did you mean 'europe'?" in out.output and "ttr-maps boards" in out.output


def test_a_file_of_that_name_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "usa").write_text("format: ttr-board/1\n", encoding="utf-8")
    assert resolve("usa") == "usa"
    out = run("validate", "usa")
    assert out.exit_code == 1 and "usa:" in out.output  # the local file, not the bundled board


def test_board_and_variant_keys_take_bundled_names(tmp_path):
    rules = yaml.safe_load((ROOT / "maps/variants/usa.yaml").read_text(encoding="utf-8"))
    rules["board"] = "usa"
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rules), encoding="utf-8")
    out = run("validate", str(tmp_path / "rules.yaml"), "--select", "G001")
    assert out.exit_code == 0, out.output

    position = yaml.safe_load((ROOT / "examples/positions/usa.yaml").read_text(encoding="utf-8"))
    position["variant"] = "usa"
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(position), encoding="utf-8")
    out = run("score", str(tmp_path / "game.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["players"]


def test_a_state_of_a_bundled_variant_names_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("state", "new", "paris", "-p", "2", "-s", "3", "-o", "game.yaml")
    assert out.exit_code == 0, out.output
    assert yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))["variant"] == "paris"
    sub = tmp_path / "elsewhere"
    sub.mkdir()
    (tmp_path / "game.yaml").rename(sub / "game.yaml")
    out = run("state", "legal", str(sub / "game.yaml"))
    assert out.exit_code == 0, out.output
    assert out.output.strip()


def test_bundled_names_are_the_maps_folder():
    assert set(names("variants")) == {p.stem for p in (ROOT / "maps/variants").glob("*.yaml")}
    assert bundled_name(ROOT / "maps/variants/usa.yaml") == "usa"
    assert bundled_name(ROOT / "examples/vellmar-rules.yaml") is None


def test_schema_path_prints_the_schemas_folder():
    out = CliRunner().invoke(cli, ["schema", "--path"])
    assert out.exit_code == 0, out.output
    folder = Path(out.output.splitlines()[0])
    assert folder == schemas_dir()
    for name in ("board.schema.json", "variant.schema.json"):
        assert (folder / name).read_text(encoding="utf-8") == (ROOT / "schemas" / name).read_text(encoding="utf-8")
