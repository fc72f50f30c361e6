"""The engine's shortcuts held to the long way: the same answers over seeded games of every bundled variant.

- A listed claim's entry in `game.claim_checked` is made when the claim object is made (claims._claim_action),
  so its first check is the short one: the full checks (claims._check_claim) accept every listed claim and
  find the same track and payment counts as the entry.
- `cards.legal_draws` lists a full row beside one face-up locomotive (a second card) from a kept list: the same
  actions, in the same order, as the slot-by-slot listing.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from ttr_maps.engine import cards, claims
from ttr_maps.engine.actions import ClaimTrack, DrawBlind, DrawFaceUp
from ttr_maps.engine.game import PH_TURN, Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml")) + sorted((ROOT / "examples").glob("*-rules.yaml"))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_a_listed_claims_kept_check_is_what_the_full_checks_find(variant):
    game = Game.from_file(variant, 2)
    rng = random.Random(variant.stem)
    looked = 0
    for i in range(3):
        state = game.new_initial_state(i)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == PH_TURN and rng.random() < 0.3:
                for a in legal:
                    if type(a) is not ClaimTrack:
                        continue
                    t = game.t
                    pid = t.payment_id(*t.payment_counts(a.payment))
                    if game.claim_cache.get((t.route_tids[a.route][a.track], pid)) is not a:
                        continue  # (a stand-ins' listing's claim: checked the long way once, as before)
                    hit = game.claim_checked[id(a)]
                    assert hit[0] is a
                    tid, counts = claims._check_claim(state, a)  # raises if the rules refuse it
                    assert (hit[1], hit[4]) == (tid, counts)
                    assert claims.check_claim(state, a) == (tid, counts)
                    looked += 1
            draws = [a for a in legal if type(a) in (DrawBlind, DrawFaceUp)]
            state.apply(rng.choice(draws if draws and rng.random() < 0.7 else legal))
    assert looked > 20


class _Row:
    """What legal_draws reads of a state."""

    def __init__(self, row: list[int], deck: bool, loco_rule: bool, loco: int):
        self.face_up = row
        self.deck = [0] if deck else []
        self.discard_total = 0
        self.face_up_loco_rule = loco_rule
        self.t = type("T", (), {"LOCO": loco})()


def _plain(state, second: bool) -> list:
    out = [cards.BLIND] if state.deck or state.discard_total else []
    loco = state.t.LOCO if (second and state.face_up_loco_rule) else -2
    return out + [DrawFaceUp(i) for i, k in enumerate(state.face_up) if k >= 0 and k != loco]


@pytest.mark.parametrize("n", [1, 2, 5, 6])
def test_legal_draws_equal_the_slot_by_slot_listing(n):
    loco = 3
    for row in itertools.product([-1, 0, 1, loco], repeat=n):
        for deck, rule, second in itertools.product([False, True], repeat=3):
            state = _Row(list(row), deck, rule, loco)
            out: list = []
            cards.legal_draws(state, out, second)
            assert out == _plain(state, second), (row, deck, rule, second)
