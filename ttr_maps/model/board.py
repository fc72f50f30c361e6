"""The board format (`ttr-board/1`): places, routes, tickets and goods.

These pydantic models are the single source of truth for the format: the JSON
Schema in `schemas/board.schema.json` is generated from them (`ttr-maps schema`).
Cross-references (route ends, ticket ends, colours) are checked by the loader,
which can point at the offending line; the models check the shape of each item.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
ColorName = Annotated[
    str,
    Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=32, description="A colour name, lower case."),
]
Finite = Annotated[float, Field(allow_inf_nan=False)]


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

    @model_validator(mode="after")
    def _one_position(self) -> Place:
        geo = self.lat is not None or self.lon is not None
        xy = self.x is not None or self.y is not None
        if geo and xy:
            raise ValueError("give either lat/lon or x/y, not both")
        if not geo and not xy:
            raise ValueError("a place needs a position: lat and lon, or x and y")
        if geo and (self.lat is None or self.lon is None):
            raise ValueError("give both lat and lon")
        if xy and (self.x is None or self.y is None):
            raise ValueError("give both x and y")
        return self

    @property
    def is_country(self) -> bool:
        return self.kind == "country"


class Route(Strict):
    """A route between two adjacent places: one to three parallel tracks of equal length."""

    from_: Id = Field(alias="from", description="Id of one end.")
    to: Id = Field(description="Id of the other end.")
    length: int = Field(ge=1, le=9, description="Number of spaces (cars) of each track.")
    tracks: tuple[ColorName, ...] = Field(
        min_length=1,
        max_length=3,
        description="Colour of each parallel track (`gray`: any one colour). Two for a double route.",
    )
    ferry: int = Field(default=0, ge=0, le=9, description="Locomotives each track requires (a ferry).")
    tunnel: bool = Field(default=False, description="Each track is a tunnel.")
    bend: tuple[tuple[Finite, Finite], ...] = Field(
        default=(),
        max_length=20,
        description=(
            "Points the drawn route passes through, in the places' coordinates: "
            "[lat, lon] on a board placed by lat/lon, [x, y] on an x/y board."
        ),
    )

    model_config = ConfigDict(populate_by_name=True)

    @property
    def id(self) -> str:
        return f"{self.from_}-{self.to}"

    @property
    def ends(self) -> tuple[str, str]:
        return (self.from_, self.to)


class Ticket(Strict):
    """A destination ticket: two ends (cities or countries), points, and the decks it belongs to."""

    from_: Id = Field(alias="from")
    to: Id
    points: int = Field(ge=0, le=99)
    decks: tuple[Id, ...] = Field(min_length=1, description="Named decks holding this card (a card can be in several).")

    model_config = ConfigDict(populate_by_name=True)

    @property
    def id(self) -> str:
        return f"{self.from_}-{self.to}"


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

    @cached_property
    def place_by_id(self) -> dict[str, Place]:
        return {p.id: p for p in self.places}

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
