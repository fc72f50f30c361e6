"""The data models of the board and variant formats."""

from .board import BOARD_FORMAT, GRAY, Board, DeckInfo, Drawing, Goods, Meta, Place, Projection, Route, Ticket
from .variant import VARIANT_FORMAT, Variant

__all__ = [
    "BOARD_FORMAT",
    "GRAY",
    "VARIANT_FORMAT",
    "Board",
    "DeckInfo",
    "Drawing",
    "Goods",
    "Meta",
    "Place",
    "Projection",
    "Route",
    "Ticket",
    "Variant",
]
