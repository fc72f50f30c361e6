"""Two route entries that could be one double route join the same two places.

Parallel tracks belong in one entry (`tracks: [red, blue]`): the rules for
double routes (one player never claims two tracks of a route; with few players
only one track is open) apply to the tracks of one entry. Two entries are two
separate routes, so one player could claim both.

An entry is reported when an earlier entry between the same places has the
same length, ferry locomotives and tunnel (so the two could be one entry), and
not both carry an `id:` of their own. The suggestion merges every such entry
into one (listing all their tracks), unless together they have more than the 3
tracks one entry holds. Entries that differ in length, ferry or tunnel are
never reported: they cannot be one entry, so they are plainly separate routes
(a tunnel and a ferry between the same towns); their ids tell them apart
(`a-b`, `a-b-2`).

Why: almost always a double route written twice, which silently drops the
parallel-route rules. If the entries really are separate routes (two border
crossings to one country), give each an `id:` (e.g. `id: north-crossing`): the
ids say so, name the routes in actions and reports, and silence this check.

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
  - {from: bern, to: sion, length: 3, tracks: [gray], tunnel: true}
  - {from: bern, to: sion, length: 3, tracks: [gray], ferry: 1}
  - {id: dover-north, from: dover, to: france, length: 2, tracks: [red]}
  - {id: dover-south, from: dover, to: france, length: 2, tracks: [blue]}
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
    g = ctx.pairs
    for (u, v), routes in zip(g.ends, g.routes):
        a, b = g.names[u], g.names[v]
        entries = sorted(routes)
        for n, i in enumerate(entries[1:], start=1):
            r = board.routes[i]
            kind = (r.length, r.ferry, r.tunnel)
            same = [k for k in entries if (board.routes[k].length, board.routes[k].ferry, board.routes[k].tunnel) == kind]
            earlier = [k for k in same if k < i and not (r.own_id and board.routes[k].own_id)]
            if not earlier:
                continue
            where = f"({_lines(ctx, earlier)})"
            what = "another route already joins" if len(earlier) == 1 else f"{len(earlier)} other routes already join"
            claim = "both" if len(earlier) == 1 else "all of them"
            tracks = [t for k in same for t in board.routes[k].tracks]
            entry_lines = _lines(ctx, same)
            if len(tracks) <= MAX_TRACKS:
                hint = f"write the entries at {entry_lines} as one entry with tracks [{', '.join(tracks)}]"
            else:
                hint = (
                    f"the entries at {entry_lines} have {len(tracks)} tracks together, more than the {MAX_TRACKS} "
                    f"one entry holds; remove tracks until they fit in one entry"
                )
            yield Finding(
                ("routes", i),
                f"{what} {a} and {b} {where}; one player could claim {claim}; {hint}, "
                "or, if they are separate routes, give each an `id:`",
            )


def _lines(ctx: Context, routes: list[int]) -> str:
    """'line 7', or 'lines 7, 8 and 9' (data paths when the file's text is not at hand)."""
    refs = [ctx.line(("routes", k)) for k in routes]
    if len(refs) > 1 and all(r.startswith("line ") for r in refs):
        return "lines " + listing([r.removeprefix("line ") for r in refs], shown=len(refs))
    return listing(refs, shown=len(refs))
