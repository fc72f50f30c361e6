"""The soak benchmark (benchmarks/soak.py) in the suite: a couple of random games of every bundled
variant and player count with every invariant checked after every action, and proof that each check
fails when its invariant is broken."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import soak  # noqa: E402

from ttr_maps.engine.game import Game, State  # noqa: E402


@pytest.mark.slow
def test_soak_every_variant_and_player_count() -> None:
    configs = soak.configurations()
    result = soak.soak(2 * len(configs), seed=7, views_every=1)
    assert result["violations"] == {}, result["examples"]
    assert result["configurations"] == 27 and result["games"] == 54
    assert result["actions"] > 54 * 50


def _mid_game(name: str = "europe", players: int = 3, actions: int = 120) -> State:
    game = Game.from_file(ROOT / "maps" / "variants" / f"{name}.yaml", players)
    s = game.new_initial_state(5)
    rng = random.Random(5)
    for _ in range(actions):
        s.apply(rng.choice(s.legal_actions()))
    soak.check_state(s)
    return s


@pytest.mark.parametrize("damage, kind", [
    (lambda s: s.deck.pop(), "cards"),
    (lambda s: s.hands[1].__setitem__(0, s.hands[1][0] + 1), "cards"),
    (lambda s: s.kept[0].append(s.kept[1][0] if s.kept[1] else 0), "tickets"),
    (lambda s: s.trains.__setitem__(2, s.trains[2] - 1), "trains"),
    (lambda s: s.scores.__setitem__(0, s.scores[0] + 1), "scores"),
    (lambda s: s.stations[0].append(next(x for x in range(s.t.NP) if x not in s.station_owner)), "stations"),
], ids=["card-lost", "card-made", "ticket-twice", "train-lost", "points-made", "station-unowned"])
def test_each_conservation_check_catches_its_break(damage, kind: str) -> None:
    s = _mid_game()
    damage(s)
    with pytest.raises(soak.Violation) as err:
        soak.check_state(s)
    assert err.value.kind == kind


def test_goods_and_passengers_checks_catch_their_break() -> None:
    s = _mid_game("marklin", 2, 200)
    s.goods_taken[0].append(7)
    with pytest.raises(soak.Violation, match="goods"):
        soak.check_state(s)
    s = _mid_game("marklin", 2, 200)
    s.passengers_unplaced[1] += 1
    with pytest.raises(soak.Violation, match="passengers"):
        soak.check_state(s)


def test_the_view_check_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _mid_game()
    soak.check_observation(s, 0, random.Random(1))
    honest = State.observation

    def leaky(self: State, seat: int) -> dict:
        obs = honest(self, seat)
        obs["deck_top"] = self.deck[-1] if self.deck else None  # what a bug could let through
        return obs

    monkeypatch.setattr(State, "observation", leaky)
    with pytest.raises(soak.Violation, match="deck_top"):
        soak.check_observation(s, 0, random.Random(1))
    assert soak.check_state(s) is None  # the state itself was restored


def test_a_game_replays_byte_for_byte_and_a_broken_replay_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.from_file(ROOT / "maps" / "variants" / "paris.yaml", 2)
    actions, end = soak.play(game, 3)
    assert actions > 20 and end in ("trains", "all-passed")
    s = game.new_initial_state(3)
    rng = random.Random(3 ^ 0x5EED)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    s.history.pop()  # the record no longer replays to this position
    with pytest.raises(soak.Violation, match="replayed"):
        soak.check_replay(game, s)
