"""The phases of a turn (what kind of decision the current player faces) and the open cases counted in games.

A leaf module: the engine's other modules, the state files, the observation and the bots name phases
from here, so the list is written once.
"""

PH_TURN, PH_SECOND, PH_KEEP, PH_SETUP_MIX, PH_TUNNEL, PH_FLAG, PH_PASSENGER, PH_JOURNEY, PH_OVER, PH_STAND_IN = range(10)
PHASE_NAMES = ("turn", "second-draw", "keep-tickets", "announce-mix", "tunnel", "flag", "place-passenger", "journey", "over", "stand-ins")
PHASE_DOC = {
    PH_TURN: "at the start of a turn (draw cards, claim a route, draw tickets, build a station or move a passenger)",
    PH_SECOND: "taking the second card of a draw",
    PH_KEEP: "choosing which offered tickets to keep",
    PH_SETUP_MIX: "announcing the mix of starting tickets",
    PH_TUNNEL: "paying a tunnel's extra cards or abandoning it",
    PH_FLAG: "deciding whether to set a paid card aside for a French flag",
    PH_PASSENGER: "deciding where to place a passenger after a claim",
    PH_JOURNEY: "moving a passenger",
    PH_OVER: "done: the game is over",
    PH_STAND_IN: "giving the stand-in cards of a claim",
}

# Names of the open cases (docs/rules.md#open-cases) counted in every game record (docs/engine.md).
OPEN_CASES = ("pass", "all-passed", "redeal-loop-stopped", "second-draw-impossible")
