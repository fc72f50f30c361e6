"""A place's label would overlap another label or another place's marker.

Labels are estimated, not measured: the name centred under its marker, in a
font `font_ratio` car lengths tall, each character about 0.55 of the font size
wide. A renderer may place labels differently, so this is information by
default; raise it to a warning for boards you draw with that layout.

Why: colliding labels make the board unreadable where it matters most, in
dense clusters of places.

Failing (car length 1):

```yaml
places:
  - {id: a, name: Alexandria, x: 0, y: 0}
  - {id: b, name: Bartholomew, x: 1.2, y: 0}   # the two names run into each other
```

Passing: `{id: b, name: Bartholomew, x: 6, y: 0}` (or a shorter name).
"""

from __future__ import annotations

from typing import Iterator

from shapely import STRtree

from ..base import Finding
from ..context import Context

CODE = "D002"
NAME = "label-collision"
SEVERITY = "info"
OPTIONS = {"font_ratio": 0.4}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    places = ctx.board.places
    boxes = ctx.label_boxes(options["font_ratio"])
    if not boxes:
        return
    hits: dict[int, list[str]] = {}
    a, b = STRtree(boxes).query(boxes, predicate="intersects")
    for i, j in zip(a, b):
        if i < j:
            hits.setdefault(int(j), []).append(f"the label of '{places[int(i)].id}'")
    a, b = ctx.marker_tree.query(boxes, predicate="intersects")
    for i, j in zip(a, b):
        if i != j:
            hits.setdefault(int(i), []).append(f"the marker of '{places[int(j)].id}'")
    for i in sorted(hits):
        what = " and ".join(hits[i][:3]) + (f" and {len(hits[i]) - 3} more" if len(hits[i]) > 3 else "")
        yield Finding(("places", i, "name"), f"the label '{places[i].name}' would overlap {what}; move the places apart or shorten the name")
