"""The reference engine: every edition's rules as data (docs/engine.md).

    from ttr_maps.engine import Game
    state = Game.from_file("maps/variants/usa.yaml", 4).new_initial_state(seed=1)
"""

from .actions import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimTrack,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    MovePassenger,
    Pass,
    PayTunnel,
    PlacePassenger,
    SetFlag,
    SkipFlag,
    SkipPassenger,
    StopPassenger,
)
from .errors import IllegalAction
from .game import OPEN_CASES, Game, State

__all__ = [
    "OPEN_CASES",
    "AbandonTunnel",
    "Action",
    "BuildStation",
    "ClaimTrack",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "Game",
    "IllegalAction",
    "KeepTickets",
    "MovePassenger",
    "Pass",
    "PayTunnel",
    "PlacePassenger",
    "SetFlag",
    "SkipFlag",
    "SkipPassenger",
    "State",
    "StopPassenger",
]
