"""Saving a game: the CPU time of writing one state file's text, as `ttr-maps play` does after every move.

    python benchmarks/bench_save.py [--repeat 5]

Plays one seeded random game on USA (4 players), Europe (3) and Märklin (2), keeps every position, and times
`dump_state` over all of them, with the direct YAML writer (ttr_maps/yamlplain.py) and with the library alone
(PyYAML with libyaml, as before it), alternating; prints the median over `--repeat` rounds of the CPU
milliseconds a save and the ratio, with the load average. The file's write (write_atomic) is not included.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ttr_maps.yamlplain as yamlplain  # noqa: E402
from ttr_maps.engine.game import Game  # noqa: E402
from ttr_maps.engine.statefile import dump_state  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}")
    out = Path(tempfile.mkdtemp()) / "game.yaml"
    direct = yamlplain.dump_fast
    for name, n in (("usa", 4), ("europe", 3), ("marklin", 2)):
        game = Game.from_file(ROOT / "maps" / "variants" / f"{name}.yaml", n)
        s = game.new_initial_state(1)
        rng = random.Random(1)
        states = []
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            states.append(s.clone())
        times: dict[str, list[float]] = {"library": [], "direct": []}
        for _ in range(args.repeat):
            for label in times:
                yamlplain.dump_fast = direct if label == "direct" else (lambda data: None)
                start = time.process_time()
                for st in states:
                    dump_state(st, out)
                times[label].append((time.process_time() - start) / len(states) * 1000)
        yamlplain.dump_fast = direct
        old, new = statistics.median(times["library"]), statistics.median(times["direct"])
        print(f"{name} {n} players, {len(states)} positions: {old:.2f} ms -> {new:.2f} ms CPU a save ({old / new:.2f}x)")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
