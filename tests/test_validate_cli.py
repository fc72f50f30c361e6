"""`ttr-maps validate` on the bundled files."""

import pytest
from click.testing import CliRunner

from conftest import MAPS
from ttr_maps.cli.main import cli

BUNDLED = sorted(MAPS.glob("*/*.yaml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_file_validates_clean(path):
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output


def test_missing_file_is_exit_1_with_path():
    result = CliRunner().invoke(cli, ["validate", "no/such/board.yaml"])
    assert result.exit_code == 1
    assert "no/such/board.yaml:0:0: error P001" in result.output


def test_usage_error_is_exit_2():
    result = CliRunner().invoke(cli, ["validate"])
    assert result.exit_code == 2
