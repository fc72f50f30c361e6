"""Bots that play from a seat's observation: a registry of names to bot classes.

Every bot gets one seat's view (ttr_maps.bots.view) and the legal actions, and
returns one of them. `make_bot(name, game, seat, seed)` builds one by name.
"""

from __future__ import annotations

from .base import Bot
from .expert import ExpertBot
from .long_route import LongRouteBot
from .random_bot import RandomBot
from .route_focus import RouteFocusBot
from .search import SearchBot
from .ticket_hungry import TicketHungryBot

BOTS: dict[str, type[Bot]] = {
    cls.name: cls for cls in (RandomBot, RouteFocusBot, TicketHungryBot, LongRouteBot, ExpertBot, SearchBot)
}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(name: str, game, seat: int, seed: int, options: dict[str, str] | None = None) -> Bot:
    """A bot by registry name, with its options; KeyError names the known bots, ValueError a bad option."""
    cls = BOTS.get(name)
    if cls is None:
        raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    bot = cls(game, seat, seed)
    if options:
        bot.configure(options)
    return bot


__all__ = ["BOTS", "Bot", "bot_names", "make_bot"]
