"""Golden files: the exact SVG of a board and of a ticket card, and the page tiling of a known board.

A change to the drawing shows up here as a diff. When the change is wanted,
regenerate the files on purpose and review the diff before committing:

    TTR_UPDATE_GOLDEN=1 python -m pytest tests/test_render_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import MAPS
from ttr_maps.load import load_variant
from ttr_maps.render import BoardOptions, PrintOptions, build_pdf, card_context, cards_for, plan_board, render_board, render_card

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("TTR_UPDATE_GOLDEN") == "1"


def assert_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    if not path.exists():
        pytest.fail(f"missing golden file {path}; create it with TTR_UPDATE_GOLDEN=1 python -m pytest {__file__}")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        exp_lines, got_lines = expected.splitlines(), text.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(exp_lines, got_lines)) if a != b), min(len(exp_lines), len(got_lines)))
        pytest.fail(
            f"{name} differs from the golden file at line {first + 1}:\n"
            f"  golden: {exp_lines[first] if first < len(exp_lines) else '(end)'}\n"
            f"  now:    {got_lines[first] if first < len(got_lines) else '(end)'}\n"
            f"If the change is intended: TTR_UPDATE_GOLDEN=1 python -m pytest {__file__}, then review the diff."
        )


@pytest.fixture(scope="module")
def usa():
    return load_variant(MAPS / "variants" / "usa.yaml")


def test_usa_board_svg(usa):
    variant, board = usa
    assert_golden("usa-board.svg", render_board(board, variant, BoardOptions(colorblind=True)))


def test_usa_ticket_card_svg(usa):
    variant, board = usa
    ctx = card_context(plan_board(board, variant, BoardOptions(colorblind=True)))
    card = next(c for c in cards_for(ctx, parts=("tickets",)) if c.ticket.id == "boston-miami")
    assert_golden("usa-ticket-boston-miami.svg", render_card(card, ctx))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_usa_print_tiling_at_20mm(usa, paper):
    variant, board = usa
    result = build_pdf(board, variant, PrintOptions(paper=paper, car_mm=20.0))
    record = {"pages": result.pages, "tiling": result.tiling.as_dict()}
    assert_golden(f"usa-tiling-{paper}-20mm.json", json.dumps(record, indent=1, sort_keys=True) + "\n")
