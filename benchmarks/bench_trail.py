"""Time `longest_trail` on random full networks (45 trains; Paris 15 buses) from the bundled boards.

    python benchmarks/bench_trail.py [--samples 2000] [--seed 1]

Two kinds of network per board, each using at most the variant's trains, one
track per route:
- typical: grown like a player's network (mostly routes touching what is
  already built, sometimes a new start elsewhere), any lengths;
- dense: the worst case we can think of: the shortest routes first, grown
  connected, so the network has as many routes (edges) and junctions as 45
  trains allow; this is where a trail search branches most.
Prints the mean number of routes, then median, 99th percentile and maximum
microseconds per call (each call timed 3 times, the best kept).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.engine.trail import longest_trail  # noqa: E402
from ttr_maps.load import load_variant  # noqa: E402

def grow(board, rng: random.Random, *, dense: bool, trains: int = 45) -> list[int]:
    """Route indices of one random network of at most `trains` trains."""
    routes = board.routes
    owned: list[int] = []
    places: set[str] = set()
    left = trains
    free = set(range(len(routes)))
    while True:
        fitting = [i for i in free if routes[i].length <= left]
        if not fitting:
            return owned
        touching = [i for i in fitting if routes[i].from_ in places or routes[i].to in places]
        pool = touching if touching and (dense or rng.random() < 0.85) else fitting
        if dense:
            shortest = min(routes[i].length for i in pool)
            pool = [i for i in pool if routes[i].length <= shortest + 1]
        i = rng.choice(sorted(pool))
        owned.append(i)
        free.discard(i)
        places.update(routes[i].ends)
        left -= routes[i].length


def time_call(edges, terminals, repeat: int = 3) -> float:
    """Microseconds for one call, the best of `repeat` (so a busy machine's pauses are not counted)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        longest_trail(edges, terminals)
        best = min(best, time.perf_counter() - start)
    return best * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variants = sorted({p for p in (ROOT / "maps" / "variants").glob("*.yaml")})
    seen_boards: set[str] = set()
    print(f"{'board':<10} {'trains':>6} {'kind':<8} {'routes':>6} {'median µs':>10} {'p99 µs':>8} {'max µs':>8}")
    for path in variants:
        variant, board = load_variant(path)
        if variant.board in seen_boards:
            continue
        seen_boards.add(variant.board)
        terminals = {p.id for p in board.places if p.is_country}
        rng = random.Random(args.seed)
        for kind in ("typical", "dense"):
            times, sizes = [], []
            for _ in range(args.samples):
                owned = grow(board, rng, dense=kind == "dense", trains=variant.trains)
                edges = [(board.routes[i].from_, board.routes[i].to, board.routes[i].length) for i in owned]
                sizes.append(len(edges))
                times.append(time_call(edges, terminals))
            times.sort()
            p99 = times[int(len(times) * 0.99) - 1]
            name = Path(variant.board).stem
            print(f"{name:<10} {variant.trains:>6} {kind:<8} {statistics.mean(sizes):>6.1f} {statistics.median(times):>10.1f} {p99:>8.1f} {times[-1]:>8.1f}")


if __name__ == "__main__":
    main()
