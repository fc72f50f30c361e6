"""The deck file format (`ttr-deck/1`): a ticket deck in its own file, so a designer can try decks without
editing the board. A variant names it under `tickets.deck_files`; its tickets are then added like
`tickets.add`. `ttr-maps tickets suggest -o` writes one and `tickets score`/`compare` read one.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .board import DeckInfo, Id, Strict, Ticket

DECK_FORMAT = "ttr-deck/1"


class DeckFile(Strict):
    """A whole deck file."""

    format: Literal["ttr-deck/1"] = Field(description="Format name and version: `ttr-deck/1`.")
    name: str | None = Field(default=None, max_length=200, description="What this deck is, for people.")
    board: str | None = Field(
        default=None,
        min_length=1,
        max_length=1000,
        description="The board the deck is for (relative to this file, or a bundled board's name): lets "
        "`ttr-maps tickets score` and `compare` read the deck alone. A variant's own board is used when it names the file.",
    )
    decks: dict[Id, DeckInfo] = Field(default_factory=dict, description="Optional details of the decks its tickets belong to.")
    tickets: tuple[Ticket, ...] = Field(min_length=1, max_length=20000)
