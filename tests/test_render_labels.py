"""A place's `label: {dx, dy}`: the name drawn where the board says, other names kept off it, the drawn checks told."""

from __future__ import annotations

from pathlib import Path

import yaml

from ttr_maps.checks import run_checks
from ttr_maps.load import load
from ttr_maps.model.board import Board
from ttr_maps.render import plan_board

BOARD = {
    "format": "ttr-board/1",
    "meta": {"title": "Labels"},
    "drawing": {"car_length": 20},
    "places": [
        {"id": "a", "name": "Alpha", "x": 0, "y": 0},
        {"id": "b", "name": "Beta", "x": 100, "y": 0},
        {"id": "c", "name": "Gamma", "x": 0, "y": 100},
        {"id": "d", "name": "Delta", "x": 100, "y": 100},
    ],
    "routes": [
        {"from": "a", "to": "b", "length": 4, "tracks": ["red"]},
        {"from": "a", "to": "c", "length": 4, "tracks": ["blue"]},
        {"from": "b", "to": "d", "length": 4, "tracks": ["green"]},
        {"from": "c", "to": "d", "length": 4, "tracks": ["gray"]},
    ],
}


def _with_label(pid: str, dx: float, dy: float) -> dict:
    data = yaml.safe_load(yaml.safe_dump(BOARD))
    next(p for p in data["places"] if p["id"] == pid)["label"] = {"dx": dx, "dy": dy}
    return data


def _centre(box):
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def test_a_label_offset_puts_the_names_centre_there_in_board_units():
    plan = plan_board(Board.model_validate(_with_label("c", 15, -7.5)))
    gamma = plan.place("c")
    cx, cy = _centre(gamma.label.box)
    assert abs(cx - (gamma.x + 15 * plan.scale)) < 1e-6 and abs(cy - (gamma.y - 7.5 * plan.scale)) < 1e-6
    # The other names are still placed by the renderer, as without the key.
    plain = plan_board(Board.model_validate(BOARD))
    assert plain.place("c").label.box != gamma.label.box
    assert plan.place("d").label == plain.place("d").label


def test_other_names_keep_off_a_name_set_by_hand():
    plain = plan_board(Board.model_validate(BOARD))
    beta = plain.place("b")
    bx, by = _centre(beta.label.box)
    # Alpha's name put exactly where Beta's went (Alpha is named first): Beta's moves elsewhere.
    offset = ((bx - plain.place("a").x) / plain.scale, (by - plain.place("a").y) / plain.scale)
    plan = plan_board(Board.model_validate(_with_label("a", *offset)))
    alpha, beta2 = plan.place("a").label.box, plan.place("b").label.box
    assert max(abs(a - b) for a, b in zip(_centre(alpha), (bx, by))) < 1e-6
    assert min(alpha[2], beta2[2]) <= max(alpha[0], beta2[0]) or min(alpha[3], beta2[3]) <= max(alpha[1], beta2[1])


def test_a_name_set_over_a_car_is_reported_by_the_drawn_checks(tmp_path: Path):
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(BOARD, sort_keys=False), encoding="utf-8")
    assert not run_checks(load(path), ["D007"], config=False)
    path.write_text(yaml.safe_dump(_with_label("a", 50, 0), sort_keys=False), encoding="utf-8")  # on the a-b route's middle
    found = run_checks(load(path), ["D007"], config=False)
    assert found and all("Alpha" in d.message for d in found)
