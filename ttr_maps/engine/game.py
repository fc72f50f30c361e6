"""The reference engine's surface: `Game` (rules + board + player count) and `State`.

Shaped like OpenSpiel's Python games: `current_player()`, `legal_actions()`,
`apply(action)`, `is_terminal()`, `returns()`, `clone()`. The state owns its
random generator (seeded at creation, captured by `to_dict`), so a seed plus the
action list reproduces a game exactly. Every rule comes from the variant file;
the mechanics (tunnels, stations, passengers, flags) are modules switched on by
it. Cards are int kinds and hands are count arrays, for speed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterable

from ..model.board import Board
from ..model.variant import Variant
from . import cards, claims, flags, passengers, payments, stand_ins, stations, tickets, tunnels
from .actions import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimTrack,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GiveStandIns,
    KeepTickets,
    MovePassenger,
    Pass,
    PayTunnel,
    PlacePassenger,
    SetFlag,
    SkipFlag,
    SkipPassenger,
    StopPassenger,
)
from .errors import R_OVER, R_PASS, R_TURN, IllegalAction
from .phases import (  # noqa: F401 (PH_* and OPEN_CASES: names of this module's surface)
    OPEN_CASES,
    PH_FLAG,
    PH_JOURNEY,
    PH_KEEP,
    PH_OVER,
    PH_PASSENGER,
    PH_SECOND,
    PH_SETUP_MIX,
    PH_STAND_IN,
    PH_TUNNEL,
    PH_TURN,
    PHASE_DOC,
    PHASE_NAMES,
)
from .tables import Tables

PASS = Pass()


class Game:
    """An immutable description of one game: a variant, its board and the number of players."""

    def __init__(self, variant: Variant, board: Board, num_players: int, variant_path: str | None = None):
        lo, hi = variant.players.min, variant.players.max
        if not isinstance(num_players, int) or not lo <= num_players <= hi:
            raise ValueError(f"{variant.name} is for {lo}-{hi} players, not {num_players}")
        self.variant = variant
        self.board = board
        self.num_players = num_players
        self.variant_path = variant_path
        self.t = Tables(variant, board)
        self.has_stations = bool(variant.stations.costs)
        self.has_passengers = variant.passengers.count > 0
        self.has_flags = bool(self.t.flag_colors)
        self.has_tunnels = any(self.t.t_tunnel)
        # Interned actions, so enumerating legal actions allocates nothing once warm.
        self.claim_cache: dict[tuple[int, int], ClaimTrack] = {}
        self.claim_lists: dict[int, list[ClaimTrack]] = {}
        self.gray_rows: dict[int, list[list[ClaimTrack]]] = {}
        self.open_positions: dict[int, tuple[int, ...]] = {}
        self.tunnel_cache: dict[int, PayTunnel] = {}
        self.station_cache: dict[int, BuildStation] = {}
        self.ticket_cache: dict[tuple, DrawTickets] = {}
        self.keep_cache: dict[tuple, KeepTickets] = {}
        self.move_cache: dict[tuple, MovePassenger] = {}
        self.stand_in_cache: dict[tuple[int, int], GiveStandIns] = {}
        self.draw_tickets_plain = DrawTickets(())
        draw = variant.tickets.draw
        self.draw_piles = tuple(draw.mix) if draw.mix and draw.count > 0 else tuple(d.pile for d in draw.deal if d.count > 0)
        self.flag_actions = {c: SetFlag(self.t.colors[c]) for c in self.t.flag_colors}

    @classmethod
    def from_file(cls, path: str | Path, num_players: int) -> Game:
        """Load a variant file (and its board); raises LoadError or ValueError."""
        from ..bundled import resolve
        from ..load import load_variant

        path = resolve(path)
        variant, board = load_variant(path)
        return cls(variant, board, num_players, variant_path=str(path))

    def new_initial_state(self, seed: int | None = None, first: str | int | None = None) -> State:
        """A new game dealt from `seed`; `first`: the first player's seat or rule (default: the variant's)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return State(self, seed, first)

    def blank_state(self) -> State:
        """A State with nothing dealt and no seed: what a state file is read into (statedict.py)."""
        return State(self, None)

    # Text forms live in notation.py; these are conveniences.
    def action_text(self, action: Action) -> str:
        from .notation import action_text

        return action_text(self, action)

    def parse_actions(self, text: str, state: State | None = None) -> list[Action]:
        from .notation import parse_actions

        return parse_actions(self, text, state)

    def __repr__(self) -> str:
        return f"Game({self.variant.name!r}, players={self.num_players})"


class State:
    """A game position. Mutable: `apply` changes it in place; `clone` copies it."""

    PH_TURN, PH_SECOND, PH_KEEP, PH_SETUP_MIX, PH_TUNNEL, PH_FLAG, PH_PASSENGER, PH_JOURNEY, PH_OVER, PH_STAND_IN = range(10)

    __slots__ = (
        "game", "t", "seed", "rng", "deck", "discard", "discard_total", "face_up", "hands", "trains", "scores",
        "owner", "avail", "group_open", "route_mask", "claims", "station_owner", "stations", "piles", "boxed", "aside", "kept",
        "offers", "in_setup", "setup_stage", "setup_kept", "phase", "current", "tunnel", "pending_route", "stand_ins",
        "pending_flag", "passengers_unplaced", "passenger_at", "passengers_moved", "journey", "goods", "goods_at",
        "goods_taken", "flag_cards", "flag_sets", "final_left", "passes", "turns", "counters", "history",
        "redeal_locos", "redeal_passengers", "face_up_loco_rule", "row_stopped", "_sheet", "first",
    )

    def __init__(self, game: Game, seed: int | None, first: str | int | None = None):
        self._blank(game)
        if seed is None:
            return
        from .first_player import first_player

        self.first = first_player(game.variant.players.first if first is None else first, seed, game.num_players)
        t = self.t
        v = game.variant
        self.seed = seed
        self.rng = random.Random(seed)
        deck = [k for k, n in enumerate(t.deck_counts) for _ in range(n)]
        self.rng.shuffle(deck)
        self.deck = deck
        for p in range(game.num_players):
            hand = self.hands[p]
            for _ in range(v.hand):
                k = cards.draw_top(self)
                if k < 0:
                    break
                hand[k] += 1
        self.face_up = [cards.draw_top(self) for _ in range(v.face_up.count)]
        cards.check_face_up(self)
        for name in t.pile_names:
            pile = list(t.pile_tickets[name])
            self.rng.shuffle(pile)
            self.piles[name] = pile
        self._start_setup_round()

    def _blank(self, game: Game) -> None:
        t = game.t
        n = game.num_players
        v = game.variant
        self.game = game
        self.t = t
        self.seed = None
        self.rng = random.Random(0)
        self.deck: list[int] = []
        self.discard = [0] * t.NK
        self.discard_total = 0
        self.face_up: list[int] = [-1] * v.face_up.count
        self.hands = [[0] * t.NK for _ in range(n)]
        self.trains = [v.trains] * n
        self.scores = [0] * n
        self.owner = [-1] * t.NT
        self.avail = [True] * t.NT  # claimable by someone (derived from owner and the parallel rule)
        # Per player and claim group: bit j set while track g.tids[j] is claimable by that player (derived).
        self.group_open = [[(1 << len(g.tids)) - 1 for g in t.claim_groups] for _ in range(n)]
        self.route_mask = [0] * len(t.route_ids)
        self.claims: list[list[int]] = [[] for _ in range(n)]
        self.station_owner: dict[int, int] = {}
        self.stations: list[list[int]] = [[] for _ in range(n)]
        self.piles: dict[str, list[int]] = {name: [] for name in t.pile_names}
        self.boxed: list[int] = []
        self.aside: list[tuple[int, str]] = []
        self.kept: list[list[int]] = [[] for _ in range(n)]
        self.offers: list[list[int]] = [[] for _ in range(n)]
        self.in_setup = True
        self.setup_stage = 0
        self.setup_kept: list[list[int]] = [[] for _ in range(n)]
        self.phase = PH_TURN
        self.current = 0
        self.tunnel: tunnels.PendingTunnel | None = None
        self.stand_ins: stand_ins.PendingStandIns | None = None
        self.pending_route = -1
        self.pending_flag = -1
        self.passengers_unplaced = [v.passengers.count] * n
        self.passenger_at: dict[int, int] = {}
        self.passengers_moved = [0] * n
        self.journey: passengers.Journey | None = None
        self.goods = [list(reversed(values)) for _, values in t.goods_stacks]
        self.goods_at: dict[int, list[int]] = {}
        for i, (place, _) in enumerate(t.goods_stacks):
            self.goods_at.setdefault(place, []).append(i)
        self.goods_taken: list[list[int]] = [[] for _ in range(n)]
        self.flag_cards: list[list[int]] = [[] for _ in range(n)]
        self.flag_sets = [0] * n
        self.final_left = -1
        self.passes = 0
        self.turns = 0
        self.counters: dict[str, int] = {name: 0 for name in OPEN_CASES}
        self.history: list[Action] = []
        self.redeal_locos = v.face_up.redeal_locomotives
        self.redeal_passengers = v.face_up.redeal_passengers
        self.face_up_loco_rule = v.cards.face_up_locomotive_costs_both_draws
        self.row_stopped = False  # the redeal loop left this row face up (cards.check_face_up)
        self.first = 0  # the seat that plays the first turn after setup (first_player.py)
        self._sheet = None

    # ------------------------------------------------------------------ surface
    def current_player(self) -> int:
        """The seat to act; -1 when the game is over."""
        return -1 if self.phase == PH_OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self, payments: bool = True) -> list[Action]:
        """Every legal action of the current player, in a fixed order (empty when the game is over).

        `payments=False`, for bots that choose a route before its payment: the list leaves claims out and
        is a claims.RouteLegal, whose `routes` are the claimable routes and `claims(route)` their claims.
        """
        ph = self.phase
        out: list[Action] = [] if payments else claims.route_legal(self, ph == PH_TURN)
        if ph == PH_TURN:
            cards.legal_draws(self, out, False)
            if payments:
                claims.legal_claims(self, out)
            tickets.legal_draw(self, out)
            if self.game.has_stations:
                stations.legal(self, out)
            if self.game.has_passengers:
                passengers.legal_moves(self, out)
            if not out and (payments or not out.routes):  # type: ignore[attr-defined]
                out.append(PASS)
        elif ph == PH_SECOND:
            cards.legal_draws(self, out, True)
        elif ph == PH_KEEP or ph == PH_SETUP_MIX:
            tickets.legal_setup(self, out)
        elif ph == PH_TUNNEL:
            tunnels.legal(self, out)
        elif ph == PH_FLAG:
            flags.legal(self, out)
        elif ph == PH_PASSENGER:
            passengers.legal_place(self, out)
        elif ph == PH_JOURNEY:
            passengers.legal_journey(self, out)
        elif ph == PH_STAND_IN:
            stand_ins.legal(self, out)
        return out

    def apply(self, action: Action) -> None:
        """Play `action` for the current player; IllegalAction (naming the rule) leaves the state unchanged."""
        ph = self.phase
        handler = _HANDLERS[ph].get(type(action))
        if handler is None:
            if ph == PH_OVER:
                raise IllegalAction("the game is over", R_OVER)
            if not isinstance(action, Action):
                raise IllegalAction(f"{action!r} is not an action", R_TURN)
            raise IllegalAction(f"`{action}` is not possible now: the player is {PHASE_DOC[ph]}", R_TURN)
        handler(self, action)
        self.history.append(action)

    apply_action = apply

    def apply_all(self, actions: Iterable[Action]) -> State:
        for a in actions:
            self.apply(a)
        return self

    def returns(self) -> list[int]:
        """Final totals when the game is over, else the live scores."""
        if self.phase == PH_OVER:
            sheet = self.score_sheet()
            if sheet is not None:
                return [pl.total for pl in sheet.players]
        return list(self.scores)

    def winners(self) -> tuple[int, ...]:
        sheet = self.score_sheet() if self.phase == PH_OVER else None
        return tuple(sheet.winners) if sheet is not None else ()

    def count(self, name: str) -> None:
        self.counters[name] = self.counters.get(name, 0) + 1

    # ------------------------------------------------------------------ turn flow (used by the mechanics)
    def begin_second_draw(self) -> None:
        self.phase = PH_SECOND
        if not cards.can_draw_second(self):
            self.count("second-draw-impossible")
            self.end_turn()

    def complete_claim(self, tid: int, paid: tuple) -> None:
        claims.place_trains(self, tid)
        self.pending_route = self.t.t_route[tid]
        if self.game.has_flags:
            c = flags.offered_color(self, tid, paid)
            if c >= 0:
                self.pending_flag = c
                self.phase = PH_FLAG
                return
        self.after_flag()

    def after_flag(self) -> None:
        if self.game.has_passengers and passengers.placeable_ends(self, self.pending_route):
            self.phase = PH_PASSENGER
            return
        self.end_turn()

    def after_keep(self) -> None:
        if self.in_setup:
            self._advance_setup()
        else:
            self.end_turn()

    def end_turn(self, passed: bool = False) -> None:
        p = self.current
        n = self.game.num_players
        if self.game.has_flags:
            flags.score_sets(self)
        if -1 in self.face_up:
            cards.refill_face_up(self)
        cards.recheck_face_up(self)
        self.pending_route = -1
        self.turns += 1
        self.passes = self.passes + 1 if passed else 0
        if self.final_left > 0:
            self.final_left -= 1
            if self.final_left == 0:
                self._game_over()
                return
        elif self.final_left < 0 and self.trains[p] <= self.game.variant.end.trains_at_most:
            self.final_left = n
        if self.passes >= n:
            self.count("all-passed")
            self._game_over()
            return
        self.current = (p + 1) % n
        self.phase = PH_TURN

    def _game_over(self) -> None:
        self.phase = PH_OVER

    # ------------------------------------------------------------------ setup
    def _start_setup_round(self) -> None:
        setup = self.game.variant.tickets.setup
        self.current = 0
        if setup.mix:
            self.phase = PH_SETUP_MIX
        else:
            deals = setup.deal[self.setup_stage: self.setup_stage + 1] if tickets.staged(self) else setup.deal
            for p in range(self.game.num_players):
                offer: list[int] = []
                for d in deals:
                    offer.extend(tickets.take(self, d.pile, d.count))
                self.offers[p] = offer
            self.phase = PH_KEEP
        self._skip_empty_setup()

    def _skip_empty_setup(self) -> None:
        """Players with nothing to decide (no tickets left) are passed over."""
        while self.in_setup:
            if self.phase == PH_KEEP and self.offers[self.current]:
                return
            if self.phase == PH_SETUP_MIX and tickets.mixes(self, self.game.variant.tickets.setup):
                return
            self._next_setup_seat()

    def _advance_setup(self) -> None:
        self._next_setup_seat()
        self._skip_empty_setup()

    def _next_setup_seat(self) -> None:
        setup = self.game.variant.tickets.setup
        if self.current + 1 < self.game.num_players:
            self.current += 1
            self.phase = PH_SETUP_MIX if setup.mix else PH_KEEP
            return
        if tickets.staged(self) and self.setup_stage + 1 < len(setup.deal):
            self.setup_stage += 1
            self._start_setup_round()
            return
        tickets.finish_setup(self)
        self.in_setup = False
        self.current = self.first
        self.phase = PH_TURN

    # ------------------------------------------------------------------ copies, equality, records
    def clone(self) -> State:
        s = State.__new__(State)
        s.game = self.game
        s.t = self.t
        s.seed = self.seed
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.discard_total = self.discard_total
        s.face_up = self.face_up[:]
        s.hands = [h[:] for h in self.hands]
        s.trains = self.trains[:]
        s.scores = self.scores[:]
        s.owner = self.owner[:]
        s.avail = self.avail[:]
        s.group_open = [x[:] for x in self.group_open]
        s.route_mask = self.route_mask[:]
        s.claims = [c[:] for c in self.claims]
        s.station_owner = dict(self.station_owner)
        s.stations = [x[:] for x in self.stations]
        s.piles = {k: v[:] for k, v in self.piles.items()}
        s.boxed = self.boxed[:]
        s.aside = self.aside[:]
        s.kept = [x[:] for x in self.kept]
        s.offers = [x[:] for x in self.offers]
        s.in_setup = self.in_setup
        s.setup_stage = self.setup_stage
        s.setup_kept = [x[:] for x in self.setup_kept]
        s.phase = self.phase
        s.current = self.current
        s.tunnel = self.tunnel.copy() if self.tunnel is not None else None
        s.stand_ins = self.stand_ins.copy() if self.stand_ins is not None else None
        s.pending_route = self.pending_route
        s.pending_flag = self.pending_flag
        s.passengers_unplaced = self.passengers_unplaced[:]
        s.passenger_at = dict(self.passenger_at)
        s.passengers_moved = self.passengers_moved[:]
        s.journey = self.journey.copy() if self.journey is not None else None
        s.goods = [g[:] for g in self.goods]
        s.goods_at = self.goods_at
        s.goods_taken = [g[:] for g in self.goods_taken]
        s.flag_cards = [f[:] for f in self.flag_cards]
        s.flag_sets = self.flag_sets[:]
        s.final_left = self.final_left
        s.passes = self.passes
        s.turns = self.turns
        s.counters = dict(self.counters)
        s.history = self.history[:]
        s.redeal_locos = self.redeal_locos
        s.redeal_passengers = self.redeal_passengers
        s.face_up_loco_rule = self.face_up_loco_rule
        s.row_stopped = self.row_stopped
        s.first = self.first
        s._sheet = self._sheet
        return s

    def key(self) -> tuple:
        """Everything that makes this position (history excluded): equal keys, equal futures."""
        return (
            self.rng.getstate(), tuple(self.deck), tuple(self.discard), tuple(self.face_up),
            tuple(map(tuple, self.hands)), tuple(self.trains), tuple(self.scores), tuple(self.owner), tuple(self.avail),
            tuple(sorted(self.station_owner.items())), tuple(map(tuple, self.stations)),
            tuple((k, tuple(v)) for k, v in sorted(self.piles.items())), tuple(self.boxed), tuple(self.aside),
            tuple(map(tuple, self.kept)), tuple(map(tuple, self.offers)), self.in_setup, self.setup_stage,
            tuple(map(tuple, self.setup_kept)), self.phase, self.current,
            self.tunnel.key() if self.tunnel else None, self.pending_route, self.pending_flag,
            tuple(self.passengers_unplaced), tuple(sorted(self.passenger_at.items())), tuple(self.passengers_moved),
            self.journey.key() if self.journey else None, tuple(map(tuple, self.goods)),
            tuple(map(tuple, self.goods_taken)), tuple(map(tuple, self.flag_cards)), tuple(self.flag_sets),
            self.final_left, self.passes, self.turns, tuple(sorted(self.counters.items())),
            tuple(map(tuple, self.claims)), self.row_stopped, self.stand_ins.key() if self.stand_ins else None,
            self.first,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        same_game = self.game is other.game or (
            self.game.variant == other.game.variant and self.game.num_players == other.game.num_players
        )
        return same_game and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        from .statedict import state_to_dict

        return state_to_dict(self)

    @classmethod
    def from_dict(cls, game: Game, data: dict[str, Any]) -> State:
        from .statedict import state_from_dict

        return state_from_dict(game, data)

    # ------------------------------------------------------------------ what players see, and scoring
    def observation(self, seat: int) -> dict[str, Any]:
        from .observe import observation

        return observation(self, seat)

    def card_total(self) -> int:
        """Cards anywhere (deck, discards, face up, hands, tunnel, flags): always the deck size."""
        n = len(self.deck) + self.discard_total + sum(1 for k in self.face_up if k >= 0)
        n += sum(map(sum, self.hands))
        if self.tunnel is not None:
            n += len(self.tunnel.revealed) + sum(self.tunnel.paid[1:]) + sum(self.tunnel.stand_ins)
        n += sum(map(len, self.flag_cards))
        return n

    def position(self):
        """The scoring contract's Position for this state (ttr_maps/engine/position.py)."""
        from .position import PlayerPosition, Position

        t = self.t
        players = []
        for p in range(self.game.num_players):
            players.append(
                PlayerPosition(
                    claims=tuple((t.t_route[tid], t.t_track[tid]) for tid in self.claims[p]),
                    stations=tuple(t.place_ids[x] for x in self.stations[p]),
                    tickets=tuple(self.kept[p]),
                    goods=tuple(self.goods_taken[p]),
                    flag_sets=self.flag_sets[p],
                    route_points=self.scores[p] - self.flag_sets[p] * self.game.variant.flags.points,
                    name=f"player {p}",
                )
            )
        return Position(players=tuple(players))

    def score_sheet(self):
        """The score sheet of this position (scoring.final_score): the final one once the game is over.

        Only a finished game's sheet is kept (a position that can still change is scored afresh on every
        call), so `returns()` and `winners()` are right at the end after any mid-game call."""
        if self._sheet is not None:
            return self._sheet
        try:
            from .scoring import final_score
        except ImportError:
            return None
        sheet = final_score(self.game.variant, self.game.board, self.position())
        if self.phase == PH_OVER:
            self._sheet = sheet
        return sheet

    def __repr__(self) -> str:
        return f"<State {self.game.variant.name} {PHASE_NAMES[self.phase]} player {self.current} turn {self.turns}>"


# ---------------------------------------------------------------------- dispatch
def _draw_face_up(s: State, a: DrawFaceUp) -> None:
    cards.apply_draw_face_up(s, a, False)


def _draw_face_up_second(s: State, a: DrawFaceUp) -> None:
    cards.apply_draw_face_up(s, a, True)


def _draw_blind(s: State, a: DrawBlind) -> None:
    cards.apply_draw_blind(s, False)


def _draw_blind_second(s: State, a: DrawBlind) -> None:
    cards.apply_draw_blind(s, True)


def _claim(s: State, a: ClaimTrack) -> None:
    tid, counts = claims.check_claim(s, a)
    if a.stand_ins:
        stand_ins.start(s, tid, counts, a.stand_ins)
    elif s.t.t_tunnel[tid]:
        tunnels.start(s, tid, counts)
    else:
        payments.take_payment(s, counts)
        payments.discard_payment(s, counts)
        s.complete_claim(tid, counts)


def _draw_tickets(s: State, a: DrawTickets) -> None:
    tickets.apply_draw(s, a)


def _keep(s: State, a: KeepTickets) -> None:
    tickets.apply_keep(s, a)


def _station(s: State, a: BuildStation) -> None:
    if not s.game.has_stations:
        raise IllegalAction("this variant has no stations", R_TURN)
    stations.apply(s, a)


def _move(s: State, a: MovePassenger) -> None:
    if not s.game.has_passengers:
        raise IllegalAction("this variant has no passengers", R_TURN)
    passengers.apply_move(s, a)


def _pass(s: State, a: Pass) -> None:
    if s.legal_actions() != [PASS]:
        raise IllegalAction("a player may pass only when no other action is legal", R_PASS)
    s.count("pass")
    s.end_turn(passed=True)


_BY_PAIR: dict[tuple[int, type], Any] = {
    (PH_TURN, DrawFaceUp): _draw_face_up,
    (PH_TURN, DrawBlind): _draw_blind,
    (PH_TURN, ClaimTrack): _claim,
    (PH_TURN, DrawTickets): _draw_tickets,
    (PH_TURN, BuildStation): _station,
    (PH_TURN, MovePassenger): _move,
    (PH_TURN, Pass): _pass,
    (PH_SECOND, DrawFaceUp): _draw_face_up_second,
    (PH_SECOND, DrawBlind): _draw_blind_second,
    (PH_KEEP, KeepTickets): _keep,
    (PH_SETUP_MIX, DrawTickets): _draw_tickets,
    (PH_STAND_IN, GiveStandIns): lambda s, a: stand_ins.apply_give(s, a),
    (PH_TUNNEL, PayTunnel): lambda s, a: tunnels.apply_pay(s, a),
    (PH_TUNNEL, AbandonTunnel): lambda s, a: tunnels.apply_abandon(s),
    (PH_FLAG, SetFlag): lambda s, a: flags.apply_set(s, a),
    (PH_FLAG, SkipFlag): lambda s, a: flags.apply_skip(s),
    (PH_PASSENGER, PlacePassenger): lambda s, a: passengers.apply_place(s, a),
    (PH_PASSENGER, SkipPassenger): lambda s, a: passengers.apply_skip(s),
    (PH_JOURNEY, MovePassenger): lambda s, a: passengers.apply_move(s, a),
    (PH_JOURNEY, StopPassenger): lambda s, a: passengers.apply_stop(s),
}

_HANDLERS: list[dict[type, Any]] = [{} for _ in PHASE_NAMES]
for (_ph, _kind), _fn in _BY_PAIR.items():
    _HANDLERS[_ph][_kind] = _fn
