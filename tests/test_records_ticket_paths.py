"""The routes a record counts as "on a ticket's shortest path" (a claim's `blocking` figure): every route
of some shortest path between the ticket's ends that passes through no country (a country is entered,
never passed through), checked against networkx on every bundled board and example; worked out per
ticket kept, so a big board does not build a table of its places squared."""

from __future__ import annotations

import glob
from pathlib import Path

import networkx as nx
import pytest

from ttr_maps.bundled import names
from ttr_maps.engine.game import Game
from ttr_maps.load import load_variant
from ttr_maps.simulate.records import TicketPaths, ticket_route_sets

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = [str(p) for p in names("variants").values()] + sorted(glob.glob(str(ROOT / "examples" / "*rules*.yaml")))


def _expected(game: Game, a: int, b: int) -> frozenset[int]:
    t = game.t
    g = nx.DiGraph()
    g.add_nodes_from(range(t.NP))
    for r, (u, v) in enumerate(t.route_ends):
        for x, y in ((u, v), (v, u)):
            if x != y and (x == a or not t.is_country[x]):  # leave a place only if it is the start or no country
                w = min(t.route_length[r], g.edges[x, y]["weight"]) if g.has_edge(x, y) else t.route_length[r]
                g.add_edge(x, y, weight=w)
    da = nx.single_source_dijkstra_path_length(g, a)
    to_b = nx.single_source_dijkstra_path_length(g.reverse(copy=False), b)
    if b not in da:
        return frozenset()
    best = da[b]
    out = set()
    for r, (u, v) in enumerate(t.route_ends):
        for x, y in ((u, v), (v, u)):
            if x != y and g.has_edge(x, y) and x in da and y in to_b and da[x] + t.route_length[r] + to_b[y] == best:
                out.add(r)
    return frozenset(out)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: Path(p).stem)
def test_ticket_paths_are_the_routes_of_shortest_paths_through_no_country(path: str) -> None:
    variant, board = load_variant(path)
    game = Game(variant, board, variant.players.min)
    paths = TicketPaths(game)
    for k, (a, b) in enumerate(paths.ends):
        assert paths[k] == _expected(game, a, b), game.t.ticket_keys[k]


def test_a_path_through_a_country_does_not_count() -> None:
    """Märklin: Emden-Koblenz is as short through the Netherlands as inside Germany; the route into the
    Netherlands from Münster is on no path a player can use."""
    variant, board = load_variant(str(ROOT / "maps" / "variants" / "marklin.yaml"))
    game = Game(variant, board, 2)
    t = game.t
    paths = ticket_route_sets(game)
    k = t.ticket_keys.index("emden-koblenz")
    used = {t.route_ids[r] for r in paths[k]}
    assert "munster-niederlande" not in used and "emden-munster" in used
    assert ticket_route_sets(game) is paths  # one per game, shared by its records
