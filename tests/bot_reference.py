"""Plain reference computations the bots' kept and shortened ones are held to (tests/test_bots_kept.py,
tests/test_bots_deficit.py, tests/test_bots_shortcuts.py)."""

from __future__ import annotations

from ttr_maps.bots import planning
from ttr_maps.bots.planning import INF
from ttr_maps.engine.actions import KeepTickets


def plain_costs(bot, own) -> list[float]:
    """expert._cost_for's table worked out from the knowledge alone: an open route costs its length plus one, a
    claimed one cannot be used, `own` (the opponent's routes) cost nothing; where a claimed parallel route does not
    close its twin, the seat's own double routes stay open at their cost."""
    bd, know = bot.bd, bot.know
    cost = [n + 1.0 if is_open else INF for n, is_open in zip(bd.length, know.open)]
    if not bd.parallel_closes:
        for r in know.my_routes:
            if any(know.owner[x] < 0 and bd.track_ok[x] for x in bd.route_tids[r]):
                cost[r] = bd.length[r] + 1.0
    for r in own:
        cost[r] = 0.0
    return cost


def whole_value_keep(bot, view, legal):
    """The KeepTickets among `legal` a planning bot values most, every option valued whole by its keep_value
    (no option's network stopped early), the first of equal values: what its ticket choice must pick."""
    best, best_v = None, -INF
    _, todo = planning.tickets_done(bot.know, view.tickets)
    base = planning.plan_network(bot.know, todo)
    for a in legal:
        if type(a) is KeepTickets:
            v = bot.keep_value(todo, [view.offered[i] for i in a.indices], view.trains(bot.seat), base)
            if v > best_v:
                best, best_v = a, v
    return best
