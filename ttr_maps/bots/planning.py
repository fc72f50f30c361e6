"""Planning helpers shared by the planning bots: built for speed, with no networkx in the loop.

- `BoardData`: per-game tables derived once from the board and variant (public
  information): adjacency lists, route lengths, colours, ferries, tunnels,
  ticket ends, points. Cached per `Game`.
- `Knowledge`: what one seat has learnt from its views, updated incrementally
  from the claims and stations added since its last look (claims only ever grow).
  It keeps each route's cost to this seat: 0 if owned, the route's cost while
  some track is still claimable, and INF when closed (or a station's price, for
  bots that borrow routes with stations).
- `shortest_path`, `plan_network`: Dijkstra with early exit over small int
  graphs; the network for several tickets is grown greedily (a Steiner-tree
  heuristic): each ticket's cheapest path with the routes already planned free.
- `colour_needs`, `cheapest_claim`, `pick_draw`: what cards the plan still needs,
  which payment to make, which card to draw.
- `card_odds`: card counting from what is visible (own hand, face-up row, deck
  sizes): the chance that a blind card helps.
"""

from __future__ import annotations

import weakref
from heapq import heappop, heappush
from operator import sub
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..boardgraph import distances
from ..engine.actions import ClaimTrack, DrawBlind

if TYPE_CHECKING:
    from ..engine.game import Game
    from .view import View

INF = float("inf")

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
SHARED_PLANS = 3000  # networks on the empty board kept per style and board (BoardData.style_plans), at most


class BoardData:
    """Int tables of one game for planning (built once per Game, shared by every bot of it)."""

    # Worked out when first asked for: ticket_paths, LongRouteBot's (min_long, long routes), ExpertBot's filler
    # groups (expert._filler_groups).
    _ticket_paths: list[frozenset[int]] | None = None
    _long_routes: tuple[int, tuple[int, ...]] | None = None
    _filler: tuple[list[tuple[int, int, tuple[int, ...]]], dict] | None = None

    def __init__(self, game: Game):
        t = game.t
        v = game.variant
        self.game = game
        self.t = t
        self.n = game.num_players
        self.NP = t.NP
        self.NR = len(t.route_ids)
        self.NC = t.NC
        self.LOCO, self.BIG, self.PASS = t.LOCO, t.BIG, t.PASS
        self.ends = t.route_ends
        self.length = t.route_length
        self.route_tids = t.route_tids
        self.tid_route = t.t_route
        self.country = t.is_country
        self.ferry = tuple(t.t_ferry[tids[0]] if tids else 0 for tids in t.route_tids)
        self.tunnel = tuple(bool(t.t_tunnel[tids[0]]) if tids else False for tids in t.route_tids)
        self.loco_ok = tuple(bool(t.t_loco_ok[tids[0]]) if tids else True for tids in t.route_tids)
        self.stand_in = tuple(t.t_stand_in[tids[0]][0] if tids else 0 for tids in t.route_tids)  # cards per stand-in
        # Track colours per route (-1 gray, -2 never claimable in this variant).
        self.track_colors = tuple(tuple(t.t_color[tid] for tid in tids) for tids in t.route_tids)
        self.track_ok = tuple(t.t_color[tid] != -2 and t.t_ferry[tid] <= t.t_len[tid] for tid in range(t.NT))
        # Per route, (track id, colour) of the tracks that can ever be claimed in this variant.
        self.route_tracks = tuple(tuple((tid, t.t_color[tid]) for tid in tids if self.track_ok[tid]) for tids in t.route_tids)
        self.points = tuple(t.route_points.get(n, 0) for n in self.length)
        self.by_points = tuple(sorted(range(self.NR), key=lambda r: (-self.points[r], r)))  # most points first
        # Each route's place in by_points: the fewest is the most points, ties to the lowest route.
        self.points_rank = [0] * self.NR
        for i, r in enumerate(self.by_points):
            self.points_rank[r] = i
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(self.NP)]
        for r, (a, b) in enumerate(self.ends):
            if a == b:
                continue
            self.adj[a].append((r, b))
            self.adj[b].append((r, a))
        # Where a path may go on from each place: nowhere from a country (entered, never passed through).
        self.adj_pass = [() if self.country[x] else tuple(self.adj[x]) for x in range(self.NP)]
        # Dead ends: a country, or a place whose routes all lead to one other place. A path between two other
        # places never goes through one, and a search that reaches one finds nothing new there, so a search
        # for any other place leaves them out (adj_live: adj_pass without the routes into dead ends).
        self.dead = tuple(bool(self.country[x]) or len({v for _, v in self.adj[x]}) <= 1 for x in range(self.NP))
        self.adj_live = [tuple((r, v) for r, v in self.adj_pass[x] if not self.dead[v]) for x in range(self.NP)]
        self.ticket_ends = tuple((t.place_index[k.from_], t.place_index[k.to]) for k in t.tickets)
        self.ticket_points = tuple(k.points for k in t.tickets)
        self.parallel_closes = game.num_players < v.parallel.all_tracks_from
        # Per route, the tracks that can ever be claimed, whose being free keeps it open to a seat after another
        # seat's claim of one of its tracks (none when that claim closes the parallel tracks: Knowledge.update).
        self.free_tids = tuple(() if self.parallel_closes else tuple(x for x in tids if self.track_ok[x])
                               for tids in t.route_tids)
        self.deck_counts = tuple(t.deck_counts)
        self.station_costs = tuple(t.station_costs)
        self.has_stations = bool(self.station_costs)
        self.flag_colors = tuple(t.flag_colors)
        self.big_min = t.big_min
        self.has_big = t.deck_counts[t.BIG] > 0
        # Per route, what draw_needs reads of it: (length, ferry spaces, spaces paid in a colour, whether big
        # locomotives are wild on it, its claimable tracks).
        self.draw_shape = tuple((n, f, n - f, self.has_big and n >= self.big_min, tracks)
                                for n, f, tracks in zip(self.length, self.ferry, self.route_tracks))
        # draw_entry of each route before any claim (Knowledge.claimed: no track of it claimed yet).
        unowned = [-1] * t.NT
        self.draw_entry = tuple(draw_entry(self, r, unowned) for r in range(self.NR))
        self.longest_bonus = v.scoring.bonuses.longest_path
        # A face-up locomotive is one card like any other (docs/rules.md#face-up-locomotives), wild on every route
        # unless cards.locomotives_only_on limits it.
        self.loco_one_card = not v.cards.face_up_locomotive_costs_both_draws
        self.loco_everywhere = not v.cards.locomotives_only_on
        # Final-scoring bonuses a claim can win (docs/rules.md#two-paths, #most-routes-of-a-length).
        self.two_paths = v.scoring.bonuses.two_paths
        self.most_routes = tuple((m.length, m.points) for m in v.scoring.bonuses.most_routes)
        self.trains = v.trains
        self.end_at = v.end.trains_at_most
        self.goods_stacks = tuple(t.goods_stacks)
        # Every claim outside stand-ins pays a track's length with cards of one colour and wild cards
        # (RouteLegal.can_claim): a hand whose best colour plus wild cards is shorter than a route cannot claim it.
        self.claims_by_cards = not t.stand_in_groups
        # The ticket piles dealt from a deck of long tickets (a style may keep or value them apart).
        decks = game.board.decks
        self.long_piles = frozenset(pile for pile, names in v.tickets.piles.items()
                                    if any(decks.get(d) is not None and decks[d].long for d in names))
        # Per route, the colour of its tracks that can ever be claimed when they have one (-1: gray, two colours,
        # none, or stand-ins in this variant): a hand with fewer cards of it than the route's length less every
        # wild card held (locomotives and big ones) cannot claim it (RouteLegal.can_claim's test of each track).
        self.claim_colour = tuple(
            cols[0] if self.claims_by_cards and cols and cols[0] >= 0 and cols.count(cols[0]) == len(cols) else -1
            for cols in ([c for _, c in tracks] for tracks in self.route_tracks))
        # Static distances (by length) for cheap estimates: ticket difficulty, etc. One place's row is worked out
        # when first asked for (only tickets' ends are), not all pairs: that grew with places squared (issue 20.4).
        self.dist0 = _Rows(self, [float(n) for n in self.length])
        # Routes with a track that can ever be claimed (Knowledge's `open` at the start of a game).
        self.open0 = tuple(any(self.track_ok[tid] for tid in tids) for tids in t.route_tids)
        self.closed0 = tuple(r for r in range(self.NR) if not self.open0[r])
        self.style_costs: dict[type, list[float]] = {}  # bot class -> its route costs (PlanningBot.route_cost)
        # Bot class -> plan_network's networks on the empty board (before a seat has seen any claim): the same
        # for every seat of that style in every game of this board, so the starting tickets' choices share them.
        # They depend on the route costs only, so styles that price every route alike share one dict
        # (cost_plans: the costs as a tuple -> that dict): route-focus and ticket-hungry do.
        self.style_plans: dict[type, dict] = {}
        self.cost_plans: dict[tuple[float, ...], dict] = {}
        if any(len(k.destinations) > 1 for k in t.tickets):
            self._aim_tickets(t)
        self.ticket_order_key = tuple(-p for p in self.ticket_points)  # plan_network's order: most points first

    def _aim_tickets(self, t) -> None:
        """A ticket with several destinations is planned towards the one worth most per space on the empty board."""
        ends, points = list(self.ticket_ends), list(self.ticket_points)
        for i, k in enumerate(t.tickets):
            if len(k.destinations) > 1:
                a = t.place_index[k.from_]
                to, pts = max(k.destinations, key=lambda d: d[1] / max(1.0, self.dist0[a][t.place_index[d[0]]]))
                ends[i], points[i] = (a, t.place_index[to]), pts
        self.ticket_ends, self.ticket_points = tuple(ends), tuple(points)


class _Rows:
    """`rows[a][b]`: the distance from place a to place b on the empty board, a's row computed on first use."""

    def __init__(self, bd: BoardData, cost: list[float]):
        self._bd, self._cost = bd, cost
        self._rows: dict[int, list[float]] = {}

    def __getitem__(self, a: int) -> list[float]:
        row = self._rows.get(a)
        if row is None:
            row = self._rows[a] = dijkstra_all(self._bd, self._cost, a)
        return row


def ticket_paths(bd: BoardData) -> list[frozenset[int]]:
    """For each ticket, the routes on some shortest path (by spaces) between its ends on the empty board."""
    cached = bd._ticket_paths
    if cached is not None:
        return cached
    out = []
    for a, b in bd.ticket_ends:
        da, db = bd.dist0[a], bd.dist0[b]
        best = da[b]
        routes = set()
        if best < INF:
            for r, (u, v) in enumerate(bd.ends):
                L = bd.length[r]
                if da[u] + L + db[v] == best or da[v] + L + db[u] == best:
                    routes.add(r)
        out.append(frozenset(routes))
    bd._ticket_paths = out
    return out


def board_data(game: Game) -> BoardData:
    bd = _CACHE.get(game)
    if bd is None:
        bd = _CACHE[game] = BoardData(game)
    return bd


def dijkstra_all(bd: BoardData, cost: list[float], src: int) -> list[float]:
    """Distances from `src` to every place (countries are entered, never passed through)."""
    return distances(bd.adj, bd.country, cost, (src,))


def multi_source(bd: BoardData, cost: list[float], sources: Iterable[int]) -> list[float]:
    """Distances from the nearest of several places (a network) to every place."""
    return distances(bd.adj, bd.country, cost, sources)


def shortest_path(bd: BoardData, cost: list[float], src: int, dst: int) -> tuple[float, list[int]] | None:
    """(cost, routes) of a cheapest path from src to dst, or None. Routes listed from dst back to src.

    Costs are never negative; a closed route's INF never improves a distance, so it needs no test of its own.
    """
    if src == dst:
        return 0.0, []
    dist = [INF] * bd.NP
    prev = [-1] * bd.NP
    dist[src] = 0.0
    heap: list[tuple[float, int]] = []
    pop, push = heappop, heappush
    # The source first (a country too): the heap then holds its neighbours in the order they were reached, and
    # the source is never met again (no cost is negative). Past it, countries have no way out (adj_pass).
    for r, v in bd.adj[src]:
        nd = 0.0 + cost[r]
        if nd < dist[v]:
            dist[v] = nd
            prev[v] = r
            push(heap, (nd, v))
    # Past it, a dead end other than dst is left out: popped, it would lower no place (adj_live).
    adj = bd.adj_pass if bd.dead[dst] else bd.adj_live
    while heap:
        d, u = pop(heap)
        if u == dst:
            break
        if d > dist[u]:
            continue
        for r, v in adj[u]:
            nd = d + cost[r]
            # Past dst's distance so far, an entry would pop after dst's (the search stops there) and could
            # not lower a place on the path: it is left out, with the same path found, ties included.
            if nd < dist[v] and nd <= dist[dst]:
                dist[v] = nd
                prev[v] = r
                push(heap, (nd, v))
    if dist[dst] == INF:
        return None
    path = []
    ends = bd.ends
    x = dst
    while x != src:
        r = prev[x]
        path.append(r)
        a, b = ends[r]
        x = a if b == x else b
    return dist[dst], path


class Knowledge:
    """One seat's picture of the board, updated incrementally from its views.

    `cost[r]` is the planning cost of route r for this seat: 0 when owned, INF
    when no track is claimable by it (unless `borrow` prices an opponent's route
    reachable with a station), else `base_cost[r]`.
    """

    def __init__(self, bd: BoardData, seat: int, base_cost: list[float], borrow: float = INF,
                 setup_plans: dict | None = None):
        self.bd = bd
        self.seat = seat
        t = bd.t
        self.owner = [-1] * t.NT
        self.mine = [False] * bd.NR
        self.claimed = [False] * bd.NR  # some track claimed by anyone
        self.open = list(bd.open0)
        self.base_cost = base_cost
        self.borrow = borrow
        self.cost = cost = list(base_cost)
        for r in bd.closed0:
            cost[r] = INF
        self.seen = [0] * bd.n
        self.log: list[int] = []  # every claimed route, as this seat learnt of them
        # What update writes another seat's claim into, read in one go (these lists are never bound anew).
        self._tables = (bd.tid_route, self.owner, self.claimed, self.log, self.mine, self.open, self.cost, bd.free_tids)
        self.done_memo: tuple = (None, None, None)  # tickets_done's last answer
        self.draw_prep: _DrawPrep | None = None  # draw_needs' part of the last routes asked about
        self.trains: list[int] = []  # every seat's trains left, as of the last look (filled by the first update)
        self.stations_seen = [0] * bd.n
        self.station_at: dict[int, int] = {}
        self.my_stations: list[int] = []
        self.my_routes: list[int] = []
        # Union-find over the places, joined by this seat's routes between two places that are not countries (a
        # path never goes on from a country): two such places share a root when own routes join them.
        self.link = list(range(bd.NP))
        self.routes_of: list[list[int]] = [[] for _ in range(bd.n)]  # every player's claimed routes, in order
        self.changed: list[int] = []  # routes whose status changed since the bot last looked
        self.version = 0
        self.plans: dict[tuple[int, ...], tuple] = {}  # plan_network's networks per ticket-order prefix, for `plans_version`
        # plan_network's order: the starting tickets most points first, then each later draw's tickets after the
        # ones held before it, most points first (PlanningBot.keep numbers the draws: `draws`).
        self.order_key = list(bd.ticket_order_key)
        self.draws = 0
        # Networks on the empty board shared with every seat whose costs are `base_cost` (BoardData.style_plans),
        # read and added to while this seat has seen nothing (version 0).
        self.setup_plans = setup_plans
        self.plans_version = -1
        # Routes whose cost or openness changed since plan_network last looked, and whether any cost fell: a
        # kept network stays exact while every change only raised the cost of routes none of its paths use.
        self.cost_changed: set[int] = set()
        self.cost_fell = False

    def update(self, view: View) -> bool:
        """Take in new claims and stations; True when anything changed."""
        bd = self.bd
        changed = False
        counts = view.claim_counts()
        seen = self.seen
        if counts != seen:  # (every seat's count in one read; most looks find some new claim)
            trains = self.trains
            if not trains:
                trains = self.trains = [view.trains(p) for p in range(bd.n)]
            # Another seat's claim, inline (about three in four of the claims a seat takes in): the route's
            # track owned, the route closed when no track that can be claimed is left free (Knowledge.open),
            # its cost raised to INF, or to the borrowing price (_borrow_cost), when it closes.
            tid_route, owner, claimed, log, mine, open_, cost, free_tids = self._tables
            changes, me, no_borrow = self.changed, self.seat, self.borrow == INF
            p = 0
            for c in counts:
                if c > seen[p]:
                    rp = self.routes_of[p]
                    for tid in view.claims_from(p, seen[p]):  # (the new claims only, copied once)
                        if p == me:
                            self._own_claim(tid)
                            continue
                        r = tid_route[tid]
                        owner[tid] = p
                        claimed[r] = True
                        rp.append(r)
                        changes.append(r)
                        log.append(r)
                        if mine[r]:
                            continue
                        # A track still free leaves the route as it was (open: it had that free track before).
                        for x in free_tids[r]:  # (empty when parallel tracks close with a claim)
                            if owner[x] < 0:
                                break
                        else:  # no track left to claim
                            old = cost[r]
                            new = INF if no_borrow else self._borrow_cost(r)  # (_borrow_cost's first test)
                            if open_[r] or new != old:
                                open_[r] = False
                                self.cost_changed.add(r)
                                if new != old:
                                    cost[r] = new
                                    if new < old:
                                        self.cost_fell = True
                    seen[p] = c
                    trains[p] = view.trains(p)  # (trains change with claims only)
                    changed = True
                p += 1
        elif not self.trains:
            self.trains = [view.trains(p) for p in range(bd.n)]
        if bd.has_stations:
            for p in range(bd.n):
                built = len(bd.station_costs) - view.stations_left(p)
                if built != self.stations_seen[p]:
                    for x in view.stations(p)[self.stations_seen[p]:]:
                        self.station_at[x] = p
                        if p == self.seat:
                            self.my_stations.append(x)
                            for r, _ in bd.adj[x]:
                                self.changed.append(r)
                    self.stations_seen[p] = built
                    changed = True
            if changed and self.borrow < INF:
                self._reprice_borrowed()
        if changed:
            self.version += 1
        return changed

    def _own_claim(self, tid: int) -> None:
        """This seat's own claim of track `tid` (update takes other seats' claims in itself)."""
        bd = self.bd
        r = bd.tid_route[tid]
        self.owner[tid] = self.seat
        self.claimed[r] = True
        self.routes_of[self.seat].append(r)
        self.changed.append(r)
        self.log.append(r)
        self.mine[r] = True
        self.my_routes.append(r)
        a, b = bd.ends[r]
        if not (bd.country[a] or bd.country[b]):
            link = self.link
            while link[a] != a:
                a = link[a]
            while link[b] != b:
                b = link[b]
            if a != b:
                link[a] = b
        self.open[r] = False
        self.cost[r] = 0.0
        self.cost_fell = True

    def _set_cost(self, r: int, cost: float) -> None:
        old = self.cost[r]
        if cost != old:
            self.cost[r] = cost
            self.cost_changed.add(r)
            if cost < old:
                self.cost_fell = True

    def _borrow_cost(self, r: int) -> float:
        """The price of using an opponent's route through a station (INF when that is impossible)."""
        if self.borrow == INF or not self.claimed[r] or self.mine[r]:
            return INF
        bd = self.bd
        a, b = bd.ends[r]
        if self.station_at.get(a) == self.seat or self.station_at.get(b) == self.seat:
            return 0.5
        if len(self.my_stations) >= len(bd.station_costs):
            return INF
        if any(not bd.country[x] and x not in self.station_at for x in (a, b)):
            return self.borrow + bd.station_costs[len(self.my_stations)]
        return INF

    def _reprice_borrowed(self) -> None:
        for r in range(self.bd.NR):
            if not self.open[r] and not self.mine[r] and self.claimed[r]:
                self._set_cost(r, self._borrow_cost(r))

    def my_places(self) -> frozenset[int]:
        """Places at an end of one of this seat's routes (kept until the seat's next claim)."""
        n = len(self.my_routes)
        memo = self._places_memo
        if memo[0] == n:
            return memo[1]
        ends = self.bd.ends
        places = frozenset({x for r in self.my_routes for x in ends[r]})
        self._places_memo = (n, places)
        return places

    _places_memo: tuple = (-1, frozenset())

    def take_changes(self) -> list[int]:
        out = self.changed
        self.changed = []
        return out

    def connected(self, a: int, b: int, extra: Iterable[int] = ()) -> bool:
        """Are places a and b joined by this seat's routes (plus `extra` routes), never through a country?"""
        if a == b:
            return True
        bd = self.bd
        use = set(self.my_routes)
        use.update(extra)
        if not use:
            return False
        seen = {a}
        stack = [a]
        country = bd.country
        adj = bd.adj
        while stack:
            u = stack.pop()
            if country[u] and u != a:
                continue
            for r, v in adj[u]:
                if r in use and v not in seen:
                    if v == b:
                        return True
                    seen.add(v)
                    stack.append(v)
        return False

    def component(self, a: int) -> set[int]:
        """Places reached from a through own routes."""
        bd = self.bd
        mine = self.mine
        seen = {a}
        stack = [a]
        while stack:
            u = stack.pop()
            if bd.country[u] and u != a:
                continue
            for r, v in bd.adj[u]:
                if mine[r] and v not in seen:
                    seen.add(v)
                    stack.append(v)
        return seen


class Plan:
    """The routes a seat still wants, and what they cost."""

    __slots__ = ("routes", "trains", "cost", "reachable", "unreachable", "borrowed", "version", "paths")

    def __init__(self) -> None:
        self.routes: list[int] = []  # to claim, in the order they were added
        self.trains = 0
        self.cost = 0.0
        self.reachable: list[int] = []  # tickets the plan completes (or already complete)
        self.unreachable: list[int] = []
        self.borrowed: list[int] = []  # opponents' routes to use through a station
        self.version = -1
        self.paths: tuple = ()  # (ticket, its path's routes) per reachable ticket, in the order they were planned


def plan_network(know: Knowledge, tickets: Iterable[int], cost: list[float] | None = None,
                 stop: Callable[[Plan], bool] | None = None) -> Plan | None:
    """Grow one network for `tickets`: each ticket's cheapest path, earlier choices free. The order is
    `know.order_key`: tickets held before a draw of tickets first (the network for them is the plan already
    made), each draw's tickets most valuable first.

    With the seat's own costs, the network after each prefix of the ticket order is kept: the ticket
    choices and the plan's rebuilds ask for many networks that share their first tickets (the same paths,
    so the same plan as computing them again). A kept network outlives a change of the knowledge that only
    made routes off its paths dearer (an opponent's claim elsewhere): the cheapest paths Dijkstra finds, ties
    included, are then the same, so only the changed costs are copied into it. Any cost that fell (an own
    claim or station) or a change on its paths drops it.

    `stop`, if given, is asked before each ticket's search with the network so far: True gives up (None is
    returned; the networks kept for the prefixes searched stay exact).
    """
    bd = know.bd
    order = sorted(tickets, key=know.order_key.__getitem__)
    cache = None
    start = 0
    if cost is None:
        cache = know.plans
        if know.plans_version != know.version:
            _refresh_plans(know)
        shared = know.setup_plans if know.version == 0 else None
        for i in range(len(order), 0, -1):
            key = tuple(order[:i])
            got = cache.get(key)
            if got is None and shared is not None:
                got = shared.get(key)
                if got is not None:  # a copy of its own: the seat's kept networks get costs copied into them
                    got = cache[key] = (got[0][:], *got[1:])
            if got is not None:
                start = i
                break
    plan = Plan()
    plan.version = know.version
    n = len(order)
    if start:
        c, routes, trains, pcost, reachable, unreachable, borrowed, used, paths = got  # type: ignore[misc]  # (start > 0: got is set)
        plan.routes, plan.trains, plan.cost = routes[:], trains, pcost
        plan.reachable, plan.unreachable, plan.borrowed = reachable[:], unreachable[:], borrowed[:]
        plan.paths = paths
        if start == n:  # the whole network kept: no search, so no copy of its costs to search on
            return plan
        c = c[:]
        used = set(used)
    elif not n:
        return plan
    else:
        c = (cost or know.cost)[:]
        used = set()
        trains, pcost = 0, 0.0
        paths = ()
    mine = know.mine
    open_ = know.open
    length = bd.length
    ticket_ends = bd.ticket_ends
    routes, reachable, unreachable, borrowed = plan.routes, plan.reachable, plan.unreachable, plan.borrowed
    for i in range(start, n):
        if stop is not None:
            plan.trains, plan.cost = trains, pcost
            if stop(plan):
                return None
        k = order[i]
        a, b = ticket_ends[k]
        res = shortest_path(bd, c, a, b)
        if res is None:
            unreachable.append(k)
        else:
            reachable.append(k)
            path = res[1]
            paths += ((k, path),)
            used.update(path)
            got = _take_path(path, c, open_, mine, length, routes, borrowed)
            pcost += got[0]
            trains += got[1]
        if cache is not None:
            key = tuple(order[: i + 1])
            entry = cache[key] = (c[:], routes[:], trains, pcost, reachable[:], unreachable[:], borrowed[:],
                                  frozenset(used), paths)
            if shared is not None and len(shared) < SHARED_PLANS:
                shared[key] = (c[:], *entry[1:])
    plan.trains, plan.cost, plan.paths = trains, pcost, paths
    return plan


def _take_path(path: list[int], c: list[float], open_: list, mine: list, length: Sequence[int], routes: list[int],
               borrowed: list[int]) -> tuple[float, int]:
    """A ticket's path joins a network: each route not yet free in `c` is made free, open ones go to `routes`,
    other seats' ones to `borrowed`; (the cost added, the trains added), the cost INF at once if a route of
    the path is closed (plan_network's paths never are; repair_plan's kept ones may be)."""
    cost, trains = 0.0, 0
    for r in path:
        x = c[r]
        if x > 0:
            if x == INF:
                return INF, 0
            cost += x
            c[r] = 0.0
            if open_[r]:
                routes.append(r)
                trains += length[r]
            elif not mine[r]:
                borrowed.append(r)
    return cost, trains


def repair_plan(know: Knowledge, plan: Plan, cut: set[int], todo: list[int]) -> Plan | None:
    """`plan` again after other seats' claims cut some of its paths (`cut`: the claimed routes), with only the
    costs of routes raised since it was built: the tickets of `todo` whose paths `cut` misses keep them (their
    routes free, as planned), and only the tickets whose paths it cut are searched again, with every kept path
    free, most points first. Tickets the plan did not reach stay unreached (no cost fell). None when the plan
    has no path for some ticket of `todo` it is asked about (a full build is needed)."""
    bd = know.bd
    kept, again = [], []
    paths = dict(plan.paths)
    unreachable = set(plan.unreachable)
    for k in todo:
        path = paths.get(k)
        if path is None:
            if k not in unreachable:
                return None
        elif cut.isdisjoint(path):
            kept.append((k, path))
        else:
            again.append(k)
    again.sort(key=know.order_key.__getitem__)
    c = know.cost[:]
    out = Plan()
    out.version = know.version
    routes, reachable, borrowed = out.routes, out.reachable, out.borrowed
    out.unreachable = [k for k in plan.unreachable if k in todo]
    mine, open_, length = know.mine, know.open, bd.length
    trains, pcost = 0, 0.0
    new_paths: tuple = ()
    ticket_ends = bd.ticket_ends
    for k, path in kept + [(k, None) for k in again]:
        if path is None:
            a, b = ticket_ends[k]
            res = shortest_path(bd, c, a, b)
            if res is None:
                out.unreachable.append(k)
                continue
            path = res[1]
        reachable.append(k)
        new_paths += ((k, path),)
        got = _take_path(path, c, open_, mine, length, routes, borrowed)
        if got[0] == INF:  # (a kept path closed some other way)
            return None
        pcost += got[0]
        trains += got[1]
    out.trains, out.cost, out.paths = trains, pcost, new_paths
    return out


def _refresh_plans(know: Knowledge) -> None:
    """Bring plan_network's kept networks up to the knowledge's version (see plan_network)."""
    cache = know.plans
    changed = know.cost_changed
    if know.cost_fell:
        cache.clear()
    elif changed:
        cost = know.cost
        for key in list(cache):
            entry = cache[key]
            if entry[7].isdisjoint(changed):
                c = entry[0]
                for r in changed:  # off its paths, so never zeroed in it
                    c[r] = cost[r]
            else:
                del cache[key]
    know.cost_changed = set()
    know.cost_fell = False
    know.plans_version = know.version


def tickets_done(know: Knowledge, tickets: Iterable[int]) -> tuple[list[int], list[int]]:
    """(completed, not yet completed) among `tickets`, by own routes only.

    Kept for the last tickets asked about until this seat's next claim (only own routes join them)."""
    if type(tickets) is not list:
        tickets = list(tickets)
    key = (len(know.my_routes), tickets)
    memo = know.done_memo
    if memo[0] == key:
        return memo[1][:], memo[2][:]
    bd = know.bd
    done: list[int] = []
    todo: list[int] = []
    comp_cache: dict[int, set[int]] = {}
    ticket_ends, country, link = bd.ticket_ends, bd.country, know.link
    for k in tickets:
        a, b = ticket_ends[k]
        if not (country[a] or country[b]):  # joined iff one root (Knowledge.link); halving the paths on the way
            while link[a] != a:
                link[a] = link[link[a]]
                a = link[a]
            while link[b] != b:
                link[b] = link[link[b]]
                b = link[b]
            (done if a == b else todo).append(k)
            continue
        comp = comp_cache.get(a)
        if comp is None:
            comp = know.component(a)
            for x in comp:
                if not bd.country[x] or x == a:
                    comp_cache[x] = comp
        (done if b in comp else todo).append(k)
    know.done_memo = ((key[0], tickets[:]), done[:], todo[:])
    return done, todo


def longest_claim(bd: BoardData, hand: list[int], trains: int) -> int:
    """The longest route `hand` and `trains` could pay at all: a route longer has no legal claim (a test the
    engine's RouteLegal.can_claim makes among others, so a route passing it still needs can_claim)."""
    if not bd.claims_by_cards:
        return trains
    top = (max(hand[: bd.NC]) if bd.NC else 0) + hand[bd.LOCO] + hand[bd.BIG]
    return top if top < trains else trains


def track_have(bd: BoardData, r: int, hand: list[int], owner: list[int], hmax: int) -> tuple[int, int]:
    """(colour, cards of it held) of the open track of route r that the hand is closest to paying: colour -1
    (gray) counts the colour held most (`hmax`); (-1, hmax) when no track is open."""
    best_c, best_have = -3, -1
    for tid, c in bd.route_tracks[r]:
        if owner[tid] >= 0:
            continue
        have = hmax if c < 0 else hand[c]
        if have > best_have:
            best_c, best_have = c, have
    if best_c == -3:
        return -1, hmax
    return best_c, best_have


def best_track(bd: BoardData, r: int, hand: list[int], know: Knowledge) -> int:
    """The colour (-1 gray) of the open track of route r that the hand is closest to paying."""
    return track_have(bd, r, hand, know.owner, max(hand[: bd.NC]))[0]


def colour_needs(bd: BoardData, routes: Iterable[int], hand: list[int], know: Knowledge) -> tuple[list[int], list[int], int]:
    """(cards per colour wanted, cards per colour still missing, locomotives missing) for claiming `routes`.

    A gray route is assigned to the colour the hand holds most of (after the
    coloured routes); a double route to the track whose colour the hand holds most.
    """
    NC = bd.NC
    need = [0] * NC
    grays: list[int] = []
    locos = 0
    owner = know.owner
    hmax = max(hand[:NC])
    shape = bd.draw_shape
    for r in routes:
        f, paid = shape[r][1:3]
        locos += f
        c = track_have(bd, r, hand, owner, hmax)[0]
        if c >= 0:
            need[c] += paid
        else:
            grays.append(paid)
    if grays:
        grays.sort(reverse=True)
        _assign_grays(grays, need, hand, NC)
    deficit = [n - h if n > h else 0 for n, h in zip(need, hand)]
    loco_need = locos - hand[bd.LOCO]
    return need, deficit, loco_need if loco_need > 0 else 0


def _assign_grays(grays: list[int], need: list[int], hand: list[int], NC: int) -> None:
    """Add each gray route's cards (`grays`, longest first) to `need` in the colour with the most cards to
    spare (held less needed; the first such colour)."""
    spare = list(map(sub, hand, need))  # (need has NC colours: the map stops there)
    for g in grays:
        best = spare.index(max(spare))
        spare[best] -= g
        need[best] += g


def draw_entry(bd: BoardData, r: int, owner: list[int]) -> tuple:
    """What draw_needs reads of route r with track owners `owner`: (length, ferry spaces, spaces paid in a
    colour, whether big locomotives are wild on it, colour, None) when its open tracks are of one colour (-1:
    gray, or no open track, counted as a gray one as track_have does), whatever the hand; else (..., -1, the
    open tracks' colours in order), the one the hand is closest to paying (the first such) chosen per hand."""
    L, f, paid, big, tracks = bd.draw_shape[r]
    cols = [c for tid, c in tracks if owner[tid] < 0]
    c = cols[0] if cols else -1
    if cols.count(c) == len(cols):
        return L, f, paid, big, c, None
    return L, f, paid, big, -1, tuple(cols)


class _DrawPrep:
    """What draw_needs reads of a list of routes that no card drawn changes, kept per seat (Knowledge.draw_prep)
    while no claim touched one of them: the colours of their open tracks decide it, and only a claim of a
    track changes those (Knowledge.log lists every claimed route)."""

    __slots__ = ("bd", "routes", "seen", "need", "grays", "locos", "entries", "mixed")

    def __init__(self, bd: BoardData, routes: list[int], know: Knowledge):
        self.bd = bd
        self.routes = routes[:]
        self.seen = len(know.log)
        need = [0] * bd.NC
        grays: list[int] = []
        locos = 0
        entries = []
        mixed = []
        entry0, claimed = bd.draw_entry, know.claimed
        for r in routes:
            e = entry0[r] if not claimed[r] else draw_entry(bd, r, know.owner)
            entries.append(e)
            L, f, paid, big, c, cols = e
            locos += f
            if cols is not None:
                mixed.append((paid, cols))
            elif c >= 0:
                need[c] += paid
            else:
                grays.append(paid)
        grays.sort(reverse=True)
        self.need, self.grays, self.locos, self.entries, self.mixed = need, grays, locos, entries, mixed

    def needs(self, hand: list[int]) -> tuple[list[int], int]:
        """(cards per colour wanted, locomotives missing) with `hand` (draw_needs)."""
        bd = self.bd
        NC = bd.NC
        need = self.need[:]
        grays = self.grays
        if self.mixed:
            hmax = max(hand[:NC])
            for paid, cols in self.mixed:  # track_have over the open tracks: the first of the most cards held
                c, have = -1, -1
                for k in cols:
                    h = hmax if k < 0 else hand[k]
                    if h > have:
                        c, have = k, h
                if c >= 0:
                    need[c] += paid
                else:
                    if grays is self.grays:
                        grays = grays[:]
                    grays.append(paid)
        if grays:
            if grays is not self.grays:
                grays.sort(reverse=True)
            _assign_grays(grays, need, hand, NC)
        loco_need = self.locos - hand[bd.LOCO]
        return need, loco_need if loco_need > 0 else 0

    def focus(self, hand: list[int]) -> int:
        """The colour of the route closest to being paid with `hand` (draw_needs)."""
        bd = self.bd
        hmax = max(hand[: bd.NC])
        loco_held = hand[bd.LOCO]
        wild_big = loco_held + (hand[bd.BIG] if bd.has_big else 0)  # wild cards on a route where big locomotives count
        focus, focus_d = -1, INF
        for L, f, paid, big, c, cols in self.entries:
            if cols is None:
                have = hmax if c < 0 else hand[c]
            else:  # track_have over the open tracks: the first of the most cards held
                have = -1
                for k in cols:
                    h = hmax if k < 0 else hand[k]
                    if h > have:
                        c, have = k, h
            # The cards missing (wild cards counted on every route: see draw_needs); only a count above 0 is
            # looked at, so without ferry spaces it is left unclamped.
            if f:
                wild = wild_big if big else loco_held
                if wild < f:
                    x = paid - have
                    d = f - wild + (x if x > 0 else 0)
                else:
                    d = L - (have if have < paid else paid) - wild
            else:
                d = L - have - (wild_big if big else loco_held)
            if 0 < d < focus_d:
                # A gray route: the colour held most (the first such colour).
                focus, focus_d = (c if c >= 0 else hand.index(hmax)), d
        return focus


def draw_prep(bd: BoardData, routes: list[int], know: Knowledge) -> _DrawPrep:
    """draw_needs' part of `routes` that no card drawn changes: the seat's kept one while it holds."""
    prep = know.draw_prep
    if prep is not None and routes == prep.routes:
        log = know.log
        n = len(log)
        if n == prep.seen:
            return prep
        for r in log[prep.seen:]:  # the claims since: none of them on these routes
            if r in routes:
                break
        else:
            prep.seen = n
            return prep
    prep = know.draw_prep = _DrawPrep(bd, routes, know)
    return prep


def draw_needs(bd: BoardData, routes: list[int], hand: list[int], know: Knowledge) -> tuple[list[int], int, int]:
    """(cards per colour wanted, locomotives missing, focus colour) for claiming `routes`: colour_needs' `need`
    (the cards missing of colour k are need[k] - hand[k] when above 0) and the colour of the route closest to
    being paid (the fewest cards missing, more than none; -1: none). The cards missing are counted as the
    fillers count them (tests/test_bots_deficit.py), except that wild cards count on every route here, even
    one that refuses them (cards.locomotives_only_on): a deliberate difference kept from the start, which only
    picks the colour drawn first, never a claim.

    The part no card drawn changes (each route's open-track colour where only one is left, the cards of those
    colours, the ferries' locomotives) is kept per seat while the routes are the same and no claim touched
    them (draw_prep): a turn's two draws and the turns between claims on the plan read it again. A draw asks
    for the focus only when it can change the card taken (pick_draw)."""
    prep = draw_prep(bd, routes, know)
    need, loco_need = prep.needs(hand)
    return need, loco_need, prep.focus(hand)


def cheapest_claim(bd: BoardData, options: list[ClaimTrack], hand: list[int], other_need: list[int] | None) -> ClaimTrack:
    """The payment among `options` (claims of one route) that spends the least useful cards."""
    t = bd.t
    best, best_cost = options[0], INF
    for a in options:
        counts = t.payment_counts(a.payment)
        color, nc, nl, nb, _ = counts  # type: ignore[misc]  # (a legal claim's payment always has counts)
        cost = nl * 2.5 + nb * 2.0 + a.stand_ins * bd.stand_in[a.route] * 1.2
        if nc:
            spare = hand[color] - nc
            keep_for = other_need[color] if other_need is not None else 0
            cost += nc * (1.0 + (1.5 if keep_for > spare else 0.0))
            if bd.flag_colors and color in bd.flag_colors:
                cost -= 0.5  # a coloured payment on a flag route may give a flag card
        if cost < best_cost:
            best, best_cost = a, cost
    return best


def card_odds(bd: BoardData, hand: list[int], face_up: list[int], wanted: Iterable[int]) -> float:
    """Chance that one blind card is of a wanted kind, counting the cards seen (own hand, face-up row)."""
    unseen = list(bd.deck_counts)
    for k, n in enumerate(hand):
        unseen[k] -= n
    for k in face_up:
        if k >= 0:
            unseen[k] -= 1
    total = sum(max(0, u) for u in unseen)
    if total <= 0:
        return 0.0
    good = sum(max(0, unseen[k]) for k in set(wanted))
    return good / total


def _missing(need: list[int], hand: list[int]) -> int:
    """Cards missing over every colour: need less hand where above 0."""
    return sum([n - h for n, h in zip(need, hand) if n > h])


def pick_draw(bd: BoardData, legal_draws: list, face_up: list[int], need: list[int], hand: list[int], loco_need: int,
              second: bool, take_locos: bool, focus: int | Callable[[list[int]], int] = -1) -> object | None:
    """A card draw for the colours the plan lacks (`need` less `hand`, per colour): a face-up card of the
    most-missing colour, else blind.

    `focus` (a colour, or a function of the hand giving it, asked only when face-up cards of two colours are
    wanted: with one, it cannot change the card taken) is preferred when it is face up. A face-up locomotive is
    taken as a first card when the plan needs locomotives (ferries) or, with
    `take_locos`, when nothing wanted is face up and much is missing. Where a
    face-up locomotive is one card like any other, it is a wild card for the
    price of one: taken first or second whenever the plan misses cards it pays.

    `legal_draws` is the engine's list (cards.legal_draws): the blind card first when it may be drawn, then
    face-up slots in order.
    """
    LOCO, NC = bd.LOCO, bd.NC
    n = len(legal_draws)
    off = 1 if n and type(legal_draws[0]) is DrawBlind else 0
    if n - off == len(face_up):
        # Every slot may be taken (most draws): the engine lists the blind card first, then the slots in order
        # (cards.legal_draws), so slot s is legal_draws[off + s] and the row itself is read, not the actions.
        best, best_d = -1, 0  # the slot of the colour the plan misses most (the first such slot)
        loco = -1  # a face-up locomotive's slot (the last such slot)
        first_k, two = -1, False  # the first wanted colour face up; whether another one is
        s = 0
        for k in face_up:
            if k < NC:  # (LOCO is NC; a full row has no empty slot, -1)
                dk = need[k] - hand[k]
                if dk > 0:  # (a colour missing nothing scores 0, never above the best so far)
                    if first_k < 0:
                        first_k = k
                    elif k != first_k:
                        two = True
                    if dk > best_d:
                        best, best_d = s, dk
            elif k == LOCO:
                loco = s
            s += 1
        if loco >= 0 and bd.loco_one_card and (loco_need > 0 or (bd.loco_everywhere and _missing(need, hand) > 0)):
            return legal_draws[off + loco]
        if best >= 0:
            if two:  # the focus colour scores 100 more: with one wanted colour face up, the same card
                if callable(focus):
                    focus = focus(hand)
                if 0 <= focus < NC:
                    fd = need[focus] - hand[focus]
                    if fd > 0 and focus in face_up:  # its first slot, unless another colour scores more (or as
                        fs = 100 + 2 * fd  # much, earlier)
                        fslot = face_up.index(focus)
                        if fs > 2 * best_d or (fs == 2 * best_d and fslot < best):
                            best = fslot
            return legal_draws[off + best]
        if loco >= 0 and not second:
            if loco_need > 0 or (take_locos and _missing(need, hand) >= 3):
                return legal_draws[off + loco]
        return legal_draws[0] if n else None  # the blind card, else (the deck gone) the lowest slot
    # Some slots only (a locomotive that may not be taken second, an empty slot): the slots listed.
    blind = legal_draws[0] if off else None
    best_draw: object | None = None  # the face-up card of the colour the plan misses most (the first such slot)
    best_score = 0
    loco_draw: object | None = None  # a face-up locomotive (the last such slot)
    firsts: dict[int, object] = {}  # wanted colour face up -> its first slot
    for a in legal_draws[1:] if off else legal_draws:
        k = face_up[a.slot]
        if k < NC:
            dk = need[k] - hand[k]
            if dk > 0:  # (a colour missing nothing scores 0, never above the best so far)
                if k not in firsts:
                    firsts[k] = a
                score = dk * 2
                if score > best_score:
                    best_draw, best_score = a, score
        elif k == LOCO:
            loco_draw = a
    if loco_draw is not None and bd.loco_one_card and (loco_need > 0 or (bd.loco_everywhere and _missing(need, hand) > 0)):
        return loco_draw
    if best_draw is not None:
        if len(firsts) > 1:  # the focus colour scores 100 more: with one wanted colour face up, the same card
            if callable(focus):
                focus = focus(hand)
            fa = firsts.get(focus)
            if fa is not None:  # its first slot, unless another colour scores more (or as much, earlier)
                fs = 100 + 2 * (need[focus] - hand[focus])
                if fs > best_score or (fs == best_score and legal_draws.index(fa) < legal_draws.index(best_draw)):
                    best_draw = fa
        return best_draw
    if loco_draw is not None and not second:
        if loco_need > 0 or (take_locos and _missing(need, hand) >= 3):
            return loco_draw
    if blind is not None:
        return blind
    # No blind card: any face-up card (the deck is gone), the lowest slot.
    first, first_slot = None, -1
    for a in legal_draws:
        slot = a.slot
        if first is None or slot < first_slot:
            first, first_slot = a, slot
    return first
