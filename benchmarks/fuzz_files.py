"""The long version of the suite's fuzz tests: many seeded mutations of state files, position files
and action strings (tests/fuzzing.py makes them), with the outcomes counted.

    python benchmarks/fuzz_files.py                        # 400 state files, 1,000 position files, actions of 20 games per variant
    python benchmarks/fuzz_files.py --state 2000 --position 5000 --games 100 --seed 7

A crash (a traceback or another exception) stops nothing: it is counted and shown, and the run
exits 1. `no-position` counts refusals that name the file but not the line (issue 20.7 for state
files) and also exits 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fuzzing import Tally  # noqa: E402
from test_fuzz_actions import fuzz_actions  # noqa: E402
from test_fuzz_position_files import fuzz_position_files  # noqa: E402
from test_fuzz_state_files import fuzz_state_files  # noqa: E402

from ttr_maps.bundled import names  # noqa: E402


def show(title: str, tally: Tally, seconds: float) -> bool:
    print(f"{title}: {sum(tally.counts.values())} cases in {seconds:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items())))
    for kind in ("crash", "no-position"):
        for example in tally.examples.get(kind, []):
            print(f"  {kind}: {example}")
    return not ({"crash", "no-position"} & set(tally.counts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", type=int, default=400, help="mutated state files")
    ap.add_argument("--position", type=int, default=1000, help="mutated position files")
    ap.add_argument("--games", type=int, default=20, help="random games per variant for action strings")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        ok &= show("state files", fuzz_state_files(Path(tmp), args.seed, args.state), time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        ok &= show("position files", fuzz_position_files(Path(tmp), args.seed, args.position), time.perf_counter() - t)
    t = time.perf_counter()
    totals: dict[str, int] = {}
    crashes = []
    for name, path in sorted(names("variants").items()):
        rng = random.Random(f"{args.seed}-{name}")
        for _ in range(args.games):
            try:
                counts = fuzz_actions(path, rng, stops=10, per_position=50)
            except AssertionError as exc:
                crashes.append(str(exc)[:300])
                continue
            for k, v in counts.items():
                totals[k] = totals.get(k, 0) + v
    print(f"action strings: {args.games} games per variant in {time.perf_counter() - t:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in totals.items()) + f", failures {len(crashes)}")
    for c in crashes[:10]:
        print(f"  failure: {c}")
    sys.exit(0 if ok and not crashes else 1)


if __name__ == "__main__":
    main()
