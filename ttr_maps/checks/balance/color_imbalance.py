"""A colour's track spaces are out of proportion to its train cards.

For each colour of the variant's deck, the spaces of its tracks are compared
with its share of the coloured cards. A colour more than `tolerance` (0.25 =
25%) and at least `min_difference` spaces away from its share is reported with
the numbers (the floor keeps small boards, where one route is a big share,
quiet). Gray tracks, payable in any colour, are left out.

Why: if red tracks hold twice red's share of spaces, red cards become the
bottleneck of the game and drawing them decides it; a colour with few spaces
makes its cards nearly useless.

Failing (variant with 12 red and 12 blue cards):

```yaml
routes:
  - {from: a, to: b, length: 6, tracks: [red]}
  - {from: b, to: c, length: 6, tracks: [red]}
  - {from: c, to: d, length: 2, tracks: [blue]}   # red 12 spaces, blue 2; shares 7 and 7
```

Passing: make b-c blue (red 6, blue 8: each within 25% of its share of 7).
"""

from __future__ import annotations

from typing import Iterator

from ...model.board import GRAY
from ..base import Finding
from ..context import Context

CODE = "B001"
NAME = "color-imbalance"
SEVERITY = "warning"
OPTIONS = {"tolerance": 0.25, "min_difference": 3}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    assert ctx.variant is not None
    cards = {c: n for c, n in ctx.variant.cards.colors.items() if n > 0}
    spaces = dict.fromkeys(cards, 0)
    for route in ctx.board.routes:
        for color in route.tracks:
            if color != GRAY and color in spaces:
                spaces[color] += route.length
    total_spaces, total_cards = sum(spaces.values()), sum(cards.values())
    if not total_spaces or len(cards) < 2:
        return
    for color, n in cards.items():
        expected = total_spaces * n / total_cards
        off = spaces[color] / expected - 1
        if abs(off) <= options["tolerance"] or abs(spaces[color] - expected) < options["min_difference"]:
            continue
        more = off > 0
        yield Finding(
            ("cards", "colors", color),
            f"{color} tracks hold {spaces[color]} spaces for {n} {color} cards, {abs(off):.0%} {'more' if more else 'fewer'} than its share "
            f"of the cards ({expected:.0f} of the {total_spaces} coloured spaces); "
            f"{'recolour some ' + color + ' tracks' if more else 'give more tracks this colour'} or change its card count",
            "variant",
            key=True,
        )
