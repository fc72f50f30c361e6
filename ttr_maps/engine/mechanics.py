"""The engine's own mechanics, appended to the list every game is built from (mechanic.MECHANICS).

The order is the order their hooks run in (a claim of a flag colour offers the flag before the
passenger). The package imports this module (through game.py), so the list is complete before a Game
is made or a position scored. A new mechanic (or final-scoring bonus, bonuses.py) is one more entry here, or, from outside the engine, an
entry appended to mechanic.MECHANICS before the Game is made (docs/engine.md#mechanics).
"""

from __future__ import annotations

from . import bonuses, flags, passengers, stand_ins, stations, tunnels
from .mechanic import MECHANICS, Mechanic

OWN: tuple[Mechanic, ...] = (
    stations.STATIONS, flags.FLAGS, passengers.PASSENGERS, stand_ins.STAND_INS, tunnels.TUNNELS,
    # The bonuses that compare players (final scoring only; their rows come in this order)
    bonuses.LONGEST_PATH, bonuses.MOST_TICKETS, bonuses.TWO_PATHS, bonuses.MOST_ROUTES,
)
MECHANICS.extend(m for m in OWN if m not in MECHANICS)

# The State attributes of the engine's own mechanics: slots of the class games make (game.State).
SLOTS: tuple[str, ...] = tuple(f for m in OWN for f in m.fields)
