"""A place that ends many more tickets than the average place.

A place at the end of more than `factor` times the average number of tickets
per place (and at least `min_count`) is reported with the numbers.

Why: the routes around it become the most contested on the board, and the
player who holds them first can block a large share of everyone's tickets. A
hub can be a deliberate design (Los Angeles ends 5 of the 30 USA tickets),
hence information.

Failing: 10 tickets on a board of 12 places, 8 of them from `hub` (the
average place ends 1.7 tickets; 3.5 times that is 5.8).

Passing: spread the tickets' ends over the board.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "B004"
NAME = "place-in-many-tickets"
SEVERITY = "info"
OPTIONS = {"factor": 3.5, "min_count": 4}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    counts: dict[str, int] = {}
    for ref in ctx.tickets:
        for end in set(ref.ends):
            counts[end] = counts.get(end, 0) + 1
    places = [p for p in ctx.board.places if ctx.pairs.degree(p.id)]
    if not counts or not places:
        return
    mean = sum(counts.get(p.id, 0) for p in places) / len(places)
    for i, place in enumerate(ctx.board.places):
        n = counts.get(place.id, 0)
        if n >= options["min_count"] and n > options["factor"] * mean:
            yield Finding(
                ("places", i),
                f"'{place.id}' ends {n} of the {len(ctx.tickets)} tickets ({n / mean:.1f} times the average of {mean:.1f} per place); "
                "its routes will be the most contested",
            )
