"""Start-up: what a user waits for when a command starts, process start included.

    python benchmarks/bench_startup.py [-n 9]
    python benchmarks/bench_startup.py --tree /tmp/old --tree .   # an older checkout against this one

Runs each command `-n` times as a new process (the installed `ttr-maps` next to
this Python, else `python -m`-style through `ttr_maps.cli.main`) in a temporary
folder, interleaving the commands so a change in the machine's load touches them
all alike, and prints per command the median wall time and the median CPU time
(user + system of the child), with the load average before and after. Medians,
not best-of-N. The commands: `ttr-maps --help`; `ttr-maps validate usa` (the
README's first command: the USA rules and board, every check) as a user runs it
again on an unchanged file (the checks' findings come from the cache, see
ttr_maps/checks/cache.py), and with `--no-cache` as on the first run after an
install or a change (`--ignore D` too: the same without the drawing checks, which
lay the board out as `render` does); the Paris board alone, cached; `ttr-maps stats usa`,
`ttr-maps tickets score usa` and `ttr-maps score` of examples/positions/usa.yaml (final scoring).

The children get a fresh cache folder (TTR_MAPS_CACHE_DIR) and may write
bytecode (PYTHONDONTWRITEBYTECODE is dropped): an installed wheel has its .pyc
files, so a run without them would measure compiling, which a user never waits for.
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
    "validate usa --no-cache": ["validate", "usa", "--no-cache"],
    "validate usa --no-cache --ignore D": ["validate", "usa", "--no-cache", "--ignore", "D"],
    "validate paris": ["validate", "paris"],
    "stats usa": ["stats", "usa"],
    "tickets score usa": ["tickets", "score", "usa"],
    "score examples/positions/usa.yaml": ["score", str(Path(__file__).resolve().parent.parent / "examples" / "positions" / "usa.yaml")],
}


def executable() -> list[str]:
    here = Path(sys.executable).parent / "ttr-maps"
    if here.exists():
        return [str(here)]
    found = shutil.which("ttr-maps")
    return [found] if found else [sys.executable, "-c", "from ttr_maps.cli.main import main; main()"]


def run_once(cmd: list[str], cwd: str) -> tuple[float, float, int]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TTR_MAPS_NO_CACHE")}
    env["TTR_MAPS_CACHE_DIR"] = os.path.join(cwd, ".cache")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=9, help="process runs per command (default 9)")
    parser.add_argument("--tree", action="append", default=[], metavar="DIR",
                        help="run the code of this checkout (e.g. a `git worktree` of an older commit) instead of the installed "
                             "`ttr-maps`; repeatable, the trees' runs interleaved (a command a tree does not know shows n/a)")
    args = parser.parse_args()
    # A tree's program as its `ttr-maps` script runs it (`main`; before it had one, the click group `cli`).
    exes = {t: [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(Path(t).resolve())!r}); import cli.main as m; getattr(m, 'main', m.cli)()"]
            for t in args.tree} or {"installed": executable()}
    rows = [(t, name) for t in exes for name in COMMANDS]
    walls: dict[tuple[str, str], list[float]] = {r: [] for r in rows}
    cpus: dict[tuple[str, str], list[float]] = {r: [] for r in rows}
    failed: set[tuple[str, str]] = set()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as top:
        dirs = {t: tempfile.mkdtemp(dir=top) for t in exes}
        for t, name in rows:  # one warm-up each (bytecode, the findings cache)
            if run_once(exes[t] + COMMANDS[name], dirs[t])[2] == 2:
                failed.add((t, name))  # a usage error: an option this tree does not have
        for _ in range(args.n):
            for t, name in rows:
                if (t, name) in failed:
                    continue
                wall, cpu, _ = run_once(exes[t] + COMMANDS[name], dirs[t])
                walls[t, name].append(wall)
                cpus[t, name].append(cpu)
    load_after = os.getloadavg()
    print(f"{args.n} runs each, interleaved; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} cores)")
    for t in exes:
        print(f"{t}: {' '.join(exes[t]) if t == 'installed' else ''}".rstrip())
        print(f"  {'command':<36} {'wall (median)':>14} {'CPU (median)':>13}")
        for name in COMMANDS:
            if (t, name) in failed:
                print(f"  {name:<36} {'n/a':>14} {'n/a':>13}")
            else:
                print(f"  {name:<36} {statistics.median(walls[t, name]):>12.2f} s {statistics.median(cpus[t, name]):>11.2f} s")


if __name__ == "__main__":
    main()
