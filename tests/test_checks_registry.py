"""The check registry: stable, unique, documented codes; the generated reference; `checks` and `explain`."""

import json
import re

import pytest
from click.testing import CliRunner

from conftest import ROOT
from ttr_maps.checks import CHECKS
from ttr_maps.checks.docs import markdown
from ttr_maps.cli.main import cli
from ttr_maps.diagnostics import Severity

LOADER_FAMILIES = set("PSRV")


def test_codes_are_unique_stable_and_keyed_by_their_own_code():
    for key, check in CHECKS.items():
        assert key == check.code
        assert re.fullmatch(r"[GDBC]\d{3}", check.code), check.code
        assert check.code[0] not in LOADER_FAMILIES
    assert list(CHECKS) == sorted(CHECKS, key=lambda c: ("GDBC".index(c[0]), c))


def test_names_are_unique_kebab_case_and_name_the_bad_pattern():
    names = [c.name for c in CHECKS.values()]
    assert len(names) == len(set(names))
    for name in names:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)+", name), name
        assert not name.startswith(("no-", "check-")), name


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_each_check_is_documented_with_why_and_examples(code):
    check = CHECKS[code]
    assert check.summary.endswith("."), check.summary
    assert "Why" in check.doc, f"{code}: say why it matters"
    assert ("Failing" in check.doc and "Passing" in check.doc) or ("Example" in check.doc and "No finding" in check.doc), code
    assert isinstance(check.severity, Severity)
    json.dumps(check.options)


def test_the_issue_checklist_is_covered():
    names = {c.name for c in CHECKS.values()}
    assert {
        "board-not-connected", "place-without-route", "route-to-itself", "ticket-end-unreachable", "path-through-country",
        "ticket-value-mismatch", "duplicate-ticket", "ticket-pile-too-small", "card-deck-too-small", "too-many-parallel-tracks",
        "color-without-cards", "ferry-longer-than-route", "ferry-tunnel-forbidden", "bridge-route", "cut-place",
        "markers-overlap", "label-collision", "routes-cross", "route-over-place", "route-stretched",
        "color-imbalance", "unusual-route-length-mix", "unusual-ticket-value-mix", "place-in-many-tickets",
        "place-in-no-ticket", "trains-spaces-mismatch",
    } <= names


def test_committed_reference_matches_the_registry():
    committed = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    assert committed == markdown(CHECKS), "docs/checks.md is stale: run `ttr-maps checks --markdown -o docs/checks.md`"


def test_reference_documents_every_code():
    text = markdown(CHECKS)
    for check in CHECKS.values():
        assert f"### {check.code} {check.name}" in text


def test_checks_command_lists_every_check():
    result = CliRunner().invoke(cli, ["checks"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(CHECKS)
    assert lines[0].split() == ["G001", "error", "board-not-connected", *CHECKS["G001"].summary.split()]


def test_checks_command_json():
    result = CliRunner().invoke(cli, ["checks", "--json"])
    rows = json.loads(result.output)
    assert [r["code"] for r in rows] == list(CHECKS)
    assert rows[5] == {
        "code": "G006", "name": "ticket-value-mismatch", "severity": "warning", "family": "graph",
        "summary": CHECKS["G006"].summary, "options": {"tolerance": 1, "accept": []}, "needs_variant": False,
    }


def test_checks_markdown_writes_the_reference(tmp_path):
    target = tmp_path / "checks.md"
    result = CliRunner().invoke(cli, ["checks", "--markdown", "-o", str(target)])
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8") == markdown(CHECKS)


def test_checks_output_without_markdown_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["checks", "-o", str(tmp_path / "x.md")])
    assert result.exit_code == 2


@pytest.mark.parametrize("query", ["G006", "g006", "ticket-value-mismatch"])
def test_explain_prints_the_docstring(query):
    result = CliRunner().invoke(cli, ["explain", query])
    assert result.exit_code == 0
    assert result.output.startswith("G006 ticket-value-mismatch (default warning; options: tolerance = 1, accept = [])\n\n")
    assert CHECKS["G006"].doc in result.output


@pytest.mark.parametrize("query", ["C001", "invalid-check-setting"])
def test_the_settings_code_is_a_registered_explainable_check(query):
    result = CliRunner().invoke(cli, ["explain", query])
    assert result.exit_code == 0
    assert result.output.startswith("C001 invalid-check-setting (default error)\n\n")
    assert "Failing" in result.output and "Passing" in result.output


def test_explain_says_when_a_check_needs_a_variant():
    result = CliRunner().invoke(cli, ["explain", "G012"])
    assert result.output.splitlines()[0] == "G012 color-without-cards (default error; runs with a variant)"


def test_explain_unknown_code_is_a_usage_error_with_a_suggestion():
    result = CliRunner().invoke(cli, ["explain", "routes-crossing"])
    assert result.exit_code == 2
    assert "no code 'routes-crossing' (did you mean 'routes-cross'?)" in result.output
    assert "Traceback" not in result.output


def test_explain_does_not_take_a_prefix():
    result = CliRunner().invoke(cli, ["explain", "G"])
    assert result.exit_code == 2


def test_checks_markdown_to_an_unwritable_place_is_a_clean_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(cli, ["checks", "--markdown", "-o", str(blocker / "checks.md")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot write")


def test_sarif_rules_carry_the_full_documentation_of_a_check():
    from ttr_maps.diagnostics import Diagnostic
    from ttr_maps.report import render

    diags = [Diagnostic("b.yaml", 3, 5, Severity.WARNING, code, "m", CHECKS[code].name) for code in ("D005", "C001")]
    rules = {r["id"]: r for r in json.loads(render("sarif", diags))["runs"][0]["tool"]["driver"]["rules"]}
    for code in ("D005", "C001"):
        doc = CHECKS[code].doc
        assert rules[code]["shortDescription"] == {"text": CHECKS[code].summary}
        assert rules[code]["help"] == {"text": doc, "markdown": doc}
        assert rules[code]["fullDescription"]["text"] == doc.split("\nWhy")[0].strip()
        assert "Why" not in rules[code]["fullDescription"]["text"]
