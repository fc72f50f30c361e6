"""The position file (`ttr-position/1`): a finished game typed by hand, for `ttr-maps score`.

```yaml
format: ttr-position/1
variant: ../../maps/variants/usa.yaml     # relative to this file
players:
  - name: Ann
    routes: [new-york-pittsburgh, chicago-pittsburgh, boston-new-york red]
    tickets: [boston-miami, {ticket: chicago-santa-fe, deck: usa}]
```

Routes are named by their id (`from-to` unless the board gives another; `to-from`
is read too where one route joins the places); a double route whose
tracks differ in colour also names the colour (`boston-new-york red` or
`{route: boston-new-york, color: red}`). Tickets likewise, with `deck` or
`points` when the same two places are on several cards. The pydantic model
below is the format (`schemas/position.schema.json` is generated from it); the
loader checks it against the variant and the board and reports every problem at
file:line:col with a Q code (docs/scoring.md lists them).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import Field

from ..bundled import resolve
from ..diagnostics import Diagnostic, Severity, did_you_mean, has_errors, register_code
from ..load import load, read_source
from ..load.source import Source
from ..load.validation import validate
from ..model.board import Board, ColorName, Id, Strict
from ..model.variant import Variant
from .position import PlayerPosition, Position, all_tickets

POSITION_FORMAT = "ttr-position/1"

ROUTE_PATTERN = r"^[a-z0-9][a-z0-9-]*( +[a-z][a-z0-9-]*)?$"


class RouteClaim(Strict):
    """A claimed route with the colour of its track (needed on a double route whose tracks differ)."""

    route: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=140, description="The route's id: `from-to` (either order) unless the board names it otherwise.")]
    color: ColorName | None = Field(default=None, description="The colour of the claimed track.")


class TicketRef(Strict):
    """A kept ticket, with what tells it apart from other cards between the same two places."""

    ticket: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=130, description="`from-to`, either order.")]
    deck: Id | None = Field(default=None, description="The deck the card belongs to.")
    points: int | None = Field(default=None, ge=0, le=99, description="The points printed on the card.")


RouteEntry = Union[
    Annotated[str, Field(pattern=ROUTE_PATTERN, max_length=180, description="The route's id (`from-to`), or `from-to colour`.")],
    RouteClaim,
]
TicketEntry = Union[
    Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=130, description="`from-to`, either order.")],
    TicketRef,
]


class PlayerEntry(Strict):
    """What one player has at the end of the game."""

    name: str = Field(min_length=1, max_length=100)
    routes: tuple[RouteEntry, ...] = Field(default=(), max_length=500, description="Claimed routes.")
    stations: tuple[Id, ...] = Field(default=(), max_length=9, description="Places where the player built a station.")
    tickets: tuple[TicketEntry, ...] = Field(default=(), max_length=200, description="Kept tickets, completed or not.")
    goods: tuple[Annotated[int, Field(ge=0, le=99)], ...] = Field(
        default=(), max_length=100, description="Values of the goods tokens taken (Märklin)."
    )
    flags: int = Field(default=0, ge=0, le=99, description="Completed French flag sets (Paris).")
    route_points: int | None = Field(
        default=None, ge=0, le=9999, description="Points scored for routes during play; default: from the scoring table."
    )


class PositionFile(Strict):
    """A whole position file: the variant played and every player's holdings at the end."""

    format: Literal["ttr-position/1"] = Field(description="Format name and version: `ttr-position/1`.")
    variant: str = Field(min_length=1, max_length=1000, description="Path of the variant file, relative to this file.")
    description: str | None = Field(default=None, max_length=5000)
    players: tuple[PlayerEntry, ...] = Field(min_length=1, max_length=8, description="In seat order.")


class _PlayerData(PlayerEntry):
    """What the loader validates: the short `from-to colour` forms already spelt out as mappings,
    so each mistake gives one message about the part that is wrong."""

    routes: tuple[RouteClaim, ...] = Field(default=(), max_length=500)
    tickets: tuple[TicketRef, ...] = Field(default=(), max_length=200)


class _PositionData(PositionFile):
    players: tuple[_PlayerData, ...] = Field(min_length=1, max_length=8)


QCODES: dict[str, tuple[str, str]] = {
    "Q001": ("not-a-position", "The file's top level is not a mapping."),
    "Q002": ("missing-format", "The top-level `format` key is missing."),
    "Q003": ("unknown-format", "`format` is not `ttr-position/N`."),
    "Q004": ("newer-format", "`format` names a newer version than this ttr-maps reads."),
    "Q005": ("unknown-key", "A key the position format does not have."),
    "Q006": ("missing-key", "A required key is missing."),
    "Q007": ("invalid-value", "A value breaks a rule of the format (range, pattern, length)."),
    "Q008": ("wrong-type", "A value has the wrong type."),
    "Q010": ("bad-variant", "The variant file is missing, is not a variant, or has errors."),
    "Q011": ("unknown-route", "No route of the board has that id or joins those two places."),
    "Q012": ("ambiguous-route", "Several routes join the places the name spells, and it is no route's id."),
    "Q013": ("track-color-needed", "A double route whose tracks differ in colour, given without the colour."),
    "Q014": ("unknown-track-color", "The route has no track of that colour."),
    "Q015": ("track-taken", "The same track is claimed twice (by one or two players), or all its tracks are taken."),
    "Q016": ("both-tracks", "One player claims two tracks of one route, which the rules never allow."),
    "Q017": ("closed-track", "With this few players only one track of a double route may be used."),
    "Q018": ("too-many-trains", "A player's routes need more trains than the variant gives."),
    "Q020": ("unknown-place", "A station at a place the board does not have."),
    "Q021": ("station-taken", "Two stations in one place."),
    "Q022": ("too-many-stations", "More stations than the variant gives each player."),
    "Q030": ("unknown-ticket", "No ticket joins those two places."),
    "Q031": ("ambiguous-ticket", "Several cards join those two places; say which with `deck` or `points`."),
    "Q032": ("ticket-not-in-variant", "The ticket is on a card of a deck this variant does not use."),
    "Q033": ("ticket-held-twice", "The same ticket card is listed twice."),
    "Q040": ("goods-not-scored", "Goods tokens listed for a variant that has none."),
    "Q041": ("goods-not-on-board", "More goods tokens of a value than the board holds."),
    "Q050": ("flags-not-scored", "French flags listed for a variant that has none."),
    "Q060": ("player-count", "More or fewer players than the variant allows (warning)."),
    "Q061": ("duplicate-name", "Two players with the same name (warning)."),
}
for _code, (_name, _summary) in QCODES.items():
    register_code(_code, _name, _summary)

_SCHEMA_CODES = {"S001": "Q001", "S002": "Q002", "S003": "Q003", "S004": "Q004", "S005": "Q005", "S006": "Q006", "S007": "Q007", "S008": "Q008"}


@dataclass
class LoadedPosition:
    """A position file read and checked: everything final scoring needs, or the diagnostics saying why not."""

    path: str
    variant: Variant | None = None
    board: Board | None = None
    variant_path: str | None = None
    position: Position | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.position is not None and not has_errors(self.diagnostics)


def load_position(path: str | Path) -> LoadedPosition:
    """Read a position file and its variant; never raises for bad input."""
    src = read_source(path)
    result = LoadedPosition(str(path), diagnostics=list(src.diagnostics))
    if has_errors(src.diagnostics):
        return result
    if not _check_format(src, result.diagnostics):
        return result
    _spell_out(src.data)
    found: list[Diagnostic] = []
    model = validate(src, _PositionData, found)
    result.diagnostics += [_as_q(d) for d in found]
    if model is None:
        return result
    assert isinstance(model, _PositionData)
    variant_path = resolve(model.variant, Path(path).parent, kinds=("variants",))
    result.variant_path = str(variant_path)
    loaded = load(variant_path)
    if loaded.kind != "variant" or not loaded.ok or loaded.variant is None or loaded.board is None:
        why = (
            "is not a variant file (format ttr-variant/1)" if loaded.kind == "board"
            else f"cannot be used; fix the problems reported for {variant_path}" if loaded.kind == "variant"
            else f"cannot be read (looked at {variant_path}); the path is relative to this file, or a bundled variant's name (`ttr-maps boards`)"
        )
        result.diagnostics.append(_diag(src, ("variant",), "Q010", f"variant '{model.variant}' {why}"))
        result.diagnostics += loaded.diagnostics
        return result
    result.variant, result.board = loaded.variant, loaded.board
    position = _Resolver(src, loaded.variant, loaded.board, result.diagnostics).position(model)
    if not has_errors(result.diagnostics):
        result.position = position
    return result


def _spell_out(data: dict) -> None:
    """Before validation: `tickets:` with nothing after it means none (as a person at the table
    means it), and `from-to colour` / `from-to` become `{route: from-to, color: colour}` / `{ticket: from-to}`."""
    players = data.get("players")
    for p in players if isinstance(players, list) else ():
        if not isinstance(p, dict):
            continue
        for key in ("routes", "stations", "tickets", "goods"):
            if key in p and p[key] is None:
                p[key] = []
        if isinstance(p.get("routes"), list):
            for j, entry in enumerate(p["routes"]):
                if isinstance(entry, str):
                    name, *color = entry.split(None, 1) or [entry]
                    p["routes"][j] = {"route": name, **({"color": color[0].strip()} if color else {})}
        if isinstance(p.get("tickets"), list):
            for j, entry in enumerate(p["tickets"]):
                if isinstance(entry, str):
                    p["tickets"][j] = {"ticket": entry}


def _diag(src: Source, loc: tuple, code: str, message: str, severity: Severity = Severity.ERROR, *, key: bool = False) -> Diagnostic:
    return src.diag(loc, code, message, severity, key=key, name=QCODES[code][0])


def _as_q(d: Diagnostic) -> Diagnostic:
    code = _SCHEMA_CODES.get(d.code)
    return replace(d, code=code, name=QCODES[code][0]) if code else d


def _check_format(src: Source, out: list[Diagnostic]) -> bool:
    data = src.data
    if not isinstance(data, dict):
        out.append(_diag(src, (), "Q001", f"a position file is a mapping starting with `format: {POSITION_FORMAT}`"))
        return False
    fmt = data.get("format")
    if fmt is None:
        out.append(_diag(src, (), "Q002", f"missing key 'format'; add `format: {POSITION_FORMAT}` as the first line"))
        return False
    m = re.fullmatch(r"ttr-position/(\d+)", str(fmt))
    if not m or int(m.group(1)) < 1:
        hint = " (this is a board or variant file; `ttr-maps score` takes a position file)" if str(fmt).startswith(("ttr-board", "ttr-variant")) else ""
        out.append(_diag(src, ("format",), "Q003", f"unknown format '{fmt}'{hint}; use `{POSITION_FORMAT}`"))
        return False
    if int(m.group(1)) > 1:
        out.append(_diag(src, ("format",), "Q004", f"'{fmt}' is newer than this ttr-maps understands ({POSITION_FORMAT}); upgrade ttr-maps"))
        return False
    return True


class _Resolver:
    """Turns the names a person typed into board indices, checking them against the rules."""

    def __init__(self, src: Source, variant: Variant, board: Board, out: list[Diagnostic]):
        self.src, self.variant, self.board, self.out = src, variant, board, out
        self.tickets = all_tickets(variant, board)
        self.route_names = sorted(set(board.route_index) | set(board.routes_by_pair_name))
        self.tickets_by_name: dict[str, list[int]] = {}
        for i, t in enumerate(self.tickets):
            for name in {f"{t.from_}-{t.to}", f"{t.to}-{t.from_}"}:
                self.tickets_by_name.setdefault(name, []).append(i)
        piles = variant.tickets.piles
        used_decks = {d for decks in piles.values() for d in decks} if piles else set(board.deck_names)
        self.in_play = {i for i, t in enumerate(board.tickets) if used_decks.intersection(t.decks)}
        self.in_play |= set(range(len(board.tickets), len(self.tickets)))

    def error(self, loc: tuple, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        self.src.report(self.out, _diag(self.src, loc, code, message, severity))

    def position(self, model: _PositionData) -> Position:
        v = self.variant
        count = len(model.players)
        if not v.players.min <= count <= v.players.max:
            self.error(("players",), "Q060", f"{count} player(s); {v.name} is played by {v.players.min} to {v.players.max}", Severity.WARNING)
        first_named: dict[str, int] = {}
        for i, p in enumerate(model.players):
            if p.name in first_named:
                line = self.src.pos(("players", first_named[p.name], "name"))[0]
                self.error(("players", i, "name"), "Q061", f"player {first_named[p.name] + 1} (line {line}) is also called '{p.name}'; give each player a different name", Severity.WARNING)
            first_named.setdefault(p.name, i)

        from .tables import parallel_routes

        parallel = parallel_routes(v, self.board)
        track_owner: dict[tuple[int, int], tuple[int, tuple]] = {}
        route_owners: dict[int, list[int]] = {}
        station_owner: dict[str, tuple] = {}
        ticket_holder: dict[int, tuple] = {}
        goods_taken: Counter[int] = Counter()
        players = []
        for seat, p in enumerate(model.players):
            at = ("players", seat)
            claims: list[tuple[int, int]] = []
            mine: dict[int, tuple] = {}
            for j, entry in enumerate(p.routes):
                loc = at + ("routes", j)
                claim = self.claim(entry, loc, seat, track_owner)
                if claim is None:
                    continue
                route, track = claim
                group = min(parallel[route])  # the routes counted as one double route with it
                if group in mine:
                    line = self.src.pos(mine[group])[0]
                    self.error(loc, "Q016", f"{p.name} already claims route {self.board.routes[route].id} or one counted with it (line {line}); "
                               "a player never claims two tracks of one route")
                    continue
                mine[group] = loc
                track_owner[(route, track)] = (seat, loc)
                route_owners.setdefault(group, []).append(seat)
                if len(route_owners[group]) > 1 and count < v.parallel.all_tracks_from:
                    first = model.players[route_owners[group][0]].name
                    self.error(loc, "Q017", f"{first} already has a track of {self.board.routes[route].id}; with {count} players only one track of a double route is used (from {v.parallel.all_tracks_from} players, all)")
                claims.append((route, track))
            self.check_trains(p, claims, at)
            stations = self.stations(p, at, station_owner, seat)
            tickets = self.kept_tickets(p, at, ticket_holder, seat)
            self.goods(p, at, goods_taken)
            if p.flags and not v.flags.points:
                self.error(at + ("flags",), "Q050", f"{v.name} has no French flags; remove `flags`")
            players.append(
                PlayerPosition(
                    claims=tuple(claims),
                    stations=stations,
                    tickets=tickets,
                    goods=tuple(p.goods),
                    flag_sets=p.flags,
                    route_points=p.route_points,
                    name=p.name,
                )
            )
        return Position(tuple(players))

    # --- routes ---

    def claim(self, entry: RouteClaim, loc: tuple, seat: int, taken: dict[tuple[int, int], tuple[int, tuple]]) -> tuple[int, int] | None:
        name, color = entry.route, entry.color
        board = self.board
        routes = board.routes_named(name)
        if not routes:
            self.error(loc, "Q011", f"no route '{name}' on the board{did_you_mean(name, self.route_names)}; name a route by its id (`from-to` unless the board gives it another)")
            return None
        tracks = [(r, t) for r in routes for t in range(len(board.routes[r].tracks))]
        if color is not None:
            tracks = [(r, t) for r, t in tracks if board.routes[r].tracks[t] == color]
            if not tracks:
                have = sorted({c for r in routes for c in board.routes[r].tracks})
                self.error(loc, "Q014", f"route {name} has no {color} track{did_you_mean(color, have)}; its tracks are {', '.join(have)}{self.neighbours(routes)}")
                return None
        if len({r for r, _t in tracks}) > 1:
            a, b = board.routes[routes[0]].ends
            choices = "; ".join(board.route_summary(r) for r in sorted({r for r, _t in tracks}))
            self.error(loc, "Q012", f"several routes join {a} and {b}: {choices}; name one by its id")
            return None
        if color is None and len({board.routes[r].tracks[t] for r, t in tracks}) > 1:
            colors = [board.routes[r].tracks[t] for r, t in tracks]
            self.error(loc, "Q013", f"route {name} is a double route ({', '.join(colors)}): say which track, e.g. `{name} {colors[0]}` or `{{route: {name}, color: {colors[0]}}}`")
            return None
        free = [rt for rt in tracks if rt not in taken]
        if not free:
            owner, where = taken[tracks[0]]
            whose = "this player" if owner == seat else f"player {owner + 1}"
            self.error(loc, "Q015", f"the {'tracks' if len(tracks) > 1 else 'track'} of {name}{' ' + color if color else ''} {'are' if len(tracks) > 1 else 'is'} already claimed (by {whose}, line {self.src.pos(where)[0]})")
            return None
        return free[0]

    def neighbours(self, routes: tuple[int, ...]) -> str:
        """`; other routes between a and b: ...` when a route named by its id shares its places."""
        if len(routes) != 1:
            return ""
        r = self.board.routes[routes[0]]
        others = [i for i in self.board.routes_by_pair_name[r.pair_name] if i != routes[0]]
        return "; the other routes between these places: " + "; ".join(self.board.route_summary(i) for i in others) if others else ""

    def check_trains(self, p: _PlayerData, claims: list[tuple[int, int]], at: tuple) -> None:
        used = sum(self.board.routes[r].length for r, _t in claims)
        if used > self.variant.trains:
            self.error(at + ("routes",), "Q018", f"{p.name}'s routes need {used} trains; each player has {self.variant.trains}")

    # --- stations, tickets, goods ---

    def stations(self, p: _PlayerData, at: tuple, owner: dict[str, tuple], seat: int) -> tuple[str, ...]:
        built = []
        limit = self.variant.stations.count
        for j, place in enumerate(p.stations):
            loc = at + ("stations", j)
            if place not in self.board.place_by_id:
                self.error(loc, "Q020", f"no place '{place}' on the board{did_you_mean(place, self.board.place_by_id)}")
                continue
            if place in owner:
                self.error(loc, "Q021", f"there is already a station in {place} (line {self.src.pos(owner[place])[0]}); a place holds one station")
                continue
            owner[place] = loc
            built.append(place)
        if len(p.stations) > limit:
            why = f"{self.variant.name} has no stations; remove `stations`" if limit == 0 else f"each player has {limit}"
            self.error(at + ("stations",), "Q022", f"{p.name} lists {len(p.stations)} station(s); {why}")
        return tuple(built)

    def kept_tickets(self, p: _PlayerData, at: tuple, holder: dict[int, tuple], seat: int) -> tuple[int, ...]:
        kept = []
        for j, entry in enumerate(p.tickets):
            loc = at + ("tickets", j)
            i = self.ticket(entry, loc)
            if i is None:
                continue
            if i in holder:
                t = self.tickets[i]
                self.error(loc, "Q033", f"ticket {t.id} ({t.points}) is already listed (line {self.src.pos(holder[i])[0]}); each card is held once")
                continue
            holder[i] = loc
            kept.append(i)
        return tuple(kept)

    def ticket(self, entry: TicketRef, loc: tuple) -> int | None:
        name, deck, points = entry.ticket, entry.deck, entry.points
        found = self.tickets_by_name.get(name, [])
        if not found:
            self.error(loc, "Q030", f"no ticket '{name}'{did_you_mean(name, self.tickets_by_name)}; name a ticket by its two places, `from-to`")
            return None
        if deck is not None:
            found = [i for i in found if deck in self.tickets[i].decks]
        if points is not None:
            found = [i for i in found if self.tickets[i].points == points]
        if not found:
            self.error(loc, "Q030", f"no ticket {name}{' in deck ' + deck if deck else ''}{f' worth {points}' if points is not None else ''}; the cards are: {self.describe(self.tickets_by_name[name])}")
            return None
        playing = [i for i in found if i in self.in_play]
        if not playing:
            self.error(loc, "Q032", f"ticket {name} ({self.describe(found)}) is not in {self.variant.name}'s decks")
            return None
        if len(playing) > 1:
            self.error(loc, "Q031", f"several cards are {name}: {self.describe(playing)}; write `{{ticket: {name}, points: N}}` or `deck: NAME`")
            return None
        return playing[0]

    def describe(self, indices: list[int]) -> str:
        return "; ".join(f"{self.tickets[i].points} points, deck {'/'.join(self.tickets[i].decks)}" for i in indices)

    def goods(self, p: _PlayerData, at: tuple, taken: Counter[int]) -> None:
        if not p.goods:
            return
        if not self.variant.scoring.bonuses.goods:
            self.error(at + ("goods",), "Q040", f"{self.variant.name} does not score goods tokens; remove `goods`")
            return
        if not self.board.goods:
            return  # the board does not say where the tokens are: any values are accepted
        supply = Counter(v for stack in self.board.goods for v in stack.values)
        for j, value in enumerate(p.goods):
            taken[value] += 1
            if taken[value] > supply[value]:
                self.error(at + ("goods", j), "Q041", f"the board has {supply[value]} goods token(s) worth {value}, and more are listed")
