"""Two place markers overlap on the drawn board.

A marker is a circle of `drawing.city_radius_ratio` car lengths around the
place's position (projected from lat/lon, or x/y as given).

Why: overlapping markers are unreadable, and routes between the two places
have no room for a single car.

Failing (car length 1, marker radius 0.35):

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 0.5, y: 0}   # centres 0.5 apart, markers need 0.7
```

Passing: `{id: b, name: B, x: 2, y: 0}`.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "D001"
NAME = "markers-overlap"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    layout = ctx.layout
    r, car = layout.city_radius, layout.car_length
    places = ctx.board.places
    a, b = ctx.place_tree.query(ctx.place_points, predicate="dwithin", distance=2 * r)
    for i, j in sorted((int(i), int(j)) for i, j in zip(a, b) if i < j):
        gap = layout.distance(places[i].id, places[j].id)
        yield Finding(
            ("places", j),
            f"the marker of '{places[j].id}' overlaps the marker of '{places[i].id}' ({ctx.line(('places', i))}): "
            f"centres {gap / car:.2f} car lengths apart, markers need {2 * r / car:.2f}; move them apart",
        )
