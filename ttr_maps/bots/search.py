"""`search`: the expert's moves weighed by playing them out in sampled worlds (a sampling search).

At a turn where the expert would claim and at a choice of tickets, the expert
(the bot's prior) proposes a few candidates: its own move, the card draw it
would make instead, a blind draw, each colour face up, its planned claims and
the claim worth most points, tickets; at a choice of tickets, the choices the
expert values most after its own. Each candidate is then played
in worlds sampled from what the seat cannot see (determinizations: the cards
it has not seen dealt at random to the deck, the discards and the other hands,
and the tickets it has not seen to the other players and the piles, every
count as the view shows it, and no seat more tickets of a pile dealt only at
setup than the setup deals it (Europe: one long ticket, kept in SETUP_KEEP_SHARE
of the worlds); with `infer`, each other seat's tickets are drawn
weighted by how much of them its public claims already serve), and each world
is played to the end with the expert in every seat. The candidate with the best mean final margin (own score
minus the best other score) is played if it beats the expert's move there; every candidate meets the same worlds,
so their margins compare like for like. Sequential halving spreads the budget:
each round gives the remaining candidates the same number of playouts and
keeps the better half.

This is perfect-information Monte Carlo over determinizations with the expert
as rollout policy and candidate prior, the sampling equivalent of an
information-set search at depth one. It reads the view only: worlds are dealt
from the view with the bot's own seeded generator, so a position's hidden
parts (deck order, other hands, other tickets) cannot change its choice
(tests/test_bots_search.py). The starting tickets are searched too (where the
first player is seat 0 and the setup deals fixed counts at once): up to four
choices, four times a decision's playouts, their own cap of playout actions
(`setup_steps`), as every playout is a whole game. Other decisions (the second
card, tunnels, flags, passengers) are the expert's.

Options (`--bot-option search.KEY=VALUE`):
- `budget`: playouts per decision (an integer, default 32), or seconds per
  decision (`0.5s`; then the result depends on the machine's speed, so the
  same seed no longer gives the same games).
- `steps`: at most this many playout actions (every move of every seat in
  every playout) per decision (default 3000; `none`: no cap). The search stops
  before a world that would pass the cap, so a long game's early decisions,
  where every playout is long, stay within about a second on big boards
  (Europe at four players: about 0.2 ms a playout action here, so about 0.6-0.7
  s) while the budget counts; actions are counted, not timed, so the same seed
  gives the same decisions on any machine.
- `setup_steps`: the same cap for the choice of starting tickets (default
  5000: USA at two players about 0.35 s, Europe 0.7 s here).
- `candidates`: at most this many candidates per decision (default 3; at least
  4 for the starting tickets).
- `infer`: how strongly the worlds deal the other seats the tickets their
  claims serve (`ticket_fit`; default 0: uniformly among the unseen tickets).
  With 10 (a ticket whose join their routes already make e^10 times likelier
  than one they have not started), the tickets the worlds dealt an expert
  opponent were its own 35-40% of the time instead of 9-10% (USA and Europe at
  two players, 6 expert games each, positions every 6 turns from turn 4), but
  the search did not win more: USA 56.5% of games 0-61 (59.0% of games 0-199
  without it), Europe 46.4% of games 0-27 (46.4% without it; `python
  benchmarks/bench_search.py --variant usa --players 2 --games 200 --budget 64
  --workers 2 --seed 1 --infer 10`, stopped early at load 14-17).
- `when`: `claims` (default) searches the turns where the expert would claim
  (or take tickets) and every mid-game choice of tickets, and plays the
  expert's card draws as they are (played out from expert positions on USA at
  two players, another move beat the expert's card draw by two standard errors
  in 3 of 23 positions, its claim in 23 of 72: `python
  benchmarks/search_playouts.py --games 12 --worlds 8`); `all` searches every turn.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..engine.actions import ClaimTrack, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ..engine.claims import RouteLegal
from ..engine.statefile import state_from_dict
from .base import Bot
from .expert import ExpertBot
from .planning import INF, board_data, cheapest_claim, dijkstra_all, plan_network, tickets_done
from .view import KEEP, PHASES, TURN, StateView

SETTLE_WORLDS = 8  # with a playout budget, stop once the decision is clear (_settled) after this many worlds
MAX_PLAYOUT_ACTIONS = 5_000  # a playout still running after this many actions is scored where it stands
DEFAULT_INFER = 0.0  # ticket_fit's weight (search.infer): off, the other seats' tickets are dealt uniformly
# How often a seat keeps a ticket of a setup-only pile it was dealt (Europe's long ticket): the expert kept its long
# ticket in 71% of seats (Europe, two players, 12 games).
SETUP_KEEP_SHARE = 0.7
DEFAULT_STEPS = 3_000  # playout actions a decision may spend: about 0.7 s on Europe at four players here
DEFAULT_SETUP_STEPS = 5_000  # playout actions for the starting tickets (search.setup_steps)
SETUP_CANDIDATES = 4  # choices of starting tickets played out (at least; search.candidates if more)
SETUP_BUDGET = 4  # the starting tickets get this many times the playouts of a decision (search.budget)


class SearchBot(Bot):
    name = "search"
    description = "plays out the expert's candidate moves in worlds sampled from what it cannot see, keeps the best"
    route_level = True
    options = {
        "budget": "playouts per decision (an integer, default 32) or seconds per decision (e.g. 0.5s)",
        "steps": f"at most this many playout actions per decision (default {DEFAULT_STEPS}; none: no cap)",
        "setup_steps": f"at most this many playout actions for the starting tickets (default {DEFAULT_SETUP_STEPS}; none: no cap)",
        "candidates": "at most this many candidate moves per decision (default 3; 4 for the starting tickets)",
        "when": "claims (default: search the turns where the expert would not draw cards) or all",
        "infer": f"how strongly worlds give the other seats tickets their claims serve (default {DEFAULT_INFER:g}: uniformly; e.g. 10)",
    }

    def __init__(self, game, seat, seed):
        super().__init__(game, seat, seed)
        self.prior = ExpertBot(game, seat, seed)
        self.playouts = 32
        self.seconds: float | None = None
        self.max_candidates = 3
        self.when = "claims"
        self.max_steps: int | None = DEFAULT_STEPS
        self.setup_steps: int | None = DEFAULT_SETUP_STEPS
        self.infer = DEFAULT_INFER
        self.steps_used = 0  # playout actions in the current decision
        self.stats = {"decisions": 0, "searched": 0, "playouts": 0, "changed": 0, "steps": 0, "capped": 0}

    def configure(self, options: dict[str, str]) -> None:
        for key, value in options.items():
            if key == "budget":
                text = value.strip().lower()
                try:
                    if text.endswith("s"):
                        seconds = float(text[:-1])
                        if not 0 < seconds <= 3600:
                            raise ValueError
                        self.seconds = seconds
                    else:
                        n = int(text)
                        if not 1 <= n <= 1_000_000:
                            raise ValueError
                        self.playouts, self.seconds = n, None
                except ValueError:
                    raise ValueError(f"search.budget={value!r}: give playouts per decision (1 to 1000000, e.g. 64) "
                                     f"or seconds per decision (e.g. 0.5s)") from None
            elif key == "steps":
                self.max_steps = _step_cap(key, value, f"per decision (1 to 100000000, e.g. {DEFAULT_STEPS})")
            elif key == "setup_steps":
                self.setup_steps = _step_cap(key, value, f"for the starting tickets (1 to 100000000, e.g. {DEFAULT_SETUP_STEPS})")
            elif key == "candidates":
                self.max_candidates = int(_in_range(key, value, int, 2, 64, "give a whole number from 2 to 64"))
            elif key == "infer":
                self.infer = _in_range(key, value, float, 0, 50,
                                       f"give a number from 0 (tickets dealt uniformly) to 50, e.g. {DEFAULT_INFER:g}")
            elif key == "when":
                if value not in ("claims", "all"):
                    raise ValueError(f"search.when={value!r}: give claims or all")
                self.when = value
            else:
                super().configure({key: value})

    # ------------------------------------------------------------------ the decision
    def act(self, view, legal):
        self.stats["decisions"] += 1
        choice = self.prior.act(view, legal)
        ph = view.phase
        if ph not in (TURN, KEEP) or self._in_setup(view):
            return choice
        if self.when == "claims" and (type(choice) is DrawBlind or type(choice) is DrawFaceUp):
            return choice
        setup = ph == KEEP and view.turn == 0 and not view.tickets
        # The starting tickets, once a game and deciding much (every playout a whole game): more candidates, four
        # times the playouts and a cap of their own.
        most = max(self.max_candidates, SETUP_CANDIDATES) if setup else self.max_candidates
        playouts = self.playouts * SETUP_BUDGET if setup else self.playouts
        cands = self.candidates(view, legal, choice, most)
        if self.seconds is None:
            cands = cands[: max(2, playouts)]  # every candidate gets at least one playout
        if len(cands) < 2:
            return choice
        world = _World(self.game, view, self.infer)
        if not world.ok:
            return choice
        best = self.search(world, cands, playouts, self.setup_steps if setup else self.max_steps)
        self.stats["searched"] += 1
        if best is not choice:
            self.stats["changed"] += 1
        return best

    def _in_setup(self, view) -> bool:
        """The starting tickets where the worlds cannot be dealt from the view: the expert chooses. They can when the
        first player is seat 0 and the setup deals fixed counts at once (no announced mix, not staged) and puts
        returned tickets straight back (not set aside to be shuffled in after every seat has chosen)."""
        if not (view.turn == 0 and not view.tickets):
            return False
        return not self.setup_searchable

    @property
    def setup_searchable(self) -> bool:
        v = self.game.variant
        setup = v.tickets.setup
        if v.players.first != "seat-0" or setup.mix or v.tickets.staged_setup:
            return False
        return all(setup.returned_to(d.pile) in ("box", "bottom") for d in setup.deal)

    def candidates(self, view, legal, choice, most: int | None = None) -> list[Any]:
        """The prior's move first, then the alternatives worth a playout, at most `max_candidates`.

        Instead of a claim, the alternatives are first the card draws (the one the expert would make if it did
        not claim, a blind card, each other colour face up), then the other planned claims, the claim worth most
        points now and tickets: played out from expert positions (USA, two players), drawing instead of the
        expert's claim gained 5-6 points of margin on average, another claim 0.5, tickets lost 5
        (benchmarks/search_playouts.py)."""
        out = [choice]
        seen = {choice}
        most = self.max_candidates if most is None else most

        def add(a):
            if a is not None and a not in seen and len(out) < most:
                seen.add(a)
                out.append(a)

        if view.phase == KEEP:
            # The other choices of tickets, best first by the expert's own value of them.
            keeps = [a for a in legal if type(a) is KeepTickets]
            prior = self.prior
            offered = view.offered
            _, todo = tickets_done(prior.know, view.tickets)
            trains = view.trains(self.seat)
            base = plan_network(prior.know, todo)
            value = {a: prior.keep_value(todo, [offered[i] for i in a.indices], trains, base) for a in keeps}
            keeps.sort(key=lambda a: -value[a])
            for k in keeps:
                add(k)
            return out
        prior = self.prior
        bd = prior.bd
        hand = view.hand
        plan = prior.plan
        all_draws = [a for a in legal if type(a) is DrawBlind or type(a) is DrawFaceUp]
        if all_draws and plan is not None and type(choice) is not DrawBlind and type(choice) is not DrawFaceUp:
            add(prior.draw(view, hand, all_draws, plan, second=False))
        kinds: set[int] = set()
        face_up = view.face_up
        for a in all_draws:
            if type(a) is DrawBlind:
                add(a)
        for a in all_draws:
            if type(a) is DrawFaceUp and face_up[a.slot] not in kinds:
                kinds.add(face_up[a.slot])
                add(a)
        claims = _claims_of(legal)
        if plan is not None:
            for r in plan.routes:
                if claims.can(r):
                    add(prior.pay(r, claims.get(r), hand, plan))
        # The claim worth most points now.
        best, best_v = None, -1
        for r in claims.routes():
            v = bd.points[r]
            if v > best_v:
                best, best_v = r, v
        if best is not None:
            add(cheapest_claim(bd, claims.get(best), hand, None))
        if not view.final_round:
            for a in legal:
                if type(a) is DrawTickets:
                    add(a)
                    break
        return out

    def search(self, world: _World, cands: list[Any], playouts: int | None = None, max_steps: int | None | str = "default") -> Any:
        """The candidate to play: the prior's (cands[0]) unless another beats it in the same worlds.

        Each world plays every candidate still in the running (so they are compared pairwise, world by
        world); sequential halving drops the worse half of the alternatives after each round, the prior's
        move staying to the end. With a playout budget, the search stops early once the decision is clear
        after 8 worlds (an alternative ahead of the prior's move, or every one behind, by two standard
        errors). The alternative with the best mean margin over the prior's, in the worlds both met, is played
        if that mean is above zero. (A bar of one standard error above zero kept fewer changes but gained less:
        at 51 Europe and 141 USA positions at two players, 10 of 40 sampled worlds deciding and the other 30
        judging, the best mean gained +2.0 points of margin a decision on Europe and +6.6 on USA, one standard
        error +1.3 and +5.3, two +0.4 and +3.2: `python benchmarks/search_playouts.py --bars --variant europe
        --games 4 --worlds 40`, `--variant usa --games 11`.) With a cap of playout actions (`steps`), the search
        stops before a world that would pass it.
        """
        cap = self.max_steps if max_steps == "default" else max_steps
        n = len(cands)
        values: list[list[float]] = [[] for _ in range(n)]  # per candidate, its margin in each world it met
        worlds: list[list[int]] = [[] for _ in range(n)]
        alive = list(range(n))
        w = 0

        self.steps_used = 0
        last = [0, 1]  # the last world's playout actions and playouts: the next world's cost, estimated

        def play_world() -> None:
            nonlocal w
            state = world.sample(self.rng)
            before = self.steps_used
            for i in alive:
                values[i].append(self.playout(state, cands[i]))
                worlds[i].append(w)
            last[:] = [self.steps_used - before, len(alive)]
            w += 1

        def capped() -> bool:
            """The next world would take the decision past its cap of playout actions (counted, not timed, so the
            same seed gives the same decision on any machine)."""
            if cap is None or w == 0:
                return False
            return self.steps_used + last[0] * len(alive) / last[1] > cap

        if self.seconds is not None:
            deadline = time.perf_counter() + self.seconds
            while time.perf_counter() < deadline:
                play_world()
        else:
            budget = self.playouts if playouts is None else playouts
            rounds = max(1, math.ceil(math.log2(n - 1))) if n > 2 else 1
            used = 0
            settled = False
            for rnd in range(rounds):
                per = max(1, budget // (rounds * len(alive)))
                for _ in range(per):
                    if used and used + len(alive) > budget:
                        break
                    if capped():
                        settled = True
                        self.stats["capped"] += 1
                        break
                    play_world()
                    used += len(alive)
                    if w >= SETTLE_WORLDS and _settled(values, worlds, alive):
                        settled = True
                        break
                if settled:
                    break
                if rnd < rounds - 1:
                    others = sorted(alive[1:], key=lambda i: (-sum(values[i]) / len(values[i]), i))
                    alive = [0] + sorted(others[: max(1, math.ceil(len(others) / 2))])
        self.stats["playouts"] += sum(len(v) for v in values)
        self.stats["steps"] += self.steps_used
        best, best_gain = 0, 0.0
        for i in alive[1:]:
            mean, _se, _m = _gains(values, worlds, i)
            if mean > best_gain:
                best, best_gain = i, mean
        return cands[best]

    def playout(self, world_state, first) -> float:
        """Play `first` in a copy of the world, then the expert in every seat to the end: own margin."""
        s = world_state.clone()
        s.apply(first)
        game = self.game
        bots = [ExpertBot(game, p, 0) for p in range(game.num_players)]
        steps = 0
        while not s.is_terminal() and steps < MAX_PLAYOUT_ACTIONS:
            p = s.current
            legal = s.legal_actions(False)
            view = StateView(s, p)
            a = bots[p].act(view, legal)
            view.close()
            s.apply(a)
            steps += 1
        self.steps_used += steps
        scores = s.returns()
        me = scores[self.seat]
        return me - max(x for p, x in enumerate(scores) if p != self.seat)


def _in_range(key: str, value: str, kind: type, lo: float, hi: float, advice: str, shown: str | None = None) -> float:
    """A `search.KEY=VALUE` option read as `kind` (int or float) from lo to hi, or a ValueError naming the option
    as it was given (`shown`, else `value`) and `advice`."""
    try:
        x = kind(value)
        if not lo <= x <= hi:
            raise ValueError
    except ValueError:
        raise ValueError(f"search.{key}={value if shown is None else shown!r}: {advice}") from None
    return x


def _step_cap(key: str, value: str, what: str) -> int | None:
    """A cap on playout actions (`search.steps`, `search.setup_steps`): a whole number, or none (or 0) for no cap."""
    text = value.strip().lower()
    if text in ("none", "0"):
        return None
    return int(_in_range(key, text, int, 1, 100_000_000, f"give the most playout actions {what}, or none for no cap", shown=value))


def _gains(values, worlds, i) -> tuple[float, float, int]:
    """Candidate i's margin over the prior's (candidate 0) in the worlds both met: mean, standard error, count."""
    prior = dict(zip(worlds[0], values[0]))
    diffs = [v - prior[wi] for wi, v in zip(worlds[i], values[i])]
    m = len(diffs)
    mean = sum(diffs) / m
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (m - 1) / m) if m > 1 else math.inf
    return mean, se, m


def _settled(values, worlds, alive) -> bool:
    """The decision is clear: an alternative leads the prior's move by more than two standard errors, or every
    alternative still in the running trails it by more than two."""
    all_worse = True
    for i in alive[1:]:
        mean, se, _m = _gains(values, worlds, i)
        if mean - 2 * se > 0:
            return True
        if mean + 2 * se >= 0:
            all_worse = False
    return all_worse


class _Claims:
    """Claims by route from a legal list (RouteLegal or every payment)."""

    def __init__(self, legal):
        self.legal = legal
        self.full: dict[int, list[ClaimTrack]] | None = None
        if type(legal) is not RouteLegal:
            self.full = {}
            for a in legal:
                if type(a) is ClaimTrack:
                    self.full.setdefault(a.route, []).append(a)

    def can(self, r: int) -> bool:
        return r in self.full if self.full is not None else self.legal.can_claim(r)

    def routes(self):
        return list(self.full) if self.full is not None else list(self.legal.routes)

    def get(self, r: int) -> list[ClaimTrack]:
        return self.full[r] if self.full is not None else self.legal.claims(r)


def _claims_of(legal) -> _Claims:
    return _Claims(legal)


class _World:
    """Everything a seat's view says about the position, as a state file's parts; `sample` deals the rest."""

    def __init__(self, game, view, fit_weight: float = 0.0):
        t = game.t
        self.game = game
        self.seat = seat = view.seat
        n = view.num_players
        self.ok = True
        kinds = t.kinds
        # Cards: every card of the deck not seen by this seat is in the deck, the discards or another hand.
        unseen = list(t.deck_counts)
        for k, c in enumerate(view.hand):
            unseen[k] -= c
        for k in view.face_up:
            if k >= 0:
                unseen[k] -= 1
        for p in range(n):
            for k in view.flag_cards(p):
                unseen[k] -= 1
        self.unseen_cards = [k for k, c in enumerate(unseen) for _ in range(max(0, c))]
        self.hand_sizes = [view.cards(p) for p in range(n)]
        self.deck_size = view.deck
        self.discards = view.discards
        if min(unseen, default=0) < 0 or len(self.unseen_cards) != (
                self.deck_size + self.discards + sum(s for p, s in enumerate(self.hand_sizes) if p != seat)):
            self.ok = False
        # Tickets: the seat knows its own; the others' and the piles' are dealt from the rest, pile by pile.
        mine = set(view.tickets) | set(view.offered)
        piles = view.ticket_piles
        self.pile_sizes = {name: piles.get(name, 0) for name in t.pile_names}
        self.pile_pool = {name: [k for k in t.pile_tickets[name] if k not in mine] for name in t.pile_names}
        self.ticket_counts = [view.ticket_count(p) for p in range(n)]
        self.offered_counts = [view.offered_count(p) for p in range(n)]
        # Piles dealt only at setup (Europe's long tickets): a seat holds at most its setup deal's count of them.
        self.caps = setup_only_caps(game)
        self.setup = view.phase == KEEP and view.turn == 0 and not view.tickets
        self.fit: list[dict[int, float]] | None = None  # per other seat, each unseen ticket's weight (ticket_fit)
        if fit_weight > 0:
            unseen_tickets = [k for pool in self.pile_pool.values() for k in pool]
            self.fit = [{} if p == seat or not self.ticket_counts[p] else ticket_fit(game, view, p, unseen_tickets, fit_weight)
                        for p in range(n)]
        # The public position, by name.
        final = -1
        if view.final_round:
            end = game.variant.end.trains_at_most
            triggers = [p for p in range(n) if view.trains(p) <= end]
            if triggers:
                k = min((seat - p) % n for p in triggers)
                final = 1 if k == 0 else n - k + 1
        players = []
        for p in range(n):
            players.append({
                "trains": view.trains(p),
                "score": view.score(p),
                "claims": [{"route": t.route_ids[t.t_route[tid]], "track": t.t_track[tid]} for tid in view.claims(p)],
                "stations": [t.place_ids[x] for x in view.stations(p)],
                "passengers_unplaced": view.passengers_unplaced(p),
                "passengers_moved": view.passengers_moved(p),
                "goods": view.goods_taken(p),
                "flag_cards": [kinds[c] for c in view.flag_cards(p)],
                "flag_sets": view.flag_sets(p),
            })
        players[seat]["hand"] = {kinds[k]: c for k, c in enumerate(view.hand) if c}
        self.players = players
        goods = _goods_stacks(t, view.goods)
        if goods is None:
            self.ok = False
        self.base = {
            "format": "ttr-state/1",
            "variant": game.variant_path or game.variant.name,
            "phase": PHASES[view.phase],
            "current": view.current_player,
            "turns": view.turn,
            "setup": self.setup,
            "final_turns_left": final,
            "passengers": {t.place_ids[x]: p for x, p in view.passengers.items()},
        }
        if goods:
            self.base["goods"] = goods
        self.face_up = [kinds[k] if k >= 0 else None for k in view.face_up]
        self.my_tickets = [t.ticket_keys[k] for k in view.tickets]
        self.my_offered = [t.ticket_keys[k] for k in view.offered]

    def sample(self, rng):
        """One world: a state with the unseen cards and tickets dealt at random (`rng`: the bot's own)."""
        game = self.game
        t = game.t
        kinds = t.kinds
        keys = t.ticket_keys
        seat = self.seat
        cards = self.unseen_cards[:]
        rng.shuffle(cards)
        players = [dict(pl) for pl in self.players]
        at = 0
        for p, size in enumerate(self.hand_sizes):
            if p == seat:
                continue
            hand: dict[str, int] = {}
            for k in cards[at: at + size]:
                hand[kinds[k]] = hand.get(kinds[k], 0) + 1
            at += size
            players[p]["hand"] = hand
        discards: dict[str, int] = {}
        for k in cards[at: at + self.discards]:
            discards[kinds[k]] = discards.get(kinds[k], 0) + 1
        at += self.discards
        deck = [kinds[k] for k in cards[at:]]
        piles = {}
        rest: list[int] = []
        pools = {name: pool[:] for name, pool in self.pile_pool.items()}
        held: list[list[int]] = [[] for _ in players]
        if self.fit is not None:
            # The other seats' tickets first, each drawn with its weight (how well that seat's claims serve it), as
            # long as every pile keeps the tickets its count says it holds.
            pile_of = t.ticket_pile
            sizes = self.pile_sizes
            caps = self.caps
            for p, weights in enumerate(self.fit):
                if p == seat:
                    continue
                for _ in range(self.ticket_counts[p]):
                    cands = [k for name, pool in pools.items() if len(pool) > sizes[name]
                             and sum(1 for x in held[p] if pile_of[x] == name) < caps.get(name, math.inf) for k in pool]
                    if not cands:
                        break
                    total = sum(weights.get(k, 1.0) for k in cands)
                    x = rng.random() * total
                    pick = cands[-1]
                    for k in cands:
                        x -= weights.get(k, 1.0)
                        if x < 0:
                            pick = k
                            break
                    pools[pile_of[pick]].remove(pick)
                    held[p].append(pick)
        capped: dict[str, list[int]] = {}  # the unseen tickets of the setup-only piles outside the piles
        for name, pool in pools.items():
            rng.shuffle(pool)
            size = min(self.pile_sizes[name], len(pool))
            piles[name] = [keys[k] for k in pool[:size]]
            if name in self.caps:
                capped[name] = pool[size:]
            else:
                rest.extend(pool[size:])
        rng.shuffle(rest)
        at = 0
        pile_of = t.ticket_pile
        for p in range(len(players)):
            if p == seat:
                players[p]["tickets"] = self.my_tickets
                players[p]["offered"] = self.my_offered
                continue
            kept = held[p][:]
            need = self.ticket_counts[p] - len(kept)
            # From each setup-only pile, the seat kept each ticket it was dealt with SETUP_KEEP_SHARE (its count at
            # most); the rest of its tickets are of the piles anyone may draw from.
            for name, cap in self.caps.items():
                room = cap - sum(1 for k in kept if pile_of[k] == name)
                n = min(need, len(capped[name]), sum(1 for _ in range(room) if rng.random() < SETUP_KEEP_SHARE))
                if n > 0:
                    kept += capped[name][:n]
                    del capped[name][:n]
                    need -= n
            take = rest[at: at + need]
            at += len(take)
            kept += take
            need -= len(take)
            for pool in capped.values():  # a position these counts do not explain: the rest from anywhere
                extra = pool[:max(0, need)]
                kept += extra
                need -= len(extra)
                del pool[:len(extra)]
            if self.setup and self.offered_counts[p]:
                offered = []  # a setup offer: the deal's count from each pile
                for d in game.variant.tickets.setup.deal:
                    if d.pile in capped:
                        offered += capped[d.pile][:d.count]
                        del capped[d.pile][:d.count]
                    else:
                        from_pile = [k for k in rest[at:] if pile_of[k] == d.pile][:d.count]
                        offered += from_pile
                        rest[at:] = [k for k in rest[at:] if k not in from_pile]
            else:
                offered = rest[at: at + self.offered_counts[p]]
                at += len(offered)
            players[p]["tickets"] = [keys[k] for k in kept]
            players[p]["offered"] = [keys[k] for k in offered]
            if self.setup:
                players[p]["setup_kept"] = players[p]["tickets"]
        data = dict(self.base)
        data["seed"] = rng.getrandbits(62)
        data["cards"] = {"deck": deck, "discards": discards, "face_up": self.face_up}
        box = rest[at:] + [k for pool in capped.values() for k in pool]
        data["tickets"] = {"piles": piles, "box": [keys[k] for k in box]}
        data["players"] = players
        return state_from_dict(game, data)


def setup_only_caps(game) -> dict[str, int]:
    """The piles tickets are dealt from only at setup (Europe's long tickets), each with the most tickets of it a seat
    can hold: its count in the setup deal (or the setup's keep limit for it). None with an announced mix."""
    tk = game.variant.tickets
    if tk.setup.mix:
        return {}
    drawn = {d.pile for d in tk.draw.deal} | set(tk.draw.mix)
    caps: dict[str, int] = {}
    for d in tk.setup.deal:
        if d.pile not in drawn:
            caps[d.pile] = caps.get(d.pile, 0) + d.count
    for pile, most in tk.setup.keep_max.items():
        if pile in caps:
            caps[pile] = min(caps[pile], most)
    return caps


def ticket_fit(game, view, p: int, tickets: list[int], weight: float) -> dict[int, float]:
    """How likely seat p holds each of `tickets`, read from its public claims: exp(weight * share), the share of the
    ticket's shortest join on the empty board that p's own routes already cover (its join with p's routes free,
    routes p can no longer claim shut, against the empty board's, from 0 to 1). A seat builds towards its tickets,
    so tickets its network serves are likelier; with no claims every ticket weighs the same."""
    bd = board_data(game)
    t = game.t
    own = set()
    taken: dict[int, int] = {}
    for q in range(view.num_players):
        for tid in view.claims(q):
            r = t.t_route[tid]
            if q == p:
                own.add(r)
            taken[r] = taken.get(r, 0) + 1
    if not own:
        return {}
    cost = []
    for r, n in enumerate(bd.length):
        if r in own:
            cost.append(0.0)
        elif not bd.open0[r] or (r in taken and (bd.parallel_closes
                                                  or taken[r] >= sum(1 for x in bd.route_tids[r] if bd.track_ok[x]))):
            cost.append(INF)
        else:
            cost.append(float(n))
    rows: dict[int, list[float]] = {}
    out = {}
    for k in tickets:
        a, b = bd.ticket_ends[k]
        d0 = bd.dist0[a][b]
        if not 0 < d0 < INF:
            continue
        row = rows.get(a)
        if row is None:
            row = rows[a] = dijkstra_all(bd, cost, a)
        share = min(1.0, max(0.0, (d0 - row[b]) / d0))
        out[k] = math.exp(weight * share)
    return out


def _goods_stacks(t, seen: dict[int, list[int]]) -> dict[str, list[list[int]]] | None:
    """The goods stacks left on each place, top first, as the state file wants them, from the view's tokens per
    place (the stacks' remains one after the other, each top first: each remain is the bottom of its stack)."""
    out: dict[str, list[list[int]]] = {}
    by_place: dict[int, list[tuple[int, ...]]] = {}
    for place, values in t.goods_stacks:
        by_place.setdefault(place, []).append(tuple(values))
    for place, stacks in by_place.items():
        flat = list(seen.get(place, ()))

        def split(i: int, rest: list[int]) -> list[list[int]] | None:
            if i == len(stacks):
                return [] if not rest else None
            full = stacks[i]
            for m in range(min(len(full), len(rest)), -1, -1):
                if list(full[len(full) - m:]) == rest[:m]:
                    tail = split(i + 1, rest[m:])
                    if tail is not None:
                        return [list(rest[:m])] + tail
            return None

        parts = split(0, flat)
        if parts is None:
            return None
        out[t.place_ids[place]] = parts
    return out
