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

The dragged place follows the pointer at once (the page moves it while dragging). A drag's
wall time is also split in the page: mouse released -> the edit's answer (the server drew it;
its text is written after) -> the new SVG in the page -> the next frame painted. Also the
server's memory (resident set after opening the board, after the edits, and its peak, VmHWM)
and the load average at the start and the end, since the machine is shared.

Wall-clock figures grow with the machine's load; the last lines are the CPU time each step
of a drag takes in this process (thread CPU time, median), which does not: the steps up to the
drawing the page waits for, the write that follows it, and render's exact layout and the
checks after that.
"""

from __future__ import annotations

import argparse
import functools
import json
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

    start_load = os.getloadavg()
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
            # In the page: when the first answer with the edit's drawing came back (the edit's own, or the state asked
            # for when the server said a new drawing is out), when the new SVG was put in, and the frame after it
            # painted (performance.now(), milliseconds).
            page.add_init_script("""
              window.__marks = [];
              const real = window.fetch;
              window.fetch = async (...args) => {
                const url = String(args[0]);
                const t0 = performance.now();
                const r = await real(...args);
                if (url.includes('/api/edit') || url.includes('/api/state')) window.__marks.push(['sent', t0], ['answered', performance.now()]);
                return r;
              };
              new MutationObserver(() => {
                const t = performance.now();
                window.__marks.push(['drawn', t]);
                requestAnimationFrame(() => setTimeout(() => window.__marks.push(['painted', performance.now()]), 0));
              }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-drawn']});
            """)
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
            split: dict[str, list[float]] = {"mouse up -> answered": [], "answered -> SVG in the page": [], "SVG in -> painted": []}
            for k in range(args.repeat):
                box = page.locator(f"circle[data-place='{index}']").bounding_box()
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                dx = 12 if k % 2 == 0 else -12
                v = drawn()
                page.mouse.move(x, y)
                page.mouse.down()
                page.mouse.move(x + dx / 2, y, steps=2)
                page.mouse.move(x + dx, y, steps=2)
                page.evaluate("() => { window.__marks = []; window.__up = performance.now(); }")
                t = time.perf_counter()
                page.mouse.up()
                wait_drawn(v)
                drags.append(time.perf_counter() - t)
                page.wait_for_function("() => window.__marks.some(m => m[0] === 'painted')", timeout=60_000)
                marks = page.evaluate("() => [window.__up, window.__marks]")
                up, seen = marks[0], {}
                for name, at in marks[1]:
                    seen.setdefault(name, at)
                split["mouse up -> answered"].append((seen["answered"] - up) / 1000)
                split["answered -> SVG in the page"].append((seen["drawn"] - seen["answered"]) / 1000)
                split["SVG in -> painted"].append((seen["painted"] - seen["drawn"]) / 1000)
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

    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in start_load)} on {os.cpu_count()} cores")
    print(f"board: {loaded.board_path} ({len(loaded.board.places)} places, {len(loaded.board.routes)} routes, {len(loaded.board.tickets)} tickets)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"page opened to first drawing: {first * 1000:.0f} ms")
    print(f"drag a place -> redrawn page: {ms(drags)}")
    for name, values in split.items():
        print(f"  drag, {name}: {ms(values)}")
    print(f"drag a place -> page drawn as render lays it out: {ms(drags_exact)}")
    print(f"save the file -> redrawn page: {ms(saves)}")
    print(f"save the file -> page drawn as render lays it out: {ms(saves_exact)}")
    print(f"server memory: {opened['VmRSS']:.0f} MB resident with the board open, {after['VmRSS']:.0f} MB after the edits, peak {after['VmHWM']:.0f} MB")
    steps, total = _cpu_per_step(variant, args.place, args.repeat)
    print(f"server CPU per drag up to the drawing (studio.edits.apply, what the page waits for): {ms(total)}")
    for name, values in steps.items():
        print(f"  {name}: {ms(values)}")


# The steps of a drag timed on their own (thread CPU time, in whichever thread runs them): (label, module, name).
STEPS = [
    ("1 the edit on the board's data and its schema check", "ttr_maps.studio.edits", "_patched"),
    ("1 quick layout (studio/quick.py)", "ttr_maps.studio.quick", "quick_plan"),
    ("1 SVG of the drawing (render.board.draw_board)", "ttr_maps.render.board", "draw_board"),
    ("1 the page's geometry (drawing_data)", "ttr_maps.studio.session", "drawing_data"),
    ("1 the state as JSON", None, "state-json"),
    ("2 write: ruamel.yaml dump", "ttr_maps.yamledit", "YamlFile._dump"),
    ("2 write: changed lines into the text (merge_lines)", "ttr_maps.yamledit", "merge_lines"),
    ("2 write: the new text loaded to check it", "ttr_maps.yamledit", "validate_text"),
    ("2 write: atomic write", "ttr_maps.yamledit", "write_atomic"),
    ("3 render's exact layout (plan_board)", "ttr_maps.render", "plan_board"),
    ("3 shortest paths and route load", "ttr_maps.studio.session", "analysis"),
    ("3 design checks", "ttr_maps.checks", "run_checks"),
]


def _cpu_per_step(variant: Path, place: str, repeat: int) -> tuple[dict[str, list[float]], list[float]]:
    """Thread CPU time of `apply` (what the page waits for) and of each step of a drag, on a copy, in this process."""
    import importlib

    from ttr_maps.load import load
    from ttr_maps.studio.edits import apply
    from ttr_maps.studio.session import Session

    import threading

    times: dict[str, list[float]] = {label: [] for label, _, _ in STEPS}
    restore = []
    phase = ["1"]  # 1: up to the drawing (apply), 2: the write (its own thread), 3: the steps after
    for label, module, name in STEPS:
        if module is None:
            continue
        owner = importlib.import_module(module)
        attr = name
        if "." in name:
            cls, attr = name.split(".")
            owner = getattr(owner, cls)
        real = getattr(owner, attr)

        def timed(*a, _real=real, _label=label, **k):
            now = "2" if threading.current_thread().name == "studio-write" else phase[0]
            t = time.thread_time()
            try:
                return _real(*a, **k)
            finally:
                key = _label if _label[0] == now else f"{now} {_label[2:]}"
                times.setdefault(key, []).append(time.thread_time() - t)

        setattr(owner, attr, functools.wraps(real)(timed))
        restore.append((owner, attr, real))
    tmp = Path(tempfile.mkdtemp(prefix="bench-studio-cpu-"))
    try:
        shutil.copy(load(variant).board_path, tmp / "board.yaml")
        text = re.sub(r"(?m)^board: .*$", "board: board.yaml", variant.read_text(encoding="utf-8"))
        (tmp / "rules.yaml").write_text(text, encoding="utf-8")
        session = Session(str(tmp / "rules.yaml"))
        session.refresh()
        session.close()  # the background steps are taken below, in order
        session._finish(session.snapshot, session.snapshot.drawing.loaded)
        session._prepare_doc()
        for values in times.values():
            values.clear()
        total = []
        for k in range(repeat):
            p = next(x for x in session.snapshot.drawing.data["places"] if x["id"] == place)
            op = {"op": "move_place", "index": p["index"], "at": [p["at"][0] + (5 if k % 2 == 0 else -5), p["at"][1]],
                  "base": session.snapshot.sha}
            phase[0] = "1"
            t = time.thread_time()
            apply(session, op)
            json.dumps(session.state())
            total.append(time.thread_time() - t)
            t = time.thread_time()
            json.dumps(session.state())
            times["1 the state as JSON"].append(time.thread_time() - t)
            session.wait_written()
            phase[0] = "3"
            session._finish(session.snapshot, session.snapshot.drawing.loaded)
        return {k: times[k] for k in sorted(times, key=lambda k: k[0]) if times[k]}, total
    finally:
        for owner, attr, real in restore:
            setattr(owner, attr, real)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
