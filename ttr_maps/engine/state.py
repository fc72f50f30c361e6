"""A game position: `State`, the OpenSpiel-shaped surface and the data every mechanic reads and changes.

The state holds the position (cards, tickets, claims, each mechanic's pieces, the phase and the seat to
act) and copies and compares it. What may be done and what follows an action are the rules (turns.py):
game.State, the class games make, binds them as its methods (legal_actions, the action handlers, the
turn flow the mechanics call: end_turn, complete_claim, ...) and adds the state file and the
observation. So this module imports no mechanic, and the mechanics (which change a State and name it
from here) import nothing that imports them back.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterable

from .actions import Action
from .errors import R_OVER, R_TURN, IllegalAction
from .mechanic import overrides
from .phases import OPEN_CASES, PH_OVER, PH_TURN, PHASE_DOC, PHASE_NAMES

_new_random = random.Random.__new__  # random.Random's C constructor, without Random.__init__ seeding it again

if TYPE_CHECKING:
    from .tables import Tables

    class _Slices:
        """The mechanics' slices of a state: slots of game.State (mechanics.SLOTS), the class games make, named here
        for type checking (a compiled mechanic reads them by these types)."""

        # passengers.py
        passengers_unplaced: list[int]
        passenger_at: dict[int, int]  # place -> seat
        passengers_moved: list[int]
        journey: Any  # a passengers.Journey while a passenger moves, else None
        goods: list[list[int]]
        goods_at: dict[int, list[int]]  # place -> its stacks (indices into goods)
        goods_taken: list[list[int]]
        # stations.py
        stations: list[list[int]]  # each seat's stations' places, in the order built
        station_owner: dict[int, int]  # place -> seat
else:
    _Slices = object


class State(_Slices):
    """A game position. Mutable: `apply` changes it in place; `clone` copies it.

    What the mechanics read and change. The public class (game.State, made by `Game.new_initial_state`)
    adds the position's forms for the outside: `to_dict` / `from_dict` (state files) and `observation`.
    """

    __slots__ = (
        "game", "t", "seed", "rng", "deck", "discard", "discard_total", "face_up", "hands", "trains", "scores",
        "owner", "avail", "group_open", "route_mask", "claims", "piles", "boxed", "aside", "kept",
        "offers", "in_setup", "setup_stage", "setup_kept", "phase", "current", "pending_route",
        "final_left", "passes", "turns", "counters", "history",
        "redeal_locos", "redeal_passengers", "face_up_loco_rule", "row_stopped", "_sheet", "first", "events",
    )

    def __init__(self, game, seed: int | None, first: str | int | None = None):
        """A new game of `game` (a Game) dealt from `seed` (None: nothing dealt, for a state file to fill in)."""
        self._blank(game, seed is None)
        if seed is not None:
            self._deal(seed, first)

    def _blank(self, game, rng: bool = True) -> None:
        """Nothing dealt. `rng`: give it a generator (seeded 0); False when a deal (which makes its own) follows."""
        t = game.t
        n = game.num_players
        v = game.variant
        self.game = game
        self.t: Tables = t  # (game.t: a Game is not named here, so its tables' type is said once, on the state)
        self.seed: int | None = None
        # (None only in a blank state whose deal follows at once: `rng` False)
        self.rng: random.Random = random.Random(0) if rng else None  # type: ignore[assignment]
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
        full = t.group_full
        self.group_open = [full[:] for _ in range(n)]
        self.route_mask = [0] * len(t.route_ids)
        self.claims: list[list[int]] = [[] for _ in range(n)]
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
        self.pending_route = -1
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
        self.events: list | None = None  # set to a list to collect what each action did (events.py)
        for m in game.known_mechanics:  # each mechanic's slice (mechanic.py)
            m.new(self)

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
        raise NotImplementedError  # the rules' (turns.legal_actions), bound in game.State

    def apply(self, action: Action) -> None:
        """Play `action` for the current player; IllegalAction (naming the rule) leaves the state unchanged."""
        ph = self.phase
        handler = self.game.handlers[ph].get(type(action))
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

    # ------------------------------------------------------------------ the rules (turns.py), bound in game.State
    def _deal(self, seed: int, first: str | int | None) -> None:
        """Shuffle and deal a new game from `seed`, then start the setup (turns.deal)."""
        raise NotImplementedError

    # The turn flow the mechanics call:
    def begin_second_draw(self) -> None:
        raise NotImplementedError

    def complete_claim(self, tid: int, paid: tuple, extra: tuple = (), given: tuple | list = ()) -> None:
        """The claim of track `tid` is paid: `paid` (payment counts), a tunnel's `extra`, stand-in cards `given`."""
        raise NotImplementedError

    def claim_done(self, mechanic) -> None:
        """`mechanic`'s phase after a claim is over: the later mechanics' after_claim hooks, then the turn ends."""
        raise NotImplementedError

    def after_keep(self) -> None:
        raise NotImplementedError

    def end_turn(self, passed: bool = False) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ copies, equality, records
    def clone(self) -> State:
        cls = self.__class__
        s = cls.__new__(cls)
        s.game = self.game
        s.t = self.t
        s.seed = self.seed
        # The copy's generator continues from the same state. Made by the C constructor seeded with 0 (then set):
        # random.Random() would read the OS's random source for a seed setstate overwrites at once.
        s.rng = rng = _new_random(random.Random, 0)
        rng.setstate(self.rng.getstate())
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
        s.pending_route = self.pending_route
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
        s.events = None  # a copy collects nothing until asked
        for m in self.game.known_mechanics:
            m.copy(self, s)
        return s

    def key(self) -> tuple:
        """Everything that makes this position (history excluded): equal keys, equal futures."""
        return (
            self.rng.getstate(), tuple(self.deck), tuple(self.discard), tuple(self.face_up),
            tuple(map(tuple, self.hands)), tuple(self.trains), tuple(self.scores), tuple(self.owner), tuple(self.avail),
            tuple((k, tuple(v)) for k, v in sorted(self.piles.items())), tuple(self.boxed), tuple(self.aside),
            tuple(map(tuple, self.kept)), tuple(map(tuple, self.offers)), self.in_setup, self.setup_stage,
            tuple(map(tuple, self.setup_kept)), self.phase, self.current,
            self.pending_route,
            self.final_left, self.passes, self.turns, tuple(sorted(self.counters.items())),
            tuple(map(tuple, self.claims)), self.row_stopped,
            self.first, tuple(m.key(self) for m in self.game.known_mechanics),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        same_game = self.game is other.game or (
            self.game.variant == other.game.variant and self.game.num_players == other.game.num_players
        )
        return same_game and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ scoring
    def card_total(self) -> int:
        """Cards anywhere (deck, discards, face up, hands, the mechanics' slices): always the deck size."""
        n = len(self.deck) + self.discard_total + sum(1 for k in self.face_up if k >= 0)
        n += sum(map(sum, self.hands))
        for m in self.game.known_mechanics:
            n += m.cards_held(self)
        return n

    def position(self):
        """The scoring contract's Position for this state (ttr_maps/engine/position.py)."""
        from .position import PlayerPosition, Position

        game = self.game
        hooks = game.position_hooks
        if hooks is None:  # the known mechanics' methods that give anything (the defaults give {}, None and 0)
            known = game.known_mechanics
            hooks = game.position_hooks = tuple(
                tuple(m for m in known if overrides(m, name)) for name in ("position", "scoring_data", "live_points"))
        fields_of, data_of, points_of = hooks
        claim_of = self.t.t_claim.__getitem__
        players = []
        for p in range(game.num_players):
            fields: dict[str, Any] = {}
            for m in fields_of:
                fields.update(m.position(self, p))
            extra = []
            for m in data_of:
                data = m.scoring_data(self, p)
                if data is not None:
                    extra.append((m.name, data))
            points = self.scores[p]
            for m in points_of:
                points -= m.live_points(self, p)
            players.append(
                PlayerPosition(
                    claims=tuple(map(claim_of, self.claims[p])),
                    tickets=tuple(self.kept[p]),
                    route_points=points,
                    name=f"player {p}",
                    mechanics=tuple(extra),
                    **fields,
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
        game = self.game
        # The position is the state's own: its claims, tickets and stations are the board's (the rules made them
        # or a state file's checks let them in), so final_score's checks of a position from outside are skipped.
        sheet = final_score(game.variant, game.board, self.position(), game.mechanics, game.board_index, checked=True)
        if self.phase == PH_OVER:
            self._sheet = sheet
        return sheet

    def __repr__(self) -> str:
        return f"<State {self.game.variant.name} {PHASE_NAMES[self.phase]} player {self.current} turn {self.turns}>"
