"""Who plays the first turn (docs/rules.md#the-first-player).

The variant's rule (`players.first`): `seat-0`, or `random`, drawn from the game's seed
with a generator of its own, so the decks are shuffled exactly as under `seat-0`.
Rules the published games name (the most travelled player, the youngest) are not
computable from a game; a table applies them by passing the seat it chose
(`ttr-maps state new --first-player SEAT`).
"""

from __future__ import annotations

import random

RULES = ("seat-0", "random")


def first_player(rule: str | int, seed: int, players: int) -> int:
    """The seat that plays the first turn under `rule` (a rule name or a seat number)."""
    if isinstance(rule, int) and not isinstance(rule, bool):
        if not 0 <= rule < players:
            raise ValueError(f"seat {rule} does not exist with {players} players (seats 0 to {players - 1})")
        return rule
    if rule == "seat-0":
        return 0
    if rule == "random":
        return random.Random(f"ttr-maps-first-player:{seed}").randrange(players)
    raise ValueError(f"unknown first-player rule {rule!r}; give a seat number or one of: {', '.join(RULES)}")
