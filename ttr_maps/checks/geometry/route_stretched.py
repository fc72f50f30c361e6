"""A drawn route is much longer or shorter than its spaces.

The drawn length runs from marker edge to marker edge through the route's
`bend` points; its spaces need `length x car_length`. A difference beyond the
board's `drawing.stretch_tolerance` (0.25 = 25%) is reported with a suggestion:
move the places, add or move bend points, or change the length.

Why: cars stretched over a long gap, or squeezed into a short one, mislead
players about what a route costs, and squeezed cars do not fit at all.

Failing (car length 1, marker radius 0.35):

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 8, y: 0}
routes:
  - {from: a, to: b, length: 3, tracks: [red]}   # 7.3 car lengths for 3 spaces
```

Passing: `length: 7`, or move b to `x: 3.7`.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "D005"
NAME = "route-stretched"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    layout = ctx.layout
    car, r = layout.car_length, layout.city_radius
    tolerance = ctx.board.drawing.stretch_tolerance
    for (i, route), line in zip(ctx.routes, ctx.route_lines):
        drawn = line.length - 2 * r
        need = route.length * car
        ratio = drawn / need
        if 1 - tolerance <= ratio <= 1 + tolerance:
            continue
        fit = max(1, min(9, round(drawn / car)))
        change = f", or change length to {fit}" if fit != route.length else ""
        ends = f"{route.from_} and {route.to}"
        if ratio > 1:
            what = f"{ratio - 1:.0%} longer"
            how = f"move {ends} closer{' or remove bend points' if route.bend else ''}{change}"
        else:
            what = f"{1 - ratio:.0%} shorter"
            how = f"{'move its bend points outwards' if route.bend else 'add a bend point'}, or move {ends} apart{change}"
        yield Finding(
            ("routes", i, "length"),
            f"route {ctx.route_name(route)} is drawn {max(drawn, 0) / car:.1f} car lengths for {route.length} space(s) "
            f"({what}; the board allows {tolerance:.0%}); {how}",
        )
