"""Bots: every bot plays every bundled variant legally to the end; bots see only their seat's observation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ttr_maps.bots import BOTS, bot_names, make_bot
from ttr_maps.bots.view import ObservationView, StateView
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml"))
PLANNING = ["expert", "route-focus", "ticket-hungry", "long-route"]


def _games():
    cache = {}

    def get(path, n):
        key = (path, n)
        if key not in cache:
            cache[key] = Game.from_file(path, n)
        return cache[key]

    return get


GAME = _games()


def play(game: Game, names: list[str], seed: int, check=None):
    bots = [make_bot(name, game, s, seed * 7 + s) for s, name in enumerate(names)]
    state = game.new_initial_state(seed)
    steps = 0
    while not state.is_terminal():
        p = state.current
        legal = state.legal_actions()
        view = StateView(state, p)
        a = bots[p].act(view, legal)
        assert a in legal, f"{names[p]} chose an illegal action {a!r} in phase {state.phase_name}"
        if check:
            check(state, p, view)
        state.apply(a)
        steps += 1
        assert steps < 20_000, "the game did not finish"
    return state


def test_registry_names_every_bot():
    assert bot_names() == ["random", "route-focus", "ticket-hungry", "long-route", "expert"]
    for name, cls in BOTS.items():
        assert cls.name == name and cls.description


def test_unknown_bot_is_a_clear_error():
    game = GAME(VARIANTS[0], 2)
    with pytest.raises(KeyError, match="unknown bot 'nobody'; known bots: random"):
        make_bot("nobody", game, 0, 1)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_every_bot_finishes_every_variant_legally(variant):
    """Each bundled variant: the four planning bots, and the expert against random, each play a whole game legally."""
    game4 = GAME(variant, 4)
    state = play(game4, PLANNING, seed=11)
    assert state.is_terminal()
    assert state.counters.get("all-passed", 0) == 0  # the bots ended the game by trains, not by getting stuck
    assert len(state.score_sheet().players) == 4
    game2 = GAME(variant, 2)
    state = play(game2, ["expert", "random"], seed=5)
    assert state.is_terminal()


def test_bots_are_deterministic_given_their_seeds():
    game = GAME(ROOT / "maps" / "variants" / "europe.yaml", 3)
    a = play(game, ["expert", "random", "long-route"], seed=3)
    b = play(game, ["expert", "random", "long-route"], seed=3)
    assert a.history == b.history


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_state_view_shows_exactly_the_observation(variant):
    """The fast view carries what state.observation(seat) carries, for every seat, in positions of a whole game."""
    game = GAME(variant, 3)
    rng = random.Random(variant.stem)
    seen = [0]

    def check(state, p, view):
        if rng.random() < 0.15:
            for seat in range(game.num_players):
                obs = state.observation(seat)
                assert StateView(state, seat).to_observation() == obs
                assert ObservationView(game, obs).to_observation() == obs
            seen[0] += 1

    play(game, ["expert", "random", "route-focus"], seed=2, check=check)
    assert seen[0] > 5


def test_views_hide_other_hands():
    game = GAME(ROOT / "maps" / "variants" / "usa.yaml", 2)
    state = game.new_initial_state(1)
    view = StateView(state, 0)
    assert view.hand == state.hands[0]
    assert view.cards(1) == sum(state.hands[1])
    assert not hasattr(view, "hands") and not hasattr(view, "deck_order")


def test_expert_beats_random():
    """The strongest bot wins nearly every game against random (a quick check; benchmarks/bench_simulate.py measures more)."""
    game = GAME(ROOT / "maps" / "variants" / "usa.yaml", 2)
    wins = 0
    for seed in range(10):
        names = ["expert", "random"] if seed % 2 == 0 else ["random", "expert"]
        state = play(game, names, seed)
        wins += names.index("expert") in state.winners()
    assert wins >= 9
