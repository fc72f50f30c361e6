"""The board's spaces and the players' trains are out of proportion.

For every player count the variant allows, the spaces open to them (all tracks
with `parallel.all_tracks_from` players or more, else one track per route) are
divided by the trains in play (`trains x players`). A ratio below `min_ratio`
means the board fills up before the trains run out; above `max_ratio`, most
of the board stays empty.

Why: the game ends when someone is nearly out of trains. If the board cannot
hold everyone's trains, that may never happen and the last turns are spent
passing; if it holds four times as many, there is no competition for routes.
The official rule sets sit between 1.33 (Europe, five players) and 2.98
(Europe, two players).

Failing:

```yaml
players: {min: 2, max: 5}
trains: 80    # 5 x 80 = 400 trains for a board of 309 spaces
```

Passing: `trains: 45` (225 trains, ratio 1.37).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "B006"
NAME = "trains-spaces-mismatch"
SEVERITY = "warning"
OPTIONS = {"min_ratio": 1.15, "max_ratio": 4.0}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    v = ctx.variant
    assert v is not None
    one = sum(r.length for _, r in ctx.routes)
    every = sum(r.length * len(r.tracks) for _, r in ctx.routes)
    if not one:
        return

    def ratio(players: int) -> tuple[float, int]:
        spaces = every if players >= v.parallel.all_tracks_from else one
        return spaces / (v.trains * players), spaces

    low = min(range(v.players.min, v.players.max + 1), key=lambda p: ratio(p)[0])
    high = max(range(v.players.min, v.players.max + 1), key=lambda p: ratio(p)[0])
    r, spaces = ratio(low)
    if r < options["min_ratio"]:
        yield Finding(
            ("trains",),
            f"with {low} players the board has {spaces} open spaces for {v.trains * low} trains (ratio {r:.2f}, at least {options['min_ratio']:.2f} expected); "
            "the board fills up before the trains run out: give fewer trains or add routes",
            "variant",
        )
    r, spaces = ratio(high)
    if r > options["max_ratio"]:
        yield Finding(
            ("trains",),
            f"with {high} players the board has {spaces} open spaces for {v.trains * high} trains (ratio {r:.2f}, at most {options['max_ratio']:.2f} expected); "
            "most of the board stays empty: give more trains or remove routes",
            "variant",
        )
