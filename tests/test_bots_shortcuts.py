"""Shortcuts the planning bots take give what the long way gives.

- shortest_path leaves out the heap entries past the destination's distance so far, and the dead ends
  (countries, places with one neighbour) unless one is the destination: the same path, ties included, as the
  search that keeps them, on random costs with many ties and free routes;
- a turn splits the legal list at its first action other than a card draw: the engine lists the draws first;
- a stalled turn's claim, the most points, is the first claimable route in that order, tested one by one:
  the same route as the least points_rank among every claimable route;
- Knowledge keeps every seat's trains from the counts it read when it saw that seat claim, and its own
  network's places until its next claim: the same as asking the view and working them out, at every
  decision of seeded games;
- Knowledge takes another seat's claim in inline, not through a call per claim: after every look of seeded
  games each route's owner, claimed, open and cost are what the view's claims give worked out from scratch;
- a stalled turn's claim does not ask about a route of one colour whose cards and wild cards held fall short of
  its length: can_claim refuses every such route at every turn of seeded games;
- a planning bot keeps no reference to a decision's view (its filler kept per turn and phase): the runner hands
  each seat one view for the whole game, none closed and made again;
- tickets_done reads a union-find of the seat's own routes: the same answers as walking them, in seeded games;
- the expert's blocking join takes its first network ahead of the heap, its detours are guided by the join's
  own distances (A*), and its networks are UnionFind's steps inlined: the same paths, costs and groups.
"""

from __future__ import annotations

import random
from heapq import heappop, heappush
from pathlib import Path

import pytest
from bot_reference import whole_value_keep

from ttr_maps.bots import expert, planner, planning
from ttr_maps.bots.planning import INF, board_data, shortest_path
from ttr_maps.engine.actions import DrawBlind, DrawFaceUp
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
PLANNING = ["expert", "route-focus", "ticket-hungry", "long-route"]


def _game(variant: str, players: int) -> Game:
    return Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)


def _reference_path(bd, cost, src, dst):
    """Dijkstra as shortest_path ran it before the shortcut: every improvement pushed."""
    if src == dst:
        return 0.0, []
    dist = [INF] * bd.NP
    prev = [-1] * bd.NP
    dist[src] = 0.0
    heap = []
    for r, v in bd.adj[src]:
        nd = 0.0 + cost[r]
        if nd < dist[v]:
            dist[v] = nd
            prev[v] = r
            heappush(heap, (nd, v))
    while heap:
        d, u = heappop(heap)
        if u == dst:
            break
        if d > dist[u]:
            continue
        for r, v in bd.adj_pass[u]:
            nd = d + cost[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                heappush(heap, (nd, v))
    if dist[dst] == INF:
        return None
    path = []
    x = dst
    while x != src:
        r = prev[x]
        path.append(r)
        a, b = bd.ends[r]
        x = a if b == x else b
    return dist[dst], path


@pytest.mark.parametrize("variant", ["usa", "marklin", "europe"])
def test_shortest_path_equals_the_search_that_keeps_every_entry(variant):
    """Costs drawn from a few whole and half values (many equal paths), a share of free routes (own and
    planned ones) and of closed ones: the path, its order and its cost are the reference's on every pair."""
    bd = board_data(_game(variant, 4))
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        cost = [rng.choice((0.0, 0.0, 1.0, 1.5, 2.0, 2.0, 3.0, INF)) for _ in range(bd.NR)]
        for _ in range(15):
            a, b = rng.randrange(bd.NP), rng.randrange(bd.NP)
            assert shortest_path(bd, cost, a, b) == _reference_path(bd, cost, a, b)
            checked += 1
    assert checked == 900


@pytest.mark.parametrize("variant,players", [("usa", 4), ("marklin", 4), ("europe", 3)])
def test_turn_split_and_kept_trains_match_the_view(variant, players, monkeypatch):
    """Through seeded games of the four planning styles: at each turn the draws the bot took from the head of
    the legal list are every card draw of it, and the rest every other action, in order; after each look
    the seat's kept trains are the view's."""
    from ttr_maps.simulate.runner import play_game

    seen = {"turns": 0, "looks": 0}
    turn, update = planner.PlanningBot.turn, planning.Knowledge.update

    def checked_turn(self, view, legal):
        if type(legal) is not list:
            kinds = [type(a) in (DrawBlind, DrawFaceUp) for a in legal]
            assert kinds == sorted(kinds, reverse=True)  # every draw before any other action
            seen["turns"] += 1
        return turn(self, view, legal)

    def checked_update(self, view):
        changed = update(self, view)
        assert self.trains == [view.trains(p) for p in range(view.num_players)]
        assert self.my_places() == {x for r in self.my_routes for x in self.bd.ends[r]}
        seen["looks"] += 1
        return changed

    monkeypatch.setattr(planner.PlanningBot, "turn", checked_turn)
    monkeypatch.setattr(planning.Knowledge, "update", checked_update)
    game = _game(variant, players)
    bots = PLANNING[:players]
    for seed in range(1, 4):
        play_game(game, bots, seed, seed)
    assert seen["turns"] > 100 and seen["looks"] > 100


@pytest.mark.parametrize("variant,players", [("usa", 4), ("usa", 2), ("europe", 4), ("marklin", 3)])
def test_knowledge_routes_match_the_claims_in_view(variant, players, monkeypatch):
    """Knowledge.update takes another seat's claim in without a call per claim: after every look of seeded games
    of the four planning styles, each route's owner, claimed, mine, open and cost are what the view's claims
    give worked out from scratch (open: not ours, and a track that can be claimed free while parallel tracks
    stay open at this table; cost: 0 ours, the style's cost open, else the station price or INF), and every
    seat's routes are its claims' routes in order. USA 2 players closes parallel tracks, Europe borrows
    routes through stations."""
    from ttr_maps.simulate.runner import play_game

    update = planning.Knowledge.update
    seen = {"looks": 0, "open_doubles": 0, "closed_by_others": 0}

    def checked(self, view):
        changed = update(self, view)
        bd = self.bd
        owner = [-1] * len(bd.track_ok)
        for p in range(view.num_players):
            claims = view.claims(p)
            assert self.routes_of[p] == [bd.tid_route[tid] for tid in claims]
            for tid in claims:
                owner[tid] = p
        assert self.owner == owner
        for r in range(bd.NR):
            tids = bd.route_tids[r]
            mine = any(owner[x] == self.seat for x in tids)
            claimed = any(owner[x] >= 0 for x in tids)
            if mine:
                is_open = False
            elif claimed:
                is_open = not bd.parallel_closes and any(owner[x] < 0 and bd.track_ok[x] for x in tids)
                seen["open_doubles"] += is_open
                seen["closed_by_others"] += not is_open
            else:
                is_open = bd.open0[r]
            assert (self.mine[r], self.claimed[r], self.open[r]) == (mine, claimed, is_open), r
            if mine:
                want = 0.0
            elif is_open:
                want = self.base_cost[r]
            elif claimed:
                want = self._borrow_cost(r)
            else:
                want = INF
            assert self.cost[r] == want, r
        seen["looks"] += 1
        return changed

    monkeypatch.setattr(planning.Knowledge, "update", checked)
    game = _game(variant, players)
    for seed in range(1, 4):
        play_game(game, PLANNING[:players], seed, seed)
    assert seen["looks"] > 100 and seen["closed_by_others"] > 100
    assert (seen["open_doubles"] > 0) == (not board_data(game).parallel_closes)


@pytest.mark.parametrize("variant,players", [("usa", 4), ("europe", 4), ("marklin", 4), ("paris", 3)])
def test_a_route_of_one_colour_the_hand_cannot_pay_has_no_claim(variant, players, monkeypatch):
    """A stalled turn's claim (top_claim) does not ask can_claim about a route of one colour whose cards held plus
    every wild card (locomotives, big locomotives) are fewer than its length (BoardData.claim_colour): at every
    turn's start of seeded games, every route can_claim accepts passes that test, and the test refuses some
    (Märklin: big locomotives, wild on long routes only)."""
    from ttr_maps.engine.claims import RouteLegal
    from ttr_maps.simulate.runner import play_game

    turn = planner.PlanningBot.turn
    seen = {"turns": 0, "claimable": 0, "refused": 0}

    def checked(self, view, legal):
        if type(legal) is RouteLegal and legal.routes is not None:
            bd = self.bd
            hand = view.hand
            wild = hand[bd.LOCO] + hand[bd.BIG]
            fresh = RouteLegal.__new__(RouteLegal)  # (can_claim's own tests, not the listed routes)
            fresh._game, fresh._hand, fresh._trains, fresh._open = legal._game, legal._hand, legal._trains, legal._open
            fresh._routes = fresh._quick = None
            for r in range(bd.NR):
                c = bd.claim_colour[r]
                passes = c < 0 or hand[c] + wild >= bd.length[r]
                if fresh.can_claim(r):
                    assert passes, r
                    seen["claimable"] += 1
                seen["refused"] += not passes
            seen["turns"] += 1
        return turn(self, view, legal)

    monkeypatch.setattr(planner.PlanningBot, "turn", checked)
    game = _game(variant, players)
    for seed in range(1, 3):
        play_game(game, PLANNING[:players], seed, seed)
    assert seen["turns"] > 50 and seen["claimable"] > 200 and seen["refused"] > 200


def test_planning_bots_keep_no_view(monkeypatch):
    """A planning bot keeps no reference to the view of a decision (its filler is kept per turn and phase, not
    per view): simulate's runner then hands each seat one view for the whole game, none closed and made again,
    through seeded games of the four styles on USA, Europe and Märklin."""
    from ttr_maps.bots.view import StateView
    from ttr_maps.simulate.runner import play_game

    closed = {"views": 0}
    close = StateView.close

    def counted(self):
        closed["views"] += 1
        close(self)

    monkeypatch.setattr(StateView, "close", counted)
    asked = {"fillers": 0}
    filler = planner.PlanningBot.filler_once

    def counted_filler(self, view, hand):
        asked["fillers"] += 1
        return filler(self, view, hand)

    monkeypatch.setattr(planner.PlanningBot, "filler_once", counted_filler)
    for variant, players in [("usa", 4), ("europe", 4), ("marklin", 4), ("usa", 2)]:
        game = _game(variant, players)
        for seed in range(1, 3):
            play_game(game, PLANNING[:players], seed, seed)
    assert asked["fillers"] > 100
    assert closed["views"] == 0


@pytest.mark.parametrize("variant,players,bots,scans", [
    ("usa", 4, PLANNING, 20), ("usa", 4, ["expert"] * 4, 20), ("marklin", 4, PLANNING, 20),
    ("europe", 3, PLANNING[1:], 5),  # (fewer: a tunnel the bot waits on lists every claimable route first)
])
def test_top_claim_equals_the_most_points_of_every_claimable_route(variant, players, bots, scans, monkeypatch):
    """A stalled turn's claim (and the last resort's) is the claimable route of the most points, ties to the
    lowest route: tested route by route in that order, it is the least points_rank among every claimable
    route the engine lists, or None when it lists none, at every such turn of seeded games (the bots stall
    after 2 turns without a claim here, so that many turns ask)."""
    from ttr_maps.simulate.runner import play_game

    seen = {"asked": 0, "scanned": 0}
    top_claim = planner.PlanningBot.top_claim

    def checked(self, view, hand, claims):
        scanned = type(claims) is planner._RouteClaims and claims._routes is None
        got = top_claim(self, view, hand, claims)
        listed = list(claims.legal.routes if scanned else claims)
        assert got == (min(listed, key=lambda r: (-self.bd.points[r], r)) if listed else None)
        seen["asked"] += 1
        seen["scanned"] += scanned
        return got

    monkeypatch.setattr(planner.PlanningBot, "top_claim", checked)
    monkeypatch.setattr(planner.PlanningBot, "stall_turns", 2)
    game = _game(variant, players)
    for seed in range(1, 5):
        play_game(game, bots, seed, seed)
    assert seen["scanned"] > scans


def _walk_cost(bd, cost, path, start, ends):
    """The cost of `path` (routes in order from a place of `start`) if it is a walk from there to a place of
    `ends`, else None."""
    for x in start:
        at, total = x, 0.0
        for r in path:
            a, b = bd.ends[r]
            if at not in (a, b):
                break
            at = b if at == a else a
            total += cost[r]
        else:
            if at in ends:
                return total
    return None


@pytest.mark.parametrize("variant", ["usa", "marklin", "europe"])
def test_expert_detours_cost_what_the_plain_join_finds(variant):
    """The expert's blocking detours (_detour, guided by the bounds of the join's own search) cost what _join
    finds with the route taken away, on random costs with many ties and free routes and random networks
    (countries among them on Märklin), also after costs off the join rose (a join kept across claims); the
    path is a walk of that cost from the far network back to the near one, without the route."""
    bd = board_data(_game(variant, 4))
    rng = random.Random(11)
    checked = cut = 0
    for _ in range(150):
        cost = [rng.choice((0.0, 1.0, 2.0, 2.0, 3.0, 4.0, 5.0, INF)) for _ in range(bd.NR)]
        places = rng.sample(range(bd.NP), rng.randint(2, 9))
        k = rng.randint(1, len(places) - 1)
        src, dst = set(places[:k]), set(places[k:])
        dist = [INF] * bd.NP
        res = expert._join(bd, cost, src, dst, dist)
        if res is None:
            continue
        assert res == expert._join(bd, cost, src, dst)  # the table handed in changes nothing
        bound = expert._bounds(dist, res[0])
        on_path = set(res[1])
        for r in rng.sample(range(bd.NR), 6):  # costs off the join rise, as other seats claim
            if r not in on_path:
                cost[r] = INF
        for r in res[1]:
            saved, cost[r] = cost[r], INF
            want = expert._join(bd, cost, src, dst)
            got = expert._detour(bd, cost, src, dst, bound)
            if want is None:
                assert got is None
                cut += 1
            else:
                assert got[0] == want[0]
                assert r not in got[1]
                assert _walk_cost(bd, cost, got[1], src, dst) == got[0]
            cost[r] = saved
            checked += 1
    assert checked > 300 and cut > 5


@pytest.mark.parametrize("variant", ["usa", "marklin", "europe"])
def test_expert_detours_in_games_cost_what_the_plain_join_finds(variant, monkeypatch):
    """Through seeded all-expert games, every detour the expert searches for a block costs what _join finds
    on the same costs."""
    from ttr_maps.simulate.runner import play_game

    detour = expert._detour
    seen = {"detours": 0}

    def checked(bd, cost, src, dst, bound):
        got = detour(bd, cost, src, dst, bound)
        want = expert._join(bd, cost, src, dst)
        assert (got is None) == (want is None)
        assert got is None or got[0] == want[0]
        seen["detours"] += 1
        return got

    monkeypatch.setattr(expert, "_detour", checked)
    monkeypatch.setattr(expert.ExpertBot, "block_players", 4)  # the expert blocks at two players: here at four
    game = _game(variant, 4)
    for seed in range(1, 11):  # (until enough detours: how many a game has depends on the plans)
        play_game(game, ["expert"] * 4, seed, seed)
        if seen["detours"] > 20:
            break
    assert seen["detours"] > 20


@pytest.mark.parametrize("variant,players", [("usa", 4), ("marklin", 4), ("europe", 3)])
def test_tickets_done_equal_the_own_network_walked(variant, players, monkeypatch):
    """Through seeded games of the four planning styles, every answer of tickets_done (own routes joined in a
    union-find as they are claimed) is what walking the seat's own routes from each ticket's first end gives
    (never on from a country). The games must complete tickets."""
    from ttr_maps.simulate.runner import play_game

    seen = {"calls": 0, "done": 0}
    done = planning.tickets_done

    def walked(know, a):
        bd = know.bd
        seen_places, stack = {a}, [a]
        while stack:
            u = stack.pop()
            if bd.country[u] and u != a:
                continue
            for r, v in bd.adj[u]:
                if know.mine[r] and v not in seen_places:
                    seen_places.add(v)
                    stack.append(v)
        return seen_places

    def checked(know, tickets):
        tickets = list(tickets)
        got = done(know, tickets)
        ends = know.bd.ticket_ends
        want = ([k for k in tickets if ends[k][1] in walked(know, ends[k][0])],
                [k for k in tickets if ends[k][1] not in walked(know, ends[k][0])])
        assert got == want
        seen["calls"] += 1
        seen["done"] += len(got[0])
        return got

    monkeypatch.setattr(planner, "tickets_done", checked)
    game = _game(variant, players)
    for seed in range(1, 8):
        play_game(game, PLANNING[:players], seed, seed)
    assert seen["calls"] > 50 and seen["done"] > 20


def _reference_join(bd, cost, src, dst):
    """The expert's join as it ran before its network's places were taken ahead of the heap: every place from
    the heap, a country passed only from the network."""
    dist = [INF] * bd.NP
    prev = [-1] * bd.NP
    for x in src:
        dist[x] = 0.0
    heap = [(0.0, x) for x in sorted(src)]
    while heap:
        d, u = heappop(heap)
        if d > dist[u]:
            continue
        if u in dst:
            path = []
            while u not in src:
                r = prev[u]
                path.append(r)
                a, b = bd.ends[r]
                u = a if b == u else b
            return d, path
        if bd.country[u] and u not in src:
            continue
        for r, v in bd.adj[u]:
            nd = d + cost[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                heappush(heap, (nd, v))
    return None


@pytest.mark.parametrize("variant", ["usa", "marklin", "europe"])
def test_expert_join_equals_the_join_that_takes_every_place_from_the_heap(variant):
    """The expert's join of an opponent's two largest networks (random claims of one seat, costs of a few whole
    values with many ties, some routes closed, the seat's own free) finds the reference's path, ties and order
    included, and its cost."""
    bd = board_data(_game(variant, 4))
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        own = set(rng.sample(range(bd.NR), rng.randint(2, 14)))
        comps = sorted(expert._components(bd, own), key=len, reverse=True)
        if len(comps) < 2:
            continue
        cost = [rng.choice((2.0, 3.0, 3.0, 4.0, 5.0, INF)) for _ in range(bd.NR)]
        for r in own:
            cost[r] = 0.0
        want = _reference_join(bd, cost, comps[0], comps[1])
        assert expert._join(bd, cost, comps[0], comps[1]) == want
        checked += want is not None
    assert checked > 200


@pytest.mark.parametrize("variant", ["usa", "marklin"])
def test_expert_networks_come_in_union_find_order(variant):
    """The expert's networks of a seat's routes (UnionFind's steps inlined) are UnionFind's groups, in its
    order: the join takes the two largest, the first of equal size first."""
    from ttr_maps.boardgraph import UnionFind

    bd = board_data(_game(variant, 4))
    rng = random.Random(3)
    for _ in range(300):
        routes = set(rng.sample(range(bd.NR), rng.randint(1, 25)))
        uf = UnionFind()
        for r in routes:
            uf.union(*bd.ends[r])
        want: dict = {}
        for x in list(uf.parent):
            want.setdefault(uf.find(x), set()).add(x)
        assert expert._components(bd, routes) == list(want.values())


@pytest.mark.parametrize("variant,players", [("usa", 4), ("europe", 3), ("marklin", 2)])
def test_expert_bounded_ticket_choices_equal_whole_values(variant, players, monkeypatch):
    """Through seeded all-expert games, every ticket choice of the expert (an option's network stopped once
    its value cannot beat the best option so far) is the first option of the highest whole keep_value in the
    legal order, and a stopped option's whole value is below the best. The games must stop some networks."""
    from ttr_maps.bots.expert import ExpertBot
    from ttr_maps.simulate.runner import play_game

    keep, over = planner.PlanningBot.keep, ExpertBot.keep_value_over
    seen = {"checked": 0, "stopped": 0}

    def counted(self, todo, chosen, trains, base, floor):
        v = over(self, todo, chosen, trains, base, floor)
        if v == -INF:
            seen["stopped"] += 1
            assert self.keep_value(todo, chosen, trains, base) < floor
        return v

    def checked(self, view, legal):
        got = keep(self, view, legal)
        assert got == whole_value_keep(self, view, legal)
        seen["checked"] += 1
        return got

    monkeypatch.setattr(planner.PlanningBot, "keep", checked)
    monkeypatch.setattr(ExpertBot, "keep_value_over", counted)
    game = _game(variant, players)
    for seed in range(1, 6):
        play_game(game, ["expert"] * players, seed, seed)
    assert seen["checked"] >= 5 * players
    assert seen["stopped"] > 3


@pytest.mark.parametrize("variant", ["usa", "marklin"])
def test_expert_without_stations_prices_no_route_through_one(variant, monkeypatch):
    """On a board without stations the expert's knowledge prices no borrowed route (borrow INF): after every
    look of seeded all-expert games, each route others claimed costs what the station pricing at the expert's
    borrow cost gives (INF: no station can be built), and the costs are the same as they were."""
    from ttr_maps.bots.expert import ExpertBot
    from ttr_maps.simulate.runner import play_game

    update = planning.Knowledge.update
    seen = {"priced": 0}

    def checked(self, view):
        changed = update(self, view)
        assert self.borrow == INF
        priced = planning.Knowledge.__new__(planning.Knowledge)
        priced.__dict__.update(self.__dict__, borrow=ExpertBot.borrow_cost)
        for r in range(self.bd.NR):
            if self.claimed[r] and not self.mine[r] and not self.open[r]:
                assert self.cost[r] == priced._borrow_cost(r) == INF
                seen["priced"] += 1
        return changed

    monkeypatch.setattr(planning.Knowledge, "update", checked)
    game = _game(variant, 4)
    assert not board_data(game).has_stations
    for seed in range(1, 3):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["priced"] > 1000


@pytest.mark.parametrize("variant,players", [("usa", 4), ("europe", 3), ("usa", 2)])
def test_expert_kept_ticket_odds_equal_the_formula(variant, players):
    """The expert's chance of completing a ticket, kept per ticket for the game, is the formula's on every
    ticket (asked twice, in a shuffled order): 1 - risk x d^2 within 0.1-0.98, d the ticket's trains by the
    cheapest path, the risk growing with the players and a fifth of it where stations rescue tickets."""
    from ttr_maps.bots.expert import ExpertBot

    game = _game(variant, players)
    bot = ExpertBot(game, 0, 1)
    bd = bot.bd
    risk = 0.0025 * (players - 1) / 3 * (0.2 if bd.has_stations else 1.0)
    tickets = list(range(len(bd.ticket_ends))) * 2
    random.Random(1).shuffle(tickets)
    for k in tickets:
        a, b = bd.ticket_ends[k]
        d = bd.dist0[a][b]
        want = 0.0 if d == INF else max(0.1, min(0.98, 1.0 - risk * d * d))
        assert bot.completion_odds(k) == want
