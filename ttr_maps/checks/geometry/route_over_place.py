"""A drawn route passes over the marker of a place that is not one of its ends.

The route's centre line, through its `bend` points, comes within the marker
radius (plus `clearance` car widths) of a third place.

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

from ..base import Finding
from ..context import Context

CODE = "D004"
NAME = "route-over-place"
SEVERITY = "warning"
OPTIONS = {"clearance": 0.0}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.routes:
        return
    layout = ctx.layout
    reach = layout.city_radius + options["clearance"] * layout.car_width
    places = ctx.board.places
    a, b = ctx.route_tree.query(ctx.place_points, predicate="dwithin", distance=reach)
    for p, q in sorted(((int(q), int(p)) for p, q in zip(a, b)), key=lambda t: (ctx.routes[t[0]][0], t[1])):
        i, route = ctx.routes[p]
        place = places[q]
        if place.id in route.ends:
            continue
        yield Finding(
            ("routes", i),
            f"route {ctx.route_name(route)} passes over the marker of '{place.id}' ({ctx.line(('places', q))}); "
            "add a bend point to go around it, or split the route there",
        )
