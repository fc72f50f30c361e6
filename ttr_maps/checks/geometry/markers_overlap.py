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

Each place is reported once, with every earlier place (in file order) its
marker overlaps.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding, More
from ..context import Context, capped, listing, query_chunks

CODE = "D001"
NAME = "markers-overlap"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding | More]:
    layout = ctx.layout
    r, car = layout.city_radius, layout.car_length
    places = ctx.board.places

    def chunks():
        for j, i in query_chunks(ctx.place_tree, ctx.place_array, predicate="dwithin", distance=2 * r):
            keep = i < j
            yield j[keep], i[keep], len(j)

    def finding(j: int, others: list[int]) -> Finding:
        near = min(others, key=lambda i: layout.distance(places[i].id, places[j].id))
        gap = layout.distance(places[near].id, places[j].id)
        what = "marker" if len(others) == 1 else "markers"
        names = listing([f"'{places[i].id}' ({ctx.line(('places', i))})" for i in others])
        return Finding(
            ("places", j),
            f"the marker of '{places[j].id}' overlaps the {what} of {names}: "
            f"centres {gap / car:.2f} car lengths apart{' at the nearest' if len(others) > 1 else ''}, "
            f"markers need {2 * r / car:.2f}; move them apart",
        )

    yield from capped(chunks(), ctx.max_findings, finding, lambda j: ("places", j))
