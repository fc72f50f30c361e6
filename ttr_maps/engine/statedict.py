"""A State to and from the data of a state file (`ttr-state/1`): the format's model and the conversion.

The pydantic model `StateFile` is the format (its JSON Schema is
`schemas/state.schema.json`); `state_to_dict` / `state_from_dict` convert
between it and an engine `State`. Everything is named as in the board and the
variant: card kinds by colour name (`locomotive`, `big-locomotive`,
`passenger`), tickets by `from-to` (`from-to.2` for a second card with the same
ends), routes by `from-to` with a track index. Lists of cards and tickets are
written top first. docs/engine.md describes each field.

For a position set up by hand, `cards.deck` and `tickets.piles` may be left
out: they are then the cards (tickets) not placed anywhere else, shuffled by
the state's generator.

Reading and writing files (the variant found from the file, messages at
file:line:col) is statefile.py, which builds the Game; this module is given one,
so `State.to_dict` / `State.from_dict` can use it without a circle of imports.
"""

from __future__ import annotations

import base64
import random
import struct
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..diagnostics import Diagnostic, did_you_mean, register_code

from .actions import Action, ClaimTrack
from .cards import check_face_up
from .claims import check_claim, place_trains
from .errors import IllegalAction
from .notation import NotationError, action_text, parse_actions, parse_payment
from .phases import PH_TURN, PHASE_NAMES
from .tables import UnknownRoute

if TYPE_CHECKING:
    from .state import State

Game = Any  # game.Game (not imported: game.py imports this module)

STATE_FORMAT = "ttr-state/1"

Name = Annotated[str, Field(min_length=1, max_length=100)]
Count = Annotated[int, Field(ge=0, le=100_000)]
# Counters of a whole game's events: bounded only by JSON's exact integers (a long game with many wild
# cards makes thousands of face-up redeals; no rule caps how many a game may hold).
Tally = Annotated[int, Field(ge=0, le=2**53 - 1)]
Phase = Literal[PHASE_NAMES]  # the phase names (phases.py)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Cards(_Strict):
    """The train cards outside the players' hands."""

    deck: list[Name] | None = Field(
        default=None, description="The draw deck, top card first. Leave out: every card not placed elsewhere, shuffled."
    )
    deck_top: list[Name] = Field(
        default_factory=list, description="With `deck` left out: these cards on top of the deck, top first; the rest shuffled under them."
    )
    discards: dict[Name, Count] = Field(default_factory=dict, description="Discarded cards by kind (their order never matters).")
    face_up: list[Name | None] = Field(default_factory=list, description="The face-up row, slot 0 first; null for an empty slot.")
    face_up_stopped: bool = Field(
        default=False,
        description=(
            "The redeal loop stopped and left this row face up (docs/engine.md, open cases). Otherwise a row "
            "showing too many locomotives is redealt when the file is read, as the rules redeal it."
        ),
    )


class Aside(_Strict):
    ticket: Name
    returned: Literal["shuffled-bottom", "reshuffle"]


class TicketsState(_Strict):
    piles: dict[Name, list[Name]] | None = Field(
        default=None,
        description="Each draw pile, top ticket first. Leave out: every ticket not placed elsewhere, shuffled into its pile.",
    )
    pile_tops: dict[Name, list[Name]] = Field(
        default_factory=dict, description="With `piles` left out: these tickets on top of their pile, top first; the rest shuffled under."
    )
    box: list[Name] = Field(default_factory=list, description="Tickets out of the game.")
    aside: list[Aside] = Field(default_factory=list, description="Setup returns waiting to be shuffled back when setup ends.")


class Claim(_Strict):
    route: Name = Field(description="Route id (`from-to` by default; `to-from` is read too where only one route joins the places).")
    track: int = Field(default=0, ge=0, le=2, description="Track index within the route (0 for a single track).")


class PlayerState(_Strict):
    hand: dict[Name, Count] = Field(default_factory=dict, description="Train cards by kind.")
    trains: int | None = Field(default=None, ge=0, le=999, description="Trains left; default: the variant's trains minus the claimed spaces.")
    score: int | None = Field(default=None, ge=-100_000, le=100_000, description="Live score (routes and flags); default: from the claims and flag sets.")
    tickets: list[Name] = Field(default_factory=list, description="Kept tickets.")
    offered: list[Name] = Field(default_factory=list, description="Tickets drawn and not yet kept or returned.")
    setup_kept: list[Name] = Field(default_factory=list, description="Tickets kept during setup so far (setup only).")
    claims: list[Claim] = Field(default_factory=list, description="Claimed tracks, in the order they were claimed.")
    stations: list[Name] = Field(default_factory=list, description="Places with this player's stations, in building order.")
    passengers_unplaced: int | None = Field(default=None, ge=0, le=9, description="Default: the variant's passengers minus those placed or moved.")
    passengers_moved: Count = 0
    goods: list[Count] = Field(default_factory=list, description="Values of the goods tokens taken.")
    flag_cards: list[Name] = Field(default_factory=list, description="Cards set in front for a French flag.")
    flag_sets: Count = 0


class Tunnel(_Strict):
    route: Name
    track: int = Field(default=0, ge=0, le=2)
    paid: str = Field(description="The payment already made, e.g. `2red+1loco`.")
    revealed: list[Name] = Field(default_factory=list)
    extra: Count = Field(description="Extra cards still to pay.")
    stand_ins: dict[Name, Count] = Field(default_factory=dict, description="Stand-in cards paid too, by colour.")


class StandIns(_Strict):
    route: Name
    track: int = Field(default=0, ge=0, le=2)
    paid: str = Field(description="The route's own cards, e.g. `3red` (they leave the hand with the stand-ins).")
    count: int = Field(ge=1, le=99, description="Cards of the route paid by stand-ins.")
    given: dict[Name, Count] = Field(default_factory=dict, description="Stand-in cards given so far, by colour (still in the hand).")


class Journey(_Strict):
    start: Name
    at: Name
    used: list[Name] = Field(default_factory=list, description="Routes ridden so far.")
    visited: list[Name] = Field(default_factory=list, description="Places reached so far (goods taken there), the start included.")


class Pending(_Strict):
    """The unfinished part of the current turn."""

    route: Name | None = Field(default=None, description="The route just claimed (flag and passenger decisions).")
    flag: Name | None = Field(default=None, description="The flag colour that may be set aside.")
    tunnel: Tunnel | None = None
    journey: Journey | None = None
    stand_ins: StandIns | None = None


class StateFile(_Strict):
    """A ttr-maps game position (`ttr-state/1`)."""

    format: Literal["ttr-state/1"] = Field(description="Format name and version: `ttr-state/1`.")
    variant: str = Field(min_length=1, max_length=1000, description="The variant file, relative to this file.")
    seed: int | None = Field(default=None, description="The seed the game started from (a record; replay = seed + history).")
    rng: str | None = Field(default=None, description="The random generator's state (opaque). Leave out: seeded from `seed`.")
    phase: Phase = "turn"
    current: int = Field(default=0, ge=0, le=7, description="The seat to act.")
    first_player: int = Field(default=0, ge=0, le=7, description="The seat that plays the first turn after setup (docs/rules.md#the-first-player).")
    setup: bool = Field(default=False, description="Still choosing starting tickets.")
    setup_stage: Count = 0
    turns: Count = 0
    final_turns_left: int = Field(default=-1, ge=-1, le=8, description="-1: the end is not triggered; else turns left in the final round.")
    passes: Count = Field(default=0, description="Passes in a row so far.")
    cards: Cards = Field(default_factory=Cards)
    tickets: TicketsState = Field(default_factory=TicketsState)
    players: list[PlayerState] = Field(min_length=1, max_length=8, description="One entry per seat, seat 0 first.")
    passengers: dict[Name, int] = Field(default_factory=dict, description="Placed passengers: place id -> seat.")
    goods: dict[Name, list[list[Count]]] | None = Field(
        default=None, description="Goods stacks left on each place, top token first. Leave out: as on the board minus tokens taken."
    )
    pending: Pending = Field(default_factory=Pending)
    counters: dict[Name, Tally] = Field(default_factory=dict, description="Open cases and events counted so far (docs/engine.md).")
    history: list[str] = Field(default_factory=list, description="Actions played so far, in the notation.")
    mechanics: dict[Name, Any] = Field(
        default_factory=dict,
        description="The slices of mechanics added to the engine beyond this format's fields, by mechanic name (docs/engine.md#mechanics).",
    )


TCODES: dict[str, tuple[str, str]] = {
    "T001": ("not-a-state", "The file's top level is not a mapping."),
    "T002": ("missing-format", "The top-level `format` key is missing."),
    "T003": ("unknown-format", "`format` is not `ttr-state/N` (a board, variant or position file given to a state command)."),
    "T004": ("newer-format", "`format` names a newer version than this ttr-maps reads."),
    "T005": ("unknown-key", "A key the state format does not have."),
    "T006": ("missing-key", "A required key is missing."),
    "T007": ("invalid-value", "A value breaks a rule of the format (range, pattern, length)."),
    "T008": ("wrong-type", "A value has the wrong type."),
    "T010": ("bad-variant", "The variant file is missing, is not a variant, or is not for this many players."),
    "T011": ("unknown-name", "A card kind, ticket, place, route, track or pile the variant and its board do not have."),
    "T012": ("cards-do-not-add-up", "The cards placed are not the variant's deck (too many of a kind, or a given deck that leaves some out)."),
    "T013": ("ticket-misplaced", "A ticket in two places, in no pile of the variant, in another pile, or in none."),
    "T014": ("impossible-position", "Holdings or the unfinished turn contradict the rules (a track claimed twice, too many stations, a phase without its pending part, ...)."),
    "T015": ("bad-history", "A line of `history` is not in the action notation."),
    "T016": ("bad-rng", "`rng` is not a generator state written by ttr-maps."),
    "T017": ("wrong-seat", "A seat that does not exist with this many players."),
}
for _code, (_name, _summary) in TCODES.items():
    register_code(_code, _name, _summary)

def _where(loc: tuple) -> str:
    """`players[0].claims[1]`: a place in a state file, for messages without the file at hand."""
    return "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".") or "(top)"


class StateFileError(ValueError):
    """A state file that does not describe a position of its variant.

    Raised with the place in the file (`loc`, a data path) and a T code; `load_state`, which has the
    file's text, turns it into `diagnostics` at file:line:col (str() then prints those)."""

    def __init__(self, message: str, loc: tuple = (), code: str = "T014", diagnostics: list[Diagnostic] | None = None,
                 *, key: bool = False):
        self.message, self.loc, self.code, self.key = message, tuple(loc), code, key  # key: at the mapping key
        self.diagnostics = list(diagnostics or [])
        text = "\n".join(d.as_text() for d in self.diagnostics) if self.diagnostics else (f"{_where(self.loc)}: {message}" if self.loc else message)
        super().__init__(text)


# ---------------------------------------------------------------------- rng

def rng_to_text(rng: random.Random) -> str:
    version, internal, gauss = rng.getstate()
    data = struct.pack(f"<{len(internal)}I", *internal)
    return f"mt{version}:" + base64.b64encode(data).decode("ascii") + ("" if gauss is None else f":{gauss!r}")


def rng_from_text(text: str) -> random.Random:
    try:
        head, _, rest = text.partition(":")
        body, _, gauss = rest.partition(":")
        version = int(head.removeprefix("mt"))
        raw = base64.b64decode(body, validate=True)
        internal = struct.unpack(f"<{len(raw) // 4}I", raw)
        rng = random.Random()
        rng.setstate((version, internal, float(gauss) if gauss else None))
        return rng
    except (ValueError, TypeError, struct.error) as exc:
        raise StateFileError(f"not a generator state written by ttr-maps ({exc})", ("rng",), "T016") from None


# ---------------------------------------------------------------------- writing

def state_to_dict(state: State, variant_ref: str | None = None) -> dict[str, Any]:
    game = state.game
    t = state.t
    kinds = t.kinds
    keys = t.ticket_keys

    def counts(c: list[int]) -> dict[str, int]:
        return {kinds[k]: n for k, n in enumerate(c) if n}

    players = []
    for p in range(game.num_players):
        players.append(
            {
                "hand": counts(state.hands[p]),
                "trains": state.trains[p],
                "score": state.scores[p],
                "tickets": [keys[k] for k in state.kept[p]],
                "offered": [keys[k] for k in state.offers[p]],
                "setup_kept": [keys[k] for k in state.setup_kept[p]],
                "claims": [{"route": t.route_ids[t.t_route[tid]], "track": t.t_track[tid]} for tid in state.claims[p]],
            }
        )
    pending: dict[str, Any] = {}
    if state.pending_route >= 0:
        pending["route"] = t.route_ids[state.pending_route]
    data: dict[str, Any] = {
        "format": STATE_FORMAT,
        "variant": variant_ref or game.variant_path or "",
        "seed": state.seed,
        "phase": PHASE_NAMES[state.phase],
        "current": state.current,
        **({"first_player": state.first} if state.first else {}),
        "setup": state.in_setup,
        "setup_stage": state.setup_stage,
        "turns": state.turns,
        "final_turns_left": state.final_left,
        "passes": state.passes,
        "cards": {
            "deck": [kinds[k] for k in reversed(state.deck)],
            "discards": counts(state.discard),
            "face_up": [kinds[k] if k >= 0 else None for k in state.face_up],
            **({"face_up_stopped": True} if state.row_stopped else {}),
        },
        "tickets": {
            "piles": {name: [keys[k] for k in reversed(pile)] for name, pile in state.piles.items()},
            "box": [keys[k] for k in state.boxed],
            "aside": [{"ticket": keys[k], "returned": how} for k, how in state.aside],
        },
        "players": players,
        "pending": pending,
        "counters": dict(sorted(state.counters.items())),
        "history": [action_text(game, a) for a in state.history],
        "rng": rng_to_text(state.rng),
        "mechanics": {},
    }
    for m in game.known_mechanics:
        m.write(state, data)
    # Keys in the format's order (the models above), whichever mechanic wrote them.
    data["players"] = [_ordered(entry, _PLAYER_KEYS) for entry in players]
    data["pending"] = _ordered(pending, _PENDING_KEYS)
    if data.get("mechanics") == {}:
        del data["mechanics"]
    return _ordered(data, _TOP_KEYS)


_TOP_KEYS = (
    "format", "variant", "seed", "phase", "current", "first_player", "setup", "setup_stage", "turns", "final_turns_left",
    "passes", "cards", "tickets", "players", "passengers", "pending", "counters", "history", "rng", "goods",
)
_PLAYER_KEYS = tuple(PlayerState.model_fields)
_PENDING_KEYS = tuple(Pending.model_fields)


def _ordered(d: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    out = {k: d[k] for k in order if k in d}
    out.update((k, v) for k, v in d.items() if k not in out)
    return out


# ---------------------------------------------------------------------- reading

def parse_state_file(data: Any) -> StateFile:
    try:
        return StateFile.model_validate(data)
    except ValidationError as exc:
        msgs = []
        for err in exc.errors(include_url=False)[:10]:
            msgs.append(f"{_where(tuple(err['loc']))}: {err['msg']}")
        raise StateFileError("not a ttr-state/1 file:\n  " + "\n  ".join(msgs), code="T007") from None


def state_from_dict(game: Game, data: Any) -> State:
    """A State from a state file's data (already parsed); StateFileError says what is wrong."""
    sf = data if isinstance(data, StateFile) else parse_state_file(data)
    return _build(game, sf)


class _Reader:
    """Turns a state file's names into the engine's ints, refusing each wrong one at its place (`loc`)."""

    def __init__(self, game: Game, sf: StateFile):
        self.game, self.t, self.sf = game, game.t, sf
        self.placed = [0] * game.t.NK  # cards found outside the deck, by kind
        self.seen: dict[int, tuple] = {}  # ticket -> where it was found

    def error(self, message: str, loc: tuple, code: str = "T014", key: bool = False):
        """Refuse the file at `loc` (a data path) with `message` (StateFileError)."""
        raise StateFileError(message, loc, code, key=key)

    def payment_counts(self, text: str, loc: tuple) -> tuple | None:
        """A payment in the notation (`2red+1loco`) as counts; None for one that is not one colour plus wild cards."""
        try:
            return self.t.payment_counts(parse_payment(self.game, text))
        except NotationError as exc:
            raise StateFileError(str(exc), loc, "T011") from None

    def payment(self, text: str, loc: tuple):
        """A payment in the notation (`2red+1loco`)."""
        try:
            return parse_payment(self.game, text)
        except NotationError as exc:
            raise StateFileError(str(exc), loc, "T011") from None

    def check_claim(self, s: State, action: ClaimTrack, loc: tuple) -> tuple[int, tuple]:
        """The checks of a claim as at the start of the current player's turn: (track, payment counts)."""
        phase = s.phase
        s.phase = PH_TURN
        try:
            return check_claim(s, action)
        except IllegalAction as exc:
            raise StateFileError(f"the claim is not legal here: {exc.reason}", loc, "T014") from None
        finally:
            s.phase = phase

    def kind(self, name: str, loc: tuple, key: bool = False) -> int:
        k = self.t.kind_index.get(name)
        if k is None:
            raise StateFileError(f"unknown card kind '{name}'{did_you_mean(name, self.t.kinds)} (kinds: {', '.join(self.t.kinds)})",
                                 loc, "T011", key=key)
        return k

    def card(self, name: str, loc: tuple, n: int = 1, key: bool = False) -> int:
        """A card kind placed outside the deck (counted for the deck's total)."""
        k = self.kind(name, loc, key)
        self.placed[k] += n
        return k

    def ticket(self, key: str, loc: tuple) -> int:
        k = self.t.ticket_index.get(key)
        if k is None:
            raise StateFileError(f"unknown ticket '{key}'{did_you_mean(key, self.t.ticket_keys)}", loc, "T011")
        return k

    def placed_ticket(self, key: str, loc: tuple) -> int:
        """A ticket in one place of the game: never in two, always of a pile of this variant."""
        k = self.ticket(key, loc)
        t = self.t
        if k in self.seen:
            raise StateFileError(f"ticket '{t.ticket_keys[k]}' is also in {_where(self.seen[k])}", loc, "T013")
        if k not in t.ticket_pile:
            raise StateFileError(f"ticket '{t.ticket_keys[k]}' is not in any pile of this variant", loc, "T013")
        self.seen[k] = loc
        return k

    def place(self, pid: str, loc: tuple, key: bool = False) -> int:
        x = self.t.place_index.get(pid)
        if x is None:
            raise StateFileError(f"unknown place '{pid}'{did_you_mean(pid, self.t.place_ids)}", loc, "T011", key=key)
        return x

    def route(self, rid: str, loc: tuple) -> int:
        try:
            return self.t.find_route(rid)
        except UnknownRoute as exc:
            raise StateFileError(str(exc), loc, "T011") from None

    def track(self, rid: str, track: int, loc: tuple) -> int:
        r = self.route(rid, loc + ("route",))
        tids = self.t.route_tids[r]
        if track >= len(tids):
            raise StateFileError(f"{rid} has no track {track} (it has {len(tids)})", loc + ("track",), "T011")
        return tids[track]


def _build(game: Game, sf: StateFile) -> State:
    """The State a parsed state file describes; StateFileError at the place in the file that is wrong."""
    n = game.num_players
    if len(sf.players) != n:
        raise StateFileError(f"{len(sf.players)} entries for a {n}-player game", ("players",), "T017")
    if sf.current >= n:
        raise StateFileError(f"seat {sf.current} does not exist with {n} players", ("current",), "T017")
    if sf.first_player >= n:
        raise StateFileError(f"seat {sf.first_player} does not exist with {n} players", ("first_player",), "T017")
    rd = _Reader(game, sf)
    s = game.blank_state()
    s.first = sf.first_player
    s.seed = sf.seed
    s.rng = rng_from_text(sf.rng) if sf.rng else random.Random(sf.seed if sf.seed is not None else 0)
    s.phase = PHASE_NAMES.index(sf.phase)
    s.current = sf.current
    s.in_setup = sf.setup
    s.setup_stage = sf.setup_stage
    s.turns = sf.turns
    s.final_left = sf.final_turns_left
    s.passes = sf.passes
    _read_cards(rd, s)
    _read_tickets(rd, s)
    _read_claims(rd, s)
    _read_pending(rd, s)
    for m in game.known_mechanics:
        m.read(rd, s)
    s.counters.update(sf.counters)
    # A row the rules would redeal (typed by hand: the engine never leaves one unless its loop stopped)
    # is redealt now, with the state's generator, so the forbidden row is never drawn from.
    s.row_stopped = sf.cards.face_up_stopped
    if not s.row_stopped:
        check_face_up(s)
    s.history = _history(game, sf.history)
    return s


def _read_cards(rd: _Reader, s: State) -> None:
    """Discards, face-up row, hands and the mechanics' cards (a pending tunnel's, ...); then the deck, which holds
    the rest (shuffled, under `deck_top`) unless it is given whole."""
    t, sf, v = rd.t, rd.sf, rd.game.variant
    for name, c in sf.cards.discards.items():
        s.discard[rd.card(name, ("cards", "discards", name), c, key=True)] += c
    s.discard_total = sum(s.discard)
    if len(sf.cards.face_up) != v.face_up.count:
        raise StateFileError(f"{len(sf.cards.face_up)} slots; the variant has {v.face_up.count}", ("cards", "face_up"), "T014")
    for i, name in enumerate(sf.cards.face_up):
        if name is not None:
            s.face_up[i] = rd.card(name, ("cards", "face_up", i))
    for p, ps in enumerate(sf.players):
        for name, c in ps.hand.items():
            s.hands[p][rd.card(name, ("players", p, "hand", name), c, key=True)] += c
    for m in rd.game.known_mechanics:
        m.read_cards(rd, s)
    if sf.cards.deck is not None and sf.cards.deck_top:
        raise StateFileError("give either `deck` (the whole deck) or `deck_top`, not both", ("cards", "deck_top"), "T012")
    placed = rd.placed
    if sf.cards.deck is not None:
        s.deck = [rd.card(x, ("cards", "deck", len(sf.cards.deck) - 1 - i)) for i, x in enumerate(reversed(sf.cards.deck))]
        if placed != list(t.deck_counts):
            diff = ", ".join(f"{t.kinds[k]} {placed[k]} (variant {t.deck_counts[k]})" for k in range(t.NK) if placed[k] != t.deck_counts[k])
            raise StateFileError(f"the cards placed do not add up to the variant's deck: {diff}", ("cards", "deck"), "T012")
        return
    top = [rd.card(x, ("cards", "deck_top", i)) for i, x in enumerate(sf.cards.deck_top)]
    rest = []
    for k in range(t.NK):
        extra = t.deck_counts[k] - placed[k]
        if extra < 0:
            raise StateFileError(f"{placed[k]} {t.kinds[k]} cards placed; the variant has {t.deck_counts[k]}", ("cards",), "T012")
        rest.extend([k] * extra)
    s.rng.shuffle(rest)
    s.deck = rest + list(reversed(top))


def _read_tickets(rd: _Reader, s: State) -> None:
    """Kept, offered, boxed and set-aside tickets, then the piles: given whole, or the rest shuffled."""
    t, sf = rd.t, rd.sf
    for p, ps in enumerate(sf.players):
        for i, key in enumerate(ps.tickets):
            s.kept[p].append(rd.placed_ticket(key, ("players", p, "tickets", i)))
        for i, key in enumerate(ps.offered):
            s.offers[p].append(rd.placed_ticket(key, ("players", p, "offered", i)))
        for i, key in enumerate(ps.setup_kept):
            k = rd.ticket(key, ("players", p, "setup_kept", i))
            if k not in s.kept[p]:
                raise StateFileError(f"'{key}' is not among the player's tickets", ("players", p, "setup_kept", i), "T013")
            s.setup_kept[p].append(k)
    for i, key in enumerate(sf.tickets.box):
        s.boxed.append(rd.placed_ticket(key, ("tickets", "box", i)))
    for i, item in enumerate(sf.tickets.aside):
        s.aside.append((rd.placed_ticket(item.ticket, ("tickets", "aside", i, "ticket")), item.returned))
    if sf.tickets.piles is not None:
        _read_piles(rd, s, sf.tickets.piles)
        return
    tops: dict[str, list[int]] = {}
    for name, keys in sf.tickets.pile_tops.items():
        _pile_name(rd, name, ("tickets", "pile_tops"))
        for i, key in enumerate(keys):
            k = rd.placed_ticket(key, ("tickets", "pile_tops", name, i))
            if t.ticket_pile[k] != name:
                raise StateFileError(f"'{key}' belongs to pile {t.ticket_pile[k]}", ("tickets", "pile_tops", name, i), "T013")
            tops.setdefault(name, []).append(k)
    for name in t.pile_names:
        pile = [k for k in t.pile_tickets[name] if k not in rd.seen]
        s.rng.shuffle(pile)
        s.piles[name] = pile + list(reversed(tops.get(name, [])))


def _pile_name(rd: _Reader, name: str, loc: tuple) -> None:
    if name not in rd.t.pile_tickets:
        raise StateFileError(f"unknown pile '{name}' (piles: {', '.join(rd.t.pile_names)})", loc + (name,), "T011", key=True)


def _read_piles(rd: _Reader, s: State, piles: dict[str, list[str]]) -> None:
    t = rd.t
    for name in piles:
        _pile_name(rd, name, ("tickets", "piles"))
    for name in t.pile_names:
        keys = piles.get(name, [])
        s.piles[name] = [rd.placed_ticket(keys[i], ("tickets", "piles", name, i)) for i in reversed(range(len(keys)))]
    missing = [t.ticket_keys[k] for k in t.ticket_pile if k not in rd.seen]
    if missing:
        more = " ..." if len(missing) > 8 else ""
        raise StateFileError(f"not placed anywhere: {', '.join(missing[:8])}{more}", ("tickets", "piles"), "T013")


def _read_claims(rd: _Reader, s: State) -> None:
    """Claimed tracks in order (trains, points and the parallel-route rule follow), trains and scores."""
    t, sf, v = rd.t, rd.sf, rd.game.variant
    for p, ps in enumerate(sf.players):
        s.current = p
        for i, c in enumerate(ps.claims):
            at = ("players", p, "claims", i)
            tid = rd.track(c.route, c.track, at)
            r = t.t_route[tid]
            if s.owner[tid] >= 0:
                raise StateFileError(f"{c.route} track {c.track} is already claimed by player {s.owner[tid]}", at, "T014")
            if any(s.route_mask[q] & (1 << p) for q in t.route_parallel[r]):
                raise StateFileError(f"one player never claims two tracks of {c.route} (or of routes counted as one with it)", at, "T014")
            if not s.avail[tid]:
                raise StateFileError(f"{c.route} is closed with {rd.game.num_players} players (parallel routes)", at, "T014")
            place_trains(s, tid)
        if ps.trains is not None:
            s.trains[p] = ps.trains
        elif s.trains[p] < 0:
            raise StateFileError(f"more spaces than the variant's {v.trains} trains", ("players", p, "claims"), "T014")
        if ps.score is not None:  # else the route points, plus what the mechanics' read adds
            s.scores[p] = ps.score
    s.current = sf.current


def _read_pending(rd: _Reader, s: State) -> None:
    """The unfinished turn, which must fit the phase."""
    sf = rd.sf
    pend = sf.pending
    if pend.route is not None:
        s.pending_route = rd.route(pend.route, ("pending", "route"))
    if sf.phase == "keep-tickets" and not s.offers[sf.current]:
        raise StateFileError(f"phase keep-tickets needs offered tickets for seat {sf.current}", ("phase",), "T014")


def _history(game: Game, lines: list[str]) -> list[Action]:
    out: list[Action] = []
    for i, line in enumerate(lines):
        try:
            out.extend(parse_actions(game, line))
        except NotationError as exc:
            raise StateFileError(str(exc), ("history", i), "T015") from None
    return out
