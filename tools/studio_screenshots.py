"""Build a board in the studio from an empty file, through the page only, and take the docs' screenshots.

    python tools/studio_screenshots.py                 # writes docs/images/studio-*.png
    python tools/studio_screenshots.py --out /tmp/shots --keep /tmp/harbour-towns.yaml

Drives the real page in headless Chromium (/usr/bin/chromium, Playwright) as a person
would: *Start a board here*, *Add place* and a click on the board for each place (no
coordinate typed), *Add route* and *Add ticket* by picking places, the suggested
length and value taken. At the end the file must validate with no error and print
(the PDF export), or this script fails. It is the walkthrough of docs/walkthrough.md,
section "Build it on the board", and docs/studio.md's pictures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Where each place goes, in car lengths from the first one (east, south); the page is clicked there.
PLACES = [("Millford", 4, 1), ("Eastwick", 8, 0), ("Southend", 4, 5), ("Hillmark", 9, 5)]
ROUTES = [("northport", "millford", "red", ""), ("millford", "eastwick", "blue", "green"), ("northport", "southend", "gray", ""),
          ("millford", "southend", "yellow", ""), ("southend", "eastwick", "black", ""), ("eastwick", "hillmark", "orange", ""),
          ("southend", "hillmark", "gray", "")]
TICKETS = [("northport", "eastwick"), ("northport", "hillmark"), ("millford", "hillmark"), ("southend", "northport")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images"), help="folder for the PNG files")
    ap.add_argument("--keep", default=None, help="copy the finished board file here")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    from ttr_maps.load import load
    from ttr_maps.studio import studio_app
    from ttr_maps.web import run_in_thread

    tmp = Path(tempfile.mkdtemp(prefix="studio-shots-"))
    board = tmp / "harbour-towns.yaml"
    board.write_text("# Harbour Towns: built in the studio, without typing a coordinate\n", encoding="utf-8")
    running = run_in_thread(studio_app(str(board)))

    def state() -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{running.port}/api/state", timeout=60) as r:
            return json.loads(r.read())

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            names: list[str] = []
            page.on("dialog", lambda d: d.accept(names.pop(0)))
            page.on("console", lambda m: print("console:", m.text))
            page.goto(running.url())

            def settled() -> None:
                v = state()["version"]
                page.wait_for_function("v => Number(document.body.dataset.version) >= v && document.body.dataset.findings === 'ready'",
                                       arg=v, timeout=120_000)

            def screen(at: list[float]) -> tuple[float, float]:
                return tuple(page.evaluate("([x, y]) => { const m = document.getElementById('overlay-layer').getScreenCTM();"
                                           " return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]; }", at))

            def place(pid: str) -> dict:
                return next(p for p in state()["drawing"]["places"] if p["id"] == pid)

            def click_place(pid: str) -> None:
                page.locator(f"circle[data-place='{place(pid)['index']}']").click()

            page.wait_for_selector("#start")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "studio-empty.png"))
            page.click("#start")
            page.wait_for_function("() => document.body.dataset.ok === 'yes'", timeout=120_000)
            settled()

            click_place("first")
            page.fill("#place-name", "Northport")
            page.click("text=Rename")
            page.wait_for_function("() => [...document.querySelectorAll('#board svg text')].some(t => t.textContent.includes('Northport'))")
            settled()
            for name, east, south in PLACES:
                first = place("first")
                car = state()["drawing"]["car"]
                names.append(name)
                page.click("#fit")  # then zoom out around the middle: the new place may lie beyond the drawing
                page.mouse.move(450, 420)
                page.mouse.wheel(0, 350)
                page.wait_for_timeout(100)
                page.click("#add-place")
                x, y = screen([first["at"][0] + east * car, first["at"][1] + south * car])
                page.mouse.click(x, y)
                try:
                    page.wait_for_function("n => [...document.querySelectorAll('#board svg text')].some(t => t.textContent.includes(n))",
                                           arg=name, timeout=60_000)
                except Exception:
                    page.screenshot(path=str(out / "studio-failed.png"))
                    raise SystemExit(f"{name} was not added ({page.inner_text('#status')}); see {out / 'studio-failed.png'}")
                settled()
            page.click("#fit")
            page.screenshot(path=str(out / "studio-places.png"))

            def pick(button: str, a: str, b: str, form: str) -> None:
                page.click(button)
                for pid in (a, b):
                    click_place("first" if pid == "northport" else pid)  # renaming kept the id
                page.wait_for_selector(form)

            def add(ok: str) -> None:
                before = state()["version"]
                page.click(ok)
                page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=120_000)
                settled()

            for k, (a, b, colour, second) in enumerate(ROUTES):
                pick("#add-route", a, b, "#route-ok")
                page.select_option("#route-colour", colour)
                if second:
                    page.select_option("#route-second", second)
                if k == 5:
                    page.screenshot(path=str(out / "studio-add-route.png"))
                add("#route-ok")
            for a, b in TICKETS:
                pick("#add-ticket", a, b, "#ticket-ok")
                add("#ticket-ok")

            page.click("#fit")
            finding = page.locator("li.finding[data-route]").first
            if finding.count():
                finding.click()
            page.keyboard.press("Escape")
            page.hover("#tickets li >> nth=1")
            page.screenshot(path=str(out / "studio-board.png"))

            page.select_option("#overlay", "load")
            page.screenshot(path=str(out / "studio-load.png"))
            page.select_option("#overlay", "")

            text = board.read_text(encoding="utf-8")
            board.write_text(text.replace("tracks: [red]}", "tracks: [red]", 1), encoding="utf-8")
            page.wait_for_selector("#problems li.problem", timeout=60_000)
            page.screenshot(path=str(out / "studio-broken.png"))
            board.write_text(text, encoding="utf-8")
            page.wait_for_function("() => document.body.dataset.ok === 'yes'", timeout=120_000)
            browser.close()
    finally:
        running.stop()

    loaded = load(board)
    errors = [d.as_text() for d in loaded.diagnostics if d.severity.value == "error"]
    if errors or loaded.board is None:
        raise SystemExit("the board built in the studio does not validate:\n" + "\n".join(errors))
    from ttr_maps.render import build_pdf

    pdf = build_pdf(loaded.board)
    print(f"{board}: {len(loaded.board.places)} places, {len(loaded.board.routes)} routes, {len(loaded.board.tickets)} tickets; "
          f"validates; PDF {len(pdf.pdf) // 1024} KB")
    print(board.read_text(encoding="utf-8"))
    if args.keep:
        shutil.copy(board, args.keep)
    shutil.rmtree(tmp, ignore_errors=True)
    europe(out)


def europe(out: Path) -> None:
    """The studio on a copy of the bundled Europe rules, a finding clicked and its route lit."""
    import re

    from playwright.sync_api import sync_playwright

    from ttr_maps.studio import studio_app
    from ttr_maps.web import run_in_thread

    tmp = Path(tempfile.mkdtemp(prefix="studio-europe-"))
    shutil.copy(ROOT / "maps/boards/europe.yaml", tmp / "europe-board.yaml")
    rules = re.sub(r"(?m)^board: .*$", "board: europe-board.yaml", (ROOT / "maps/variants/europe.yaml").read_text(encoding="utf-8"))
    (tmp / "europe.yaml").write_text(rules, encoding="utf-8")
    running = run_in_thread(studio_app(str(tmp / "europe.yaml")))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.goto(running.url())
            page.wait_for_selector("body[data-findings=ready]", timeout=180_000)
            finding = page.locator("li.finding[data-route]").first
            if finding.count():
                finding.click()
            page.screenshot(path=str(out / "studio-europe.png"))
            browser.close()
    finally:
        running.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
