"""The play page in a real headless Chromium: a whole game against a bot by clicks, and what crosses the network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import browser_tab
from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.play import HUMAN, new_table, play_app
from ttr_maps.web import run_in_thread

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests/scenarios/variants/tiny.yaml"

# The module's Chromium tab, lent to each test in turn (tests/browser_tab.py); it fails a test whose page raised an error.
tabs = browser_tab.tabs_fixture(1300, 850)
tab = browser_tab.tab


def _waiting(page) -> str:
    return page.evaluate("document.body.dataset.waiting")  # one round trip; a selector query costs the page 4x more


def _next(page, shown: int) -> int:
    """Wait until the page shows something newer than `shown` and it is the person's turn or the end."""
    return page.wait_for_function(
        "n => { const b = document.body.dataset; return Number(b.shown) > n && ['you', 'over'].includes(b.waiting) && Number(b.shown); }",
        arg=shown, timeout=60_000).json_value()


ROUTE_MIDDLE = """line => {
    const p = line.getPointAtLength(line.getTotalLength() / 2);
    const s = new DOMPoint(p.x, p.y).matrixTransform(line.getScreenCTM());
    return [s.x, s.y];
}"""


def _click_route(page, selector: str) -> None:
    """A real mouse click half-way along a route's drawn line (a straight line's box has no height to click in)."""
    x, y = page.eval_on_selector(selector, ROUTE_MIDDLE)
    page.mouse.click(x, y)


# What a person would do next, looked at in one round trip (Playwright's is_visible/query_selector/is_enabled, one
# call each, cost the page more than the moves): [kind, where to click (x, y) for a route or a place].
NEXT_MOVE = """() => {
    const keep = document.getElementById('keep');
    const box = keep && keep.getBoundingClientRect();
    if (keep && keep.checkVisibility({visibilityProperty: true}) && box.width > 0 && box.height > 0) return ['keep'];
    const centre = (e) => { const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
    const route = document.querySelector('#layer .hit.can');
    if (route) return ['claim', (ROUTE_MIDDLE)(route)];
    const spot = document.querySelector('#layer .spot.can');
    if (spot) return ['place', centre(spot)];
    if (!document.getElementById('deck').disabled) return ['deck'];
    if (document.querySelector('#faceup button.card:not([disabled])')) return ['faceup'];
    if (document.querySelector('#other-buttons button')) return ['other'];
    return ['tickets'];
}""".replace("(ROUTE_MIDDLE)", f"({ROUTE_MIDDLE})")


def _click_a_move(page) -> str:
    """Click what a person would: keep the offered tickets, claim a route they can pay for, else draw."""
    kind, *at = page.evaluate(NEXT_MOVE)
    if kind == "keep":
        page.click("#keep")
    elif kind in ("claim", "place"):  # a real mouse click on the route's line (half-way) or the place's marker
        page.mouse.click(*at[0])
        page.click("#choice-body button.pay")  # waits for the choice to be offered
    elif kind == "deck":
        page.click("#deck")
    elif kind == "faceup":
        page.click("#faceup button.card:not([disabled])")
    elif kind == "other":
        page.click("#other-buttons button")
    else:
        page.click("#draw-tickets")
    return kind


def test_a_whole_game_by_clicks_scores_as_the_saved_game_and_hides_the_bots_hand(tab, tmp_path):
    table = new_table(Game.from_file(TINY, 2), [HUMAN, "expert"], tmp_path / "game.yaml", seed=11)
    running = run_in_thread(play_app(table))
    page, errors = tab.page, tab.errors
    bodies: list[str] = []
    tab.on("response", lambda r: bodies.append(r.text()) if "/api/" in r.url and "state-file" not in r.url else None)
    try:
        page.goto(running.url() + "&delay=20")
        shown = _next(page, 0)
        kinds = []
        for _ in range(400):
            if _waiting(page) == "over":
                break
            kinds.append(_click_a_move(page))
            shown = _next(page, shown)
        assert table.state.is_terminal(), "the game did not end"
        assert "claim" in kinds and "keep" in kinds
        assert not errors, errors
        assert page.is_hidden("#message"), page.text_content("#message")
        page.wait_for_selector("#over:not([hidden])")
        heads = page.eval_on_selector_all("#scores thead th", "ths => ths.map(t => t.textContent)")[1:-1]
        rows = page.eval_on_selector_all("#scores tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.textContent))")
        winners = page.text_content("#winners")

        # The end screen is the score sheet `ttr-maps score` prints for the saved game: totals, points by kind, winner.
        out = CliRunner().invoke(cli, ["score", str(tmp_path / "game.yaml"), "--format", "json"])
        assert out.exit_code == 0, out.output
        sheet = json.loads(out.output)
        assert [int(row[-1]) for row in rows] == [p["total"] for p in sheet["players"]]
        for row, p in zip(rows, sheet["players"]):
            assert {h.replace(" ", "_"): int(v) for h, v in zip(heads, row[1:-1])} == \
                {k: v for k, v in p["breakdown"].items() if k in {h.replace(" ", "_") for h in heads}}
            assert all(v == 0 for k, v in p["breakdown"].items() if k.replace("_", " ") not in heads)  # only empty kinds left out
        names = ["Player 1", "expert (bot)"]
        assert winners.startswith("Winner: ") and \
            {names[int(w.split()[-1])] for w in sheet["winners"]} == set(winners.removeprefix("Winner: ").split(" (tie broken by")[0].split(" and "))

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
        tab.blank()
        running.stop()


def test_an_illegal_click_is_refused_with_its_rule(tab, tmp_path):
    table = new_table(Game.from_file(TINY, 2), [HUMAN, "expert"], tmp_path / "game.yaml", seed=4)
    running = run_in_thread(play_app(table))
    page = tab.page
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
        page.goto(running.url().split("?")[0] + "rules")  # the link's page
        assert page.is_visible("#claiming-a-route")
    finally:
        tab.blank()
        running.stop()


def _settled(page, shown: int) -> int:
    """Wait until the page shows something newer than `shown` that waits on a person (a move, a hand-over) or the end."""
    return page.wait_for_function(
        "n => { const b = document.body.dataset; return Number(b.shown) > n && ['you', 'over', 'handover'].includes(b.waiting) && Number(b.shown); }",
        arg=shown, timeout=60_000).json_value()


def test_hot_seat_hands_over_the_screen_and_bots_move_after_a_visible_pause(tab, tmp_path):
    """Two people and a bot at one screen (`--humans 2`): between turns a hand-over screen hides every hand (on
    screen and in what the page receives); only the person whose turn it is can take the screen, and then sees
    their own hand. The bot moves after the page's pause, each move a line in the log."""
    table = new_table(Game.from_file(TINY, 3), [HUMAN, HUMAN, "expert"], tmp_path / "game.yaml", seed=5)
    running = run_in_thread(play_app(table))
    page, errors = tab.page, tab.errors
    views: list[dict] = []
    tab.on("response", lambda r: views.append(json.loads(r.text())) if "/api/" in r.url and "/api/board" not in r.url else None)
    delay = 400
    try:
        page.goto(running.url() + f"&delay={delay}")
        # Every page update with the time it was shown, what it waited for and the log's length.
        page.evaluate("""() => {
            window.shows = [];
            new MutationObserver(() => window.shows.push([performance.now(), document.body.dataset.waiting,
                document.querySelectorAll('#log li').length, document.querySelector('#log li:last-child')?.textContent || '']))
              .observe(document.body, { attributes: true, attributeFilter: ['data-shown'] });
        }""")
        shown, handovers, turns = _settled(page, 0), 0, {0: 0, 1: 0}
        while handovers < 6 and _waiting(page) != "over":
            current = table.state.current_player()
            if _waiting(page) == "handover":
                handovers += 1
                assert page.is_visible("#handover")
                assert page.text_content("#handover-text") == f"Pass the screen to Player {current + 1}. Nobody else should look."
                assert page.query_selector_all("#hand li") == [] and page.query_selector_all("#tickets li") == []
                page.click("#handover-button")
                shown = _settled(page, shown)
                continue
            assert page.is_hidden("#handover")
            assert table.shown == current
            # The hand on screen is the seat's own, card for card.
            hand = dict(reversed(li.split(" × ")) for li in page.eval_on_selector_all("#hand li", "lis => lis.map(l => l.textContent)"))
            assert {k: int(n) for k, n in hand.items()} == table.state.observation(current)["hand"]
            turns[current] += 1
            if page.is_visible("#keep"):
                page.click("#keep")
            else:
                page.click("#deck")
            shown = _settled(page, shown)
        assert handovers == 6 and min(turns.values()) >= 3 and not errors, errors
        # While the screen waited for a hand-over, the page received nobody's hand or tickets.
        handover_views = [v for v in views if v.get("waiting") == "handover"]
        assert handover_views and all(v["seat"] is None and v["observation"]["hand"] == {} and v["observation"]["offered"] == []
                                      and v["tickets"] == {"kept": [], "offered": []} for v in handover_views)
        # The bot's moves: each shown only after the pause, as a line of the log naming it.
        shows = page.evaluate("window.shows")
        bot_moves = [(a, b) for a, b in zip(shows, shows[1:]) if a[1] == "bot"]
        assert bot_moves
        for before, after in bot_moves:
            assert after[0] - before[0] >= delay * 0.9, (before, after)
            assert after[2] > before[2] or after[3] != before[3]  # a new line (the log shows the last 200)
        assert any(after[3].startswith("expert (bot): ") for _before, after in bot_moves)
    finally:
        tab.blank()
        running.stop()


def test_board_text_with_markup_is_shown_as_text(tab, tmp_path):
    """A place and a variant named with HTML: the page shows the characters, builds no element from them, runs nothing."""
    import shutil

    (tmp_path / "boards").mkdir()
    (tmp_path / "variants").mkdir()
    shutil.copy(ROOT / "tests/scenarios/boards/tiny.yaml", tmp_path / "boards/tiny.yaml")
    name = "<img src=x onerror='window.pwned=1'><b>A</b>"
    board = (tmp_path / "boards/tiny.yaml").read_text(encoding="utf-8")
    (tmp_path / "boards/tiny.yaml").write_text(board.replace("name: A,", f'name: "{name}",', 1), encoding="utf-8")
    rules = TINY.read_text(encoding="utf-8").replace("name: Tiny", 'name: "<i>Tiny</i>"', 1)
    (tmp_path / "variants/tiny.yaml").write_text(rules, encoding="utf-8")
    table = new_table(Game.from_file(tmp_path / "variants/tiny.yaml", 2), [HUMAN, "expert"], tmp_path / "game.yaml", seed=11)
    running = run_in_thread(play_app(table))
    page = tab.page
    try:
        page.goto(running.url() + "&delay=20")
        _next(page, 0)
        assert page.text_content("#variant") == "<i>Tiny</i>"
        assert page.eval_on_selector("#layer .spot[data-place='a'] title", "t => t.textContent") == name
        assert name in page.text_content("#board")  # the drawn label, as render writes it
        assert page.evaluate("document.querySelectorAll('img, i, b').length") == 0
        page.wait_for_timeout(300)
        assert page.evaluate("window.pwned") is None
    finally:
        tab.blank()
        running.stop()
