"""Time and peak memory of the main commands on large valid boards, process start included.

    python benchmarks/bench_sizes.py                          # 1,000, 5,000 and 20,000 places
    python benchmarks/bench_sizes.py --places 1000 --repeat 3 --commands validate,simulate
    python benchmarks/bench_sizes.py --timeout 900 --memory-gb 6
    python benchmarks/bench_sizes.py --places 20000 --dense   # about 3 routes per place

Writes a synthetic board of N places as small as the format allows (short ids and
names, a jittered grid: every place joined to its right neighbour, a share of them
to the place below, so the largest board stays under the reader's limits of 4 MiB
and 500,000 values; with --dense, every place to its right, lower and lower-right
neighbours, the most routes a board without crossings gets from a grid), one ticket
per 8 places and a variant for 2-5 players. Then
runs each command as its own process (`ttr-maps ...`, as a user waits for it) and
reports the median wall time, CPU time (user + system: what the machine's load does
not inflate) and peak resident memory (the child's ru_maxrss) of `--repeat` runs, with
its exit status and the first line of its message:

- validate VARIANT            (load board and variant, every design check; no findings cache)
- render VARIANT -o board.svg
- state new VARIANT -p 4 -o state.yaml
- simulate VARIANT -n 2 --bots random -o DIR
- simulate VARIANT -n 2 -o DIR  (simulate-bots: the default planning bots)
- layout: render's plan_board and draw_board in one process, with no size limit

A run past `--timeout` seconds is killed and reported as such; `--memory-gb` caps
each process's address space (so a run that would exhaust the machine ends in
MemoryError instead). The figures are in docs/limits.md; --markdown prints its rows.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLORS = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green", "gray")

VARIANT = """format: ttr-variant/1
name: Synthetic size rules
board: board.yaml
players: {min: 2, max: 5}
trains: 45
"""

PYTHON = "{python}"  # a command run by this Python, not by `ttr-maps`
COMMANDS = {
    "validate": ["validate", "{variant}"],
    "render": ["render", "{variant}", "-o", "{tmp}/board.svg"],
    "state-new": ["state", "new", "{variant}", "-p", "4", "-s", "1", "-o", "{tmp}/state.yaml"],
    "simulate": ["simulate", "{variant}", "-n", "2", "--bots", "random", "-q", "-o", "{tmp}/sim"],
    "simulate-bots": ["simulate", "{variant}", "-n", "2", "-q", "-o", "{tmp}/sim"],
    # The layout and SVG alone, past the commands' drawing limit (docs/limits.md#drawing).
    "layout": [PYTHON, "-c", "import sys; from ttr_maps.load import load_variant; from ttr_maps.render import BoardOptions, plan_board; "
               "from ttr_maps.render.board import draw_board; v, b = load_variant(sys.argv[1]); draw_board(plan_board(b, v, BoardOptions()))",
               "{variant}"],
}
DEFAULT_COMMANDS = ("validate", "render", "state-new", "simulate")


def board_yaml(places: int, rng: random.Random, down_share: float | None = None, dense: bool = False) -> tuple[str, int, int]:
    """A compact valid board of about `places` places; (text, places, routes). `dense`: about 3 routes per place."""
    cols = max(2, round(places ** 0.5))
    if down_share is None:  # enough links to be a board, few enough for the 500,000-value limit
        down_share = 0.5 if places <= 6000 else 0.2
    cells = [(k // cols, k % cols) for k in range(places)]
    lines = ["format: ttr-board/1", "meta: {title: Size benchmark}", "drawing: {car_length: 1.0}", "places:"]
    for i, j in cells:
        x = j * 3 + rng.uniform(-0.5, 0.5)
        y = i * 3 + rng.uniform(-0.5, 0.5)
        lines.append(f"- {{id: p{i}x{j}, name: P{i}x{j}, x: {x:.1f}, y: {y:.1f}}}")
    lines.append("routes:")
    routes = 0
    for k, (i, j) in enumerate(cells):
        ends = []
        if j + 1 < cols and k + 1 < places:
            ends.append(f"p{i}x{j + 1}")
        if k + cols < places and (dense or j == 0 or rng.random() < down_share):
            ends.append(f"p{i + 1}x{j}")
        if dense and j + 1 < cols and k + cols + 1 < places:
            ends.append(f"p{i + 1}x{j + 1}")
        for to in ends:
            lines.append(f"- {{from: p{i}x{j}, to: {to}, length: {rng.randint(1, 4)}, tracks: [{rng.choice(COLORS)}]}}")
            routes += 1
    lines.append("tickets:")
    ids = [f"p{i}x{j}" for i, j in cells]
    for _ in range(max(10, len(ids) // 8)):
        a, b = rng.sample(ids, 2)
        lines.append(f"- {{from: {a}, to: {b}, points: {rng.randint(4, 30)}, decks: [main]}}")
    return "\n".join(lines) + "\n", len(ids), routes


def run(args: list[str], timeout: float, memory: int | None) -> tuple[float, float, float, int | str, str]:
    """(wall s, CPU s, peak MB, exit status or 'killed', first line of output) of one command in its own process."""
    script = Path(sys.executable).parent / "ttr-maps"
    if args[0] == PYTHON:
        cmd = [sys.executable, *args[1:]]
    else:
        cmd = [str(script) if script.exists() else "ttr-maps", *args]

    def limit() -> None:
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        env = {**os.environ, "TTR_MAPS_NO_CACHE": "1"}  # a repeated validate would read its findings from the cache
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, preexec_fn=limit, env=env)
        status: int | str
        while True:
            pid, st, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(st)
                break
            if time.perf_counter() - t0 > timeout:
                proc.kill()
                _, st, usage = os.wait4(proc.pid, 0)
                status = "killed"
                break
            time.sleep(0.05)
        proc.returncode = 0
        wall = time.perf_counter() - t0
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("  ")]
    first = next((ln for ln in lines if "error" in ln.lower() or "Traceback" in ln), lines[0] if lines else "")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, status, first[:160]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--places", type=int, action="append", help="board size (repeatable); default 1000, 5000, 20000")
    ap.add_argument("--commands", default=",".join(DEFAULT_COMMANDS), help=f"comma-separated, of {', '.join(COMMANDS)}")
    ap.add_argument("--dense", action="store_true", help="about 3 routes per place (right, lower and lower-right neighbours)")
    ap.add_argument("--markdown", action="store_true", help="also print each result as a row of docs/limits.md's table")
    ap.add_argument("--repeat", type=int, default=1, help="runs per command (median reported)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    ap.add_argument("--memory-gb", type=float, default=8, help="address-space cap per process (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    memory = int(args.memory_gb * 1024**3) or None
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown:
        ap.error(f"unknown command {', '.join(unknown)}; known: {', '.join(COMMANDS)}")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    date = time.strftime("%Y-%m-%d")
    print(f"load average {os.getloadavg()[0]:.1f}; timeout {args.timeout:.0f} s; memory cap {args.memory_gb:g} GB; "
          f"commit {commit or '?'}; {date}")
    for places in args.places or [1000, 5000, 20000]:
        tmp = Path(tempfile.mkdtemp(prefix="ttr-sizes-"))
        try:
            text, n, routes = board_yaml(places, random.Random(args.seed), dense=args.dense)
            (tmp / "board.yaml").write_text(text, encoding="utf-8")
            (tmp / "variant.yaml").write_text(VARIANT, encoding="utf-8")
            print(f"\n{n} places, {routes} routes, {max(10, n // 8)} tickets ({len(text) / 1e6:.2f} MB of YAML)")
            for name in commands:
                argv = [a if a == PYTHON else a.format(variant=tmp / "variant.yaml", tmp=tmp) for a in COMMANDS[name]]
                results = []
                loads = []
                for _ in range(args.repeat):
                    shutil.rmtree(tmp / "sim", ignore_errors=True)
                    loads.append(os.getloadavg()[0])
                    results.append(run(argv, args.timeout, memory))
                wall = statistics.median(r[0] for r in results)
                cpu = statistics.median(r[1] for r in results)
                peak = statistics.median(r[2] for r in results)
                status, first = results[-1][3], results[-1][4]
                print(f"  {name:<13} {wall:8.2f} s  {cpu:8.2f} s CPU  {peak:7.0f} MB  exit {status}  {first if status != 0 else ''}".rstrip(),
                      flush=True)
                if args.markdown:
                    shown = "layout" if name == "layout" else " ".join(a.format(variant="variant.yaml", tmp=".") for a in COMMANDS[name]).replace("./", "")
                    outcome = "done" if status == 0 else ("killed at the timeout" if status == "killed" else f"exit {status}: {first}")
                    print(f"| `{shown}` | {n:,} | {routes:,} | {wall:.1f} s | {cpu:.1f} s | {peak:.0f} MB | {outcome} | "
                          f"{statistics.median(loads):.1f} | {date} {commit} |", flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
