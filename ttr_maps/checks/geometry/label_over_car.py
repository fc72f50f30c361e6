"""A place's name is drawn over a route's car.

The check lays the board out as `ttr-maps render` does: the renderer puts each
name where it covers least (route cars, markers, other names), and this check
reports the names whose letters still cover more than `share` (2 %) of a car.
It is reported at the route whose car is covered, naming the place, with a
bend point that takes the route's cars off the name when one does.

Why: a name over a car hides the car's colour and makes the car hard to count;
a name over a route also reads as if the place were on it.

Failing (car length 1): Westerbrook's long name has nowhere to go but over a
car of the routes around it.

```yaml
places:
  - {id: w, name: Westerbrook-upon-Tide, x: 0, y: 0}
  - {id: a, name: A, x: 2.2, y: -0.6}
  - {id: b, name: B, x: 2.2, y: 0.6}
  ...
```

Passing: shorter names, or places far enough apart for the names to sit clear.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context
from .drawn import MAX_PLACES, drawn, too_big

CODE = "D007"
NAME = "label-over-car"
SEVERITY = "warning"
OPTIONS = {"share": 0.02, "max_places": MAX_PLACES}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    import shapely
    if not ctx.board.routes or not ctx.board.places:
        return
    if (skip := too_big(ctx, options, CODE)) is not None:
        yield skip
        return
    from ...render.bends import label_text_box
    from ...render.conflicts import DrawnCars

    d = drawn(ctx)
    plan = d.plan
    cars = DrawnCars.of(plan)
    if not len(cars.polygons):
        return
    boxes = [(k, label_text_box(plan, k)) for k in range(len(plan.places))]
    boxes = [(k, b) for k, b in boxes if b is not None]
    if not boxes:
        return
    polys = shapely.box(*zip(*(b for _, b in boxes)))
    li, ci = shapely.STRtree(cars.polygons).query(polys, predicate="intersects")
    shares = shapely.area(shapely.intersection(polys[li], cars.polygons[ci])) / (plan.space_length * plan.space_width)
    worst: dict[tuple[int, int], float] = {}
    for k in range(len(li)):
        if shares[k] > options["share"]:
            track = cars.tracks[cars.track[ci[k]]]
            key = (d.index(track.route), boxes[li[k]][0])
            worst[key] = max(worst.get(key, 0.0), float(shares[k]))
    for (r, k), share in sorted(worst.items()):
        route = ctx.board.routes[r]
        group = int(cars.route[next(i for i, t in enumerate(cars.track) if cars.tracks[t].route is route)])
        place = plan.places[k].place
        yield Finding(
            ("routes", r),
            f"the name '{place.name}' of '{place.id}' ({ctx.line(('places', ctx.place_index[place.id]))}) is drawn over "
            f"{share:.0%} of a car of route {ctx.route_name(route)}; {d.bend_advice(group).replace('draws it clear', 'takes its cars off the name')}",
        )
