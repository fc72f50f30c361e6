"""A place's label overlaps another label or another place's marker wherever the renderer puts it.

The check lays the board out as `ttr-maps render` does (`render.plan.plan_board`):
the renderer tries eight positions around each marker, near and in three rings
farther out (joined to the marker by a leader line), and keeps the one that
overlaps least (route spaces, markers and the labels placed before it). A label is reported when the box the renderer
chose for it (the text and its margin) still overlaps another place's label or
drawn marker, so the check flags exactly the labels the renderer could not
place clear of other places. Labels over route spaces are not reported.

Laying out a board costs about as much as rendering it, so boards with more than
`max_places` places, or with many overlapping markers (D001), are not laid
out: one finding says so.

Why: colliding labels make the board unreadable where it matters most, in
dense clusters of places.

Failing (car length 1): a grid of seven columns 0.8 car lengths apart and nine
rows 0.45 down, with long names: the labels inside the grid have nowhere to go.

```yaml
places:
  - {id: p00, name: Constantinople, x: 0, y: 0}
  - {id: p01, name: Northampton, x: 0, y: 0.45}
  # ... three columns of five
  - {id: p11, name: Alexandria, x: 0.8, y: 0.45}   # overlaps the markers around it
```

Passing: move the columns 2.5 car lengths apart, or shorten the names.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context, listing, query_chunks

CODE = "D002"
NAME = "label-collision"
SEVERITY = "info"
OPTIONS = {"max_places": 300}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    from shapely import STRtree
    import numpy as np
    import shapely
    places = ctx.board.places
    if not places:
        return
    limit = options["max_places"]
    if len(places) > limit:
        yield Finding(
            ("places",),
            f"labels not checked: laying out {len(places)} places takes as long as rendering the board, "
            f"and D002 does it for at most {limit} (option max_places); render the board and look, "
            "or raise [checks.options.D002] max_places in ttr-maps.toml",
            key=True,
        )
        return
    crowded = _overlapping_markers(ctx, stop=len(places))
    if crowded > len(places):
        yield Finding(
            ("places",),
            f"labels not checked: more than {len(places)} pairs of place markers overlap (D001), "
            "too many to lay out labels around; move the places apart first",
            key=True,
        )
        return
    plan = ctx.drawing
    labelled = [k for k, pp in enumerate(plan.places) if pp.label is not None]
    if not labelled:
        return
    label_boxes = shapely.box(*np.array([plan.places[k].label.box for k in labelled]).T)
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=16)
    hits: dict[int, list[str]] = {}
    # Boxes that only touch do not collide (the renderer counts overlapping area).
    a, b = STRtree(label_boxes).query(label_boxes, predicate="intersects")
    keep = (a != b) & (shapely.area(shapely.intersection(label_boxes[a], label_boxes[b])) > 0)
    for i, j in zip(a[keep].tolist(), b[keep].tolist()):
        hits.setdefault(labelled[i], []).append(f"the label of '{places[labelled[j]].id}'")
    a, b = STRtree(markers).query(label_boxes, predicate="intersects")
    owner = np.array(labelled)[a]
    keep = (owner != b) & (shapely.area(shapely.intersection(label_boxes[a], markers[b])) > 0)
    for k, j in zip(owner[keep].tolist(), b[keep].tolist()):
        hits.setdefault(k, []).append(f"the marker of '{places[j].id}'")
    for k in sorted(hits):
        yield Finding(
            ("places", k, "name"),
            f"the renderer finds no place for the label '{places[k].name}' clear of other places: "
            f"where it fits best it overlaps {listing(hits[k])}; move the places apart or shorten the name",
        )


def _overlapping_markers(ctx: Context, stop: int) -> int:
    """Pairs of overlapping markers (as D001 sees them), counted until there are more than `stop`."""
    count = 0
    for j, i in query_chunks(ctx.place_tree, ctx.place_array, predicate="dwithin", distance=2 * ctx.layout.city_radius):
        count += int((i < j).sum())
        if count > stop:
            break
    return count
