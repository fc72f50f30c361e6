"""`ttr-maps explain` knows every code any command can print: the list comes from the registries
and from the code literals in the sources, so a new code without documentation fails here."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.checks import CHECKS
from ttr_maps.cli.main import cli
from ttr_maps.codes import registered

ROOT = Path(__file__).resolve().parent.parent
LITERAL = re.compile(r"""["']([A-Z][0-9]{3})["']""")


def codes_in_sources() -> set[str]:
    found = set()
    for folder in ("ttr_maps", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(LITERAL.findall(path.read_text(encoding="utf-8")))
    return found


ALL = sorted(set(registered()) | set(CHECKS) | codes_in_sources())


def test_the_sources_hold_the_families_we_know():
    assert {c[0] for c in ALL} >= {"P", "S", "R", "V", "G", "D", "B", "C", "Q"}


@pytest.mark.parametrize("code", ALL)
def test_every_code_is_explained(code):
    result = CliRunner().invoke(cli, ["explain", code.lower()])
    assert result.exit_code == 0, result.output
    name = registered()[code].name if code in registered() else CHECKS[code].name
    assert result.output.startswith(f"{code} {name} (")
    body = result.output.split("\n", 2)[2]
    assert len(body.strip()) > 20
    if code[0] in "PSRVQTX":  # documented in a table row: meaning, fix and the page
        assert "See docs/" in result.output


def test_a_name_shared_by_two_families_explains_both():
    result = CliRunner().invoke(cli, ["explain", "unknown-place"])
    assert result.exit_code == 0
    assert result.output.startswith("Q020 unknown-place") and "\nR002 unknown-place" in result.output


def test_an_unknown_code_is_a_usage_error_with_a_suggestion():
    result = CliRunner().invoke(cli, ["explain", "unknown-kye"])
    assert result.exit_code == 2 and "did you mean 'unknown-key'?" in result.output
