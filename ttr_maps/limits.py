"""The largest boards each command handles in the time and memory docs/limits.md measures.

The formats allow boards of 20,000 places and 60,000 routes. Reading, checking and
playing such a board is linear in its size and is never refused; drawing one (render,
print, the simulate report's heat map, a route-load picture, the play page) is not, so a
board beyond `DRAWING` is refused up front with a message naming the file, its size, the
limit and what to do, instead of running for many minutes and gigabytes (the simulate
report leaves its heat map out and says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model.board import Board

DOCS = "docs/limits.md"


@dataclass(frozen=True)
class Limit:
    """At most `places` places and `routes` routes; `anchor` is the section of docs/limits.md that explains it."""

    places: int
    routes: int
    anchor: str

    def allows(self, board: Board) -> bool:
        return len(board.places) <= self.places and len(board.routes) <= self.routes

    def text(self) -> str:
        return f"{self.places:,} places and {self.routes:,} routes"


#: Laying out and drawing a board (ttr_maps.render's plan).
DRAWING = Limit(places=2_000, routes=4_000, anchor="drawing")
#: The ticket commands (score, compare, suggest, balance): shortest paths between a deck's places.
TICKETS = Limit(places=5_000, routes=10_000, anchor="tickets")


def size(board: Board) -> str:
    return f"{len(board.places):,} places and {len(board.routes):,} routes"


def refusal(file: str, board: Board, command: str, limit: Limit | None = None) -> str:
    """Why `ttr-maps COMMAND` will not draw `file`'s board (beyond `limit`, default DRAWING), and what to do instead."""
    limit = limit or DRAWING
    does = "works out decks for" if limit.anchor == "tickets" else "draws"
    return (f"{file}: the board has {size(board)}; `ttr-maps {command}` {does} boards of at most {limit.text()} "
            f"(larger ones take many minutes and gigabytes). {'Work on' if does != 'draws' else 'Draw'} a region of it "
            f"as a board of its own; `ttr-maps validate`, `state` and `simulate` handle boards of any size the format allows. "
            f"See {DOCS}#{limit.anchor}")
