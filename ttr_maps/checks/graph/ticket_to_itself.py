"""A ticket whose two ends are the same place.

Why: it is complete the moment it is drawn, so its points are free. It is
almost always a typo in `from` or `to`.

Failing:

```yaml
tickets:
  - {from: denver, to: denver, points: 4, decks: [main]}
```

Passing:

```yaml
tickets:
  - {from: denver, to: el-paso, points: 4, decks: [main]}
```
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G017"
NAME = "ticket-to-itself"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    for ref in ctx.tickets:
        if ref.ticket.from_ == ref.ticket.to:
            yield Finding(ref.loc + ("to",), f"the ticket joins '{ref.ticket.to}' to itself; it would be complete when drawn", ref.file)
