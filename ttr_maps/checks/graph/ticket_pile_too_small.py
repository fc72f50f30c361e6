"""A ticket pile holds fewer cards than setup deals with the most players.

Setup deals each player `count` tickets from a pile (or an announced mix of
`count` from several piles); with `players.max` players the pile must hold at
least `players.max x count` cards, before anyone draws in play.

Why: the engine cannot deal the setup, and real players would find the pile
empty before the game starts.

Failing (board has 8 tickets):

```yaml
players: {min: 2, max: 5}
tickets:
  setup:
    deal: [{pile: main, count: 3}]   # 5 x 3 = 15 cards needed
```

Passing: add tickets to the board, or deal fewer (`count: 1`), or allow fewer players.
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G008"
NAME = "ticket-pile-too-small"
SEVERITY = "error"
OPTIONS: dict = {}
NEEDS_VARIANT = True


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    variant = ctx.variant
    assert variant is not None
    players = variant.players.max
    sizes = {name: len(refs) for name, refs in ctx.ticket_groups.items()}
    setup = variant.tickets.setup
    needed: dict[str, int] = {}
    first_loc: dict[str, tuple] = {}
    for j, deal in enumerate(setup.deal):
        needed[deal.pile] = needed.get(deal.pile, 0) + deal.count * players
        first_loc.setdefault(deal.pile, ("tickets", "setup", "deal", j, "count"))
    for pile, need in needed.items():
        have = sizes.get(pile, 0)
        if have < need:
            yield Finding(
                first_loc[pile],
                f"pile '{pile}' holds {have} ticket(s) but setup deals {need // players} to each of up to {players} players ({need} needed); "
                "add tickets, deal fewer, or lower players.max",
                "variant",
            )
    if setup.mix:
        have = sum(sizes.get(p, 0) for p in set(setup.mix))
        need = setup.count * players
        if have < need:
            yield Finding(
                ("tickets", "setup", "count"),
                f"the piles {', '.join(setup.mix)} hold {have} ticket(s) but setup deals {setup.count} to each of up to {players} players ({need} needed)",
                "variant",
            )
