"""`random`: a uniformly random legal action (seeded). The baseline every other bot must beat."""

from __future__ import annotations

from .base import Bot


class RandomBot(Bot):
    name = "random"
    description = "a uniformly random legal action"
    reads_view = False

    def act(self, view, legal):
        # choice draws as randrange(len(legal)) does (both take _randbelow of the length), with less on the way
        return self.rng.choice(legal) if len(legal) > 1 else legal[0]
