"""More parallel tracks between two places than can be used in a game (or drawn readably).

Tracks are counted over every route entry joining the same two places, in
either direction, against the drawing limit; against a limit set by the
variant's parallel-route rule only the tracks of one entry count (separate
entries, such as a tunnel and a ferry between the same towns, are each open,
unless the variant's `parallel.same_places_double` counts them as one). The limit is the most tracks a readable bundle of cars holds,
3 (triple routes exist on the Märklin board), and with a variant also the most
tracks its parallel-route rule ever opens (docs/rules.md#parallel-routes): one player never
claims two tracks of a route, and with fewer players than
`parallel.all_tracks_from` only one track of each route is open. So for each
player count `n` the variant allows, `n` tracks are usable from
`all_tracks_from` players on, else 1; the limit is the largest of these (and at
most 3). A variant for 2 or 3 players only (with the usual `all_tracks_from: 4`)
never opens a second track, so every double route is reported.

`max_tracks` overrides the limit (0, the default, means: as above); set
`max_tracks = 2` for a board meant to have double routes at most.

Why: a track no game can ever use is dead weight on the drawing, and each
extra track weakens the blocking that makes claiming a route matter; beyond 3
tracks the board is not drawable as a readable bundle of cars.

Failing:

```yaml
routes:
  - {from: a, to: b, length: 2, tracks: [red, blue]}
  - {from: b, to: a, length: 2, tracks: [green, gray]}   # 4 tracks between a and b
```

or, with a variant `players: {min: 2, max: 3}` and `parallel: {all_tracks_from: 4}`:

```yaml
routes:
  - {from: a, to: b, length: 2, tracks: [red, blue]}   # the blue track is never open
```

Passing: `{from: a, to: b, length: 2, tracks: [red, blue, green]}` alone (without
a variant, or with one for up to 5 players from `all_tracks_from: 4`).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G010"
NAME = "too-many-parallel-tracks"
SEVERITY = "warning"
OPTIONS = {"max_tracks": 0}

#: The most tracks a readable bundle of cars holds (and one route entry).
DRAWABLE = 3


def limit_and_reason(ctx: Context, max_tracks: int) -> tuple[int, str]:
    """The most parallel tracks allowed between two places, and why, in words."""
    if max_tracks > 0:
        return max_tracks, f"at most {max_tracks} (max_tracks)"
    variant = ctx.variant
    if variant is None:
        return DRAWABLE, f"at most {DRAWABLE}, the most a readable bundle of cars holds"
    low, high, start = variant.players.min, variant.players.max, variant.parallel.all_tracks_from
    usable = max(n if n >= start else 1 for n in range(low, high + 1))
    if usable >= DRAWABLE:
        return DRAWABLE, f"at most {DRAWABLE}, the most a readable bundle of cars holds"
    players = f"{low}-{high} players" if low != high else f"{low} players"
    if usable == 1:
        why = f"the variant plays with {players} and opens parallel tracks only from {start} players (parallel.all_tracks_from)"
        return 1, f"only 1 is ever open: {why}"
    return usable, f"at most {usable} can ever be claimed: the variant plays with {players} and one player never claims two tracks of a route"


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    limit, reason = limit_and_reason(ctx, options["max_tracks"])
    # A limit from the variant's parallel-route rule counts the tracks of one entry: separate entries
    # between the same places (a tunnel and a ferry) are each open, unless `parallel.same_places_double`
    # joins them. A drawing limit counts them all.
    per_entry = options["max_tracks"] <= 0 and limit < DRAWABLE
    if ctx.variant is not None and ctx.variant.parallel.same_places_double:
        per_entry = False  # the variant joins them into one double route (docs/rules.md#parallel-routes)
    drawn = f"at most {DRAWABLE}, the most a readable bundle of cars holds"
    board = ctx.board
    g = ctx.pairs
    for (u, v), routes, total in zip(g.ends, g.routes, g.tracks):
        a, b = g.names[u], g.names[v]
        if per_entry:
            widest = max(len(board.routes[r].tracks) for r in routes)
            tests = [(total, DRAWABLE, drawn), (widest, limit, reason)]
        else:
            tests = [(total, limit, reason)]
        for tracks, most, why in tests:
            if tracks > most:
                yield Finding(
                    ("routes", max(routes), "tracks"),
                    f"{tracks} parallel tracks join {a} and {b} ({why}); remove tracks, "
                    "or set max_tracks under [checks.options.G010] in ttr-maps.toml if they are meant",
                )
                break
