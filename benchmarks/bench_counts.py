"""A change's effect counted, not timed: instructions, cache misses and branch mispredictions a game, old against new.

    python benchmarks/bench_counts.py --base ee85abe --workload planning-usa4
    python benchmarks/bench_counts.py --base HEAD~1 --workload random-usa4 --games 40

Timed ratios (bench_interleaved.py) are what a user sees, but on a shared
machine they move by a third from one run to the next. This runs the same
workload workers as bench_interleaved.py under valgrind's cachegrind (a
simulated CPU: the counts do not depend on the load, and the same tree gives
the same counts run after run with PYTHONHASHSEED=0). Each tree runs twice,
with N games and with 2 (after the same warm-up), and the difference over N-2
games is the cost of a game without interpreter start and imports.

Where a tree sits moves its counts: the strings of its file names shift what
the interpreter allocates after them. The same commit (eaa6d2b, planning-usa4)
read an estimate of 27.66 M and 27.91 M a game at two temporary paths of one
length, and 27.72 M at /work/main; a helper saw 1.5% between paths of different
lengths. So this tree is not counted where it lies: its code and data are
copied beside the base's checkout (`.../tree` and `.../this`, one temporary
folder, paths of one length), and that copy is counted. The same code counted
so reads 1.00x (27.66 M against 27.65 M); counted in place, 1.01x. Still, a
change under about 1% is within what a path moves, run to run. The copy is
taken once, at the start, so an edit of the tree while it runs is not counted.

Why more than instructions: the interpreter's time per instruction is not
fixed. Every missed level-1 cache line and every mispredicted branch (the
bytecode dispatch is an indirect branch) costs the CPU many cycles, and a
change can cut instructions faster than it cuts those. So the table gives each
count's ratio, and a rough cycle estimate that weighs them: instructions / 4
+ 10 x (level-1 instruction and data misses) + 15 x mispredicted branches
(`--weights`). That estimate is a model, not a measurement; it is there to
show which way the timed ratio will lean. Needs valgrind (`apt-get install
valgrind`); cachegrind runs a game about 50-100 times slower than Python.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_interleaved import ROOT, WORKLOADS, _base_tree, _drop_tree  # noqa: E402

# The summary lines cachegrind prints (with --cache-sim=yes --branch-sim=yes), the first number of each.
COUNTS = {
    "instructions": "I   refs",
    "i1_misses": "I1  misses",
    "d1_misses": "D1  misses",
    "mispredicts": "Mispredicts",
}


def parse_summary(text: str) -> dict[str, int]:
    """The counts from cachegrind's summary on stderr; a missing one is an error naming it."""
    out = {}
    for key, label in COUNTS.items():
        m = re.search(rf"^==\d+== {re.escape(label)}:\s+([\d,]+)", text, re.MULTILINE)
        if m is None:
            raise ValueError(f"cachegrind printed no '{label}' line (was it run with --cache-sim=yes --branch-sim=yes?)")
        out[key] = int(m.group(1).replace(",", ""))
    return out


def estimate(c: dict[str, float], weights: tuple[float, float, float]) -> float:
    per_instr, per_miss, per_mispredict = weights
    return c["instructions"] * per_instr + (c["i1_misses"] + c["d1_misses"]) * per_miss + c["mispredicts"] * per_mispredict


def count(tree: Path, workload: str, games: int) -> dict[str, int]:
    """One worker process under cachegrind."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve().parent / "bench_interleaved.py"),
           "--worker", workload, "--tree", str(tree), "--games", str(games)]
    # No .pyc written: otherwise the first run of a fresh tree compiles and writes them and the second reads them,
    # and the difference of the two runs would count the compiling as the cost of games.
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    res = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"{workload} on {tree} failed under cachegrind:\n{res.stderr[-3000:]}")
    return parse_summary(res.stderr)


def sources_digest(tree: Path) -> str:
    """A digest of the tree's Python sources (ttr_maps/), to see whether they changed during a count."""
    h = hashlib.sha256()
    for f in sorted((tree / "ttr_maps").rglob("*.py")):
        h.update(str(f.relative_to(tree)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def per_game(tree: Path, workload: str, games: int) -> dict[str, float]:
    """Counts a game: N games less 2 games (the same warm-up in both), over N - 2.

    Refused when the tree's sources changed between or during the two runs (an edit or a rebase of the tree
    being counted): the runs would count different code, or compiling it, as games."""
    before = sources_digest(tree)
    more, fewer = count(tree, workload, games), count(tree, workload, 2)
    if sources_digest(tree) != before:
        raise SystemExit(f"{tree}: its ttr_maps sources changed while {workload} was counted; the counts are "
                         "discarded. Run again without editing or rebasing that tree meanwhile.")
    return {k: (more[k] - fewer[k]) / (games - 2) for k in COUNTS}


def copy_beside(base_tree: Path, source: Path = ROOT) -> Path:
    """`source`'s code and data (what a worker reads) copied next to the base's checkout, at a path as long."""
    this = base_tree.parent / "this"
    assert len(str(this)) == len(str(base_tree))
    for part in ("ttr_maps", "maps", "schemas", "benchmarks"):
        if (source / part).is_dir():
            shutil.copytree(source / part, this / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return this


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD~1", help="the old code: a commit, branch or tag (default HEAD~1)")
    ap.add_argument("--workload", action="append", choices=sorted(w for w, spec in WORKLOADS.items() if spec[0] != "cli"),
                    help="repeatable; default planning-usa4")
    ap.add_argument("--games", type=int, default=10, help="games in the longer run, 3 to 29 (default 10)")
    ap.add_argument("--weights", default="0.25,10,15",
                    help="cycle estimate: per instruction, per level-1 miss, per mispredicted branch (default 0.25,10,15)")
    args = ap.parse_args(argv)
    if not 3 <= args.games <= 29:
        ap.error("--games must be 3 to 29 (the worker's warm-up is 2 games below 30)")
    try:
        weights = tuple(float(x) for x in args.weights.split(","))
    except ValueError:
        weights = ()
    if len(weights) != 3:
        ap.error("--weights takes three numbers, e.g. 0.25,10,15")
    if subprocess.run(["sh", "-c", "command -v valgrind"], capture_output=True).returncode != 0:
        raise SystemExit("valgrind is not installed: apt-get install valgrind (or use bench_interleaved.py for timed ratios)")
    tree, commit = _base_tree(args.base)
    try:
        this = copy_beside(tree)
        print(f"old {commit[:12]}  new {ROOT} (counted as a copy at {this}, a path as long as the old's); "
              f"counts a game ({args.games} games less 2), cachegrind, PYTHONHASHSEED=0")
        print(f"{'workload':<18}{'count':<14}{'old':>14}{'new':>14}{'old/new':>9}")
        for w in args.workload or ["planning-usa4"]:
            old, new = per_game(tree, w, args.games), per_game(this, w, args.games)
            old["estimate"], new["estimate"] = estimate(old, weights), estimate(new, weights)
            for k in (*COUNTS, "estimate"):
                ratio = old[k] / new[k] if new[k] else float("inf")
                print(f"{w:<18}{k:<14}{old[k]:>14,.0f}{new[k]:>14,.0f}{ratio:>8.2f}x")
    finally:
        _drop_tree(tree)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
