"""Deck figures on a hand-built board (tests/fixtures/tickets/square.yaml), every answer worked out by hand.

    a --2-- b --2-- c        x: a country joined to a and c by 1 space each
    |               |
    1               1        deck `main`: a–c (4), a–b (2), d–c (3)
    |               |
    d ------2------ e

a–c has two shortest paths of 4 spaces (a-b-c and a-d-e-c; a-x-c is 2 but passes a country),
so each of its routes carries half of it. a–b rides a–b alone; d–c rides d-e-c (3 < d-a-b-c 5).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_maps.load import load_board
from ttr_maps.model.board import Ticket
from ttr_maps.tickets.figures import deck_figures
from ttr_maps.tickets.paths import BoardPaths

SQUARE = Path(__file__).parent / "fixtures" / "tickets" / "square.yaml"


@pytest.fixture(scope="module")
def paths() -> BoardPaths:
    return BoardPaths(load_board(SQUARE))


@pytest.fixture(scope="module")
def figures(paths: BoardPaths):
    return deck_figures(paths, paths.board.tickets_in(["main"]))


def _loads(paths: BoardPaths, load: dict[int, float]) -> dict[str, float]:
    return {paths.edges[e].name: round(v, 6) for e, v in load.items()}


def test_distances_never_pass_a_country(paths: BoardPaths) -> None:
    assert paths.distance("a", "c") == 4  # a-x-c would be 2
    assert paths.distance("a", "x") == 1  # a country is an end
    assert paths.distance("x", "e") == 2  # and a start
    assert paths.diameter == 4  # a–c, between cities


def test_a_ticket_with_two_shortest_paths_puts_half_on_each(paths: BoardPaths) -> None:
    assert _loads(paths, paths.load("a", "c")) == {"a–b": 0.5, "b–c": 0.5, "a–d": 0.5, "d–e": 0.5, "c–e": 0.5}
    assert _loads(paths, paths.load("d", "c")) == {"d–e": 1.0, "c–e": 1.0}
    assert _loads(paths, paths.load("a", "x")) == {"a–x": 1.0}


def test_route_load_sums_the_tickets_and_counts_sure_ones(figures) -> None:
    out = {r["route"]: (r["load"], r["sure"]) for r in figures.as_dict()["route_load"]}
    # named by route id: the route from e to c is `e-c`
    assert out == {"a-b": (1.5, 1), "d-e": (1.5, 1), "e-c": (1.5, 1), "b-c": (0.5, 0), "a-d": (0.5, 0)}
    assert figures.mean_load == pytest.approx(5.5 / 5)


def test_place_uses_unused_and_average(figures) -> None:
    d = figures.as_dict()
    assert d["place_uses"] == {"a": 2, "b": 1, "c": 2, "d": 1, "e": 0, "x": 0}
    assert d["average_uses"] == 1.0  # 3 tickets x 2 ends / 6 places
    assert d["unused_places"] == ["e", "x"]
    assert d["overused_places"] == []  # 2 is twice the average but under 3 tickets


def test_shape_figures(figures) -> None:
    assert figures.shape() == {
        "reach_median": 0.75,  # reaches 4/4, 2/4, 3/4
        "reach_spread": 0.25,  # quartiles (inclusive) of 0.5, 0.75, 1: 0.625 and 0.875
        "long_share": 0.667,  # 4/4 and 3/4 are at least 60% of the diameter
        "value_over_path": 0.0,
        "value_cv": 0.272,  # values 4, 2, 3: sd sqrt(2/3) over mean 3
        "place_coverage": 0.667,  # 4 of 6 places
        "place_max_ratio": 2.0,  # a or c: 2 tickets, average 1
        "place_cv": 0.816,  # uses 2,1,2,1,0,0: mean 1, sd sqrt(4/6)
        "route_coverage": 0.714,  # 5 of 7 routes
        "route_max_ratio": 1.364,  # 1.5 / (5.5 / 5)
        "route_cv": 0.823,  # loads 1.5,1.5,1.5,0.5,0.5,0,0: mean 5.5/7, sd 0.6468
        "overlap_pairs": 0.0,  # a–c shares 1/5 routes with a–b and 2/5 with d–c
    }


def test_value_histogram_and_value_vs_path(paths: BoardPaths) -> None:
    tickets = [Ticket(**{"from": "a", "to": "c", "points": 12, "decks": ["m"]}),
               Ticket(**{"from": "a", "to": "b", "points": 2, "decks": ["m"]})]
    d = deck_figures(paths, tickets).as_dict()
    assert d["values"]["histogram"] == {"1-5": 1, "6-10": 0, "11-15": 1}
    assert [(v["value"], v["shortest_path"], v["difference"]) for v in d["value_vs_path"]] == [(12, 4, 8), (2, 2, 0)]


def test_overlap_duplicates_and_near_duplicates(paths: BoardPaths) -> None:
    t = lambda a, b: Ticket(**{"from": a, "to": b, "points": 1, "decks": ["m"]})  # noqa: E731
    # d–c rides d-e-c; e–d rides d-e: they share 1 of 2 routes (50%).
    # c–a and a–c are the same ticket. Near: d–c/e–d share d and c–e is 1 space; d–c/c–a share c
    # and a–d is 1 space; c–b/c–a share c and a–b is 2 spaces.
    f = deck_figures(paths, [t("d", "c"), t("e", "d"), t("c", "a"), t("a", "c"), t("c", "b")])
    assert [(i, j, round(s, 3)) for i, j, s in f.overlaps()] == [(0, 1, 0.5), (2, 3, 1.0)]
    assert f.duplicates() == [(0, 1, "near"), (0, 2, "near"), (0, 3, "near"), (2, 3, "duplicate"), (2, 4, "near"), (3, 4, "near")]
