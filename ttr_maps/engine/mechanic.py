"""The interface a mechanic implements, and the list of mechanics the engine knows (docs/engine.md#mechanics).

A mechanic (French flags, stations, ...) is one `Mechanic` object. It says whether a variant switches it on
(`enabled`), owns a slice of the state (the State attributes it creates, copies, compares, writes to and
reads from the state file, and shows in a seat's observation), the phases it opens with their legal
actions and handlers, and its hooks into the turn: after a claim, at the end of a turn, at final scoring.

`Game` builds its list of mechanics once from the variant (`mechanics_for`); the turn flow (turns.py), the
position (state.py), the state file (statedict.py), the observation (observe.py) and final scoring
(scoring.py) loop over that list and name no mechanic. `MECHANICS` is the list every game is built from,
in the order their hooks run: mechanics.py appends the engine's own (the package imports it, so the list
is full before any engine module is used), and a mechanic is added by appending one to it.

The state file and the observation have a fixed shape (`ttr-state/1`): a mechanic a variant switches off
still writes its (empty) slice there, so files and observations read the same for every variant. The
rules (phases and hooks) run only for the mechanics the variant switches on.

A leaf module: it names phases only, so a mechanic's module imports it without a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

if TYPE_CHECKING:  # (State is Any here: state.py's scoring reads this module's list)
    from ..model.board import Board
    from ..model.variant import Variant
    from .position import PlayerPosition, ScoringTable

State = Any


class Mechanic:
    """One mechanic of the rules. Every method has a do-nothing default: a mechanic overrides what it uses.

    Attributes a subclass sets:
    - `name`: its name (in `Game.mechanic_names`, in error messages, and its key under `mechanics` in a
      state file when it keeps its slice there).
    - `fields`: the State attributes its slice is made of (`new` creates them): slots of the states of
      every game built while the mechanic is in the list.
    - `turn_actions`: {action type: handler(state, action)} for actions it adds at the start of a turn
      (their legal ones come from `turn_legal`).
    - `phases`: {phase: legal(state, out)} for the phases it opens; `handlers`: {(phase, action type):
      handler(state, action)} for the actions of those phases. A handler changes the state or raises
      IllegalAction (naming the rule) before changing anything.
    - `verbs`: {verb: parse(game, words after the verb, state or None)}: the notation of its actions
      (notation.py, which looks a verb up here when the turn's own verbs do not have it); a parser returns
      the actions, None when the words are no action, or raises NotationError saying how to write them.
      `usage`: their forms for the notation's usage line. An action's text is its class's `text()`.
    """

    name: str = ""
    absent: str = ""  # the refusal of its turn actions in a variant without it ("" : not possible now)
    fields: tuple[str, ...] = ()
    turn_actions: dict[type, Callable[[Any, Any], None]] = {}
    phases: dict[int, Callable[[Any, list], None]] = {}
    handlers: dict[tuple[int, type], Callable[[Any, Any], None]] = {}
    verbs: dict[str, Callable[[Any, list[str], Any], list | None]] = {}
    usage: str = ""

    def enabled(self, variant: Variant, board: Board) -> bool:
        """Whether `variant` (on `board`) plays with this mechanic (its rules run; its slice exists either way)."""
        return False

    def setup(self, game: Any) -> None:
        """Once per Game that plays it: tables or interned actions of its own (set as attributes of `game`)."""

    # ------------------------------------------------------------------ its slice of the state
    def new(self, state: State) -> None:
        """Create the slice on a blank state (before anything is dealt)."""

    def copy(self, src: State, dst: State) -> None:
        """Copy the slice of `src` into `dst` (State.clone): nothing the copy changes may reach `src`."""

    def key(self, state: State) -> tuple:
        """The slice as a hashable value: equal keys, equal positions (State.key, State.__eq__)."""
        return ()

    def cards_held(self, state: State) -> int:
        """Train cards the slice holds outside the deck, discards, face-up row and hands (State.card_total)."""
        return 0

    def write(self, state: State, data: dict[str, Any]) -> None:
        """Add the slice to a state file's data (statedict.state_to_dict): the core's keys are written;
        `data["players"][p]` is seat p's entry, `data["pending"]` the unfinished turn. A mechanic outside
        the format's own fields writes under `data["mechanics"][self.name]` (a JSON value)."""

    def read_cards(self, reader: Any, state: State) -> None:
        """Read the train cards the slice holds (`reader.card(name, loc)` counts each one), before the deck
        is made of the cards placed nowhere else."""

    def read(self, reader: Any, state: State) -> None:
        """Fill the slice from a state file (statedict.state_from_dict), after the cards, tickets and claims.

        `reader.sf` is the parsed file, `reader.t` the tables, `reader.game` the Game; its methods turn
        names into ints and raise StateFileError at the place in the file that is wrong, as does
        `reader.error(message, loc)`. `reader.sf.mechanics.get(self.name)` is what
        `write` put under `mechanics`."""

    def observe(self, view: Any, obs: dict[str, Any]) -> None:
        """Add what the seat `view.seat` may see of the slice to its observation (observe.SeatObservation):
        `obs["players"][p]` per seat, top-level keys for the board."""

    def position(self, state: State, p: int) -> dict[str, Any]:
        """Fields of seat p's scoring Position (position.PlayerPosition) that come from the slice."""
        return {}

    def scoring_data(self, state: State, p: int) -> Any:
        """What final_scoring needs of seat p's slice beyond the Position's own fields (None: nothing); it is
        in `player.mechanics` (PlayerPosition) under this mechanic's name."""
        return None

    def live_points(self, state: State, p: int) -> int:
        """Points of seat p's live score that this mechanic gave during play (not route points)."""
        return 0

    # ------------------------------------------------------------------ phases
    def turn_legal(self, state: State, out: list) -> None:
        """Append the legal actions it adds at the start of a turn (phase `turn`)."""

    # ------------------------------------------------------------------ hooks
    def pay_claim(self, state: State, tid: int, counts: tuple, action: Any) -> bool:
        """A claim of track `tid` (the ClaimTrack `action`, payment counts `counts`) has passed its checks and
        nothing has been paid: return True to take over its payment (e.g. open a phase); the mechanic then
        calls `state.complete_claim(tid, paid, ...)` once it is paid. False: the next mechanic's, or the
        plain payment."""
        return False

    def after_claim(self, state: State, tid: int, paid: tuple | None) -> bool:
        """After a claim of track `tid` is paid and its trains placed (`state.pending_route` is its route;
        `paid` the payment's counts, None when resuming after an earlier mechanic's phase, as a state file
        keeps no finished payment). Return True when it opened one of its phases: the turn then waits, and
        that phase's handlers call `state.claim_done(self)` when it is over."""
        return False

    def end_of_turn(self, state: State) -> None:
        """At the end of the current player's turn, before the face-up row is refilled."""

    def final_scoring(self, variant: Variant, board: Board, player: PlayerPosition) -> dict[str, int]:
        """Rows of one player's final score sheet (scoring.final_score): {breakdown key: points}. A row the
        sheet does not have yet is added after the others (the total is their sum)."""
        return {}

    def final_scoring_table(self, table: ScoringTable) -> Sequence[dict[str, int]]:
        """Rows of every player's final score sheet at once, for a rule that compares players (a bonus to
        the players tied for the most of something): one {breakdown key: points} per seat, in seat order.
        `table` (position.ScoringTable) is the position with what final scoring worked out per seat (the
        completed tickets, the longest trails); `table.notes[seat][self.name]` takes what it found beside
        the points (scoring.PlayerScore.notes). `tied_for_most` is the tie rule of docs/rules.md#final-scoring."""
        return ()


def tied_for_most(values: Iterable[int], points: int) -> list[int]:
    """Per seat, `points` to every seat tied for the highest of `values`, 0 to the others; nobody scores
    when the highest is 0 (docs/rules.md#final-scoring: a tie gives every tied player the full points,
    and "the most" needs at least one)."""
    values = list(values)
    best = max(values, default=0)
    return [points if best > 0 and v == best else 0 for v in values]


# The methods of a mechanic's slice of the state (a mechanic that overrides none of them has no slice).
SLICE_METHODS = ("new", "copy", "key", "cards_held", "write", "read_cards", "read", "observe", "position", "scoring_data", "live_points")


def has_slice(m: Mechanic) -> bool:
    """Whether `m` keeps anything in the state (its `fields`, or any of the slice's methods)."""
    return bool(m.fields) or any(overrides(m, name) for name in SLICE_METHODS)


def overrides(m: Mechanic, method: str) -> bool:
    """Whether `m` implements `method` (the game calls only the hooks a mechanic has)."""
    return getattr(type(m), method) is not getattr(Mechanic, method)


# The mechanics every game is built from, in hook order (filled by mechanics.py; see the module docstring).
MECHANICS: list[Mechanic] = []


def mechanics_for(variant: Variant, board: Board) -> tuple[Mechanic, ...]:
    """The mechanics `variant` on `board` switches on, in hook order."""
    return tuple(m for m in MECHANICS if m.enabled(variant, board))
