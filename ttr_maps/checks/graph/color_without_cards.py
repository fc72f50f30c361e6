"""A track colour for which the variant's deck has no cards.

Why: a red track can only be paid with red cards (or locomotives). With no red
cards it costs locomotives only, which is almost never intended: the colour is
missing from `cards.colors` or its count is 0.

Failing:

```yaml
# board
routes:
  - {from: a, to: b, length: 3, tracks: [orange]}
# variant
cards: {colors: {red: 12, blue: 12}}   # no orange cards
```

Passing: `cards: {colors: {red: 12, blue: 12, orange: 12}}`.
"""

from __future__ import annotations

from typing import Iterator

from ...model.board import GRAY
from ..base import Finding
from ..context import Context

CODE = "G012"
NAME = "color-without-cards"
SEVERITY = "error"
OPTIONS: dict = {}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    assert ctx.variant is not None
    cards = ctx.variant.cards.colors
    used: dict[str, list[int]] = {}
    for i, route in enumerate(ctx.board.routes):
        for color in route.tracks:
            if color != GRAY and cards.get(color, 0) == 0:
                used.setdefault(color, []).append(i)
    for color, routes in used.items():
        r = ctx.board.routes[routes[0]]
        more = f" and {len(routes) - 1} more" if len(routes) > 1 else ""
        if color in cards:
            loc: tuple = ("cards", "colors", color)
            what = f"the deck has 0 '{color}' cards"
        else:
            loc = ("cards", "colors") if ctx.variant_source and ("cards", "colors") in ctx.variant_source.value_pos else ("cards",)
            what = f"the deck has no '{color}' cards"
        yield Finding(
            loc,
            f"{what}, but {len(routes)} route(s) have {color} tracks ({ctx.route_name(r)}{more}); add {color} cards",
            "variant",
            key=color in cards,
        )
