"""Two drawn routes cross each other.

Routes are drawn as straight lines between their places, through their `bend`
points. Routes that share a place may meet there, nowhere else; two route
entries joining the same places are reported by G011 instead.

Why: published boards never cross routes: at a crossing the cars of one route
would be drawn over the other's, and players could not tell them apart.

Failing:

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 4, y: 4}
  - {id: c, name: C, x: 0, y: 4}
  - {id: d, name: D, x: 4, y: 0}
routes:
  - {from: a, to: b, length: 5, tracks: [red]}
  - {from: c, to: d, length: 5, tracks: [blue]}   # an X
```

Passing: join the places around the square instead (a-c and b-d), or give one
route `bend` points that take it around the other.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import shapely

from ..base import Finding
from ..context import Context

CODE = "D003"
NAME = "routes-cross"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    lines, routes, pos = ctx.route_lines, ctx.routes, ctx.layout.positions
    if not lines:
        return
    a, b = ctx.route_tree.query(lines, predicate="intersects")
    pairs = [(int(p), int(q)) for p, q in zip(a, b) if p < q]
    crossing: list[tuple[int, int]] = []
    touching: list[tuple[int, int, str]] = []
    for p, q in pairs:
        shared = set(routes[p][1].ends) & set(routes[q][1].ends)
        if not shared:
            crossing.append((p, q))
        elif len(shared) == 1:
            touching.append((p, q, shared.pop()))
    if touching:
        # Routes sharing a place may meet only there: anything more than that one point is a crossing.
        arr = np.asarray(lines, dtype=object)
        meets = shapely.intersection(arr[[t[0] for t in touching]], arr[[t[1] for t in touching]])
        points = shapely.points([pos[t[2]] for t in touching])
        eps = 1e-9 * max(1.0, ctx.layout.car_length)
        extra = ~shapely.is_empty(shapely.difference(meets, shapely.buffer(points, eps)))
        crossing += [(p, q) for (p, q, _), bad in zip(touching, extra) if bad]
    for p, q in sorted(crossing):
        (i, ri), (j, rj) = routes[p], routes[q]
        yield Finding(
            ("routes", j),
            f"route {ctx.route_name(rj)} crosses route {ctx.route_name(ri)} ({ctx.line(('routes', i))}); "
            "move a place or add a bend point to route one around the other",
        )
