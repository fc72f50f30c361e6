"""Position files: the bundled editions' games score, each bad file gives exactly its diagnostics."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import networkx as nx
import pytest
import yaml

from conftest import ROOT
from ttr_maps.engine.position import all_tickets
from ttr_maps.engine.position_file import QCODES, load_position
from ttr_maps.engine.scoring import final_score

POSITIONS = ROOT / "tests" / "positions"
GOOD = sorted((POSITIONS / "good").glob("*.yaml")) + sorted((ROOT / "examples" / "positions").glob("*.yaml"))
BAD = sorted((POSITIONS / "bad").glob("*.yaml"))
SCORING_MD = ROOT / "docs" / "scoring.md"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_every_bundled_variant_has_a_scored_position():
    variants = {p.stem for p in (ROOT / "maps" / "variants").glob("*.yaml")}
    covered = {p.stem for p in (POSITIONS / "good").glob("*.yaml")}
    assert variants <= covered, f"add tests/positions/good/<variant>.yaml for {sorted(variants - covered)}"


def ticket_done_by_own_routes(board, claims, ticket) -> bool:
    """Independent check with networkx: each route into a country gets its own country node."""
    countries = {p.id for p in board.places if p.is_country}
    g = nx.Graph()
    for r, _t in claims:
        a, b = board.routes[r].ends
        g.add_edge((a, r) if a in countries else a, (b, r) if b in countries else b)

    def nodes(place):
        return [n for n in g if n == place or (isinstance(n, tuple) and n[0] == place)]

    return any(nx.has_path(g, x, y) for x in nodes(ticket.from_) for y in nodes(ticket.to))


@pytest.mark.parametrize("path", GOOD, ids=rel)
def test_good_position_scores(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    loaded = load_position(rel(path))
    assert loaded.diagnostics == [], [d.as_text() for d in loaded.diagnostics]
    variant, board, position = loaded.variant, loaded.board, loaded.position
    sheet = final_score(variant, board, position)
    tickets = all_tickets(variant, board)
    assert sheet.winners
    best = max(p.total for p in sheet.players)
    assert all(sheet.players[i].total == best for i in sheet.winners)
    for player, score in zip(position.players, sheet.players):
        assert score.total == sum(score.breakdown.values())
        assert score.breakdown["routes"] == sum(variant.scoring.routes[board.routes[r].length] for r, _t in player.claims)
        assert sum(board.routes[r].length for r, _t in player.claims) <= variant.trains
        assert sorted(score.completed + score.failed) == sorted(player.tickets)
        assert score.breakdown["tickets_completed"] == sum(tickets[i].points for i in score.completed)
        assert score.breakdown["tickets_failed"] == -sum(tickets[i].points for i in score.failed)
        owners = {r: seat for seat, p in enumerate(position.players) for r, _t in p.claims}
        for b in score.borrowings:
            if b.route is not None:
                assert b.place in board.routes[b.route].ends
                assert owners[b.route] != sheet.players.index(score)
        for i in player.tickets:
            own = ticket_done_by_own_routes(board, player.claims, tickets[i])
            if not player.stations:
                assert (i in score.completed) == own, tickets[i].id
            elif own:
                assert i in score.completed  # a station only ever adds connections
        assert score.longest_trail == sum(board.routes[r].length for r in score.trail_routes)


@pytest.mark.parametrize("path", GOOD, ids=rel)
def test_good_position_matches_the_json_schema(path):
    schema = json.loads((ROOT / "schemas" / "position.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_positions_exercise_stations_countries_goods_and_flags():
    sheets = {}
    for path in (POSITIONS / "good").glob("*.yaml"):
        loaded = load_position(path)
        sheets[path.stem] = (loaded, final_score(loaded.variant, loaded.board, loaded.position))
    europe = sheets["europe"][1]
    assert any(b.route is not None for p in europe.players for b in p.borrowings)
    assert any(b.route is None for p in europe.players for b in p.borrowings)
    loaded, marklin = sheets["marklin"]
    countries = {p.id for p in loaded.board.places if p.is_country}
    tickets = all_tickets(loaded.variant, loaded.board)
    assert any({tickets[i].from_, tickets[i].to} & countries for p in marklin.players for i in p.completed)
    assert any(p.breakdown["goods"] for p in marklin.players)
    assert any(p.breakdown["most_tickets"] for p in marklin.players)
    assert any(p.breakdown["flags"] for p in sheets["paris"][1].players)


def expected(path: Path) -> list[tuple[str, int, int]]:
    return [(c, int(line), int(col)) for c, line, col in re.findall(r"^# expect: (Q\d{3}) (\d+):(\d+)$", path.read_text(encoding="utf-8"), re.M)]


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_position_gives_exactly_its_diagnostics(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    want = expected(path)
    assert want, f"{path.name} lists no `# expect: Qnnn line:col`"
    assert path.name.startswith(want[0][0].lower()), "a bad file is named after the code it shows"
    loaded = load_position(rel(path))
    got = sorted((d.code, d.line, d.col) for d in loaded.diagnostics if d.path == rel(path))
    assert got == sorted(want), [d.as_text() for d in loaded.diagnostics]
    errors = [c for c, _l, _c in want if c not in ("Q060", "Q061")]
    assert loaded.ok == (not errors)


def test_every_q_code_has_a_bad_file():
    shown = {p.name[:4].upper() for p in BAD}
    assert set(QCODES) - shown == set()


def test_every_q_code_is_documented():
    rows = dict(re.findall(r"^\| (Q\d{3}) \| ([a-z-]+) \|", SCORING_MD.read_text(encoding="utf-8"), flags=re.M))
    assert rows == {code: name for code, (name, _summary) in QCODES.items()}


def test_names_in_either_order_and_empty_lists(tmp_path):
    (tmp_path / "game.yaml").write_text(
        "format: ttr-position/1\n"
        f"variant: {ROOT / 'maps' / 'variants' / 'usa.yaml'}\n"
        "players:\n"
        "  - name: Ann\n"
        "    routes: [pittsburgh-new-york white, {route: york-new, color: green}]\n"
        "    tickets: [miami-boston]\n"
        "  - name: Bob\n"
        "    routes: [new-york-pittsburgh green]\n"
        "    tickets:\n"
        "  - name: Cleo\n"
        "  - name: Dev\n",
        encoding="utf-8",
    )
    loaded = load_position(tmp_path / "game.yaml")
    codes = [d.code for d in loaded.diagnostics]
    assert codes == ["Q011"]  # york-new is no route; both orders of real names work, `tickets:` is none
    (tmp_path / "game.yaml").write_text(
        (tmp_path / "game.yaml").read_text(encoding="utf-8").replace(", {route: york-new, color: green}", ""), encoding="utf-8"
    )
    loaded = load_position(tmp_path / "game.yaml")
    assert loaded.ok, [d.as_text() for d in loaded.diagnostics]
    board = loaded.board
    ann, bob, _cleo, _dev = loaded.position.players
    assert [board.routes[r].tracks[t] for r, t in ann.claims] == ["white"]
    assert [board.routes[r].tracks[t] for r, t in bob.claims] == ["green"]
    assert bob.tickets == ()
    assert {all_tickets(loaded.variant, board)[i].id for i in ann.tickets} == {"boston-miami"}


def test_same_coloured_double_route_needs_no_colour(tmp_path):
    (tmp_path / "game.yaml").write_text(
        "format: ttr-position/1\n"
        f"variant: {ROOT / 'maps' / 'variants' / 'usa.yaml'}\n"
        "players:\n"
        "  - {name: Ann, routes: [atlanta-raleigh]}\n"
        "  - {name: Bob, routes: [raleigh-atlanta]}\n"
        "  - {name: Cleo}\n"
        "  - {name: Dev}\n",
        encoding="utf-8",
    )
    loaded = load_position(tmp_path / "game.yaml")
    assert loaded.ok, [d.as_text() for d in loaded.diagnostics]
    (a,), (b,) = (p.claims for p in loaded.position.players[:2])
    assert a[0] == b[0] and a[1] != b[1]  # two players, two tracks of one gray double route


def test_the_example_in_docs_scores(tmp_path):
    (block,) = re.findall(r"```yaml\n(.*?)```", SCORING_MD.read_text(encoding="utf-8"), flags=re.S)
    variant = re.search(r"^variant: (\S+)", block, re.M).group(1)
    text = block.replace(variant, str((ROOT / "examples" / "positions" / variant).resolve()))
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    loaded = load_position(tmp_path / "game.yaml")
    assert loaded.ok, [d.as_text() for d in loaded.diagnostics]
    assert final_score(loaded.variant, loaded.board, loaded.position).winners
