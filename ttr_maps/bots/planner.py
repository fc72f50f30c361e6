"""`PlanningBot`: the turn skeleton the planning styles share; each style overrides a few hooks.

A turn, in order: the end-game grab (claim the most points while cards still
count), a claim of a planned route, the style's own move (`style_turn`: more
tickets, a long route, a station...), a claim when the hand is hoarding, a card
draw for the plan's colours, and last whatever is left. The plan (the routes to
claim for the tickets still open) is rebuilt only when it may have changed: new
tickets, an own claim, or a claim or station touching a planned route.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Any

from ..engine.actions import (
    AbandonTunnel,
    BuildStation,
    ClaimTrack,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    MovePassenger,
    PayTunnel,
    PlacePassenger,
    SetFlag,
    StopPassenger,
)
from ..engine.claims import RouteLegal
from .base import Bot
from .planning import (
    INF,
    Knowledge,
    Plan,
    board_data,
    cheapest_claim,
    colour_needs,
    draw_prep,
    longest_claim,
    pick_draw,
    plan_network,
    repair_plan,
    tickets_done,
)
from .view import FLAG, JOURNEY, KEEP, MIX, PASSENGER, SECOND, TUNNEL, TURN

if TYPE_CHECKING:
    from ..engine.game import Game
    from .planning import _DrawPrep


_DRAWS = (DrawBlind, DrawFaceUp)


class _RouteClaims:
    """Route -> its claims (every payment): what the turn builds from a full legal list, read from a RouteLegal
    instead, lazily: a membership test looks at one route, the list of routes is made when iterated."""

    __slots__ = ("legal", "_routes", "_pays")

    def __init__(self, legal: RouteLegal):
        self.legal = legal
        self._routes: dict[int, None] | None = None
        self._pays: dict[int, list[ClaimTrack]] = {}

    def _all(self) -> dict[int, None]:
        if self._routes is None:
            self._routes = dict.fromkeys(self.legal.routes)
        return self._routes

    def __contains__(self, r: int) -> bool:
        return r in self._routes if self._routes is not None else self.legal.can_claim(r)

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, r: int) -> list[ClaimTrack]:
        pays = self._pays.get(r)
        if pays is None:
            pays = self._pays[r] = self.legal.claims(r)
        return pays

    def __delitem__(self, r: int) -> None:
        del self._all()[r]


class PlanningBot(Bot):
    """Plans a network for its tickets and draws the colours it lacks. Styles tune the class attributes."""

    route_level = True

    keep_reserve = 6  # trains (of 45; scaled to the variant's trains) left out of the ticket budget
    over_budget_penalty = 3.0  # points per planned train over the budget when choosing tickets
    take_face_up_locos = False
    borrow_cost = INF  # price of an opponent's route used through a station (INF: no stations)
    route_overhead = 1.0  # planning cost of a route beyond its length (a claim is a turn)
    endgame_trains = 3  # someone this low on trains: grab points
    stall_turns = 12  # turns without a claim, with a big hand: claim anything worthwhile
    long_share = 0.25  # share of long tickets in an announced mix
    moves_passengers = False  # journeys in the middle of the game (else only at the end)
    # Rebuild the plan after our own claim of one of its routes (True), or drop that route from it (False:
    # the network is otherwise unchanged, and rebuilding was 70% of the bots' shortest-path searches).
    replan_after_own_claim = False

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        bd = self.bd = board_data(game)
        # A style's route costs are fixed per board (class attributes and public tables): worked out once per
        # game and style, not per bot of every game.
        base = bd.style_costs.get(type(self))
        if base is None:
            base = bd.style_costs[type(self)] = [self.route_cost(r) for r in range(bd.NR)]
        plans = bd.style_plans.get(type(self))
        if plans is None:
            plans = bd.style_plans[type(self)] = bd.cost_plans.setdefault(tuple(base), {})
        self.know = Knowledge(bd, seat, base, self.borrow_cost, plans)
        self.reserve = self.keep_reserve * bd.trains / 45
        self.plan: Plan | None = None
        self.plan_set: set[int] = set()
        self.todo: list[int] = []
        self._plan_tickets: list[int] | None = None
        self.last_claim_turn = 0
        self.journey_plan: list[int] = []
        self.tunnel_wait: dict[int, int] = {}  # route -> hand size before trying that tunnel again
        self.long_piles = bd.long_piles

    # ------------------------------------------------------------------ hooks a style may override
    def route_cost(self, r: int) -> float:
        bd = self.bd
        return bd.length[r] + self.route_overhead + 0.5 * bd.ferry[r] + (0.7 if bd.tunnel[r] else 0.0)

    def keep_value(self, todo: list[int], chosen: list[int], trains: int, base: Plan) -> float:
        """How good keeping `chosen` is, with `todo` still open and `trains` left."""
        return self.keep_value_over(todo, chosen, trains, base, -INF)

    def keep_formula(self, ok: int, bad: int, plan_trains: int, trains: int, base: Plan) -> float:
        """keep_value from the points of the chosen tickets the network reaches (`ok`) and does not (`bad`) and
        its trains. Never higher for less `ok`, more `bad` or more trains (keep_value_over's bound needs that)."""
        over = max(0, plan_trains - (trains - self.reserve))
        return ok - 2 * bad - self.over_budget_penalty * over - 0.05 * plan_trains

    def keep_value_over(self, todo: list[int], chosen: list[int], trains: int, base: Plan, floor: float) -> float:
        """`keep_value`, or a value not above `floor` once the option is known not to beat it.

        The network grows ticket by ticket (plan_network), and its trains only grow: keep_formula with the
        trains so far, the chosen tickets found unreachable so far as `bad` and all the others as reached
        bounds the value from above, so the search stops once that bound is below `floor`. keep takes the
        first option of the highest value, so it takes the same one. (A style with a keep_value of its own
        gets that, whole, unless it bounds it itself, as the expert's keep_value_over does.)"""
        if type(self).keep_value is not PlanningBot.keep_value:
            return self.keep_value(todo, chosen, trains, base)
        pts = self.bd.ticket_points
        stop = None
        if floor > -INF:
            total = 0
            for k in chosen:
                total += pts[k]
            chosen_set = set(chosen)
            formula = self.keep_formula

            def stop(plan: Plan) -> bool:
                bad = 0
                for k in plan.unreachable:
                    if k in chosen_set:
                        bad += pts[k]
                return formula(total - bad, bad, plan.trains, trains, base) < floor

        plan = plan_network(self.know, todo + chosen, stop=stop)
        if plan is None:
            return -INF
        ok = sum(pts[k] for k in chosen if k in plan.reachable)
        bad = sum(pts[k] for k in chosen if k in plan.unreachable)
        return self.keep_formula(ok, bad, plan.trains, trains, base)

    def make_plan(self, view, todo: list[int]) -> Plan:
        """The network for the open tickets (a style may give some up)."""
        return plan_network(self.know, todo)  # type: ignore[return-value]  # (no stop: never None)

    def choose_claim(self, view, cands: list[int], claims: dict[int, list[ClaimTrack]] | _RouteClaims, plan: Plan) -> int | None:
        """Which affordable planned route to claim now (None: wait)."""
        bd = self.bd
        return max(cands, key=lambda r: (bd.length[r], -r))

    def style_turn(self, view, hand, claims, others, plan: Plan) -> Any:
        return None

    def filler(self, view, hand) -> list[int]:
        """Routes to aim for when the tickets need nothing more: the most points for the cards missing."""
        bd, know = self.bd, self.know
        trains = view.trains(self.seat)
        best, best_v = -1, -INF
        hmax = max(hand[: bd.NC])
        touched = know.my_places()  # a route is near the network when one of its ends is
        is_open, length, ends, points = know.open, bd.length, bd.ends, bd.points
        bonuses = bd.two_paths or bd.most_routes
        # The cards missing (tests/test_bots_deficit.py holds this copy to its reference), inlined: this loop looks at every route.
        ferry, loco_ok, route_tracks, owner = bd.ferry, bd.loco_ok, bd.route_tracks, know.owner
        locos = hand[bd.LOCO]
        bigs = hand[bd.BIG] if bd.has_big else 0
        big_min = bd.big_min
        # Most points first: a route is worth at most its points and 2 (near the network) without bonuses, so
        # the scan stops at the first route that cannot reach the best so far; ties go to the lowest route index,
        # as a scan in index order picks them.
        order = bd.by_points
        for r in order:
            if not bonuses and points[r] + 2.0 < best_v:
                break
            L = length[r]
            if not is_open[r] or L > trains:
                continue
            f = ferry[r]
            wild = locos + (bigs if L >= big_min else 0) if loco_ok[r] else 0
            best_c, have = -3, -1
            for tid, c in route_tracks[r]:
                if owner[tid] >= 0:
                    continue
                h = hmax if c < 0 else hand[c]
                if h > have:
                    best_c, have = c, h
            if best_c == -3:
                have = hmax
            if wild < f:
                x = L - f - have
                d = f - wild + (x if x > 0 else 0)
            else:
                x = L - (have if have < L - f else L - f) - wild
                d = x if x > 0 else 0
            a, b = ends[r]
            v = points[r] + (2.0 if a in touched or b in touched else 0.0) - 1.5 * d
            if bonuses:
                v += self.bonus_gain(view, r, touched)
            if v > best_v or (v == best_v and r < best):
                best, best_v = r, v
        return [best] if best >= 0 else []

    _filler_memo: tuple = (-1, -1, None, None)

    def filler_once(self, view, hand) -> list[int]:
        """`filler`, worked out once per decision: a turn asks for it to claim and again to draw for it.

        A decision is known by its turn and phase (a seat has one decision of each phase a turn where the filler
        is asked: its turn's start and its second card), not by its view: a memo holding the view would keep it,
        and simulate's runner then closes that view and makes the seat a new one for its next decision."""
        turn, phase = view.turn, view.phase
        memo = self._filler_memo
        if memo[0] == turn and memo[1] == phase and memo[2] == hand:
            return memo[3]
        targets = self.filler(view, hand)
        self._filler_memo = (turn, phase, hand[:], targets)
        return targets

    # ------------------------------------------------------------------ final-scoring bonuses
    most_routes_hope = 0.25  # share of a most-routes bonus one more route of its length is worth beyond the lead it buys

    def bonus_gain(self, view, r: int, touched: AbstractSet[int]) -> float:
        """Expected bonus points claiming route r adds: kept tickets it joins by a second separate path
        (bonuses.two_paths), and the most-routes bonus of its length it wins or secures (public claims only)."""
        bd, know = self.bd, self.know
        gain = 0.0
        length = bd.length[r]
        for want, points in bd.most_routes:
            if want != length:
                continue
            counts = [sum(1 for x in know.routes_of[p] if bd.length[x] == length) for p in range(bd.n)]
            mine = counts[self.seat]
            rival = max((c for p, c in enumerate(counts) if p != self.seat), default=0)
            before = points if 0 < mine and mine >= rival else 0
            after = points if mine + 1 >= rival else 0
            gain += after - before + self.most_routes_hope * points
        if bd.two_paths and view.tickets:
            a, b = bd.ends[r]
            if a in touched and b in touched:  # only a route inside the network can close a second path
                gain += bd.two_paths * (len(self._two_path_tickets(view, (r,))) - len(self._two_path_tickets(view, ())))
        return gain

    def _two_path_tickets(self, view, extra: tuple[int, ...]) -> tuple[int, ...]:
        from ..engine.bonuses import two_path_tickets

        bd = self.bd
        t = bd.t
        routes = [bd.ends[x] for x in self.know.my_routes] + [bd.ends[x] for x in extra]
        countries = frozenset(i for i in range(bd.NP) if bd.country[i])
        tickets = ((k, t.place_index[t.tickets[k].from_], [t.place_index[to] for to, _p in t.tickets[k].destinations])
                   for k in view.tickets)
        return two_path_tickets(routes, countries, tickets)

    # ------------------------------------------------------------------ the decision
    def act(self, view, legal):
        ph = view.phase
        # A turn's start and its second card first (most decisions); a single legal action is taken without a
        # look, except a tunnel's payment and a turn that lists claims apart from it (a RouteLegal's routes).
        if ph == TURN:
            if len(legal) == 1 and not (type(legal) is RouteLegal and legal.routes):
                return legal[0]
            self.know.update(view)
            self._looked_turn = view.turn
            a = self.turn(view, legal)
            return a if a is not None else legal[0]
        if len(legal) == 1 and ph != TUNNEL:
            return legal[0]
        # A second card: the turn began with a card draw, so nothing changed on the board since this seat's
        # last look if that was this turn (Knowledge.update would find nothing new).
        turn = view.turn
        if ph != SECOND or self._looked_turn != turn:
            self.know.update(view)
            self._looked_turn = turn
        if ph == SECOND:
            a = self.second_draw(view, legal)
        elif ph == KEEP:
            a = self.keep(view, legal)
        elif ph == MIX:
            a = self.mix(view, legal)
        elif ph == TUNNEL:
            a = self.pay_tunnel(view, legal)
        elif ph == FLAG:
            a = self.flag(view, legal)
        elif ph == PASSENGER:
            a = self.place_passenger(view, legal)
        elif ph == JOURNEY:
            a = self.ride(view, legal)
        else:
            a = None
        return a if a is not None else legal[0]

    _looked_turn = -1

    def current_plan(self, view) -> Plan:
        tickets = view.tickets
        know = self.know
        changes = know.take_changes()
        dirty = self.plan is None or tickets != self._plan_tickets
        cut = None
        own_near = False
        if not dirty and changes:
            ps = self.plan_set
            mine = know.mine
            plan: Plan = self.plan  # type: ignore[assignment]  # (not dirty: a plan is kept)
            borrowed = plan.borrowed
            for r in changes:  # (most are other seats' claims off the plan: two tests each)
                if r in ps:
                    if mine[r]:
                        if not self.replan_after_own_claim and r in plan.routes:
                            # Our own claim of a planned route: the rest of the network still joins the tickets
                            # at the same cost, so the plan keeps it (a rebuild found the same network up to ties).
                            plan.routes.remove(r)
                            plan.trains -= self.bd.length[r]
                            ps.discard(r)
                            continue
                        dirty = True
                        break
                    # Another seat's claim on a planned route (or a borrowed route changed): the tickets whose
                    # paths it cut are planned again, the others keep their paths (repair_plan). A route still
                    # open to us (a double route's other track) costs what it did: nothing to plan again.
                    if know.open[r] and r not in borrowed:
                        continue
                    if cut is None:
                        cut = set()
                    cut.add(r)
                    continue
                if mine[r]:
                    # Our own claim off the plan (a filler, a long route, a stalled turn's claim): the plan still
                    # joins its tickets, so it is kept, its paths as they are, even where the route might shorten
                    # one (a rebuild searched every ticket again for that, and found the plan it had in three
                    # cases of four). One that meets the network (a planned route or an open ticket's end,
                    # itself or through our routes) may complete a ticket, whose path is then dropped (below),
                    # or reach a ticket the plan failed: that plan is rebuilt. The plan is also rebuilt once it
                    # needs more trains than are left (a style may give tickets up then).
                    if plan.trains > view.trains(self.seat):
                        dirty = True
                        break
                    if self._meets_network(r):
                        if plan.unreachable:
                            dirty = True
                            break
                        own_near = True
            if own_near and cut is None and not dirty:
                _, todo = tickets_done(know, tickets)
                if todo != self.todo:  # a ticket completed: the others keep their paths (repaired with no cut)
                    cut = set()
            if cut is not None and not dirty:
                # Repaired only while no station of ours came since the plan was built (the only way, besides
                # our own claims, that a cost falls), and kept only while the trains left still cover it.
                if len(know.my_stations) == self._plan_stations:
                    _, todo = tickets_done(know, tickets)
                    planned = set(plan.reachable)
                    planned.update(plan.unreachable)
                    got = repair_plan(know, plan, cut, [k for k in todo if k in planned])
                    if got is not None and got.trains <= view.trains(self.seat):
                        self._set_plan(got, todo, tickets)
                        return got
                dirty = True
        if dirty:
            _, todo = tickets_done(know, tickets)
            self._set_plan(self.make_plan(view, todo), todo, tickets)
        return self.plan  # type: ignore[return-value]  # (set above when it was None)

    def _set_plan(self, plan: Plan, todo: list[int], tickets: list[int]) -> None:
        self.todo = todo
        self.plan = plan
        self.plan_set = set(plan.routes) | set(plan.borrowed)
        ends, ticket_ends = self.bd.ends, self.bd.ticket_ends
        places = self._plan_places = {x for r in plan.routes for x in ends[r]}
        places.update(x for r in plan.borrowed for x in ends[r])
        places.update(x for k in todo for x in ticket_ends[k])
        self._plan_tickets = tickets
        self._plan_stations = len(self.know.my_stations)

    _plan_stations = 0
    _plan_places: set[int] = set()  # places of the plan's routes and open tickets, as of its last build

    def _meets_network(self, r: int) -> bool:
        """Does our route r touch the plan's routes or an open ticket's end, itself or through our routes?"""
        places = self._plan_places
        a, b = self.bd.ends[r]
        if a in places or b in places:
            return True
        return not places.isdisjoint(self.know.component(a))

    def turn(self, view, legal):
        bd = self.bd
        hand = view.hand
        plan = self.current_plan(view)
        self._plan_turn = view.turn
        claims: dict[int, list[ClaimTrack]] | _RouteClaims
        if type(legal) is RouteLegal:
            claims = _RouteClaims(legal)
            # legal_actions lists a turn's card draws first (engine/turns.py): the draws are the list up to the
            # first other action, the others the rest (a Märklin turn lists many passenger moves after them).
            # Most turns have as many draws as the last (the blind card and the whole face-up row): that count
            # is the split when the action before it is a draw and the one at it is not.
            k = self._draws_seen
            n = len(legal)
            if k > n or (k and type(legal[k - 1]) not in _DRAWS) or (k < n and type(legal[k]) in _DRAWS):
                k = 0
                for a in legal:
                    ty = type(a)
                    if ty is not DrawBlind and ty is not DrawFaceUp:
                        break
                    k += 1
                self._draws_seen = k
            draws = legal[:k]
            others = legal[k:]
        else:
            claims = {}
            draws = []
            others = []
            for a in legal:
                ty = type(a)
                if ty is ClaimTrack:
                    lst = claims.get(a.route)
                    if lst is None:
                        claims[a.route] = [a]
                    else:
                        lst.append(a)
                elif ty is DrawBlind or ty is DrawFaceUp:
                    draws.append(a)
                else:
                    others.append(a)
        if self.tunnel_wait and claims:
            total = sum(hand)
            for r in [r for r in claims if total < self.tunnel_wait.get(r, 0)]:
                del claims[r]
        if self.endgame(view):
            a = self.endgame_move(view, hand, claims, others, plan)
            if a is not None:
                return self._claimed(view, a)
        cands = []
        if plan.routes:
            # A route longer than the hand could pay is never claimable: no engine test for it.
            top = longest_claim(bd, hand, view.trains(self.seat))
            length = bd.length
            if type(claims) is _RouteClaims and claims._routes is None:  # __contains__, one call less per route
                can = claims.legal.can_claim
                cands = [r for r in plan.routes if length[r] <= top and can(r)]
            else:
                cands = [r for r in plan.routes if length[r] <= top and r in claims]
        if cands:
            r = self.choose_claim(view, cands, claims, plan)
            if r is not None:
                return self._claimed(view, self.pay(r, claims[r], hand, plan))
        a = self.style_turn(view, hand, claims, others, plan)
        if a is not None:
            return self._claimed(view, a)
        if not plan.routes:  # (no test of `claims` first: that would list every claimable route)
            target = self.filler_once(view, hand)
            if target and target[0] in claims:
                return self._claimed(view, self.pay(target[0], claims[target[0]], hand, plan))
        if view.turn - self.last_claim_turn > self.stall_turns and sum(hand) >= 10:
            r = self.top_claim(view, hand, claims)
            if r is not None:
                return self._claimed(view, self.pay(r, claims[r], hand, plan))
        if draws:
            a = self.draw(view, hand, draws, plan, second=False)
            if a is not None:
                return a
        return self.fallback(view, hand, claims, others, plan)

    _draws_seen = 0  # the card draws at the head of the last turn's legal list

    def _claimed(self, view, a):
        if type(a) is ClaimTrack:
            self.last_claim_turn = view.turn
        return a

    _endgame_seen: tuple[int, bool] = (-1, False)  # (knowledge version, someone at or under endgame_trains)

    def endgame(self, view) -> bool:
        if view.final_round:
            return True
        # Trains left change only with claims, and every claim moves the knowledge's version (act updates it
        # before any question): the answer is kept per version.
        version = self.know.version
        seen = self._endgame_seen
        if seen[0] == version:
            return seen[1]
        # Every seat's trains as of the knowledge's last look (Knowledge.update reads a seat's count when it saw
        # that seat claim: trains change with claims only).
        low = min(self.know.trains) <= self.endgame_trains
        self._endgame_seen = (version, low)
        return low

    def endgame_move(self, view, hand, claims, others, plan):
        """The game is ending: the claim worth most now (a planned route that completes tickets first)."""
        bd = self.bd
        if claims:
            best, best_v = None, -INF
            ps = self.plan_set
            for r in claims:
                v = bd.points[r] + (6.0 if r in ps else 0.0)
                if v > best_v:
                    best, best_v = r, v
            return self.pay(best, claims[best], hand, plan)
        if view.final_round:
            for a in others:
                if type(a) is MovePassenger:
                    return self.start_journey(view, others)
        return None

    def pay(self, r: int, options: list[ClaimTrack], hand: list[int], plan: Plan) -> ClaimTrack:
        if len(options) == 1:  # (most claims: one payment; what the rest of the plan needs cannot change it)
            return options[0]
        rest = [x for x in plan.routes if x != r]
        need = colour_needs(self.bd, rest, hand, self.know)[0] if rest else None
        return cheapest_claim(self.bd, options, hand, need)

    def draw(self, view, hand, draws, plan: Plan, second: bool):
        """A card draw for the plan's routes, or, once the tickets need nothing more, for the filler's route
        chosen at the turn's first card: the second card is drawn for it too, as a player picks at the start
        of a turn what to build (the filler is not worked out again for one card more in hand)."""
        targets = plan.routes
        if not targets:
            turn = view.turn
            if second and self._aim_turn == turn:
                targets = self._aim
            else:
                targets = self._aim = self.filler_once(view, hand)
                self._aim_turn = turn
        return self.draw_for(view, hand, draws, targets, second)

    _aim: list[int] = []  # the routes this turn's first card was drawn for, when the plan had none (draw)
    _aim_turn = -1

    def draw_for(self, view, hand, draws, targets: list[int], second: bool):
        """A card draw for the colours `targets` (routes) miss.

        A second card after a blind first one, for the same routes (the same kept prep: no claim since), whose
        cards wanted do not depend on the hand (no gray route, no route with open tracks of two colours), is
        blind again without a look: the face-up row is as it was (a blind card leaves it alone), and with the
        cards wanted fixed a card more in hand only lowers what each face-up colour misses, which was nothing
        (else a face-up card, not the blind one, would have been the first: pick_draw), and the locomotives
        missing; tests/test_bots_draws.py holds this to the long way."""
        bd = self.bd
        prep = draw_prep(bd, targets, self.know)  # (draw_needs, the focus asked for only when pick_draw needs it)
        if second:
            if self._blind_first is prep and self._blind_turn == view.turn and type(draws[0]) is DrawBlind:
                return draws[0]
        need, loco_need = prep.needs(hand)
        a = pick_draw(bd, draws, view.face_up, need, hand, loco_need, second, self.take_face_up_locos,
                      prep.focus)
        if not second:
            if type(a) is DrawBlind and not prep.mixed and not prep.grays:
                self._blind_first, self._blind_turn = prep, view.turn
            else:
                self._blind_first = None
        return a

    _blind_first: _DrawPrep | None = None  # the kept prep of this turn's first card when that card was blind (draw_for)
    _blind_turn = -1

    _plan_turn = -1  # the turn whose first decision (turn) brought the plan up to date

    def second_draw(self, view, legal):
        # After this turn's first card, nothing the plan reads changed (act did not update the knowledge, the
        # tickets are the same): current_plan would hand back the plan as it is.
        plan = self.plan if self._plan_turn == view.turn and self.plan is not None else self.current_plan(view)
        return self.draw(view, view.hand, legal, plan, second=True)

    def top_claim(self, view, hand, claims) -> int | None:
        """The claimable route of the most points, ties to the lowest route (None: none is claimable).

        From a RouteLegal not yet asked for every claimable route, the routes are tested one by one in that
        order (BoardData.by_points), the first claimable one being the answer, and one longer than the hand
        could pay skipped without a test (longest_claim), as is a route of one colour whose cards held with every wild
        card fall short of its length (BoardData.claim_colour): a stalled turn (most of them claim) asked the engine
        for every claimable route to take one. tests/test_bots_shortcuts.py holds it to the whole list's."""
        bd = self.bd
        if type(claims) is _RouteClaims and claims._routes is None:
            top = longest_claim(bd, hand, view.trains(self.seat))
            can, length, one = claims.legal.can_claim, bd.length, bd.claim_colour
            wild = hand[bd.LOCO] + hand[bd.BIG]  # (a route of one colour the hand cannot pay is not asked about)
            for r in bd.by_points:
                if length[r] <= top and ((c := one[r]) < 0 or hand[c] + wild >= length[r]) and can(r):
                    return r
            return None
        return min(claims, key=bd.points_rank.__getitem__) if claims else None  # (the least rank: see above)

    def fallback(self, view, hand, claims, others, plan):
        r = self.top_claim(view, hand, claims)
        if r is not None:
            return self.pay(r, claims[r], hand, plan)
        for a in others:
            if type(a) is DrawTickets and not self.endgame(view):
                return a
        for a in others:
            if type(a) is MovePassenger:
                return self.start_journey(view, others)
        for a in others:
            if type(a) is BuildStation:
                continue
            return a
        return others[0] if others else None

    # ------------------------------------------------------------------ other phases
    def keep(self, view, legal):
        offered = view.offered
        know = self.know
        if view.tickets:
            # Tickets drawn in the game are planned after the ones held (plan_network's order): each option
            # grows the network already planned, and the plan made for the tickets kept is one of them.
            know.draws += 1
            key, pts, nb = know.order_key, self.bd.ticket_points, know.draws * 1000
            for k in offered:
                key[k] = nb - pts[k]
        _, todo = tickets_done(self.know, view.tickets)
        trains = view.trains(self.seat)
        base = plan_network(self.know, todo)
        pts = self.bd.ticket_points
        opts = []
        for i, a in enumerate(legal):
            if type(a) is KeepTickets:
                chosen = [offered[j] for j in a.indices]
                opts.append((-sum(pts[k] for k in chosen), i, a, chosen))
        opts.sort(key=lambda o: o[0])
        best, best_v, best_i = None, -INF, -1
        for _, i, a, chosen in opts:
            v = self.keep_value_over(todo, chosen, trains, base, best_v)
            if v > best_v or (v == best_v and i < best_i):
                best, best_v, best_i = a, v, i
        return best

    def mix(self, view, legal):
        """Announce a mix: the share of long tickets the style likes."""
        cands = [a for a in legal if type(a) is DrawTickets]
        if not cands:
            return None
        piles = self.game.draw_piles if not self._in_setup(view) else tuple(self.game.variant.tickets.setup.mix)
        is_long = [p in self.long_piles for p in piles]
        share = self.long_share_now(view)

        def score(a):
            total = sum(a.mix) or 1
            longs = sum(n for n, lg in zip(a.mix, is_long) if lg)
            return -abs(longs / total - share)

        return max(cands, key=score)

    def _in_setup(self, view) -> bool:
        return view.turn == 0 and not view.tickets

    def long_share_now(self, view) -> float:
        return self.long_share

    def pay_tunnel(self, view, legal):
        pays = [a for a in legal if type(a) is PayTunnel]
        if not pays:
            # The cards come back; try this tunnel again only with a couple more cards in hand.
            tun = view.tunnel
            if tun is not None:
                r = self.bd.tid_route[tun[0]]
                self.tunnel_wait[r] = sum(view.hand) + self.bd.length[r] + 2
            return next(a for a in legal if type(a) is AbandonTunnel)
        t = self.bd.t
        return min(pays, key=lambda a: (t.payment_counts(a.payment)[2] * 3 + t.payment_counts(a.payment)[3] * 2))

    def flag(self, view, legal):
        for a in legal:
            if type(a) is SetFlag:
                return a
        return legal[-1]

    _goods_memo: tuple = (-1, None)

    def goods_top(self, view) -> dict[int, int]:
        """The value of the top goods token (the one a journey's first visit takes) per place that has one.

        `view.goods` builds every stack's list on each read; tokens only ever leave the board (a journey takes
        them into its seat's goods_taken), so within a game the count of tokens taken names the board's goods,
        and the table is kept per count."""
        taken = 0
        for p in range(view.num_players):
            taken += len(view.goods_taken(p))
        memo = self._goods_memo
        if memo[0] == taken:
            return memo[1]
        top = {x: g[0] for x, g in view.goods.items() if g}
        self._goods_memo = (taken, top)
        return top

    def place_passenger(self, view, legal):
        places = [a for a in legal if type(a) is PlacePassenger]
        if not places:
            return legal[-1]
        top = self.goods_top(view)
        t = self.bd.t
        return max(places, key=lambda a: (top.get(t.place_index[a.place], 0), a.place))

    def start_journey(self, view, legal):
        return self.ride(view, legal)

    def ride(self, view, legal):
        """Greedy: the ride to the richest goods token, free rides first; stop when nothing is worth taking."""
        t = self.bd.t
        top = self.goods_top(view)
        best, best_v = None, 0.0
        for a in legal:
            if type(a) is not MovePassenger:
                continue
            v = top.get(t.place_index[a.path[1]], 0) - (0.5 if a.payment else 0.0)
            if v > best_v:
                best, best_v = a, v
        if best is not None:
            return best
        for a in legal:
            if type(a) is StopPassenger:
                return a
        moves = [a for a in legal if type(a) is MovePassenger]
        return moves[0] if moves else None
