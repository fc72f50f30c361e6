"""The variant (rule set) format (`ttr-variant/1`): every knob that differs between editions.

A variant names its board and sets the rules the engine plays. Every knob of
the rules (docs/rules.md) is a field here; the engine reads nothing else. Defaults are
the core (USA) rules, so a fan variant only writes what it changes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .board import GRAY, MAX_ROUTE_LENGTH, ColorName, Id, Strict, Ticket

VARIANT_FORMAT = "ttr-variant/1"

Count = Annotated[int, Field(ge=0, le=1000)]

Returned = Literal["box", "bottom", "shuffled-bottom", "reshuffle"]
RETURNED_DOC = (
    "Where unkept tickets go: `box` (out of the game), `bottom` (under their pile), "
    "`shuffled-bottom` (shuffled, then under their pile), `reshuffle` (back into their pile, which is reshuffled)."
)

# `longest-path`: the tied player with the longer trail wins (the USA edition);
# `longest-path-bonus`: a tied player who received the longest-path bonus wins (the Europe
# edition), so two tied players without it stay tied. docs/rules.md#ties.
TieBreak = Literal["most-tickets", "longest-path", "longest-path-bonus", "fewest-stations", "most-goods"]
TIE_BREAK_WORDS: dict[str, str] = {
    "most-tickets": "most completed tickets",
    "longest-path": "longest path",
    "longest-path-bonus": "holder of the longest-path bonus",
    "fewest-stations": "fewest stations built",
    "most-goods": "most goods points",
}


class Players(Strict):
    min: int = Field(default=2, ge=1, le=8)
    max: int = Field(default=5, ge=1, le=8)
    first: Literal["seat-0", "random"] = Field(
        default="seat-0",
        description=(
            "Who plays the first turn: `seat-0`, or `random` (drawn from the game's seed); `ttr-maps state new "
            "--first-player SEAT` overrides it (docs/rules.md#the-first-player)."
        ),
    )

    @model_validator(mode="after")
    def _order(self) -> Players:
        if self.min > self.max:
            raise ValueError("players.min is greater than players.max")
        return self


class Stations(Strict):
    """Stations (Europe): how many each player has and what each costs in cards of one colour."""

    costs: tuple[Annotated[int, Field(ge=0, le=9)], ...] = Field(
        default=(), max_length=9, description="Cost of the 1st, 2nd, ... station; the count is the list's length."
    )
    unused_points: int = Field(default=0, ge=0, le=99, description="Points for each station never built.")

    @property
    def count(self) -> int:
        return len(self.costs)


class BigLocomotives(Strict):
    """+4 locomotives (Märklin): wild only on routes of at least `min_length`."""

    count: Count = 0
    min_length: int = Field(default=4, ge=1, le=MAX_ROUTE_LENGTH)


class Cards(Strict):
    """The train-card deck."""

    colors: dict[ColorName, Count] = Field(
        default_factory=lambda: {c: 12 for c in ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")},
        description="Cards per colour; the colours must be the board's colours.",
    )
    locomotives: Count = Field(default=14, description="Wild locomotives (Paris: jokers).")
    locomotive_name: str = Field(default="locomotive", max_length=40, description="What the wild card is called.")
    big_locomotives: BigLocomotives = Field(default_factory=BigLocomotives)
    passengers: Count = Field(default=0, description="Passenger cards (Märklin): pay to ride opponents' routes.")
    face_up_locomotive_costs_both_draws: bool = Field(
        default=True, description="Taking a face-up locomotive is the whole draw, and it may not be the second card."
    )
    locomotives_only_on: tuple[Literal["ferries", "tunnels"], ...] = Field(
        default=(),
        max_length=2,
        description=(
            "Locomotives (and big locomotives) pay only on these kinds of route, e.g. [ferries, tunnels] or [tunnels]; "
            "empty: on every route."
        ),
    )

    @property
    def total(self) -> int:
        return sum(self.colors.values()) + self.locomotives + self.big_locomotives.count + self.passengers


class FaceUp(Strict):
    count: int = Field(default=5, ge=1, le=10)
    redeal_locomotives: int = Field(
        default=3, ge=1, le=10, description="This many face-up locomotives force a redeal of all face-up cards."
    )
    redeal_passengers: int | None = Field(
        default=None, ge=1, le=10, description="This many face-up passenger cards force a redeal (Märklin: 3)."
    )


class Deal(Strict):
    """A fixed number of tickets from one pile."""

    pile: Id
    count: int = Field(ge=0, le=50)


class TicketDeal(Strict):
    """How tickets are dealt and kept, at setup or when drawn in play.

    Either fixed `deal` entries (e.g. 1 long + 3 regular) or an announced `mix`:
    the player chooses how many of `count` come from each pile (Märklin).
    """

    deal: tuple[Deal, ...] = Field(default=(), description="Fixed deals, in order.")
    mix: tuple[Id, ...] = Field(default=(), description="Piles the player announces a mix from.")
    count: int = Field(default=0, ge=0, le=50, description="Total tickets of an announced mix.")
    keep_min: int = Field(default=1, ge=0, le=50, description="Keep at least this many (or all, if fewer dealt).")
    keep_max: dict[Id, Annotated[int, Field(ge=0, le=50)]] = Field(
        default_factory=dict, description="At most this many kept from a pile (Mega Europe: long 1)."
    )
    returned: dict[Id, Returned] = Field(default_factory=dict, description="Per pile. " + RETURNED_DOC)
    returned_default: Returned = Field(default="bottom", description=RETURNED_DOC)

    @model_validator(mode="after")
    def _deal_or_mix(self) -> TicketDeal:
        if self.deal and self.mix:
            raise ValueError("give either `deal` or `mix` (an announced mix), not both")
        if self.mix and self.count < 1:
            raise ValueError("an announced mix needs `count` >= 1")
        return self

    def returned_to(self, pile: str) -> Returned:
        return self.returned.get(pile, self.returned_default)

    def piles(self) -> tuple[str, ...]:
        return tuple(d.pile for d in self.deal) + self.mix


def _default_setup() -> TicketDeal:
    return TicketDeal(deal=(Deal(pile="main", count=3),), keep_min=2)


def _default_draw() -> TicketDeal:
    return TicketDeal(deal=(Deal(pile="main", count=3),), keep_min=1)


class Tickets(Strict):
    """Which ticket decks are used, how they form piles, and how tickets are dealt."""

    piles: dict[Id, tuple[Id, ...]] = Field(
        default_factory=dict,
        description=(
            "Draw piles, each made of board decks (a card in several listed decks is used once). "
            "Default: one pile `main` holding every ticket of the board."
        ),
    )
    add: tuple[Ticket, ...] = Field(default=(), description="Extra tickets (e.g. bonus cards) added to the board's.")
    deck_files: tuple[Annotated[str, Field(min_length=1, max_length=1000)], ...] = Field(
        default=(),
        max_length=20,
        description="Deck files (`ttr-deck/1`, paths relative to this file) whose tickets are added like `add`'s.",
    )
    setup: TicketDeal = Field(default_factory=_default_setup)
    draw: TicketDeal = Field(default_factory=_default_draw)
    staged_setup: bool = Field(
        default=False,
        description=(
            "The `setup.deal` entries are dealt one after another and every player keeps from one before the next "
            "is dealt (Mega Europe: the long tickets first); `setup.keep_min` and `keep_max` count over the whole setup."
        ),
    )
    leftover_at_setup: dict[Id, Literal["keep", "box"]] = Field(
        default_factory=dict,
        description="What happens to a pile's undealt cards after setup: `keep` (default) or `box` (Europe's long tickets).",
    )


class StandIns(Strict):
    """Cards of any colours paid in place of one card a claim needs (published northern maps)."""

    ferry: int = Field(
        default=0, ge=0, le=9, description="On a ferry, this many cards of any colours may stand in for each locomotive its marks need (0: never)."
    )
    routes: dict[Annotated[str, Field(max_length=80)], Annotated[int, Field(ge=1, le=9)]] = Field(
        default_factory=dict,
        description="Route id -> this many cards of any colours may stand in for any one card of that route.",
    )


class Passengers(Strict):
    count: int = Field(default=0, ge=0, le=9, description="Passengers per player (Märklin: 3).")


class Flags(Strict):
    """French flags (Paris)."""

    colors: tuple[ColorName, ...] = Field(default=(), description="Colours that make a flag, e.g. blue, white, red.")
    points: int = Field(default=0, ge=0, le=99)


RouteLength = Annotated[int, Field(ge=1, le=MAX_ROUTE_LENGTH)]


class MostRoutes(Strict):
    """A bonus for the most routes of one length (docs/rules.md#most-routes-of-a-length)."""

    length: RouteLength = Field(description="Routes of exactly this many spaces count.")
    points: int = Field(ge=1, le=99, description="Points to each player tied for the most such routes (at least one).")


class Bonuses(Strict):
    longest_path: int = Field(default=0, ge=0, le=99, description="Points to each player tied for the longest trail.")
    most_tickets: int = Field(default=0, ge=0, le=99, description="Points to each player tied for most completed tickets.")
    goods: bool = Field(default=False, description="Goods tokens score their face value.")
    two_paths: int = Field(
        default=0,
        ge=0,
        le=99,
        description=(
            "Points for each completed ticket whose places the player's own routes join by two separate paths "
            "(no route on both; docs/rules.md#two-paths)."
        ),
    )
    most_routes: tuple[MostRoutes, ...] = Field(
        default=(),
        max_length=MAX_ROUTE_LENGTH,
        description="Bonuses for the most routes of a length, e.g. [{length: 3, points: 10}]; one entry per length.",
    )

    @model_validator(mode="after")
    def _one_per_length(self) -> Bonuses:
        lengths = [m.length for m in self.most_routes]
        if len(set(lengths)) < len(lengths):
            raise ValueError("most_routes gives a length twice; give each length one entry")
        return self


class Scoring(Strict):
    routes: dict[RouteLength, Annotated[int, Field(ge=0, le=999)]] = Field(
        default_factory=lambda: {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15},
        description="Points for claiming a route, by length (1..12); every length the board uses needs points (V003).",
        # JSON object keys are text: the schema says which texts are route lengths.
        json_schema_extra={"propertyNames": {"pattern": "^([1-9]|1[0-2])$"}},
    )
    bonuses: Bonuses = Field(default_factory=Bonuses)
    tie_breaks: tuple[TieBreak, ...] = Field(
        default=("most-tickets", "longest-path"), description="Applied in order; a tie that survives is shared."
    )


class Parallel(Strict):
    all_tracks_from: int = Field(
        default=4,
        ge=1,
        le=9,
        description="With fewer players than this, once one track of a double/triple route is claimed the others close.",
    )
    same_places_double: bool = Field(
        default=False,
        description=(
            "Separate routes between the same two places count as one double route: one player never claims two "
            "of them, and with fewer players than all_tracks_from claiming one closes the others."
        ),
    )


class Tunnels(Strict):
    reveal: int = Field(default=3, ge=0, le=9, description="Cards turned up when claiming a tunnel.")


class End(Strict):
    trains_at_most: int = Field(default=2, ge=0, le=99, description="Ending a turn with this many trains or fewer triggers the final round.")


class Variant(Strict):
    """A whole variant file: a board plus its rules."""

    format: Literal["ttr-variant/1"] = Field(description="Format name and version: `ttr-variant/1`.")
    name: str = Field(max_length=200)
    description: str | None = Field(default=None, max_length=5000)
    board: str = Field(min_length=1, max_length=1000, description="Path of the board file, relative to this file.")
    players: Players = Field(default_factory=Players)
    trains: int = Field(default=45, ge=1, le=999)
    stations: Stations = Field(default_factory=Stations)
    passengers: Passengers = Field(default_factory=Passengers)
    cards: Cards = Field(default_factory=Cards)
    hand: int = Field(default=4, ge=0, le=50, description="Train cards dealt to each player at setup.")
    face_up: FaceUp = Field(default_factory=FaceUp)
    tickets: Tickets = Field(default_factory=Tickets)
    scoring: Scoring = Field(default_factory=Scoring)
    flags: Flags = Field(default_factory=Flags)
    parallel: Parallel = Field(default_factory=Parallel)
    tunnels: Tunnels = Field(default_factory=Tunnels)
    ferry_tunnels: bool = Field(default=False, description="A route may be both a ferry and a tunnel.")
    stand_ins: StandIns = Field(default_factory=StandIns)
    end: End = Field(default_factory=End)
    checks: dict[str, str] = Field(default_factory=dict, description="Per-code check settings.")

    def route_colors(self) -> set[str]:
        return set(self.cards.colors) | {GRAY}
