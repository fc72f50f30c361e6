"""A drawn route passes over the marker of a place that is not one of its ends.

The route's centre line, through its `bend` points, comes within the marker
radius (plus `clearance` car widths) of a third place. Each route is reported
once, with every place it passes over.

Why: a player cannot tell whether the route stops at that place; on the board
it looks like two routes, and the place looks connected when it is not.

Failing:

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: mid, name: Mid, x: 2, y: 0}
  - {id: b, name: B, x: 4, y: 0}
routes:
  - {from: a, to: b, length: 4, tracks: [red]}   # runs straight through mid
```

Passing: `{from: a, to: b, length: 4, tracks: [red], bend: [[2, 1.5]]}`, or split it into a-mid and mid-b.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding, More
from ..context import Context, capped, listing, query_chunks

CODE = "D004"
NAME = "route-over-place"
SEVERITY = "warning"
OPTIONS = {"clearance": 0.0}


def check(ctx: Context, options: dict) -> Iterator[Finding | More]:
    if not ctx.routes:
        return
    layout = ctx.layout
    reach = layout.city_radius + options["clearance"] * layout.car_width
    places = ctx.board.places
    ends = ctx.route_end_index

    def chunks():
        for k, q in query_chunks(ctx.place_tree, ctx.route_array, predicate="dwithin", distance=reach):
            keep = (q != ends[k, 0]) & (q != ends[k, 1])
            yield k[keep], q[keep], len(k)

    def finding(k: int, over: list[int]) -> Finding:
        i, route = ctx.routes[k]
        what = "marker" if len(over) == 1 else "markers"
        names = listing([f"'{places[q].id}' ({ctx.line(('places', q))})" for q in over])
        return Finding(
            ("routes", i),
            f"route {ctx.route_name(route)} passes over the {what} of {names}; "
            f"add {'a bend point' if len(over) == 1 else 'bend points'} to go around {'it' if len(over) == 1 else 'them'}, or split the route there",
        )

    yield from capped(chunks(), ctx.max_findings, finding, lambda k: ("routes", ctx.routes[k][0]))
