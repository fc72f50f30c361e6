"""The reference engine's surface: `Game` (rules + board + player count) and `State`.

Shaped like OpenSpiel's Python games: `current_player()`, `legal_actions()`,
`apply(action)`, `is_terminal()`, `returns()`, `clone()`. The state owns its
random generator (seeded at creation, captured by `to_dict`), so a seed plus the
action list reproduces a game exactly. Every rule comes from the variant file;
the mechanics (tunnels, stations, passengers, flags) are modules switched on by
it. Cards are int kinds and hands are count arrays, for speed.

`State` is state.py's position with the rules of turns.py bound as its methods (the legal actions,
the action handlers, the turn flow), plus its state file and observation. Both are importable from
here, as are the phase constants (phases.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..model.board import Board
from ..model.variant import Variant
from .actions import (
    Action,
    ClaimTrack,
    DrawTickets,
    KeepTickets,
)
from .phases import (  # noqa: F401 (PH_*, PHASE_NAMES and OPEN_CASES: names of this module's surface)
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
from . import mechanics as _mechanics
from . import state
from . import mechanic as _mechanic
from .errors import R_TURN, IllegalAction
from .tables import Tables
from . import turns
from .turns import PASS  # noqa: F401 (PASS: a name of this module's surface)

def _refuse(message: str):
    def refuse(s, a):
        raise IllegalAction(message, R_TURN)

    return refuse


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
        self._build_mechanics(variant, board)
        self.has_stations = bool(variant.stations.costs)
        self.has_passengers = variant.passengers.count > 0
        self.has_flags = bool(self.t.flag_colors)
        self.has_tunnels = any(self.t.t_tunnel)
        # Interned actions, so enumerating legal actions allocates nothing once warm.
        self.claim_cache: dict[tuple[int, int], ClaimTrack] = {}
        self.claim_lists: dict[int, list[ClaimTrack]] = {}
        self.gray_rows: dict[int, list[list[ClaimTrack]]] = {}
        self.gray_counts: dict[int, tuple[int, ...]] = {}  # claims._gray_counts: payments by a colour's cards
        self.open_positions: dict[int, tuple[int, ...]] = {}
        self.claim_checked: dict[int, tuple] = {}  # id(claim) -> what claims.check_claim found of it alone
        self.route_tests: dict | None = None  # claims._route_tests and _route_groups, made when first asked for
        self.route_groups: tuple | None = None
        self.ticket_cache: dict[tuple, DrawTickets] = {}
        self.mix_actions: dict[tuple, tuple[DrawTickets, ...]] = {}  # tickets.legal_draw's, per deal and pile sizes
        self.keep_cache: dict[tuple, KeepTickets] = {}
        self.draw_tickets_plain = DrawTickets(())
        draw = variant.tickets.draw
        self.draw_piles = tuple(draw.mix) if draw.mix and draw.count > 0 else tuple(d.pile for d in draw.deal if d.count > 0)
        # The variant's settings the turn flow reads on every turn, as plain attributes: a read of the variant
        # model's fields costs several times a plain one (its class has a __getattr__ hook).
        tk = variant.tickets
        self.draw_deal = draw
        self.setup_deal = tk.setup
        self.draw_mix = bool(draw.mix)
        self.staged_setup = tk.staged_setup and len(tk.setup.deal) > 1
        # Per deal (index: in setup), keep_min where that is the only keep rule (no keep_max), else None.
        self.plain_keep = tuple(None if d.keep_max else d.keep_min for d in (draw, tk.setup))
        self.end_trains = variant.end.trains_at_most
        self.few_players_close = num_players < variant.parallel.all_tracks_from
        self.face_up_count = variant.face_up.count
        self._board_index = None
        self.position_hooks = None  # State.position: the known mechanics that give a scoring position anything
        for m in self.mechanics:
            m.setup(self)

    def _build_mechanics(self, variant: Variant, board: Board) -> None:
        """The mechanics this variant switches on (mechanic.py), and what the turn flow calls of them."""
        # Every known mechanic's slice is in every state (the state file and observation have one shape);
        # only the enabled ones' rules run. A mechanic with no slice (a final-scoring bonus) is left out of
        # the state's loops.
        self.known_mechanics = tuple(m for m in _mechanic.MECHANICS if _mechanic.has_slice(m))
        self.mechanics = _mechanic.mechanics_for(variant, board)
        self.mechanic_names = tuple(m.name for m in self.mechanics)
        extra = tuple(dict.fromkeys(f for m in self.known_mechanics for f in m.fields if f not in _mechanics.SLOTS))
        # The class of this game's states: State, or a subclass with the slots of mechanics added from outside.
        self.state_class = State if not extra else type("State", (State,), {"__slots__": extra, "__module__": __name__})
        ms = self.mechanics
        self.turn_legal = tuple(m.turn_legal for m in ms if _mechanic.overrides(m, "turn_legal"))
        self.after_claim_mechanics = tuple(m for m in ms if _mechanic.overrides(m, "after_claim"))
        self.after_claim = tuple(m.after_claim for m in self.after_claim_mechanics)
        self.pay_claim = tuple(m.pay_claim for m in ms if _mechanic.overrides(m, "pay_claim"))
        self.end_of_turn = tuple(m.end_of_turn for m in ms if _mechanic.overrides(m, "end_of_turn"))
        # The handler of each action type, per phase: the turn flow's (turns.HANDLERS), then the mechanics'.
        self.handlers = [dict(h) for h in turns.HANDLERS]
        self.phase_legal: dict[int, object] = {}
        for m in _mechanic.MECHANICS:  # a mechanic's action in a variant without it: refused, saying so
            if m not in ms and m.absent:
                for kind in m.turn_actions:
                    self.handlers[PH_TURN].setdefault(kind, _refuse(m.absent))
        for m in ms:
            for kind, fn in m.turn_actions.items():
                self.handlers[PH_TURN][kind] = fn
            for ph, legal in m.phases.items():
                self.phase_legal[ph] = legal
            for (ph, kind), fn in m.handlers.items():
                self.handlers[ph][kind] = fn

    @property
    def board_index(self):
        """What final scoring reads of the variant and board, by number (scoring.BoardIndex), made when first asked."""
        ix = self._board_index
        if ix is None:
            from .scoring import BoardIndex

            ix = self._board_index = BoardIndex(self.variant, self.board)
        return ix

    def uses(self, name: str) -> bool:
        """Whether this game plays the mechanic called `name` (mechanic.py)."""
        return name in self.mechanic_names

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
        return self.state_class(self, seed, first)

    def blank_state(self) -> State:
        """A State with nothing dealt and no seed: what a state file is read into (statedict.py)."""
        return self.state_class(self, None)

    # Text forms live in notation.py; these are conveniences.
    def action_text(self, action: Action) -> str:
        from .notation import action_text

        return action_text(self, action)

    def parse_actions(self, text: str, state: State | None = None) -> list[Action]:
        from .notation import parse_actions

        return parse_actions(self, text, state)

    def __repr__(self) -> str:
        return f"Game({self.variant.name!r}, players={self.num_players})"


class State(state.State):
    """A game position (state.py) with the rules (turns.py) as its methods, and its forms for the outside:
    the state file's data and what a seat sees."""

    # The slices of the engine's own mechanics (mechanics.py) are slots. A game with a mechanic added from
    # outside the engine makes its states of a subclass with that mechanic's `fields` as slots too
    # (Game.state_class).
    __slots__ = _mechanics.SLOTS

    # The rules (turns.py), as this class's methods.
    _deal = turns.deal
    legal_actions = turns.legal_actions
    legal_sequence = turns.legal_sequence
    begin_second_draw = turns.begin_second_draw
    complete_claim = turns.complete_claim
    claim_done = turns.claim_done
    after_keep = turns.after_keep
    end_turn = turns.end_turn

    def to_dict(self) -> dict[str, Any]:
        from .statedict import state_to_dict

        return state_to_dict(self)

    @classmethod
    def from_dict(cls, game: Game, data: dict[str, Any]) -> State:
        from .statedict import state_from_dict

        return state_from_dict(game, data)

    def observation(self, seat: int) -> dict[str, Any]:
        from .observe import observation

        return observation(self, seat)
