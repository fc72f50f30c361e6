"""The balance checks' reference mixes are those of the bundled official boards."""

import pytest

from conftest import MAPS
from ttr_maps.checks import reference
from ttr_maps.checks.context import Context
from ttr_maps.load import load


def board(name):
    loaded = load(MAPS / "boards" / f"{name}.yaml")
    assert loaded.ok
    return loaded.board


def test_route_length_mix_is_derived_from_the_official_boards():
    mixes = [reference.route_length_mix(board(name)) for name in reference.ROUTE_BOARDS]
    assert reference.average(mixes) == pytest.approx(reference.ROUTE_LENGTH_MIX, abs=1e-3), "update ROUTE_LENGTH_MIX in ttr_maps/checks/reference.py"


def test_ticket_value_mix_is_derived_from_the_official_boards():
    mixes = []
    for name in reference.TICKET_BOARDS:
        b = board(name)
        mixes.append(reference.ticket_value_mix((t.points for t in b.tickets), Context(b).diameter_estimate))
    assert reference.average(mixes) == pytest.approx(reference.TICKET_VALUE_MIX, abs=1e-3), "update TICKET_VALUE_MIX in ttr_maps/checks/reference.py"


def test_mixes_are_shares():
    for mix in (reference.ROUTE_LENGTH_MIX, reference.TICKET_VALUE_MIX):
        assert sum(mix.values()) == pytest.approx(1, abs=2e-3)


def test_distance_is_the_share_of_items_in_another_bin():
    assert reference.distance({"a": 1.0, "b": 0.0}, {"a": 0.0, "b": 1.0}) == 1
    assert reference.distance({"a": 0.5, "b": 0.5}, {"a": 0.5, "b": 0.5}) == 0
    assert reference.distance({"a": 0.7, "b": 0.3}, {"a": 0.5, "b": 0.5}) == pytest.approx(0.2)


def test_official_boards_are_close_to_their_own_mix():
    for name in reference.ROUTE_BOARDS:
        assert reference.distance(reference.route_length_mix(board(name)), reference.ROUTE_LENGTH_MIX) < 0.3
