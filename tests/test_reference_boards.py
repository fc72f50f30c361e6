"""The bundled boards say exactly what the published boards say.

Each transcription in maps/boards/ is compared with the reference facts in
../shared/reference track by track and ticket by ticket, so a typo in a colour,
a length, a ferry count or a ticket value fails here. Places are matched by
their display names, which follow the published spellings.
"""

from __future__ import annotations

import csv
from collections import Counter

import networkx as nx
import pytest

from ttr_maps.load import load_board
from ttr_maps.model import Board

from conftest import MAPS, REFERENCE

needs_reference = pytest.mark.skipif(
    not REFERENCE.is_dir(), reason=f"reference facts not found at {REFERENCE} (only present in the project workspace)"
)

BOARDS = ["usa", "europe", "germany"]
# How far (degrees of latitude or longitude) a board may draw a place from its real position to give routes room.
NUDGE = 0.25
BIG_CITIES = {"London", "Berlin", "Moskva", "Paris", "Wien", "Madrid", "Roma", "Athina", "Angora"}


def _rows(folder: str, name: str) -> list[dict[str, str]]:
    with open(REFERENCE / folder / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _board(name: str) -> Board:
    return load_board(MAPS / "boards" / f"{name}.yaml")


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def board_tracks(board: Board) -> Counter:
    names = {p.id: p.name for p in board.places}
    return Counter(
        (*_pair(names[r.from_], names[r.to]), r.length, color, r.ferry, r.tunnel)
        for r in board.routes
        for color in r.tracks
    )


def reference_tracks(folder: str) -> Counter:
    return Counter(
        (*_pair(row["from"], row["to"]), int(row["length"]), row["color"], int(row["ferry_locomotives"]), row["tunnel"] == "yes")
        for row in _rows(folder, "routes.csv")
    )


def board_tickets(board: Board) -> Counter:
    names = {p.id: p.name for p in board.places}
    return Counter((*_pair(names[t.from_], names[t.to]), t.points, frozenset(t.decks)) for t in board.tickets)


def reference_tickets(folder: str) -> Counter:
    return Counter(
        (*_pair(row["from"], row["to"]), int(row["points"]), frozenset(row["decks"].split()))
        for row in _rows(folder, "tickets.csv")
    )


def _diff(ours: Counter, theirs: Counter) -> str:
    extra = sorted(map(str, (ours - theirs).elements()))
    missing = sorted(map(str, (theirs - ours).elements()))
    return f"\nin the board, not in the reference: {extra}\nin the reference, not in the board: {missing}"


@needs_reference
@pytest.mark.parametrize("name", BOARDS)
def test_places_match_reference(name: str) -> None:
    """Same names and kinds; each place drawn within NUDGE degrees of its reference position (a board may move a
    place a little where its routes need room for their cars: the drawn position is a drawing choice)."""
    board = _board(name)
    ours = {(p.name, p.kind) for p in board.places}
    rows = _rows(name, "cities.csv")
    theirs = {(r["name"], r["kind"]) for r in rows}
    assert ours == theirs, _diff(Counter(ours), Counter(theirs))
    where = {p.name: (p.lat, p.lon) for p in board.places}
    far = [
        f"{r['name']}: drawn at {where[r['name']]}, reference ({r['lat']}, {r['lon']})"
        for r in rows
        if max(abs(where[r["name"]][0] - float(r["lat"])), abs(where[r["name"]][1] - float(r["lon"]))) > NUDGE
    ]
    assert not far, f"places moved more than {NUDGE} degrees: {far}"


@needs_reference
@pytest.mark.parametrize("name", BOARDS)
def test_tracks_match_reference(name: str) -> None:
    ours, theirs = board_tracks(_board(name)), reference_tracks(name)
    assert ours == theirs, _diff(ours, theirs)


@needs_reference
@pytest.mark.parametrize("name", ["usa", "europe"])
def test_tickets_match_reference(name: str) -> None:
    ours, theirs = board_tickets(_board(name)), reference_tickets(name)
    assert ours == theirs, _diff(ours, theirs)


@pytest.mark.parametrize("name", BOARDS)
def test_route_ids_are_unique_place_pairs(name: str) -> None:
    """Parallel tracks are one route with several `tracks`, never two route entries."""
    pairs = Counter(frozenset(r.ends) for r in _board(name).routes)
    assert [p for p, n in pairs.items() if n > 1] == []


def _deck_sizes(board: Board) -> dict[str, int]:
    return {deck: len(board.tickets_in([deck])) for deck in board.deck_names}


def test_usa_counts() -> None:
    board = _board("usa")
    assert len([p for p in board.places if p.kind == "city"]) == 36
    assert sum(len(r.tracks) for r in board.routes) == 100
    assert _deck_sizes(board) == {"usa": 30, "usa1910": 35, "usa1910-revised": 34}
    assert not any(r.ferry or r.tunnel for r in board.routes)


def test_europe_counts() -> None:
    board = _board("europe")
    assert len([p for p in board.places if p.kind == "city"]) == 47
    assert sum(len(r.tracks) for r in board.routes) == 101
    assert any(r.ferry for r in board.routes) and any(r.tunnel for r in board.routes)
    assert _deck_sizes(board) == {
        "europe-regular": 40,
        "europe-long": 6,
        "1912-regular": 49,
        "1912-long": 6,
        "big-cities": 45,
    }
    assert len(board.tickets_in(["europe-regular", "europe-long", "1912-regular", "1912-long"])) == 101
    assert {d for d, info in board.decks.items() if info.long} == {"europe-long", "1912-long"}
    assert all(info.name for info in board.decks.values())


def test_europe_big_cities_are_tagged_and_every_big_cities_ticket_touches_one() -> None:
    board = _board("europe")
    tagged = {p.name for p in board.places if "big-city" in p.tags}
    assert tagged == BIG_CITIES
    big_ids = {p.id for p in board.places if "big-city" in p.tags}
    for t in board.tickets_in(["big-cities"]):
        assert {t.from_, t.to} & big_ids, f"Big Cities ticket {t.id} touches no big city"


def test_germany_counts() -> None:
    board = _board("germany")
    assert len([p for p in board.places if p.kind == "city"]) == 35
    assert len([p for p in board.places if p.kind == "country"]) == 5
    assert sum(len(r.tracks) for r in board.routes) == 110
    assert sum(1 for r in board.routes if len(r.tracks) == 3) == 2


# --- Germany: the tickets and goods are this project's own design (not in the reference) ---


def _route_graph(board: Board) -> nx.Graph:
    g = nx.Graph()
    for r in board.routes:
        g.add_edge(r.from_, r.to, weight=r.length)
    return g


def _shortest(board: Board, a: str, b: str) -> int:
    """Shortest path in spaces that passes through no country (countries may only be its ends)."""
    countries = {p.id for p in board.places if p.is_country}
    g = _route_graph(board)
    allowed = g.subgraph([n for n in g if n not in countries or n in (a, b)])
    return nx.shortest_path_length(allowed, a, b, weight="weight")


def test_germany_tickets_are_our_design_with_two_decks() -> None:
    board = _board("germany")
    text = " ".join(filter(None, [board.meta.description, board.meta.source])).lower()
    assert "own design" in text and "not the published" in text
    short, long = board.tickets_in(["short"]), board.tickets_in(["long"])
    assert (len(short), len(long), len(board.tickets)) == (23, 23, 46)
    assert all(5 <= t.points <= 11 for t in short)
    assert all(12 <= t.points <= 22 for t in long)
    assert board.decks["long"].long and not board.decks["short"].long
    countries = {p.id for p in board.places if p.is_country}
    assert any({t.from_, t.to} & countries for t in short)
    assert any({t.from_, t.to} & countries for t in long)
    assert len({frozenset((t.from_, t.to)) for t in board.tickets}) == 46, "a ticket is printed twice"


def test_germany_ticket_values_are_the_shortest_path() -> None:
    """Our Germany tickets are worth exactly the shortest path in spaces, never through a country."""
    board = _board("germany")
    wrong = [(t.id, t.points, _shortest(board, t.from_, t.to)) for t in board.tickets if t.points != _shortest(board, t.from_, t.to)]
    assert wrong == [], "(ticket, points, shortest path) that disagree"
    adjacent = {frozenset(r.ends) for r in board.routes}
    assert [t.id for t in board.tickets if frozenset((t.from_, t.to)) in adjacent] == []
    on_tickets = {end for t in board.tickets for end in (t.from_, t.to)}
    assert on_tickets == {p.id for p in board.places}, "every place is on some ticket"


def test_germany_goods_stacks() -> None:
    board = _board("germany")
    stacks = Counter((g.color, g.values) for g in board.goods)
    assert stacks == Counter({("black", (7, 6, 5, 4)): 1, ("red", (4, 3, 2)): 6, ("yellow", (3, 2, 1)): 12, ("white", (2,)): 16})
    assert sum(len(g.values) for g in board.goods) == 74
    berlin = [g for g in board.goods if g.place == "berlin"]
    assert [g.color for g in berlin] == ["black"]
    cities = {p.id for p in board.places if not p.is_country}
    placed = Counter(g.place for g in board.goods)
    assert set(placed) <= cities, "goods lie on cities, never on countries"
    assert max(placed.values()) == 1, "one stack per city"
    assert len(placed) == 35


def test_paris_board_shape() -> None:
    board = _board("paris")
    assert board.colors == ("blue", "red", "yellow", "green", "purple", "white")
    assert {r.length for r in board.routes} <= {1, 2, 3, 4}
    assert any(len(r.tracks) == 2 for r in board.routes)
    assert len(board.tickets) == 20
    assert all(p.lat is not None for p in board.places)
    assert "own design" in (board.meta.description or "").lower()
    assert nx.is_connected(_route_graph(board))
    wrong = [(t.id, t.points, _shortest(board, t.from_, t.to)) for t in board.tickets if t.points != _shortest(board, t.from_, t.to)]
    assert wrong == [], "our Paris tickets are worth their shortest path: (ticket, points, shortest path)"


def test_every_board_is_connected_without_passing_through_countries() -> None:
    """Every city reaches every other without riding through a country, and every country has a border route."""
    for path in sorted((MAPS / "boards").glob("*.yaml")):
        board = load_board(path)
        g = _route_graph(board)
        countries = {p.id for p in board.places if p.is_country}
        assert nx.is_connected(g.subgraph(set(g) - countries)), f"{path.name}: the cities fall apart"
        assert all(g.degree(c) > 0 for c in countries), f"{path.name}: a country without a border route"


def test_reference_counts_match_the_issue() -> None:
    """Guard against a changed reference folder: the counts the boards were built from."""
    if not REFERENCE.is_dir():
        pytest.skip(f"reference facts not found at {REFERENCE}")
    assert sum(1 for _ in _rows("usa", "routes.csv")) == 100
    assert sum(1 for _ in _rows("europe", "routes.csv")) == 101
    assert sum(1 for _ in _rows("germany", "routes.csv")) == 110
