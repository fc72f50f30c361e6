"""The short text notation of actions (docs/engine.md, "Action notation").

    draw blind | draw faceup 2 | claim athina-sofia pink 3pink | claim atlanta-raleigh gray.1 1red+1loco
    tickets | tickets 2 2 | keep 0 2 | pass

and the verbs each mechanic adds (Mechanic.verbs, with its `usage`; docs/engine.md lists them all).
A payment is `N<kind>` parts joined by `+`: a colour, `loco` (also `locomotive`,
`joker`), `big` (+4 locomotive) or `passenger`; `0` pays nothing. `+` only ever
joins parts (`2yellow+4loco` is two yellow cards and four locomotives), so the +4
locomotive is written `big`. Numbers are ASCII digits; anything else is a
NotationError (a usage error for the command line), never a crash.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from . import mechanic
from .actions import (
    Action,
    ClaimTrack,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    Payment,
    claim_payment_text,
)
from .tables import UnknownRoute

if TYPE_CHECKING:
    from .state import State

Game = Any  # game.Game (not imported: game.py imports this module)


class NotationError(ValueError):
    """Text that is not an action of the notation."""


_USAGE_HEAD = "draw blind | draw faceup N | claim ROUTE [TRACK] PAYMENT | tickets [N ...] | keep [I ...]"


def usage() -> str:
    """The usage line of the notation: the turn's own verbs, each mechanic's (Mechanic.usage), `pass`."""
    return "actions: " + " | ".join([_USAGE_HEAD, *(m.usage for m in mechanic.MECHANICS if m.usage), "pass"])

# `2standin` in a claim's payment: two of the route's cards are paid by stand-ins (docs/rules.md#stand-ins).
_STAND_IN = re.compile(r"([0-9]+)(?:standins?|stand-ins?)")

# A payment part: a count (ASCII digits) and a card kind starting with a letter (`[a-z]` is ASCII only).
_PART = re.compile(r"([0-9]+)([a-z][a-z0-9-]*)")
_NUMBER = re.compile(r"[0-9]+")
_INDEXED_TRACK = re.compile(r"([a-z][a-z0-9-]*)\.([0-9]+)")


def _number(token: str) -> int | None:
    """A whole number written in ASCII digits, or None (`int` would also take `²`-like digits, `_` and signs)."""
    return int(token) if _NUMBER.fullmatch(token) else None


def is_payment(token: str) -> bool:
    """Whether `token` reads as a payment (`0`, `3pink`, `2yellow+4loco`) rather than a track or a place."""
    return token == "0" or all(_PART.fullmatch(part) for part in re.split(r"[+,]", token))


def track_token(game: Game, route: int, track: int) -> str:
    tracks = game.board.routes[route].tracks
    if not 0 <= track < len(tracks):
        return str(track)
    color = tracks[track]
    return color if tracks.count(color) == 1 else f"{color}.{track}"


def action_text(game: Game, action: Action) -> str:
    if isinstance(action, ClaimTrack):
        t = game.t
        if isinstance(action.route, int) and 0 <= action.route < len(t.route_ids):
            return f"claim {t.route_ids[action.route]} {track_token(game, action.route, action.track)} {claim_payment_text(action)}"
    return action.text()


def parse_payment(game: Game, text: str) -> Payment:
    """`2pink+1loco` -> (("pink", 2), ("locomotive", 1)) in the game's card order."""
    t = game.t
    text = text.strip().lower()
    if text in ("0", "", "nothing"):
        return ()
    counts: dict[int, int] = {}
    for part in re.split(r"[+,]", text):
        if not part:
            continue
        m = _PART.fullmatch(part)
        if not m:
            if _NUMBER.fullmatch(part):
                raise NotationError(
                    f"'{part}' has no card kind; `+` joins payment parts (2red+1loco), so a +4 locomotive is written `big`, e.g. 1big"
                )
            raise NotationError(f"'{part}' is not a payment part; write e.g. 3pink, 2red+1loco, 1passenger")
        n, kind = int(m.group(1)), m.group(2)
        k = t.kind_index.get(kind)
        if k is None:
            if kind.endswith("s") and kind[:-1] in t.kind_index:
                k = t.kind_index[kind[:-1]]
            else:
                raise NotationError(f"unknown card kind '{kind}' in '{part}'; kinds: {', '.join(t.colors)}, loco, big, passenger")
        counts[k] = counts.get(k, 0) + n
    return tuple((t.kinds[k], n) for k, n in sorted(counts.items()) if n)


def _ints(tokens: list[str], what: str) -> tuple[int, ...]:
    numbers = tuple(_number(x) for x in tokens)
    if None in numbers:
        raise NotationError(f"{what} takes whole numbers written with the digits 0-9, got {' '.join(tokens)}")
    return numbers  # type: ignore[return-value]


def _route(game: Game, name: str) -> int:
    try:
        return game.t.find_route(name)
    except UnknownRoute as exc:
        raise NotationError(str(exc)) from None


def place_arg(game: Game, name: str) -> str:
    """`name` when it is a place id of the board; else a NotationError with the nearest ids."""
    if name not in game.t.place_index:
        from ..diagnostics import did_you_mean

        raise NotationError(f"unknown place '{name}'{did_you_mean(name, game.t.place_ids)}")
    return name


def _track(game: Game, route: int, token: str, state: State | None) -> int:
    tracks = game.board.routes[route].tracks
    index = _number(token)
    if index is not None:
        return index
    m = _INDEXED_TRACK.fullmatch(token)
    if m:
        return int(m.group(2))
    candidates = [i for i, c in enumerate(tracks) if c == token]
    if not candidates:
        raise NotationError(f"route {game.t.route_ids[route]} has no {token} track (its tracks: {', '.join(tracks)}){_neighbours(game, route)}")
    if state is not None:
        for i in candidates:
            tid = game.t.route_tids[route][i]
            if state.avail[tid]:
                return i
    return candidates[0]


def _neighbours(game: Game, route: int) -> str:
    """`; the other routes between a and b: ...` when the route shares its places with others."""
    t = game.t
    others = [r for r in t.routes_between.get(t.route_ends[route], ()) if r != route]
    if not others:
        return ""
    return "; the other routes between these places: " + "; ".join(game.board.route_summary(r) for r in others)


def _fitting_track(game: Game, route: int, payment: Payment, state: State | None) -> int:
    """The first track (open, when a state is given) whose colour the payment fits; 0 if none does."""
    t = game.t
    colors = {kind for kind, _ in payment if kind in t.color_index}
    fits = []
    for i, tid in enumerate(t.route_tids[route]):
        c = t.t_color[tid]
        if c == -1 or not colors or (c >= 0 and colors == {t.colors[c]}):
            fits.append(i)
    if state is not None:
        for i in fits:
            if state.avail[t.route_tids[route][i]]:
                return i
    return fits[0] if fits else 0


def parse_actions(game: Game, text: str, state: State | None = None) -> list[Action]:
    """Actions written in the notation, separated by `;` or new lines."""
    out: list[Action] = []
    for chunk in re.split(r"[;\n]", text):
        tokens = chunk.strip().lower().split()
        if tokens:
            out.extend(_parse_one(game, tokens, state))
    if not out:
        raise NotationError("no action given; " + usage())
    return out


def _parse_one(game: Game, tok: list[str], state: State | None) -> list[Action]:
    verb, args = tok[0], tok[1:]
    parse = _VERBS.get(verb)
    if parse is None:  # a mechanic's verb (Mechanic.verbs)
        parse = next((m.verbs[verb] for m in mechanic.MECHANICS if verb in m.verbs), None)
    out = parse(game, args, state) if parse is not None else None
    if out is None:
        raise NotationError(f"cannot read '{' '.join(tok)}'; " + usage())
    return out


def _parse_draw(game: Game, args: list[str], state: State | None) -> list[Action]:
    if args == ["blind"]:
        return [DrawBlind()]
    if len(args) == 2 and args[0] in ("faceup", "face-up", "open"):
        return [DrawFaceUp(_ints(args[1:], "draw faceup")[0])]
    if len(args) == 1 and _number(args[0]) is not None:
        return [DrawFaceUp(_ints(args, "draw")[0])]
    raise NotationError("write `draw blind` or `draw faceup N` (N = slot 0-4)")


def _parse_claim(game: Game, args: list[str], state: State | None) -> list[Action]:
    if len(args) < 2:
        raise NotationError("write `claim ROUTE [TRACK] PAYMENT`, e.g. `claim athina-sofia pink 3pink`")
    route = _route(game, args[0])
    rest = args[1:]
    if len(rest) >= 2 or not is_payment(rest[0]):
        track = _track(game, route, rest[0], state)
        rest = rest[1:]
    else:
        track = None
    if not rest:
        raise NotationError("the claim needs a payment, e.g. 3pink or 2pink+1loco")
    parts = [x for x in re.split(r"[+,]", "+".join(rest)) if x]
    stand_ins = sum(int(m.group(1)) for m in map(_STAND_IN.fullmatch, parts) if m)
    payment = parse_payment(game, "+".join(x for x in parts if not _STAND_IN.fullmatch(x)) or "0")
    if track is None:
        track = _fitting_track(game, route, payment, state)
    return [ClaimTrack(route, track, payment, stand_ins)]


def _parse_tickets(game: Game, args: list[str], state: State | None) -> list[Action]:
    return [DrawTickets(_ints(args, "tickets"))]


def _parse_keep(game: Game, args: list[str], state: State | None) -> list[Action]:
    return [KeepTickets(tuple(sorted(_ints(args, "keep"))))]


def _parse_pass(game: Game, args: list[str], state: State | None) -> list[Action] | None:
    return None if args else [Pass()]  # `pass` with more words: not an action (the caller says so)


# The parser of each verb of the turn (its words after the verb); None from a parser: the words are no
# action. The mechanics add theirs (Mechanic.verbs).
_VERBS: dict[str, Callable[[Game, list[str], Any], list[Action] | None]] = {
    "draw": _parse_draw,
    "claim": _parse_claim,
    "tickets": _parse_tickets,
    "ticket": _parse_tickets,
    "keep": _parse_keep,
    "pass": _parse_pass,
}
