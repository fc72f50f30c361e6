"""A ferry that needs more locomotives than its route has spaces.

`ferry: N` says N of the route's spaces need a locomotive, so N can be at most
`length`.

Why: the route could never be paid for as written; the number is a typo.

Failing:

```yaml
routes:
  - {from: london, to: amsterdam, length: 2, tracks: [gray], ferry: 3}
```

Passing: `ferry: 2` (or fewer).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G013"
NAME = "ferry-longer-than-route"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    for i, route in enumerate(ctx.board.routes):
        if route.ferry > route.length:
            yield Finding(
                ("routes", i, "ferry"),
                f"the ferry needs {route.ferry} locomotives but the route has {route.length} space(s); at most {route.length}",
            )
