"""Two route entries join the same two places.

Parallel tracks belong in one entry (`tracks: [red, blue]`): the rules for
double routes (one player never claims two tracks of a route; with few players
only one track is open) apply to the tracks of one entry. Two entries are two
unrelated routes, so one player could claim both.

Each later entry is reported. The suggestion merges every entry of the same
length into one (listing all their tracks), unless together they have more
than the 3 tracks one entry holds.

Why: almost always a double route written twice, which silently drops the
parallel-route rules. If two different routes really join the same places
(say a short mountain route and a long valley one), turn this check off.

Failing:

```yaml
routes:
  - {from: boston, to: new-york, length: 2, tracks: [red]}
  - {from: new-york, to: boston, length: 2, tracks: [yellow]}
```

Passing:

```yaml
routes:
  - {from: boston, to: new-york, length: 2, tracks: [red, yellow]}
```
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context, listing

CODE = "G011"
NAME = "duplicate-route"
SEVERITY = "warning"
OPTIONS: dict = {}

#: Tracks one route entry holds at most (the format's limit).
MAX_TRACKS = 3


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    board = ctx.board
    for a, b, data in ctx.graph.edges(data=True):
        entries = sorted(data["routes"])
        for n, i in enumerate(entries[1:], start=1):
            r = board.routes[i]
            earlier = entries[:n]
            where = f"({_lines(ctx, earlier)})"
            what = "another route already joins" if len(earlier) == 1 else f"{len(earlier)} other routes already join"
            claim = "both" if len(earlier) == 1 else "all of them"
            same = [k for k in entries if board.routes[k].length == r.length]
            if same[0] == i:
                hint = f"its length differs ({r.length}); if they are different routes, turn G011 off for this board"
            else:
                tracks = [t for k in same for t in board.routes[k].tracks]
                entry_lines = _lines(ctx, same)
                if len(tracks) <= MAX_TRACKS:
                    hint = f"write the entries at {entry_lines} as one entry with tracks [{', '.join(tracks)}]"
                else:
                    hint = (
                        f"the entries at {entry_lines} have {len(tracks)} tracks together, more than the {MAX_TRACKS} "
                        f"one entry holds; remove tracks until they fit in one entry"
                    )
            yield Finding(("routes", i), f"{what} {a} and {b} {where}; one player could claim {claim}; {hint}")


def _lines(ctx: Context, routes: list[int]) -> str:
    """'line 7', or 'lines 7, 8 and 9' (data paths when the file's text is not at hand)."""
    refs = [ctx.line(("routes", k)) for k in routes]
    if len(refs) > 1 and all(r.startswith("line ") for r in refs):
        return "lines " + listing([r.removeprefix("line ") for r in refs], shown=len(refs))
    return listing(refs, shown=len(refs))
