"""`expert`: the strongest bot. Plans like `route-focus`, then plays every edition's extras.

- Tickets: keeps the set with the best expected value for its trains (a failed
  ticket costs its value), and draws more when its tickets are done early with
  trains to spare, keeping only what is cheap to add to its network.
- Claims the planned route that would be dearest to lose first (the detour its
  loss would force); once the tickets need nothing, the route worth most points
  per turn (tempo: whoever runs out of trains first ends the game while the
  others hold unused trains and open tickets), at two players preferring routes
  that cut the cheapest join between the opponent's two largest networks
  (blocking, read from the public claims only); grabs points when the game is
  about to end.
- Stations (Europe): prices an opponent's route at a station's cost, so a
  blocked ticket is finished through a station when that is cheapest.
- Tunnels: claims one only with spare cards of the colour (or locomotives) for
  the extra cost, left after the payment it makes, planned or as a filler. Ferries: takes face-up locomotives when they are needed.
- Passengers and goods (Märklin): places passengers where goods are rich and
  sends each on the journey worth the most goods (a depth-first search over the
  claimed routes, own routes free, opponents' ones for passenger cards).
- French flags (Paris): plans routes with a flag-colour track a little cheaper;
  after its tickets and at the end values a claim that gives a missing flag
  colour at a third of a flag's points (all of them when it completes a flag),
  pays such a route with a card of its colour, and sets a flag card whenever it may.
- Long routes: planning counts a route that scores more points than trains as
  about one turn's cost (a 4- to 6-space USA route costs 1, a 1-space one 2),
  so its networks go through long routes where it can.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import TYPE_CHECKING, Sequence

from ..engine.actions import BuildStation, DrawTickets, MovePassenger, PlacePassenger, StopPassenger
from .planner import PlanningBot
from .planning import INF, Plan, best_track, multi_source, plan_network, shortest_path

if TYPE_CHECKING:
    from ..engine.game import Game


class ExpertBot(PlanningBot):
    name = "expert"
    description = "plans tickets and plays every edition's extras: stations, tunnels, ferries, passengers and goods, flags"

    keep_reserve = 9
    over_budget_penalty = 4.0
    take_face_up_locos = False
    borrow_cost = 5.0  # a station's cards plus the 4 points an unbuilt station would score
    more_tickets_trains = 10  # ...and at least this many trains are free
    long_share = 0.0  # Märklin: short tickets only (long ones failed too often in tournaments)
    tunnel_spare = 1  # spare cards wanted before claiming a tunnel
    # ...counted after the payment it would make, and asked of a tunnel claimed once its tickets are done too. Off
    # (False: the expert before), it gave up 47 of the 78 tunnels that asked for extra cards in 30 two-player Europe
    # games; on, it beats that expert 56.8% (52.8-60.7%) of 600 two-player Europe games (docs/simulate.md "Tunnels").
    careful_tunnels = True
    # More tickets mid-game once the plan needs at most this many trains: off (-1), because in 200-game
    # tournaments the extra tickets cost as many route points as they brought (benchmarks/bench_simulate.py).
    plan_left_for_tickets = -1
    rivals_trains_for_tickets = 14  # ...and every rival still has more trains than this
    cheap_ticket_trains = 9  # a ticket is cheap when both ends are this close to the network
    ticket_draw_confidence = 0.7  # chance that one of the offered tickets is cheap

    # Planning prefers routes that score more points than trains: a route's cost falls by this much per point
    # above one per train (never below 1, so a long route costs about one turn). 2.0 beat 0-0.6 on every board
    # and player count tried (200-1,000 games on seeds 7 and 11, docs/simulate.md "Long routes").
    long_bonus = 2.0

    _gaps_key = -1
    _gaps: dict[int, float] = {}

    def route_cost(self, r: int) -> float:
        bd = self.bd
        cost = super().route_cost(r) - self.long_bonus * max(0, bd.points[r] - bd.length[r])
        if bd.flag_colors and any(c in bd.flag_colors for c in bd.track_colors[r]):
            cost -= self.flag_plan_bonus
        return max(cost, 1.0)  # never free or negative: the planner's shortest paths need positive costs

    # ------------------------------------------------------------------ Paris: French flags
    flag_plan_bonus = 0.5  # planning: a route with a flag-colour track costs this much less
    flag_claim_weight = 1.0  # points per expected flag point a claim brings (filler, end game)

    def flag_gain(self, view, r: int) -> float:
        """Expected flag points of claiming route r now: a missing flag colour is a third of a set (all of it
        when it completes one), if the hand can pay that track with at least one card of its colour."""
        bd = self.bd
        if not bd.flag_colors:
            return 0.0
        front = view.flag_cards(self.seat)
        hand = view.hand
        know = self.know
        best = 0.0
        for tid in bd.route_tids[r]:
            c = bd.t.t_color[tid]
            if c < 0 or c not in bd.flag_colors or c in front or know.owner[tid] >= 0 or not bd.track_ok[tid]:
                continue
            if hand[c] < 1:
                continue
            have = sum(1 for x in bd.flag_colors if x in front)
            pts = self.game.variant.flags.points
            g = pts if have + 1 >= len(bd.flag_colors) else pts / len(bd.flag_colors)
            best = max(best, g)
        return best * self.flag_claim_weight

    def pay(self, r, options, hand, plan):
        bd = self.bd
        if bd.tunnel[r] and self.careful_tunnels:
            spare = [a for a in options if self._tunnel_spare(r, a, hand) >= self.tunnel_spare]
            if spare:
                options = spare
        if bd.flag_colors:
            front = self._front
            t = bd.t
            flagged = []
            for a in options:
                c = t.t_color[bd.route_tids[r][a.track]]
                if c >= 0 and c in bd.flag_colors and c not in front:
                    counts = t.payment_counts(a.payment)
                    if counts[0] == c and counts[1] >= 1:
                        flagged.append(a)
            if flagged:
                options = flagged
        return super().pay(r, options, hand, plan)

    _front: tuple = ()

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        if not self.bd.has_stations:  # no route can be borrowed: every price would be INF (Knowledge._borrow_cost)
            self.know.borrow = INF
        if self.bd.n > self.block_players:  # no blocks: the filler searches no opponent's join
            self.block_weight = 0.0
        self._odds = {}

    def turn(self, view, legal):
        # With flags, the flag cards in front of the seat as the turn starts: pay reads them, and only a turn's
        # start pays for a claim. (Not an act of its own bound in __init__ where there are flags, as before: a
        # class compiled by mypyc cannot rebind a method; and turn, not act: a turn is about 3 decisions in 5.
        # PlanningBot.turn named, not super(): the cheaper call in CPython.)
        if self.bd.flag_colors:
            self._front = tuple(view.flag_cards(self.seat))
        return PlanningBot.turn(self, view, legal)

    def endgame_move(self, view, hand, claims, others, plan):
        if claims and self.bd.flag_colors:
            bd = self.bd
            best, best_v = None, -INF
            ps = self.plan_set
            for r in claims:
                v = bd.points[r] + (6.0 if r in ps else 0.0) + self.flag_gain(view, r)
                if v > best_v:
                    best, best_v = r, v
            return self.pay(best, claims[best], hand, plan)
        return self._endgame_move(view, hand, claims, others, plan)

    # Chance of completing a ticket: 1 - risk * d^2 for a ticket d trains long (static shortest path), the
    # risk growing with the players who may block it; fitted to 4-player USA tournaments (d = 8: 84%,
    # 12: 69%, 16: 30-35%). Stations rescue tickets, so boards with stations are far less risky.
    ticket_risk = 0.0025
    station_relief = 0.2  # Europe: long tickets still complete ~63% of the time at four players

    def completion_odds(self, k: int) -> float:
        """(Kept per ticket for the game: it reads the board and the style alone.)"""
        got = self._odds.get(k)
        if got is None:
            got = self._odds[k] = self._completion_odds(k)
        return got

    _odds: dict[int, float] = {}

    def _completion_odds(self, k: int) -> float:
        bd = self.bd
        a, b = bd.ticket_ends[k]
        d = bd.dist0[a][b]
        if d == INF:
            return 0.0
        risk = self.ticket_risk * (bd.n - 1) / 3 * (self.station_relief if bd.has_stations else 1.0)
        return max(0.1, min(0.98, 1.0 - risk * d * d))

    def keep_value(self, todo: list[int], chosen: list[int], trains: int, base: Plan) -> float:
        return self._keep_value(plan_network(self.know, todo + chosen), chosen, trains, base)

    def _keep_value(self, plan, chosen, trains, base):
        bd = self.bd
        budget = trains - self.reserve
        value = 0.0
        for k in chosen:
            pts = bd.ticket_points[k]
            if k in plan.reachable:
                p = self.completion_odds(k) if trains >= bd.trains else 0.9
                value += pts * (2 * p - 1)
            else:
                value -= 2 * pts
        over = max(0, plan.trains - budget)
        # Mid-game draws: a ticket must be cheap to add; at setup every ticket still has the whole game.
        marginal = plan.trains - base.trains
        if trains < bd.trains:
            value -= 0.35 * marginal
        return value - self.over_budget_penalty * over - 0.05 * plan.trains

    def keep_value_over(self, todo: list[int], chosen: list[int], trains: int, base: Plan, floor: float) -> float:
        """keep_value, or -INF once the option is known not to beat `floor`: the network grows ticket by ticket
        and its trains only grow, so keep_value's sum with the trains so far, the chosen tickets found unreachable
        so far as such and every other as reached (a reached ticket never counts less than a failed one) bounds
        the value from above. The bound is summed in keep_value's own order, so it is keep_value's sum once
        every ticket is searched: an option stopped is below `floor`, never equal to it."""
        if floor == -INF:
            return self.keep_value(todo, chosen, trains, base)
        bd = self.bd
        pts = bd.ticket_points
        start = trains >= bd.trains
        gains = [pts[k] * (2 * (self.completion_odds(k) if start else 0.9) - 1) for k in chosen]
        budget = trains - self.reserve
        penalty = self.over_budget_penalty
        base_trains = base.trains

        def stop(plan: Plan) -> bool:
            failed = plan.unreachable
            value = 0.0
            for k, gain in zip(chosen, gains):
                if k in failed:
                    value -= 2 * pts[k]
                else:
                    value += gain
            over = max(0, plan.trains - budget)
            if not start:
                value -= 0.35 * (plan.trains - base_trains)
            return value - penalty * over - 0.05 * plan.trains < floor

        plan = plan_network(self.know, todo + chosen, stop=stop)
        if plan is None:
            return -INF
        return self._keep_value(plan, chosen, trains, base)

    def make_plan(self, view, todo):
        """Give up tickets the trains left cannot finish, least valuable per train first."""
        plan = plan_network(self.know, todo)
        trains = view.trains(self.seat)
        todo = list(todo)
        while plan.trains > trains and len(todo) > 1:
            base_cost = plan.trains
            worst, worst_v = None, INF
            for k in todo:
                rest = [x for x in todo if x != k]
                saved = base_cost - plan_network(self.know, rest).trains
                v = self.bd.ticket_points[k] * 2 / max(1, saved)
                if v < worst_v:
                    worst, worst_v = k, v
            todo.remove(worst)
            plan = plan_network(self.know, todo)
        return plan

    def choose_claim(self, view, cands, claims, plan):
        bd, know = self.bd, self.know
        ok = []
        hand = view.hand
        for r in cands:
            if bd.tunnel[r] and not self._tunnel_safe(r, hand):
                continue
            if bd.tunnel[r] and self.careful_tunnels and not any(
                    self._tunnel_spare(r, a, hand) >= self.tunnel_spare for a in claims[r]):
                continue
            ok.append(r)
        if not ok:
            return None
        if len(ok) == 1:
            return ok[0]
        cost = know.cost

        def detour(r):
            a, b = bd.ends[r]
            saved = cost[r]
            cost[r] = INF
            res = shortest_path(bd, cost, a, b)
            cost[r] = saved
            alt = INF if res is None else res[0]
            return (min(alt - saved, 50.0), bd.length[r], -r)

        return max(ok, key=detour)

    def _tunnel_safe(self, r, hand):
        """Claim a tunnel only with spare cards for the extra cost."""
        bd = self.bd
        L = bd.length[r]
        c = best_track(bd, r, hand, self.know)
        have = max(hand[: bd.NC]) if c < 0 else hand[c]
        wild = hand[bd.LOCO] + (hand[bd.BIG] if bd.has_big and L >= bd.big_min else 0)
        return have + wild - L >= self.tunnel_spare

    def _tunnel_spare(self, r, a, hand) -> int:
        """Cards left for a tunnel's extra cost after paying claim `a` of route r: the paid colour's and the wild ones
        (docs/rules.md#tunnels)."""
        bd = self.bd
        c, nc, nl, nb, _ = bd.t.payment_counts(a.payment)  # type: ignore[misc]  # (a legal claim's payment has counts)
        left = hand[c] - nc if c >= 0 and nc else 0
        left += hand[bd.LOCO] - nl
        if bd.has_big and bd.length[r] >= bd.big_min:
            left += hand[bd.BIG] - nb
        return left

    def style_turn(self, view, hand, claims, others, plan):
        # Stations: a planned route borrowed through a station.
        if plan.borrowed:
            a = self._station_for(plan, others, hand)
            if a is not None:
                return a
        if (plan.trains <= self.plan_left_for_tickets
                and view.trains(self.seat) - plan.trains >= self.more_tickets_trains):
            draw = next((a for a in others if type(a) is DrawTickets), None)
            if draw is not None and self._tickets_worth_drawing(view, plan):
                return draw
        if self.game.has_passengers and self.moves_passengers_now(view):
            for a in others:
                if type(a) is MovePassenger:
                    return self.start_journey(view, others)
        return None

    def _tickets_worth_drawing(self, view, plan: Plan) -> bool:
        """Card counting for tickets: the share of the tickets still unseen that this network could add cheaply."""
        bd, know = self.bd, self.know
        me = self.seat
        if min(view.trains(p) for p in range(view.num_players) if p != me) <= self.rivals_trains_for_tickets:
            return False
        trains = view.trains(me) - plan.trains
        cost = know.cost[:]
        for r in plan.routes:
            cost[r] = 0.0
        sources: set[int] = set()
        for r in know.my_routes + plan.routes:
            sources.update(bd.ends[r])
        if not sources:
            return False
        dist = multi_source(bd, cost, sources)
        held = set(view.tickets)
        piles = set(self.game.draw_piles)
        good = total = 0
        budget = min(self.cheap_ticket_trains, trains - 3)
        for k, pile in bd.t.ticket_pile.items():
            if pile not in piles or k in held:
                continue
            a, b = bd.ticket_ends[k]
            m = dist[a] + dist[b]
            total += 1
            if m <= budget:
                good += 1
        if not total:
            return False
        p = good / total
        return 1 - (1 - p) ** 3 >= self.ticket_draw_confidence

    def _station_for(self, plan: Plan, others, hand):
        bd, know = self.bd, self.know
        stations = [a for a in others if type(a) is BuildStation]
        if not stations:
            return None
        t = bd.t
        wanted = set()
        for r in plan.borrowed:
            a, b = bd.ends[r]
            if know.station_at.get(a) == self.seat or know.station_at.get(b) == self.seat:
                continue
            for x in (a, b):
                if not bd.country[x] and x not in know.station_at:
                    wanted.add(t.place_ids[x])
        cands = [a for a in stations if a.place in wanted]
        if not cands:
            return None

        def cost(a):
            counts = t.payment_counts(a.payment)
            return (counts[2] * 3 + counts[1], a.place)

        return min(cands, key=cost)

    def _endgame_move(self, view, hand, claims, others, plan):
        a = super().endgame_move(view, hand, claims, others, plan)
        if a is not None:
            return a
        if plan.borrowed:
            return self._station_for(plan, others, hand)
        return None

    def filler(self, view, hand):
        """Tickets done: the claim worth most points per turn, long routes, longest-path extensions and blocks first.

        The best value, ties to the lowest route, whatever order routes are looked at in: the routes on an
        opponent's join (the blocks, opponent_gaps) are looked at after the rest, and a block's detour searches
        are made only for a route whose value with the most a block may add could still win."""
        bd, know = self.bd, self.know
        trains = view.trains(self.seat)
        touched = know.my_places()  # a route is near the network when one of its ends is
        is_open = know.open
        # route -> the opponents' joins (opponent p ascending) it lies on; kept with the joins, per claim count
        on_joins: dict[int, list] = {}
        if self.block_weight:
            key = sum(know.seen)
            if self._on_joins[0] == key:
                on_joins = self._on_joins[1]
            else:
                for part in self._gap_joins():
                    for r in part[2][0][1]:
                        if is_open[r]:
                            parts = on_joins.get(r)
                            if parts is None:
                                on_joins[r] = [part]
                            else:
                                parts.append(part)
                self._on_joins = (key, on_joins)
        share = self._block_share()
        most_block = share * self.block_ticket  # the most one opponent's block adds (a harm is at most block_ticket)
        extra = 3.0 if bd.longest_bonus else 0.0
        flags = bool(bd.flag_colors)
        if flags:
            extra += self.game.variant.flags.points * self.flag_claim_weight
        bonuses = bd.two_paths or bd.most_routes
        if bonuses:  # the most any claim can add (bonus_gain)
            extra += bd.two_paths * len(view.tickets) + sum(p * (1 + self.most_routes_hope) for _n, p in bd.most_routes)
        best, best_v = -1, -INF
        tempo = self.filler_tempo
        hmax = max(hand[: bd.NC])
        careful = self.careful_tunnels
        # The cards missing (tests/test_bots_deficit.py holds this copy to its reference), inlined: the loop may look at many routes.
        owner, route_tracks, ferry, loco_ok = know.owner, bd.route_tracks, bd.ferry, bd.loco_ok
        locos = hand[bd.LOCO]
        bigs = hand[bd.BIG] if bd.has_big else 0
        big_min = bd.big_min
        points, length, ends = bd.points, bd.length, bd.ends
        near_bonus = 3.0 if bd.longest_bonus else 0.0
        fg = bg = 0.0
        # The turns' weight below for a route of each length with the fewest cards it can miss (every card of the
        # colour held most and every wild card paying): a route's value is at most its points over that.
        most_paid = hmax + locos + bigs
        kept = bd._filler
        if kept is None:
            kept = _filler_groups(bd)
        groups, turns_by_paid = kept
        fewest_turns = turns_by_paid.get((most_paid, tempo))
        if fewest_turns is None:
            fewest_turns = turns_by_paid[most_paid, tempo] = [
                1.0 + tempo * ((max(0, n - most_paid) + 1) // 2) for n in range(max(length) + 1)]
        # Every route without its block first, by groups of one length and points, the group whose routes may be
        # worth most first (a route's value is at most its points plus `extra` over its fewest turns), then those
        # on a join with theirs. The first look gives a route on a join at most its value, so the best so far
        # never passes the best value: a group it leaves out cannot win.
        most_pts = extra + 1e-9  # (a margin for the rounding of the value's sums)
        looks = sorted([((pts + most_pts) / fewest_turns[L], routes) for pts, L, routes in groups], reverse=True)
        looks.append((INF, on_joins))
        for most, seq in looks:
            if most < best_v:
                continue
            joins = seq if most == INF else None
            for r in seq:
                parts = None if joins is None else joins[r]
                L = length[r]
                if not is_open[r] or L > trains:
                    continue
                if careful and bd.tunnel[r] and not self._tunnel_safe(r, hand):
                    continue
                a, b = ends[r]
                pts_near = points[r] + (near_bonus if a in touched or b in touched else 0.0)
                block = 0.0
                if parts is not None:
                    for _part in parts:
                        block = block + most_block
                pts = pts_near + block
                if flags:
                    fg = self.flag_gain(view, r)
                    pts += fg
                if bonuses:
                    bg = self.bonus_gain(view, r, touched)
                    pts += bg
                if pts / fewest_turns[L] < best_v:
                    continue
                # Points per turn (a claim, and a draw turn per two cards missing): the player who runs out of
                # trains first ends the game while the others still hold unused trains and open tickets.
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
                turns = 1.0 + tempo * ((d + 1) // 2)
                v = pts / turns
                if parts is not None:  # v is at most this: the block's own searches only when it may win
                    if v < best_v:
                        continue
                    block = 0.0
                    for part in parts:
                        harm = self._harm(part, r)
                        if harm > 0:
                            block = block + share * harm
                    pts = pts_near + block
                    if flags:
                        pts += fg
                    if bonuses:
                        pts += bg
                    v = pts / turns
                if v > best_v or (v == best_v and r < best):
                    best, best_v = r, v
        return [best] if best >= 0 else []

    filler_tempo = 0.5  # weight of the draw turns a filler route needs
    _on_joins: tuple = (-1, {})

    # ------------------------------------------------------------------ blocking
    block_weight = 1.0  # points per point of harm done to an opponent (split among the other opponents at 3+ players)
    # Blocks only at this many players or fewer. At three or more a block hurts one opponent and spares the others,
    # and in 1,000-game runs against the expert that blocked at every count the expert without blocks there was no
    # weaker (USA and Europe, 3 and 4 players; docs/simulate.md "Blocking"), while the blocking searches (each
    # opponent's join of its two largest networks and the detours around its routes) were a tenth of its time.
    block_players = 2
    block_ticket = 10.0  # harm of cutting an opponent's only join (about a ticket failed)
    block_train = 0.6  # harm per train of detour forced

    def opponent_gaps(self, view) -> dict[int, float]:
        """Routes an opponent seems to need: on the cheapest join of its two largest networks, valued by the detour
        their loss would force (a cut join: about a ticket). Public information only (claims); cached per claim count.

        Each opponent's join and detours are kept until that opponent claims or a claim lands on one of the routes
        the search went through: every other claim only made a route it did not use dearer, which leaves its
        answer, ties included, as it was (see plan_network). The filler asks for a route's block alone (_harm)."""
        know = self.know
        key = sum(know.seen)
        if key == self._gaps_key:
            return self._gaps
        out: dict[int, float] = {}
        share = self._block_share()
        is_open = know.open
        for part in self._gap_joins():
            for r in part[2][0][1]:
                if is_open[r]:
                    harm = self._harm(part, r)
                    if harm > 0:
                        out[r] = out.get(r, 0.0) + share * harm
        self._gaps_key = key
        self._gaps = out
        return out

    def _block_share(self) -> float:
        return self.block_weight / max(1, self.bd.n - 2) ** 0.5

    _gaps_parts: dict | None = None
    _joins_key = -1
    _joins: list = []

    def _gap_joins(self) -> list[list]:
        """The joins of every opponent with two networks, brought up to this seat's claims (kept per claim count):
        per opponent ascending, [its routes claimed, claims seen, ((cost, path), path's routes, src, dst),
        {route: its detour (cost and path, or None), frozenset of the detour's routes}, opponent, costs or None]."""
        know = self.know
        key = sum(know.seen)
        if key == self._joins_key:
            return self._joins
        kept = self._gaps_parts
        if kept is None:
            kept = self._gaps_parts = {}
        log = know.log
        joins = []
        for p in range(self.bd.n):
            if p == self.seat or len(know.routes_of[p]) < 2:
                continue
            part = kept.get(p)
            new_claims: set[int] | tuple[()] = ()
            if part is not None:
                if part[0] != len(know.routes_of[p]):
                    part = None
                else:
                    new_claims = set(log[part[1]:])
            part = kept[p] = self._opponent_join(p, part, new_claims)
            if part[2] is not None:
                joins.append(part)
        self._joins_key = key
        self._joins = joins
        return joins

    def _opponent_join(self, p: int, part: list | None, new_claims) -> list:
        """Opponent p's entry of _gap_joins. The join kept from `part` is reused when none of `new_claims` (routes
        claimed since) lies on its path, and so is each detour kept with it whose path none of them lies on."""
        bd, know = self.bd, self.know
        n_own, seen = len(know.routes_of[p]), len(know.log)
        if part is not None and part[2] is None:  # fewer than two networks, or no join at all
            return [n_own, seen, None, {}, p, None]
        if part is not None and part[2][1].isdisjoint(new_claims):
            alts = part[3]
            if new_claims:
                alts = {r: alt for r, alt in alts.items() if alt[1].isdisjoint(new_claims)}
            return [n_own, seen, part[2], alts, p, None, part[6], part[7]]
        own = set(know.routes_of[p])
        comps = _components(bd, own)
        if len(comps) < 2:
            return [n_own, seen, None, {}, p, None]
        comps.sort(key=len, reverse=True)
        src, dst = comps[0], comps[1]
        cost = self._cost_for(p, own)
        dist = [INF] * bd.NP
        res = _join(bd, cost, src, dst, dist)
        if res is None:
            return [n_own, seen, None, {}, p, None]
        return [n_own, seen, (res, frozenset(res[1]), src, dst), {}, p, cost, dist, None]

    def _harm(self, part: list, r: int) -> float:
        """The harm of taking route r (on the join of `part`, an entry of _gap_joins) from that opponent: its detour's
        extra cost, searched on first asking (a cut join: block_ticket)."""
        alts = part[3]
        got = alts.get(r)
        if got is None:
            cost = part[5]
            if cost is None:
                cost = part[5] = self._cost_for(part[4], set(self.know.routes_of[part[4]]))
            res, _used, src, dst = part[2]
            bound = part[7]
            if bound is None:
                bound = part[7] = _bounds(part[6], res[0])
            saved = cost[r]
            cost[r] = INF
            alt = _detour(self.bd, cost, src, dst, bound)
            cost[r] = saved
            got = alts[r] = (alt, frozenset(alt[1]) if alt is not None else frozenset())
        alt = got[0]
        if alt is None:
            return self.block_ticket
        return min(self.block_ticket, self.block_train * (alt[0] - part[2][0][0]))

    _cost_base: tuple = (-1, None, 0)  # (the knowledge's version, _cost_for's table before an opponent's own
    # routes, the claims of the knowledge's log it has taken in)

    def _cost_for(self, p: int, own: set[int]) -> list[float]:
        """Route costs as opponent p sees them (from the public claims); the part every opponent shares is kept
        (it reads the open routes and this seat's claims alone) and brought up to each version of this seat's
        knowledge by the routes claimed since: a claim changes the openness and owners of its own route only."""
        bd, know = self.bd, self.know
        kept = self._cost_base
        if kept[0] != know.version:  # the table is the same for every opponent but for its own routes
            length, is_open, log = bd.length, know.open, know.log
            base = kept[1]
            if base is None:
                base = [n + 1.0 if o else INF for n, o in zip(length, is_open)]
                new = know.my_routes
            else:
                new = log[kept[2]:]
                for r in new:
                    base[r] = length[r] + 1.0 if is_open[r] else INF
            if not bd.parallel_closes:  # our own double routes whose other track is still free
                owner, ok, mine = know.owner, bd.track_ok, know.mine
                for r in new:
                    if mine[r] and any(owner[x] < 0 and ok[x] for x in bd.route_tids[r]):
                        base[r] = length[r] + 1.0
            kept = self._cost_base = (know.version, base, len(log))
        cost = kept[1][:]
        for r in own:
            cost[r] = 0.0
        return cost

    # ------------------------------------------------------------------ Märklin: passengers and goods
    def moves_passengers_now(self, view) -> bool:
        if not self.game.has_passengers:
            return False
        trains = view.trains(self.seat)
        late = trains <= 12 or min(view.trains(p) for p in range(view.num_players)) <= 8
        if not late:
            return False
        best = self._best_journey(view)
        return best is not None and best[0] >= (4 if trains <= 6 else 8)

    def place_passenger(self, view, legal):
        places = [a for a in legal if type(a) is PlacePassenger]
        if not places:
            return legal[-1]
        bd = self.bd
        t = bd.t
        top = self.goods_top(view)
        mine = self.know.mine

        def richness(a):
            x = t.place_index[a.place]
            v = 0.0
            for r, y in bd.adj[x]:
                g = top.get(y)
                if g is not None:
                    v += g * (1.0 if mine[r] else 0.5)
            return (v, a.place)

        return max(places, key=richness)

    def start_journey(self, view, legal):
        best = self._best_journey(view)
        if best is None:
            return super().start_journey(view, legal)
        _, path = best
        self.journey_plan = path[1:]
        t = self.bd.t
        first = (t.place_ids[path[0]], t.place_ids[path[1]])
        for a in legal:
            if type(a) is MovePassenger and a.path == first:
                return a
        return super().start_journey(view, legal)

    def ride(self, view, legal):
        t = self.bd.t
        if self.journey_plan and view.journey is not None:
            at = view.journey[1]
            if self.journey_plan[0] == at:
                self.journey_plan.pop(0)
            if self.journey_plan:
                want = (t.place_ids[at], t.place_ids[self.journey_plan[0]])
                for a in legal:
                    if type(a) is MovePassenger and a.path == want:
                        return a
            self.journey_plan = []
            for a in legal:
                if type(a) is StopPassenger:
                    return a
        return super().ride(view, legal)

    _journey_memo: tuple = (None, None, 0, ())

    def _best_journey(self, view, budget: int = 4000):
        """(goods value, places) of the best journey of any of this seat's passengers, or None.

        Kept until a passenger placed or moved, the seat's passenger cards or a claim change it (the goods on
        the board change only with a journey), so a late game does not search the same network every turn. A
        claim changes it only when the route touches a place the search stood at: the search reads the ways on
        from those places alone, so with every new claim elsewhere it would take the same steps to the same end."""
        if view.journey is None:
            n = view.num_players
            know = self.know
            key = (tuple(view.passengers_moved(p) for p in range(n)),
                   tuple(view.passengers_unplaced(p) for p in range(n)), view.hand[self.bd.PASS], budget)
            memo = self._journey_memo
            seen = len(know.log)
            if memo[0] == key:
                if memo[2] == seen:
                    return memo[1]
                ways, ends = memo[3], self.bd.ends
                for r in know.log[memo[2]:]:
                    a, b = ends[r]
                    if ways[a] is not None or ways[b] is not None:
                        break
                else:
                    self._journey_memo = (key, memo[1], seen, ways)
                    return memo[1]
            best, ways = self._search_journey(view, budget)
            self._journey_memo = (key, best, seen, ways)
            return best
        return self._search_journey(view, budget)[0]

    def _search_journey(self, view, budget: int):
        """(the best journey or None, the ways on the search worked out per place: None where it never stood)."""
        bd = self.bd
        know = self.know
        starts = sorted(x for x, p in view.passengers.items() if p == self.seat)
        ways: list[tuple | None] = [None] * bd.NP
        if not starts:
            return None, ways
        top = self.goods_top(view)
        cards = view.hand[bd.PASS]
        claimed, mine, country, adj = know.claimed, know.mine, bd.country, bd.adj
        # The ways on from each place, worked out when the search first stands there: (route, place reached,
        # passenger cards it costs, goods value there), claimed routes only, never into a country, in adj's order;
        # with no passenger card left, the free ones alone (own routes: the others would be passed over).
        get = top.get

        def ways_from(u):
            out = []
            for r, v in adj[u]:
                if claimed[r] and not country[v]:
                    out.append((r, v, 0 if mine[r] else 1, get(v, 0)))
            w = ways[u] = (tuple(out), tuple(x for x in out if not x[2]))
            return w

        used = [False] * bd.NR  # routes on the path so far
        visited = [False] * bd.NP  # places on it (goods are taken at a place's first visit only)
        path = [0] * (bd.NR + 1)  # the path's places: path[:depth + 1] (a route is taken once)
        best_v, best_path = 0, None
        count = 0
        for s in starts:
            visited[s] = True
            path[0] = s

            # A way costs at most one card, and with none left only the free ways are looked at: a way is never
            # dearer than the cards left. A step to a place whose only way on is the route taken there ends
            # there: it is counted and valued as the search standing there would, without standing there.
            def dfs(value, cards_left, depth, ways_on):
                nonlocal best_v, best_path, count
                count += 1
                if value > best_v:
                    best_v, best_path = value, path[:depth + 1]
                if count > budget:
                    return
                depth += 1
                for r, v, cost, gain in ways_on:
                    if used[r]:
                        continue
                    left = cards_left - cost
                    w = ways[v]
                    if w is None:
                        w = ways_from(v)
                    on = w[0] if left else w[1]
                    path[depth] = v
                    if len(on) < 2 and (not on or on[0][0] == r):
                        count += 1
                        at = value if visited[v] else value + gain
                        if at > best_v:
                            best_v, best_path = at, path[:depth + 1]
                        continue
                    used[r] = True
                    if visited[v]:
                        dfs(value, left, depth, on)
                    else:
                        visited[v] = True
                        dfs(value + gain, left, depth, on)
                        visited[v] = False
                    used[r] = False

            w = ways[s]
            if w is None:
                w = ways_from(s)
            dfs(0, cards, 0, w[0] if cards else w[1])
            visited[s] = False
        if best_path is None or len(best_path) < 2:
            return None, ways
        return (best_v, best_path), ways


def _filler_groups(bd) -> tuple[list[tuple[int, int, tuple[int, ...]]], dict]:
    """The filler's groups of routes, (points, length, the routes with them), and an empty table of the fewest
    turns per length it fills per (most cards a colour and the wild cards pay, tempo); kept per board."""
    by: dict[tuple[int, int], list[int]] = {}
    for r in bd.by_points:
        by.setdefault((bd.points[r], bd.length[r]), []).append(r)
    kept: tuple[list[tuple[int, int, tuple[int, ...]]], dict] = ([(pts, L, tuple(routes)) for (pts, L), routes in by.items()], {})
    bd._filler = kept
    return kept


def _components(bd, routes: set[int]) -> list[set[int]]:
    """Places joined by `routes`, one set per connected network, in the order of UnionFind's groups (a union per
    route in `routes`' order, then the places grouped by their roots: the group of the first place met first).
    Each place is met as UnionFind meets it and points at its network's set; a join moves the smaller set's places."""
    net: dict[int, set[int]] = {}
    get = net.get
    ends = bd.ends
    for r in routes:
        a, b = ends[r]
        sa = get(a)
        sb = get(b)
        if sa is None:
            if sb is None:
                net[a] = net[b] = {a, b}
            else:
                sb.add(a)
                net[a] = sb
        elif sb is None:
            sa.add(b)
            net[b] = sa
        elif sa is not sb:
            if len(sa) < len(sb):
                sa, sb = sb, sa
            sa |= sb
            for x in sb:
                net[x] = sa
    return list({id(s): s for s in net.values()}.values())


def _join(bd, cost: list[float], src: set[int], dst: set[int],
          dist: list[float] | None = None) -> tuple[float, list[int]] | None:
    """(cost, routes) of the cheapest path from any place of `src` to any place of `dst`, or None. `src` is a
    network: every route of cost 0 from one of its places leads to another (the opponent's own routes).

    `dist`, if given (a list of bd.NP INF), is the search's own table of distances from `src`: on return it
    holds the exact distance of every place settled before the first place of `dst` (_bounds reads it)."""
    if dist is None:
        dist = [INF] * bd.NP
    prev = [-1] * bd.NP
    for x in src:
        dist[x] = 0.0
    heap: list[tuple[float, int]] = []
    pop, push = heappop, heappush
    # The places of `src` first, in order (a country too): as a heap's first entries, all at 0, they would be
    # taken first in this order, as every route out of the network costs more than 0. Past them, countries have
    # no way out (adj_pass).
    for u in sorted(src):
        if u in dst:
            return 0.0, []
        for r, v in bd.adj[u]:
            nd = 0.0 + cost[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                push(heap, (nd, v))
    adj = bd.adj_pass
    while heap:
        d, u = pop(heap)
        if d > dist[u]:
            continue
        if u in dst:
            return d, _path_back(bd.ends, prev, u, src)
        for r, v in adj[u]:
            nd = d + cost[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                push(heap, (nd, v))
    return None


def _path_back(ends: Sequence[tuple[int, int]], prev: list[int], x: int, stop: set[int]) -> list[int]:
    """The routes of a search's path from place x back to the first place met of `stop`, following `prev` (the
    route by which the search reached each place), listed from x: _join's and _detour's path. (planning's
    shortest_path walks its own, back to one place.)"""
    path = []
    while x not in stop:
        r = prev[x]
        path.append(r)
        a, b = ends[r]
        x = a if b == x else b
    return path


def _bounds(dist: list[float], join: float) -> list[float]:
    """Lower bounds of each place's distance from the join's `src` (from _join's `dist` after a join of cost
    `join`): the exact distance of a place settled before the join ended, `join` for any other (it was not
    settled, so it is at least that far). Never above a place's distance, and never more than a route's cost
    above a neighbour's bound, as long as no cost falls: the detour searches' guide (_detour)."""
    return [x if x < join else join for x in dist]


def _detour(bd, cost: list[float], src: set[int], dst: set[int], bound: list[float]) -> tuple[float, list[int]] | None:
    """_join's cost from `src` to `dst` (and a path of that cost), searched from `dst` towards `src`, each place
    taken in the order of its distance from `dst` plus its `bound` (_bounds: at most its distance from `src`),
    so that the places far from the join are never taken. The cost is _join's; the path may differ from _join's
    between paths of that cost (the blocks read only the cost, and a path's routes to know when it may change)."""
    dist = [INF] * bd.NP
    prev = [-1] * bd.NP
    for x in dst:
        dist[x] = 0.0
    heap = [(bound[x], x) for x in dst]
    heapify(heap)
    adj, country = bd.adj, bd.country
    pop, push = heappop, heappush
    while heap:
        f, u = pop(heap)
        d = dist[u]
        if f > d + bound[u]:
            continue
        if u in src:
            return d, _path_back(bd.ends, prev, u, dst)
        if country[u] and u not in dst:
            continue
        for r, v in adj[u]:
            nd = d + cost[r]
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = r
                push(heap, (nd + bound[v], v))
    return None
