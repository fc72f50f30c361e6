"""The rows of a score sheet in plain words, and which of them a variant scores.

`ttr-maps score` prints them and the simulate report's tables name them alike. Nothing is
imported here: `ttr-maps score` reads this at start-up, and the report without its plotting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model.variant import Variant

#: Each score-sheet key with its plain name, in the score sheet's order.
SCORE_ROWS: tuple[tuple[str, str], ...] = (
    ("routes", "routes"),
    ("tickets_completed", "tickets completed"),
    ("tickets_failed", "tickets failed"),
    ("longest_path", "longest path bonus"),
    ("most_tickets", "most tickets bonus"),
    ("stations", "stations not built"),
    ("goods", "goods tokens"),
    ("flags", "French flags"),
    ("two_paths", "two-paths bonus"),
    ("most_routes", "most routes bonus"),
)

#: The rows every game scores, whatever its variant.
ALWAYS = ("routes", "tickets_completed", "tickets_failed")


def variant_rows(variant: Variant) -> list[tuple[str, str]]:
    """The rows `variant` scores, as (key, plain name): routes and tickets always, a bonus only where the
    variant sets it."""
    bonuses = variant.scoring.bonuses
    used = {
        "longest_path": bonuses.longest_path > 0,
        "most_tickets": bonuses.most_tickets > 0,
        "stations": variant.stations.count > 0,
        "goods": bonuses.goods,
        "flags": variant.flags.points > 0,
        "two_paths": bonuses.two_paths > 0,
        "most_routes": bool(bonuses.most_routes),
    }
    return [(key, label) for key, label in SCORE_ROWS if key in ALWAYS or used.get(key)]
