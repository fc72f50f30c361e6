"""The shared board graph (ttr_maps/boardgraph.py): networks, parts and the country rule for shortest paths."""

import random
from pathlib import Path

import networkx as nx

from ttr_maps.boardgraph import INF, PlaceGraph, UnionFind, blocks, components, distances, spaces, tight_edges
from ttr_maps.checks.context import Context
from ttr_maps.load import load_board
from ttr_maps.model.board import Board

ROOT = Path(__file__).resolve().parent.parent


def _adj(n, routes):
    adj = [[] for _ in range(n)]
    for r, (a, b) in enumerate(routes):
        adj[a].append((r, b))
        adj[b].append((r, a))
    return adj


def _wadj(adj, length):
    return [[(v, length[e]) for e, v in row] for row in adj]


def test_union_find_joins_networks_and_copies_independently():
    uf = UnionFind()
    uf.union("a", "b")
    uf.union("c", "d")
    other = uf.copy()
    other.union("b", "c")
    assert uf.find("a") == uf.find("b") != uf.find("c") == uf.find("d")
    assert other.find("a") == other.find("d")
    assert uf.find("e") == "e"  # a node never joined is its own network


def test_distances_enter_a_country_but_never_pass_through_it():
    # 0 - 1(country) - 2, and a longer way 0 - 3 - 2
    adj = _adj(4, [(0, 1), (1, 2), (0, 3), (3, 2)])
    country = [False, True, False, False]
    cost = [1.0, 1.0, 2.0, 2.0]
    assert distances(adj, country, cost, [0]) == [0.0, 1.0, 4.0, 2.0]
    # from the country itself, paths start there
    assert distances(adj, country, cost, [1]) == [1.0, 0.0, 1.0, 3.0]
    # a route that cannot be used (INF) is never taken
    assert distances(adj, country, [1.0, 1.0, INF, 2.0], [0])[3] == INF
    # several sources: the nearest counts
    assert distances(adj, country, cost, [0, 2]) == [0.0, 1.0, 0.0, 2.0]


def test_spaces_count_paths_stop_at_the_wanted_places_and_keep_the_country_rule():
    # 0 -1- 1 -1- 3 and 0 -1- 2 -1- 3: two shortest paths to 3; 4 is a country between 3 and 5
    adj = _adj(6, [(0, 1), (1, 3), (0, 2), (2, 3), (3, 4), (4, 5)])
    country = [False, False, False, False, True, False]
    length = [1, 1, 1, 1, 2, 1]
    wadj = _wadj(adj, length)
    paths = [0.0] * 6
    assert spaces(wadj, country, 0, paths=paths) == [0, 1, 1, 2, 4, None]  # 5 only through the country
    assert paths[3] == 2.0 and paths[4] == 2.0
    assert spaces(wadj, country, 4) == [4, 3, 3, 2, 0, 1]  # a path may start in a country
    # stopping once 1 is settled: the far side is not searched
    assert spaces(wadj, country, 0, wanted={1})[4] is None


def test_tight_edges_are_the_routes_of_every_shortest_path_and_never_leave_a_country():
    # two shortest paths 0-1-3 and 0-2-3, a longer 0-3; a country 4 as short a way from 0 to 5 as 0-5 itself
    routes = [(0, 1), (1, 3), (0, 2), (2, 3), (0, 3), (0, 4), (4, 5), (0, 5)]
    adj = _adj(6, routes)
    country = [False, False, False, False, True, False]
    length = [1, 1, 1, 1, 3, 1, 1, 2]
    dist = spaces(_wadj(adj, length), country, 0)
    assert {e for e, _, _ in tight_edges(adj, country, length, dist, 0, 3)} == {0, 1, 2, 3}
    assert {e for e, _, _ in tight_edges(adj, country, length, dist, 0, 5)} == {7}
    assert list(tight_edges(adj, country, length, spaces(_wadj(adj, length), country, 1), 1, 1)) == []


def test_components_number_parts_by_their_first_place_and_skip_what_is_not_kept():
    adj = _adj(6, [(0, 3), (1, 2), (3, 4), (4, 5)])
    assert components(adj) == [0, 1, 1, 0, 0, 0]
    assert components(adj, [True, True, True, True, False, True]) == [0, 1, 1, 0, -1, 2]


def test_place_graph_merges_parallel_entries_drops_loops_and_keeps_the_networkx_edge_order():
    board = Board.model_validate({
        "format": "ttr-board/1", "meta": {"title": "t"},
        "places": [{"id": i, "name": i.upper(), "x": k, "y": 0} for k, i in enumerate("abcd")],
        "routes": [
            {"from": "c", "to": "a", "length": 3, "tracks": ["red"]},
            {"from": "a", "to": "b", "length": 2, "tracks": ["red"]},
            {"from": "a", "to": "c", "length": 1, "tracks": ["blue", "green"], "tunnel": True},
            {"from": "b", "to": "b", "length": 1, "tracks": ["red"]},
        ],
    })
    g = PlaceGraph(board)
    assert [(g.names[a], g.names[b]) for a, b in g.ends] == [("a", "c"), ("a", "b")]
    assert (g.length, g.routes, g.tracks, g.longest) == ([1, 2], [(0, 2), (1,)], [3, 1], 2)
    assert g.wadj == [[(2, 1), (1, 2)], [(0, 2)], [(0, 1)], []]
    assert [g.degree(p) for p in "abcd"] == [2, 1, 1, 0]
    for path in ("maps/boards/europe.yaml", "examples/alpenrand.yaml"):
        board = load_board(str(ROOT / path))
        g, nxg = PlaceGraph(board), _networkx_graph(board)
        assert [(g.names[a], g.names[b], g.length[k], list(g.routes[k])) for k, (a, b) in enumerate(g.ends)] == [
            (a, b, d["length"], d["routes"]) for a, b, d in nxg.edges(data=True)]


def _networkx_graph(board):
    """The board in networkx: places as nodes, one edge per pair of adjacent places with `length` (shortest
    route) and `routes` (the route entries' indices), as the design checks built it before `PlaceGraph`."""
    g = nx.Graph()
    g.add_nodes_from(p.id for p in board.places)
    known = set(g)
    for i, r in enumerate(board.routes):
        if r.from_ == r.to or r.from_ not in known or r.to not in known:
            continue
        if g.has_edge(r.from_, r.to):
            data = g.edges[r.from_, r.to]
            data["length"] = min(data["length"], r.length)
            data["routes"].append(i)
        else:
            g.add_edge(r.from_, r.to, length=r.length, routes=[i])
    return g


def _same_blocks_as_networkx(adj, keep, ends, h):
    """`blocks(adj, keep)` against networkx on `h`, the same graph over the kept places, its edges `ends`."""
    bridges, cut, found = blocks(adj, keep)
    assert [ends[e] for e in bridges] == list(nx.bridges(h))  # in networkx's order too: G015 lists them so
    assert {p for p, c in enumerate(cut) if c} == set(nx.articulation_points(h))
    assert sorted(found) == sorted(sorted(b) for b in nx.biconnected_components(h))
    assert all(block == sorted(block) for block in found)


def test_blocks_match_networkx_on_random_graphs():
    rng = random.Random(3)
    for trial in range(300):
        n = rng.randint(1, 30)
        pairs = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(rng.randint(0, 3 * n))} if n > 1 else set()
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_edges_from(sorted(pairs, key=lambda _: rng.random()))
        ends = list(g.edges())
        keep = [rng.random() < 0.8 for _ in range(n)] if trial % 2 else None
        _same_blocks_as_networkx(_adj(n, ends), keep, ends, g if keep is None else g.subgraph(p for p in range(n) if keep[p]))


def test_blocks_on_a_long_line_and_a_long_ring_need_no_recursion():
    n = 20_000
    bridges, cut, found = blocks(_adj(n, [(k, k + 1) for k in range(n - 1)]))
    assert bridges == list(range(n - 1)) and cut == [False] + [True] * (n - 2) + [False] and len(found) == n - 1
    bridges, cut, found = blocks(_adj(n, [(k, (k + 1) % n) for k in range(n)]))
    assert (bridges, any(cut), found) == ([], False, [list(range(n))])


def test_blocks_of_the_passable_graph_match_networkx_on_every_bundled_and_example_board():
    """Bridges (G015) and cut places (G016) are found on the graph paths may use: the cities and
    each country bordering a single city (`Context.passable`)."""
    paths = sorted((ROOT / "maps" / "boards").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
    paths = [p for p in paths if "\nformat: ttr-board/" in p.read_text(encoding="utf-8")]
    assert len(paths) >= 10
    for path in paths:
        board = load_board(str(path))
        ctx = Context(board)
        g = ctx.pairs
        adj, keep = ctx.passable
        full = _networkx_graph(board)
        countries = {p.id for p in board.places if p.is_country}
        leaves = {c for c in countries if len([n for n in full[c] if n not in countries]) == 1}
        h = nx.Graph()
        h.add_nodes_from(n for n in full if n not in countries or n in leaves)
        h.add_edges_from((a, b) for a, b in full.edges() if a in h and b in h and not (a in countries and b in countries))
        assert [g.names[p] for p in range(len(keep)) if keep[p]] == list(h)
        bridges, cut, found = blocks(adj, keep)
        assert [(g.names[a], g.names[b]) for a, b in (g.ends[e] for e in bridges)] == list(nx.bridges(h))
        assert {g.names[p] for p, c in enumerate(cut) if c} == set(nx.articulation_points(h))
        assert sorted(sorted(g.names[p] for p in b) for b in found) == sorted(sorted(b) for b in nx.biconnected_components(h))
