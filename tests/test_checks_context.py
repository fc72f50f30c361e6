"""The shared check context, and the checks on odd but valid boards: findings, never a traceback."""

import random

import pytest
from click.testing import CliRunner

from ttr_maps.checks import CHECKS, run_checks
from ttr_maps.checks.context import Context
from ttr_maps.cli.main import cli
from ttr_maps.load import load
from ttr_maps.model import Board

COUNTRY_BOARD = {
    "format": "ttr-board/1",
    "meta": {"title": "countries"},
    "places": [
        {"id": "basel", "name": "Basel", "x": 0, "y": 0},
        {"id": "schweiz", "name": "Schweiz", "kind": "country", "x": 2, "y": 2},
        {"id": "lindau", "name": "Lindau", "x": 4, "y": 0},
        {"id": "ulm", "name": "Ulm", "x": 4, "y": -4},
    ],
    "routes": [
        {"from": "basel", "to": "schweiz", "length": 1, "tracks": ["gray"]},
        {"from": "schweiz", "to": "lindau", "length": 1, "tracks": ["gray"]},
        {"from": "basel", "to": "ulm", "length": 5, "tracks": ["red"]},
        {"from": "ulm", "to": "lindau", "length": 2, "tracks": ["blue"]},
    ],
    "tickets": [
        {"from": "basel", "to": "lindau", "points": 7, "decks": ["main"]},
        {"from": "schweiz", "to": "ulm", "points": 6, "decks": ["main"]},
    ],
}


def test_shortest_paths_never_pass_through_a_country():
    ctx = Context(Board.model_validate(COUNTRY_BOARD))
    assert ctx.spaces_from("basel") == {"basel": 0, "schweiz": 1, "ulm": 5, "lindau": 7}
    assert ctx.spaces_from("schweiz") == {"schweiz": 0, "basel": 1, "lindau": 1, "ulm": 3}
    assert ctx.ticket_spaces == {0: 7, 1: 3}
    assert ctx.connected_without_passing_countries("basel", "lindau")
    assert ctx.diameter_estimate == 7


def test_graph_merges_parallel_entries_and_drops_loops():
    data = dict(COUNTRY_BOARD, routes=COUNTRY_BOARD["routes"] + [
        {"from": "lindau", "to": "ulm", "length": 3, "tracks": ["green", "white"]},
        {"from": "ulm", "to": "ulm", "length": 1, "tracks": ["red"]},
    ])
    g = Context(Board.model_validate(data)).pairs
    pair = g.ends.index((g.index["lindau"], g.index["ulm"]))
    assert (g.length[pair], g.routes[pair], g.tracks[pair]) == (2, (3, 4), 3)
    assert g.degree("ulm") == 2  # basel and lindau: no edge to itself


def write(tmp_path, text):
    path = tmp_path / "b.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "body",
    [
        "places:\n  - {id: a, name: A, x: 0, y: 0}\n",
        "places:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, x: 0, y: 0}\n"
        "routes:\n  - {from: a, to: b, length: 1, tracks: [red]}\n  - {from: b, to: a, length: 1, tracks: [red], bend: [[0, 0]]}\n"
        "tickets:\n  - {from: a, to: b, points: 1, decks: [main]}\n",
        "places:\n  - {id: a, name: A, kind: country, lat: 0, lon: 0}\n  - {id: b, name: B, kind: country, lat: 0, lon: 1}\n"
        "routes:\n  - {from: a, to: b, length: 9, tracks: [gray], ferry: 9, tunnel: true}\n"
        "tickets:\n  - {from: a, to: b, points: 0, decks: [main]}\n  - {from: b, to: a, points: 0, decks: [main]}\n",
        "places:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, x: 1, y: 0}\n"
        "routes:\n  - {from: a, to: a, length: 1, tracks: [red]}\n"
        "tickets:\n  - {from: a, to: a, points: 1, decks: [main]}\n  - {from: a, to: b, points: 1, decks: [main]}\n",
    ],
    ids=["one-place", "coincident-places", "only-countries", "only-a-loop"],
)
def test_degenerate_boards_give_findings_not_tracebacks(tmp_path, body):
    path = write(tmp_path, "format: ttr-board/1\nmeta: {title: odd}\n" + body)
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output


def random_board(rng: random.Random) -> str:
    n = rng.randint(1, 12)
    lines = ["format: ttr-board/1", "meta: {title: random}"]
    if rng.random() < 0.5:
        lines.append(f"drawing: {{car_length: {rng.choice([0.1, 1, 50])}}}")
    lines.append("places:")
    for i in range(n):
        kind = ", kind: country" if rng.random() < 0.2 else ""
        lines.append(f"  - {{id: p{i}, name: {'P' * rng.randint(1, 30)}{kind}, x: {rng.uniform(-5, 5):.2f}, y: {rng.randint(-5, 5)}}}")
    lines.append("routes:")
    for _ in range(rng.randint(0, 3 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        length = rng.randint(1, 9)
        tracks = ", ".join(rng.choice(["red", "blue", "gray"]) for _ in range(rng.randint(1, 3)))
        extra = f", ferry: {rng.randint(0, 9)}" if rng.random() < 0.2 else ""
        extra += ", tunnel: true" if rng.random() < 0.2 else ""
        extra += f", bend: [[{rng.uniform(-5, 5):.1f}, {rng.uniform(-5, 5):.1f}]]" if rng.random() < 0.2 else ""
        lines.append(f"  - {{from: p{a}, to: p{b}, length: {length}, tracks: [{tracks}]{extra}}}")
    lines.append("tickets:")
    for _ in range(rng.randint(0, 2 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        lines.append(f"  - {{from: p{a}, to: p{b}, points: {rng.randint(0, 30)}, decks: [{rng.choice(['x', 'y'])}]}}")
    return "\n".join(lines) + "\n"


# The checks that lay the board out as `render` does (Context.drawing): 0.1 s to 9 s a random board here, the
# boards of 9-12 places with car length 50 (every route piled on every other) the slowest, 34 s of the 40 s
# this test took when they ran on every board.
DRAWN = ("D002", "D006", "D007", "D008", "D009")
DRAWN_MAX_PLACES = 8


@pytest.mark.slow
def test_random_boards_and_variants_never_crash_a_check(tmp_path):
    """Every check on 60 random boards and their variants; the checks of the drawn board (DRAWN) on the
    boards of up to 8 places (27 of the files that load: every car length, countries, loops,
    coincident places)."""
    rng = random.Random(7)
    drawn = 0
    for k in range(60):
        board = tmp_path / f"b{k}.yaml"
        board.write_text(random_board(rng), encoding="utf-8")
        variant = tmp_path / f"v{k}.yaml"
        players = rng.randint(1, 8)
        variant.write_text(
            f"format: ttr-variant/1\nname: v\nboard: b{k}.yaml\nplayers: {{min: 1, max: {players}}}\n"
            f"trains: {rng.randint(1, 60)}\nhand: {rng.randint(0, 10)}\n"
            f"cards: {{colors: {{red: {rng.randint(0, 12)}, blue: {rng.randint(0, 12)}}}, locomotives: {rng.randint(0, 3)}}}\n"
            f"ferry_tunnels: {rng.choice(['true', 'false'])}\n",
            encoding="utf-8",
        )
        for path in (board, variant):
            loaded = load(path)
            if loaded.ok:
                small = len(loaded.board.places) <= DRAWN_MAX_PLACES
                drawn += small
                for d in run_checks(loaded, ignore=() if small else DRAWN, config=False):
                    assert d.code in CHECKS and d.line >= 1 and d.col >= 1, d
    assert drawn >= 20, drawn  # the drawing checks ran on many boards


COUNTRY_LOOP = """\
format: ttr-board/1
meta: {title: a loop closed only through a country}
drawing: {car_length: 1}
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 3, y: 0}
  - {id: c, name: C, x: 3, y: 3}
  - {id: x, name: X, kind: country, x: 0, y: 3}
  - {id: d, name: D, x: 6, y: 3}
  - {id: e, name: E, x: 6, y: 6}
  - {id: y, name: Y, kind: country, x: 8, y: 5}
  - {id: z, name: Z, kind: country, x: -2, y: -2}
routes:
  - {from: a, to: b, length: 2, tracks: [red]}
  - {from: b, to: c, length: 2, tracks: [blue]}
  - {from: a, to: x, length: 2, tracks: [gray]}
  - {from: x, to: c, length: 2, tracks: [gray]}
  - {from: c, to: d, length: 2, tracks: [gray]}
  - {from: d, to: e, length: 2, tracks: [gray]}
  - {from: e, to: c, length: 2, tracks: [gray]}
  - {from: d, to: y, length: 2, tracks: [gray]}
  - {from: e, to: y, length: 2, tracks: [gray]}
  - {from: a, to: z, length: 2, tracks: [gray]}
"""


def test_bridges_and_cut_places_never_pass_through_a_country(tmp_path):
    # a-b-c is a loop only through the country x, which no path passes: a-b and b-c are bridges,
    # b is a cut place. y borders d and e, both behind c, so it counts with them; z hangs off a;
    # x borders a and c, on both sides of b, so it counts on neither.
    diags = run_checks(load(write(tmp_path, COUNTRY_LOOP)), ["G015", "G016"], config=False)
    assert sorted((d.code, d.message) for d in diags) == [
        ("G015", "route a–b is the only link to 2 place(s) (a, z); claiming it can cut them off"),
        ("G015", "route a–z is the only link to 1 place(s) (z); claiming it can cut them off"),
        ("G015", "route b–c is the only link to 3 place(s) (a, b, z); claiming it can cut them off"),
        # Without a, the country x still borders c: it counts with b's part.
        ("G016", "every path between 2 parts of the board passes through 'a': 1 place(s) around z, 6 place(s) around b"),
        ("G016", "every path between 2 parts of the board passes through 'b': 2 place(s) around a, 4 place(s) around c"),
        ("G016", "every path between 2 parts of the board passes through 'c': 3 place(s) around d, 4 place(s) around b"),
    ]


TWO_LOOPS = """\
format: ttr-board/1
meta: {title: two loops and a bridge}
places:
""" + "".join(f"  - {{id: {n}, name: {n.upper()}, x: {k * 2}, y: {k % 3 * 2}}}\n" for k, n in enumerate(["q0", "p0", "p3", "p1", "p4", "p2", "q1", "q2", "q3", "q4", "q5", "q6"])) + """\
routes:
""" + "".join(f"  - {{from: {a}, to: {b}, length: 1, tracks: [red]}}\n" for a, b in [
    ("p0", "p1"), ("p1", "p2"), ("p2", "p3"), ("p3", "p4"), ("p4", "p0"),
    ("q0", "q1"), ("q1", "q2"), ("q2", "q3"), ("q3", "q4"), ("q4", "q5"), ("q5", "q6"), ("q6", "q0"), ("p0", "q0")])


def test_a_bridge_names_the_first_places_of_the_smaller_part_in_the_file(tmp_path):
    # The five p places hang off the q loop by p0-q0: the finding names the first three p places as the
    # file lists them, the same on every run (it once took any three, differently from run to run).
    diags = run_checks(load(write(tmp_path, TWO_LOOPS)), ["G015"], config=False)
    assert [d.message for d in diags] == ["route p0–q0 is the only link to 5 place(s) (p0, p3, p1 …); claiming it can cut them off"]


@pytest.mark.slow
def test_ticket_spaces_match_a_reference_search_on_random_boards_with_countries():
    """The bucket-queue search and the greedy choice of sources give the shortest paths of a plain
    Dijkstra on the graph where countries are entered but never left."""
    import networkx as nx

    rng = random.Random(11)
    for _ in range(40):
        n = rng.randint(2, 30)
        places = [{"id": f"p{i}", "name": f"P{i}", "x": rng.uniform(0, 9), "y": rng.uniform(0, 9)} for i in range(n)]
        for p in rng.sample(places, rng.randint(0, n // 3)):
            p["kind"] = "country"
        routes = []
        for _ in range(rng.randint(1, 3 * n)):
            a, b = rng.sample(range(n), 2)
            routes.append({"from": f"p{a}", "to": f"p{b}", "length": rng.randint(1, 9), "tracks": ["gray"]})
        tickets = []
        for _ in range(rng.randint(1, 3 * n)):
            a, b = rng.randrange(n), rng.randrange(n)
            tickets.append({"from": f"p{a}", "to": f"p{b}", "points": 1, "decks": ["main"]})
        ctx = Context(Board.model_validate({"format": "ttr-board/1", "meta": {"title": "r"}, "places": places, "routes": routes, "tickets": tickets}))
        directed = nx.DiGraph()
        directed.add_nodes_from(p["id"] for p in places)
        g = ctx.pairs
        for (a, b), length in zip(g.ends, g.length):
            for u, v in ((a, b), (b, a)):
                directed.add_edge(g.names[u], g.names[v], weight=length)
        for k, ref in enumerate(ctx.tickets):
            a, b = ref.ends
            # Leave a country only at the start of the path.
            g = directed.copy()
            g.remove_edges_from([(c, v) for c in ctx.countries if c != a for v in list(directed[c])])
            try:
                want = nx.dijkstra_path_length(g, a, b)
            except nx.NetworkXNoPath:
                want = None
            assert ctx.ticket_spaces[k] == want, (ref.ends, ctx.ticket_spaces[k], want)
