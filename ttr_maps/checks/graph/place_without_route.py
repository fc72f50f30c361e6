"""A place that no route touches.

Why: nobody can reach it, so it is dead weight on the board, and any ticket to
it can never be completed (see G004).

Failing:

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 1, y: 0}
  - {id: lonely, name: Lonely, x: 3, y: 3}   # no route ends here
routes:
  - {from: a, to: b, length: 1, tracks: [red]}
```

Passing: add a route to `lonely`, or remove the place.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G002"
NAME = "place-without-route"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    g = ctx.pairs
    for i, place in enumerate(ctx.board.places):
        if ctx.place_index[place.id] == i and g.degree(place.id) == 0:
            yield Finding(("places", i), f"no route reaches '{place.id}'; add a route to it or remove it")
