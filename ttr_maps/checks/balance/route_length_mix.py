"""The mix of route lengths is far from the official boards'.

The share of tracks of length 1, 2, 3, 4, 5 and 6+ is compared with the
average of the official boards (a double route counts twice); a total
variation distance above `max_distance` (0.3 = 30% of the tracks would have to
change length) is reported with both mixes.

Why: the length mix sets the pace. Many short routes make a slow, cheap,
blocking game; many long ones reward hoarding cards and end the game quickly.
A different mix can be a deliberate design; this is information.

Failing: a board whose tracks are all of length 1.

Passing: a board with about the official mix (1: 11%, 2: 33%, 3: 24%, 4: 20%,
5: 6%, 6+: 6%).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context
from ..reference import ROUTE_LENGTH_MIX, describe, distance, route_length_mix

CODE = "B002"
NAME = "unusual-route-length-mix"
SEVERITY = "info"
OPTIONS = {"max_distance": 0.3}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.board.routes:
        return
    mix = route_length_mix(ctx.board)
    d = distance(mix, ROUTE_LENGTH_MIX)
    if d > options["max_distance"]:
        yield Finding(
            ("routes",),
            f"route lengths differ from the official boards' by {d:.0%} of the tracks: this board {describe(mix)}; official {describe(ROUTE_LENGTH_MIX)}",
            key=True,
        )
