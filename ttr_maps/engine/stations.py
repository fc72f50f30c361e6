"""Stations (docs/rules.md#stations): the n-th station costs `stations.costs[n-1]` cards of one colour.

Locomotives replace any card; +4 locomotives and passenger cards do not (a
station is not a route). Stations go in cities only, one per place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import BuildStation
from .errors import R_STATION, IllegalAction
from .events import StationBuilt
from .mechanic import Mechanic
from .notation import NotationError, parse_payment, place_arg
from .payments import pay

if TYPE_CHECKING:
    from .state import State


def cost(state: State, p: int) -> int | None:
    built = len(state.stations[p])
    costs = state.t.station_costs
    return costs[built] if built < len(costs) else None


def payments(state: State, p: int, k: int) -> list[int]:
    t = state.t
    hand = state.hands[p]
    locos = hand[t.LOCO]
    out = []
    if k == 0:
        return [t.payment_id(-1, 0, 0)]
    for c in range(t.NC):
        have = hand[c]
        for nc in range(min(have, k), 0, -1):
            if k - nc > locos:
                break
            out.append(t.payment_id(c, nc, k - nc))
    if locos >= k:
        out.append(t.payment_id(-1, 0, k))
    return out


def legal(state: State, out: list) -> None:
    p = state.current
    k = cost(state, p)
    if k is None:
        return
    pays = payments(state, p, k)
    if not pays:
        return
    t = state.t
    cache: dict[int, BuildStation] = state.game.station_cache
    taken = state.station_owner
    for place in range(t.NP):
        if t.is_country[place] or place in taken:
            continue
        base = place << 16
        for pid in pays:
            a = cache.get(base | pid)
            if a is None:
                a = cache[base | pid] = BuildStation(t.place_ids[place], t.payment(pid))
            out.append(a)


def apply(state: State, action: BuildStation) -> None:
    t = state.t
    p = state.current
    k = cost(state, p)
    if k is None:
        raise IllegalAction(f"player {p} has built all {len(t.station_costs)} stations", R_STATION)
    place = t.place_index.get(action.place) if isinstance(action.place, str) else None
    if place is None:
        raise IllegalAction(f"there is no place {action.place!r}", R_STATION)
    if t.is_country[place]:
        raise IllegalAction(f"{action.place} is a country; stations are built in cities", R_STATION)
    if place in state.station_owner:
        raise IllegalAction(f"{action.place} already has a station (player {state.station_owner[place]})", R_STATION)
    counts = t.payment_counts(action.payment)
    if counts is None:
        raise IllegalAction(f"a station is paid with cards of one colour plus locomotives: {t.payment_problem(action.payment)}", R_STATION)
    color, nc, nl, nb, npass = counts
    if nb or npass:
        raise IllegalAction("only train cards of one colour and locomotives pay for a station", R_STATION)
    if nc + nl != k:
        raise IllegalAction(f"station {len(state.stations[p]) + 1} of player {p} costs {k} cards; the payment has {nc + nl}", R_STATION)
    hand = state.hands[p]
    if (nc and hand[color] < nc) or hand[t.LOCO] < nl:
        raise IllegalAction(f"player {p} does not hold the cards {action.payment}", R_STATION)
    pay(state, counts)
    state.station_owner[place] = p
    state.stations[p].append(place)
    if state.events is not None:
        state.events.append(StationBuilt(p, place, counts))
    state.end_turn()


def _parse_station(game: Any, args: list[str], state: State | None) -> list:
    if len(args) < 2:
        raise NotationError("write `station PLACE PAYMENT`, e.g. `station wien 2red`")
    return [BuildStation(place_arg(game, args[0]), parse_payment(game, "+".join(args[1:])))]


class Stations(Mechanic):
    """Stations as a mechanic (mechanic.py): its slice is who built where (`station_owner`: place -> seat)
    and each seat's stations in building order (`stations`); building one is an action at the start of a
    turn; unused stations score at the end."""

    name = "stations"
    fields = ("station_owner", "stations")
    turn_actions = {BuildStation: apply}
    absent = "this variant has no stations"
    verbs = {"station": _parse_station}
    usage = "station PLACE PAYMENT"

    def enabled(self, variant, board) -> bool:
        return bool(variant.stations.costs)

    def setup(self, game: Any) -> None:
        game.station_cache = {}  # interned BuildStation actions

    def new(self, state: State) -> None:
        state.station_owner = {}
        state.stations = [[] for _ in range(state.game.num_players)]

    def copy(self, src: State, dst: State) -> None:
        dst.station_owner = dict(src.station_owner)
        dst.stations = [x[:] for x in src.stations]

    def key(self, state: State) -> tuple:
        return (tuple(sorted(state.station_owner.items())), tuple(map(tuple, state.stations)))

    def write(self, state: State, data: dict[str, Any]) -> None:
        ids = state.t.place_ids
        for p, entry in enumerate(data["players"]):
            entry["stations"] = [ids[x] for x in state.stations[p]]

    def read(self, rd: Any, state: State) -> None:
        costs = rd.t.station_costs
        for p, ps in enumerate(rd.sf.players):
            if len(ps.stations) > len(costs):
                rd.error(f"at most {len(costs)}", ("players", p, "stations"))
            for i, pid in enumerate(ps.stations):
                x = rd.place(pid, ("players", p, "stations", i))
                if x in state.station_owner:
                    rd.error(f"{pid} already has a station", ("players", p, "stations", i))
                state.station_owner[x] = p
                state.stations[p].append(x)

    def observe(self, view: Any, obs: dict[str, Any]) -> None:
        ids = view.game.t.place_ids
        for p, entry in enumerate(obs["players"]):
            entry["stations_left"] = view.stations_left(p)
            entry["stations"] = [ids[x] for x in view.stations(p)]

    def position(self, state: State, p: int) -> dict[str, Any]:
        ids = state.t.place_ids
        return {"stations": tuple(ids[x] for x in state.stations[p])}

    turn_legal = staticmethod(legal)  # (state, out), called once per turn: no wrapper

    def final_scoring(self, variant, board, player) -> dict[str, int]:
        return {"stations": (variant.stations.count - len(player.stations)) * variant.stations.unused_points}


STATIONS = Stations()
