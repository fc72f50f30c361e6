"""A ticket whose two ends no chain of routes joins.

Why: nobody can ever complete it, so whoever draws it loses its points. Either
a route is missing or the ticket names the wrong place.

Failing:

```yaml
routes:
  - {from: a, to: b, length: 1, tracks: [red]}
  - {from: c, to: d, length: 1, tracks: [blue]}
tickets:
  - {from: a, to: d, points: 5, decks: [main]}   # a and d are in different parts
```

Passing: join the two parts with a route, e.g. `{from: b, to: c, length: 3, tracks: [gray]}`.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G004"
NAME = "ticket-end-unreachable"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    g, part = ctx.pairs, ctx.components
    for ref in ctx.tickets:
        a, b = ref.ends
        if a == b or a not in part or b not in part or part[a] == part[b]:
            continue
        lonely = [p for p in (a, b) if g.degree(p) == 0]
        why = f"'{lonely[0]}' has no route" if lonely else f"no chain of routes joins '{a}' and '{b}'"
        yield Finding(ref.loc, f"the ticket {a}–{b} ({ref.ticket.points} points) can never be completed: {why}", ref.file)
