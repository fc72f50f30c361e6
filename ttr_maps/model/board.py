"""The board format (`ttr-board/1`): places, routes, tickets and goods.

These pydantic models are the single source of truth for the format: the JSON
Schema in `schemas/board.schema.json` is generated from them (`ttr-maps schema`).
Cross-references (route ends, ticket ends, colours) are checked by the loader,
which can point at the offending line; the models check the shape of each item.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

BOARD_FORMAT = "ttr-board/1"
GRAY = "gray"
DEFAULT_COLORS = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")

Id = Annotated[
    str,
    Field(
        pattern=r"^[a-z0-9][a-z0-9-]*$",
        max_length=64,
        description="Lower-case id: letters a-z, digits and hyphens, e.g. `new-york`.",
    ),
]
RouteId = Annotated[
    str,
    Field(
        pattern=r"^[a-z0-9][a-z0-9-]*$",
        max_length=140,
        description=(
            "The route's name in actions, state, position and report files. Default: `from-to`; the second "
            "route between the same two places `from-to-2`, the third `from-to-3`."
        ),
    ),
]
ColorName = Annotated[
    str,
    Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=32, description="A colour name, lower case."),
]
Finite = Annotated[float, Field(allow_inf_nan=False)]
# The longest route the format allows (published maps go up to 9; a fan board may draw longer ones,
# and its variant's scoring table must then give their points: V003, docs/rules.md#route-points).
MAX_ROUTE_LENGTH = 12


class Strict(BaseModel):
    """Base for every format model: unknown keys are errors, floats are finite."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)


class Meta(Strict):
    """Free metadata about the board."""

    title: str = Field(max_length=200, description="The board's name, shown on the board and cards.")
    author: str | None = Field(default=None, max_length=200)
    licence: str | None = Field(default=None, max_length=200)
    version: str | None = Field(default=None, max_length=50)
    description: str | None = Field(default=None, max_length=5000)
    source: str | None = Field(default=None, max_length=2000, description="Where the facts come from.")


class Projection(Strict):
    """How real coordinates (lat/lon) become board coordinates.

    Board coordinates are kilometres on the projected plane (x east, y south),
    so `drawing.car_length` of a lat/lon board is also in kilometres.
    """

    name: Literal["mercator", "equirectangular"] = Field(
        default="mercator",
        description="`mercator` (conformal) or `equirectangular` (plate carrée at the standard parallel).",
    )
    standard_parallel: Finite | None = Field(
        default=None,
        ge=-85,
        le=85,
        description="Latitude where the scale is true; defaults to the mean latitude of the places.",
    )


class Drawing(Strict):
    """Drawing settings in board units (kilometres for lat/lon boards)."""

    car_length: Finite | None = Field(
        default=None,
        gt=0,
        description="Length of one route space; default: fitted to the board's routes.",
    )
    car_width_ratio: Finite = Field(default=0.4, gt=0, le=1, description="Car width / car length.")
    city_radius_ratio: Finite = Field(default=0.35, gt=0, le=2, description="Place marker radius / car length.")
    stretch_tolerance: Finite = Field(
        default=0.25,
        ge=0,
        le=5,
        description="How much longer or shorter than its spaces a drawn route may be (0.25 = 25%).",
    )


def _one_position(item: Any) -> None:
    """lat and lon, or x and y: one position, given whole."""
    geo = item.lat is not None or item.lon is not None
    xy = item.x is not None or item.y is not None
    if geo and xy:
        raise ValueError("give either lat/lon or x/y, not both")
    if not geo and not xy:
        raise ValueError("a place needs a position: lat and lon, or x and y")
    if geo and (item.lat is None or item.lon is None):
        raise ValueError("give both lat and lon")
    if xy and (item.x is None or item.y is None):
        raise ValueError("give both x and y")


_POSITION_SCHEMA = {
    "oneOf": [{"required": ["lat", "lon"]}, {"required": ["x", "y"]}],
    "dependentRequired": {"lat": ["lon"], "lon": ["lat"], "x": ["y"], "y": ["x"]},
}


class Entry(Strict):
    """One of several drawn points of a place (a country's border crossings): routes end at their entry,
    the rules see one place (docs/rules.md#entry-points)."""

    model_config = ConfigDict(json_schema_extra=_POSITION_SCHEMA)

    id: Id = Field(description="The entry's id, unique within its place, e.g. `north`.")
    lat: Finite | None = Field(default=None, ge=-85, le=85)
    lon: Finite | None = Field(default=None, ge=-180, le=180)
    x: Finite | None = None
    y: Finite | None = None

    @model_validator(mode="after")
    def _position(self) -> Entry:
        _one_position(self)
        return self


class Label(Strict):
    """Where a place's name is drawn, set by hand: the centre of the name, offset from the place."""

    dx: Finite = Field(description="Offset of the name's centre to the right, in board units (kilometres of the projected map on a lat/lon board).")
    dy: Finite = Field(description="Offset of the name's centre downwards, in the same units.")


class Place(Strict):
    """A city, or a country (a terminal place: routes end there, no path passes through)."""

    # The position rule of `_one_position`, for editors: lat and lon, or x and y.
    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [{"required": ["lat", "lon"]}, {"required": ["x", "y"]}],
            "dependentRequired": {"lat": ["lon"], "lon": ["lat"], "x": ["y"], "y": ["x"]},
        }
    )

    id: Id
    name: str = Field(min_length=1, max_length=100, description="Display name.")
    kind: Literal["city", "country"] = "city"
    lat: Finite | None = Field(default=None, ge=-85, le=85)
    lon: Finite | None = Field(default=None, ge=-180, le=180)
    x: Finite | None = None
    y: Finite | None = None
    tags: tuple[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=32)], ...] = Field(
        default=(), description="Free tags, e.g. `big-city`."
    )
    entries: tuple[Entry, ...] = Field(
        default=(),
        max_length=9,
        description="Several drawn points of one place (a country's border crossings): each route ends at one of them.",
    )
    label: Label | None = Field(
        default=None, description="Where the name is drawn, instead of the renderer's choice: `{dx, dy}` from the place."
    )

    @model_validator(mode="after")
    def _one_position(self) -> Place:
        _one_position(self)
        return self

    @property
    def is_country(self) -> bool:
        return self.kind == "country"


class Route(Strict):
    """A route between two adjacent places: one to three parallel tracks of equal length.

    `id` names it everywhere (actions, state and position files, simulate reports, findings); the
    board fills in the default (`default_route_ids`), so two routes between the same places (a
    tunnel and a ferry, two border crossings) are always told apart.
    """

    id: RouteId | None = None
    from_: Id = Field(alias="from", description="Id of one end.")
    to: Id = Field(description="Id of the other end.")
    length: int = Field(ge=1, le=MAX_ROUTE_LENGTH, description="Number of spaces (cars) of each track.")
    tracks: tuple[ColorName, ...] = Field(
        min_length=1,
        max_length=3,
        description="Colour of each parallel track (`gray`: any one colour). Two for a double route.",
    )
    ferry: int = Field(default=0, ge=0, le=9, description="Locomotives each track requires (a ferry).")
    tunnel: bool = Field(default=False, description="Each track is a tunnel.")
    from_entry: Id | None = Field(default=None, description="The entry of `from` the route ends at (a place with `entries`).")
    to_entry: Id | None = Field(default=None, description="The entry of `to` the route ends at (a place with `entries`).")
    bend: tuple[tuple[Finite, Finite], ...] = Field(
        default=(),
        max_length=20,
        description=(
            "Points the drawn route passes through, in the places' coordinates: "
            "[lat, lon] on a board placed by lat/lon, [x, y] on an x/y board."
        ),
    )

    model_config = ConfigDict(populate_by_name=True)

    _own_id: bool = PrivateAttr(default=False)

    @model_validator(mode="after")
    def _default_id(self) -> Route:
        """`from-to` unless the entry names itself; a board numbers the routes that share their places."""
        self._own_id = self.id is not None
        if self.id is None:
            object.__setattr__(self, "id", f"{self.from_}-{self.to}")
        return self

    @property
    def own_id(self) -> bool:
        """Whether the file gave this route its `id` (a default id is `from-to`, numbered on repeats)."""
        return self._own_id

    @property
    def ends(self) -> tuple[str, str]:
        return (self.from_, self.to)

    @property
    def pair_name(self) -> str:
        """`from-to`: the name the route has unless it has an id of its own or shares its places."""
        return f"{self.from_}-{self.to}"


_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")


def default_route_ids(routes: list[tuple[Any, Any, Any]]) -> list[str | None]:
    """The id of each route given as (from, to, own id or None): its own id, else `from-to`, and for
    the n-th route joining the same two places (in either order) `from-to-n`; a default never takes
    an id another route has (the number is raised until it is free). None where the ends are not
    valid ids (the schema reports those). Shared by the model and the loader's R012 check."""
    taken = {own for _, _, own in routes if isinstance(own, str)}
    seen: dict[frozenset[str], int] = {}
    out: list[str | None] = []
    for a, b, own in routes:
        own = own if isinstance(own, str) else None
        if not all(isinstance(e, str) and len(e) <= 64 and _ID_RE.fullmatch(e) for e in (a, b)):
            out.append(own)
            continue
        pair = frozenset((a, b))
        seen[pair] = n = seen.get(pair, 0) + 1
        if own is not None:
            out.append(own)
            continue
        base = f"{a}-{b}"
        name = base if n == 1 else f"{base}-{n}"
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        out.append(name)
    return out


class Destination(Strict):
    """Another destination of a ticket with several (docs/rules.md#tickets-with-several-destinations)."""

    to: Id
    points: int = Field(ge=0, le=99)


class Ticket(Strict):
    """A destination ticket: two ends (cities or countries), points, and the decks it belongs to.

    With `or`, the ticket has several destinations: the best one the player's network reaches scores,
    and if it reaches none the lowest value is lost."""

    from_: Id = Field(alias="from")
    to: Id
    points: int = Field(ge=0, le=99)
    decks: tuple[Id, ...] = Field(min_length=1, description="Named decks holding this card (a card can be in several).")
    or_: tuple[Destination, ...] = Field(
        default=(),
        alias="or",
        max_length=9,
        description="Other destinations, each with its points: the best one reached scores; if none is, the lowest is lost.",
    )

    model_config = ConfigDict(populate_by_name=True)

    @property
    def id(self) -> str:
        return f"{self.from_}-{self.to}"

    @property
    def destinations(self) -> tuple[tuple[str, int], ...]:
        """(place, points) of every destination, `to` first."""
        return ((self.to, self.points),) + tuple((d.to, d.points) for d in self.or_)

    @property
    def lowest(self) -> int:
        """What the ticket costs when no destination is reached."""
        return min(p for _, p in self.destinations)


class Goods(Strict):
    """A stack of goods tokens on a place (Märklin), highest value on top."""

    place: Id
    color: ColorName = Field(description="Token colour, e.g. black, red, yellow, white.")
    values: tuple[Annotated[int, Field(ge=0, le=99)], ...] = Field(
        min_length=1, description="Token values from top to bottom, e.g. [7, 6, 5, 4]."
    )


class DeckInfo(Strict):
    """Optional description of a named ticket deck."""

    name: str | None = Field(default=None, max_length=100, description="Display name, printed on its cards.")
    long: bool = Field(default=False, description="Cards of this deck are long tickets (drawn differently).")


class Board(Strict):
    """A whole board file."""

    format: Literal["ttr-board/1"] = Field(description="Format name and version: `ttr-board/1`.")
    meta: Meta
    colors: tuple[ColorName, ...] = Field(
        default=DEFAULT_COLORS,
        min_length=1,
        max_length=12,
        description="The board's card colours (gray is implicit and always allowed on routes).",
    )
    projection: Projection = Field(default_factory=Projection)
    drawing: Drawing = Field(default_factory=Drawing)
    places: tuple[Place, ...] = Field(min_length=1, max_length=20000)
    routes: tuple[Route, ...] = Field(default=(), max_length=60000)
    tickets: tuple[Ticket, ...] = Field(default=(), max_length=20000)
    decks: dict[Id, DeckInfo] = Field(default_factory=dict, description="Optional details of the ticket decks.")
    goods: tuple[Goods, ...] = Field(default=(), max_length=20000)
    checks: dict[str, str] = Field(
        default_factory=dict,
        description="Per-code check settings: `off`, `error`, `warning` or `info`.",
    )

    @model_validator(mode="after")
    def _route_ids(self) -> Board:
        """Number the routes that share their places and have no id of their own (`default_route_ids`)."""
        ids = default_route_ids([(r.from_, r.to, r.id if r.own_id else None) for r in self.routes])
        for r, rid in zip(self.routes, ids):
            if rid is not None and rid != r.id:
                object.__setattr__(r, "id", rid)
        return self

    @cached_property
    def place_by_id(self) -> dict[str, Place]:
        return {p.id: p for p in self.places}

    @cached_property
    def route_index(self) -> dict[str, int]:
        """Each route's index by its id (ids are unique on a loaded board: R012)."""
        out: dict[str, int] = {}
        for i, r in enumerate(self.routes):
            out.setdefault(r.id, i)
        return out

    @cached_property
    def routes_by_pair_name(self) -> dict[str, tuple[int, ...]]:
        """The routes joining two places, under both spellings `a-b` and `b-a`."""
        out: dict[str, list[int]] = {}
        for i, r in enumerate(self.routes):
            for name in dict.fromkeys((f"{r.from_}-{r.to}", f"{r.to}-{r.from_}")):
                out.setdefault(name, []).append(i)
        return {k: tuple(v) for k, v in out.items()}

    def routes_named(self, name: str) -> tuple[int, ...]:
        """The routes `name` may mean: the route with that id; else every route joining the two places
        `name` spells as `from-to` (either order). More than one: the name is ambiguous."""
        i = self.route_index.get(name)
        if i is not None:
            return (i,)
        return self.routes_by_pair_name.get(name, ())

    def route_summary(self, i: int) -> str:
        """`a-b-2 (3 spaces, gray, ferry 1)`: a route by its id and what tells it from its neighbours."""
        r = self.routes[i]
        parts = [f"{r.length} space{'s' if r.length != 1 else ''}", "/".join(r.tracks)]
        if r.ferry:
            parts.append(f"ferry {r.ferry}")
        if r.tunnel:
            parts.append("tunnel")
        return f"{r.id} ({', '.join(parts)})"

    @cached_property
    def deck_names(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for t in self.tickets:
            for d in t.decks:
                seen.setdefault(d, None)
        return tuple(seen)

    def tickets_in(self, decks: list[str] | tuple[str, ...]) -> list[Ticket]:
        """The tickets belonging to any of `decks`, each card once, in board order."""
        wanted = set(decks)
        return [t for t in self.tickets if wanted.intersection(t.decks)]
