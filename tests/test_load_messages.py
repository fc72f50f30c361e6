"""What a user reads: each message says what is wrong and how to fix it, at the right node.
Also the library API: load/load_board/load_variant and what they return or raise."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_maps.diagnostics import LoadError, did_you_mean
from ttr_maps.load import load, load_board, load_variant

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HEAD = "format: ttr-board/1\nmeta: {title: t}\n"
TWO_PLACES = "places: [{id: alpha, name: A, x: 0, y: 0}, {id: beta, name: B, x: 1, y: 0}]\n"


def messages(tmp_path: Path, text: str, name: str = "b.yaml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [d.as_text().split(f"{path}:", 1)[1] for d in sorted(load(path).diagnostics)]


def test_misspelt_key_gets_did_you_mean_and_no_second_missing_key(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "routes: [{from: alpha, to: beta, lenght: 2, tracks: [red]}]\n")
    assert out == [
        "4:34: error S005 unknown key 'lenght' (did you mean 'length'?); allowed keys in routes[0]: id, from, to, length, tracks, ferry, tunnel, from_entry, to_entry, bend"
    ]


def test_missing_key_points_at_the_mapping_that_should_hold_it(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "routes:\n  - from: alpha\n    to: beta\n    tracks: [red]\n")
    assert out == ["5:5: error S006 missing key 'length' in routes[0]; add it (Number of spaces (cars) of each track)"]


def test_alias_from_is_reported_at_its_value(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "routes: [{from: Alpha, to: beta, length: 1, tracks: [red]}]\n")
    assert out == ["4:17: error S007 routes[0].from: 'Alpha' is not a valid id; use lower-case letters a-z, digits and hyphens, e.g. 'alpha'"]


def test_unknown_id_gets_did_you_mean(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "tickets: [{from: alpha, to: betta, points: 2, decks: [main]}]\n")
    assert out == ["4:29: error R002 unknown place 'betta' (did you mean 'beta'?); declare it under places"]


def test_choice_gets_did_you_mean_and_the_choices(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + "places: [{id: a, name: A, x: 0, y: 0, kind: County}]\n")
    assert out == ["3:45: error S007 places[0].kind: 'County' is not allowed (did you mean 'country'?); use 'city' or 'country'"]


def test_rule_across_keys_is_reported_at_the_item(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + "places:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, x: 0, y: 0, lat: 1, lon: 1}\n")
    assert out == ["5:5: error S007 places[1]: give either lat/lon or x/y, not both"]


def test_bad_mapping_key_is_reported_at_the_key(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "decks:\n  Long Ones: {long: true}\n")
    assert out[0] == "5:3: error S007 key 'Long Ones' in decks: 'Long Ones' is not a valid id; use lower-case letters a-z, digits and hyphens, e.g. 'long-ones'"


def test_tuple_item_is_reported_at_the_item(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "routes: [{from: alpha, to: beta, length: 1, tracks: [red], bend: [[0, 1], [2, x]]}]\n")
    assert out == ["4:79: error S008 routes[0].bend[1][1]: expected a number, got the text 'x'"]


@pytest.mark.parametrize(
    "value, message",
    [
        ('"2"', "expected a whole number, got the text '2'; remove the quotes"),
        ("yes", "expected a whole number, got the text 'yes'"),
        ("2.5", "expected a whole number, got the number 2.5"),
        ("[2]", "expected a whole number, got a list"),
    ],
)
def test_wrong_type_says_what_was_expected_and_what_came(tmp_path: Path, value: str, message: str) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + f"routes: [{{from: alpha, to: beta, length: {value}, tracks: [red]}}]\n")
    assert out == [f"4:42: error S008 routes[0].length: {message}"]


def test_number_where_text_is_needed_says_quote_it(tmp_path: Path) -> None:
    out = messages(tmp_path, "format: ttr-board/1\nmeta: {title: t, version: 1.10}\n" + TWO_PLACES)
    assert out == ["2:27: error S008 meta.version: expected text, got the number 1.1; put it in quotes: '1.1'"]


def test_newer_format_is_refused_and_nothing_else_is_checked(tmp_path: Path) -> None:
    out = messages(tmp_path, "format: ttr-variant/7\nwhatever: 1\n")
    assert out == ["1:9: error S004 'ttr-variant/7' is newer than this ttr-maps reads (up to ttr-variant/1); upgrade ttr-maps (pip install -U ttr-maps)"]


def test_duplicate_key_names_the_first(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + TWO_PLACES + "meta: {title: again}\n")
    assert out == ["4:1: error P009 duplicate key 'meta' (first at line 2); remove one of them (the first one is used)"]


def test_syntax_error_is_at_its_position_and_says_yaml(tmp_path: Path) -> None:
    out = messages(tmp_path, HEAD + "places: [{id: a\n")
    assert len(out) == 1 and out[0].startswith("4:1: error P006 YAML syntax error: ")


def test_json_syntax_error_is_at_its_position(tmp_path: Path) -> None:
    out = messages(tmp_path, '{"format": "ttr-board/1",\n "meta": {"title": "t"} "places": []}', "b.json")
    assert out == ['2:25: error P006 JSON syntax error: expected `,` or `}`, found "places"']


def test_error_inside_an_alias_is_reported_where_the_alias_is_used(tmp_path: Path) -> None:
    text = HEAD + "x-defaults: &d {name: P, x: 0, y: 0, kind: town}\n"
    out = messages(tmp_path, text + "places:\n  - {id: a, <<: *d}\n")
    assert "3:1: error S005 unknown key 'x-defaults'" in out[0]
    assert out[1].startswith("5:17: error S007 places[0].kind: 'town' is not allowed")


def test_did_you_mean_ignores_case_and_stays_quiet_when_nothing_is_close() -> None:
    assert did_you_mean("Paris", ["paris", "berlin"]) == " (did you mean 'paris'?)"
    assert did_you_mean("zzz", ["paris", "berlin"]) == ""


# --- the library API ---


def test_load_of_a_variant_also_loads_its_board() -> None:
    r = load(FIXTURES / "good" / "islands-rules.yaml")
    assert r.kind == "variant" and r.ok
    assert r.variant is not None and r.board is not None
    assert r.board_source is not None and r.board_source.path.endswith("islands.yaml")
    assert r.variant.cards.colors == {"red": 8, "blue": 8, "yellow": 8, "green": 8}


def test_models_are_none_when_anything_has_errors() -> None:
    r = load(FIXTURES / "bad" / "variant-bad-board.yaml")
    assert r.kind == "variant" and not r.ok
    assert r.variant is None and r.board is None
    r = load(FIXTURES / "bad" / "references.yaml")
    assert r.kind == "board" and r.board is None


def test_warnings_keep_the_model(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(HEAD + TWO_PLACES + "decks: {spare: {name: Spare}}\n", encoding="utf-8")
    r = load(path)
    assert [d.code for d in r.diagnostics] == ["R007"]
    assert r.ok and r.board is not None


def test_load_board_raises_with_diagnostics() -> None:
    with pytest.raises(LoadError) as e:
        load_board(FIXTURES / "bad" / "references.yaml")
    assert {d.code for d in e.value.diagnostics} == {"R001", "R002", "R003", "R004", "R007", "S007"}
    assert "references.yaml:10:10: error R001" in str(e.value)


def test_load_board_refuses_a_variant_and_load_variant_a_board() -> None:
    with pytest.raises(LoadError) as e:
        load_board(FIXTURES / "good" / "islands-rules.yaml")
    assert [d.code for d in e.value.diagnostics] == ["V002"]
    assert "a variant (format ttr-variant/1), not a board" in e.value.diagnostics[0].message
    with pytest.raises(LoadError) as e:
        load_variant(FIXTURES / "good" / "islands.yaml")
    assert [(d.code, d.line, d.col) for d in e.value.diagnostics] == [("V002", 2, 9)]


def test_load_variant_returns_both_models() -> None:
    variant, board = load_variant(FIXTURES / "good" / "lowlands-defaults.yaml")
    assert variant.name == "Lowlands with the core rules"
    assert [p.id for p in board.places] == ["amsterdam", "utrecht", "rotterdam", "den-haag"]


def test_board_positions_are_kept_for_later_checks() -> None:
    r = load(FIXTURES / "good" / "islands.yaml")
    assert r.source is not None
    assert r.source.pos(("routes", 1, "tracks", 0)) == (23, 57)
    assert r.source.pos(("routes", 1, "ferry")) == (23, 5)  # missing: the enclosing route
    assert r.source.pos(("decks", "long"), key=True) == (15, 3)


def test_default_scoring_table_missing_a_board_length_is_v003_naming_a_route(tmp_path: Path) -> None:
    board = tmp_path / "b.yaml"
    board.write_text(
        "format: ttr-board/1\nmeta: {title: t}\nplaces: [{id: a, name: A, x: 0, y: 0}, {id: b, name: B, x: 7, y: 0}]\n"
        "routes:\n  - {from: a, to: b, length: 7, tracks: [red]}\n",
        encoding="utf-8",
    )
    variant = tmp_path / "v.yaml"
    variant.write_text("format: ttr-variant/1\nname: v\nboard: b.yaml\n", encoding="utf-8")
    r = load(variant)
    own = [d for d in r.diagnostics if d.code.startswith("V")]
    assert [(d.code, d.line, d.col, d.severity.value) for d in own] == [("V003", 1, 1, "error")]
    assert "left out" in own[0].message and "a-b (length 7" in own[0].message and "7: <points>" in own[0].message
    assert not r.ok and r.variant is None
    variant.write_text("format: ttr-variant/1\nname: v\nboard: b.yaml\nscoring: {routes: {7: 18}}\n", encoding="utf-8")
    assert load(variant).ok


def test_mixed_positions_on_a_tie_keep_the_first_places_kind(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(
        "format: ttr-board/1\nmeta: {title: t}\nplaces:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, lat: 1, lon: 2}\n",
        encoding="utf-8",
    )
    diags = load(path).diagnostics
    assert [(d.code, d.line, d.col) for d in diags] == [("R010", 5, 5)]
    assert "place 'b' is placed by lat/lon" in diags[0].message and "give every place x/y" in diags[0].message


@pytest.mark.parametrize("make", ["folder", "binary"])
def test_unusable_board_is_also_reported_at_the_variants_board_line(tmp_path: Path, make: str) -> None:
    board = tmp_path / "board.yaml"
    if make == "folder":
        board.mkdir()
    else:
        board.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    variant = tmp_path / "v.yaml"
    variant.write_text("format: ttr-variant/1\nname: v\nboard: board.yaml\n", encoding="utf-8")
    diags = load(variant).diagnostics
    own = [(d.code, d.line, d.col) for d in diags if d.path == str(variant)]
    assert own == [("V013", 3, 8)]
    assert ("P002" if make == "folder" else "P004") in diags[-1].message
