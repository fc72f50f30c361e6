"""A route whose two ends are the same place.

Why: a loop cannot be drawn as a row of cars between two places, claiming it
connects nothing, and the engine would score trains for it. It is almost
always a typo in `from` or `to`.

Failing:

```yaml
routes:
  - {from: paris, to: paris, length: 2, tracks: [red]}
```

Passing:

```yaml
routes:
  - {from: paris, to: bruxelles, length: 2, tracks: [red]}
```
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G003"
NAME = "route-to-itself"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    for i, route in enumerate(ctx.board.routes):
        if route.from_ == route.to:
            yield Finding(("routes", i, "to"), f"the route joins '{route.to}' to itself; a route joins two different places")
