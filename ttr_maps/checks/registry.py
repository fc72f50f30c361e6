"""The registry: every check, by code. Adding a check is adding a module and a line here.

The codes are also registered with the reporters (SARIF rule descriptions).
"""

from __future__ import annotations

from ..diagnostics import register_code
from . import invalid_check_setting
from .balance import (
    color_imbalance,
    place_in_many_tickets,
    place_in_no_ticket,
    route_length_mix,
    ticket_value_mix,
    trains_spaces_mismatch,
)
from .base import Check
from .geometry import (
    car_over_marker,
    cars_overlap,
    cars_spread_out,
    label_collision,
    label_over_car,
    markers_overlap,
    route_over_place,
    route_stretched,
    routes_cross,
)
from .graph import (
    board_not_connected,
    bridge_route,
    card_deck_too_small,
    color_without_cards,
    cut_place,
    duplicate_route,
    duplicate_ticket,
    ferry_longer_than_route,
    ferry_tunnel_forbidden,
    path_through_country,
    place_without_route,
    route_to_itself,
    ticket_end_unreachable,
    ticket_pile_too_small,
    ticket_to_itself,
    ticket_value_mismatch,
    too_many_parallel_tracks,
)

CHECKS: dict[str, Check] = {
    "G001": Check.from_module(board_not_connected),
    "G002": Check.from_module(place_without_route),
    "G003": Check.from_module(route_to_itself),
    "G004": Check.from_module(ticket_end_unreachable),
    "G005": Check.from_module(path_through_country),
    "G006": Check.from_module(ticket_value_mismatch),
    "G007": Check.from_module(duplicate_ticket),
    "G008": Check.from_module(ticket_pile_too_small),
    "G009": Check.from_module(card_deck_too_small),
    "G010": Check.from_module(too_many_parallel_tracks),
    "G011": Check.from_module(duplicate_route),
    "G012": Check.from_module(color_without_cards),
    "G013": Check.from_module(ferry_longer_than_route),
    "G014": Check.from_module(ferry_tunnel_forbidden),
    "G015": Check.from_module(bridge_route),
    "G016": Check.from_module(cut_place),
    "G017": Check.from_module(ticket_to_itself),
    "D001": Check.from_module(markers_overlap),
    "D002": Check.from_module(label_collision),
    "D003": Check.from_module(routes_cross),
    "D004": Check.from_module(route_over_place),
    "D005": Check.from_module(route_stretched),
    "D006": Check.from_module(cars_overlap),
    "D007": Check.from_module(label_over_car),
    "D008": Check.from_module(car_over_marker),
    "D009": Check.from_module(cars_spread_out),
    "B001": Check.from_module(color_imbalance),
    "B002": Check.from_module(route_length_mix),
    "B003": Check.from_module(ticket_value_mix),
    "B004": Check.from_module(place_in_many_tickets),
    "B005": Check.from_module(place_in_no_ticket),
    "B006": Check.from_module(trains_spaces_mismatch),
    "C001": Check.from_module(invalid_check_setting),
}

for _check in CHECKS.values():
    register_code(_check.code, _check.name, _check.summary, help=_check.doc)
