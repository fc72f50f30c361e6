"""Exact final scoring of a position: routes, tickets, stations, bonuses, tie-breaks.

The rules (docs/rules.md#final-scoring):
- Routes score by the variant's table, unless the position says what a player
  scored in play (`route_points`).
- A ticket is complete when the player's own routes connect its two ends, plus
  one borrowed route per station built: an opponent's route touching the
  station's place, the same route for all tickets. The borrowing is chosen at
  final scoring to maximise the owner's score, by an exact search. A station
  next to no opponent route is worth nothing. Failed tickets subtract their value.
- Countries are terminal: no path passes through one; a ticket to a country is
  complete when the network reaches it by any of its border routes.
- Longest path: the longest trail in the player's own routes (never stations or
  borrowed routes), worked out here for every player (the sheet and the tie-breaks show it).
- The rows of the variant's mechanics (mechanic.py), in their order: per player (`final_scoring`:
  unused stations, goods tokens, French flag sets) and over all players (`final_scoring_table`, given
  a ScoringTable with the completed tickets and trails worked out here: the bonuses of bonuses.py,
  longest path, most tickets, two paths, most routes of a length).
- Winners: highest total, then the variant's tie-breaks in order; a tie that
  survives every tie-break is shared.

Decisions where the rules are silent are in docs/scoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Callable, Hashable, Iterable

from ..boardgraph import UnionFind
from ..model.board import Board, Ticket
from ..model.variant import Variant
from .mechanic import Mechanic, mechanics_for, overrides
from .position import PlayerPosition, Position, ScoringTable, all_tickets
from .trail import TrailTooLarge, networks, trail_of

BREAKDOWN_KEYS = (
    "routes",
    "tickets_completed",
    "tickets_failed",
    "longest_path",
    "most_tickets",
    "stations",
    "goods",
    "flags",
)
# Rows every sheet has (0 when the variant does not score them), in this order; the rows of other
# mechanics' bonuses (bonuses.py: two_paths, most_routes, ...) follow when the variant sets them.


@dataclass(frozen=True)
class Borrowing:
    """A built station and the opponent route (index into board.routes) it lends; None: nothing to borrow."""

    place: str
    route: int | None


@dataclass(frozen=True)
class PlayerScore:
    """One player's final score; `total == sum(breakdown.values())`."""

    name: str
    total: int
    breakdown: dict[str, int]
    completed: tuple[int, ...]  # ticket indices into all_tickets(variant, board)
    failed: tuple[int, ...]
    longest_trail: int  # trains on the longest trail of own routes
    trail_routes: tuple[int, ...]  # route indices of one longest trail
    borrowings: tuple[Borrowing, ...]
    stations_built: int
    goods_points: int
    # {mechanic name: what it found beside its points} (Mechanic.final_scoring_table; ScoringTable.notes)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def two_path_tickets(self) -> tuple[int, ...]:
        """Completed tickets joined by two separate paths (bonuses.TwoPaths; () without that bonus)."""
        return self.notes.get("two-paths", ())


@dataclass(frozen=True)
class ScoreSheet:
    """Everyone's final score and the winner(s) after tie-breaks (several when the tie is shared)."""

    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    tie_break_used: str | None = None  # the tie-break that settled it; None: no tie, or a shared one


class ScoringError(ValueError):
    """A position final scoring cannot be computed for (e.g. an unknown route index)."""


class BoardIndex:
    """What final scoring reads of a variant and its board, by number, made once per Game (`Game.board_index`;
    a caller without one gets it made for the call): each route's two trail nodes and length, each ticket's
    places, the countries.

    A trail node is a place's number, except that a route into a country ends at a node of its own (a dead
    end: no path passes through a country; docs/rules.md#countries)."""

    __slots__ = ("tickets", "countries", "routes", "route_ids", "tracks", "place_ids", "route_nodes", "route_length", "nodes",
                 "city_node", "country_ends", "ticket_places", "station_count")

    def __init__(self, variant: Variant, board: Board):
        self.tickets = all_tickets(variant, board)
        self.countries = frozenset(p.id for p in board.places if p.is_country)
        self.routes = len(board.routes)
        self.route_ids = tuple(r.id for r in board.routes)
        self.tracks = tuple(len(r.tracks) for r in board.routes)
        self.place_ids = frozenset(p.id for p in board.places)
        self.station_count = variant.stations.count
        city: dict[str, int] = {p.id: k for k, p in enumerate(board.places) if not p.is_country}
        nodes = len(board.places)
        country_ends: dict[str, list[tuple[int, int]]] = {}  # country -> (route, its node there)
        route_nodes: list[tuple[int, int]] = []  # (a route's ends: two nodes)
        for r, route in enumerate(board.routes):
            pair: list[int] = []
            for end in route.ends:
                if end in self.countries:
                    if pair and end == route.from_:  # a route from a country into itself: one dead end
                        pair.append(pair[0])
                        continue
                    country_ends.setdefault(end, []).append((r, nodes))
                    pair.append(nodes)
                    nodes += 1
                else:
                    k = city.get(end)
                    if k is None:
                        k = city[end] = nodes
                        nodes += 1
                    pair.append(k)
            route_nodes.append(tuple(pair))  # type: ignore[arg-type]  # (two: a route has two ends)
        self.route_nodes = tuple(route_nodes)
        self.route_length = tuple(r.length for r in board.routes)
        self.nodes = nodes
        self.city_node = city
        self.country_ends = country_ends
        # Per ticket: its start, and its destinations with their points, best first (an equal one in the
        # ticket's order), and what it costs when none is reached.
        self.ticket_places = tuple(
            (k.from_, tuple(sorted(k.destinations, key=lambda e: -e[1])), k.lowest) for k in self.tickets
        )


def final_score(variant: Variant, board: Board, position: Position, mechanics: Iterable[Mechanic] | None = None,
                index: BoardIndex | None = None, checked: bool = False) -> ScoreSheet:
    """Score a finished game exactly. `mechanics`: the variant's (mechanic.mechanics_for; a Game's `mechanics`);
    `index`: BoardIndex(variant, board) if the caller keeps one (a Game does). `checked`: the position is known
    to be one of this board's (State.score_sheet's, from a state the rules made), so _check's tests are skipped."""
    ix = BoardIndex(variant, board) if index is None else index
    tickets = ix.tickets
    countries = ix.countries
    if not checked:
        _check(ix, position)

    route_nodes, route_length = ix.route_nodes, ix.route_length
    ends = [[route_nodes[r] for r, _t in p.claims] for p in position.players]
    parents = [networks(e, ix.nodes) for e in ends]  # each player's own networks: its trails and tickets
    options = [_ticket_options(board, countries, tickets, p, position, seat) if p.stations
               else [_own_option(ix, p, parents[seat])] for seat, p in enumerate(position.players)]
    choice = _choose_ticket_options(variant, options)
    chosen = [opts[c] for opts, c in zip(options, choice)]
    trails = []
    for seat, p in enumerate(position.players):
        try:
            trails.append(trail_of(ends[seat], [route_length[r] for r, _t in p.claims], ix.nodes, parents[seat]))
        except TrailTooLarge as e:
            raise ScoringError(f"{p.name or f'player {seat + 1}'}: {e}") from None
    table = ScoringTable(
        variant, board, position, tickets, countries,
        completed=tuple(o.completed for o in chosen), trails=tuple(trails), notes=tuple({} for _ in position.players),
    )
    rows = _mechanic_rows(table, mechanics_for(variant, board) if mechanics is None else mechanics)
    scores = []
    for seat, player in enumerate(position.players):
        opt = chosen[seat]
        breakdown = dict.fromkeys(BREAKDOWN_KEYS, 0)
        breakdown["routes"] = _route_points(variant, board, player)
        breakdown["tickets_completed"] = opt.gained
        breakdown["tickets_failed"] = -opt.lost
        for rows_of in rows:  # the rows the variant's mechanics score (mechanic.py), in their order
            breakdown.update(rows_of(seat, player))
        scores.append(
            PlayerScore(
                name=player.name or f"Player {seat + 1}",
                total=sum(breakdown.values()),
                breakdown=breakdown,
                completed=opt.completed,
                failed=opt.failed,
                longest_trail=trails[seat].length,
                trail_routes=tuple(sorted(player.claims[i][0] for i in trails[seat].edges)),
                borrowings=opt.borrowings,
                stations_built=len(player.stations),
                goods_points=breakdown["goods"],
                notes=table.notes[seat],
            )
        )
    winners, used = _winners(variant, scores)
    return ScoreSheet(tuple(scores), winners, used)


def _mechanic_rows(table: ScoringTable, mechanics: Iterable[Mechanic]) -> list[Callable[[int, PlayerPosition], dict[str, int]]]:
    """Per mechanic that scores (in the list's order): seat, player -> its rows of that seat's sheet. The
    hooks over all seats (final_scoring_table) run here, once; the per-player ones when asked."""
    out: list[Callable[[int, PlayerPosition], dict[str, int]]] = []
    variant, board = table.variant, table.board
    for m in mechanics:
        if overrides(m, "final_scoring"):
            out.append(lambda _seat, player, m=m: m.final_scoring(variant, board, player))  # type: ignore[misc]
        if overrides(m, "final_scoring_table"):
            rows = list(m.final_scoring_table(table))
            if len(rows) != len(table.position.players):
                raise ScoringError(f"mechanic {m.name}: {len(rows)} rows of final scoring for {len(table.position.players)} players")
            out.append(lambda seat, _player, rows=rows: rows[seat])  # type: ignore[misc]
    return out


def _check(ix: BoardIndex, position: Position) -> None:
    """Reject a position that is not a position of this board (programming errors, not table mistakes)."""
    routes, tracks, tickets = ix.routes, ix.tracks, len(ix.tickets)
    for seat, player in enumerate(position.players):
        seen: set[int] = set()
        for route, track in player.claims:
            if not 0 <= route < routes or not 0 <= track < tracks[route] or route in seen:
                _bad_claim(ix, player, seat, route, track, seen)
            seen.add(route)
        for i in player.tickets:
            if not 0 <= i < tickets:
                raise ScoringError(f"{_who(player, seat)}: ticket index {i} is not a ticket of the variant (0..{tickets - 1})")
        for place in player.stations:
            if place not in ix.place_ids:
                raise ScoringError(f"{_who(player, seat)}: station at unknown place '{place}'")
        if len(player.stations) > ix.station_count:
            raise ScoringError(f"{_who(player, seat)}: {len(player.stations)} stations built; the variant has {ix.station_count}")


def _who(player: PlayerPosition, seat: int) -> str:
    return player.name or f"player {seat + 1}"


def _bad_claim(ix: BoardIndex, player: PlayerPosition, seat: int, route: int, track: int, seen: set[int]) -> None:
    """_check's message for a claim that is not one of the board's, or a second track of a route."""
    who = _who(player, seat)
    if not 0 <= route < ix.routes:
        raise ScoringError(f"{who}: route index {route} is not a route of the board (0..{ix.routes - 1})")
    rid = ix.route_ids[route]
    if not 0 <= track < ix.tracks[route]:
        raise ScoringError(f"{who}: route {rid} has no track {track}")
    raise ScoringError(f"{who}: owns two tracks of route {rid}; a player never claims both")


def _route_points(variant: Variant, board: Board, player: PlayerPosition) -> int:
    if player.route_points is not None:
        return player.route_points
    table = variant.scoring.routes
    total = 0
    for r, _track in player.claims:
        length = board.routes[r].length
        if length not in table:
            raise ScoringError(f"route {board.routes[r].id} has length {length}, which the variant's scoring table does not score")
        total += table[length]
    return total


# --- tickets and stations -------------------------------------------------------


@dataclass(frozen=True)
class _Option:
    """One way a player's stations can borrow: what it completes and what it scores."""

    points: int
    completed: tuple[int, ...]
    failed: tuple[int, ...]
    borrowings: tuple[Borrowing, ...]
    gained: int = 0  # points of the completed tickets (each its best destination reached)
    lost: int = 0  # points of the failed ones (each its lowest destination)

    @property
    def count(self) -> int:
        return len(self.completed)


# Union-find over the network's nodes (see `_route_nodes`).
_Partition = UnionFind


def _route_nodes(board: Board, route: int, countries: frozenset[str]) -> tuple[str | tuple[str, int], str | tuple[str, int]]:
    """The two nodes a route joins: a city is one node; a country is one dead end per route into it,
    so no path passes through a country."""
    a, b = board.routes[route].ends
    return ((a, route) if a in countries else a, (b, route) if b in countries else b)


# The most distinct borrowing situations the station search tries for one player (a few seconds). The
# published 3 stations need at most a few hundred; a variant with many stations on a dense board is
# refused past this rather than searched for hours.
MAX_STATION_SITUATIONS = 20_000


def _ticket_options(
    board: Board,
    countries: frozenset[str],
    tickets: tuple[Ticket, ...],
    player: PlayerPosition,
    position: Position,
    seat: int,
) -> list[_Option]:
    """Every useful outcome of the player's station borrowings: the Pareto front of (points, completed count).

    Sorted best first: most ticket points, then most completed tickets. The search
    is exhaustive but never explores one situation twice: what is left to decide
    depends only on which nodes that matter are already connected.
    """
    owned = {r for r, _t in player.claims}
    stations: list[tuple[str, list[int]]] = []
    if player.stations:
        others = {r for s, other in enumerate(position.players) if s != seat for r, _t in other.claims} - owned
        stations = [(place, sorted(r for r in others if place in board.routes[r].ends)) for place in player.stations]
    used_routes = owned | {r for _p, routes in stations for r in routes}
    route_nodes = {r: _route_nodes(board, r, countries) for r in used_routes}
    nodes_of: dict[str, list[Hashable]] = {}
    for pair in route_nodes.values():
        for node in pair:
            nodes_of.setdefault(node[0] if isinstance(node, tuple) else node, []).append(node)

    own = _Partition()
    for r in owned:
        own.union(*route_nodes[r])
    mine = sorted(player.tickets)
    # Per ticket: the start's nodes, and each destination's nodes with its points, best first
    # (docs/rules.md#tickets-with-several-destinations: the best destination reached scores).
    dest_of = [tickets[i].destinations for i in mine]
    several = any(len(d) > 1 for d in dest_of)
    if several:
        ticket_nodes = [
            (nodes_of.get(tickets[i].from_, []), sorted(((nodes_of.get(to, []), pts) for to, pts in d), key=lambda e: -e[1]))
            for i, d in zip(mine, dest_of)
        ]
        lowest = [min(p for _, p in d) for d in dest_of]

        def evaluate(part: _Partition) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int]:
            done, missed = [], []
            gained = lost = 0
            find = part.find
            for i, (xs, dests), low in zip(mine, ticket_nodes, lowest):
                roots = {find(x) for x in xs}
                best = next((pts for ys, pts in dests if any(find(y) in roots for y in ys)), None)
                if best is None:
                    missed.append(i)
                    lost += low
                else:
                    done.append(i)
                    gained += best
            return gained - lost, tuple(done), tuple(missed), gained, lost
    else:  # one destination per ticket (every seed edition): one set intersection per ticket
        ticket_nodes = [(nodes_of.get(tickets[i].from_, []), [(nodes_of.get(d[0][0], []), d[0][1])]) for i, d in zip(mine, dest_of)]
        single = [(i, xs, ys_pts[0][0], ys_pts[0][1]) for i, (xs, ys_pts) in zip(mine, ticket_nodes)]

        def evaluate(part: _Partition) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int]:
            done, missed = [], []
            gained = lost = 0
            find = part.find
            for i, xs, ys, pts in single:
                if {find(x) for x in xs} & {find(y) for y in ys}:
                    done.append(i)
                    gained += pts
                else:
                    missed.append(i)
                    lost += pts
            return gained - lost, tuple(done), tuple(missed), gained, lost

    def option(part: _Partition, borrowings: tuple[Borrowing, ...]) -> _Option:
        points, done, missed, gained, lost = evaluate(part)
        return _Option(points, done, missed, borrowings, gained, lost)

    if not stations:  # nothing to choose: the one outcome of the player's own network
        return [option(own, ())]
    relevant = sorted(
        {n for xs, dests in ticket_nodes for n in xs} | {n for _xs, dests in ticket_nodes for ys, _p in dests for n in ys}
        | {n for r in used_routes - owned for n in route_nodes[r]},
        key=repr,
    )

    results: dict[tuple[int, int], _Option] = {}
    seen: set[tuple] = set()

    def search(k: int, part: _Partition, chosen: tuple[Borrowing, ...]) -> None:
        labels: dict[Hashable, int] = {}
        situation = (k, tuple(labels.setdefault(part.find(n), len(labels)) for n in relevant))
        if situation in seen:
            return
        seen.add(situation)
        if len(seen) > MAX_STATION_SITUATIONS:
            raise ScoringError(
                f"{player.name or f'player {seat + 1}'}: {len(stations)} stations with "
                f"{', '.join(str(len(r)) for _p, r in stations)} routes to borrow leave too many borrowings to try "
                f"exactly (more than {MAX_STATION_SITUATIONS:,} distinct situations)"
            )
        points, done, missed, gained, lost = evaluate(part)
        if k == len(stations) or (not missed and not several):
            rest = tuple(Borrowing(place, None) for place, _r in stations[k:])
            results.setdefault((points, len(done)), _Option(points, done, missed, chosen + rest, gained, lost))
            return
        place, routes = stations[k]
        effects: set[frozenset] = set()
        for r in routes:
            a, b = route_nodes[r]
            effect = frozenset((part.find(a), part.find(b)))
            if len(effect) == 1 or effect in effects:
                continue  # joins nothing new, or the same two networks as a route already tried
            effects.add(effect)
            probe = part.copy()
            probe.union(a, b)
            search(k + 1, probe, chosen + (Borrowing(place, r),))
        if not effects:  # borrowing only ever adds connections, so "nothing" is tried only when nothing helps
            search(k + 1, part, chosen + (Borrowing(place, None),))

    search(0, own, ())
    front: list[_Option] = []
    for key in sorted(results, reverse=True):
        if not front or key[1] > front[-1].count:
            front.append(results[key])
    return front


def _own_option(ix: BoardIndex, player: PlayerPosition, parent: list[int] | None = None) -> _Option:
    """The one outcome of a player who built no station (_ticket_options with nothing to borrow): the tickets
    its own routes complete, each scoring its best destination reached, the others costing their lowest.
    `parent`: trail.networks of the player's routes' ends, if the caller has it. Only the tickets' places are
    looked up in it (a place no route of the player touches is in no network)."""
    route_nodes = ix.route_nodes
    claims = player.claims
    if parent is None:
        parent = networks([route_nodes[r] for r, _t in claims], ix.nodes)
    owned = {r for r, _t in claims}
    touched = set(chain.from_iterable(map(route_nodes.__getitem__, owned)))  # the nodes the player's routes touch
    city, country_ends = ix.city_node, ix.country_ends

    def reach(place: str) -> set[int]:
        """The networks (their roots) that reach `place`."""
        ends = country_ends.get(place)
        if ends is None:
            k = city.get(place)
            if k not in touched:
                return set()
            while parent[k] != k:
                k = parent[k]
            return {k}
        out = set()
        for r, k in ends:
            if r in owned:
                while parent[k] != k:
                    k = parent[k]
                out.add(k)
        return out

    done, missed = [], []
    gained = lost = 0
    for i in sorted(player.tickets):
        start, destinations, lowest = ix.ticket_places[i]
        at = reach(start)
        best = None
        if at:
            for place, points in destinations:
                if not at.isdisjoint(reach(place)):
                    best = points
                    break
        if best is None:
            missed.append(i)
            lost += lowest
        else:
            done.append(i)
            gained += best
    return _Option(gained - lost, tuple(done), tuple(missed), (), gained, lost)


def _choose_ticket_options(variant: Variant, options: list[list[_Option]]) -> list[int]:
    """Which option each player takes: the most ticket points, unless a different
    borrowing wins the most-tickets bonus and more than pays for itself.

    Only a variant with both stations and a most-tickets bonus can face that
    choice; each player's best reply to the others is taken until nobody
    changes (see docs/scoring.md).
    """
    baseline = [0] * len(options)
    bonus = variant.scoring.bonuses.most_tickets
    if not bonus or all(len(opts) == 1 for opts in options):
        return baseline
    choice = list(baseline)
    seen = {tuple(choice)}
    while True:
        changed = False
        for seat, opts in enumerate(options):
            rivals = max((options[s][choice[s]].count for s in range(len(options)) if s != seat), default=0)

            def value(o: _Option) -> tuple[int, int]:
                return (o.points + (bonus if o.count >= rivals and o.count > 0 else 0), o.count)

            best = max(range(len(opts)), key=lambda i: value(opts[i]))
            if value(opts[best]) > value(opts[choice[seat]]):
                choice[seat] = best
                changed = True
        if not changed:
            return choice
        if tuple(choice) in seen:
            return baseline  # the replies go round in a circle: every player keeps the most ticket points
        seen.add(tuple(choice))


# --- winners --------------------------------------------------------------------

_TIE_KEYS = {
    "most-tickets": lambda s: len(s.completed),
    "fewest-stations": lambda s: -s.stations_built,
    "longest-path": lambda s: s.longest_trail,
    "longest-path-bonus": lambda s: 1 if s.breakdown.get("longest_path", 0) > 0 else 0,
    "most-goods": lambda s: s.goods_points,
}


def _winners(variant: Variant, scores: Iterable[PlayerScore]) -> tuple[tuple[int, ...], str | None]:
    scores = list(scores)
    if not scores:
        return (), None
    top = max(s.total for s in scores)
    tied = [i for i, s in enumerate(scores) if s.total == top]
    for rule in variant.scoring.tie_breaks:
        if len(tied) == 1:
            break
        key = _TIE_KEYS[rule]
        best = max(key(scores[i]) for i in tied)
        narrowed = [i for i in tied if key(scores[i]) == best]
        if len(narrowed) < len(tied):
            tied = narrowed
            if len(tied) == 1:
                return tuple(tied), rule
    return tuple(tied), None
