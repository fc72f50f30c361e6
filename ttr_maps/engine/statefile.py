"""State files (`ttr-state/1`): a whole game position as YAML or JSON, readable and writable by hand.

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
"""

from __future__ import annotations

import base64
import random
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .actions import Action
from .notation import NotationError, action_text, parse_actions, parse_payment
from .tables import UnknownRoute

if TYPE_CHECKING:
    from .game import Game, State

STATE_FORMAT = "ttr-state/1"

Name = Annotated[str, Field(min_length=1, max_length=100)]
Count = Annotated[int, Field(ge=0, le=100_000)]
# Counters of a whole game's events: bounded only by JSON's exact integers (a long game with many wild
# cards makes thousands of face-up redeals; no rule caps how many a game may hold).
Tally = Annotated[int, Field(ge=0, le=2**53 - 1)]
Phase = Literal["turn", "second-draw", "keep-tickets", "announce-mix", "tunnel", "flag", "place-passenger", "journey", "over"]


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


class StateFile(_Strict):
    """A ttr-maps game position (`ttr-state/1`)."""

    format: Literal["ttr-state/1"] = Field(description="Format name and version: `ttr-state/1`.")
    variant: str = Field(min_length=1, max_length=1000, description="The variant file, relative to this file.")
    seed: int | None = Field(default=None, description="The seed the game started from (a record; replay = seed + history).")
    rng: str | None = Field(default=None, description="The random generator's state (opaque). Leave out: seeded from `seed`.")
    phase: Phase = "turn"
    current: int = Field(default=0, ge=0, le=7, description="The seat to act.")
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


class StateFileError(ValueError):
    """A state file that does not describe a position of its variant."""


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
        raise StateFileError(f"rng: not a generator state written by ttr-maps ({exc})") from None


# ---------------------------------------------------------------------- writing

def state_to_dict(state: State, variant_ref: str | None = None) -> dict[str, Any]:
    from .game import PHASE_NAMES

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
                "stations": [t.place_ids[x] for x in state.stations[p]],
                "passengers_unplaced": state.passengers_unplaced[p],
                "passengers_moved": state.passengers_moved[p],
                "goods": list(state.goods_taken[p]),
                "flag_cards": [kinds[c] for c in state.flag_cards[p]],
                "flag_sets": state.flag_sets[p],
            }
        )
    pending: dict[str, Any] = {}
    if state.pending_route >= 0:
        pending["route"] = t.route_ids[state.pending_route]
    if state.pending_flag >= 0:
        pending["flag"] = kinds[state.pending_flag]
    if state.tunnel is not None:
        tun = state.tunnel
        from .actions import payment_text

        pending["tunnel"] = {
            "route": t.route_ids[t.t_route[tun.tid]],
            "track": t.t_track[tun.tid],
            "paid": payment_text(t.payment(t.payment_id(*tun.paid))),
            "revealed": [kinds[k] for k in tun.revealed],
            "extra": tun.extra,
        }
    if state.journey is not None:
        j = state.journey
        pending["journey"] = {
            "start": t.place_ids[j.start],
            "at": t.place_ids[j.at],
            "used": [t.route_ids[r] for r in sorted(j.used)],
            "visited": [t.place_ids[x] for x in sorted(j.visited)],
        }
    data: dict[str, Any] = {
        "format": STATE_FORMAT,
        "variant": variant_ref or game.variant_path or "",
        "seed": state.seed,
        "phase": PHASE_NAMES[state.phase],
        "current": state.current,
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
        "passengers": {t.place_ids[x]: p for x, p in sorted(state.passenger_at.items())},
        "pending": pending,
        "counters": dict(sorted(state.counters.items())),
        "history": [action_text(game, a) for a in state.history],
        "rng": rng_to_text(state.rng),
    }
    if t.goods_stacks:
        goods: dict[str, list[list[int]]] = {}
        for i, (place, _) in enumerate(t.goods_stacks):
            goods.setdefault(t.place_ids[place], []).append(list(reversed(state.goods[i])))
        data["goods"] = goods
    return data


# ---------------------------------------------------------------------- reading

def parse_state_file(data: Any) -> StateFile:
    try:
        return StateFile.model_validate(data)
    except ValidationError as exc:
        msgs = []
        for err in exc.errors(include_url=False)[:10]:
            loc = ".".join(str(x) for x in err["loc"]) or "(top)"
            msgs.append(f"{loc}: {err['msg']}")
        raise StateFileError("not a ttr-state/1 file:\n  " + "\n  ".join(msgs)) from None


def state_from_dict(game: Game, data: Any) -> State:
    """A State from a state file's data (already parsed); StateFileError says what is wrong."""
    sf = data if isinstance(data, StateFile) else parse_state_file(data)
    return _build(game, sf)


def _build(game: Game, sf: StateFile) -> State:
    from .game import PHASE_NAMES, State
    from .passengers import Journey
    from .tunnels import PendingTunnel

    t = game.t
    v = game.variant
    n = game.num_players
    if len(sf.players) != n:
        raise StateFileError(f"players: {len(sf.players)} entries for a {n}-player game")
    if sf.current >= n:
        raise StateFileError(f"current: seat {sf.current} does not exist with {n} players")

    def kind(name: str, where: str) -> int:
        k = t.kind_index.get(name)
        if k is None:
            raise StateFileError(f"{where}: unknown card kind '{name}' (kinds: {', '.join(t.kinds)})")
        return k

    def ticket(key: str, where: str) -> int:
        k = t.ticket_index.get(key)
        if k is None:
            raise StateFileError(f"{where}: unknown ticket '{key}'")
        return k

    def place(pid: str, where: str) -> int:
        x = t.place_index.get(pid)
        if x is None:
            raise StateFileError(f"{where}: unknown place '{pid}'")
        return x

    def route(rid: str, where: str) -> int:
        try:
            return t.find_route(rid)
        except UnknownRoute as exc:
            raise StateFileError(f"{where}: {exc}") from None

    s = State(game, None)
    s.seed = sf.seed
    if sf.rng:
        s.rng = rng_from_text(sf.rng)
    else:
        s.rng = random.Random(sf.seed if sf.seed is not None else 0)
    s.phase = PHASE_NAMES.index(sf.phase)
    s.current = sf.current
    s.in_setup = sf.setup
    s.setup_stage = sf.setup_stage
    s.turns = sf.turns
    s.final_left = sf.final_turns_left
    s.passes = sf.passes

    # Cards.
    placed = [0] * t.NK
    for name, c in sf.cards.discards.items():
        k = kind(name, "cards.discards")
        s.discard[k] += c
        placed[k] += c
    s.discard_total = sum(s.discard)
    if len(sf.cards.face_up) != v.face_up.count:
        raise StateFileError(f"cards.face_up: {len(sf.cards.face_up)} slots; the variant has {v.face_up.count}")
    for i, name in enumerate(sf.cards.face_up):
        if name is not None:
            k = kind(name, f"cards.face_up[{i}]")
            s.face_up[i] = k
            placed[k] += 1
    for p, ps in enumerate(sf.players):
        for name, c in ps.hand.items():
            k = kind(name, f"players[{p}].hand")
            s.hands[p][k] += c
            placed[k] += c
        for i, name in enumerate(ps.flag_cards):
            k = kind(name, f"players[{p}].flag_cards[{i}]")
            if k >= t.NC:
                raise StateFileError(f"players[{p}].flag_cards: only coloured cards make a flag")
            s.flag_cards[p].append(k)
            placed[k] += 1
    tunnel = sf.pending.tunnel
    tun_paid = None
    if tunnel is not None:
        r = route(tunnel.route, "pending.tunnel.route")
        if tunnel.track >= len(t.route_tids[r]):
            raise StateFileError(f"pending.tunnel.track: {tunnel.route} has no track {tunnel.track}")
        try:
            pay = parse_payment(game, tunnel.paid)
        except NotationError as exc:
            raise StateFileError(f"pending.tunnel.paid: {exc}") from None
        tun_paid = t.payment_counts(pay)
        if tun_paid is None:
            raise StateFileError("pending.tunnel.paid: one colour plus locomotives")
        color, nc, nl, nb, npass = tun_paid
        if nc:
            placed[color] += nc
        placed[t.LOCO] += nl
        placed[t.BIG] += nb
        placed[t.PASS] += npass
        revealed = [kind(x, "pending.tunnel.revealed") for x in tunnel.revealed]
        for k in revealed:
            placed[k] += 1
        s.tunnel = PendingTunnel(t.route_tids[r][tunnel.track], tun_paid, revealed, tunnel.extra, color if nc else -1)
    if sf.cards.deck is not None:
        s.deck = [kind(x, "cards.deck") for x in reversed(sf.cards.deck)]
        for k in s.deck:
            placed[k] += 1
        if placed != list(t.deck_counts):
            diff = ", ".join(
                f"{t.kinds[k]} {placed[k]} (variant {t.deck_counts[k]})" for k in range(t.NK) if placed[k] != t.deck_counts[k]
            )
            raise StateFileError(f"cards: the cards placed do not add up to the variant's deck: {diff}")
    else:
        top = [kind(x, "cards.deck_top") for x in sf.cards.deck_top]
        for k in top:
            placed[k] += 1
        rest = []
        for k in range(t.NK):
            extra = t.deck_counts[k] - placed[k]
            if extra < 0:
                raise StateFileError(f"cards: {placed[k]} {t.kinds[k]} cards placed; the variant has {t.deck_counts[k]}")
            rest.extend([k] * extra)
        s.rng.shuffle(rest)
        s.deck = rest + list(reversed(top))
    if sf.cards.deck is not None and sf.cards.deck_top:
        raise StateFileError("cards: give either `deck` (the whole deck) or `deck_top`, not both")

    # Tickets.
    seen: dict[int, str] = {}

    def mark(k: int, where: str) -> None:
        if k in seen:
            raise StateFileError(f"{where}: ticket '{t.ticket_keys[k]}' is also in {seen[k]}")
        if k not in t.ticket_pile:
            raise StateFileError(f"{where}: ticket '{t.ticket_keys[k]}' is not in any pile of this variant")
        seen[k] = where

    for p, ps in enumerate(sf.players):
        for key in ps.tickets:
            k = ticket(key, f"players[{p}].tickets")
            mark(k, f"players[{p}].tickets")
            s.kept[p].append(k)
        for key in ps.offered:
            k = ticket(key, f"players[{p}].offered")
            mark(k, f"players[{p}].offered")
            s.offers[p].append(k)
        for key in ps.setup_kept:
            k = ticket(key, f"players[{p}].setup_kept")
            if k not in s.kept[p]:
                raise StateFileError(f"players[{p}].setup_kept: '{key}' is not among the player's tickets")
            s.setup_kept[p].append(k)
    for key in sf.tickets.box:
        k = ticket(key, "tickets.box")
        mark(k, "tickets.box")
        s.boxed.append(k)
    for item in sf.tickets.aside:
        k = ticket(item.ticket, "tickets.aside")
        mark(k, "tickets.aside")
        s.aside.append((k, item.returned))
    if sf.tickets.piles is not None:
        for name in sf.tickets.piles:
            if name not in t.pile_tickets:
                raise StateFileError(f"tickets.piles: unknown pile '{name}' (piles: {', '.join(t.pile_names)})")
        for name in t.pile_names:
            keys = sf.tickets.piles.get(name, [])
            pile = []
            for key in keys:
                k = ticket(key, f"tickets.piles.{name}")
                mark(k, f"tickets.piles.{name}")
                pile.append(k)
            s.piles[name] = list(reversed(pile))
        missing = [t.ticket_keys[k] for k in t.ticket_pile if k not in seen]
        if missing:
            raise StateFileError(f"tickets: not placed anywhere: {', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''}")
    else:
        tops: dict[str, list[int]] = {}
        for name, keys in sf.tickets.pile_tops.items():
            if name not in t.pile_tickets:
                raise StateFileError(f"tickets.pile_tops: unknown pile '{name}' (piles: {', '.join(t.pile_names)})")
            for key in keys:
                k = ticket(key, f"tickets.pile_tops.{name}")
                mark(k, f"tickets.pile_tops.{name}")
                if t.ticket_pile[k] != name:
                    raise StateFileError(f"tickets.pile_tops.{name}: '{key}' belongs to pile {t.ticket_pile[k]}")
                tops.setdefault(name, []).append(k)
        for name in t.pile_names:
            pile = [k for k in t.pile_tickets[name] if k not in seen]
            s.rng.shuffle(pile)
            s.piles[name] = pile + list(reversed(tops.get(name, [])))

    # Claims, stations, passengers, goods.
    from .claims import place_trains

    for p, ps in enumerate(sf.players):
        s.current = p
        for i, c in enumerate(ps.claims):
            r = route(c.route, f"players[{p}].claims[{i}]")
            if c.track >= len(t.route_tids[r]):
                raise StateFileError(f"players[{p}].claims[{i}]: {c.route} has no track {c.track}")
            tid = t.route_tids[r][c.track]
            if s.owner[tid] >= 0:
                raise StateFileError(f"players[{p}].claims[{i}]: {c.route} track {c.track} is already claimed by player {s.owner[tid]}")
            if s.route_mask[r] & (1 << p):
                raise StateFileError(f"players[{p}].claims[{i}]: one player never claims two tracks of {c.route}")
            if not s.avail[tid]:
                raise StateFileError(f"players[{p}].claims[{i}]: {c.route} is closed with {n} players (parallel routes)")
            place_trains(s, tid)
        if ps.trains is not None:
            s.trains[p] = ps.trains
        elif s.trains[p] < 0:
            raise StateFileError(f"players[{p}].claims: more spaces than the variant's {v.trains} trains")
        if ps.score is not None:
            s.scores[p] = ps.score
        else:
            s.scores[p] += ps.flag_sets * v.flags.points
        if len(ps.stations) > len(t.station_costs):
            raise StateFileError(f"players[{p}].stations: at most {len(t.station_costs)}")
        for i, pid in enumerate(ps.stations):
            x = place(pid, f"players[{p}].stations[{i}]")
            if x in s.station_owner:
                raise StateFileError(f"players[{p}].stations[{i}]: {pid} already has a station")
            s.station_owner[x] = p
            s.stations[p].append(x)
        s.goods_taken[p] = list(ps.goods)
        s.flag_sets[p] = ps.flag_sets
        s.passengers_moved[p] = ps.passengers_moved
    s.current = sf.current
    for pid, seat in sf.passengers.items():
        x = place(pid, "passengers")
        if not 0 <= seat < n:
            raise StateFileError(f"passengers.{pid}: no seat {seat}")
        if t.is_country[x]:
            raise StateFileError(f"passengers.{pid}: passengers never stand in a country")
        s.passenger_at[x] = seat
    for p, ps in enumerate(sf.players):
        on_board = sum(1 for seat in s.passenger_at.values() if seat == p)
        moving = 1 if (sf.pending.journey is not None and p == sf.current) else 0
        unplaced = ps.passengers_unplaced
        if unplaced is None:
            unplaced = v.passengers.count - on_board - ps.passengers_moved - moving
        if unplaced < 0 or unplaced + on_board + ps.passengers_moved + moving > v.passengers.count:
            raise StateFileError(f"players[{p}]: more passengers than the variant's {v.passengers.count}")
        s.passengers_unplaced[p] = unplaced
    if sf.goods is not None:
        s.goods = [[] for _ in t.goods_stacks]
        for pid, stacks in sf.goods.items():
            x = place(pid, "goods")
            idx = s.goods_at.get(x, [])
            if len(stacks) > len(idx):
                raise StateFileError(f"goods.{pid}: {len(stacks)} stacks; the board has {len(idx)} there")
            for i, values in zip(idx, stacks):
                s.goods[i] = list(reversed(values))
    else:
        taken = [v for ps in sf.players for v in ps.goods]
        if taken:
            raise StateFileError("goods: give the stacks left on the board when players have taken goods")

    # The unfinished turn.
    pend = sf.pending
    if pend.route is not None:
        s.pending_route = route(pend.route, "pending.route")
    if pend.flag is not None:
        s.pending_flag = kind(pend.flag, "pending.flag")
    if pend.journey is not None:
        j = pend.journey
        s.journey = Journey(
            place(j.start, "pending.journey.start"),
            place(j.at, "pending.journey.at"),
            {route(r, "pending.journey.used") for r in j.used},
            {place(x, "pending.journey.visited") for x in j.visited} | {place(j.start, "pending.journey.start")},
        )
    needs = {"tunnel": s.tunnel, "journey": s.journey}
    for ph, obj in needs.items():
        if sf.phase == ph and obj is None:
            raise StateFileError(f"phase {ph} needs pending.{ph}")
        if sf.phase != ph and obj is not None:
            raise StateFileError(f"pending.{ph} is only meaningful in phase {ph}")
    if sf.phase == "flag" and (s.pending_flag < 0 or s.pending_flag not in t.flag_colors):
        raise StateFileError("phase flag needs pending.flag, a flag colour")
    if sf.phase == "place-passenger" and s.pending_route < 0:
        raise StateFileError("phase place-passenger needs pending.route")
    if sf.phase == "keep-tickets" and not s.offers[sf.current]:
        raise StateFileError(f"phase keep-tickets needs offered tickets for seat {sf.current}")
    s.counters.update(sf.counters)
    # A row the rules would redeal (typed by hand: the engine never leaves one unless its loop stopped)
    # is redealt now, with the state's generator, so the forbidden row is never drawn from.
    s.row_stopped = sf.cards.face_up_stopped
    if not s.row_stopped:
        from .cards import check_face_up

        check_face_up(s)
    try:
        s.history = _history(game, sf.history)
    except NotationError as exc:
        raise StateFileError(f"history: {exc}") from None
    return s


def _history(game: Game, lines: list[str]) -> list[Action]:
    out: list[Action] = []
    for line in lines:
        out.extend(parse_actions(game, line))
    return out


# ---------------------------------------------------------------------- files

def load_state(path: str | Path) -> State:
    """Read a state file and its variant; StateFileError (or LoadError for the variant) otherwise."""
    from ..diagnostics import LoadError
    from ..load import read_source
    from .game import Game

    src = read_source(path)
    if src.diagnostics and src.data is None:
        raise StateFileError("\n".join(d.as_text() for d in src.diagnostics))
    if src.diagnostics and any(d.severity.value == "error" for d in src.diagnostics):
        raise StateFileError("\n".join(d.as_text() for d in src.diagnostics))
    fmt = src.data.get("format") if isinstance(src.data, dict) else None
    if isinstance(fmt, str) and fmt != STATE_FORMAT:
        kind = {"ttr-board": "a board", "ttr-variant": "a variant", "ttr-position": "a position"}.get(fmt.split("/")[0])
        if kind is not None:
            raise StateFileError(
                f"this is {kind} file ({fmt}), not a game state ({STATE_FORMAT}); make a state with "
                "`ttr-maps state new VARIANT -p N -o state.yaml`"
                + (", or score a position with `ttr-maps score`" if kind == "a position" else "")
            )
    sf = parse_state_file(src.data)
    from ..bundled import resolve

    variant_path = Path(resolve(sf.variant, Path(path).parent, kinds=("variants",)))
    if not variant_path.is_file():
        raise StateFileError(f"variant: file '{sf.variant}' not found (looked at {variant_path}); the path is relative to the state file, or a bundled variant's name (`ttr-maps boards`)")
    try:
        game = Game.from_file(variant_path, len(sf.players))
    except ValueError as exc:
        if isinstance(exc, LoadError):
            raise
        raise StateFileError(str(exc)) from None
    game.variant_path = str(variant_path)
    return _build(game, sf)


def dump_state(state: State, path: str | Path, fmt: str | None = None) -> str:
    """The state as YAML (or JSON for `.json` paths / fmt='json'), its variant path relative to `path`."""
    import json
    import os

    import yaml

    from ..bundled import bundled_name

    ref = state.game.variant_path or ""
    if ref and bundled_name(ref):
        ref = bundled_name(ref) or ""  # a bundled variant by its name: the file moves with the installation
    elif ref:
        try:
            ref = os.path.relpath(Path(ref).resolve(), Path(path).resolve().parent)
        except ValueError:
            ref = str(Path(ref).resolve())
    data = state_to_dict(state, variant_ref=ref.replace(os.sep, "/"))
    fmt = fmt or ("json" if str(path).endswith(".json") else "yaml")
    if fmt == "json":
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)
