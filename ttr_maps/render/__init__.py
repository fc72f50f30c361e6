"""Rendering: SVG board and cards, print-and-play PDF.

plan (geometry in millimetres) → board / cards (SVG via svgwrite) → pdf (fpdf2).
"""

from .board import render_board
from .cards import CARD_SIZES, Card, card_context, cards_for, render_card, render_card_sheet
from .pdf import PARTS, PrintOptions, PrintResult, build_pdf
from .plan import BoardOptions, BoardPlan, plan_board
from .tiling import PAPERS, Tiling, tile_board

__all__ = [
    "CARD_SIZES",
    "PAPERS",
    "PARTS",
    "BoardOptions",
    "BoardPlan",
    "Card",
    "PrintOptions",
    "PrintResult",
    "Tiling",
    "build_pdf",
    "card_context",
    "cards_for",
    "plan_board",
    "render_board",
    "render_card",
    "render_card_sheet",
    "tile_board",
]
