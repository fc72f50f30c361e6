"""Two drawn routes cross each other.

Routes are drawn as straight lines between their places, through their `bend`
points. Routes that share a place may meet there, nowhere else; two route
entries joining the same places are reported by G011 instead. Each route is
reported once, at the later entry, with every earlier route it crosses.

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

from ..base import Finding, More
from ..context import Context, capped, listing, query_chunks

CODE = "D003"
NAME = "routes-cross"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding | More]:
    import numpy as np
    import shapely
    lines, routes = ctx.route_array, ctx.routes
    if not len(lines):
        return
    ends = ctx.route_end_index
    # Where each route is drawn to at either end: its places, or the entries it ends at.
    coords = [ctx.route_coords(r) for _, r in routes]
    drawn_ends = np.stack([shapely.points([c[0] for c in coords]), shapely.points([c[-1] for c in coords])], axis=1)
    eps = 1e-9 * max(1.0, ctx.layout.car_length)

    def chunks():
        for q, p in query_chunks(ctx.route_tree, lines, predicate="intersects"):
            seen = len(q)
            keep = p < q
            q, p = q[keep], p[keep]
            # Shared ends: 0 means the two routes cross; 2 means they join the same places (G011).
            eq = ends[q][:, :, None] == ends[p][:, None, :]
            shared = eq.any(axis=2).sum(axis=1)
            bad = shared == 0
            touch = np.flatnonzero(shared == 1)
            if len(touch):
                # Routes sharing a place may meet only there: anything more than that one point is a crossing.
                qt, pt = q[touch], p[touch]
                at = np.where(eq[touch].any(axis=2)[:, 0], drawn_ends[qt, 0], drawn_ends[qt, 1])
                meets = shapely.intersection(lines[qt], lines[pt])
                extra = ~shapely.is_empty(shapely.difference(meets, shapely.buffer(at, eps)))
                bad[touch] = extra
            yield q[bad], p[bad], seen

    def finding(q: int, others: list[int]) -> Finding:
        j, rj = routes[q]
        names = listing([f"{ctx.route_name(routes[p][1])} ({ctx.line(('routes', routes[p][0]))})" for p in others])
        return Finding(
            ("routes", j),
            f"route {ctx.route_name(rj)} crosses route{'s' if len(others) > 1 else ''} {names}; "
            "move a place or add a bend point to route one around the other",
        )

    yield from capped(chunks(), ctx.max_findings, finding, lambda q: ("routes", routes[q][0]))
