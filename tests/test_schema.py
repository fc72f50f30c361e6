"""The committed JSON Schemas equal the models; bundled files validate against them."""

import json

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from conftest import MAPS, ROOT
from ttr_maps.cli.main import cli
from ttr_maps.schema import all_schema_texts


@pytest.mark.parametrize("name", sorted(all_schema_texts()))
def test_committed_schema_matches_models(name):
    committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert committed == all_schema_texts()[name], f"schemas/{name} is stale: run `ttr-maps schema`"


def test_schema_check_command_passes_on_committed_schemas():
    result = CliRunner().invoke(cli, ["schema", "--check", "-o", str(ROOT / "schemas")])
    assert result.exit_code == 0, result.output


def test_schema_check_detects_drift(tmp_path):
    (tmp_path / "board.schema.json").write_text("{}\n")
    result = CliRunner().invoke(cli, ["schema", "--check", "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "board.schema.json" in result.output


@pytest.mark.parametrize("path", sorted(MAPS.glob("*/*.yaml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_files_match_the_json_schema(path):
    kind = "board" if path.parent.name == "boards" else "variant"
    schema = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text())
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_schema_into_an_unwritable_place_is_a_clean_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be\n")
    result = CliRunner().invoke(cli, ["schema", "-o", str(blocker / "schemas")])
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Traceback" not in result.output


def test_schema_writes_files_that_check_clean(tmp_path):
    first = CliRunner().invoke(cli, ["schema", "-o", str(tmp_path)])
    assert first.exit_code == 0 and "wrote" in first.output
    again = CliRunner().invoke(cli, ["schema", "--check", "-o", str(tmp_path)])
    assert (again.exit_code, "up to date" in again.output) == (0, True)
