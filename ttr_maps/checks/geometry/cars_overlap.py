"""Cars of two different routes overlap on the drawn board.

The check lays the board out as `ttr-maps render` and `ttr-maps print` do (route
shapes chosen by the router, bend points followed) and reports every pair of
routes between different places where a car of one and a car of the other
share more than `share` (2 %) of a car. It is reported at the route that a bend
point draws clear with the least change, with the bend point to write (in the
board's units: [lat, lon] on a lat/lon board, [x, y] otherwise), or, when no
single bend point does, at the later route. Parallel tracks of one route are
drawn side by side and never overlap.

Why: where two routes' cars overlap a player cannot tell which route a car
belongs to, and a train placed there covers both.

Failing (car length 1): a hub with a tight fan of spokes, 15° apart.

```yaml
places:
  - {id: hub, name: Hub, x: 0, y: 0}
  - {id: n1, name: North One, x: 3.9, y: -1.0}
  - {id: n2, name: North Two, x: 4.0, y: 0.0}    # 15° from n1: the cars meet near the hub
routes:
  - {from: hub, to: n1, length: 3, tracks: [red]}
  - {from: hub, to: n2, length: 3, tracks: [blue]}
```

Passing: spread the spokes (n2 at `x: 3.0, y: 2.6`), or give one route the bend
point the finding names.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context
from .drawn import MAX_PLACES, drawn, too_big

CODE = "D006"
NAME = "cars-overlap"
SEVERITY = "warning"
OPTIONS = {"share": 0.02, "max_places": MAX_PLACES}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.board.routes:
        return
    if (skip := too_big(ctx, options, CODE)) is not None:
        yield skip
        return
    from ...render.conflicts import car_overlaps

    d = drawn(ctx)
    plan = d.plan
    found = []
    for o in car_overlaps(plan, options["share"]):
        tracks = {o.first: o.first_track.route, o.second: o.second_track.route}
        fixes = [(d.bend_for(g), g) for g in (o.first, o.second)]
        fixes = [(f, g) for f, g in fixes if f is not None]
        if fixes:
            fix, group = min(fixes, key=lambda fg: (fg[0].aside, -d.index(tracks[fg[1]])))
            route = fix.route
        else:
            group = max(tracks, key=lambda g: d.index(tracks[g]))
            route = tracks[group]
        other = tracks[o.second if group == o.first else o.first]
        message = (
            f"the cars of route {ctx.route_name(route)} overlap the cars of {d.named(other)} "
            f"by {o.share:.0%} of a car near {d.near(*o.at)}; {d.bend_advice(group)}"
        )
        found.append((d.index(route), d.index(other), Finding(d.loc(route), message)))
    for *_, f in sorted(found, key=lambda x: (x[0], x[1])):
        yield f
