"""The mix of ticket values is far from the official boards'.

Each ticket's points are taken as a share of the board's diameter (its longest
shortest path, in spaces), binned by fifths and compared with the average of
the official boards; a total variation distance above `max_distance` is
reported with both mixes. Boards with fewer than `min_tickets` tickets are
skipped.

Why: the value mix decides whether the game is about many short links or a
few long hauls. Official decks hold mostly tickets of 20-80% of the diameter
and a few long ones; a deck of only short (or only long) tickets changes the
game. This is information: it may be the point of a design.

Failing: a deck where every ticket is worth about the diameter.

Passing: a deck with about the official mix (<20%: 8%, 20-40%: 46%, 40-60%:
26%, 60-80%: 12%, 80%+: 9%).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context
from ..reference import TICKET_VALUE_MIX, describe, distance, ticket_value_mix

CODE = "B003"
NAME = "unusual-ticket-value-mix"
SEVERITY = "info"
OPTIONS = {"max_distance": 0.3, "min_tickets": 10}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    tickets = ctx.tickets
    diameter = ctx.diameter_estimate
    if len(tickets) < options["min_tickets"] or diameter <= 0:
        return
    mix = ticket_value_mix((r.ticket.points for r in tickets), diameter)
    d = distance(mix, TICKET_VALUE_MIX)
    if d > options["max_distance"]:
        first = tickets[0]
        yield Finding(
            first.loc[:-1],
            f"ticket values (as a share of the board's {diameter}-space diameter) differ from the official boards' by {d:.0%} of the tickets: "
            f"this {'deck' if ctx.variant is None else 'variant'} {describe(mix)}; official {describe(TICKET_VALUE_MIX)}",
            first.file,
            key=True,
        )
