"""The one exception the engine raises for a move the rules forbid."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid in this state. `rule` names the rule and its section of docs/rules.md."""

    def __init__(self, reason: str, rule: str):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})")


def rule(words: str, anchor: str) -> str:
    """A rule's name and where docs/rules.md explains it: `claiming a route (docs/rules.md#claiming-a-route)`."""
    return f"{words} (docs/rules.md#{anchor})"


# Rule names used in IllegalAction, so every refusal cites the rule that forbids it.
R_TURN = rule("a turn is exactly one action", "a-turn")
R_DRAW = rule("drawing train cards", "drawing-train-cards")
R_FACE_UP_LOCO = rule("a face-up locomotive is the whole draw and never the second card", "face-up-locomotives")
R_CLAIM = rule("claiming a route", "claiming-a-route")
R_TRAINS = rule("the player must have enough trains left", "enough-trains")
R_PARALLEL = rule("parallel routes", "parallel-routes")
R_TICKETS = rule("drawing tickets", "drawing-tickets")
R_KEEP = rule("keeping tickets", "keeping-tickets")
R_FERRY = rule("ferries", "ferries")
R_TUNNEL = rule("tunnels", "tunnels")
R_STATION = rule("building a station", "stations")
R_LOCO_ONLY = rule("locomotives pay only on some kinds of route", "locomotives-only-on-some-routes")
R_STAND_IN = rule("stand-ins", "stand-ins")
R_BIG_LOCO = rule("big (+4) locomotives", "big-locomotives")
R_PASSENGER = rule("passengers", "passengers-and-goods")
R_FLAG = rule("French flags", "french-flags")
R_PASS = rule("pass only when no action is legal", "passing")
R_OVER = rule("the game is over", "end-of-the-game")
R_PLAYER = rule("the acting player", "the-acting-player")
