"""The reporters: what CI systems and editors read must be exactly their format."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from ttr_maps.diagnostics import Diagnostic, Severity
from ttr_maps.report import REPORTERS, render

DIAGS = [
    Diagnostic("maps/b.yaml", 3, 7, Severity.WARNING, "R007", "deck 'x' unused", "unused-deck"),
    Diagnostic("maps/a board.yaml", 12, 1, Severity.ERROR, "R002", "unknown place 'y'\nsecond line, 100%", "unknown-place"),
    Diagnostic("maps/a board.yaml", 0, 0, Severity.ERROR, "P001", "file not found; check the path", "file-not-found"),
    Diagnostic("maps/b.yaml", 1, 1, Severity.INFO, "X901", "a note from an unregistered family", "some-check"),
]

# The parts of the SARIF 2.1.0 schema (OASIS) that our logs use, with their required
# properties and value ranges, so a log that a SARIF viewer would reject fails here.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["tool"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "name": {"type": "string"},
                                                "shortDescription": {
                                                    "type": "object",
                                                    "required": ["text"],
                                                    "properties": {"text": {"type": "string"}},
                                                },
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": -1},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "required": ["uri"],
                                                        "properties": {"uri": {"type": "string", "pattern": "^[^ ]+$"}},
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "required": ["startLine"],
                                                        "properties": {
                                                            "startLine": {"type": "integer", "minimum": 1},
                                                            "startColumn": {"type": "integer", "minimum": 1},
                                                        },
                                                    },
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_every_format_is_registered() -> None:
    assert sorted(REPORTERS) == ["github", "json", "sarif", "text"]


def test_text_is_one_line_per_problem_sorted_by_file_line_column_with_a_count() -> None:
    out = render("text", DIAGS).splitlines()
    assert out == [
        "maps/a board.yaml:0:0: error P001 file not found; check the path",
        "maps/a board.yaml:12:1: error R002 unknown place 'y'\\nsecond line, 100%",
        "maps/b.yaml:1:1: info X901 a note from an unregistered family",
        "maps/b.yaml:3:7: warning R007 deck 'x' unused",
        "2 error(s), 1 warning(s), 1 info",
    ]


def test_text_of_notes_only_says_nothing_to_fix() -> None:
    assert render("text", DIAGS[3:]).splitlines()[-1] == "1 info note(s), nothing to fix"
    assert render("text", []) == ""


def test_json_round_trips_the_diagnostics() -> None:
    rows = json.loads(render("json", DIAGS))
    assert [Diagnostic(**{**r, "severity": Severity(r["severity"])}) for r in rows] == sorted(DIAGS)
    assert rows[1]["message"] == "unknown place 'y'\nsecond line, 100%"


def test_github_escapes_data_and_properties() -> None:
    out = render("github", DIAGS).splitlines()
    assert out[0] == "::error file=maps/a board.yaml,title=P001 file-not-found::file not found; check the path"
    assert out[1] == "::error file=maps/a board.yaml,line=12,col=1,title=R002 unknown-place::unknown place 'y'%0Asecond line, 100%25"
    assert out[2].startswith("::notice file=maps/b.yaml,line=1,col=1,")
    assert out[3].startswith("::warning file=maps/b.yaml,line=3,col=7,title=R007 unused-deck::")


def test_github_escapes_commas_and_colons_in_paths() -> None:
    d = Diagnostic("C:/maps/a,b.yaml", 1, 2, Severity.ERROR, "S005", "m", "unknown-key")
    assert render("github", [d]) == "::error file=C%3A/maps/a%2Cb.yaml,line=1,col=2,title=S005 unknown-key::m"


def test_sarif_matches_the_sarif_2_1_0_shape() -> None:
    log = json.loads(render("sarif", DIAGS))
    jsonschema.Draft7Validator(SARIF_SUBSET).validate(log)
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "ttr-maps"
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert [r["level"] for r in run["results"]] == ["error", "error", "note", "warning"]


def test_sarif_rules_describe_loader_codes() -> None:
    rules = json.loads(render("sarif", DIAGS))["runs"][0]["tool"]["driver"]["rules"]
    by_id = {r["id"]: r for r in rules}
    assert by_id["R002"]["name"] == "unknown-place"
    assert "place id" in by_id["R002"]["shortDescription"]["text"]
    assert by_id["X901"]["name"] == "some-check"  # not registered: the diagnostic's own name


def test_sarif_whole_file_problem_has_no_region_and_paths_are_uris() -> None:
    run = json.loads(render("sarif", DIAGS))["runs"][0]
    whole, located = run["results"][0], run["results"][1]
    assert "region" not in whole["locations"][0]["physicalLocation"]
    assert whole["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "maps/a%20board.yaml"
    assert located["locations"][0]["physicalLocation"]["region"] == {"startLine": 12, "startColumn": 1}


def test_sarif_absolute_path_is_a_file_uri(tmp_path: Path) -> None:
    d = Diagnostic(str(tmp_path / "b.yaml"), 1, 1, Severity.ERROR, "S005", "m", "unknown-key")
    uri = json.loads(render("sarif", [d]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (tmp_path / "b.yaml").as_uri()


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_no_diagnostics_is_valid_output(fmt: str) -> None:
    out = render(fmt, [])
    if fmt in ("json", "sarif"):
        json.loads(out)
    else:
        assert out == ""
