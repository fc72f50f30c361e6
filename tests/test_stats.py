"""`ttr-maps stats`: the figures a designer reads, checked against the reference facts.

Expected figures are computed here from the reference CSVs (not typed in), so the
test says "stats reports what the published board has", whatever that is.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import networkx as nx
import pytest
import yaml
from click.testing import CliRunner

from conftest import MAPS, REFERENCE
from ttr_maps.cli.main import cli
from ttr_maps.load import load_board, load_variant

needs_reference = pytest.mark.skipif(
    not REFERENCE.is_dir(), reason=f"reference facts not found at {REFERENCE} (only present in the project workspace)"
)


def run(*args: str):
    return CliRunner().invoke(cli, ["stats", *args])


def stats_json(*args: str) -> dict:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _rows(folder: str, name: str) -> list[dict[str, str]]:
    path = REFERENCE / folder / name
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def expected_from_reference(folder: str) -> dict:
    """The stats figures of a published board, computed from its reference CSVs."""
    cities = _rows(folder, "cities.csv")
    routes = _rows(folder, "routes.csv")
    tickets = _rows(folder, "tickets.csv")
    pairs = Counter(frozenset((r["from"], r["to"])) for r in routes)
    neighbours: dict[str, set[str]] = defaultdict(set)
    for r in routes:
        neighbours[r["from"]].add(r["to"])
        neighbours[r["to"]].add(r["from"])
    decks: dict[str, dict[str, int]] = defaultdict(lambda: {"count": 0, "points": 0})
    for t in tickets:
        for d in t["decks"].split():
            decks[d]["count"] += 1
            decks[d]["points"] += int(t["points"])
    ferry = [r for r in routes if int(r["ferry_locomotives"]) > 0]
    spaces_by_color: Counter = Counter()
    for r in routes:
        spaces_by_color[r["color"]] += int(r["length"])
    return {
        "places": len(cities),
        "cities": sum(c["kind"] == "city" for c in cities),
        "countries": sum(c["kind"] == "country" for c in cities),
        "tracks": len(routes),
        "routes": len(pairs),
        "parallel": {"2": sum(n == 2 for n in pairs.values()), "3": sum(n == 3 for n in pairs.values())},
        "spaces": sum(int(r["length"]) for r in routes),
        "spaces_by_color": dict(spaces_by_color),
        "tracks_by_color": dict(Counter(r["color"] for r in routes)),
        "tracks_by_length": {k: v for k, v in Counter(r["length"] for r in routes).items()},
        "ferries": len(ferry),
        "ferry_locomotives": sum(int(r["ferry_locomotives"]) for r in ferry),
        "tunnels": sum(r["tunnel"] == "yes" for r in routes),
        "tickets_by_deck": dict(decks),
        "degree_by_name": {name: len(n) for name, n in neighbours.items()},
    }


def reference_shortest_path(folder: str, a: str, b: str) -> int:
    """Shortest path in spaces between two display names, avoiding countries in between (the oracle)."""
    countries = {c["name"] for c in _rows(folder, "cities.csv") if c["kind"] == "country"} - {a, b}
    g = nx.Graph()
    for r in _rows(folder, "routes.csv"):
        if r["from"] not in countries and r["to"] not in countries:
            g.add_edge(r["from"], r["to"], weight=int(r["length"]))
    return nx.shortest_path_length(g, a, b, weight="weight")


@needs_reference
@pytest.mark.parametrize("folder", ["usa", "europe", "germany"])
def test_json_counts_match_reference(folder: str) -> None:
    got = stats_json(str(MAPS / "boards" / f"{folder}.yaml"))
    want = expected_from_reference(folder)
    for key in ("places", "cities", "countries", "tracks", "routes", "parallel", "spaces",
                "spaces_by_color", "tracks_by_color", "tracks_by_length",
                "ferries", "ferry_locomotives", "tunnels"):
        assert got[key] == want[key], key
    if want["tickets_by_deck"]:
        assert got["tickets_by_deck"] == want["tickets_by_deck"]
    names = {p.id: p.name for p in load_board(MAPS / "boards" / f"{folder}.yaml").places}
    assert {names[p]: d for p, d in got["degree"].items()} == want["degree_by_name"]


@needs_reference
@pytest.mark.parametrize("folder", ["usa", "europe"])
def test_ticket_shortest_paths_match_reference(folder: str) -> None:
    got = stats_json(str(MAPS / "boards" / f"{folder}.yaml"))
    names = {p.id: p.name for p in load_board(MAPS / "boards" / f"{folder}.yaml").places}
    assert len(got["tickets"]) == len(_rows(folder, "tickets.csv"))
    for t in got["tickets"]:
        assert t["shortest_path"] == reference_shortest_path(folder, names[t["from"]], names[t["to"]]), t


@needs_reference
def test_germany_country_tickets_never_pass_through_a_country() -> None:
    got = stats_json(str(MAPS / "boards" / "germany.yaml"))
    names = {p.id: p.name for p in load_board(MAPS / "boards" / "germany.yaml").places}
    for t in got["tickets"]:
        assert t["shortest_path"] == reference_shortest_path("germany", names[t["from"]], names[t["to"]]), t
        assert t["value"] == t["shortest_path"], "our Germany tickets are worth their shortest path"


def test_json_key_set_is_stable() -> None:
    got = stats_json(str(MAPS / "boards" / "usa.yaml"))
    assert list(got) == [
        "places", "cities", "countries", "tracks", "routes", "parallel", "spaces",
        "spaces_by_color", "tracks_by_color", "tracks_by_length", "ferries", "ferry_locomotives",
        "tunnels", "tickets_by_deck", "degree", "tickets",
    ]
    assert set(got["tickets"][0]) == {"from", "to", "decks", "value", "shortest_path"}


TINY = """\
format: ttr-board/1
meta: {title: Tiny}
colors: [red, blue]
places:
  - {id: a, name: Aston, x: 0, y: 0}
  - {id: b, name: Brill, x: 10, y: 0}
  - {id: land, name: Outland, kind: country, x: 5, y: 5}
  - {id: lonely, name: Lonely, x: 50, y: 50}
routes:
  - {from: a, to: land, length: 1, tracks: [red]}
  - {from: land, to: b, length: 1, tracks: [blue]}
  - {from: a, to: b, length: 5, tracks: [red, gray], ferry: 2}
  - {from: b, to: lonely, length: 3, tracks: [gray, gray, blue], tunnel: true}
tickets:
  - {from: a, to: b, points: 5, decks: [one]}
  - {from: a, to: land, points: 2, decks: [one, two]}
  - {from: lonely, to: land, points: 9, decks: [two]}
"""


def test_paths_avoid_countries_and_counts_on_a_tiny_board(tmp_path: Path) -> None:
    board = tmp_path / "tiny.yaml"
    board.write_text(TINY, encoding="utf-8")
    got = stats_json(str(board))
    by_pair = {(t["from"], t["to"]): t["shortest_path"] for t in got["tickets"]}
    assert by_pair[("a", "b")] == 5, "a path may not ride through the country"
    assert by_pair[("a", "land")] == 1, "a country may be a ticket's end"
    assert by_pair[("lonely", "land")] == 4
    assert got["parallel"] == {"2": 1, "3": 1}
    assert (got["tracks"], got["routes"], got["spaces"]) == (7, 4, 21)
    assert (got["ferries"], got["ferry_locomotives"], got["tunnels"]) == (2, 4, 3)
    assert got["spaces_by_color"] == {"red": 6, "blue": 4, "gray": 11}
    assert got["tracks_by_length"] == {"1": 2, "3": 3, "5": 2}
    assert got["tickets_by_deck"] == {"one": {"count": 2, "points": 7}, "two": {"count": 2, "points": 11}}
    assert got["degree"] == {"a": 2, "b": 3, "land": 2, "lonely": 1}


def test_unreachable_ticket_has_no_shortest_path(tmp_path: Path) -> None:
    board = tmp_path / "split.yaml"
    board.write_text(TINY.replace("  - {from: b, to: lonely, length: 3, tracks: [gray, gray, blue], tunnel: true}\n", ""), encoding="utf-8")
    got = stats_json(str(board))
    assert [t["shortest_path"] for t in got["tickets"] if t["from"] == "lonely"] == [None]
    assert "-" in run(str(board)).stdout.splitlines()[-1]


def test_variant_figures() -> None:
    got = stats_json(str(MAPS / "boards" / "europe.yaml"), "--variant", str(MAPS / "variants" / "europe.yaml"))
    v = got["variant"]
    assert v["cards"]["total"] == 110
    for color, row in v["cards"]["by_color"].items():
        assert row["cards"] == 12
        assert row["spaces"] == got["spaces_by_color"][color]
        assert row["cards_per_space"] == round(12 / row["spaces"], 3)
    assert v["cards"]["gray_spaces"] == got["spaces_by_color"]["gray"]
    assert v["trains"]["by_players"]["5"]["trains"] == 225
    assert v["trains"]["by_players"]["2"]["share_of_spaces"] == round(90 / got["spaces"], 3)
    assert sorted(v["trains"]["by_players"]) == ["2", "3", "4", "5"]
    assert v["ticket_piles"] == {"long": {"count": 6, "points": got["tickets_by_deck"]["europe-long"]["points"]},
                                 "regular": {"count": 40, "points": got["tickets_by_deck"]["europe-regular"]["points"]}}


def test_variant_file_alone_is_the_same_as_board_plus_variant() -> None:
    alone = stats_json(str(MAPS / "variants" / "paris.yaml"))
    both = stats_json(str(MAPS / "boards" / "paris.yaml"), "--variant", str(MAPS / "variants" / "paris.yaml"))
    assert alone == both
    assert alone["variant"]["trains"]["by_players"]["4"]["trains"] == 60


def test_text_output_is_tables_with_names() -> None:
    result = run(str(MAPS / "variants" / "marklin.yaml"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "places: 40 (35 cities, 5 countries)" in out
    assert "routes: 85 (110 tracks; 21 double, 2 triple)" in out
    for header in ("colour  tracks  spaces", "length  tracks", "deck", "place", "ticket", "cards/space", "share of spaces"):
        assert header in out
    assert "München" in out and "munchen" not in out


def test_missing_file_exits_1_with_a_clear_message() -> None:
    result = run("no/such/board.yaml")
    assert result.exit_code == 1
    assert "no/such/board.yaml:0:0: error P001 file not found" in result.output
    assert "Traceback" not in result.output


def test_broken_board_exits_1_with_its_diagnostics(tmp_path: Path) -> None:
    board = tmp_path / "broken.yaml"
    board.write_text(TINY.replace("to: b, length: 5", "to: bb, length: 5"), encoding="utf-8")
    result = run(str(board))
    assert result.exit_code == 1
    assert f"{board}:" in result.output and "R002 unknown place 'bb'" in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_variant_of_another_board_exits_1() -> None:
    result = run(str(MAPS / "boards" / "usa.yaml"), "--variant", str(MAPS / "variants" / "europe.yaml"))
    assert result.exit_code == 1
    assert "is a variant of" in result.output and "europe.yaml" in result.output


def test_board_given_as_variant_exits_1() -> None:
    result = run(str(MAPS / "boards" / "usa.yaml"), "--variant", str(MAPS / "boards" / "usa.yaml"))
    assert result.exit_code == 1
    assert "is a board, not a variant" in result.output


def test_bad_format_option_is_usage_error() -> None:
    assert run(str(MAPS / "boards" / "usa.yaml"), "--format", "xml").exit_code == 2


# --- docs/walkthrough.md stays true ---

WALKTHROUGH = MAPS.parent / "docs" / "walkthrough.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", WALKTHROUGH.read_text(encoding="utf-8"), flags=re.S)


def test_walkthrough_boards(tmp_path: Path) -> None:
    first, grown = [b for b in _blocks("yaml") if b.startswith("format: ttr-board/1")]
    (tmp_path / "three-harbours.yaml").write_text(first, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "three-harbours.yaml")])
    assert result.exit_code == 1
    shown = _blocks("text")[0].splitlines()
    for line in shown:
        assert line.replace("three-harbours.yaml", str(tmp_path / "three-harbours.yaml"), 1) in result.output
    example = yaml.safe_load((MAPS.parent / "examples" / "three-harbours.yaml").read_text(encoding="utf-8"))
    doc = yaml.safe_load(grown)
    for key in ("places", "routes", "tickets", "colors", "drawing"):
        assert doc[key] == example[key], f"the walkthrough's {key} differ from examples/three-harbours.yaml"


def test_walkthrough_outputs_are_real() -> None:
    board = run(str(MAPS.parent / "examples" / "three-harbours.yaml")).stdout.splitlines()
    rules = run(str(MAPS.parent / "examples" / "three-harbours-rules.yaml")).stdout.splitlines()
    for block, output in zip(_blocks("text")[1:3], (board, rules)):
        for line in block.splitlines():
            if line != "...":
                assert line in output, f"the walkthrough shows {line!r}, which stats does not print"


def test_tickets_a_variant_adds_are_listed_and_counted() -> None:
    """tickets.add (vellmar-rules.yaml adds a Highgate-Skerry bonus ticket) counts like the board's tickets."""
    examples = MAPS.parent / "examples"
    board_only = stats_json(str(examples / "vellmar.yaml"))
    with_rules = stats_json(str(examples / "vellmar.yaml"), "--variant", str(examples / "vellmar-rules.yaml"))
    variant = load_variant(examples / "vellmar-rules.yaml")[0]
    added = [(t.from_, t.to) for t in variant.tickets.add]
    assert ("highgate", "skerry") in added
    pairs = [(t["from"], t["to"]) for t in with_rules["tickets"]]
    assert pairs == [(t["from"], t["to"]) for t in board_only["tickets"]] + added
    assert "bonus" not in board_only["tickets_by_deck"]
    bonus = [t for t in variant.tickets.add if "bonus" in t.decks]
    assert with_rules["tickets_by_deck"]["bonus"] == {"count": len(bonus), "points": sum(t.points for t in bonus)}
    row = with_rules["tickets"][pairs.index(("highgate", "skerry"))]
    assert row["decks"] == ["bonus"] and isinstance(row["shortest_path"], int)
    assert "Highgate - Skerry" in run(str(examples / "vellmar-rules.yaml")).stdout
