"""Time `ttr-maps tickets suggest` on a large synthetic board, process start included.

    python benchmarks/bench_tickets.py [--side 32] [--seed 1] [--repeat 3] [-n 30]

The board is bench_checks.py's jittered grid (`--side 32`: 1,024 places, about 3,000
tracks, a few countries). Each run is a fresh `ttr-maps tickets suggest BOARD -n N`
process (load, every shortest-path search, the greedy choice and the local search,
the deck printed); the median of `--repeat` runs is printed, with the deck's score
figures against the published ranges.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_checks import board_yaml  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("-n", type=int, default=30)
    args = ap.parse_args()
    text, places, _tracks, _tickets = board_yaml(args.side, random.Random(args.seed))
    exe = str(Path(sys.executable).with_name("ttr-maps"))
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "big.yaml"
        board.write_text(text, encoding="utf-8")
        times, cpu = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), os.times()
            subprocess.run([exe, "tickets", "suggest", str(board), "-n", str(args.n), "-o", str(Path(tmp) / "deck.yaml")],
                           check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
            c1 = os.times()
            cpu.append(c1.children_user - c0.children_user + c1.children_system - c0.children_system)
        score = subprocess.run([exe, "tickets", "score", str(Path(tmp) / "deck.yaml")], check=True, capture_output=True, text=True)
    print(f"{places} places: suggest -n {args.n}: median {statistics.median(times):.2f} s of {args.repeat} "
          f"({', '.join(f'{t:.2f}' for t in times)}), process start included; CPU median {statistics.median(cpu):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in cpu)}); load average {os.getloadavg()[0]:.1f}")
    print("\n".join(score.stdout.splitlines()[:14]))


if __name__ == "__main__":
    main()
