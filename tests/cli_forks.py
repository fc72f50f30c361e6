"""Run `ttr-maps` commands each in a process of its own, forked from one that imported the command line once.

A test that runs many commands as processes (tests/test_load_robustness.py: a time limit and a memory cap
on each) spent half a second of CPU on each starting Python and importing ttr_maps. `python cli_forks.py`
imports the command line (and what `validate` imports), then for each request read from stdin (one JSON line: args, the files for the
output, a memory cap and a time limit) forks a child that caps its memory, sends its output to those files
and runs the command; it answers with one JSON line: the exit code, or that the time ran out (the child is
killed). `Forks` is the test's side.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path


class _TimeUp(Exception):
    pass


def _child(request: dict) -> None:
    """In the forked child: cap the memory, point stdout and stderr at the files, run the command, exit."""
    import io
    import resource
    import traceback

    from ttr_maps.cli.main import cli

    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # not the requests' pipe
    os.close(devnull)
    cap = request["memory"]
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="strict", line_buffering=False)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True)
    code = 1
    try:
        cli.main(request["args"], prog_name="ttr-maps")
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def serve() -> None:
    import gc

    # Imported once, here: what the children share (`validate` imports the loader, the models and the checks
    # when it runs).
    import ttr_maps.checks  # noqa: F401
    import ttr_maps.load  # noqa: F401
    from ttr_maps.cli.main import cli  # noqa: F401

    gc.freeze()  # the children's garbage collector leaves the shared objects (and their memory pages) alone

    def time_up(signum, frame):
        raise _TimeUp

    signal.signal(signal.SIGALRM, time_up)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        signal.alarm(request["timeout"])
        try:
            _, status = os.waitpid(pid, 0)
            signal.alarm(0)
            answer = {"returncode": os.waitstatus_to_exitcode(status)}
        except _TimeUp:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            answer = {"timeout": True}
        print(json.dumps(answer), flush=True)


class Forks:
    """The test's side: `run(args, folder)` -> subprocess.CompletedProcess (stdout and stderr as text)."""

    def __init__(self, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def run(self, args: list[str], folder: Path, *, timeout: int, memory: int) -> subprocess.CompletedProcess:
        out, err = folder / "cli-stdout.txt", folder / "cli-stderr.txt"
        request = {"args": args, "stdout": str(out), "stderr": str(err), "timeout": timeout, "memory": memory}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(["ttr-maps", *args], timeout)
        read = lambda p: p.read_text(encoding="utf-8", errors="replace") if p.exists() else ""  # noqa: E731
        return subprocess.CompletedProcess(["ttr-maps", *args], answer["returncode"], read(out), read(err))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


if __name__ == "__main__":
    serve()
