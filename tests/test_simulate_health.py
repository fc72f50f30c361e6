"""`simulate` tells the terminal what a designer must know, and guards its folder:

- a setup deal the ticket piles cannot give out, games that ended because every player passed or
  at the action cap: warnings on standard error, errors (exit 1) with `--strict`;
- a killed run leaves hidden temporary files: the next run into the folder removes them (and a folder
  holding only them is still ours);
- two runs into one folder at once: the second is refused while the first writes (real processes).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.simulate import runner
from ttr_maps.simulate.health import abnormal_ends, deal_shortfall
from ttr_maps.simulate.output import LOCK

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "tests" / "fixtures" / "good"
USA = str(ROOT / "maps" / "variants" / "usa.yaml")


def _islands(tmp_path: Path, deal: str | None = None) -> Path:
    """The islands test board: its 'long' pile is empty and no route can be paid for, so every game ends in passes."""
    for name in ("islands.yaml", "islands-rules.yaml"):
        text = (GOOD / name).read_text(encoding="utf-8")
        if deal and name == "islands-rules.yaml":
            text = text.replace("deal: [{pile: long, count: 1}, {pile: short, count: 2}]", deal)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / "islands-rules.yaml"


def _simulate(*args: str):
    return CliRunner().invoke(cli, ["simulate", *args, "-q", "--bots", "random"])


def test_tickets_that_cannot_be_dealt_and_all_passed_games_are_warnings(tmp_path: Path) -> None:
    rules = _islands(tmp_path)
    res = _simulate(str(rules), "-n", "3", "-o", str(tmp_path / "out"))
    assert res.exit_code == 0, res.output
    assert "warning: the setup deal gives 1 ticket from pile 'long' to each of 3 players, but the pile holds 0 (3 needed)" in res.output
    assert "warning: 3 of 3 games ended because every player passed in a row" in res.output
    assert (tmp_path / "out" / "report.html").is_file()


def test_strict_refuses_tickets_that_cannot_be_dealt_before_playing(tmp_path: Path) -> None:
    rules = _islands(tmp_path)
    res = _simulate(str(rules), "-n", "3", "-o", str(tmp_path / "out"), "--strict")
    assert res.exit_code == 1
    assert "error: the setup deal gives 1 ticket from pile 'long'" in res.output
    assert "--strict: the tickets cannot be dealt, so nothing was played" in res.output
    assert not (tmp_path / "out").exists()


def test_strict_fails_after_writing_when_games_end_in_passes(tmp_path: Path) -> None:
    rules = _islands(tmp_path, deal="deal: [{pile: short, count: 1}]")
    res = _simulate(str(rules), "-n", "2", "-p", "2", "-o", str(tmp_path / "out"), "--strict")
    assert res.exit_code == 1, res.output
    assert "setup deal" not in res.output  # 3 short tickets for 2 players: dealt
    assert "error: 2 of 2 games ended because every player passed in a row" in res.output
    assert "--strict: games ended abnormally (the output is in" in res.output
    assert (tmp_path / "out" / "summary.json").is_file()


def test_games_stopped_at_the_action_cap_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _islands(tmp_path, deal="deal: [{pile: short, count: 1}]")
    monkeypatch.setattr(runner, "MAX_ACTIONS", 5)  # a cap every game reaches before its players run out of moves
    res = _simulate(str(rules), "-n", "2", "-p", "2", "-o", str(tmp_path / "out"))
    assert res.exit_code == 0, res.output
    assert "warning: 2 of 2 games were stopped at the action cap without ending" in res.output
    assert "passed" not in res.output
    res = _simulate(str(rules), "-n", "2", "-p", "2", "-o", str(tmp_path / "out"), "--strict")
    assert res.exit_code == 1 and "error: 2 of 2 games were stopped at the action cap" in res.output


def test_bundled_variants_give_no_warning() -> None:
    from ttr_maps.bundled import names
    from ttr_maps.engine.game import Game
    from ttr_maps.load import load_variant

    for name, path in names("variants").items():
        variant, board = load_variant(path)
        for players in range(variant.players.min, variant.players.max + 1):
            assert deal_shortfall(Game(variant, board, players)) == [], (name, players)
    assert abnormal_ends({"meta": {"games": 9}, "end": {"trains": 9}}) == []
    assert abnormal_ends({"meta": {"games": 1}, "end": {"trains": 0, "capped": 1}}) == [
        "1 of 1 game was stopped at the action cap without ending: check the end rule and the trains"]


# --- the output folder, with real processes -----------------------------------------------------------


def _start(out: Path, games: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "from ttr_maps.cli.main import cli; cli()", "simulate", USA, "-n", str(games), "-p", "2",
         "--bots", "random", "-q", "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _temps(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp"))


@pytest.mark.slow
def test_a_second_run_is_refused_and_a_killed_runs_leftovers_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = _start(out, 1_000_000)  # runs until killed
    try:
        deadline = time.monotonic() + 120
        while not (out.is_dir() and _temps(out)):  # the lock is taken before the first temporary file
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first run never started writing"
            time.sleep(0.1)
        second = _start(out, 2)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 1, err
        assert "is being written by another `ttr-maps simulate` run (process" in err
        assert f"process {first.pid} on" in err
        assert first.poll() is None  # the first run goes on
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.communicate()
    left = _temps(out)
    assert left and left[0].startswith(".records.jsonl.")  # what a killed run leaves
    third = _start(out, 2)  # no --force needed: the folder holds only a run's leftovers
    _, err = third.communicate(timeout=120)
    assert third.returncode == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["records.jsonl", "report.html", "run.json", "summary.json"]
    assert not (out / LOCK).exists()
