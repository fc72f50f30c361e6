"""Test cases are files: every bad fixture gives exactly the diagnostics in its `.expected`
sidecar (`line:col CODE`, or `other-file:line:col CODE` for a variant's board), and every
good fixture loads clean. The committed JSON Schema agrees with the loader on them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT
from ttr_maps.load import load, read_source
from ttr_maps.load.codes import LOADER_CODES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BAD = sorted(p for p in (FIXTURES / "bad").iterdir() if p.suffix in (".yaml", ".json"))
GOOD = sorted(p for p in (FIXTURES / "good").iterdir() if p.suffix in (".yaml", ".json"))
# Codes no committed file can show (a missing file, a folder, a file over 10 MiB, an unreadable
# file); tests/test_load_robustness.py covers each of them.
NOT_AS_FIXTURES = {"P001", "P002", "P003", "P013"}


def _expected(path: Path) -> list[str]:
    lines = path.with_name(path.name + ".expected").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def _found(path: Path) -> list[str]:
    out = []
    for d in sorted(load(path).diagnostics):
        where = "" if Path(d.path) == path else os.path.relpath(d.path, path.parent) + ":"
        out.append(f"{where}{d.line}:{d.col} {d.code}")
    return out


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_fixture_gives_exactly_the_expected_diagnostics(path: Path) -> None:
    assert _found(path) == _expected(path)


@pytest.mark.parametrize("path", [p for p in BAD if p.suffix == ".yaml"], ids=lambda p: p.name)
def test_bad_fixture_reads_the_same_without_libyaml(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML without its C extension (some platforms) must give the same diagnostics."""
    import yaml

    from ttr_maps.load import source

    monkeypatch.setattr(source, "_Parser", yaml.SafeLoader)
    assert _found(path) == _expected(path)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_fixture_is_not_ok(path: Path) -> None:
    r = load(path)
    if all(line.endswith(("R007",)) for line in _expected(path)):
        pytest.skip("warnings only")
    assert not r.ok and r.board is None and r.variant is None


def test_every_loader_code_has_a_fixture() -> None:
    shown = {line.split()[-1] for p in BAD for line in _expected(p)}
    assert shown | NOT_AS_FIXTURES == set(LOADER_CODES), "add a bad fixture for each new code"
    assert not shown & NOT_AS_FIXTURES


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_good_fixture_loads_clean(path: Path) -> None:
    r = load(path)
    assert r.diagnostics == []
    assert r.ok and r.board is not None
    assert (r.variant is not None) == (r.kind == "variant")


def test_json_board_reads_like_yaml_numbers_and_escapes() -> None:
    board = load(FIXTURES / "good" / "lowlands.json").board
    assert board is not None
    assert board.place_by_id["den-haag"].lon == 4.3
    assert board.meta.description == "A lat/lon board written as JSON: café / tabs\tare fine."


def test_anchors_and_merge_keys_are_plain_yaml() -> None:
    board = load(FIXTURES / "good" / "anchors.yaml").board
    assert board is not None
    beta = board.place_by_id["beta"]
    assert (beta.name, beta.x, beta.y) == ("Beta", 3, 0)
    assert [t.decks for t in board.tickets] == [("main",), ("main",)]


def test_variant_defaults_deal_from_one_main_pile() -> None:
    r = load(FIXTURES / "good" / "lowlands-defaults.yaml")
    assert r.variant is not None and r.board is not None
    assert r.variant.tickets.setup.piles() == ("main",)
    assert r.board_path == os.path.normpath(FIXTURES / "good" / "lowlands.json")


# --- the JSON Schema accepts what the loader accepts ---


def _schema(kind: str) -> dict:
    return json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _as_json(data: object) -> object:
    """The data as JSON sees it (mapping keys are text), which is what the schema describes."""
    return json.loads(json.dumps(data))


def _schema_errors(path: Path) -> list[str] | None:
    """The schema's complaints about a file, or None when it has no data of a known kind."""
    src = read_source(path)
    data = src.data
    if not isinstance(data, dict) or data.get("format") not in ("ttr-board/1", "ttr-variant/1"):
        return None
    kind = "board" if data["format"] == "ttr-board/1" else "variant"
    validator = jsonschema.Draft202012Validator(_schema(kind))
    return [e.message for e in validator.iter_errors(_as_json(data))]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_schema_accepts_good_fixture(path: Path) -> None:
    assert _schema_errors(path) == []


def _own_codes(path: Path) -> list[str]:
    return [line.split()[-1] for line in _expected(path) if line.count(":") == 1]


# Bad fixtures the schema can judge: data of a known format that parses (the others are
# files the schema never sees, e.g. broken YAML or another format).
SCHEMA_JUDGED = [p for p in BAD if _schema_errors(p) is not None and not any(c.startswith("P") for c in _own_codes(p))]


def test_the_schema_judges_bad_fixtures_both_with_and_without_schema_problems() -> None:
    with_s = [p for p in SCHEMA_JUDGED if any(c.startswith("S") for c in _own_codes(p))]
    assert with_s and len(with_s) < len(SCHEMA_JUDGED)


@pytest.mark.parametrize("path", SCHEMA_JUDGED, ids=lambda p: p.name)
def test_schema_rejects_exactly_the_bad_fixtures_with_schema_problems(path: Path) -> None:
    errors = _schema_errors(path)
    has_schema_problem = any(code.startswith("S") for code in _own_codes(path))
    assert bool(errors) == has_schema_problem, errors


BASE_PLACE = {"id": "a", "name": "A"}


@pytest.mark.parametrize(
    "extra, loader_ok",
    [
        ({"x": 1, "y": 2}, True),
        ({"lat": 1, "lon": 2}, True),
        ({"x": 1, "y": 2, "lat": 1, "lon": 2}, False),
        ({"x": 1}, False),
        ({"lat": 1}, False),
        ({"x": 1, "lon": 2}, False),
        ({}, False),
        ({"x": "1", "y": 2}, False),
        ({"x": 1.5, "y": 2, "kind": "country"}, True),
        ({"x": 1, "y": 2, "kind": "town"}, False),
    ],
)
def test_schema_and_loader_agree_on_place_positions(tmp_path: Path, extra: dict, loader_ok: bool) -> None:
    board = {"format": "ttr-board/1", "meta": {"title": "t"}, "places": [{**BASE_PLACE, **extra}]}
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    assert load(path).ok == loader_ok
    assert jsonschema.Draft202012Validator(_schema("board")).is_valid(board) == loader_ok


@pytest.mark.parametrize(
    "routes, loader_ok",
    [
        ("{1: 1, 2: 2, 9: 30}", True),
        ("{1: 1, 2: 2, 10: 31, 12: 42}", True),
        ("{0: 1}", False),
        ("{13: 1}", False),
        ("{1: -1}", False),
        ("{two: 2}", False),
    ],
)
def test_schema_and_loader_agree_on_scoring_lengths(tmp_path: Path, routes: str, loader_ok: bool) -> None:
    good = FIXTURES / "good"
    path = tmp_path / "v.yaml"
    path.write_text(f"format: ttr-variant/1\nname: v\nboard: {good / 'lowlands.json'}\nscoring:\n  routes: {routes}\n", encoding="utf-8")
    r = load(path)
    assert r.ok == loader_ok, [d.as_text() for d in r.diagnostics]
    assert (_schema_errors(path) == []) == loader_ok


@pytest.mark.parametrize("value, loader_ok", [("2", True), ("2.0", True), ("2.5", False), ('"2"', False), ("true", False)])
def test_schema_and_loader_agree_on_whole_numbers(tmp_path: Path, value: str, loader_ok: bool) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(
        "format: ttr-board/1\nmeta: {title: t}\nplaces: [{id: a, name: A, x: 0, y: 0}, {id: b, name: B, x: 1, y: 0}]\n"
        f"routes: [{{from: a, to: b, length: {value}, tracks: [red]}}]\n",
        encoding="utf-8",
    )
    assert load(path).ok == loader_ok
    assert (_schema_errors(path) == []) == loader_ok


def test_lone_surrogate_reads_as_replacement_and_pairs_stay_characters() -> None:
    src = read_source(FIXTURES / "bad" / "lone-surrogate.json")
    assert src.data["meta"] == {"title": "Lone \ufffd surrogate", "author": "pair \U0001F600 is fine, \\udc00 is text"}
    assert [d.message for d in src.diagnostics][0].startswith("JSON syntax error: invalid unicode escape \\udc00")


@pytest.mark.parametrize(
    "section, loader_ok",
    [
        ("cards: {colors: {pink: 12, white: 12, blue: 12, yellow: 12, orange: 12, black: 12, red: 12, green: 12}}", True),
        ("cards: {colors: {Red: 12}}", False),
        ("tickets: {piles: {Main: [main]}}", False),
        ("tickets: {setup: {deal: [{pile: main, count: 3}], keep_max: {Main Pile: 1}}}", False),
        ("tickets: {setup: {deal: [{pile: main, count: 3}], returned: {'main!': box}}}", False),
        ("tickets: {leftover_at_setup: {MAIN: box}}", False),
    ],
)
def test_schema_and_loader_agree_on_variant_mapping_keys(tmp_path: Path, section: str, loader_ok: bool) -> None:
    """Mappings keyed by ids or colour names refuse other keys in the schema too (additionalProperties: false)."""
    path = tmp_path / "v.yaml"
    path.write_text(f"format: ttr-variant/1\nname: v\nboard: {FIXTURES / 'good' / 'lowlands.json'}\n{section}\n", encoding="utf-8")
    r = load(path)
    assert r.ok == loader_ok, [d.as_text() for d in r.diagnostics]
    assert (_schema_errors(path) == []) == loader_ok


@pytest.mark.parametrize("key, loader_ok", [("long-routes", True), ("Big Deck", False), ("-x", False)])
def test_schema_and_loader_agree_on_deck_keys(tmp_path: Path, key: str, loader_ok: bool) -> None:
    board = {
        "format": "ttr-board/1",
        "meta": {"title": "t"},
        "places": [{"id": "a", "name": "A", "x": 0, "y": 0}, {"id": "b", "name": "B", "x": 1, "y": 0}],
        "tickets": [{"from": "a", "to": "b", "points": 1, "decks": [key]}],
        "decks": {key: {"name": "D"}},
    }
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    assert not any(d.code.startswith(("S", "P")) for d in load(path).diagnostics) == loader_ok
    assert jsonschema.Draft202012Validator(_schema("board")).is_valid(board) == loader_ok
