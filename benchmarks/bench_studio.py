"""The studio's latency and memory on a copy of the Europe board, as a user meets them.

    python benchmarks/bench_studio.py                 # 9 drags and 9 saves, Europe
    python benchmarks/bench_studio.py --repeat 15 --variant maps/variants/usa.yaml

Starts `ttr-maps studio COPY --no-open` as its own process (the real server), opens
the page in headless Chromium (/usr/bin/chromium, Playwright) and measures, by the
wall clock, the median of:

- drag: from releasing the mouse after dragging a place (Wien on Europe) to the new
  drawing in the page (the YAML written, read again, planned, drawn, sent, shown);
- save: from writing the file (as an editor saving it) to the new drawing in the page;
- and for both, to the board as `render` lays it out: the first drawing of an edit is
  the studio's quick layout (studio/quick.py: only what the edit reached laid out
  again), `render`'s own layout replaces it a moment later.

The dragged place follows the pointer at once (the page moves it while dragging). Also the server's
memory (resident set after opening the board, and its peak, VmHWM) and the load
average, since the machine is shared.

Wall-clock figures grow with the machine's load; the last line is the CPU time the
server's thread spends on one drag up to the drawing (the edit written, the file
read again, planned and drawn: `studio.edits.apply` in this process, thread CPU time,
median), which does not.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _memory(pid: int) -> dict[str, float]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="maps/variants/europe.yaml")
    ap.add_argument("--place", default="wien", help="id of the place to drag")
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    from ttr_maps.load import load

    variant = ROOT / args.variant
    loaded = load(variant)
    tmp = Path(tempfile.mkdtemp(prefix="bench-studio-"))
    board = tmp / "board.yaml"
    shutil.copy(loaded.board_path, board)
    text = variant.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^board: .*$", "board: board.yaml", text)
    (tmp / "rules.yaml").write_text(text, encoding="utf-8")
    index = next(i for i, p in enumerate(loaded.board.places) if p.id == args.place)

    server = subprocess.Popen([sys.executable, "-c", "from ttr_maps.cli.main import cli; cli()", "studio", str(tmp / "rules.yaml"), "--no-open"],
                              stderr=subprocess.PIPE, text=True)
    try:
        url = None
        while url is None:
            line = server.stderr.readline()
            if not line:
                raise SystemExit("the studio did not start")
            m = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            url = m.group(1) if m else None
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            t0 = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-drawn]", timeout=120_000)
            first = time.perf_counter() - t0
            page.wait_for_selector("body[data-findings=ready]", timeout=120_000)
            opened = _memory(server.pid)

            def drawn() -> int:
                return int(page.eval_on_selector("body", "b => b.dataset.drawn"))

            def wait_drawn(after: int) -> None:
                page.wait_for_function("v => Number(document.body.dataset.drawn) > v", arg=after, timeout=120_000, polling="raf")

            def wait_exact(after: int) -> None:
                page.wait_for_function("v => Number(document.body.dataset.drawn) > v && (document.body.dataset.exact ?? 'yes') === 'yes'",
                                       arg=after, timeout=120_000, polling="raf")

            drags, drags_exact = [], []
            for k in range(args.repeat):
                box = page.locator(f"circle[data-place='{index}']").bounding_box()
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                dx = 12 if k % 2 == 0 else -12
                v = drawn()
                page.mouse.move(x, y)
                page.mouse.down()
                page.mouse.move(x + dx / 2, y, steps=2)
                page.mouse.move(x + dx, y, steps=2)
                t = time.perf_counter()
                page.mouse.up()
                wait_drawn(v)
                drags.append(time.perf_counter() - t)
                wait_exact(v)
                drags_exact.append(time.perf_counter() - t)
                page.wait_for_selector("body[data-findings=ready]", timeout=120_000)

            saves, saves_exact = [], []
            original = board.read_text(encoding="utf-8")
            for k in range(args.repeat):
                v = drawn()
                changed, found = re.subn(r"(\{id: " + re.escape(args.place) + r", name: [^,]+, (?:lat|x): )(-?[0-9.]+)",
                                         lambda m: m.group(1) + f"{float(m.group(2)) + 0.1 * (k + 1):.2f}", original, count=1)
                if not found:
                    raise SystemExit(f"no line '- {{id: {args.place}, name: ..., lat: ...}}' in the board to change")
                t = time.perf_counter()
                board.write_text(changed, encoding="utf-8")
                wait_drawn(v)
                saves.append(time.perf_counter() - t)
                wait_exact(v)
                saves_exact.append(time.perf_counter() - t)
                page.wait_for_selector("body[data-findings=ready]", timeout=120_000)
            after = _memory(server.pid)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f}, max {max(values) * 1000:.0f}, n={len(values)})"

    print(f"board: {loaded.board_path} ({len(loaded.board.places)} places, {len(loaded.board.routes)} routes, {len(loaded.board.tickets)} tickets)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"page opened to first drawing: {first * 1000:.0f} ms")
    print(f"drag a place -> redrawn page: {ms(drags)}")
    print(f"drag a place -> page drawn as render lays it out: {ms(drags_exact)}")
    print(f"save the file -> redrawn page: {ms(saves)}")
    print(f"save the file -> page drawn as render lays it out: {ms(saves_exact)}")
    print(f"server memory: {opened['VmRSS']:.0f} MB resident with the board open, {after['VmRSS']:.0f} MB after the edits, peak {after['VmHWM']:.0f} MB")
    print(f"server CPU per drag up to the drawing: {ms(_cpu_per_edit(variant, args.place, args.repeat))}")


def _cpu_per_edit(variant: Path, place: str, repeat: int) -> list[float]:
    """Thread CPU time of `apply` (edit written, board read, planned, drawn), on a copy, in this process."""
    from ttr_maps.studio.edits import apply
    from ttr_maps.studio.session import Session
    from ttr_maps.load import load

    tmp = Path(tempfile.mkdtemp(prefix="bench-studio-cpu-"))
    try:
        shutil.copy(load(variant).board_path, tmp / "board.yaml")
        text = re.sub(r"(?m)^board: .*$", "board: board.yaml", variant.read_text(encoding="utf-8"))
        (tmp / "rules.yaml").write_text(text, encoding="utf-8")
        session = Session(str(tmp / "rules.yaml"))
        session.refresh()
        times = []
        for k in range(repeat + 1):
            p = next(x for x in session.snapshot.drawing.data["places"] if x["id"] == place)
            op = {"op": "move_place", "index": p["index"], "at": [p["at"][0] + (5 if k % 2 == 0 else -5), p["at"][1]],
                  "base": session.snapshot.sha}
            t = time.thread_time()
            apply(session, op)
            if k:  # the first edit also reads the file for editing
                times.append(time.thread_time() - t)
            session._finish(session.snapshot, session.snapshot.drawing.loaded)
        session.close()
        return times
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
