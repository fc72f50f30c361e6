"""What the planning bots keep between decisions is what working it out again would give.

- the expert's best journey (Märklin): every answer equals a new search, goods table included.
"""

from __future__ import annotations

from pathlib import Path

from ttr_maps.bots import expert
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def test_kept_journeys_equal_new_searches(monkeypatch):
    """Through whole seeded Märklin games, each best journey the expert decides on (kept from an earlier search
    while only claims away from where that search went came in, with the goods read once per token taken)
    equals a new search on the same view; the games must keep answers across such claims."""
    from ttr_maps.simulate.runner import play_game

    bot = expert.ExpertBot
    best, search = bot._best_journey, bot._search_journey
    seen = {"checked": 0, "across_claims": 0}

    def checked(self, view, budget=4000):
        before = self._journey_memo
        got = best(self, view, budget)
        self._goods_memo = (-1, None)  # the goods read again from the view
        assert got == search(self, view, budget)[0]
        seen["checked"] += 1
        if before[0] is not None and self._journey_memo[3] is before[3] and self._journey_memo[2] != before[2]:
            seen["across_claims"] += 1
        return got

    monkeypatch.setattr(bot, "_best_journey", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / "marklin.yaml", 4)
    for seed in (1, 2, 3):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["checked"] > 50
    assert seen["across_claims"] > 5
