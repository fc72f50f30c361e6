"""More parallel tracks between two places than `max_tracks`.

Tracks are counted over every route entry joining the same two places, in
either direction. The format allows up to 3 tracks in one entry (triple routes
exist on the Märklin board); set `max_tracks = 2` for a board meant to have
double routes at most.

Why: each extra track needs room on the drawing and weakens the blocking that
makes claiming a route matter; beyond the limit the board is not drawable as
a readable bundle of cars.

Failing:

```yaml
routes:
  - {from: a, to: b, length: 2, tracks: [red, blue]}
  - {from: b, to: a, length: 2, tracks: [green, gray]}   # 4 tracks between a and b
```

Passing: `{from: a, to: b, length: 2, tracks: [red, blue, green]}` alone.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G010"
NAME = "too-many-parallel-tracks"
SEVERITY = "warning"
OPTIONS = {"max_tracks": 3}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    limit = options["max_tracks"]
    for a, b, data in ctx.graph.edges(data=True):
        if data["tracks"] > limit:
            last = max(data["routes"])
            yield Finding(
                ("routes", last, "tracks"),
                f"{data['tracks']} parallel tracks join {a} and {b} (at most {limit}); remove tracks or raise max_tracks",
            )
