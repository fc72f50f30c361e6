"""A drawn route is much longer or shorter than its spaces.

The drawn length runs from marker edge to marker edge through the route's
`bend` points; its spaces need `length x car_length`. A difference beyond the
board's `drawing.stretch_tolerance` (0.25 = 25%) is reported with a suggestion:
move the places (for a straight route, to how far apart), add or move bend
points, or change the length (only to a length that fits within the tolerance;
there may be none). A route whose markers overlap has no room at all; the
message says so.

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

#: Route lengths a fix may suggest: the published ones (the format allows up to 12, but longer routes need
#: their own points in the variant, docs/rules.md#route-points).
LENGTHS = range(1, 10)


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    layout = ctx.layout
    car, r = layout.car_length, layout.city_radius
    tolerance = ctx.board.drawing.stretch_tolerance
    for (i, route), line in zip(ctx.routes, ctx.route_lines):
        drawn = line.length - 2 * r
        need = route.length * car
        if (1 - tolerance) * need <= drawn <= (1 + tolerance) * need:
            continue
        name, ends = ctx.route_name(route), f"{route.from_} and {route.to}"
        spaces = f"{route.length} space(s)"
        # For a straight route: how far apart the centres should be for the cars to fit exactly.
        apart = f" (about {(need + 2 * r) / car:.1f} car lengths between centres)" if not route.bend else ""
        if drawn <= 0:
            if not route.bend:
                message = (
                    f"route {name} has no room to be drawn: the markers of {ends} overlap "
                    f"(centres {line.length / car:.2f} car lengths apart, the markers need {2 * r / car:.2f}), "
                    f"leaving nothing for its {spaces}; move {ends} apart{apart}"
                )
            else:
                message = (
                    f"route {name} has no room to be drawn: through its bend points it runs {line.length / car:.2f} car lengths "
                    f"from centre to centre, no more than the two markers take ({2 * r / car:.2f}), leaving nothing for its "
                    f"{spaces}; move its bend points outwards, or move {ends} apart"
                )
            yield Finding(("routes", i, "length"), message)
            continue
        ratio = drawn / need
        fits = [n for n in LENGTHS if (1 - tolerance) * n * car <= drawn <= (1 + tolerance) * n * car]
        change = f", or change length to {min(fits, key=lambda n: abs(n * car - drawn))}" if fits else ""
        if ratio > 1:
            what = f"{ratio - 1:.0%} longer"
            how = f"move {ends} closer{apart}{' or remove bend points' if route.bend else ''}{change}"
        else:
            what = f"{1 - ratio:.0%} shorter"
            how = f"{'move its bend points outwards' if route.bend else 'add a bend point'}, or move {ends} apart{apart}{change}"
        yield Finding(
            ("routes", i, "length"),
            f"route {name} is drawn {drawn / car:.1f} car lengths for {spaces} "
            f"({what}; the board allows {tolerance:.0%}); {how}",
        )
