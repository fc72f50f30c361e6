"""Time loading and every design check on large synthetic boards.

    python benchmarks/bench_checks.py [--side 34] [--seed 1] [--repeat 3]

Writes a board of `side x side` places (34 -> 1,156 places) on a jittered grid
with routes to the right, below and some diagonal neighbours (about a third of
them double, a few triple: over 3,000 tracks), a few countries on the edge,
bend points on some routes, and 2 tickets per place; plus a variant that plays
it with 5 players. Then times, best of `--repeat` runs:

- load: parse, validate and cross-check the variant and its board;
- checks: build the shared context and run every check (`run_checks`);

and prints the per-check split of one run, slowest first. Target: load +
checks under 5 s on a 2-core machine. The figures measured are in
docs/checks.md (Performance). D002 does not lay out boards of more than 300
places, so on these boards it only reports that.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.checks import CHECKS, run_checks  # noqa: E402
from ttr_maps.checks.config import Settings  # noqa: E402
from ttr_maps.checks.context import Context  # noqa: E402
from ttr_maps.load import load  # noqa: E402

COLORS = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")


def board_yaml(side: int, rng: random.Random) -> tuple[str, int, int, int]:
    spacing = 3.2
    pos: dict[tuple[int, int], tuple[float, float]] = {}
    lines = ["format: ttr-board/1", "meta: {title: Synthetic benchmark board}", "drawing: {car_length: 1.0}", "places:"]
    for i in range(side):
        for j in range(side):
            x = i * spacing + rng.uniform(-0.6, 0.6)
            y = j * spacing + rng.uniform(-0.6, 0.6)
            pos[i, j] = (x, y)
            kind = ", kind: country" if (i == 0 and j % 9 == 4) else ""
            lines.append(f"  - {{id: p{i}-{j}, name: Place {i}-{j}{kind}, x: {x:.3f}, y: {y:.3f}}}")
    lines.append("routes:")
    tracks = routes = 0
    for i in range(side):
        for j in range(side):
            steps = [(1, 0), (0, 1)] + ([(1, 1)] if rng.random() < 0.25 else [])
            for di, dj in steps:
                a, b = (i, j), (i + di, j + dj)
                if b not in pos:
                    continue
                d = math.dist(pos[a], pos[b])
                length = max(1, min(6, round(d - 0.7)))
                n = 3 if rng.random() < 0.05 else 2 if rng.random() < 0.4 else 1
                colors = ", ".join(rng.choice(COLORS + ("gray",)) for _ in range(n))
                bend = ""
                if rng.random() < 0.1:
                    mx, my = (pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2
                    bend = f", bend: [[{mx + 0.2:.3f}, {my + 0.2:.3f}]]"
                lines.append(f"  - {{from: p{a[0]}-{a[1]}, to: p{b[0]}-{b[1]}, length: {length}, tracks: [{colors}]{bend}}}")
                tracks += n
                routes += 1
    lines.append("tickets:")
    ids = [f"p{i}-{j}" for i in range(side) for j in range(side)]
    for _ in range(2 * len(ids)):
        a, b = rng.sample(ids, 2)
        lines.append(f"  - {{from: {a}, to: {b}, points: {rng.randint(4, 60)}, decks: [main]}}")
    return "\n".join(lines) + "\n", len(ids), routes, tracks


VARIANT = """format: ttr-variant/1
name: Synthetic benchmark rules
board: board.yaml
players: {min: 2, max: 5}
trains: 400
"""


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=34, help="places per grid side (34 -> 1,156 places)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        text, places, routes, tracks = board_yaml(args.side, rng)
        (Path(tmp) / "board.yaml").write_text(text, encoding="utf-8")
        (Path(tmp) / "variant.yaml").write_text(VARIANT, encoding="utf-8")
        variant = str(Path(tmp) / "variant.yaml")
        print(f"board: {places} places, {routes} routes, {tracks} tracks, {2 * places} tickets ({len(text) / 1e6:.1f} MB of YAML)")
        t_load, loaded = best(lambda: load(variant), args.repeat)
        assert loaded.ok, loaded.diagnostics[:5]
        t_checks, diags = best(lambda: run_checks(loaded), args.repeat)
        print(f"load:   {t_load:6.2f} s")
        print(f"checks: {t_checks:6.2f} s  ({len(diags)} findings)")
        print(f"total:  {t_load + t_checks:6.2f} s  (target < 5 s)")

        ctx = Context(loaded.board, loaded.variant, board_source=loaded.board_source, variant_source=loaded.source)
        settings = Settings(CHECKS)
        split = []
        for code, check in CHECKS.items():
            t = time.perf_counter()
            n = sum(1 for _ in check.run(ctx, settings.options_for(code)))
            split.append((time.perf_counter() - t, code, check.name, n))
        print("one run, per check (the first to need a shared structure pays for building it):")
        for t, code, name, n in sorted(split, reverse=True):
            print(f"  {code} {name:<26} {t * 1000:8.1f} ms  {n:5d} findings")


if __name__ == "__main__":
    main()
