"""Golden files: the exact SVG of a board and of a ticket card (the page tiling of a known board is in
tests/test_print.py, which prints that board for its other tests too).

A change to the drawing shows up here as a diff. When the change is wanted,
regenerate the files on purpose and review the diff before committing:

    TTR_UPDATE_GOLDEN=1 python -m pytest tests/test_render_golden.py tests/test_print.py
"""

from __future__ import annotations

import pytest

from conftest import MAPS, assert_golden
from ttr_maps.load import load_variant
from ttr_maps.render import BoardOptions, card_context, cards_for, plan_board, render_board, render_card

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow


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
