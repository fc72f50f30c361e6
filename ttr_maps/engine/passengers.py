"""Passengers and goods (Märklin; docs/rules.md#passengers-and-goods).

After a claim the player may place an unplaced passenger on a free end of the
route (a city: passengers never stand in or pass through countries). Moving a
passenger is a journey of one-route rides (`MovePassenger((from, to))`): own
routes are free, an opponent's costs one passenger card, no route is ridden
twice, and at every place reached for the first time (never the start) the
player takes the top goods token. `StopPassenger` ends the journey and the
passenger leaves the game; a journey that can go no further ends by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import PASSENGER, MovePassenger, PlacePassenger, SkipPassenger, StopPassenger
from .errors import R_PASSENGER, IllegalAction

if TYPE_CHECKING:
    from .state import State

SKIP = SkipPassenger()
STOP = StopPassenger()
ONE_CARD = ((PASSENGER, 1),)


class Journey:
    """A passenger on the move during this turn."""

    __slots__ = ("start", "at", "used", "visited")

    def __init__(self, start: int, at: int, used: set[int], visited: set[int]):
        self.start = start
        self.at = at
        self.used = used
        self.visited = visited

    def copy(self) -> Journey:
        return Journey(self.start, self.at, set(self.used), set(self.visited))

    def key(self) -> tuple:
        return (self.start, self.at, tuple(sorted(self.used)), tuple(sorted(self.visited)))


def placeable_ends(state: State, route: int) -> list[int]:
    p = state.current
    if state.passengers_unplaced[p] <= 0:
        return []
    t = state.t
    a, b = t.route_ends[route]
    return [x for x in dict.fromkeys((a, b)) if not t.is_country[x] and x not in state.passenger_at]


def legal_place(state: State, out: list) -> None:
    t = state.t
    for x in placeable_ends(state, state.pending_route):
        out.append(PlacePassenger(t.place_ids[x]))
    out.append(SKIP)


def apply_place(state: State, action: PlacePassenger) -> None:
    t = state.t
    x = t.place_index.get(action.place) if isinstance(action.place, str) else None
    ends = placeable_ends(state, state.pending_route)
    if x is None or x not in ends:
        names = ", ".join(t.place_ids[e] for e in ends) or "none"
        raise IllegalAction(f"a passenger goes on a free city at an end of the claimed route ({names})", R_PASSENGER)
    p = state.current
    state.passengers_unplaced[p] -= 1
    state.passenger_at[x] = p
    state.end_turn()


def apply_skip(state: State) -> None:
    state.end_turn()


def _rides(state: State, at: int, used: set[int] | None):
    """(route, destination, cost) for every ride from `at` the current player may take now."""
    t = state.t
    p = state.current
    bit = 1 << p
    cards = state.hands[p][t.PASS]
    mask = state.route_mask
    for r in t.place_routes[at]:
        m = mask[r]
        if not m or (used is not None and r in used):
            continue
        a, b = t.route_ends[r]
        dest = b if a == at else a
        if t.is_country[dest] or dest == at:
            continue
        cost = 0 if m & bit else 1
        if cost > cards:
            continue
        yield r, dest, cost


def _move_action(state: State, frm: int, to: int, cost: int) -> MovePassenger:
    key = (frm, to, cost)
    cache = state.game.move_cache
    a = cache.get(key)
    if a is None:
        t = state.t
        a = cache[key] = MovePassenger((t.place_ids[frm], t.place_ids[to]), ONE_CARD if cost else ())
    return a


def legal_moves(state: State, out: list) -> None:
    """First rides of every placed passenger of the current player (in the main turn)."""
    p = state.current
    at = state.passenger_at
    for place in sorted(at):
        if at[place] != p:
            continue
        seen = set()
        for r, dest, cost in _rides(state, place, None):
            if (dest, cost) in seen:
                continue
            seen.add((dest, cost))
            out.append(_move_action(state, place, dest, cost))


def legal_journey(state: State, out: list) -> None:
    j = state.journey
    seen = set()
    for r, dest, cost in _rides(state, j.at, j.used):
        if (dest, cost) in seen:
            continue
        seen.add((dest, cost))
        out.append(_move_action(state, j.at, dest, cost))
    out.append(STOP)


def _find_ride(state: State, frm: int, to: int, cost: int, used: set[int] | None) -> int | None:
    for r, dest, c in _rides(state, frm, used):
        if dest == to and c == cost:
            return r
    return None


def apply_move(state: State, action: MovePassenger) -> None:
    t = state.t
    p = state.current
    path = action.path
    if not isinstance(path, (tuple, list)) or len(path) != 2 or not all(isinstance(x, str) for x in path):
        raise IllegalAction("a ride names two places: `move FROM TO` (a longer `move A B C` is several rides)", R_PASSENGER)
    frm, to = t.place_index.get(path[0]), t.place_index.get(path[1])
    if frm is None or to is None:
        raise IllegalAction(f"unknown place in {' '.join(path)}", R_PASSENGER)
    journey = state.journey
    if journey is None:
        if state.passenger_at.get(frm) != p:
            raise IllegalAction(f"player {p} has no passenger on {path[0]}", R_PASSENGER)
        used: set[int] | None = None
    else:
        if frm != journey.at:
            raise IllegalAction(f"the moving passenger is on {t.place_ids[journey.at]}, not {path[0]}", R_PASSENGER)
        used = journey.used
    counts = t.payment_counts(action.payment)
    if counts is None or counts[1] or counts[2] or counts[3]:
        raise IllegalAction("a ride is paid with passenger cards only", R_PASSENGER)
    cost = counts[4]
    r = _find_ride(state, frm, to, cost, used)
    if r is None:
        free = _find_ride(state, frm, to, 0, used)
        paid = _find_ride(state, frm, to, 1, used)
        if free is not None or paid is not None:
            need = 0 if free is not None else 1
            raise IllegalAction(
                f"riding {path[0]}-{path[1]} costs {need} passenger card{'s' if need != 1 else ''} (own routes are free, an opponent's costs one)",
                R_PASSENGER,
            )
        raise IllegalAction(
            f"no ride {path[0]}-{path[1]}: it must be a claimed route not yet ridden on this journey, not into a country, "
            f"and an opponent's route needs a passenger card",
            R_PASSENGER,
        )
    if journey is None:
        del state.passenger_at[frm]
        journey = state.journey = Journey(frm, frm, set(), {frm})
        state.phase = state.PH_JOURNEY
    if cost:
        state.hands[p][t.PASS] -= cost
        state.discard[t.PASS] += cost
        state.discard_total += cost
    journey.used.add(r)
    journey.at = to
    if to not in journey.visited:
        journey.visited.add(to)
        take_goods(state, to)
    if next(_rides(state, to, journey.used), None) is None:
        finish(state)


def take_goods(state: State, place: int) -> None:
    for stack in state.goods_at.get(place, ()):
        tokens = state.goods[stack]
        if tokens:
            state.goods_taken[state.current].append(tokens.pop())
            return


def apply_stop(state: State) -> None:
    finish(state)


def finish(state: State) -> None:
    state.journey = None
    state.passengers_moved[state.current] += 1
    state.end_turn()
