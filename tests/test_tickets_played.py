"""Two decks played side by side (ttr_maps/tickets/played.py, benchmarks/bench_ticket_games.py in small)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.simulate.summary import _rate
from ttr_maps.tickets import played
from ttr_maps.tickets.balance import Relation

ROOT = Path(__file__).parent.parent
BOTS = ("expert", "route-focus", "ticket-hungry", "long-route")


def _ticket(key: str, points: int, kept: int, done: int, verdict: str | None = None) -> dict:
    a, b = key.split("-")
    return {"ticket": key, "from": a, "to": b, "points": points, "kept": kept, "completed": done,
            "completion": _rate(done, kept) if kept else None, "verdict": verdict}


def test_figures_of_a_run_worked_out_by_hand() -> None:
    rel = Relation(2 * math.log(3), -4 * math.log(3))  # a 5-point ticket on a 10-space board: 50%
    summary = {
        "meta": {"games": 50},
        "tickets": [_ticket("a-b", 5, 100, 90, "too easy"), _ticket("c-d", 5, 100, 50), _ticket("e-f", 5, 100, 30, "too hard"),
                    _ticket("g-h", 5, 10, 10), _ticket("i-j", 5, 0, 0)],
        "bots": {"expert": {"points": {"tickets": 4.5}, "win": {"rate": 0.6}}, "long-route": {"points": {"tickets": -2.0}, "win": {"rate": 0.4}}},
        "length": {"turns": {"mean": 120.4}},
    }
    f = played.figures(summary, 10, rel)
    assert f["kept"] == 310 and f["completion"]["rate"] == pytest.approx(180 / 310, abs=1e-4)
    # per ticket only the three kept 20+ times: 30%, 50%, 90%
    assert (f["judged"], f["rate_lowest"], f["rate_median"], f["rate_highest"]) == (3, 0.3, 0.5, 0.9)
    assert f["rate_sd"] == pytest.approx(math.sqrt(((0.3 - 17 / 30) ** 2 + (0.5 - 17 / 30) ** 2 + (0.9 - 17 / 30) ** 2) / 3), abs=1e-4)
    assert (f["too_easy"], f["too_hard"], f["tickets"]) == (1, 1, 5)
    # a-b (90%) and e-f (30%) miss the 50% curve; the kept-weighted gap is (40 + 0 + 20) / 3 points
    assert f["out_of_line"] == 2 and f["gap"] == pytest.approx(0.2, abs=1e-4)
    assert f["ticket_points"] == {"expert": 4.5, "long-route": -2.0} and f["turns"] == 120.4


@pytest.mark.slow  # 4 games and a simulate run: about 3 s of CPU
def test_a_few_games_of_each_deck_side_by_side_as_simulate_plays_them(tmp_path: Path) -> None:
    usa = str(ROOT / "maps" / "variants" / "usa.yaml")
    mine = str(ROOT / "examples" / "decks" / "usa-suggested-rules.yaml")
    a = played.play(usa, 2, 1, BOTS)
    b = played.play(mine, 2, 1, BOTS)
    # the published deck's run is `ttr-maps simulate usa -n 2 --seed 1`, game for game
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["simulate", usa, "-n", "2", "--seed", "1", "-o", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    simulated = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [(t["ticket"], t["kept"], t["completed"]) for t in a["tickets"]] == [(t["ticket"], t["kept"], t["completed"]) for t in simulated["tickets"]]
    # each run deals its own deck
    assert {t["ticket"] for t in b["tickets"]} != {t["ticket"] for t in a["tickets"]}
    assert len(b["tickets"]) == 30 and all(t["decks"] == ["suggested"] for t in b["tickets"])
    fa, fb = played.figures(a, 23), played.figures(b, 23)
    assert fa["kept"] == sum(t["kept"] for t in simulated["tickets"]) > 0 and fb["kept"] > 0
    text = played.table(fa, fb, "published", "suggested")
    lines = text.splitlines()
    assert lines[0] == "| | published | suggested |" and lines[1] == "|---|---|---|"
    assert f"| tickets kept (all seats) | {fa['kept']:,} | {fb['kept']:,} |" in lines
