"""Each mechanic of the bundled variants played through the play page in a real headless Chromium.

The position is set up on the server (the person's hand, the top of the deck), as a
dealer would stack a deck for a demonstration; every move of the person is then a
mouse click on the page, and what the page draws afterwards is checked: cars on the
claimed spaces, the cards a tunnel turned, a station and the route it borrows at the
end, passengers and goods, flag cards. Set TTR_PLAY_SHOTS=DIR to keep a screenshot
of each.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import browser_tab
from ttr_maps.engine.actions import ClaimTrack
from ttr_maps.engine.game import Game
from ttr_maps.engine.position import all_tickets
from ttr_maps.play import HUMAN, new_table, play_app
from ttr_maps.web import run_in_thread

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


# --- setting the table up -----------------------------------------------------------------

def seated(variant: str, tmp_path: Path, seed: int = 1, bot: str = "random"):
    """A two-player table (the person at seat 1) after the opening tickets, at the person's first turn."""
    table = new_table(Game.from_file(ROOT / f"maps/variants/{variant}.yaml", 2), [HUMAN, bot], tmp_path / "game.yaml", seed)
    while not (table.waiting_for() == "you" and table.state.observation(0)["phase"] == "turn"):
        if table.waiting_for() == "bot":
            table.bot_step()
        else:
            legal = [a["text"] for a in table.view()["legal"]]  # keep the most tickets offered (or choose the first mix)
            table.act(0, max(legal, key=lambda a: (a.startswith("keep"), len(a))))
    return table


def kind(table, name: str) -> int:
    return table.state.t.kinds.index(name)


def give(table, seat: int, cards: dict[str, int]) -> None:
    """The seat's hand becomes `cards`, taken from the deck (its old hand goes under the deck): no card is made up."""
    st = table.state
    for k, n in enumerate(st.hands[seat]):
        st.deck[:0] = [k] * n
        st.hands[seat][k] = 0
    for name, n in cards.items():
        for _ in range(n):
            st.deck.remove(kind(table, name))
            st.hands[seat][kind(table, name)] += 1


def stack_top(table, names: list[str]) -> None:
    """The next cards turned from the deck are `names`, in order."""
    st = table.state
    for name in names:
        st.deck.remove(kind(table, name))
    st.deck.extend(kind(table, name) for name in reversed(names))


def route_where(table, test) -> tuple[int, object]:
    board = table.game.board
    for i, r in enumerate(board.routes):
        places = [board.place_by_id[r.from_], board.place_by_id[r.to]]
        if not any(p.is_country for p in places) and test(r):
            return i, r
    raise AssertionError("no such route on this board")


# --- the page -----------------------------------------------------------------------------

# The module's Chromium tab, lent to each test in turn (tests/browser_tab.py); it fails a test whose page raised an error.
tabs = browser_tab.tabs_fixture(1400, 900)
tab = browser_tab.tab


@pytest.fixture
def open_page(tab):
    opened = []

    def start(table):
        running = run_in_thread(play_app(table))
        opened.append(running)
        tab.page.goto(running.url() + "&delay=20")
        wait_for_you(tab.page, 0)
        return tab.page

    yield start
    tab.blank()
    for running in opened:
        running.stop()


def shown(page) -> int:
    return int(page.evaluate("document.body.dataset.shown"))  # one round trip; a selector query costs the page 4x more


def wait_for_you(page, after: int) -> int:
    """Wait until the page shows something newer than `after` and it is the person's turn (or the end)."""
    return page.wait_for_function(
        "n => { const b = document.body.dataset; return Number(b.shown) > n && ['you', 'over'].includes(b.waiting) && Number(b.shown); }",
        arg=after, timeout=60_000).json_value()


def click_and_wait(page, selector: str) -> None:
    before = shown(page)
    page.click(selector)
    wait_for_you(page, before)


def click_route(page, route_id: str) -> None:
    """A real mouse click on the route's line, at a point where nothing else is on top of it."""
    point = page.evaluate("""id => {
        const line = document.querySelector(`#layer .hit[data-route='${id}']`);
        for (const f of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
            const p = line.getPointAtLength(line.getTotalLength() * f);
            const s = new DOMPoint(p.x, p.y).matrixTransform(line.getScreenCTM());
            if (document.elementFromPoint(s.x, s.y) === line) return [s.x, s.y];
        }
        return null;
    }""", route_id)
    assert point, f"route {route_id} is covered everywhere on the page"
    page.mouse.click(*point)


def click_place(page, place_id: str) -> None:
    box = page.query_selector(f"#layer .spot[data-place='{place_id}']").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def choose(page, action: str) -> None:
    """Click the offered choice (a payment, a station, a passenger's move) that is this action."""
    page.wait_for_selector(f"#choice-body button[data-action='{action}']")
    click_and_wait(page, f"#choice-body button[data-action='{action}']")


def cars(page, route_id: str, seat: int = 0) -> int:
    return len(page.query_selector_all(f"#layer .car[data-route='{route_id}'][data-seat='{seat}']"))


def hand(page) -> str:
    return page.text_content("#hand")


def shot(page, name: str) -> None:
    folder = os.environ.get("TTR_PLAY_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def rule_link(page) -> str:
    page.wait_for_selector("#message:not([hidden]) a.rule")
    return page.get_attribute("#message a.rule", "href")


# --- the mechanics ------------------------------------------------------------------------

def test_usa_a_claim_is_drawn_as_cars_and_refusals_link_their_rule(open_page, tmp_path):
    table = seated("usa", tmp_path)
    i, r = route_where(table, lambda r: r.tracks == ("red",) and r.length == 3)
    give(table, 0, {"red": 3, "blue": 1})
    page = open_page(table)
    # A place in a game without stations or passengers: nothing to do there, and the rule says what a turn is.
    click_place(page, r.from_)
    assert rule_link(page) == "/rules#a-turn"
    click_route(page, r.id)
    choose(page, f"claim {r.id} red 3red")
    assert cars(page, r.id) == 3
    assert "red" not in hand(page)
    # A route the hand cannot pay for: the refusal and the section of the rules that says why.
    j, other = route_where(table, lambda x: x.length >= 5)
    click_route(page, other.id)
    assert rule_link(page) == "/rules#claiming-a-route"
    assert "docs/rules.md#claiming-a-route" in page.text_content("#message")
    shot(page, "usa-claim")


@pytest.mark.parametrize("variant, decision", [("europe", "pay"), ("mega-europe", "abandon")])
def test_a_tunnel_turns_three_cards_and_the_extra_cost_is_paid_or_declined(open_page, tmp_path, variant, decision):
    table = seated(variant, tmp_path)
    i, r = route_where(table, lambda r: r.tunnel and len(r.tracks) == 1 and r.tracks[0] != "gray" and not r.ferry)
    colour, other = r.tracks[0], next(c for c in ("red", "blue", "green", "yellow") if c != r.tracks[0])
    give(table, 0, {colour: r.length + 2})
    stack_top(table, [colour, "locomotive", other])  # two of the three match: two more cards
    page = open_page(table)
    click_route(page, r.id)
    choose(page, f"claim {r.id} {colour} {r.length}{colour}")
    turned = page.eval_on_selector_all("#tunnel .turned-card", "cs => cs.map(c => c.title)")
    assert turned == [colour, "locomotive", other]
    assert "2 more to pay" in page.text_content("#tunnel")
    shot(page, f"{variant}-tunnel")
    if decision == "pay":
        click_and_wait(page, f"#other-buttons button[data-action='tunnel pay 2{colour}']")
        assert cars(page, r.id) == r.length
        assert colour not in hand(page)
    else:
        click_and_wait(page, "#other-buttons button[data-action='tunnel abandon']")
        assert cars(page, r.id) == 0
        assert f"{r.length + 2} × {colour}" in hand(page)  # the paid cards came back
    assert page.query_selector("#tunnel") is None
    assert any("tunnel: turned" in li for li in page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)"))


def test_a_ferry_is_paid_with_its_locomotives(open_page, tmp_path):
    table = seated("big-cities", tmp_path)
    i, r = route_where(table, lambda r: r.ferry and not r.tunnel and r.ferry < r.length)
    colour = r.tracks[0] if r.tracks[0] != "gray" else "green"
    give(table, 0, {colour: r.length, "locomotive": r.ferry})
    page = open_page(table)
    click_route(page, r.id)
    page.wait_for_selector("#choice-body button.pay")
    offered = page.eval_on_selector_all("#choice-body button.pay", "bs => bs.map(b => b.dataset.action)")
    assert offered and all("loco" in a.split(" ")[-1] for a in offered), offered  # every payment has the ferry's locomotives
    pay = f"claim {r.id} {r.tracks[0]} {r.length - r.ferry}{colour}+{r.ferry}loco"
    assert pay in offered
    choose(page, pay)
    assert cars(page, r.id) == r.length
    assert "locomotive" not in hand(page)
    shot(page, "big-cities-ferry")


def test_a_station_is_built_and_the_route_it_borrows_is_shown_at_the_end(open_page, tmp_path):
    table = seated("europe-1912", tmp_path)
    board, st = table.game.board, table.state
    tickets = all_tickets(table.game.variant, board)
    # A ticket between two neighbours: the bot claims the route between them, the person's station borrows it.
    pairs = {frozenset((r.from_, r.to)): (i, r) for i, r in enumerate(board.routes)
             if len(r.tracks) == 1 and r.tracks[0] != "gray" and not r.ferry and not r.tunnel}
    k, ticket = next((k, t) for k, t in enumerate(tickets) if frozenset((t.from_, t.to)) in pairs)
    i, r = pairs[frozenset((ticket.from_, ticket.to))]
    for seat in range(2):  # the ticket, swapped into the person's kept tickets
        if k in st.kept[seat]:
            st.kept[seat].remove(k)
    for pile in st.piles.values():
        if k in pile:
            pile[pile.index(k)] = st.kept[0][0]
            break
    st.kept[0][0] = k
    table.act(0, "draw blind")
    table.act(0, "draw blind")
    give(table, 1, {r.tracks[0]: r.length})
    table._apply(1, table.game.parse_actions(f"claim {r.id} {r.tracks[0]} {r.length}{r.tracks[0]}", st)[0])
    give(table, 0, {"red": 1})
    st.trains[0] = 2  # this turn ends with 2 trains: the last round begins
    page = open_page(table)
    click_place(page, ticket.from_)
    choose(page, f"station {ticket.from_} 1red")
    assert page.query_selector(f"#layer .station[data-place='{ticket.from_}'][data-seat='0']") is not None
    assert "2 stations left" in page.text_content("#players")
    click_and_wait(page, "#deck")  # the person's last turn: two cards blind
    if page.evaluate("document.body.dataset.waiting") == "you":
        click_and_wait(page, "#deck")
    page.wait_for_selector("#over:not([hidden])")
    borrowed = page.eval_on_selector_all("#borrowed li", "ls => ls.map(l => [l.dataset.place, l.dataset.route, l.textContent])")
    assert [b[:2] for b in borrowed] == [[ticket.from_, r.id]]
    assert "borrows" in borrowed[0][2]
    shot(page, "europe-1912-station")
    sheet = table.state.score_sheet()
    assert k in sheet.players[0].completed  # the borrowed route completed the ticket, as the page says


def test_marklin_a_passenger_is_placed_then_rides_and_takes_goods(open_page, tmp_path):
    table = seated("marklin", tmp_path)
    board = table.game.board
    goods = {g.place for g in board.goods}
    i, r = route_where(table, lambda r: r.to in goods and r.from_ in goods and r.length <= 3 and len(r.tracks) == 1
                       and r.tracks[0] != "gray")
    colour = r.tracks[0]
    give(table, 0, {colour: r.length})
    page = open_page(table)
    click_route(page, r.id)
    page.wait_for_selector("#choice-body button.pay")
    page.click(f"#choice-body button[data-action='claim {r.id} {colour} {r.length}{colour}']")
    # Placing: the route's ends are offered; click the place.
    page.wait_for_selector(f"#layer .spot.can[data-place='{r.from_}']")
    click_place(page, r.from_)
    choose(page, f"passenger {r.from_}")
    assert page.query_selector(f"#layer .passenger[data-place='{r.from_}'][data-seat='0']") is not None
    assert cars(page, r.id) == r.length
    top = int(page.text_content(f"#layer .goods[data-place='{r.to}'] text"))
    left = int(page.get_attribute(f"#layer .goods[data-place='{r.to}']", "data-left"))
    shot(page, "marklin-passenger-placed")
    # Next turn: the passenger rides the person's own route and takes the top token where it arrives.
    page.wait_for_selector(f"#layer .spot.can[data-place='{r.to}']")
    click_place(page, r.to)
    choose(page, f"move {r.from_} {r.to}")
    if page.query_selector("#other-buttons button[data-action='move stop']"):
        click_and_wait(page, "#other-buttons button[data-action='move stop']")
    assert int(page.get_attribute(f"#layer .goods[data-place='{r.to}']", "data-left")) == left - 1
    assert page.query_selector("#layer .passenger[data-seat='0']") is None  # it left the game
    assert f"goods {top}" in page.text_content("#players tbody tr:first-child")
    shot(page, "marklin-goods")


def test_paris_a_flag_card_completes_the_set(open_page, tmp_path):
    table = seated("paris", tmp_path)
    st = table.state
    i, r = route_where(table, lambda r: r.tracks == ("blue",))
    give(table, 0, {"blue": r.length})
    for name in ("white", "red"):  # already in front of the person, from earlier claims
        st.deck.remove(kind(table, name))
        st.flag_cards[0].append(kind(table, name))
    page = open_page(table)
    assert page.eval_on_selector_all("#players tbody tr:first-child .flag", "fs => fs.map(f => f.title)") == ["white", "red"]
    score = int(page.text_content("#players tbody tr:first-child td:nth-child(2)"))
    click_route(page, r.id)
    choose(page, f"claim {r.id} blue {r.length}blue")
    assert page.query_selector("#other-buttons button[data-action='flag skip']") is not None
    shot(page, "paris-flag-choice")
    click_and_wait(page, "#other-buttons button[data-action='flag blue']")
    row = page.text_content("#players tbody tr:first-child")
    assert "1 set" in row
    assert page.query_selector_all("#players tbody tr:first-child .flag") == []  # the set was scored and discarded
    new_score = int(page.text_content("#players tbody tr:first-child td:nth-child(2)"))
    assert new_score - score == table.game.variant.scoring.routes[r.length] + table.game.variant.flags.points
    assert cars(page, r.id) == r.length


def test_mega_europe_keeping_too_many_long_tickets_says_how_many_may_be_kept(open_page, tmp_path):
    table = new_table(Game.from_file(ROOT / "maps/variants/mega-europe.yaml", 2), [HUMAN, "random"], tmp_path / "game.yaml", 1)
    page = open_page(table)
    assert len(page.query_selector_all("input.keep")) == 2  # the two long tickets of the staged setup
    page.click("#keep")
    assert rule_link(page) == "/rules#keeping-tickets"
    assert "keep 0 to 1" in page.text_content("#message")
    page.query_selector_all("input.keep")[1].uncheck()
    click_and_wait(page, "#keep")
    assert len(table.state.kept[0]) == 1
    assert page.is_hidden("#message")


def test_a_bots_tunnel_shows_its_turned_cards_while_the_bot_decides(tab, tmp_path):
    """Europe: the bot claims a tunnel; during the page's pause before its decision the three turned cards and the
    extra cost are on screen (not only in the log), then the bot decides and the panel goes."""
    table = seated("europe", tmp_path)
    table.act(0, "draw blind")
    table.act(0, "draw blind")
    assert table.waiting_for() == "bot"
    i, r = route_where(table, lambda r: r.tunnel and len(r.tracks) == 1 and r.tracks[0] != "gray" and not r.ferry)
    colour, other = r.tracks[0], next(c for c in ("red", "blue", "green", "yellow") if c != r.tracks[0])
    give(table, 1, {colour: r.length + 2})
    stack_top(table, [colour, "locomotive", other])
    claim = next(a for a in table.state.legal_actions() if isinstance(a, ClaimTrack) and a.route == i)
    table._apply(1, claim)  # the bot's claim, as its bot_step would make it
    running = run_in_thread(play_app(table))
    page = tab.page
    try:
        page.goto(running.url() + "&delay=2500")
        page.wait_for_selector("#tunnel")
        assert page.evaluate("document.body.dataset.waiting") == "bot"
        assert page.eval_on_selector_all("#tunnel .turned-card", "cs => cs.map(c => c.title)") == [colour, "locomotive", other]
        assert "2 more to pay" in page.text_content("#tunnel") and page.is_visible("#tunnel")
        assert page.query_selector_all("#other-buttons button") == []  # nothing for the person to press
        assert any("tunnel: turned" in li for li in page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)"))
        wait_for_you(page, shown(page))
        assert page.query_selector("#tunnel") is None and page.is_hidden("#others-actions")
    finally:
        tab.blank()
        running.stop()
