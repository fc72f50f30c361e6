"""A ticket whose points differ from the shortest path between its ends, in spaces.

The shortest path counts route spaces and never passes through a country. A
difference up to `tolerance` points is accepted: published boards price a few
tickets a point or two above the shortest path (USA Seattle–New York is 22 for a
20-space path). The message suggests the shortest-path value. Tickets kept at
their value on purpose are named in `accept` (`["seattle-new-york"]`, either
order), as the bundled boards' `maps/ttr-maps.toml` does for the published values.

Why: the convention players learn is "a ticket is worth about the trains it
needs". A ticket worth far more than its path is a windfall; one worth far
less is a trap, and often a typo.

Failing (tolerance 1):

```yaml
routes:
  - {from: a, to: b, length: 3, tracks: [red]}
  - {from: b, to: c, length: 4, tracks: [blue]}
tickets:
  - {from: a, to: c, points: 12, decks: [main]}   # shortest path is 7 spaces
```

Passing: `{from: a, to: c, points: 7, decks: [main]}` (or 6 or 8).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G006"
NAME = "ticket-value-mismatch"
SEVERITY = "warning"
OPTIONS = {"tolerance": 1, "accept": []}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    tolerance = options["tolerance"]
    for k, ref in enumerate(ctx.tickets):
        a, b = ref.ends
        spaces = ctx.ticket_spaces.get(k)
        if a == b or spaces is None or _named(a, b, options["accept"]):
            continue
        points = ref.ticket.points
        if abs(points - spaces) > tolerance:
            more = "more" if points > spaces else "less"
            yield Finding(
                ref.loc + ("points",),
                f"the ticket {a}–{b} is worth {points} points but its shortest path is {spaces} spaces "
                f"({abs(points - spaces)} {more}; tolerance ±{tolerance}); suggested value: {spaces}",
                ref.file,
            )


def _named(a: str, b: str, names: list) -> bool:
    """Whether the ticket a–b is in `names` as `a-b` or `b-a` (place ids may hold hyphens themselves)."""
    return f"{a}-{b}" in names or f"{b}-{a}" in names
