"""What the planning bots keep between decisions is what working it out again would give.

- plan_network's kept networks, the seat's own and those on the empty board shared by every seat of a style
  (BoardData.style_plans): every network a bot uses equals a new build on the same costs;
- the expert's best journey (Märklin): every answer equals a new search, goods table included;
- the ticket choices that stop an option's network once it cannot beat the best so far: the same choice as
  valuing every option whole;
- the expert's route costs for an opponent's joins (the table shared by every opponent kept per knowledge
  version) and its journey search: what the plain formula and a plain depth-first search give.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_reference import plain_costs, whole_value_keep

from ttr_maps.bots import expert, planner, planning
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def _fields(plan):
    return (plan.routes, plan.trains, plan.cost, plan.reachable, plan.unreachable, plan.borrowed)


@pytest.mark.parametrize("variant,players,bots", [
    ("usa", 4, ["expert", "route-focus", "ticket-hungry", "long-route"]),
    ("europe", 4, ["expert", "route-focus", "ticket-hungry", "long-route"]),
    ("marklin", 2, ["expert", "ticket-hungry"]),
    ("paris", 2, ["expert", "long-route"]),
])
def test_kept_networks_equal_new_builds(variant, players, bots, monkeypatch):
    """Through seeded games played one after another on one Game (as simulate plays them), each network
    plan_network hands a bot equals one built again from nothing on the same costs: routes in order, trains,
    cost, tickets reached and not, routes borrowed. The later games' starting tickets must use networks
    another seat built on the empty board in an earlier game."""
    from ttr_maps.simulate.runner import play_game

    original = planning.plan_network
    seen = {"checked": 0, "shared": 0}

    def checked(know, tickets, cost=None, stop=None):
        tickets = list(tickets)
        if cost is None and know.version == 0 and tickets:
            first = (max(tickets, key=lambda k: know.bd.ticket_points[k]),)
            seen["shared"] += first in know.setup_plans and first not in know.plans
        plan = original(know, tickets, cost, stop)
        if cost is None and plan is not None:
            assert _fields(plan) == _fields(original(know, tickets, know.cost[:]))
            seen["checked"] += 1
        return plan

    for module in (planning, planner, expert):
        monkeypatch.setattr(module, "plan_network", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    for seed in range(1, 7):
        play_game(game, bots, seed, seed)
    assert seen["checked"] > 50
    assert seen["shared"] >= 2  # (ticket choices stop networks that cannot win: paris's two seats share 2)


def test_kept_journeys_equal_new_searches(monkeypatch):
    """Through whole seeded Märklin games, each best journey the expert decides on (kept from an earlier search
    while only claims away from where that search went came in, with the goods read once per token taken)
    equals a new search on the same view; the games must keep answers across such claims."""
    from ttr_maps.simulate.runner import play_game

    bot = expert.ExpertBot
    best, search = bot._best_journey, bot._search_journey
    seen = {"checked": 0, "across_claims": 0}

    def checked(self, view, budget=4000):
        before = self._journey_memo
        got = best(self, view, budget)
        self._goods_memo = (-1, None)  # the goods read again from the view
        assert got == search(self, view, budget)[0]
        seen["checked"] += 1
        if before[0] is not None and self._journey_memo[3] is before[3] and self._journey_memo[2] != before[2]:
            seen["across_claims"] += 1
        return got

    monkeypatch.setattr(bot, "_best_journey", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / "marklin.yaml", 4)
    for seed in (1, 2, 3, 4, 5):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["checked"] > 50
    assert seen["across_claims"] > 5


@pytest.mark.parametrize("variant,players", [("usa", 4), ("europe", 4)])
def test_plan_kept_after_an_own_claim_off_it(variant, players, monkeypatch):
    """Through seeded default-table games, a bot's own claim off its plan (nothing else new, the trains left
    covering the plan, no ticket failed) keeps the plan without a search, whether the claimed route meets the
    network or not: every ticket still open keeps its path, a ticket a claim that meets the network completed
    is dropped with its path, and the plan's paths still join every ticket it reaches (with the seat's
    routes). The games must have claims that meet the network, some of them completing a ticket."""
    from ttr_maps.simulate.runner import play_game

    current = planner.PlanningBot.current_plan
    seen = {"kept": 0, "meets": 0, "completed": 0}

    def checked(self, view):
        old = self.plan
        own_off = []
        if old is not None and view.tickets == self._plan_tickets:
            know = self.know
            own_off = [r for r in know.changed if know.mine[r] and r not in self.plan_set]
            others_on = any(r in self.plan_set and not know.mine[r] for r in know.changed)
            if others_on or old.trains > view.trains(self.seat) or old.unreachable:
                own_off = []
            bd = self.bd
            places = {x for r in old.routes + old.borrowed for x in bd.ends[r]}
            places.update(x for k in self.todo for x in bd.ticket_ends[k])
            old_paths = dict(old.paths)
            old_todo = list(self.todo)
        searches = []

        def counted(*args):
            searches.append(args)
            return shortest(*args)

        monkeypatch.setattr(planning, "shortest_path", counted)
        try:
            plan = current(self, view)
        finally:
            monkeypatch.setattr(planning, "shortest_path", shortest)
        if not own_off:
            return plan
        know = self.know
        assert not searches
        _, todo = planning.tickets_done(know, view.tickets)
        seen["kept"] += 1
        seen["meets"] += any(not places.isdisjoint(know.component(x)) for r in own_off for x in bd.ends[r])
        if plan is not old:  # a ticket completed: the ones still open keep their paths
            assert set(todo) < set(old_todo)
            assert dict(plan.paths) == {k: p for k, p in old_paths.items() if k in todo}
            assert sorted(plan.reachable) == sorted(k for k in todo if k in old_paths)
            seen["completed"] += 1
        for k in plan.reachable:
            a, b = bd.ticket_ends[k]
            assert know.connected(a, b, plan.routes + plan.borrowed)
        return plan

    shortest = planning.shortest_path
    monkeypatch.setattr(planner.PlanningBot, "current_plan", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    for seed in range(1, 5):
        play_game(game, ["expert", "route-focus", "ticket-hungry", "long-route"], seed, seed)
    assert seen["kept"] > 10 and seen["meets"] > 5 and seen["completed"] >= 1


@pytest.mark.parametrize("variant,players", [("usa", 4), ("europe", 4), ("marklin", 2)])
def test_plan_repaired_after_other_seats_cut_it(variant, players, monkeypatch):
    """Through seeded default-table games, when other seats' claims cut a bot's plan (and nothing else asks for
    a new one), the tickets whose paths the claims missed keep those paths and only the cut tickets are
    planned again: the repaired plan's paths join every ticket it reaches, its routes are open to the seat and
    its trains are theirs, and each search it made was for a cut ticket (one search each). Plans rebuilt
    whole are new builds (tests above). The games must repair some plans."""
    from ttr_maps.simulate.runner import play_game

    repair = planning.repair_plan
    seen = {"repaired": 0, "kept_paths": 0}

    def checked(know, plan, cut, todo):
        old_paths = dict(plan.paths)
        searched = []

        def counted(bd, cost, a, b):
            searched.append((a, b))
            return shortest(bd, cost, a, b)

        monkeypatch.setattr(planning, "shortest_path", counted)
        try:
            got = repair(know, plan, cut, todo)
        finally:
            monkeypatch.setattr(planning, "shortest_path", shortest)
        if got is None:
            return got
        bd = know.bd
        again = [k for k in todo if k in old_paths and not cut.isdisjoint(old_paths[k])]
        assert sorted(searched) == sorted(bd.ticket_ends[k] for k in again)
        new_paths = dict(got.paths)
        for k in todo:
            if k in old_paths and k not in again:
                assert new_paths[k] == old_paths[k]
                seen["kept_paths"] += 1
        assert sorted(got.reachable + got.unreachable) == sorted(todo)
        for k in got.reachable:
            a, b = bd.ticket_ends[k]
            assert know.connected(a, b, got.routes + got.borrowed)
        assert all(know.open[r] and not know.mine[r] for r in got.routes)
        assert got.trains == sum(bd.length[r] for r in got.routes)
        seen["repaired"] += 1
        return got

    shortest = planning.shortest_path
    monkeypatch.setattr(planner, "repair_plan", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    for seed in range(1, 5):
        play_game(game, ["expert", "route-focus", "ticket-hungry", "long-route"][:players], seed, seed)
    assert seen["repaired"] > 5 and seen["kept_paths"] > 3


@pytest.mark.parametrize("variant", ["usa", "marklin"])
def test_tickets_drawn_later_are_planned_after_the_ones_held(variant, monkeypatch):
    """Through seeded default-table games, every ticket choice after the starting one values each option on the
    network for the tickets already held, grown by the offered ones (most points first): the option's network
    built afresh begins with the held tickets' paths as planned without the offer. The games must draw
    tickets in play."""
    from ttr_maps.engine.actions import KeepTickets
    from ttr_maps.simulate.runner import play_game

    keep = planner.PlanningBot.keep
    seen = {"options": 0}

    def checked(self, view, legal):
        got = keep(self, view, legal)
        if not view.tickets:
            return got
        know = self.know
        todo = planning.tickets_done(know, view.tickets)[1]
        base = planning.plan_network(know, todo, know.cost[:])
        pts = self.bd.ticket_points
        for a in legal:
            if type(a) is KeepTickets:
                chosen = [view.offered[j] for j in a.indices]
                plan = planning.plan_network(know, todo + chosen, know.cost[:])
                assert plan.paths[: len(base.paths)] == base.paths
                assert {k for k, _ in plan.paths[len(base.paths):]} <= set(chosen)
                assert [pts[k] for k, _ in plan.paths[len(base.paths):]] == sorted(
                    (pts[k] for k, _ in plan.paths[len(base.paths):]), reverse=True)
                seen["options"] += 1
        return got

    monkeypatch.setattr(planner.PlanningBot, "keep", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 4)
    for seed in range(1, 5):
        play_game(game, ["expert", "route-focus", "ticket-hungry", "long-route"], seed, seed)
    assert seen["options"] > 10


@pytest.mark.parametrize("variant", ["usa", "marklin"])
def test_bounded_ticket_choices_equal_whole_values(variant, monkeypatch):
    """Through seeded games of the default table, every ticket choice of the planning styles (the network of
    an option stopped once its value cannot beat the best option so far) is the option valuing every option
    whole picks: the first of the highest keep_value in the legal order. The games must stop some networks."""
    from ttr_maps.simulate.runner import play_game

    keep, over = planner.PlanningBot.keep, planner.PlanningBot.keep_value_over
    seen = {"checked": 0, "stopped": 0}

    def counted(self, todo, chosen, trains, base, floor):
        v = over(self, todo, chosen, trains, base, floor)
        seen["stopped"] += v == -planning.INF
        return v

    def checked(self, view, legal):
        got = keep(self, view, legal)
        assert got == whole_value_keep(self, view, legal)
        seen["checked"] += 1
        return got

    monkeypatch.setattr(planner.PlanningBot, "keep", checked)
    monkeypatch.setattr(planner.PlanningBot, "keep_value_over", counted)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 4)
    for seed in range(1, 7):
        play_game(game, ["expert", "route-focus", "ticket-hungry", "long-route"], seed, seed)
    assert seen["checked"] > 25
    assert seen["stopped"] > 10


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_kept_opponent_costs_equal_the_plain_table(variant, monkeypatch):
    """Through seeded all-expert games, each table of route costs the expert's blocking searches read for an
    opponent equals the one worked out from the knowledge as it is, and a fresh list each time (the searches
    change it); the games must reuse a kept table for a second opponent."""
    from ttr_maps.simulate.runner import play_game

    cost_for = expert.ExpertBot._cost_for
    seen = {"checked": 0, "kept": 0, "tables": set()}

    def checked(self, p, own):
        kept = self._cost_base
        got = cost_for(self, p, own)
        assert got == plain_costs(self, own)
        assert got is not self._cost_base[1]
        seen["checked"] += 1
        seen["kept"] += kept[0] == self.know.version
        return got

    monkeypatch.setattr(expert.ExpertBot, "_cost_for", checked)
    monkeypatch.setattr(expert.ExpertBot, "block_players", 4)  # the expert blocks at two players: here at four
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 4)
    for seed in range(1, 5):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["checked"] > 30
    assert seen["kept"] > 5


def _plain_journey(bot, view, budget):
    """The best journey by a plain depth-first search over the claimed routes in adjacency order, with the same
    step budget: (goods value, places) or None."""
    bd, know = bot.bd, bot.know
    top = bot.goods_top(view)
    cards = view.hand[bd.PASS]
    used, visited = set(), set()
    best = [0, None]
    count = [0]

    def dfs(u, value, cards_left, path):
        count[0] += 1
        if value > best[0]:
            best[0], best[1] = value, list(path)
        if count[0] > budget:
            return
        for r, v in bd.adj[u]:
            if not know.claimed[r] or bd.country[v] or r in used:
                continue
            cost = 0 if know.mine[r] else 1
            if cost > cards_left:
                continue
            used.add(r)
            gain = 0 if v in visited else top.get(v, 0)
            fresh = v not in visited
            visited.add(v)
            dfs(v, value + gain, cards_left - cost, path + [v])
            if fresh:
                visited.discard(v)
            used.discard(r)

    for s in sorted(x for x, p in view.passengers.items() if p == bot.seat):
        visited.add(s)
        dfs(s, 0, cards, [s])
        visited.discard(s)
    if best[1] is None or len(best[1]) < 2:
        return None
    return best[0], best[1]


def test_journey_search_equals_a_plain_search(monkeypatch):
    """Through whole seeded Märklin games, every journey search of the expert (its budget included) gives what a
    plain depth-first search gives; the games must find journeys."""
    from ttr_maps.simulate.runner import play_game

    search = expert.ExpertBot._search_journey
    seen = {"checked": 0, "found": 0}

    def checked(self, view, budget):
        got = search(self, view, budget)
        assert got[0] == _plain_journey(self, view, budget)
        seen["checked"] += 1
        seen["found"] += got[0] is not None
        return got

    monkeypatch.setattr(expert.ExpertBot, "_search_journey", checked)
    game = Game.from_file(ROOT / "maps" / "variants" / "marklin.yaml", 4)
    for seed in (1, 2, 3):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["checked"] > 30
    assert seen["found"] > 10
