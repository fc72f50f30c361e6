"""`ticket-hungry`: draws tickets while its plan leaves trains to spare; keeps the best points per train."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.actions import DrawTickets
from .planner import PlanningBot

if TYPE_CHECKING:
    from .planning import Plan


class TicketHungryBot(PlanningBot):
    name = "ticket-hungry"
    description = "keeps drawing tickets while it has trains to spare, keeps the best points per train"

    spare_trains = 12  # draw more tickets while the plan leaves at least this many trains
    keep_reserve = 4
    long_share = 0.0

    def style_turn(self, view, hand, claims, others, plan):
        if self.endgame(view):
            return None
        trains = view.trains(self.seat)
        if trains - plan.trains < self.spare_trains:
            return None
        for a in others:
            if type(a) is DrawTickets:
                return a
        return None

    def keep_formula(self, ok: int, bad: int, plan_trains: int, trains: int, base: Plan) -> float:
        over = max(0, plan_trains - (trains - self.reserve))
        marginal = max(0, plan_trains - base.trains)
        return 10.0 * ok / (marginal + 3) + 0.1 * ok - 2 * bad - self.over_budget_penalty * over
