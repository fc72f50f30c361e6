"""`long-route`: prefers long routes for their points, on its ticket paths or anywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .planner import PlanningBot
from .planning import longest_claim

if TYPE_CHECKING:
    from ..engine.game import Game


class LongRouteBot(PlanningBot):
    name = "long-route"
    description = "prefers long routes for their points"

    keep_reserve = 12  # leaves trains for long routes off its ticket paths
    long_share = 0.0
    min_long: int  # routes of at least this many spaces are long (__init__)
    long_routes: tuple[int, ...]  # they, most points first

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        bd = self.bd
        got = bd._long_routes  # (per board: worked out by the first long-route bot of a Game)
        if got is None:
            top = max(bd.length, default=1)
            min_long = max(3, top - 2)
            got = bd._long_routes = (min_long, tuple(sorted((r for r in range(bd.NR) if bd.length[r] >= min_long),
                                                            key=lambda r: (-bd.points[r], r))))
        self.min_long, self.long_routes = got

    def route_cost(self, r: int) -> float:
        # Long routes look cheap: their points pay for the trains.
        bd = self.bd
        return max(1.0, bd.length[r] + self.route_overhead - 0.25 * bd.points[r] / max(1, bd.length[r]) * bd.length[r] / 2)

    def style_turn(self, view, hand, claims, others, plan):
        bd = self.bd
        top = longest_claim(bd, hand, view.trains(self.seat))
        if top < self.min_long:  # the hand pays none of the long routes
            return None
        is_open = self.know.open  # a route closed to us, or longer than the hand pays, has no claim: no engine test
        length = bd.length
        for r in self.long_routes:  # most points first: the first claimable one (not a list of every claimable route)
            if is_open[r] and length[r] <= top and r in claims:
                return self.pay(r, claims[r], hand, plan)
        return None

    def filler(self, view, hand):
        know = self.know
        trains = view.trains(self.seat)
        for r in self.long_routes:
            if know.open[r] and self.bd.length[r] <= trains:
                return [r]
        return super().filler(view, hand)

    def draw(self, view, hand, draws, plan, second):
        # Aim at the plan and at one long route at a time.
        extra = self.filler_once(view, hand)
        merged = plan.routes + [r for r in extra if r not in plan.routes]
        return self.draw_for(view, hand, draws, merged or self.filler_once(view, hand), second)
