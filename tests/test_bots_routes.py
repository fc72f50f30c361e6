"""The route-level legal actions bots use (`legal_actions(payments=False)`): the same choices as the full list."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ttr_maps.engine.actions import ClaimTrack, DrawBlind, DrawFaceUp, Pass
from ttr_maps.engine.claims import RouteLegal
from ttr_maps.engine.game import PH_TURN, Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml")) + sorted((ROOT / "examples").glob("*-rules.yaml"))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_route_legal_lists_the_same_actions_as_legal_actions(variant):
    """In random positions where players mostly draw (big hands, many payments): the routes are those with a listed
    claim, in the order of their first claim; each route's claims are the listed ones, in order; the rest is equal."""
    probe = Game.from_file(variant, 2)
    game = Game.from_file(variant, min(3 if "paris" not in variant.stem else 2, probe.variant.players.max))
    rng = random.Random(variant.stem)
    state = game.new_initial_state(5)
    turns = with_claims = 0
    while not state.is_terminal():
        full = state.legal_actions()
        compact = state.legal_actions(payments=False)
        assert isinstance(compact, RouteLegal)
        claims = [a for a in full if type(a) is ClaimTrack]
        assert list(compact) == [a for a in full if type(a) is not ClaimTrack]
        routes = list(dict.fromkeys(a.route for a in claims))
        assert [r for r in range(len(game.t.route_ids)) if compact.can_claim(r)] == sorted(routes)
        assert not compact.can_claim(-1) and not compact.can_claim(len(game.t.route_ids))  # no such route
        assert list(compact.routes) == routes
        assert compact.listed == -1
        for r in range(len(game.t.route_ids)):  # a route without a claim has none listed
            assert compact.claims(r) == [a for a in claims if a.route == r]
            # `listed` (the runner takes a claim of it without a can_claim test): the last route with claims
            assert compact.listed == (max(x for x in routes if x <= r) if any(x <= r for x in routes) else -1)
        for r in routes:
            tids = game.t.route_tids[r]
            assert compact.routes[r] == list(dict.fromkeys(tids[a.track] for a in claims if a.route == r))
        assert compact.claims(-1) == []
        if state.phase == PH_TURN:
            turns += 1
            with_claims += bool(routes)
        draws = [a for a in full if type(a) in (DrawBlind, DrawFaceUp)]
        state.apply(rng.choice(draws if draws and rng.random() < 0.7 else full))
    assert turns > 20 and with_claims > 5


def test_route_legal_passes_only_when_nothing_else_is_legal():
    """A player who can only claim does not get `pass`; one who can do nothing does."""
    game = Game.from_file(ROOT / "maps" / "variants" / "usa.yaml", 2)
    state = game.new_initial_state(1)
    while state.phase != PH_TURN:
        state.apply(state.legal_actions()[-1])
    p = state.current
    state.deck.clear()
    state.face_up = [-1] * len(state.face_up)
    state.discard = [0] * len(state.discard)
    state.discard_total = 0
    for pile in state.piles.values():
        pile.clear()
    state.hands[p] = [0] * game.t.NK
    assert state.legal_actions() == [Pass()]
    assert state.legal_actions(payments=False) == [Pass()]
    state.hands[p][0] = 6
    full = state.legal_actions()
    assert full and all(type(a) is ClaimTrack for a in full)
    compact = state.legal_actions(payments=False)
    assert list(compact) == [] and compact.routes


def test_route_legal_holds_no_state():
    """What a bot is handed refers to no part of the state: changing the state later changes nothing in it."""
    game = Game.from_file(ROOT / "maps" / "variants" / "europe.yaml", 2)
    state = game.new_initial_state(3)
    while state.phase != PH_TURN:
        state.apply(state.legal_actions()[-1])
    compact = state.legal_actions(payments=False)
    p = state.current
    before = {r: compact.claims(r) for r in compact.routes}
    assert compact._hand is not state.hands[p] and compact._open is not state.group_open[p]
    state.hands[p][:] = [0] * game.t.NK
    assert {r: compact.claims(r) for r in compact.routes} == before


@pytest.mark.parametrize("variant,players", [("europe", 3), ("marklin", 2), ("paris", 2)])
def test_planning_bots_play_the_same_games_from_either_list(variant, players, monkeypatch):
    """The planning bots choose the same actions from the route-level list as from every claim with every payment
    (stations, tunnels, passengers and flags included): the records are byte-identical."""
    from ttr_maps.bots.planner import PlanningBot
    from ttr_maps.simulate.runner import play_game, record_line

    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    bots = ["expert", "route-focus", "ticket-hungry", "long-route"][:players]
    fast = [record_line(play_game(game, bots, seed, seed)) for seed in (1, 2)]
    monkeypatch.setattr(PlanningBot, "route_level", False)
    assert [record_line(play_game(game, bots, seed, seed)) for seed in (1, 2)] == fast
