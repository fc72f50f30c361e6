"""Speed of rendering: the board SVG, the card SVGs and the print-and-play PDF.

    python benchmarks/bench_render.py                      # every bundled variant
    python benchmarks/bench_render.py maps/variants/europe.yaml --repeat 5
    python benchmarks/bench_render.py --conflicts          # also the route conflicts of each board

For each file: plan (layout: route shapes, labels, legends), board SVG, every card
SVG (each ticket plus one of each other card), the two together (the "board and
its cards" figure, target < 2 s for Europe), and the whole PDF (every card copy).
Best of `--repeat` runs, CPU time of this process (time.process_time), after one
warm-up run (imports, font metrics). With --conflicts, also the overlapping route
pairs and the routes over another place's marker (`ttr_maps.render.conflicts`).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.load import load  # noqa: E402
from ttr_maps.render import PrintOptions, build_pdf, card_context, cards_for, plan_board, render_card  # noqa: E402
from ttr_maps.render.board import draw_board  # noqa: E402


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t = time.process_time()
        result = fn()
        times.append(time.process_time() - t)
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="boards or variants (default: every bundled variant)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-pdf", action="store_true", help="skip the PDF timing")
    ap.add_argument("--conflicts", action="store_true", help="also list each board's overlapping routes and routes over markers")
    args = ap.parse_args()
    files = args.files or sorted(str(p) for p in (ROOT / "maps" / "variants").glob("*.yaml"))
    print(f"python {platform.python_version()} on {platform.machine()}; best of {args.repeat}, CPU seconds")
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
        t_plan, plan = best(lambda: plan_board(board, variant), args.repeat)
        t_board, _ = best(lambda: draw_board(plan), args.repeat)
        ctx = card_context(plan)
        cards = cards_for(ctx)
        t_cards, _ = best(lambda: [render_card(c, ctx) for c in cards], args.repeat)
        t_all, _ = best(everything, args.repeat)
        if args.no_pdf:
            pdf_t, pages, size = float("nan"), 0, 0.0
        else:
            pdf_t, result = best(lambda: build_pdf(board, variant, PrintOptions()), 1)
            pages, size = sum(result.pages.values()), len(result.pdf) / 1e6
        name = Path(f).parent.name[:1] + "/" + Path(f).name
        print(f"{name:<28} {t_plan:6.3f} {t_board:6.3f} {t_cards:6.3f} {len(cards):4d} {t_all:11.3f} {pdf_t:6.2f} {pages:5d} {size:5.2f}")
        if args.conflicts:
            from ttr_maps.render.conflicts import route_conflicts

            found = route_conflicts(plan)
            print(f"    {found.summary()}")
            for a, b in found.overlapping:
                print(f"      {'-'.join(a)} x {'-'.join(b)}")
            for ends, pid in found.over_markers:
                print(f"      {'-'.join(ends)} over {pid}")


if __name__ == "__main__":
    main()
