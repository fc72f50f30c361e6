"""Speed of rendering (the board SVG, the card SVGs, the print-and-play PDF), the drawn-overlap measure,
and the large-board figures.

    python benchmarks/bench_render.py                      # every bundled variant and example
    python benchmarks/bench_render.py maps/variants/europe.yaml --repeat 5
    python benchmarks/bench_render.py --conflicts          # also the drawn overlaps of each board
    python benchmarks/bench_render.py --large 1000         # `ttr-maps render` of a 1,000-place board

For each file: plan (layout: route shapes, labels, legends), board SVG, every card
SVG (each ticket plus one of each other card), the two together (the "board and
its cards" figure, target < 2 s for Europe), and the whole PDF (every card copy).
Median of `--repeat` runs, CPU time of this process (time.process_time), after one
warm-up run (imports, font metrics).

With --conflicts, also the measure the drawing checks hold boards to
(`ttr_maps.render.conflicts.car_overlaps`): the pairs of different routes with
two cars sharing more than 2 % of a car (and 1 %, 10 %, 25 %), the worst of them
listed, the routes two of whose own cars share more than 2 % of a car (a bend that
clears a pair must not pile a route's cars up instead), and the routes with a car
over another place's marker.

With --large N, writes a synthetic board of about N places (the jittered grid of
benchmarks/bench_checks.py) and runs `ttr-maps render board.yaml -o board.svg` as
a user would, `--repeat` times: the median wall-clock time (process start
included) and the peak memory of the process (target: 1,000 places in under 3 s
and 200 MB).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.load import load  # noqa: E402
from ttr_maps.render import PrintOptions, build_pdf, card_context, cards_for, plan_board, render_card  # noqa: E402
from ttr_maps.render.board import draw_board  # noqa: E402

BUNDLED = sorted((ROOT / "maps" / "variants").glob("*.yaml")) + sorted((ROOT / "examples").glob("*-rules.yaml"))


def median(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t = time.process_time()
        result = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), result


def conflicts(plan) -> None:
    from ttr_maps.render.conflicts import car_overlaps, own_overlaps, route_conflicts

    overlaps = car_overlaps(plan, 0.01)
    counts = "  ".join(f">{t:.0%}: {sum(o.share > t for o in overlaps)}" for t in (0.01, 0.02, 0.10, 0.25))
    print(f"    route pairs with cars overlapping  {counts}")
    for o in overlaps:
        if o.share > 0.02:
            a, b = o.ends(plan)
            print(f"      {'-'.join(a)} x {'-'.join(b)}: {o.share:.0%} of a car")
    own = own_overlaps(plan)
    print(f"    routes whose own cars overlap by more than 2%: {len(own)}")
    for g, share in own:
        print(f"      {'-'.join(plan.routes[g].ends)}: {share:.0%} of a car")
    for ends, pid in route_conflicts(plan).over_markers:
        print(f"      {'-'.join(ends)} over the marker of {pid}")


def large(places: int, repeat: int) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_checks import board_yaml

    side = max(2, round(math.sqrt(places)))
    with tempfile.TemporaryDirectory() as tmp:
        text, n, routes, tracks = board_yaml(side, random.Random(1))
        board = Path(tmp) / "board.yaml"
        board.write_text(text, encoding="utf-8")
        script = Path(sys.executable).parent / "ttr-maps"
        cmd = [str(script) if script.exists() else "ttr-maps", "render", str(board), "-o", str(Path(tmp) / "board.svg")]
        print(f"large board: {n} places, {routes} routes, {tracks} tracks; ttr-maps render (median of {repeat} runs)")
        times, peaks = [], []
        for _ in range(repeat):
            t = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
            _, status, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - t)
            peaks.append(usage.ru_maxrss / 1024)  # kB on Linux
            proc.returncode = os.waitstatus_to_exitcode(status)
            err = proc.stderr.read().decode() if proc.stderr else ""
            if proc.returncode:
                sys.exit(f"render failed: {err}")
        print(f"  wall {statistics.median(times):6.2f} s (runs {', '.join(f'{t:.2f}' for t in times)})   "
              f"peak memory {statistics.median(peaks):5.0f} MB   (target < 3 s, < 200 MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="boards or variants (default: every bundled variant and example)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-pdf", action="store_true", help="skip the PDF timing")
    ap.add_argument("--conflicts", action="store_true", help="also the drawn overlaps of each board (the measure of the D checks)")
    ap.add_argument("--large", type=int, metavar="N", help="only time `ttr-maps render` of a synthetic board of about N places")
    args = ap.parse_args()
    if args.large:
        large(args.large, args.repeat)
        return
    files = args.files or [str(p) for p in BUNDLED]
    print(f"python {platform.python_version()} on {platform.machine()}; median of {args.repeat}, CPU seconds")
    print(f"{'file':<28} {'plan':>6} {'board':>6} {'cards':>6} {'n':>4} {'board+cards':>11} {'pdf':>6} {'pages':>5} {'MB':>5}")
    for f in files:
        loaded = load(f)
        if not loaded.ok or loaded.board is None:
            print(f"{f}: does not load", file=sys.stderr)
            continue
        board, variant = loaded.board, loaded.variant

        def everything():
            plan = plan_board(board, variant)
            draw_board(plan)
            ctx = card_context(plan)
            return [render_card(c, ctx) for c in cards_for(ctx)]

        everything()  # warm-up
        t_plan, plan = median(lambda: plan_board(board, variant), args.repeat)
        t_board, _ = median(lambda: draw_board(plan), args.repeat)
        ctx = card_context(plan)
        cards = cards_for(ctx)
        t_cards, _ = median(lambda: [render_card(c, ctx) for c in cards], args.repeat)
        t_all, _ = median(everything, args.repeat)
        if args.no_pdf:
            pdf_t, pages, size = float("nan"), 0, 0.0
        else:
            pdf_t, result = median(lambda: build_pdf(board, variant, PrintOptions()), 1)
            pages, size = sum(result.pages.values()), len(result.pdf) / 1e6
        name = Path(f).parent.name[:1] + "/" + Path(f).name
        print(f"{name:<28} {t_plan:6.3f} {t_board:6.3f} {t_cards:6.3f} {len(cards):4d} {t_all:11.3f} {pdf_t:6.2f} {pages:5d} {size:5.2f}")
        if args.conflicts:
            conflicts(plan)


if __name__ == "__main__":
    main()
