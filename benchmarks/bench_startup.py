"""Start-up: what a user waits for when a command starts, process start included.

    python benchmarks/bench_startup.py [-n 9]

Runs each command `-n` times as a new process (the installed `ttr-maps` next to
this Python, else `python -m`-style through `ttr_maps.cli.main`) in a temporary
folder, interleaving the commands so a change in the machine's load touches them
all alike, and prints per command the median wall time and the median CPU time
(user + system of the child), with the load average before and after. Medians,
not best-of-N. The commands: `ttr-maps --help`, `ttr-maps validate usa` (the
README's first command: the USA rules and board, every check), the same without
D002 (which lays the board out as `render` does), and the Paris board alone.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = {
    "--help": ["--help"],
    "validate usa": ["validate", "usa"],
    "validate usa --ignore D002": ["validate", "usa", "--ignore", "D002"],
    "validate paris": ["validate", "paris"],
}


def executable() -> list[str]:
    here = Path(sys.executable).parent / "ttr-maps"
    if here.exists():
        return [str(here)]
    found = shutil.which("ttr-maps")
    return [found] if found else [sys.executable, "-c", "from ttr_maps.cli.main import cli; cli()"]


def run_once(cmd: list[str], cwd: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=9, help="process runs per command (default 9)")
    args = parser.parse_args()
    exe = executable()
    walls: dict[str, list[float]] = {k: [] for k in COMMANDS}
    cpus: dict[str, list[float]] = {k: [] for k in COMMANDS}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as cwd:
        for name, cmd in COMMANDS.items():  # one warm-up each (bytecode caches)
            run_once(exe + cmd, cwd)
        for _ in range(args.n):
            for name, cmd in COMMANDS.items():
                wall, cpu = run_once(exe + cmd, cwd)
                walls[name].append(wall)
                cpus[name].append(cpu)
    load_after = os.getloadavg()
    print(f"{' '.join(exe)}; {args.n} runs each, interleaved; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} cores)")
    print(f"{'command':<30} {'wall (median)':>14} {'CPU (median)':>13}")
    for name in COMMANDS:
        print(f"{name:<30} {statistics.median(walls[name]):>12.2f} s {statistics.median(cpus[name]):>11.2f} s")


if __name__ == "__main__":
    main()
