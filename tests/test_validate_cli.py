"""`ttr-maps validate`: exit codes, the four output formats, and what a user sees for real files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import MAPS
from ttr_maps.cli.main import cli

BUNDLED = sorted(MAPS.glob("*/*.yaml"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"


def run(*args: str) -> "object":
    return CliRunner().invoke(cli, ["validate", *args])


@pytest.fixture
def loader_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the design checks off, so these tests see only the loader's diagnostics."""
    import ttr_maps.cli.validate as validate

    monkeypatch.setattr(validate, "run_selected", lambda *args, **kwargs: [])


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_file_validates_clean(path: Path) -> None:
    result = run(str(path))
    assert result.exit_code == 0, result.output


def test_missing_file_is_exit_1_with_path() -> None:
    result = run("no/such/board.yaml")
    assert result.exit_code == 1
    assert "no/such/board.yaml:0:0: error P001" in result.output


def test_no_file_is_a_usage_error() -> None:
    assert run().exit_code == 2


def test_unknown_format_is_a_usage_error() -> None:
    result = run("--format", "xml", str(GOOD / "islands.yaml"))
    assert result.exit_code == 2
    assert "xml" in result.output


@pytest.mark.usefixtures("loader_only")
def test_clean_files_print_ok_and_exit_0() -> None:
    result = run(str(GOOD / "islands.yaml"), str(GOOD / "lowlands.json"))
    assert (result.exit_code, result.output) == (0, "2 file(s) OK\n")


@pytest.mark.usefixtures("loader_only")
def test_text_lines_name_file_line_column_code_and_fix() -> None:
    path = BAD / "references.yaml"
    result = run(str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{path}:12:23: error R002 unknown place 'betta' (did you mean 'beta'?); declare it under places" in lines
    assert f"{path}:6:3: warning R007 deck 'spare' is described but no ticket belongs to it; add it to some tickets' decks or remove it" in lines
    assert lines[-1] == "7 error(s), 1 warning(s)"


@pytest.mark.usefixtures("loader_only")
def test_every_problem_of_a_file_in_one_run() -> None:
    result = run(str(BAD / "schema-and-references.yaml"))
    codes = [line.split()[2] for line in result.output.splitlines()[:-1]]
    assert codes == ["R002", "S007", "S007"]


def _warning_only_board(tmp_path: Path) -> Path:
    text = (GOOD / "islands.yaml").read_text(encoding="utf-8").replace("decks:\n", "decks:\n  unused: {name: Nobody}\n", 1)
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.usefixtures("loader_only")
def test_warnings_exit_0_unless_strict(tmp_path: Path) -> None:
    path = _warning_only_board(tmp_path)
    relaxed = run(str(path))
    assert relaxed.exit_code == 0, relaxed.output
    assert " warning R007 " in relaxed.output
    strict = run("--strict", str(path))
    assert strict.exit_code == 1
    assert strict.output == relaxed.output


@pytest.mark.usefixtures("loader_only")
def test_variant_reports_its_board_once_even_when_both_are_given() -> None:
    variant, board = BAD / "variant-bad-board.yaml", BAD / "references.json"
    both = run(str(variant), str(board))
    alone = run(str(board))
    assert both.exit_code == alone.exit_code == 1
    assert both.output == alone.output  # the variant itself is clean; its board's problems show once
    assert os.path.normpath(board) + ":6:12: error R001" in both.output


@pytest.mark.usefixtures("loader_only")
def test_json_format_lists_every_field() -> None:
    path = BAD / "references.json"
    result = run("--format", "json", str(path))
    assert result.exit_code == 1
    rows = json.loads(result.output)
    assert rows[0] == {
        "path": str(path),
        "line": 6,
        "col": 12,
        "severity": "error",
        "code": "R001",
        "message": "duplicate place id 'alpha' (first at line 5); give each place its own id",
        "name": "duplicate-id",
    }
    assert [r["code"] for r in rows] == ["R001", "R002", "R004"]


@pytest.mark.usefixtures("loader_only")
def test_json_format_of_a_clean_file_is_an_empty_list() -> None:
    result = run("--format", "json", str(GOOD / "islands.yaml"))
    assert (result.exit_code, json.loads(result.output)) == (0, [])


@pytest.mark.usefixtures("loader_only")
def test_github_format_is_workflow_annotations() -> None:
    path = BAD / "references.json"
    result = run("--format", "github", str(path))
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first == (
        f"::error file={path},line=6,col=12,title=R001 duplicate-id::duplicate place id 'alpha' (first at line 5); give each place its own id"
    )


@pytest.mark.usefixtures("loader_only")
def test_sarif_format_has_a_rule_and_a_located_result_per_problem() -> None:
    path = BAD / "references.json"
    result = run("--format", "sarif", str(path))
    assert result.exit_code == 1
    log = json.loads(result.output)
    run0 = log["runs"][0]
    assert [r["id"] for r in run0["tool"]["driver"]["rules"]] == ["R001", "R002", "R004"]
    located = run0["results"][1]
    assert located["ruleId"] == "R002" and located["level"] == "error"
    assert located["locations"][0]["physicalLocation"]["region"] == {"startLine": 8, "startColumn": 38}


def test_help_names_the_exit_codes_and_formats() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for word in ("--format", "--strict", "text", "json", "github", "sarif", "0 clean", "1 problems", "2 usage"):
        assert word in result.output


def test_position_file_says_what_it_is_and_which_command_reads_it() -> None:
    path = MAPS.parent / "examples" / "positions" / "usa.yaml"
    result = run(str(path))
    assert result.exit_code == 1
    assert " error S010 this is a position file" in result.output
    assert f"`ttr-maps score {path}`" in result.output
    assert "S003" not in result.output and "Traceback" not in result.output


def test_findings_at_one_place_with_different_messages_are_all_kept():
    """A board validated with its variant reports each problem once, but two different
    problems that share a place and a code (say, two crossings reported at one route) both show."""
    from ttr_maps.diagnostics import Diagnostic, Severity, unique

    a = Diagnostic("b.yaml", 3, 5, Severity.WARNING, "D003", "crosses x-y")
    b = Diagnostic("b.yaml", 3, 5, Severity.WARNING, "D003", "crosses z-w")
    assert unique([a, b, a, b]) == [a, b]
    assert [d.message for d in unique([a, b, a])] == ["crosses x-y", "crosses z-w"]
