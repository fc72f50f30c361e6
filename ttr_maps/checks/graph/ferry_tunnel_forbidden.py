"""A route that is both a ferry and a tunnel, under a variant that forbids it.

The published rules never combine the two; a variant allows it with
`ferry_tunnels: true`.

Why: the cost of such a route (locomotives for the ferry spaces, then the
tunnel's extra cards) is not defined by the rules the variant plays.

Failing (variant without `ferry_tunnels: true`):

```yaml
routes:
  - {from: a, to: b, length: 3, tracks: [gray], ferry: 1, tunnel: true}
```

Passing: drop `tunnel: true` (or `ferry`), or set `ferry_tunnels: true` in the variant.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G014"
NAME = "ferry-tunnel-forbidden"
SEVERITY = "error"
OPTIONS: dict = {}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    assert ctx.variant is not None
    if ctx.variant.ferry_tunnels:
        return
    for i, route in enumerate(ctx.board.routes):
        if route.ferry and route.tunnel:
            yield Finding(
                ("routes", i, "tunnel"),
                f"route {ctx.route_name(route)} is both a ferry and a tunnel, which variant '{ctx.variant.name}' does not allow "
                "(set ferry_tunnels: true in the variant to allow it)",
            )
