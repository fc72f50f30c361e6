"""A change's effect on speed: the old and the new code, alternating, in one run; the ratio per workload.

    python benchmarks/bench_interleaved.py                          # this tree against HEAD~1
    python benchmarks/bench_interleaved.py --base main --pairs 7    # against main (a branch, tag or hash)
    python benchmarks/bench_interleaved.py --workload planning-usa4 --workload expert-marklin4 --games 40
    python benchmarks/bench_interleaved.py --list                   # the workloads
    python benchmarks/bench_interleaved.py --base main --compiled   # this tree's compiled build against main's sources

The base commit is checked out into a temporary git worktree (removed at the
end). Each measurement is a separate process running one workload on one tree:
it imports that tree's ttr_maps, plays a few warm-up games, then times N games.
Old and new runs alternate, in the order old-new, new-old, old-new ... (so a
drift in the machine's speed during the run falls on both alike), and the
figures are medians over the pairs: the median CPU seconds of each side and
the median of the per-pair ratios. `speedup` is old time / new time (2.0: the
new code does the same work in half the time).

Times are CPU time of the measuring process (time.process_time), which other
load on a shared machine inflates far less than wall-clock time; the `cli-*`
workloads time a whole `ttr-maps` command as a user runs it (interpreter start,
imports, output files), as the child process's CPU time (user + system, from
os.wait4). The load average is printed at the start and the end.

With --compiled the new side is this tree's optional compiled build (docs/simulate.md, "A compiled build"),
made in a temporary copy (benchmarks/compiled_build.py) and removed at the end; the old side stays as it is.

Each run also hashes what it played (scores and winners of every game), so the
table says whether old and new code played the same games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLANNING = ("expert", "route-focus", "ticket-hungry", "long-route")

# name: (kind, variant file stem, players, default games, what)
WORKLOADS: dict[str, tuple[str, str, int, int, str]] = {
    "engine-usa4": ("engine", "usa", 4, 150, "the engine alone: random legal actions, final scoring"),
    "engine-marklin4": ("engine", "marklin", 4, 100, "the engine alone on Märklin"),
    "random-usa4": ("simulate:random", "usa", 4, 150, "simulate's runner, four random bots (views, records)"),
    "planning-usa4": ("simulate:planning", "usa", 4, 40, "simulate's runner, the default table of four planning bots"),
    "expert-usa4": ("simulate:expert", "usa", 4, 40, "simulate's runner, four experts"),
    "planning-marklin4": ("simulate:planning", "marklin", 4, 25, "the default table on Märklin"),
    "expert-marklin4": ("simulate:expert", "marklin", 4, 25, "four experts on Märklin"),
    "cli-simulate-usa4": ("cli", "usa", 4, 40, "`ttr-maps simulate usa -n N` as a user runs it (process start, report)"),
}
DEFAULT_WORKLOADS = ("engine-usa4", "engine-marklin4", "random-usa4", "planning-usa4", "expert-usa4",
                     "planning-marklin4", "expert-marklin4")


# ---------------------------------------------------------------------- the measuring process
def _worker(tree: Path, workload: str, games: int) -> dict:
    """Run in a fresh process with `tree` first on sys.path; returns CPU seconds and a hash of the games."""
    sys.path.insert(0, str(tree))
    import ttr_maps

    where = Path(ttr_maps.__file__).resolve()
    if tree.resolve() not in where.parents:
        raise SystemExit(f"imported ttr_maps from {where}, not from {tree}")
    kind, stem, players, _, _ = WORKLOADS[workload]
    path = tree / "maps" / "variants" / f"{stem}.yaml"
    h = hashlib.sha256()
    if kind == "engine":
        import random

        from ttr_maps.engine.game import Game

        game = Game.from_file(path, players)

        def play(n: int, seed: int) -> None:
            rng = random.Random(seed)
            for i in range(n):
                state = game.new_initial_state(seed * 1_000_003 + i)
                while not state.is_terminal():
                    state.apply(rng.choice(state.legal_actions()))
                sheet = state.score_sheet()
                h.update(repr(([pl.total for pl in sheet.players], tuple(sheet.winners))).encode())

        play(max(5, games // 10), 999)  # warm-up: the engine interns actions on first sight
        h = hashlib.sha256()
        start = time.process_time()
        play(games, 1)
        cpu = time.process_time() - start
    else:
        from ttr_maps.simulate.runner import GameSource, RunSpec, run_games

        which = kind.split(":")[1]
        bots = PLANNING if which == "planning" else (which,) * players
        source = GameSource.from_file(str(path), players)
        list(run_games(RunSpec(source, bots, max(2, games // 10), 999)))  # warm-up
        start = time.process_time()
        lines = list(run_games(RunSpec(source, bots, games, 1)))
        cpu = time.process_time() - start
        for line in lines:
            r = json.loads(line)
            h.update(repr(([s["score"] for s in r["seats"]], r["winners"])).encode())
    return {"cpu": cpu, "games": games, "hash": h.hexdigest()[:16]}


def _measure(tree: Path, workload: str, games: int) -> dict:
    """One measurement in a new process."""
    kind, stem, players, _, _ = WORKLOADS[workload]
    env = dict(os.environ, PYTHONHASHSEED="0")
    if kind == "cli":
        out = Path(tempfile.mkdtemp(prefix="ttr-bench-cli-"))
        try:
            code = f"import sys; sys.path.insert(0, {str(tree)!r}); from cli.main import cli; cli()"
            cmd = [sys.executable, "-c", code, "simulate", str(tree / "maps" / "variants" / f"{stem}.yaml"),
                   "-n", str(games), "-p", str(players), "--seed", "1", "-q", "--force", "-o", str(out / "run")]
            proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            err = proc.stderr.read().decode() if proc.stderr else ""
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                raise RuntimeError(f"{workload} on {tree} failed:\n{err}")
            h = hashlib.sha256()
            for line in (out / "run" / "records.jsonl").read_text(encoding="utf-8").splitlines():
                r = json.loads(line)
                h.update(repr(([s["score"] for s in r["seats"]], r["winners"])).encode())
            return {"cpu": usage.ru_utime + usage.ru_stime, "games": games, "hash": h.hexdigest()[:16]}
        finally:
            shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", workload, "--tree", str(tree), "--games", str(games)]
    res = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{workload} on {tree} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- the comparison
def _base_tree(base: str) -> tuple[Path, str]:
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{base}^{{commit}}"],
                         capture_output=True, text=True)
    if rev.returncode != 0:
        raise SystemExit(f"--base {base}: not a commit of this repository ({rev.stderr.strip()})")
    commit = rev.stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="ttr-bench-base-"))
    tree = tmp / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit], check=True)
    return tree, commit


def _drop_tree(tree: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    shutil.rmtree(tree.parent, ignore_errors=True)
    subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)


def compare(base_tree: Path, workloads: list[str], pairs: int, games: int | None, log=print,
            new_tree: Path = ROOT) -> list[dict]:
    rows = []
    for w in workloads:
        n = games or WORKLOADS[w][3]
        old, new = [], []
        for i in range(pairs):
            order = ((base_tree, old), (new_tree, new)) if i % 2 == 0 else ((new_tree, new), (base_tree, old))
            for tree, into in order:
                into.append(_measure(tree, w, n))
            log(f"  {w} pair {i + 1}/{pairs}: old {old[-1]['cpu']:.2f} s, new {new[-1]['cpu']:.2f} s", file=sys.stderr)
        ratios = [o["cpu"] / m["cpu"] for o, m in zip(old, new)]
        rows.append({
            "workload": w, "games": n, "pairs": pairs,
            "old_cpu_s": round(statistics.median(o["cpu"] for o in old), 3),
            "new_cpu_s": round(statistics.median(m["cpu"] for m in new), 3),
            "old_games_per_s": round(n / statistics.median(o["cpu"] for o in old), 1),
            "new_games_per_s": round(n / statistics.median(m["cpu"] for m in new), 1),
            "speedup": round(statistics.median(ratios), 2),
            "speedup_range": [round(min(ratios), 2), round(max(ratios), 2)],
            "same_games": len({x["hash"] for x in old + new}) == 1,
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD~1", help="the old code: a commit, branch or tag (default HEAD~1)")
    ap.add_argument("--workload", action="append", choices=sorted(WORKLOADS), help="repeatable; default all but cli-*")
    ap.add_argument("--pairs", type=int, default=5, help="old/new pairs per workload (default 5)")
    ap.add_argument("--games", type=int, help="games per measurement (default: per workload, see --list)")
    ap.add_argument("--compiled", action="store_true", help="time this tree's compiled build (mypyc) as the new code")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.tree, args.worker, args.games)))
        return 0
    if args.list:
        for name, (_, _, _, n, what) in WORKLOADS.items():
            print(f"{name:<20} {n:>4} games  {what}")
        return 0
    if args.pairs < 1:
        ap.error("--pairs must be at least 1")
    workloads = args.workload or list(DEFAULT_WORKLOADS)
    load_start = os.getloadavg()
    tree, commit = _base_tree(args.base)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    compiled: list[str] = []
    try:
        new_tree = ROOT
        if args.compiled:
            from compiled_build import BuildFailed, build_compiled

            new_tree = tree.parent / "compiled"
            try:
                compiled = build_compiled(new_tree)
            except BuildFailed as e:
                raise SystemExit(str(e)) from None
        rows = compare(tree, workloads, args.pairs, args.games, new_tree=new_tree)
    finally:
        _drop_tree(tree)
    load_end = os.getloadavg()
    new = head + (" + uncommitted changes" if dirty else "") + (f" compiled ({', '.join(compiled)})" if args.compiled else "")
    meta = {"base": commit[:12], "new": new, "python": platform.python_version(),
            "cpus": os.cpu_count(), "load_start": [round(x, 2) for x in load_start], "load_end": [round(x, 2) for x in load_end]}
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows}, indent=2))
        return 0
    print(f"old {meta['base']}  new {meta['new']}  Python {meta['python']}, {meta['cpus']} cores; "
          f"load average (1/5/15 min) {'/'.join(map(str, meta['load_start']))} at start, "
          f"{'/'.join(map(str, meta['load_end']))} at end")
    print(f"CPU time, median of {args.pairs} alternating pairs; speedup = old / new (median of the pairs' ratios, range)")
    print(f"{'workload':<20}{'games':>6}{'old s':>8}{'new s':>8}{'old g/s':>9}{'new g/s':>9}{'speedup':>9}  {'range':<12}same games")
    for r in rows:
        lo, hi = r["speedup_range"]
        print(f"{r['workload']:<20}{r['games']:>6}{r['old_cpu_s']:>8.2f}{r['new_cpu_s']:>8.2f}{r['old_games_per_s']:>9}"
              f"{r['new_games_per_s']:>9}{r['speedup']:>8.2f}x  {lo:.2f}-{hi:.2f}   {'yes' if r['same_games'] else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
