"""The cards a route still misses, worked out inline in three hot loops, against one reference.

The planning bots' filler (planner.PlanningBot.filler), the expert's filler (expert.ExpertBot.filler) and the
draw's needs (planning.draw_needs) each count, inline, the cards a hand still misses to claim a route alone.
`cards_missing` below is the one definition; each copy must decide as a plain loop over every route with it
would, over many seeded hands and boards with random claims. One difference is deliberate: draw_needs counts
the hand's wild cards even on a route that refuses them (its `wilds_pay` is always True), which only picks
which colour to draw first and never a claim; this keeps the games as they are.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bot_reference import plain_costs

from ttr_maps.bots.expert import ExpertBot
from ttr_maps.bots.planning import INF, Knowledge, board_data, draw_needs
from ttr_maps.bots.route_focus import RouteFocusBot
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def open_track(bd, r, hand, owner):
    """(colour, cards of it held) of route r's open track the hand is closest to paying; gray (-1) counts the
    colour held most; (-1, that count) when no track is open."""
    hmax = max(hand[: bd.NC])
    best = None
    for tid, c in bd.route_tracks[r]:
        if owner[tid] < 0:
            have = hmax if c < 0 else hand[c]
            if best is None or have > best[1]:
                best = (c, have)
    return best if best is not None else (-1, hmax)


def cards_missing(bd, r, hand, owner, wilds_pay=None):
    """Cards still missing to claim route r alone: locomotives (and big ones on long enough routes) are wild
    where the route takes them; a ferry's locomotive spaces need wild cards."""
    L, f = bd.length[r], bd.ferry[r]
    if wilds_pay is None:
        wilds_pay = bd.loco_ok[r]
    wild = 0
    if wilds_pay:
        wild = hand[bd.LOCO] + (hand[bd.BIG] if bd.has_big and L >= bd.big_min else 0)
    have = open_track(bd, r, hand, owner)[1]
    if wild < f:
        return (f - wild) + max(0, L - f - have)
    return max(0, L - min(have, L - f) - wild)


class _View:
    def __init__(self, trains):
        self._trains = trains
        self.tickets = []

    def trains(self, seat):
        return self._trains


class _Claims:
    """A view of a table where each seat has made `claims` (track ids), for Knowledge.update."""

    def __init__(self, bd, claims):
        self._bd, self._claims = bd, claims

    def claim_counts(self):
        return [len(c) for c in self._claims]

    def claims(self, p):
        return self._claims[p][:]

    def claims_from(self, p, i):
        return self._claims[p][i:]

    def trains(self, p):
        return 45

    def stations_left(self, p):
        return len(self._bd.station_costs)

    def stations(self, p):
        return []


def _states(variant, n=60):
    """Seeded (bot board data, knowledge, hand, trains) with random claims; a third of the routes refuse wild
    cards (no bundled variant has such routes at four players, so the branch is made here)."""
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 4)
    for seed in range(n):
        rng = random.Random(seed)
        bd = board_data(game)
        bd = type(bd).__new__(type(bd))
        bd.__dict__.update(board_data(game).__dict__)
        bd.loco_ok = tuple(rng.random() > 0.33 for _ in range(bd.NR))
        know = Knowledge(bd, 0, [1.0] * bd.NR)
        claims = [[] for _ in range(bd.n)]
        for tid in range(bd.t.NT):
            if rng.random() < 0.3:
                claims[rng.randrange(bd.n)].append(tid)
        know.update(_Claims(bd, claims))
        hand = [rng.randrange(0, 7) if rng.random() < 0.8 else 0 for _ in bd.deck_counts]
        yield game, bd, know, hand, rng.randrange(2, 46), rng


@pytest.mark.parametrize("variant", ["usa", "europe", "marklin"])
def test_inline_cards_missing_equal_reference(variant):
    checked = {"filler": 0, "expert": 0, "focus": 0, "differs": 0}
    for game, bd, know, hand, trains, rng in _states(variant):
        view = _View(trains)
        touched = know.my_places()
        owner = know.owner

        def best_of(value):
            best, best_v = -1, -INF
            for r in range(bd.NR):
                if know.open[r] and bd.length[r] <= trains:
                    v = value(r)
                    if v > best_v:
                        best, best_v = r, v
            return [best] if best >= 0 else []

        def near(r):
            a, b = bd.ends[r]
            return a in touched or b in touched

        bot = RouteFocusBot(game, 0, 1)
        bot.bd, bot.know = bd, know
        want = best_of(lambda r: bd.points[r] + (2.0 if near(r) else 0.0) - 1.5 * cards_missing(bd, r, hand, owner))
        assert bot.filler(view, hand) == want
        checked["filler"] += 1

        ex = ExpertBot(game, 0, 1)
        ex.bd, ex.know, ex.block_weight = bd, know, 0.0

        def expert_value(r):
            if ex.careful_tunnels and bd.tunnel[r] and not ex._tunnel_safe(r, hand):
                return -INF
            pts = bd.points[r] + (3.0 if near(r) and bd.longest_bonus else 0.0)
            d = cards_missing(bd, r, hand, owner)
            return pts / (1.0 + ex.filler_tempo * ((d + 1) // 2))

        assert ex.filler(view, hand) == best_of(expert_value)
        checked["expert"] += 1

        routes = rng.sample(range(bd.NR), 8)
        focus, focus_d = -1, INF
        for r in routes:
            d = cards_missing(bd, r, hand, owner, wilds_pay=True)
            checked["differs"] += d != cards_missing(bd, r, hand, owner)
            if 0 < d < focus_d:
                c = open_track(bd, r, hand, owner)[0]
                focus, focus_d = (c if c >= 0 else hand.index(max(hand[: bd.NC]))), d
        assert draw_needs(bd, routes, hand, know)[2] == focus
        checked["focus"] += 1
    assert checked["differs"] > 10  # the routes refusing wild cards were exercised


def _plain_blocks(bot):
    """expert.opponent_gaps worked out afresh: per opponent with two networks, the cheapest join of its two
    largest and each open route's detour on the public claims, nothing kept."""
    from ttr_maps.bots import expert

    bd, know = bot.bd, bot.know
    share = bot.block_weight / max(1, bd.n - 2) ** 0.5
    out = {}
    for p in range(bd.n):
        if p == bot.seat or len(know.routes_of[p]) < 2:
            continue
        own = set(know.routes_of[p])
        comps = sorted(expert._components(bd, own), key=len, reverse=True)
        if len(comps) < 2:
            continue
        cost = plain_costs(bot, own)
        res = expert._join(bd, cost, comps[0], comps[1])
        if res is None:
            continue
        for r in res[1]:
            if not know.open[r]:
                continue
            saved, cost[r] = cost[r], INF
            alt = expert._join(bd, cost, comps[0], comps[1])
            cost[r] = saved
            harm = bot.block_ticket if alt is None else min(bot.block_ticket, bot.block_train * (alt[0] - res[0]))
            if harm > 0:
                out[r] = out.get(r, 0.0) + share * harm
    return out


@pytest.mark.parametrize("variant,whole", [("usa", False), ("usa", True), ("europe", False)])
def test_expert_filler_with_blocks_equals_the_plain_choice(variant, whole, monkeypatch):
    """Through seeded all-expert games, every filler choice of the expert (the routes on opponents' joins looked
    at last, a detour searched only for a route that may still win, the joins and detours kept across turns)
    is the plain one: the first route of the highest value over every open route, its block worked out
    afresh. With `whole`, the seat also asks for every block (opponent_gaps), which must equal the fresh ones.
    The games must spare some detours and choose blocks."""
    from ttr_maps.simulate.runner import play_game

    filler, harm = ExpertBot.filler, ExpertBot._harm
    seen = {"checked": 0, "blocks": 0, "searched": 0, "on_joins": 0}

    def searched(self, part, r):
        seen["searched"] += r not in part[3]
        return harm(self, part, r)

    def checked(self, view, hand):
        got = filler(self, view, hand)
        bd, know = self.bd, self.know
        blocks = _plain_blocks(self)
        trains = view.trains(self.seat)
        touched = know.my_places()
        best, best_v = -1, -INF
        for r in range(bd.NR):
            if not know.open[r] or bd.length[r] > trains:
                continue
            if self.careful_tunnels and bd.tunnel[r] and not self._tunnel_safe(r, hand):
                continue
            a, b = bd.ends[r]
            near = a in touched or b in touched
            pts = bd.points[r] + (3.0 if near and bd.longest_bonus else 0.0) + blocks.get(r, 0.0)
            v = pts / (1.0 + self.filler_tempo * ((cards_missing(bd, r, hand, know.owner) + 1) // 2))
            if v > best_v:
                best, best_v = r, v
        assert got == ([best] if best >= 0 else [])
        seen["checked"] += 1
        seen["blocks"] += best in blocks
        seen["on_joins"] += len({r for part in self._gap_joins() for r in part[2][0][1] if know.open[r]})
        if whole:
            assert self.opponent_gaps(view) == blocks
        return got

    monkeypatch.setattr(ExpertBot, "filler", checked)
    monkeypatch.setattr(ExpertBot, "_harm", searched)
    monkeypatch.setattr(ExpertBot, "block_players", 4)  # the expert blocks at two players: here at four
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 4)
    for seed in range(1, 5):
        play_game(game, ["expert"] * 4, seed, seed)
    assert seen["checked"] > 40
    assert seen["blocks"] > 3
    if not whole:  # fewer detours searched than routes on the joins looked at
        assert seen["searched"] < seen["on_joins"] * 0.7


def test_expert_blocks_at_two_players_only(monkeypatch):
    """The expert's filler weighs blocks (an opponent's join searched) at two players and never at three or four
    (ExpertBot.block_players): there it searches no join at all."""
    from ttr_maps.simulate.runner import play_game

    joins = ExpertBot._gap_joins
    seen: dict[int, int] = {}

    def counted(self):
        seen[self.bd.n] = seen.get(self.bd.n, 0) + 1
        return joins(self)

    monkeypatch.setattr(ExpertBot, "_gap_joins", counted)
    for players in (2, 3, 4):
        game = Game.from_file(ROOT / "maps" / "variants" / "usa.yaml", players)
        for seed in range(1, 4):
            play_game(game, ["expert"] * players, seed, seed)
    assert seen.get(2, 0) > 10
    assert 3 not in seen and 4 not in seen
