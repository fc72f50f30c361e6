"""`random`: a uniformly random legal action (seeded). The baseline every other bot must beat."""

from __future__ import annotations

from .base import Bot


class RandomBot(Bot):
    name = "random"
    description = "a uniformly random legal action"
    reads_view = False
    index_only = True
    uniform = True  # simulate's runner draws the pick itself (Bot.uniform): act is for everyone else

    def act(self, view, legal):
        # rng.choice(legal) is legal[rng._randbelow(len(legal))]: the same draw, taken here with one len() of the
        # legal actions (a sequence whose len() is a Python call, engine/legal.py) instead of three.
        n = len(legal)
        return legal[self.rng._randbelow(n)] if n > 1 else legal[0]
