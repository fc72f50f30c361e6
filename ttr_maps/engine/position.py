"""A final position: what each player owns when the game ends, all final scoring needs.

The engine builds one from its game state; `position_file` reads one that a
person typed at the table. Both hand it to `scoring.final_score`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.board import Board, Ticket
from ..model.variant import Variant

if TYPE_CHECKING:
    from .trail import Trail


@dataclass(frozen=True)
class PlayerPosition:
    """One player's holdings at the end of the game."""

    claims: tuple[tuple[int, int], ...]  # (index into board.routes, track index within route.tracks)
    stations: tuple[str, ...] = ()  # place ids where this player built a station
    tickets: tuple[int, ...] = ()  # kept tickets: indices into all_tickets(variant, board)
    goods: tuple[int, ...] = ()  # values of the goods tokens this player took
    flag_sets: int = 0  # completed French flag sets (variant.flags.points each)
    route_points: int | None = None  # points scored in play for claims; None = from the scoring table
    name: str = ""
    # (mechanic name, its data) for the mechanics whose final scoring needs more than the fields above
    # (mechanic.Mechanic.scoring_data)
    mechanics: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Position:
    """Every player's holdings, in seat order."""

    players: tuple[PlayerPosition, ...]


@dataclass(frozen=True)
class ScoringTable:
    """A finished position with what final scoring worked out for every seat: what a mechanic's
    `final_scoring_table` hook (mechanic.py) compares across seats."""

    variant: Variant
    board: Board
    position: Position
    tickets: tuple[Ticket, ...]  # all_tickets(variant, board): what the ticket indices below refer to
    countries: frozenset[str]  # the places that are countries (dead ends: docs/rules.md#countries)
    completed: tuple[tuple[int, ...], ...]  # per seat: its completed tickets (with its stations' borrowings)
    trails: tuple[Trail, ...]  # per seat: one longest trail of its own routes (edges index its claims)
    notes: tuple[dict[str, Any], ...]  # per seat: {mechanic name: what it found} (scoring.PlayerScore.notes)


def all_tickets(variant: Variant, board: Board) -> tuple[Ticket, ...]:
    """Every ticket card a position may refer to: the board's, then the variant's added ones."""
    return tuple(board.tickets) + tuple(variant.tickets.add)
