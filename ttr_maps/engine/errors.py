"""The one exception the engine raises for a move the rules forbid."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid in this state. `rule` names the rule (RULES.md section)."""

    def __init__(self, reason: str, rule: str):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})")


# Rule names used in IllegalAction, so every refusal cites the rule that forbids it.
R_TURN = "RULES.md 1: a turn is exactly one action"
R_DRAW = "RULES.md 1: draw train cards"
R_FACE_UP_LOCO = "RULES.md 1: a face-up locomotive is the whole draw and never the second card"
R_CLAIM = "RULES.md 1: claim a route"
R_TRAINS = "RULES.md 1: the player must have enough trains left"
R_PARALLEL = "RULES.md 1: parallel routes"
R_TICKETS = "RULES.md 1: draw tickets"
R_KEEP = "RULES.md 1/2a: keeping tickets"
R_FERRY = "RULES.md 2: ferries"
R_TUNNEL = "RULES.md 2: tunnels"
R_STATION = "RULES.md 2: build a station"
R_BIG_LOCO = "RULES.md 4: +4 locomotives"
R_PASSENGER = "RULES.md 4: passengers"
R_FLAG = "RULES.md 5: French flags"
R_PASS = "RULES.md 6: pass only when no action is legal"
R_OVER = "RULES.md 1: end of game"
R_PLAYER = "the acting player"
