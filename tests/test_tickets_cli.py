"""`ttr-maps tickets score` and `compare` on the hand-built square board (answers in test_tickets_figures.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ttr_maps.cli.main import cli

SQUARE = Path(__file__).parent / "fixtures" / "tickets" / "square.yaml"


def _run(*args: str):
    return CliRunner().invoke(cli, ["tickets", *args])


def test_score_text_names_the_heaviest_routes_unused_places_and_findings() -> None:
    result = _run("score", str(SQUARE))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith(f"{SQUARE}, deck main: 3 tickets on Square (6 places, 7 routes, diameter 4 spaces)")
    assert "never used: E, X" in out
    assert "A–B     1.5                       1" in out and "A–D     0.5                       0" in out
    assert "- 2 of 6 places end no ticket: E, X" in out
    # 2 of 3 tickets reach 60% of the diameter: above the published decks' share of long tickets
    assert "- share of long tickets (shortest path at least 60% of the diameter): 0.667, above the published decks'" in out


def test_score_json_and_svg(tmp_path: Path) -> None:
    svg = tmp_path / "load.svg"
    result = _run("score", str(SQUARE), "--deck", "other", "--format", "json", "--svg", str(svg))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["tickets"] == 1 and data["route_load"] == [{"route": "a-x", "from": "a", "to": "x", "length": 1, "load": 1.0, "sure": 1}]
    assert data["place_uses"]["x"] == 1 and data["unused_places"] == ["b", "c", "d", "e"]
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") or text.startswith("<svg")
    assert 'id="load"' in text and ">1</text>" in text  # the one loaded route carries 1


def test_compare_two_decks_of_a_board_side_by_side() -> None:
    result = _run("compare", str(SQUARE), str(SQUARE), "--deck-a", "main", "--deck-b", "other")
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if ln.startswith("places never used"))
    assert line.split()[-2:] == ["2", "4"]
    data = json.loads(_run("compare", str(SQUARE), str(SQUARE), "--deck-b", "other", "--format", "json").output)
    assert data["a"]["tickets"] == 3 and data["b"]["tickets"] == 1


def test_bad_input_is_a_message_and_exit_1(tmp_path: Path) -> None:
    result = _run("score", str(SQUARE), "--deck", "nope")
    assert result.exit_code == 1 and "the board has no deck 'nope'; its decks are main, other" in result.output
    deck = tmp_path / "d.yaml"
    deck.write_text("format: ttr-deck/1\ntickets:\n  - {from: a, to: b, points: 2, decks: [t]}\n", encoding="utf-8")
    result = _run("score", str(deck))
    assert result.exit_code == 1 and "names no board; add `board: BOARD`" in result.output
    deck.write_text("format: ttr-deck/1\ntickets:\n  - {from: a, to: b, points: two, decks: [t]}\n", encoding="utf-8")
    result = _run("score", str(deck))
    assert result.exit_code == 1 and f"{deck}:3:30: error S008" in result.output
    assert "Traceback" not in result.output
    result = _run("compare", str(SQUARE))
    assert result.exit_code == 2


def test_score_findings_a_designer_acts_on_worked_out_by_hand() -> None:
    """tests/fixtures/tickets/hub.yaml: S1..S5–F worth 4, S6–F worth 12, S1–G (behind the country K) worth 5.

    Ends: 7 tickets, 14 ends over 10 places: 1.4 a place; F ends 6 (6 / 1.4 = 4.3x). Loads: each S–F ticket
    rides its spoke (1 space) and the bridge H–F (3): the bridge carries 6, each spoke 1, S1–G nothing (no
    path), so the 7 routes in use carry 12, a mean of 1.714, and the bridge 6 / 1.714 = 3.5x. H and K end no
    ticket. Values 4 x5, 5 and 12: nothing in 6-10. S6–F is 4 spaces and worth 12."""
    result = _run("score", str(Path(__file__).parent / "fixtures" / "tickets" / "hub.yaml"))
    assert result.exit_code == 0, result.output
    found = result.output.split("findings:\n", 1)[1].splitlines()
    assert [line for line in found if line.startswith("- ")][:6] == [
        "- S1–G cannot be completed: no path joins its ends without passing a country",
        "- F is in 6 tickets, 4.3x the average (1.4)",
        "- route H–F carries 6 tickets' shortest paths (3.5x the mean of the routes in use)",
        "- 2 of 10 places end no ticket: H, K",
        "- the deck has no ticket worth 6-10",
        "- S6–F is worth 12 for a shortest path of 4 spaces",
    ]
    assert "- most tickets at one place, over the average per place: 4.286, above the published decks' 1.5-3.418" in found
    assert "value vs shortest path: 5 equal, 1 differ: S6–F +8; 1 with no path" in result.output
