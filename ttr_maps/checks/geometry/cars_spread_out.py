"""A route is drawn far longer than its spaces: its cars float apart on a long rail.

The renderer never resizes a car: a route drawn longer than its spaces spreads
its cars evenly along it. The check lays the board out as `ttr-maps render`
does and reports a route whose cars end up more than `max_gap` (1) car lengths
of bare rail apart, or from a place marker, with the place to move (its
coordinates, in the board's units) so the route is as long as its spaces.
D005 compares the data (the distance between places) with the tolerance of
`drawing.stretch_tolerance`; this check looks at the cars as drawn.

Why: a car with a car's length of bare rail on each side reads as a route of
more spaces than it has, and players misjudge what it costs.

Failing (car length 1):

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 6, y: 0}
routes:
  - {from: a, to: b, length: 2, tracks: [red]}   # 5.3 car lengths of rail for 2 cars
```

Passing: move b to `x: 2.7`, or `length: 5`.
"""

from __future__ import annotations

import math
from typing import Iterator

from ..base import Finding
from ..context import Context
from .drawn import MAX_PLACES, drawn, too_big

CODE = "D009"
NAME = "cars-spread-out"
SEVERITY = "warning"
OPTIONS = {"max_gap": 1.0, "max_places": MAX_PLACES}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.board.routes:
        return
    if (skip := too_big(ctx, options, CODE)) is not None:
        yield skip
        return
    d = drawn(ctx)
    plan = d.plan
    car = plan.car
    found = []
    for rp in plan.routes:
        track = rp.tracks[0]
        spaces = track.spaces
        if not spaces:
            continue
        # The drawn ends: the places, or the entries the route ends at (docs/rules.md#entry-points).
        a = (*rp.centerline[0], plan.place(rp.ends[0]).radius)
        b = (*rp.centerline[-1], plan.place(rp.ends[1]).radius)
        first, last = spaces[0], spaces[-1]
        if math.hypot(first.x - b[0], first.y - b[1]) < math.hypot(first.x - a[0], first.y - a[1]):
            a, b = b, a
        half = plan.space_length / 2
        gaps = [math.hypot(first.x - a[0], first.y - a[1]) - a[2] - half, math.hypot(last.x - b[0], last.y - b[1]) - b[2] - half]
        gaps += [math.hypot(q.x - p.x, q.y - p.y) - plan.space_length for p, q in zip(spaces, spaces[1:])]
        gap = max(gaps) / car
        if gap <= options["max_gap"]:
            continue
        routes = {t.route.length: t.route for t in rp.tracks}
        route = routes[max(routes)]
        rail = sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(rp.centerline, rp.centerline[1:])) - 2 * plan.clear
        message = (
            f"route {ctx.route_name(route)} is drawn {rail / car:.1f} car lengths long for {route.length} space(s): "
            f"its cars stand up to {gap:.1f} car lengths of bare rail apart; {_advice(ctx, d, rp, route)}"
        )
        found.append((d.index(route), Finding(d.loc(route), message)))
    for _, f in sorted(found, key=lambda x: x[0]):
        yield f


def _advice(ctx: Context, d, rp, route) -> str:
    plan = d.plan
    fits = round(max(1.0, min(9.0, (sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(rp.centerline, rp.centerline[1:]))
                                     - 2 * plan.clear) / plan.car)))
    length = f", or give it length {fits}" if fits != route.length else ""
    if any(t.route.bend for t in rp.tracks):
        return f"move its bend points in towards the straight line, or remove them{length}"
    degree = {p: sum(1 for r in ctx.board.routes if p in (r.from_, r.to)) for p in rp.ends}
    move, stay = sorted(rp.ends, key=lambda p: (degree[p], p))
    m, s = plan.place(move), plan.place(stay)
    apart = math.hypot(m.x - s.x, m.y - s.y)
    want = route.length * plan.car + 2 * plan.clear
    x, y = s.x + (m.x - s.x) * want / apart, s.y + (m.y - s.y) * want / apart
    at = d.layout.written(*plan.to_board(x, y))
    keys = "lat, lon" if d.layout.geographic else "x, y"
    return (f"move '{move}' to {keys} {at[0]:g}, {at[1]:g} ({(apart - want) / plan.car:.1f} car lengths closer to '{stay}'){length}")
