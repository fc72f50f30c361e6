"""The play page in a real headless Chromium: a whole game against a bot by clicks, and what crosses the network."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.play import HUMAN, new_table, play_app
from ttr_maps.web import run_in_thread

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests/scenarios/variants/tiny.yaml"


def _next(page, shown: int) -> int:
    """Wait until the page shows something newer than `shown` and it is the person's turn or the end."""
    page.wait_for_function(
        "n => Number(document.body.dataset.shown) > n && ['you', 'over'].includes(document.body.dataset.waiting)",
        arg=shown, timeout=60_000)
    return int(page.eval_on_selector("body", "b => b.dataset.shown"))


def _click_route(page, selector: str) -> None:
    """A real mouse click half-way along a route's drawn line (a straight line's box has no height to click in)."""
    x, y = page.eval_on_selector(selector, """line => {
        const p = line.getPointAtLength(line.getTotalLength() / 2);
        const s = new DOMPoint(p.x, p.y).matrixTransform(line.getScreenCTM());
        return [s.x, s.y];
    }""")
    page.mouse.click(x, y)


def _click_a_move(page) -> str:
    """Click what a person would: keep the offered tickets, claim a route they can pay for, else draw."""
    if page.is_visible("#keep"):
        page.click("#keep")
        return "keep"
    route = page.query_selector("#layer .hit.can")
    if route is not None:
        _click_route(page, f"#layer .hit[data-route='{route.get_attribute('data-route')}']")
        page.wait_for_selector("#choice-body button.pay")
        page.click("#choice-body button.pay")
        return "claim"
    spot = page.query_selector("#layer .spot.can")
    if spot is not None:
        box = spot.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#choice-body button.pay")
        page.click("#choice-body button.pay")
        return "place"
    if page.is_enabled("#deck"):
        page.click("#deck")
        return "deck"
    card = page.query_selector("#faceup button.card:not([disabled])")
    if card is not None:
        card.click()
        return "faceup"
    other = page.query_selector("#other-buttons button")
    if other is not None:
        other.click()
        return "other"
    page.click("#draw-tickets")
    return "tickets"


def test_a_whole_game_by_clicks_scores_as_the_saved_game_and_hides_the_bots_hand(browser, tmp_path):
    table = new_table(Game.from_file(TINY, 2), [HUMAN, "expert"], tmp_path / "game.yaml", seed=11)
    running = run_in_thread(play_app(table))
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    bodies: list[str] = []
    page.on("response", lambda r: bodies.append(r.text()) if "/api/" in r.url and "state-file" not in r.url else None)
    try:
        page.goto(running.url() + "&delay=20")
        shown = _next(page, 0)
        kinds = []
        for _ in range(400):
            if page.eval_on_selector("body", "b => b.dataset.waiting") == "over":
                break
            kinds.append(_click_a_move(page))
            shown = _next(page, shown)
        assert table.state.is_terminal(), "the game did not end"
        assert "claim" in kinds and "keep" in kinds
        assert not errors, errors
        assert page.is_hidden("#message"), page.text_content("#message")
        page.wait_for_selector("#over:not([hidden])")
        shown_totals = [int(x) for x in page.eval_on_selector_all("#scores tbody td.total", "tds => tds.map(t => t.textContent)")]
        winners = page.text_content("#winners")

        # The page's totals are those of the saved game, as `ttr-maps state show` scores it.
        out = CliRunner().invoke(cli, ["state", "show", str(tmp_path / "game.yaml")])
        assert out.exit_code == 0, out.output
        finals = [int(m) for m in re.findall(r"final player \d+: (\d+)", out.output)]
        assert shown_totals == finals
        assert "Player 1" in winners or "expert" in winners

        # Nothing the page received holds the bot's hand or the deck order: only seat 0's observation.
        final = table.state
        deck_order = json.dumps([final.t.kinds[k] for k in final.deck[:6]]) if len(final.deck) >= 6 else None
        for body in bodies:
            data = json.loads(body)
            obs = data.get("observation")
            if obs is None:
                continue
            assert obs["seat"] == 0
            assert all(isinstance(p["cards"], int) for p in obs["players"])
            assert set(obs) <= set(final.observation(0)) | {"tunnel", "journey"}
            if deck_order:
                assert deck_order not in body
        # The file with every card is sent only now the game is over.
        state_file = page.evaluate("fetch('/api/state-file').then(r => r.text())")
        assert "ttr-state/1" in state_file
    finally:
        page.close()
        running.stop()
    assert not errors, errors


def test_an_illegal_click_is_refused_with_its_rule(browser, tmp_path):
    table = new_table(Game.from_file(TINY, 2), [HUMAN, "expert"], tmp_path / "game.yaml", seed=4)
    running = run_in_thread(play_app(table))
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    try:
        page.goto(running.url() + "&delay=20")
        shown = _next(page, 0)
        page.click("#keep")
        shown = _next(page, shown)
        # Empty the hand on the server: no route can be paid for, so a click on one asks why.
        table.state.hands[0] = [0] * len(table.state.hands[0])
        _click_route(page, "#layer .hit[data-route='a-d']")
        page.wait_for_selector("#message:not([hidden])")
        assert "payment" in page.text_content("#message")
        link = page.get_attribute("#message a", "href")
        assert link == "/rules#claiming-a-route"
        rules = browser.new_page()
        rules.goto(running.url().split("?")[0] + "rules")
        assert rules.is_visible("#claiming-a-route")
        rules.close()
    finally:
        page.close()
        running.stop()
