"""The train-card deck is smaller than the starting hands plus the face-up cards.

With `players.max` players the deck must hold `players.max x hand` starting
cards plus `face_up.count` face-up cards.

Why: setup cannot be dealt, and even when it barely can, the first turns find
no deck to draw from.

Failing:

```yaml
players: {max: 5}
hand: 4
face_up: {count: 5}
cards: {colors: {red: 6, blue: 6}, locomotives: 0}   # 12 cards, 25 needed
```

Passing: `cards: {colors: {red: 12, blue: 12}, locomotives: 4}` (28 cards).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G009"
NAME = "card-deck-too-small"
SEVERITY = "error"
OPTIONS: dict = {}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    v = ctx.variant
    assert v is not None
    need = v.players.max * v.hand + v.face_up.count
    have = v.cards.total
    if have < need:
        yield Finding(
            ("cards",),
            f"the deck holds {have} train card(s) but setup needs {need} ({v.players.max} players x {v.hand} in hand + {v.face_up.count} face up); "
            "add cards, deal fewer, or lower players.max",
            "variant",
            key=True,
        )
