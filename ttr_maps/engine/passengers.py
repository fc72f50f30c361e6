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

from typing import TYPE_CHECKING, Any

from .actions import PASSENGER, Action, MovePassenger, Payment, PlacePassenger, SkipPassenger, StopPassenger
from .errors import R_PASSENGER, IllegalAction
from .mechanic import Mechanic
from .notation import NotationError, is_payment, parse_payment, place_arg
from .phases import PH_JOURNEY, PH_PASSENGER

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
    state.claim_done(PASSENGERS)


def apply_skip(state: State) -> None:
    state.claim_done(PASSENGERS)


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
    """First rides of every placed passenger of the current player (in the main turn).

    The rides of _rides, inlined with the board's ways out of each place (game.ride_ways: route and the other
    end, never into a country or back to the place itself, in place_routes' order) worked out once."""
    p = state.current
    at = state.passenger_at
    if not at:
        return
    places = [x for x, q in at.items() if q == p]
    if not places:
        return
    if len(places) > 1:
        places.sort()
    game = state.game
    ride_ways: list[tuple[tuple[tuple[int, int], ...], bool]] = game.ride_ways
    cache: dict[tuple[int, int, int], MovePassenger] = game.move_cache
    mask = state.route_mask
    bit = 1 << p
    cards = state.hands[p][state.t.PASS]
    for place in places:
        ways, twins = ride_ways[place]
        seen: set[tuple[int, int, int]] | None = set() if twins else None  # two routes to one place: a (destination, cost) is listed once
        for r, dest in ways:
            m = mask[r]
            if not m:
                continue
            if m & bit:
                key = (place, dest, 0)
            elif cards:
                key = (place, dest, 1)
            else:
                continue
            if seen is not None:
                if key in seen:
                    continue
                seen.add(key)
            a = cache.get(key)
            if a is None:
                a = _move_action(state, *key)
            out.append(a)


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
        state.phase = PH_JOURNEY
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


def _parse_passenger(game: Any, args: list[str], state: State | None) -> list:
    if args == ["skip"]:
        return [SkipPassenger()]
    if len(args) == 1:
        return [PlacePassenger(place_arg(game, args[0]))]
    raise NotationError("write `passenger PLACE` or `passenger skip`")


def _parse_move(game: Any, args: list[str], state: State | None) -> list:
    if args == ["stop"]:
        return [StopPassenger()]
    stop = bool(args) and args[-1] == "stop"
    if stop:
        args = args[:-1]
    explicit: list[Payment] | None = None
    def is_pay(a: str) -> bool:
        return a == "0" or (is_payment(a) and a not in game.t.place_index)

    places = [a for a in args if not is_pay(a)]
    pays = [a for a in args if is_pay(a)]
    if len(places) < 2:
        raise NotationError("write `move FROM TO [TO ...] [stop]` with place ids")
    if pays:
        if len(pays) != len(places) - 1:
            raise NotationError("give one payment per ride (0 or 1passenger) or none (worked out from the board)")
        explicit = [parse_payment(game, p) for p in pays]
    out: list[Action] = []
    t = game.t
    for i in range(len(places) - 1):
        a, b = place_arg(game, places[i]), place_arg(game, places[i + 1])
        if explicit is not None:
            pay = explicit[i]
        else:
            pay = ()
            if state is not None:
                # free when the player holds a track of a route between the two places, else one card
                masks = [state.route_mask[r] for r in t.routes_between.get((t.place_index[a], t.place_index[b]), ())]
                bit = 1 << state.current
                if any(masks) and not any(m & bit for m in masks):
                    pay = ONE_CARD
        out.append(MovePassenger((a, b), pay))
    if stop:
        out.append(StopPassenger())
    return out


class Passengers(Mechanic):
    """Passengers and goods as a mechanic (mechanic.py). Its slice: each seat's passengers not yet placed
    (`passengers_unplaced`) and moved (`passengers_moved`), placed ones (`passenger_at`: place -> seat),
    the passenger on the move (`journey`), the goods stacks left (`goods`, with `goods_at`: place -> stacks,
    fixed by the board) and each seat's tokens (`goods_taken`). After a claim it offers a passenger for a
    free end of the route; a ride is an action at the start of a turn; goods tokens score at the end.
    Switched on by passengers, or by a variant that scores goods tokens."""

    name = "passengers"
    absent = "this variant has no passengers"
    verbs = {"passenger": _parse_passenger, "move": _parse_move}
    usage = "passenger PLACE | passenger skip | move PLACE PLACE ... [stop] | move stop"
    fields = ("passengers_unplaced", "passenger_at", "passengers_moved", "journey", "goods", "goods_at", "goods_taken")
    turn_actions = {MovePassenger: apply_move}
    phases = {PH_PASSENGER: legal_place, PH_JOURNEY: legal_journey}
    handlers = {
        (PH_PASSENGER, PlacePassenger): apply_place,
        (PH_PASSENGER, SkipPassenger): lambda s, a: apply_skip(s),
        (PH_JOURNEY, MovePassenger): apply_move,
        (PH_JOURNEY, StopPassenger): lambda s, a: apply_stop(s),
    }

    def enabled(self, variant, board) -> bool:
        return variant.passengers.count > 0 or variant.scoring.bonuses.goods

    def setup(self, game: Any) -> None:
        game.move_cache = {}  # interned MovePassenger actions
        t = game.t
        # Per place, the ways a ride may take from it (legal_moves): (route, other end) in place_routes' order,
        # never into a country or round to the place itself; and whether two of them reach one place.
        ways = []
        for at, routes in enumerate(t.place_routes):
            out = []
            for r in routes:
                a, b = t.route_ends[r]
                dest = b if a == at else a
                if not t.is_country[dest] and dest != at:
                    out.append((r, dest))
            dests = [d for _, d in out]
            ways.append((tuple(out), len(set(dests)) < len(dests)))
        game.ride_ways = ways

    def new(self, state: State) -> None:
        n = state.game.num_players
        t = state.t
        state.passengers_unplaced = [state.game.variant.passengers.count] * n
        state.passenger_at = {}
        state.passengers_moved = [0] * n
        state.journey = None  # a Journey while a passenger moves
        state.goods = [list(reversed(values)) for _, values in t.goods_stacks]
        state.goods_at = {}
        for i, (place, _) in enumerate(t.goods_stacks):
            state.goods_at.setdefault(place, []).append(i)
        state.goods_taken = [[] for _ in range(n)]

    def copy(self, src: State, dst: State) -> None:
        dst.passengers_unplaced = src.passengers_unplaced[:]
        dst.passenger_at = dict(src.passenger_at)
        dst.passengers_moved = src.passengers_moved[:]
        dst.journey = src.journey.copy() if src.journey is not None else None
        dst.goods = [g[:] for g in src.goods]
        dst.goods_at = src.goods_at
        dst.goods_taken = [g[:] for g in src.goods_taken]

    def key(self, state: State) -> tuple:
        return (
            tuple(state.passengers_unplaced), tuple(sorted(state.passenger_at.items())), tuple(state.passengers_moved),
            state.journey.key() if state.journey else None, tuple(map(tuple, state.goods)),
            tuple(map(tuple, state.goods_taken)),
        )

    def write(self, state: State, data: dict[str, Any]) -> None:
        t = state.t
        for p, entry in enumerate(data["players"]):
            entry["passengers_unplaced"] = state.passengers_unplaced[p]
            entry["passengers_moved"] = state.passengers_moved[p]
            entry["goods"] = list(state.goods_taken[p])
        data["passengers"] = {t.place_ids[x]: p for x, p in sorted(state.passenger_at.items())}
        j = state.journey
        if j is not None:
            data["pending"]["journey"] = {
                "start": t.place_ids[j.start],
                "at": t.place_ids[j.at],
                "used": [t.route_ids[r] for r in sorted(j.used)],
                "visited": [t.place_ids[x] for x in sorted(j.visited)],
            }
        if t.goods_stacks:
            goods: dict[str, list[list[int]]] = {}
            for i, (place, _) in enumerate(t.goods_stacks):
                goods.setdefault(t.place_ids[place], []).append(list(reversed(state.goods[i])))
            data["goods"] = goods

    def read(self, rd: Any, state: State) -> None:
        self._read_journey(rd, state)
        self._read_passengers(rd, state)
        self._read_goods(rd, state)

    def _read_journey(self, rd: Any, s: State) -> None:
        sf = rd.sf
        if sf.pending.journey is not None:
            j, at = sf.pending.journey, ("pending", "journey")
            start = rd.place(j.start, at + ("start",))
            used = {rd.route(r, at + ("used", i)) for i, r in enumerate(j.used)}
            visited = {rd.place(x, at + ("visited", i)) for i, x in enumerate(j.visited)}
            s.journey = Journey(start, rd.place(j.at, at + ("at",)), used, visited | {start})
        if sf.phase == "journey" and s.journey is None:
            rd.error("phase journey needs pending.journey", ("phase",))
        if sf.phase != "journey" and s.journey is not None:
            rd.error("pending.journey is only meaningful in phase journey", ("pending", "journey"))
        if sf.phase == "place-passenger" and s.pending_route < 0:
            rd.error("phase place-passenger needs pending.route", ("phase",))

    def _read_passengers(self, rd: Any, s: State) -> None:
        t, sf, v = rd.t, rd.sf, rd.game.variant
        for pid, seat in sf.passengers.items():
            x = rd.place(pid, ("passengers", pid), key=True)
            if not 0 <= seat < rd.game.num_players:
                rd.error(f"no seat {seat}", ("passengers", pid), "T017")
            if t.is_country[x]:
                rd.error("passengers never stand in a country", ("passengers", pid))
            s.passenger_at[x] = seat
        for p, ps in enumerate(sf.players):
            s.passengers_moved[p] = ps.passengers_moved
            on_board = sum(1 for seat in s.passenger_at.values() if seat == p)
            moving = 1 if (sf.pending.journey is not None and p == sf.current) else 0
            unplaced = ps.passengers_unplaced
            if unplaced is None:
                unplaced = v.passengers.count - on_board - ps.passengers_moved - moving
            if unplaced < 0 or unplaced + on_board + ps.passengers_moved + moving > v.passengers.count:
                rd.error(f"more passengers than the variant's {v.passengers.count}", ("players", p))
            s.passengers_unplaced[p] = unplaced

    def _read_goods(self, rd: Any, s: State) -> None:
        sf = rd.sf
        for p, ps in enumerate(sf.players):
            s.goods_taken[p] = list(ps.goods)
        if sf.goods is None:
            if any(ps.goods for ps in sf.players):
                rd.error("give the stacks left on the board when players have taken goods", ("goods",))
            return
        s.goods = [[] for _ in rd.t.goods_stacks]
        for pid, stacks in sf.goods.items():
            idx = s.goods_at.get(rd.place(pid, ("goods", pid), key=True), [])
            if len(stacks) > len(idx):
                rd.error(f"{len(stacks)} stacks; the board has {len(idx)} there", ("goods", pid))
            for i, values in zip(idx, stacks):
                s.goods[i] = list(reversed(values))

    def observe(self, view: Any, obs: dict[str, Any]) -> None:
        ids = view.game.t.place_ids
        for p, entry in enumerate(obs["players"]):
            entry["passengers_unplaced"] = view.passengers_unplaced(p)
            entry["passengers_moved"] = view.passengers_moved(p)
            entry["goods"] = view.goods_taken(p)
        obs["passengers"] = {ids[x]: p for x, p in view.passengers.items()}
        obs["goods"] = {ids[x]: v for x, v in view.goods.items()}
        j = view.journey
        if j is not None:
            obs["journey"] = {"start": ids[j[0]], "at": ids[j[1]]}

    def position(self, state: State, p: int) -> dict[str, Any]:
        return {"goods": tuple(state.goods_taken[p])}

    turn_legal = staticmethod(legal_moves)  # (state, out), called once per turn: no wrapper

    def after_claim(self, state: State, tid: int, paid: tuple | None) -> bool:
        if placeable_ends(state, state.pending_route):
            state.phase = PH_PASSENGER
            return True
        return False

    def final_scoring(self, variant, board, player) -> dict[str, int]:
        return {"goods": sum(player.goods) if variant.scoring.bonuses.goods else 0}


PASSENGERS = Passengers()
