"""`route-focus`: keeps its starting tickets, builds the cheapest network for them, draws the colours it needs.

It never draws more tickets. Once its tickets are done it claims the routes
worth the most points for the cards it lacks, near its network when it can.
"""

from __future__ import annotations

from .planner import PlanningBot


class RouteFocusBot(PlanningBot):
    name = "route-focus"
    description = "keeps its starting tickets, builds the cheapest network for them, draws the colours it needs"
