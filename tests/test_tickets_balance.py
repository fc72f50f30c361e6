"""`ttr-maps tickets balance`: the completion curve, the verdicts worked out by hand, and writing values."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.load import load_variant
from ttr_maps.simulate.summary import _rate
from ttr_maps.tickets.balance import MAX_STEP, Relation, fit, judge, with_values

FIXTURES = Path(__file__).parent / "fixtures" / "tickets"


def test_fit_recovers_the_curve_through_two_groups_of_tickets() -> None:
    # x = 0.25 completed 75 of 100, x = 0.75 completed 25 of 100: the curve passes through both,
    # so a + 0.25 b = ln 3 and a + 0.75 b = -ln 3, i.e. b = -4 ln 3, a = 2 ln 3.
    rel = fit([(0.25, 100, 75), (0.75, 100, 25)])
    assert rel.b == pytest.approx(-4 * math.log(3), abs=1e-5)
    assert rel.a == pytest.approx(2 * math.log(3), abs=1e-5)
    assert rel.rate(5, 10) == pytest.approx(0.5, abs=1e-6)
    assert rel.value_for(0.75, 10) == pytest.approx(2.5, abs=1e-4)


def _ticket(key: str, points: int, kept: int, done: int) -> dict:
    a, b = key.split("-")
    return {"ticket": key, "from": a, "to": b, "points": points, "kept": kept, "completed": done, "completion": _rate(done, kept)}


def test_judge_proposes_values_only_for_tickets_whose_interval_misses_the_curve() -> None:
    rel = Relation(2 * math.log(3), -4 * math.log(3))  # a 5-point ticket on a 10-space board: 50%
    summary = {"tickets": [_ticket("a-b", 5, 100, 90), _ticket("c-d", 5, 100, 50), _ticket("e-f", 5, 100, 30),
                           _ticket("g-h", 5, 10, 10)]}
    verdicts = {v.ticket: v for v in judge(summary, 10, rel, min_kept=20)}
    assert set(verdicts) == {"a-b", "c-d", "e-f"}  # g-h was kept too rarely to judge
    # 90% (82.6-94.5%) is above 50%: the curve gives 90% at value 0, so the value falls by at most MAX_STEP
    assert verdicts["a-b"].ci[0] > 0.5 and verdicts["a-b"].proposed == 5 - MAX_STEP
    assert verdicts["c-d"].proposed is None  # 50% is on the curve
    # 30%: logit(0.3) = -0.847 = a + b v / 10 gives v = 6.93, so 7
    assert verdicts["e-f"].ci[1] < 0.5 and verdicts["e-f"].proposed == 7


def test_with_values_changes_points_by_ticket_index() -> None:
    variant, board = load_variant(FIXTURES / "square-rules.yaml")
    v2, b2 = with_values(variant, board, {0: 9, 2: 1})
    assert [t.points for t in b2.tickets] == [9, 2, 1, 1]
    assert [t.points for t in board.tickets] == [4, 2, 3, 1]


def test_balance_writes_only_when_asked_in_place_keeping_comments(tmp_path: Path) -> None:
    for name in ("square.yaml", "square-rules.yaml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    board = tmp_path / "square.yaml"
    before = board.read_text(encoding="utf-8")
    args = ["tickets", "balance", str(tmp_path / "square-rules.yaml"), "-n", "40", "--min-kept", "5", "-q", "--seed", "3"]
    report = CliRunner().invoke(cli, args)
    assert report.exit_code == 0, report.output
    assert board.read_text(encoding="utf-8") == before  # nothing written without --write or -o
    assert "round 1 (seed 3, 40 games): tickets completed" in report.output
    wrote = CliRunner().invoke(cli, [*args, "--write"])
    assert wrote.exit_code == 0, wrote.output
    listed = report.output.split("proposed values: ")[1].splitlines()[0].split(": ", 1)[1]
    proposed = dict(item.rsplit(" ", 1) for item in listed.split(", "))
    assert proposed, "the square board's d–c, completed in every game, is easier than 3 points"
    after = yaml.safe_load(board.read_text(encoding="utf-8"))
    got = {f"{t['from']}-{t['to']}": t["points"] for t in after["tickets"]}
    old = {f"{t['from']}-{t['to']}": t["points"] for t in yaml.safe_load(before)["tickets"]}
    assert {k: v for k, v in got.items() if v != old[k]} == {k: int(v) for k, v in proposed.items()}
    changed = [ln for ln in board.read_text(encoding="utf-8").splitlines() if ln not in before.splitlines()]
    assert len(changed) == len(proposed) and board.read_text(encoding="utf-8").startswith(before.splitlines()[0])


def test_balance_refuses_bundled_files_and_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["tickets", "balance", "usa", "-n", "1", "--write", "-q"])
    assert result.exit_code == 1 and "is a bundled file" in result.output
    result = CliRunner().invoke(cli, ["tickets", "balance", str(FIXTURES / "square.yaml"), "-n", "1", "-q"])
    assert result.exit_code == 1 and "balance plays a variant" in result.output
    result = CliRunner().invoke(cli, ["tickets", "balance", str(FIXTURES / "square-rules.yaml"), "--bots", "nobody"])
    assert result.exit_code == 1 and "unknown bot 'nobody'" in result.output


def test_own_yardstick_is_the_curve_of_the_first_round() -> None:
    args = ["tickets", "balance", str(FIXTURES / "square-rules.yaml"), "-n", "30", "--min-kept", "1", "-q", "--yardstick", "own",
            "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = __import__("json").loads(result.stdout)
    rows = [(t["value"] / 4, t["kept"], t["completed"]) for t in data["rounds"][0]["tickets"]]  # diameter 4
    assert data["relation"] == fit(rows).__dict__
