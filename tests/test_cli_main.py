"""The `ttr-maps` program (`ttr_maps.cli.main:main`, the installed script) run as a process: it ends
without tearing the interpreter down, so what it prints, its exit code and the `atexit` functions are
checked here through a pipe, as a shell or pre-commit sees them."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

PROGRAM = (
    "import atexit\n"
    "atexit.register(lambda: print('atexit ran'))  # to the pipe, buffered: lost unless flushed\n"
    "from ttr_maps.cli.main import main\n"
    "main()\n"
)


def run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | {"TTR_MAPS_NO_CACHE": "1"}  # a pipe buffers
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_the_program_prints_everything_and_exits_with_the_commands_code():
    bad = run("validate", "tests/fixtures/bad/bad-key.yaml", "--format", "json")
    assert bad.returncode == 1, bad.stderr
    assert bad.stdout.count('"code": "P008"') == 4 and bad.stdout.endswith("]\natexit ran\n")  # the whole report
    good = run("validate", "tests/fixtures/good/islands.yaml", "--select", "G001")
    assert (good.returncode, good.stdout, good.stderr) == (0, "1 file(s) OK\natexit ran\n", "")
    usage = run("validate")
    assert (usage.returncode, usage.stdout) == (2, "atexit ran\n") and "Missing argument 'FILES...'" in usage.stderr
