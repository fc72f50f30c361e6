"""The studio page in a real headless Chromium (Debian's, driven by Playwright), on copies of the Paris board."""

from __future__ import annotations

import difflib
import shutil
import time
from pathlib import Path

import pytest

import browser_tab
from ttr_maps.load import load
from ttr_maps.studio import studio_app
from ttr_maps.web import run_in_thread

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DUPLICATE = "  - {from: montmartre, to: gare-du-nord, length: 2, tracks: [red]}\n"

# The module's Chromium tab, lent to each test in turn (tests/browser_tab.py), at the size the tests drag and measure on.
tabs = browser_tab.tabs_fixture(1300, 800)
tab = browser_tab.tab


@pytest.fixture
def paris(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "maps/boards/paris.yaml", tmp_path / "paris-board.yaml")
    rules = (ROOT / "maps/variants/paris.yaml").read_text(encoding="utf-8").replace("board: ../boards/paris.yaml\n", "board: paris-board.yaml\n")
    (tmp_path / "paris.yaml").write_text(rules, encoding="utf-8")
    return tmp_path


class Studio:
    """A studio server on `path` and its page, opened in the test's tab (tests/browser_tab.py)."""

    def __init__(self, tab, path: Path, sim: Path | None = None):
        self.running = run_in_thread(studio_app(str(path), None if sim is None else str(sim)))
        self.tab = tab
        self.page = tab.page
        self.page.goto(self.running.url())
        self.page.wait_for_selector("body[data-findings=ready]", timeout=60_000)

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version"))  # a selector query costs the page 4x more

    def wait_version(self, after: int) -> None:
        self.page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.findings === 'ready'",
                                    arg=after, timeout=60_000)

    def close(self) -> None:
        self.tab.blank()
        self.running.stop()


@pytest.fixture
def studio(tab, paris: Path):
    s = Studio(tab, paris / "paris.yaml")
    yield s
    s.close()


def _diff(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def _wait_file(path: Path, ready, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = path.read_text(encoding="utf-8")
        if ready(text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"{path} did not change as expected")


def test_dragging_a_place_writes_only_its_numbers(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    page = studio.page
    i = next(k for k, p in enumerate(load(board).board.places) if p.id == "louvre")
    x, y = _centre(page, f"circle[data-place='{i}']")
    v = studio.version()
    _drag(page, (x, y), (40, -20))
    after = _wait_file(board, lambda t: t != before)
    changed = _diff(before, after)
    assert changed[0] == "-  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376}"
    assert len(changed) == 2 and changed[1].startswith("+  - {id: louvre, name: Louvre, lat: ")
    assert after.splitlines()[0] == before.splitlines()[0] == "# yaml-language-server: $schema=../../schemas/board.schema.json"
    place = load(board).board.places[i]
    assert place.lat > 48.8606 and place.lon > 2.3376
    studio.wait_version(v)
    moved = page.locator(f"circle[data-place='{i}']").bounding_box()
    assert abs(moved["x"] + moved["width"] / 2 - (x + 40)) < 6 and abs(moved["y"] + moved["height"] / 2 - (y - 20)) < 6


def test_dragging_a_name_writes_its_label_offset_and_redraws_it_there_then_undo(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    page = studio.page
    i = next(k for k, p in enumerate(load(board).board.places) if p.id == "louvre")
    box = page.locator(f"rect[data-label='{i}']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    v = studio.version()
    _drag(page, (x, y), (30, 40))
    after = _wait_file(board, lambda t: t != before)
    changed = _diff(before, after)
    assert changed[0] == "-  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376}"
    assert len(changed) == 2 and changed[1].startswith("+  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376, label: {dx: ")
    label = load(board).board.places[i].label
    assert label is not None and label.dy > 0  # dragged down: south of the place, in km
    studio.wait_version(v)
    # The redrawn name (the renderer's own text, and the handle over it) sits where it was dropped.
    moved = page.locator(f"rect[data-label='{i}']").bounding_box()
    assert abs(moved["x"] + moved["width"] / 2 - (x + 30)) < 6 and abs(moved["y"] + moved["height"] / 2 - (y + 40)) < 6
    text = page.locator("#board svg text", has_text="Louvre").first.bounding_box()
    assert abs(text["x"] + text["width"] / 2 - (x + 30)) < 8 and abs(text["y"] + text["height"] / 2 - (y + 40)) < 8
    v = studio.version()
    page.click("#undo")
    assert _wait_file(board, lambda t: t == before) == before
    studio.wait_version(v)
    back = page.locator(f"rect[data-label='{i}']").bounding_box()
    assert abs(back["x"] - box["x"]) < 6 and abs(back["y"] - box["y"]) < 6  # back by the marker, not where it was dropped


def test_saving_the_file_redraws_the_page_keeping_zoom_and_pan(studio, paris: Path) -> None:
    page = studio.page
    page.mouse.move(400, 400)
    page.mouse.wheel(0, -300)  # zoom in around the pointer
    transform = page.eval_on_selector("#stage", "s => s.style.transform")
    v = studio.version()
    board = paris / "paris-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("name: Louvre,", "name: \"<b>Le Louvre</b>\","), encoding="utf-8")
    studio.wait_version(v)
    assert page.eval_on_selector("#stage", "s => s.style.transform") == transform
    names = page.eval_on_selector_all("#board svg text", "ts => ts.map(t => t.textContent)")
    assert any("<b>Le Louvre</b>" in n for n in names)  # drawn as text, never as markup
    assert page.locator("#board svg b").count() == 0


def test_clicking_a_finding_highlights_its_route(tab, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("tickets:\n", DUPLICATE + "tickets:\n"), encoding="utf-8")
    studio = Studio(tab, paris / "paris.yaml")
    try:
        page = studio.page
        last = str(len(load(board).board.routes) - 1)
        finding = page.locator("li.finding", has_text="G011").first
        assert finding.get_attribute("data-route") == last
        assert page.locator(f"polyline[data-route='{last}'].hl").count() == 0
        finding.click()
        assert page.locator(f"polyline[data-route='{last}'].hl").count() == 1
        assert page.locator(".hit-route.hl").count() == 1
        # and the other way: clicking the route lists its findings in its panel
        page.locator(f"polyline[data-route='{last}']").dispatch_event("mousedown", {"button": 0})
        assert "G011" in page.locator("#panel .own-findings").inner_text()
    finally:
        studio.close()


def test_adding_a_route_and_a_ticket_then_undo(studio, paris: Path) -> None:
    page = studio.page
    board = paris / "paris-board.yaml"
    places = {p.id: k for k, p in enumerate(load(board).board.places)}
    before = board.read_text(encoding="utf-8")

    def pick(pid: str) -> None:
        page.locator(f"circle[data-place='{places[pid]}']").click()

    page.click("#add-route")
    pick("saint-lazare")
    pick("louvre")
    page.wait_for_selector("#route-ok")
    length = page.input_value("#route-length")
    page.select_option("#route-colour", "blue")
    v = studio.version()
    page.click("#route-ok")
    text = _wait_file(board, lambda t: "saint-lazare, to: louvre" in t)
    assert f"  - {{from: saint-lazare, to: louvre, length: {length}, tracks: [blue]}}\n" in text
    studio.wait_version(v)

    page.click("#add-ticket")
    pick("montmartre")
    pick("bercy")
    page.wait_for_selector("#ticket-ok")
    points = page.input_value("#ticket-new-points")
    v = studio.version()
    page.click("#ticket-ok")
    text = _wait_file(board, lambda t: "montmartre, to: bercy" in t)
    assert f"  - {{from: montmartre, to: bercy, points: {points}, decks: [paris]}}\n" in text
    studio.wait_version(v)
    ticket = page.locator("#tickets li", has_text="Montmartre – Bercy")
    assert "= shortest path" in ticket.inner_text()

    v = studio.version()
    page.click("#undo")
    _wait_file(board, lambda t: "montmartre, to: bercy" not in t)
    studio.wait_version(v)
    page.keyboard.press("Control+z")
    assert _wait_file(board, lambda t: t == before) == before


def test_a_broken_file_shows_its_diagnostic_and_the_last_drawing(studio, paris: Path) -> None:
    page = studio.page
    board = paris / "paris-board.yaml"
    v = studio.version()
    board.write_text(board.read_text(encoding="utf-8").replace("length: 2, tracks: [white, purple]}", "length: 2, tracks: [white, purple]"), encoding="utf-8")
    page.wait_for_selector("#problems li.problem", timeout=30_000)
    problem = page.locator("#problems li.problem").first.inner_text()
    line = board.read_text(encoding="utf-8").splitlines().index("  - {from: montmartre, to: gare-du-nord, length: 2, tracks: [white, purple]") + 2
    assert f"paris-board.yaml:{line}:3: P006" in problem
    assert page.locator("#stage.stale #board svg").count() == 1  # the last good drawing, greyed
    assert studio.version() > v


# --- the bullets, one by one, through the page ------------------------------------------------

ROUTE_POINT = """([i, share]) => {
  const line = document.querySelector(`polyline[data-route='${i}']`);
  const p = line.getPointAtLength(line.getTotalLength() * share);
  const m = line.getScreenCTM();
  return [p.x * m.a + p.y * m.c + m.e, p.x * m.b + p.y * m.d + m.f];
}"""


def _route_point(page, i: int, share: float = 0.5) -> tuple[float, float]:
    x, y = page.evaluate(ROUTE_POINT, [i, share])
    return x, y


def _centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _drag(page, at: tuple[float, float], by: tuple[float, float]) -> None:
    page.mouse.move(*at)
    page.mouse.down()
    page.mouse.move(at[0] + by[0] / 2, at[1] + by[1] / 2, steps=3)
    page.mouse.move(at[0] + by[0], at[1] + by[1], steps=3)
    page.mouse.up()


def test_bend_points_are_added_dragged_and_removed_on_the_page(studio, paris: Path) -> None:
    page = studio.page
    board = paris / "paris-board.yaml"
    routes = load(board).board.routes
    i = next(k for k, r in enumerate(routes) if not r.bend and {r.from_, r.to} == {"louvre", "opera"})
    page.mouse.wheel(0, -200)  # a little closer
    x, y = _route_point(page, i, 0.5)
    v = studio.version()
    page.mouse.dblclick(x, y)  # the first click selects the route, the double click adds the point
    text = _wait_file(board, lambda t: "bend:" in t)
    bend = load(board).board.routes[i].bend
    assert len(bend) == 1 and all(isinstance(c, float) for c in bend[0])  # [lat, lon] on this board
    studio.wait_version(v)
    page.wait_for_selector("circle.bend")
    v = studio.version()
    _drag(page, _centre(page, "circle.bend"), (25, 15))
    moved = _wait_file(board, lambda t: t != text)
    assert load(board).board.routes[i].bend != bend and len(load(board).board.routes[i].bend) == 1
    studio.wait_version(v)
    v = studio.version()
    page.locator("circle.bend").dblclick()
    _wait_file(board, lambda t: "bend:" not in t)
    assert not load(board).board.routes[i].bend
    studio.wait_version(v)
    assert moved != text


def test_deleting_a_route_editing_a_ticket_then_undo_and_redo(studio, paris: Path) -> None:
    page = studio.page
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    loaded = load(board).board
    i = next(k for k, r in enumerate(loaded.routes) if {r.from_, r.to} == {"louvre", "opera"})
    page.locator(f"polyline[data-route='{i}']").dispatch_event("mousedown", {"button": 0})
    v = studio.version()
    page.click("#delete-route")
    after = _wait_file(board, lambda t: t != before)
    assert len(load(board).board.routes) == len(loaded.routes) - 1
    assert [line for line in _diff(before, after)] == [line for line in _diff(before, after) if line.startswith("-")]  # only removed
    studio.wait_version(v)
    v = studio.version()
    page.click("#undo")
    assert _wait_file(board, lambda t: t == before) == before
    studio.wait_version(v)
    v = studio.version()
    page.click("#redo")
    assert _wait_file(board, lambda t: t == after) == after
    studio.wait_version(v)

    ticket = loaded.tickets[0]
    names = {p.id: p.name for p in loaded.places}
    page.locator("#tickets li", has_text=f"{names[ticket.from_]} – {names[ticket.to]}").first.click()
    page.fill("#ticket-points", str(ticket.points + 3))
    v = studio.version()
    page.click("#save-ticket")
    text = _wait_file(board, lambda t: t != after)
    assert load(board).board.tickets[0].points == ticket.points + 3
    assert len(_diff(after, text)) == 2  # that ticket's line, nothing else
    studio.wait_version(v)


def test_an_edit_over_a_file_changed_on_disk_is_refused_and_the_page_says_so(tab, paris: Path, monkeypatch) -> None:
    import ttr_maps.studio.server as server

    async def unwatched(session, live) -> None:  # the page must not hear of the save before its edit
        return None

    monkeypatch.setattr(server, "_watch", unwatched)
    studio = Studio(tab, paris / "paris.yaml")
    try:
        page = studio.page
        board = paris / "paris-board.yaml"
        hand = board.read_text(encoding="utf-8").replace("name: Louvre,", "name: Le Louvre,")
        board.write_text(hand, encoding="utf-8")
        i = next(k for k, p in enumerate(load(board).board.places) if p.id == "opera")
        v = studio.version()
        _drag(page, _centre(page, f"circle[data-place='{i}']"), (30, 10))
        page.wait_for_selector("#status.error", timeout=30_000)
        assert "changed on disk" in page.inner_text("#status")
        assert board.read_text(encoding="utf-8") == hand  # the hand edit stays, the drag was not written over it
        studio.wait_version(v)
        assert any("Le Louvre" in t for t in page.eval_on_selector_all("#board svg text", "ts => ts.map(t => t.textContent)"))
        # Now the page shows the file as it is: the same drag is written, keeping the hand edit.
        _drag(page, _centre(page, f"circle[data-place='{i}']"), (30, 10))
        text = _wait_file(board, lambda t: t != hand)
        assert "name: Le Louvre," in text and len(_diff(hand, text)) == 2
    finally:
        studio.close()


def test_overlays_ticket_path_route_load_and_spaces_per_colour(studio, paris: Path) -> None:
    from collections import Counter

    from ttr_maps.studio.session import analysis

    page = studio.page
    loaded = load(paris / "paris.yaml")
    tickets, load_share = analysis(loaded)
    t = max(tickets, key=lambda t: len(t["routes"]))
    names = {p.id: p.name for p in loaded.board.places}
    page.locator("#tickets li", has_text=f"{names[t['from']]} – {names[t['to']]}").first.hover()
    lit = page.eval_on_selector_all(".hit-route.path", "ls => ls.map(l => Number(l.dataset.route))")
    assert sorted(lit) == t["routes"] and lit
    page.mouse.move(5, 5)
    assert page.locator(".hit-route.path").count() == 0
    page.select_option("#overlay", "load")
    labels = page.eval_on_selector_all("text.load-label", "ts => ts.map(t => t.textContent)")
    assert sorted(labels) == sorted(f"{v:.1f}" for v in load_share.values() if v > 0)
    spaces: Counter[str] = Counter()
    for r in loaded.board.routes:
        for c in r.tracks:
            spaces[c] += r.length
    rows = page.eval_on_selector_all("#colours tr", "rs => rs.map(r => [r.cells[0].textContent, Number(r.cells[1].textContent)])")
    assert dict(rows) == dict(spaces)


def test_severity_filter_and_a_finding_at_a_place(tab, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    text = board.read_text(encoding="utf-8")
    louvre = next(line for line in text.splitlines() if line.startswith("  - {id: louvre,"))
    board.write_text(text.replace(louvre + "\n", louvre + "\n  - {id: lonely, name: Lonely, lat: 48.87, lon: 2.30}\n"), encoding="utf-8")
    studio = Studio(tab, paris / "paris.yaml")
    try:
        page = studio.page
        i = next(k for k, p in enumerate(load(board).board.places) if p.id == "lonely")
        finding = page.locator("li.finding", has_text="G002").first
        assert finding.get_attribute("data-place") == str(i)
        finding.click()
        assert page.locator(f"circle[data-place='{i}'].hl").count() == 1
        shown = page.eval_on_selector_all("li.finding .sev-error, li.finding .sev-warning, li.finding .sev-info", "s => s.map(e => e.className)")
        assert "sev-warning" in shown or "sev-info" in shown
        g002 = finding.locator("span").first.get_attribute("class").removeprefix("sev-")
        # Marked on the board where it is, by its severity, while that severity is listed.
        assert page.locator(f"circle[data-place='{i}'].finding-{g002}").count() == 1
        for sev in ("error", "warning", "info"):
            page.uncheck(f".sev[value={sev}]")
            assert page.locator(f"li.finding .sev-{sev}").count() == 0
            assert page.locator(f".finding-{sev}").count() == 0
            page.check(f".sev[value={sev}]")
        assert page.locator(f"circle[data-place='{i}'].finding-{g002}").count() == 1
        assert page.locator("li.finding").count() == len(shown)
    finally:
        studio.close()


def test_dragging_a_place_on_an_x_y_board_writes_x_and_y(tab, tmp_path: Path) -> None:
    board = tmp_path / "fjordland.yaml"
    shutil.copy(ROOT / "examples/fjordland.yaml", board)
    before = board.read_text(encoding="utf-8")
    studio = Studio(tab, board)
    try:
        page = studio.page
        i = next(k for k, p in enumerate(load(board).board.places) if p.id == "ravenholm")
        _drag(page, _centre(page, f"circle[data-place='{i}']"), (40, -20))
        after = _wait_file(board, lambda t: t != before)
        changed = _diff(before, after)
        assert changed[0] == "-  - {id: ravenholm, name: Ravenholm, x: 3.8, y: 3.5}" and len(changed) == 2
        place = load(board).board.places[i]
        assert place.x > 3.8 and place.y < 3.5 and place.lat is None
    finally:
        studio.close()


def test_export_buttons_and_a_simulation_with_progress(studio, paris: Path) -> None:
    page = studio.page
    with page.expect_download() as svg:
        page.click("#export-svg")
    assert Path(svg.value.path()).read_text(encoding="utf-8").startswith("<?xml")
    assert svg.value.suggested_filename == "paris.svg"
    with page.expect_download(timeout=300_000) as pdf:
        page.click("#export-pdf")
    assert Path(pdf.value.path()).read_bytes()[:5] == b"%PDF-"
    studio.tab.on("dialog", lambda d: d.accept("2"))
    page.click("#simulate")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('games written to')", timeout=300_000)
    status = page.inner_text("#status")
    assert status.startswith("2 games written to") and "report.html" in status
    assert (paris / "out" / "paris" / "summary.json").exists()

    # That run's heat map (--sim): each route coloured by how often the bots claimed it, hottest red.
    import json

    rates = {r["route"]: r["claimed"]["rate"] for r in json.loads((paris / "out/paris/summary.json").read_text(encoding="utf-8"))["routes"]}
    ids = [r.id for r in load(paris / "paris.yaml").board.routes]
    other = Studio(studio.tab, paris / "paris.yaml", sim=paris / "out" / "paris")  # the same tab, this server's page
    try:
        assert other.page.eval_on_selector_all(".hit-route", "ls => ls.filter(l => l.style.stroke).length") == 0
        other.page.select_option("#overlay", "heat")
        strokes = other.page.eval_on_selector_all(".hit-route", "ls => ls.map(l => [Number(l.dataset.route), l.style.stroke])")
        assert len(strokes) == len(ids) and all(stroke for _, stroke in strokes)
        hottest = max(range(len(ids)), key=lambda k: rates.get(ids[k], 0.0))
        coldest = min(range(len(ids)), key=lambda k: rates.get(ids[k], 0.0))
        assert rates.get(ids[hottest], 0) > rates.get(ids[coldest], 0)
        assert dict(strokes)[hottest] != dict(strokes)[coldest]
    finally:
        other.close()


def test_the_command_serves_on_the_port_given_without_opening_a_browser(tab, paris: Path, tmp_path: Path) -> None:
    import os
    import re
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    marker = tmp_path / "opened"
    # Were a browser opened, this command would run and leave the marker.
    env = {**os.environ, "BROWSER": f"sh -c 'echo opened > {marker}' %s"}
    proc = subprocess.Popen([sys.executable, "-c", "from ttr_maps.cli.main import cli; cli()", "studio", str(paris / "paris.yaml"),
                             "--no-open", "--port", str(port)], stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stderr.readline()
        m = re.search(r"serving on (http://127\.0\.0\.1:(\d+)/\?token=\S+)", line)
        assert m and int(m.group(2)) == port, line
        page = tab.page
        page.goto(m.group(1))
        page.wait_for_selector("body[data-drawn]", timeout=60_000)
        assert page.locator("circle.hit-place").count() == len(load(paris / "paris.yaml").board.places)
        tab.blank()
        assert not marker.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_clicking_a_tickets_finding_lights_its_path(tab, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    text = board.read_text(encoding="utf-8")
    first = "  - {from: bastille, to: bercy, points: 4, decks: [paris]}\n"
    assert first in text
    board.write_text(text.replace(first, first + first), encoding="utf-8")  # a duplicate ticket: G007 at the second
    studio = Studio(tab, paris / "paris.yaml")
    try:
        page = studio.page
        finding = page.locator("li.finding", has_text="G007").first
        assert page.locator(".hit-route.path").count() == 0
        finding.click()
        from ttr_maps.studio.session import analysis

        tickets, _ = analysis(load(paris / "paris.yaml"))
        lit = page.eval_on_selector_all(".hit-route.path", "ls => ls.map(l => Number(l.dataset.route))")
        assert sorted(lit) == tickets[1]["routes"] and lit
        assert "Ticket bastille – bercy" in page.inner_text("#panel")
    finally:
        studio.close()


def test_a_drag_redraws_only_the_parts_that_changed_and_the_page_shows_the_servers_drawing(studio, paris: Path, monkeypatch) -> None:
    import json
    import urllib.request

    import ttr_maps.studio.session as session_module

    monkeypatch.setattr(session_module, "SETTLE", 60.0)  # render's exact layout waits: the quick drawing stays shown
    page = studio.page
    i = next(k for k, p in enumerate(load(paris / "paris-board.yaml").board.places) if p.id == "louvre")
    # A mark on a part of the drawing no drag changes (the first piece of the frame): it stays if the page is patched.
    page.evaluate("() => { document.querySelector('#board svg #table').firstElementChild.__kept = true; }")
    v = studio.version()
    _drag(page, _centre(page, f"circle[data-place='{i}']"), (30, -10))
    page.wait_for_function("v => Number(document.body.dataset.drawn) > v && document.body.dataset.exact === 'no'", arg=v, timeout=60_000)
    assert page.evaluate("() => !!document.querySelector('#board svg #table').firstElementChild.__kept")  # patched in place
    with urllib.request.urlopen(studio.running.url("/api/state").split("?")[0], timeout=60) as r:
        server = json.loads(r.read())
    assert not server["drawing"]["exact"]
    same = """svg => {
      const shown = document.querySelector('#board svg');
      const whole = document.importNode(new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement, true);
      for (const a of ['width', 'height']) whole.setAttribute(a, shown.getAttribute(a));
      const s = new XMLSerializer();
      return s.serializeToString(shown) === s.serializeToString(whole);
    }"""
    assert page.evaluate(same, server["drawing"]["svg"])  # the patched page shows exactly the server's drawing
