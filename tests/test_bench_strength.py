"""benchmarks/bench_strength.py, the check that a bot whose decisions changed is no weaker than it was
(issue 18): its verdicts must follow the games, and the old bots must come from the base commit only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_strength import load_base_bots, play  # noqa: E402

from ttr_maps.bots import BOTS  # noqa: E402


def _as_base(cls) -> None:
    BOTS["expert@base"] = type("OldSide", (cls,), {"name": "expert@base"})


def test_a_bot_against_itself_is_exactly_even_on_mirrored_deals():
    # Each deal is played twice with the seats swapped: the same bot on both sides wins exactly half and the
    # score margin is exactly 0 (any seat bias or unpaired deal would show).
    _as_base(BOTS["expert"])
    try:
        r = play("usa", 2, "expert", 6, 3)
    finally:
        del BOTS["expert@base"]
    assert (r["games"], r["win_share"], r["margin"], r["verdict"]) == (6, 0.5, 0.0, "even")


def test_a_much_weaker_old_side_is_reported_and_the_new_one_stronger():
    _as_base(BOTS["random"])
    try:
        r = play("usa", 2, "expert", 20, 1)
    finally:
        del BOTS["expert@base"]
    assert r["win_share"] > 0.9 and r["ci"][0] > 0.5 and r["margin"] > 20
    assert r["verdict"] == "stronger"


def test_a_base_whose_bots_need_a_module_this_tree_lacks_is_refused_by_name(tmp_path):
    bots = tmp_path / "ttr_maps" / "bots"
    bots.mkdir(parents=True)
    (bots / "__init__.py").write_text("from ..engine.gone_module import Thing\nBOTS = {}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="engine.gone_module.*engine API the bots use changed"):
        load_base_bots(tmp_path)


@pytest.mark.slow
def test_the_command_loads_the_base_commits_bots_and_exits_zero_when_not_weaker():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: --base needs the repository's history")
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_strength.py"), "--base", "HEAD",
                          "--variant", "usa", "--players", "2", "--games", "4"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "50.0%" in res.stdout and "even" in res.stdout
