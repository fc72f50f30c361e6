"""Two tickets with the same two ends in one draw pile (or, without a variant, in one deck).

Ends are unordered: Denver–El Paso duplicates El Paso–Denver. The same
connection in two *different* decks (a base deck and a revised deck) is fine.

Why: a duplicate makes one connection twice as likely to be drawn and gives a
player holding both a double score for one route network. It is usually a
copy-paste slip; if it is intended, turn the check off for this board.

Failing:

```yaml
tickets:
  - {from: denver, to: el-paso, points: 4, decks: [main]}
  - {from: el-paso, to: denver, points: 4, decks: [main]}
```

Passing: keep one of them, or put them in different decks.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context, TicketRef

CODE = "G007"
NAME = "duplicate-ticket"
SEVERITY = "warning"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    group_kind = "deck" if ctx.variant is None else "pile"
    reported: set[tuple] = set()
    for group, refs in ctx.ticket_groups.items():
        seen: dict[frozenset[str], TicketRef] = {}
        for ref in refs:
            key = frozenset(ref.ends)
            first = seen.setdefault(key, ref)
            if first is ref or (ref.file, ref.loc) in reported:
                continue
            reported.add((ref.file, ref.loc))
            a, b = ref.ends
            yield Finding(
                ref.loc,
                f"the ticket {a}–{b} duplicates the one at {ctx.line(first.loc, first.file)} in {group_kind} '{group}'; keep one",
                ref.file,
            )
