"""A place with routes that no ticket in use starts or ends at.

Boards without tickets are skipped. Places without routes are reported by G002.

Why: nobody needs to go there, so its routes are claimed only as through
traffic or for their points. Some published boards have such places (six USA
cities are on no base-game ticket), so this is information.

Failing: a board whose tickets never mention `quiet`, a place with routes.

Passing: add a ticket to or from `quiet`.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "B005"
NAME = "place-in-no-ticket"
SEVERITY = "info"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.tickets:
        return
    used = {end for ref in ctx.tickets for end in ref.ends}
    for i, place in enumerate(ctx.board.places):
        if place.id not in used and ctx.pairs.degree(place.id):
            yield Finding(("places", i), f"no ticket in use starts or ends at '{place.id}'")
