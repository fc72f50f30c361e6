"""A simulation's output folder: records.jsonl, summary.json, report.html and run.json, each written atomically.

run.json (written last) marks a folder as a `ttr-maps simulate` output: such a
folder may be written again; any other non-empty folder only with `force`.

A run holds a lock on the folder (an flock on `.ttr-simulate.lock`, released by the
system when the process ends, even when it is killed), so a second run into the same
folder is refused while the first one writes. Under the lock, a run first removes the
hidden temporary files a killed run left behind (`.records.jsonl.*.tmp`...).
"""

from __future__ import annotations

import json
import os
import re
import socket
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

from .. import __version__
from .report import build_report
from .runner import RunSpec, game_for, run_games
from .summary import SUMMARY_FORMAT, summarize

OUTPUT_FORMAT = "ttr-simulate/1"
RECORDS, SUMMARY, REPORT, RUN = "records.jsonl", "summary.json", "report.html", "run.json"
LOCK = ".ttr-simulate.lock"
# The temporary files a run writes before renaming them (tempfile.mkstemp names: `.records.jsonl.k3j_x9.tmp`).
_TEMP = re.compile(r"\.(?:%s)\.[A-Za-z0-9_]+\.tmp" % "|".join(re.escape(n) for n in (RECORDS, SUMMARY, REPORT, RUN)))


class OutputError(Exception):
    """The output folder cannot be used (or read): the message says why."""


def is_simulate_output(folder: Path) -> bool:
    try:
        data = json.loads((folder / RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == OUTPUT_FORMAT


def check_output_dir(folder: str | Path, force: bool = False) -> Path:
    p = Path(folder)
    if p.exists():
        if not p.is_dir():
            raise OutputError(f"{p} exists and is not a folder")
        if is_simulate_output(p) or force or all(_ours(e.name) for e in p.iterdir()):
            return p  # (a folder holding only a killed run's leftovers is ours too)
        raise OutputError(
            f"{p} exists and is not a previous `ttr-maps simulate` output (it has no {RUN}); "
            "choose a new folder, or add --force to write into it anyway"
        )
    return p


def read_records(path: str | Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def simulate_to(spec: RunSpec, folder: str | Path, workers: int = 1, scheduler: str | None = None, force: bool = False,
                progress: Callable[[int], None] | None = None, variant_label: str | None = None) -> dict:
    """Play the run and write the folder; returns the summary."""
    out = check_output_dir(folder, force)
    created = _make_dirs(out)
    try:
        with _locked(out):
            _remove_leftovers(out)
            summary = _write_run(spec, out, workers, scheduler, progress, variant_label)
    except BaseException:
        _remove_empty(created)  # a run that failed (a Dask scheduler out of reach...) leaves no folder behind
        raise
    _readable(out)
    return summary


def _ours(name: str) -> bool:
    """A file a simulate run writes into its folder, or leaves there when killed."""
    return name in (RECORDS, SUMMARY, REPORT, RUN, LOCK) or bool(_TEMP.fullmatch(name))


def _remove_leftovers(out: Path) -> None:
    """Remove the temporary files of runs killed before they could (the caller holds the lock)."""
    for entry in out.iterdir():
        if _TEMP.fullmatch(entry.name):
            try:
                entry.unlink()
            except OSError:
                pass


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold the folder's lock while the block runs; OutputError when another run holds it."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    path = out / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
            os.close(fd)
            raise OutputError(
                f"{out} is being written by another `ttr-maps simulate` run ({holder or 'a running process'}); "
                "wait for it to finish, or choose another folder with -o"
            ) from None
        try:  # the run that held the lock may have removed the file between our open and our lock
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"process {os.getpid()} on {socket.gethostname()}, since {time.strftime('%Y-%m-%d %H:%M:%S')}".encode(), 0)
        yield
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(fd)


def _write_run(spec: RunSpec, out: Path, workers: int, scheduler: str | None,
               progress: Callable[[int], None] | None, variant_label: str | None) -> dict:
    """Play the games and write the four files into `out`; a failure leaves no temporary file."""
    start = time.perf_counter()
    cpu0 = time.process_time()
    # Every file is written to a temporary name first and all are renamed at the end, so a run that fails
    # half-way (a full disk, a scheduler out of reach, Ctrl-C) leaves a previous run's folder as it was.
    temps: dict[str, str] = {}
    try:
        fd, temps[RECORDS] = tempfile.mkstemp(dir=out, prefix=f".{RECORDS}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            for line in run_games(spec, workers=workers, scheduler=scheduler, progress=progress):
                f.write(line)
                f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        elapsed = time.perf_counter() - start
        game = game_for(spec.source)
        meta = {
            "variant": variant_label or spec.source.variant_path,
            "bots": list(spec.bots),
            "seed": spec.seed,
            "observation": spec.observation,
            **({"bot_options": [list(o) for o in spec.bot_options]} if spec.bot_options else {}),
            "version": __version__,
            "seat_rotation": "game i gives seat s the bot bots[(s + i) % players]",
        }
        summary = summarize(read_records(temps[RECORDS]), game, meta)
        temps[SUMMARY] = _temp_file(out, SUMMARY, json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
        temps[REPORT] = _temp_file(out, REPORT, build_report(summary, game.board, game.variant))
        run = {
            "format": OUTPUT_FORMAT,
            "files": [RECORDS, SUMMARY, REPORT],
            "games": spec.games,
            "workers": workers,
            "scheduler": scheduler,
            "seconds": round(elapsed, 3),
            "games_per_second": round(spec.games / elapsed, 2) if elapsed > 0 else None,
            "main_process_cpu_seconds": round(time.process_time() - cpu0, 3),
        }
        temps[RUN] = _temp_file(out, RUN, json.dumps(run, indent=1) + "\n")
        for name in (RECORDS, SUMMARY, REPORT, RUN):
            os.replace(temps[name], out / name)
            del temps[name]
    except BaseException:
        for tmp in temps.values():
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    return summary


def _temp_file(out: Path, name: str, text: str) -> str:
    """`text` in a new hidden temporary file beside `name` in `out`, on disk (fsync); its path."""
    fd, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _make_dirs(out: Path) -> list[Path]:
    """Create `out` (and missing parents); the folders created, deepest first."""
    missing = []
    p = out
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    out.mkdir(parents=True, exist_ok=True)
    return missing


def _remove_empty(created: list[Path]) -> None:
    for p in created:
        try:
            p.rmdir()  # only if still empty
        except OSError:
            break


def _readable(out: Path) -> None:
    """Temporary files are created private; the outputs get the usual permissions (as the umask allows)."""
    mask = os.umask(0)
    os.umask(mask)
    for name in (RECORDS, SUMMARY, REPORT, RUN):
        try:
            os.chmod(out / name, 0o666 & ~mask)
        except OSError:
            pass


def load_summary(folder: str | Path) -> dict:
    """The summary of a simulate output folder; OutputError with a clear message otherwise."""
    p = Path(folder)
    if not p.is_dir():
        raise OutputError(f"{p} is not a folder (give a `ttr-maps simulate` output folder)")
    try:
        data = json.loads((p / SUMMARY).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OutputError(f"{p} has no {SUMMARY}: is it a `ttr-maps simulate` output folder?") from None
    except (OSError, ValueError) as e:
        raise OutputError(f"{p / SUMMARY} cannot be read: {e}") from None
    if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
        raise OutputError(f"{p / SUMMARY} is not a simulation summary ({SUMMARY_FORMAT})")
    from .compare import summary_problem

    problem = summary_problem(data)
    if problem is not None:
        raise OutputError(f"{p / SUMMARY} is damaged: {problem}; run `ttr-maps simulate` again to rewrite it")
    return data
