"""`State.legal_sequence()`: the legal actions as a sequence that builds a claim only when asked for it.

A random bot takes `len()` and one `seq[i]`; simulate's runner hands it this sequence instead of the list, so
the sequence must be the list: the same length, the same objects at every index, in every position of every
bundled variant and fan example, and it must read like a list for everything else (iteration, `in`, `==`...).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from ttr_maps.bots import BOTS
from ttr_maps.bots.random_bot import RandomBot
from ttr_maps.engine.game import Game
from ttr_maps.engine.legal import LegalActions
from ttr_maps.simulate.runner import GameSource, RunSpec, play_game, run_games

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml")) + sorted((ROOT / "examples").glob("*-rules.yaml"))


def _configs():
    for path in VARIANTS:
        players = Game.from_file(path, 2).variant.players
        for n in sorted({players.min, players.max}):
            yield pytest.param(path, n, id=f"{path.stem}-{n}p")


def _same_at_every_turn(game: Game, games: int, seed: int) -> tuple[int, int]:
    """Play seeded random games; at every decision the sequence equals the list, index by index. (Decisions,
    those with the claims kept lazily.)"""
    turns = lazy = 0
    for i in range(games):
        rng = random.Random(seed * 1000 + i)
        state = game.new_initial_state(seed * 7919 + i)
        while not state.is_terminal():
            listed = state.legal_actions()
            seq = state.legal_sequence()
            assert len(seq) == len(listed)
            turns += 1
            if isinstance(seq, LegalActions):
                lazy += 1
                for k in range(len(listed)):  # the very objects, by index, without the list built
                    assert seq[k] is listed[k]
                assert seq._list is None
                assert seq.tolist() == listed
            else:  # other phases, and turns without gray claims: the list itself
                assert type(seq) is list and seq == listed
            state.apply(listed[rng.randrange(len(listed))])
    return turns, lazy


def _checked(game: Game, games: int, seed: int) -> None:
    turns, lazy = _same_at_every_turn(game, games, seed)
    assert turns > 0
    if game.variant.name in ("USA", "Europe", "Märklin"):  # many gray routes: claims kept lazily were met
        assert lazy > turns / 10


@pytest.mark.parametrize("path,players", list(_configs()))
def test_sequence_is_the_list_at_every_turn(path, players):
    _checked(Game.from_file(path, players), 2, 1)


@pytest.mark.slow
@pytest.mark.parametrize("path,players", list(_configs()))
def test_sequence_is_the_list_over_many_games(path, players):
    _checked(Game.from_file(path, players), 12, 2)


def _a_turn_with_claims(game: Game, seed: int = 3):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while True:
        seq = state.legal_sequence()
        if isinstance(seq, LegalActions) and any(type(a).__name__ == "ClaimTrack" for a in state.legal_actions()[5:]):
            return state, seq
        state.apply(rng.choice(state.legal_actions()))


def test_sequence_reads_like_the_list():
    game = Game.from_file(ROOT / "maps" / "variants" / "usa.yaml", 4)
    state, seq = _a_turn_with_claims(game)
    listed = state.legal_actions()
    assert seq[-1] is listed[-1] and seq[-len(listed)] is listed[0]
    assert seq[2:7] == listed[2:7] and seq[::-1] == listed[::-1]
    assert list(seq) == listed and list(reversed(seq)) == listed[::-1]
    last = listed[-1]
    assert last in seq and seq.index(last) == listed.index(last) and seq.count(last) == listed.count(last)
    assert seq == listed and not (seq != listed) and seq != listed[:-1] and seq != tuple(listed)
    assert repr(seq) == repr(listed)
    for bad in (len(listed), -len(listed) - 1):
        with pytest.raises(IndexError):
            seq[bad]
    with pytest.raises(TypeError):
        hash(seq)


def test_sequence_keeps_its_actions_when_the_state_moves_on():
    game = Game.from_file(ROOT / "maps" / "variants" / "europe.yaml", 3)
    state, seq = _a_turn_with_claims(game)
    listed = state.legal_actions()
    state.apply(listed[-2])
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert [seq[k] for k in range(len(seq))] == listed and seq.tolist() == listed


def test_random_games_are_the_same_with_the_list(monkeypatch):
    """simulate's runner hands the random bot the sequence; handed the list instead, the records are the same."""
    source = GameSource.from_file(str(ROOT / "maps" / "variants" / "usa.yaml"), 4)
    spec = RunSpec(source, ("random", "random", "expert", "random"), 3, 5)
    lazy = list(run_games(spec))
    monkeypatch.setattr(RandomBot, "index_only", False)
    assert list(run_games(spec)) == lazy


def test_runner_checks_a_choice_not_handed_out(monkeypatch):
    """A bot reading the sequence by index that returns an action it built itself: legal is accepted, else refused."""
    from ttr_maps.engine.actions import ClaimTrack
    from ttr_maps.simulate.runner import BotError

    class Copying(RandomBot):
        name = "copying"

        def act(self, view, legal):
            return copy.copy(super().act(view, legal))  # equal to a legal action, not the one handed out

    class Wrong(RandomBot):
        name = "wrong"

        def act(self, view, legal):
            return ClaimTrack(10_000, 0, ())

    game = Game.from_file(ROOT / "maps" / "variants" / "usa.yaml", 2)
    monkeypatch.setitem(BOTS, "copying", Copying)
    monkeypatch.setitem(BOTS, "wrong", Wrong)
    copied, plain = play_game(game, ["copying", "random"], 4, 0), play_game(game, ["random", "random"], 4, 0)
    assert copied["claims"] == plain["claims"] and copied["turns"] == plain["turns"]
    with pytest.raises(BotError, match="not legal here"):
        play_game(game, ["random", "wrong"], 4, 0)


def test_random_bot_draws_as_rng_choice():
    """The random bot takes legal[rng._randbelow(len(legal))], which is what rng.choice(legal) does: the same
    actions from the same seed (on this Python; a change there would show here)."""
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        for n in (2, 3, 7, 64, 65, 1000):
            assert a._randbelow(n) == b.choice(range(n))
