"""The routes split the board into parts that no path joins.

Why: a player whose network starts in one part can never reach the other, and
every ticket between the parts is impossible. Places with no route at all are
reported by G002 instead.

Failing:

```yaml
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 1, y: 0}
  - {id: c, name: C, x: 5, y: 0}
  - {id: d, name: D, x: 6, y: 0}
routes:
  - {from: a, to: b, length: 1, tracks: [red]}
  - {from: c, to: d, length: 1, tracks: [blue]}   # c-d is cut off from a-b
```

Passing: add `{from: b, to: c, length: 4, tracks: [gray]}`.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G001"
NAME = "board-not-connected"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    members: dict[int, list[str]] = {}
    for n, k in ctx.components.items():
        members.setdefault(k, []).append(n)
    parts = [c for c in members.values() if len(c) > 1]
    if len(parts) < 2:
        return
    index = ctx.place_index
    parts.sort(key=lambda c: (-len(c), min(index[n] for n in c)))
    main = parts[0]
    for part in parts[1:]:
        ids = sorted(part, key=index.__getitem__)
        shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        yield Finding(
            ("places", index[ids[0]]),
            f"{len(ids)} place(s) ({shown}) are not connected to the rest of the board ({len(main)} places); add a route joining them",
        )
