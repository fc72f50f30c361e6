"""Rendering: SVG board and cards, print-and-play PDF.

plan (geometry in millimetres) → board / cards (SVG via svgwrite) → pdf (fpdf2).

The names below are imported on first use (PEP 562), so a caller that needs only the
layout (the D002 label check imports `ttr_maps.render.plan`) does not pay for svgwrite
and fpdf2.
"""

from __future__ import annotations

import importlib

_WHERE = {
    "render_board": "board",
    "CARD_SIZES": "cards",
    "Card": "cards",
    "card_context": "cards",
    "cards_for": "cards",
    "render_card": "cards",
    "render_card_sheet": "cards",
    "PARTS": "pdf",
    "PrintOptions": "pdf",
    "PrintResult": "pdf",
    "build_pdf": "pdf",
    "BoardOptions": "plan",
    "BoardPlan": "plan",
    "plan_board": "plan",
    "PAPERS": "tiling",
    "Tiling": "tiling",
    "tile_board": "tiling",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
