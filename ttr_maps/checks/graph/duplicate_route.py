"""Two route entries join the same two places.

Parallel tracks belong in one entry (`tracks: [red, blue]`): the rules for
double routes (one player never claims two tracks of a route; with few players
only one track is open) apply to the tracks of one entry. Two entries are two
unrelated routes, so one player could claim both.

Why: almost always a double route written twice, which silently drops the
parallel-route rules. If two different routes really join the same places
(say a short mountain route and a long valley one), turn this check off.

Failing:

```yaml
routes:
  - {from: boston, to: new-york, length: 2, tracks: [red]}
  - {from: new-york, to: boston, length: 2, tracks: [yellow]}
```

Passing:

```yaml
routes:
  - {from: boston, to: new-york, length: 2, tracks: [red, yellow]}
```
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G011"
NAME = "duplicate-route"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    board = ctx.board
    for a, b, data in ctx.graph.edges(data=True):
        first, *others = sorted(data["routes"])
        for i in others:
            r, f = board.routes[i], board.routes[first]
            same = r.length == f.length
            hint = f"write one entry with tracks [{', '.join(f.tracks + r.tracks)}]" if same else "if they are different routes, turn G011 off for this board"
            yield Finding(
                ("routes", i),
                f"another route already joins {a} and {b} ({ctx.line(('routes', first))}); one player could claim both; {hint}",
            )
