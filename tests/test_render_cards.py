"""Cards: tickets (ends, points, mini-map, deck, long ones look different), train cards, summary cards, rules text."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from conftest import MAPS
from ttr_maps.cli.main import cli
from ttr_maps.load import load_board, load_variant
from ttr_maps.render import BoardOptions, Card, card_context, cards_for, plan_board, render_card
from ttr_maps.render.cards import LONG_BAND
from ttr_maps.render.rules import brief, sections

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"


@functools.cache
def _ctx(name: str, **opts):
    """The card context of a bundled variant, laid out once per test process (the tests only read it; laying out
    Märklin or Europe takes a second or two)."""
    variant, board = load_variant(MAPS / "variants" / f"{name}.yaml")
    return card_context(plan_board(board, variant, BoardOptions(**opts)))


def _texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_ticket_shows_both_ends_its_points_its_deck_and_marks_both_places_on_a_mini_map():
    ctx = _ctx("usa")
    card = next(c for c in cards_for(ctx, parts=("tickets",)) if c.ticket.id == "boston-miami")
    svg = render_card(card, ctx)
    texts = _texts(svg)
    assert {"Boston", "Miami", str(card.ticket.points), "USA"} <= set(texts)
    root = ET.fromstring(svg)
    assert root.get("width") == "63mm" and root.get("height") == "88mm"
    markers = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == "#8e1f1b"]
    assert len(markers) == 2  # the two ends on the mini-map


def test_long_tickets_look_different_and_say_so():
    ctx = _ctx("europe")
    tickets = cards_for(ctx, parts=("tickets",))
    long = [c for c in tickets if any(ctx.board.decks[d].long for d in c.ticket.decks)]
    regular = [c for c in tickets if c not in long]
    assert len(long) == 6 and len(regular) == 40
    long_svg, regular_svg = render_card(long[0], ctx), render_card(regular[0], ctx)
    assert LONG_BAND in long_svg and LONG_BAND not in regular_svg
    assert any(t.startswith("LONG") for t in _texts(long_svg))
    assert not any(t.startswith("LONG") for t in _texts(regular_svg))


def test_a_variant_prints_only_the_tickets_of_its_piles():
    ctx = _ctx("europe-1912")
    decks = {d for c in cards_for(ctx, parts=("tickets",)) for d in c.ticket.decks}
    assert decks & {"1912-regular", "1912-long"}
    ids = [c.ticket.id for c in cards_for(ctx, parts=("tickets",))]
    assert len(ids) == 55


def test_train_cards_cover_every_colour_the_wild_card_and_the_variants_special_cards():
    usa = cards_for(_ctx("usa"), parts=("trains",))
    assert [c.color for c in usa if c.kind == "train"] == ["pink", "white", "blue", "yellow", "orange", "black", "red", "green"]
    assert [c.kind for c in usa if c.kind != "train"] == ["locomotive"]
    marklin = cards_for(_ctx("marklin"), parts=("trains",))
    assert {c.kind for c in marklin} == {"train", "locomotive", "big-locomotive", "passenger"}
    every = cards_for(_ctx("marklin"), copies=True, parts=("trains",))
    assert len(every) == 118  # the whole Märklin deck


def test_special_cards_say_what_they_are():
    ctx = _ctx("marklin", colorblind=True)
    texts = {kind: _texts(render_card(Card(kind), ctx)) for kind in ("locomotive", "big-locomotive", "passenger")}
    assert "LOCOMOTIVE" in texts["locomotive"]
    assert "+4 LOCOMOTIVE" in texts["big-locomotive"] and "only on routes of 4+" in texts["big-locomotive"]
    assert "PASSENGER" in texts["passenger"]
    red = _texts(render_card(Card("train", color="red"), ctx))
    assert "RED" in red and "R" in red  # the colour-blind letter


def test_summary_card_has_the_scoring_table_and_the_variants_rules():
    ctx = _ctx("europe")
    texts = _texts(render_card(Card("summary"), ctx))
    joined = " ".join(texts)
    assert "Route scoring" in texts and "21" in texts  # Europe's 8 → 21
    assert "station" in joined
    assert "Europe" in texts


def test_rules_are_written_from_the_knobs():
    usa_v, usa_b = load_variant(MAPS / "variants" / "usa.yaml")
    eu_v, eu_b = load_variant(MAPS / "variants" / "europe.yaml")
    usa = " ".join(p for _, ps in sections(usa_v, usa_b) for p in ps)
    eu = " ".join(p for _, ps in sections(eu_v, eu_b) for p in ps)
    assert "station" not in usa and "Tunnels" not in usa and "Ferries" not in usa
    assert "station" in eu and "Tunnels" in eu and "Ferries" in eu
    assert "+10" in usa and "1 long + 3 regular" in eu
    assert any("4 tickets in a mix" in line for line in brief(load_variant(MAPS / "variants" / "marklin.yaml")[0]))
    # The summary card's brief names the board's ferries and tunnels (Europe has both, USA neither).
    eu_brief, usa_brief = " ".join(brief(eu_v, eu_b)), " ".join(brief(usa_v, usa_b))
    assert "Ferries: pay a locomotive for each locomotive mark." in eu_brief and "Tunnels: after paying, turn up 3 cards" in eu_brief
    assert "Ferries" not in usa_brief and "Tunnels" not in usa_brief


def test_cards_of_a_bare_board_have_no_summary():
    board = load_board(MAPS / "boards" / "usa.yaml")
    ctx = card_context(plan_board(board))
    kinds = {c.kind for c in cards_for(ctx)}
    assert "summary" not in kinds and {"ticket", "train", "locomotive"} <= kinds


@pytest.mark.parametrize("what", ["tickets", "trains", "summary", "all"])
def test_render_cli_draws_card_sheets(tmp_path, what):
    out = tmp_path / "cards.svg"
    result = CliRunner().invoke(cli, ["render", str(MAPS / "variants" / "marklin.yaml"), "-o", str(out), "--cards", what])
    assert result.exit_code == 0, result.output
    ET.parse(out)


def test_render_cli_draws_one_ticket_and_explains_unknown_ones(tmp_path):
    out = tmp_path / "t.svg"
    usa = str(MAPS / "variants" / "usa.yaml")
    assert CliRunner().invoke(cli, ["render", usa, "-o", str(out), "--ticket", "boston-miami"]).exit_code == 0
    assert "Boston" in out.read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["render", usa, "-o", str(out), "--ticket", "paris-rome"])
    assert result.exit_code == 1 and "no ticket 'paris-rome'" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["render", str(MAPS / "boards" / "usa.yaml"), "-o", str(out), "--cards", "summary"])
    assert result.exit_code == 1 and "need a variant" in result.output


def test_cards_help_says_what_the_sheet_holds():
    from click.testing import CliRunner

    from ttr_maps.cli.main import cli

    out = CliRunner().invoke(cli, ["render", "--help"]).output
    assert "every ticket" in " ".join(out.split())
