"""A route's car is drawn over the marker of a place that is not one of its ends.

The check lays the board out as `ttr-maps render` does (route shapes chosen by
the router) and reports every route with a car covering more than `share`
(5 %) of another place's marker, with a bend point that draws it clear. D004
looks at the straight lines between places; this check at the cars as drawn.

Why: a car over a place reads as the route stopping there; a player cannot
tell whether the place is on the route.

Failing (car length 1): mid sits just beside the line a-b, under its middle car.

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: mid, name: Mid, x: 2, y: 0.3}
  - {id: b, name: B, x: 4, y: 0}
routes:
  - {from: a, to: b, length: 3, tracks: [red], bend: [[2, 0.2]]}
```

Passing: `bend: [[2, 1.2]]` (the route passes above mid), or no bend point
(the router draws it around).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context
from .drawn import MAX_PLACES, drawn, too_big

CODE = "D008"
NAME = "car-over-marker"
SEVERITY = "warning"
OPTIONS = {"share": 0.05, "max_places": MAX_PLACES}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    import numpy as np
    import shapely
    if not ctx.board.routes:
        return
    if (skip := too_big(ctx, options, CODE)) is not None:
        yield skip
        return
    from ...render.conflicts import DrawnCars

    d = drawn(ctx)
    plan = d.plan
    cars = DrawnCars.of(plan)
    if not len(cars.polygons):
        return
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=8)
    ci, mi = shapely.STRtree(markers).query(cars.polygons, predicate="intersects")
    shares = shapely.area(shapely.intersection(cars.polygons[ci], markers[mi])) / shapely.area(markers[mi])
    worst: dict[tuple[int, int], tuple[float, int]] = {}
    for k in np.flatnonzero(shares > options["share"]).tolist():
        g, m = int(cars.route[ci[k]]), int(mi[k])
        if plan.places[m].place.id in plan.routes[g].ends:
            continue
        route = cars.tracks[cars.track[ci[k]]].route
        key = (d.index(route), m)
        if key not in worst or shares[k] > worst[key][0]:
            worst[key] = (float(shares[k]), g)
    for (r, m), (share, g) in sorted(worst.items()):
        place = plan.places[m].place
        yield Finding(
            ("routes", r),
            f"a car of route {ctx.route_name(ctx.board.routes[r])} is drawn over {share:.0%} of the marker of "
            f"'{place.id}' ({ctx.line(('places', ctx.place_index[place.id]))}); {d.bend_advice(g)}",
        )
