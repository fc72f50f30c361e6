"""The studio page in a real headless Chromium (Debian's, driven by Playwright), on copies of the Paris board."""

from __future__ import annotations

import difflib
import shutil
import time
from pathlib import Path

import pytest

from ttr_maps.load import load
from ttr_maps.studio import studio_app
from ttr_maps.web import run_in_thread

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DUPLICATE = "  - {from: montmartre, to: gare-du-nord, length: 2, tracks: [red]}\n"


@pytest.fixture
def paris(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "maps/boards/paris.yaml", tmp_path / "paris-board.yaml")
    rules = (ROOT / "maps/variants/paris.yaml").read_text(encoding="utf-8").replace("board: ../boards/paris.yaml\n", "board: paris-board.yaml\n")
    (tmp_path / "paris.yaml").write_text(rules, encoding="utf-8")
    return tmp_path


class Studio:
    def __init__(self, browser, path: Path):
        self.running = run_in_thread(studio_app(str(path)))
        self.page = browser.new_page(viewport={"width": 1300, "height": 800})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.running.url())
        self.page.wait_for_selector("body[data-findings=ready]", timeout=60_000)

    def version(self) -> int:
        return int(self.page.eval_on_selector("body", "b => b.dataset.version"))

    def wait_version(self, after: int) -> None:
        self.page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.findings === 'ready'",
                                    arg=after, timeout=60_000)

    def close(self) -> None:
        self.page.close()
        self.running.stop()
        assert not self.errors, self.errors


@pytest.fixture
def studio(browser, paris: Path):
    s = Studio(browser, paris / "paris.yaml")
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
    box = page.locator(f"circle[data-place='{i}']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    v = studio.version()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y - 10, steps=4)
    page.mouse.move(x + 40, y - 20, steps=4)
    page.mouse.up()
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


def test_clicking_a_finding_highlights_its_route(browser, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("tickets:\n", DUPLICATE + "tickets:\n"), encoding="utf-8")
    studio = Studio(browser, paris / "paris.yaml")
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
