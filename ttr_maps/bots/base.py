"""The bot interface: a bot is made for one seat of one game and asked for an action at each decision."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from .view import View


class Bot:
    """Base of every bot. `act` gets the seat's view and the legal actions and returns one of them.

    A bot owns its random generator (seeded by whoever runs the game), so a game
    of bots is replayable from the game seed and the bots' seeds.
    """

    name: ClassVar[str] = "bot"
    description: ClassVar[str] = ""
    # True: at the start of a turn the bot is handed `state.legal_actions(payments=False)`, a claims.RouteLegal
    # (the actions other than claims, and the claimable routes with their claims on request) instead of every
    # claim with every payment; for bots that choose a route before its payment.
    route_level: ClassVar[bool] = False
    # False: the bot never reads its view (random play); the runner then hands it a closed view (every read
    # raises) instead of building one per decision.
    reads_view: ClassVar[bool] = True
    # True: the bot reads its legal actions only by len() and by index (a random choice); the runner then hands
    # it state.legal_sequence(), which builds only the claim asked for, instead of the list of every claim.
    index_only: ClassVar[bool] = False
    # True: the bot's act() is `legal[self.rng._randbelow(len(legal))]` (legal[0] when it is the only one), a
    # uniformly random pick; simulate's runner then draws that index itself, the same draw, without calling
    # act. A subclass that defines its own act() is False unless it sets this again.
    uniform: ClassVar[bool] = False
    # Options a user may set (`--bot-option NAME.KEY=VALUE`): key -> what it sets. `configure` reads them.
    options: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "act" in vars(cls) and "uniform" not in vars(cls):
            cls.uniform = False  # an act() of its own is asked, unless the class says it is the uniform pick

    def __init__(self, game: Game, seat: int, seed: int):
        self.game = game
        self.seat = seat
        self.seed = seed

    _rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's own generator, seeded with its seed when first asked for (the same numbers as one made with
        the bot): seeding one costs about as much as a planning bot's whole construction, and they never draw.
        (Kept in _rng, not by functools.cached_property: a class compiled by mypyc has no __dict__ to cache in, and
        its cached_property makes a new generator at every ask.)"""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng

    def configure(self, options: dict[str, str]) -> None:
        """Apply user options (strings); ValueError names an unknown key or a bad value."""
        for key in options:
            known = ", ".join(sorted(self.options)) or "none"
            raise ValueError(f"bot {self.name!r} has no option {key!r} (its options: {known})")

    def act(self, view: View, legal: list[Action]) -> Action:  # pragma: no cover - overridden
        raise NotImplementedError
