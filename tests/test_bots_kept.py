"""What the planning bots keep between decisions is what working it out again would give.

- plan_network's kept networks, the seat's own and those on the empty board shared by every seat of a style
  (BoardData.style_plans): every network a bot uses equals a new build on the same costs;
- the expert's best journey (Märklin): every answer equals a new search, goods table included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_maps.bots import expert, planner, planning, ticket_hungry
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def _fields(plan):
    return (plan.routes, plan.trains, plan.cost, plan.reachable, plan.unreachable, plan.borrowed)


@pytest.mark.parametrize("variant,players,bots", [
    ("usa", 4, ["expert", "route-focus", "ticket-hungry", "long-route"]),
    ("europe", 4, ["expert", "route-focus", "ticket-hungry", "long-route"]),
    ("marklin", 2, ["expert", "ticket-hungry"]),
    ("paris", 2, ["expert", "long-route"]),
])
def test_kept_networks_equal_new_builds(variant, players, bots, monkeypatch):
    """Through seeded games played one after another on one Game (as simulate plays them), each network
    plan_network hands a bot equals one built again from nothing on the same costs: routes in order, trains,
    cost, tickets reached and not, routes borrowed. The later games' starting tickets must use networks
    another seat built on the empty board in an earlier game."""
    from ttr_maps.simulate.runner import play_game

    original = planning.plan_network
    seen = {"checked": 0, "shared": 0}

    def checked(know, tickets, cost=None):
        tickets = list(tickets)
        if cost is None and know.version == 0 and tickets:
            first = (max(tickets, key=lambda k: know.bd.ticket_points[k]),)
            seen["shared"] += first in know.setup_plans and first not in know.plans
        plan = original(know, tickets, cost)
        if cost is None:
            assert _fields(plan) == _fields(original(know, tickets, know.cost[:]))
            seen["checked"] += 1
        return plan

    for module in (planning, planner, expert, ticket_hungry):
        monkeypatch.setattr(module, "plan_network", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    for seed in range(1, 7):
        play_game(game, bots, seed, seed)
    assert seen["checked"] > 50
    assert seen["shared"] > 3


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
