"""The checks of the drawn board (D006-D009): what they report on a crowded fan, and that their advice works."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ttr_maps.checks import run_checks
from ttr_maps.load import load
from ttr_maps.render import plan_board
from ttr_maps.render.conflicts import car_overlaps

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "checks"
FAN = FIXTURES / "D006" / "fail.yaml"


def test_the_crowded_fan_names_both_routes_of_each_overlap_and_a_bend_point():
    diags = run_checks(load(FAN), ["D006"], config=False)
    assert [(d.line, d.message.split(" by ")[0]) for d in diags] == [
        (16, "the cars of route hub–n1 overlap the cars of route hub–n2 (line 17)"),
        (16, "the cars of route hub–n1 overlap the cars of route hub–n3 (line 18)"),
        (16, "the cars of route hub–n1 overlap the cars of route hub–n4 (line 19)"),
        (18, "the cars of route hub–n3 overlap the cars of route hub–n2 (line 17)"),
        (19, "the cars of route hub–n4 overlap the cars of route hub–n2 (line 17)"),
        (19, "the cars of route hub–n4 overlap the cars of route hub–n3 (line 18)"),
        (20, "the cars of route hub–n5 overlap the cars of route hub–n2 (line 17)"),
        (20, "the cars of route hub–n5 overlap the cars of route hub–n3 (line 18)"),
        (20, "the cars of route hub–n5 overlap the cars of route hub–n4 (line 19)"),
    ]
    # The spokes have bend points (the router follows them as given), so the advice moves them.
    bend = r"move its bend points to `bend: \[\[[-\d.]+, [-\d.]+\]\]` \([\d.]+ car lengths? aside\), which draws it clear$"
    stuck = r"no single bend point draws it clear: move 'hub' or 'n\d', or bend the routes by hand$"
    assert [bool(re.search(bend, d.message) or re.search(stuck, d.message)) for d in diags] == [True] * 9
    assert re.search(bend, diags[0].message) and re.search(bend, diags[-1].message)


def test_the_suggested_bend_point_draws_the_route_clear_as_rendered():
    loaded = load(FAN)
    board = loaded.board
    (first, *_) = run_checks(loaded, ["D006"], config=False)
    bend = tuple(tuple(p) for p in ast.literal_eval(re.search(r"`bend: (.*?)`", first.message).group(1)))
    k = first.line - 16  # the routes start at line 16, one a line
    routes = list(board.routes)
    routes[k] = routes[k].model_copy(update={"bend": bend})
    plan = plan_board(board.model_copy(update={"routes": tuple(routes)}))
    ends = (routes[k].from_, routes[k].to)
    assert not [o for o in car_overlaps(plan) if ends in o.ends(plan)]


def test_drawn_checks_are_skipped_with_one_finding_past_max_places(tmp_path):
    settings_file = tmp_path / "ttr-maps.toml"
    settings_file.write_text("[checks.options.D006]\nmax_places = 3\n", encoding="utf-8")
    board = tmp_path / "fan.yaml"
    board.write_text(FAN.read_text(encoding="utf-8"), encoding="utf-8")
    diags = run_checks(load(board), ["D006"])
    assert [(d.line, d.message.split(":")[0]) for d in diags] == [(8, "the drawn board is not checked")]
