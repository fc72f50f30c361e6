"""The longest trail: exact against a brute-force reference; the rulebook's examples."""

from __future__ import annotations

import random

import pytest

from ttr_maps.engine.trail import longest_trail


def brute_trail(edges, terminals=()):
    """Reference: every walk with distinct edges from every place; arriving in a terminal place ends it.

    Exhaustive over (place, edges used so far): the longest way on from a place depends only on those two,
    so each is searched once (the plain recursion searched the same ones again for every order of the
    edges before it: 9.5 s of CPU for the random graphs below, 0.3 s this way)."""
    from functools import cache

    terminals = set(terminals)
    adj: dict = {}
    for i, (a, b, w) in enumerate(edges):
        adj.setdefault(a, []).append((i, b, w))
        if a != b:
            adj.setdefault(b, []).append((i, a, w))

    @cache
    def onward(x, used, first):
        """The longest way on from `x` with the edges of the bit mask `used` taken."""
        if x in terminals and not first:
            return 0
        return max((w + onward(y, used | 1 << i, False) for i, y, w in adj[x] if not used >> i & 1), default=0)

    return max((onward(x, 0, True) for x in adj), default=0)


def is_trail(edges, used, terminals=()):
    """Whether the edges `used` can be ridden in one go: connected, at most two odd places,
    and no terminal place in the middle (a terminal place has at most one of them)."""
    used = list(used)
    if not used:
        return True
    degree: dict = {}
    parent: dict = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for i in used:
        a, b, _w = edges[i]
        a = ("leaf", a, i) if a in terminals else a
        b = ("leaf", b, i) if b in terminals else b
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        parent[find(a)] = find(b)
    roots = {find(x) for x in degree}
    odd = sum(d % 2 for d in degree.values())
    return len(roots) == 1 and odd in (0, 2)


USA_LOOP = [
    ("new-york", "pittsburgh", 2),
    ("pittsburgh", "chicago", 3),
    ("chicago", "toronto", 4),
    ("toronto", "pittsburgh", 2),
    ("pittsburgh", "nashville", 4),
]


def test_usa_rulebook_loop_is_one_trail():
    # New York–Pittsburgh–Chicago–Toronto–Pittsburgh–Nashville: a loop through Pittsburgh is allowed.
    trail = longest_trail(USA_LOOP)
    assert trail.length == sum(w for _a, _b, w in USA_LOOP)
    assert trail.edges == frozenset(range(len(USA_LOOP)))


def test_usa_rulebook_route_never_ridden_twice():
    # Adding Chicago–Saint Louis: New York–...–Pittsburgh–Chicago–Saint Louis would ride Pittsburgh–Chicago
    # twice, so the longest trail must leave something out.
    edges = USA_LOOP + [("chicago", "saint-louis", 2)]
    total = sum(w for _a, _b, w in edges)
    trail = longest_trail(edges)
    assert trail.length < total
    assert trail.length == brute_trail(edges)
    assert is_trail(edges, trail.edges)
    assert sum(edges[i][2] for i in trail.edges) == trail.length


def test_empty_network_is_zero():
    assert longest_trail([]).length == 0


def test_country_is_never_passed_through():
    # a-X-b through country X would be 10 long; X is terminal, so the best is one side plus what leads to it.
    edges = [("a", "X", 5), ("X", "b", 5), ("a", "c", 1)]
    assert longest_trail(edges, {"X"}).length == 6
    assert longest_trail(edges).length == 11


def test_trail_may_start_and_end_in_the_same_country():
    # X-a-b-X leaves X and comes back to it as its two ends, never passing through.
    edges = [("X", "a", 3), ("a", "b", 3), ("b", "X", 3), ("X", "c", 4)]
    assert longest_trail(edges, {"X"}).length == 9


def test_parallel_routes_are_distinct_edges():
    edges = [("a", "b", 2), ("a", "b", 3)]
    assert longest_trail(edges).length == 5


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_matches_brute_force_on_random_small_graphs(seed):
    rng = random.Random(seed)
    for _ in range(60):
        places = rng.randint(1, 7)
        edges = []
        for _ in range(rng.randint(0, 11)):
            a, b = rng.randrange(places), rng.randrange(places)
            if a != b:
                edges.append((a, b, rng.randint(1, 6)))
        terminals = {p for p in range(places) if rng.random() < 0.2}
        trail = longest_trail(edges, terminals)
        assert trail.length == brute_trail(edges, terminals), (edges, terminals)
        assert sum(edges[i][2] for i in trail.edges) == trail.length
        assert is_trail(edges, trail.edges, terminals), (edges, terminals, trail)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_numpy_search_matches_brute_force_and_the_plain_search(seed, monkeypatch):
    """Step 4 on numpy arrays (big networks) finds the same trail as the plain search, and the exact length."""
    from ttr_maps.engine import trail as trail_module

    rng = random.Random(100 + seed)
    for _ in range(40):
        places = rng.randint(2, 7)
        edges = []
        for _ in range(rng.randint(1, 11)):
            a, b = rng.randrange(places), rng.randrange(places)
            if a != b:
                edges.append((a, b, rng.randint(1, 6)))
        terminals = {p for p in range(places) if rng.random() < 0.2}
        monkeypatch.setattr(trail_module, "VECTOR_FROM", 10**18)
        plain = longest_trail(edges, terminals)
        monkeypatch.setattr(trail_module, "VECTOR_FROM", 0)
        monkeypatch.setattr(trail_module, "_VECTOR_BLOCK", rng.choice([1, 5, 1 << 20]))
        vector = longest_trail(edges, terminals)
        assert vector == plain, (edges, terminals)
        assert vector.length == brute_trail(edges, terminals)


@pytest.mark.slow
def test_dense_fan_board_of_short_routes_stays_fast():
    """45 one-space routes in a 6x5 grid (c = 16): 2**16 cycle-space elements times 66 end pairs."""
    import time

    edges = []
    for x in range(6):
        for y in range(5):
            if x + 1 < 6:
                edges.append(((x, y), (x + 1, y), 1))
            if y + 1 < 5:
                edges.append(((x, y), (x, y + 1), 1))
    edges = edges[:45]
    start = time.process_time()
    found = longest_trail(edges)
    assert time.process_time() - start < 20  # about 1.5 s on a loaded 2-core machine; 35 s before numpy
    assert found.length == 35 and is_trail(edges, found.edges)


def _end_states(path, players, games):
    """Seeded random games of a variant played to the end (`players`, or as many as the variant allows)."""
    from conftest import ROOT

    from ttr_maps.engine.game import Game
    from ttr_maps.load import load_variant

    variant, _board = load_variant(ROOT / path)
    game = Game.from_file(ROOT / path, min(players, variant.players.max))
    for i in range(games):
        rng = random.Random(i)
        state = game.new_initial_state(i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        yield game, state


@pytest.mark.parametrize("path", ["maps/variants/usa.yaml", "maps/variants/marklin.yaml", "maps/variants/europe.yaml",
                                  "examples/alpenrand-rules.yaml"])
@pytest.mark.parametrize("players", [2, 4])
def test_game_end_networks_score_their_exact_longest_trail(path, players):
    """The longest trail on the sheet (final scoring's trail_of, over the board's numbered places and countries'
    dead ends) against the brute-force reference, on the networks random games end with: the same length,
    routes that ride as one trail, and the same trail as longest_trail over the places' names."""
    for game, state in _end_states(path, players, 6):
        board = game.board
        countries = game.board_index.countries
        for player, score in zip(state.position().players, state.score_sheet().players):
            edges = [(board.routes[r].from_, board.routes[r].to, board.routes[r].length) for r, _t in player.claims]
            assert score.longest_trail == brute_trail(edges, countries)
            named = longest_trail(edges, countries)
            assert score.trail_routes == tuple(sorted(player.claims[i][0] for i in named.edges))
            assert is_trail(edges, named.edges, countries)


def _random_networks(rng, places, edges_max, max_len=6):
    """A random multigraph over `places` numbered places (loops and parallel edges included)."""
    ends, weights = [], []
    for _ in range(rng.randint(0, edges_max)):
        ends.append((rng.randrange(places), rng.randrange(places)))
        weights.append(rng.randint(1, max_len))
    return ends, weights


@pytest.mark.parametrize("seed", range(6))
def test_trail_of_is_the_reference_route_for_route_on_random_networks(seed):
    """trail_of's pendant-tree steps (incident lists that lose the routes cut, descents only where there are
    some) find the very trail of the steps they replaced (tests/trail_reference.py): the same length and the
    same routes, ties included, on random networks with loops, parallel routes, trees and cycles."""
    from trail_reference import reference_trail_of

    from ttr_maps.engine.trail import trail_of

    rng = random.Random(seed)
    for _ in range(400):
        places = rng.randint(1, 12)
        ends, weights = _random_networks(rng, places, rng.choice((6, 14, 20)), rng.choice((1, 2, 6)))
        assert trail_of(ends, weights, places) == reference_trail_of(ends, weights, places), (ends, weights)


@pytest.mark.parametrize("path", ["maps/variants/usa.yaml", "maps/variants/marklin.yaml", "maps/variants/europe.yaml"])
def test_trail_of_is_the_reference_route_for_route_at_game_ends(path):
    """The same on the networks seeded random games end with (12 games, 2 and 4 players): every player's trail
    on the board's numbered places is the reference's, route for route."""
    from trail_reference import reference_trail_of

    from ttr_maps.engine.trail import trail_of

    checked = 0
    for players in (2, 4):
        for game, state in _end_states(path, players, 6):
            ix = game.board_index
            for p in range(players):
                routes = [game.t.t_route[tid] for tid in state.claims[p]]
                ends = [ix.route_nodes[r] for r in routes]
                weights = [ix.route_length[r] for r in routes]
                assert trail_of(ends, weights, ix.nodes) == reference_trail_of(ends, weights, ix.nodes)
                checked += len(routes)
    assert checked > 300
