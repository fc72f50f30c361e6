"""The figures of a ticket deck: what `ttr-maps tickets score` prints and `suggest` aims at.

Every figure is computed from the board and the deck alone (no games):
values against shortest paths, how far tickets reach across the board, how
evenly they use places and routes, and how much they overlap. The *shape*
figures (shares and ratios, not counts) compare across boards of any size:
those are the ones measured on the published decks (published.py).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..model.board import Ticket
from .paths import BoardPaths

#: A ticket is long when its shortest path spans at least this share of the board's diameter
#: (Europe's long tickets span 69-72% of it, its regular ones at most 45%).
LONG_REACH = 0.6
#: Reach bands (shortest path / diameter) of the value histogram shared by every board.
REACH_BANDS = (0.0, 0.2, 0.4, 0.6, 0.8)
#: Value bands of the printed histogram: 1-5, 6-10, ...
VALUE_BAND = 5
#: Two tickets overlap when they share at least this share of their routes (Jaccard index).
OVERLAP = 0.5
#: A place is overused when it ends at least this many times the average number of tickets per place (and 3 or more).
OVERUSED = 2.0
#: A route is a bottleneck when its load is at least this many times the mean load of the routes in use (and 3 or more).
BOTTLENECK = 3.0
#: Near-duplicates: one end shared and the other two ends joined by a route of at most this many spaces.
NEAR = 2

#: The shape figures, in the order they are printed, with what each means.
SHAPE: dict[str, str] = {
    "reach_median": "median shortest path, as a share of the board's diameter",
    "reach_spread": "spread of shortest paths: interquartile range, as a share of the diameter",
    "long_share": f"share of long tickets (shortest path at least {LONG_REACH:.0%} of the diameter)",
    "value_over_path": "mean value minus shortest path, in points",
    "value_cv": "spread of values (coefficient of variation)",
    "place_coverage": "share of the board's places that end some ticket",
    "place_max_ratio": "most tickets at one place, over the average per place",
    "place_cv": "spread of tickets per place (coefficient of variation)",
    "route_coverage": "share of the board's routes on some ticket's shortest path",
    "route_max_ratio": "heaviest route load over the mean load of the routes in use",
    "route_cv": "spread of route loads (coefficient of variation)",
    "overlap_pairs": f"share of ticket pairs sharing {OVERLAP:.0%} or more of their routes",
}


def band(value: int) -> str:
    lo = (max(value, 1) - 1) // VALUE_BAND * VALUE_BAND + 1
    return f"{lo}-{lo + VALUE_BAND - 1}"


def reach_band(reach: float) -> str:
    lo = max(b for b in REACH_BANDS if reach >= b - 1e-9)
    hi = REACH_BANDS[REACH_BANDS.index(lo) + 1] if lo != REACH_BANDS[-1] else 1.0
    return f"{lo:.0%}-{hi:.0%}"


def _cv(values: list[float]) -> float:
    mean = statistics.fmean(values) if values else 0.0
    return statistics.pstdev(values) / mean if mean else 0.0


def _iqr(values: list[float]) -> float:
    """Interquartile range (quartiles by linear interpolation, as numpy's default)."""
    if len(values) < 2:
        return 0.0
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[2] - q[0]


def _r(x: float, nd: int = 3) -> float:
    return round(float(x), nd)


@dataclass
class TicketFigures:
    ticket: Ticket
    path: int | None
    load: dict[int, float]  # edge index -> share of this ticket's shortest paths on it

    @property
    def routes(self) -> frozenset[int]:
        return frozenset(self.load)


@dataclass
class DeckFigures:
    """Every figure of one deck on one board (see `as_dict` for the JSON form)."""

    paths: BoardPaths
    tickets: list[TicketFigures]
    place_uses: Counter = field(default_factory=Counter)
    route_load: dict[int, float] = field(default_factory=dict)
    route_sure: Counter = field(default_factory=Counter)

    @property
    def diameter(self) -> int:
        return self.paths.diameter

    def reach(self, t: TicketFigures) -> float | None:
        return t.path / self.diameter if t.path is not None and self.diameter else None

    # -- places ----------------------------------------------------------

    @property
    def average_uses(self) -> float:
        """Ticket ends per place of the board (each ticket has two)."""
        return 2 * len(self.tickets) / len(self.paths.places) if self.paths.places else 0.0

    def unused_places(self) -> list[str]:
        return [p.id for p in self.paths.board.places if self.place_uses[p.id] == 0]

    def overused_places(self) -> list[tuple[str, int]]:
        avg = self.average_uses
        out = [(p, n) for p, n in self.place_uses.items() if n >= 3 and avg and n >= OVERUSED * avg]
        return sorted(out, key=lambda pn: (-pn[1], pn[0]))

    # -- routes ----------------------------------------------------------

    @property
    def mean_load(self) -> float:
        """Mean load over the routes carrying some ticket."""
        used = [v for v in self.route_load.values() if v > 0]
        return statistics.fmean(used) if used else 0.0

    def bottlenecks(self) -> list[tuple[int, float]]:
        mean = self.mean_load
        out = [(e, v) for e, v in self.route_load.items() if v >= 3 and mean and v >= BOTTLENECK * mean]
        return sorted(out, key=lambda ev: (-ev[1], ev[0]))

    # -- pairs -----------------------------------------------------------

    def overlaps(self) -> list[tuple[int, int, float]]:
        """Pairs of tickets (indices) sharing at least `OVERLAP` of their routes, with the share."""
        out = []
        for i, j in combinations(range(len(self.tickets)), 2):
            a, b = self.tickets[i].routes, self.tickets[j].routes
            if a and b:
                share = len(a & b) / len(a | b)
                if share >= OVERLAP:
                    out.append((i, j, share))
        return out

    def duplicates(self) -> list[tuple[int, int, str]]:
        """Pairs of tickets with the same ends ('duplicate') or one end shared and the others `NEAR` apart ('near')."""
        out = []
        short = {frozenset((e.a, e.b)) for e in self.paths.edges if e.length <= NEAR}
        for i, j in combinations(range(len(self.tickets)), 2):
            a = {self.tickets[i].ticket.from_, self.tickets[i].ticket.to}
            b = {self.tickets[j].ticket.from_, self.tickets[j].ticket.to}
            if a == b:
                out.append((i, j, "duplicate"))
            elif len(a & b) == 1 and frozenset(a ^ b) in short:
                out.append((i, j, "near"))
        return out

    # -- shape -----------------------------------------------------------

    def shape(self) -> dict[str, float]:
        """The figures that compare across boards (see `SHAPE`)."""
        reaches = [r for t in self.tickets if (r := self.reach(t)) is not None]
        diffs = [t.ticket.points - t.path for t in self.tickets if t.path is not None]
        places = [self.place_uses[p] for p in (p.id for p in self.paths.board.places)]
        loads = [self.route_load.get(e, 0.0) for e in range(len(self.paths.edges))]
        pairs = len(self.tickets) * (len(self.tickets) - 1) // 2
        avg = self.average_uses
        used_loads = [v for v in loads if v > 0]
        return {
            "reach_median": _r(statistics.median(reaches)) if reaches else 0.0,
            "reach_spread": _r(_iqr(reaches)),
            "long_share": _r(sum(r >= LONG_REACH for r in reaches) / len(reaches)) if reaches else 0.0,
            "value_over_path": _r(statistics.fmean(diffs)) if diffs else 0.0,
            "value_cv": _r(_cv([float(t.ticket.points) for t in self.tickets])),
            "place_coverage": _r(sum(1 for n in places if n) / len(places)) if places else 0.0,
            "place_max_ratio": _r(max(places) / avg) if places and avg else 0.0,
            "place_cv": _r(_cv(places)),
            "route_coverage": _r(len(used_loads) / len(loads)) if loads else 0.0,
            "route_max_ratio": _r(max(used_loads) / self.mean_load) if used_loads else 0.0,
            "route_cv": _r(_cv(loads)),
            "overlap_pairs": _r(len(self.overlaps()) / pairs) if pairs else 0.0,
        }

    def value_histogram(self) -> dict[str, int]:
        counts = Counter(band(t.ticket.points) for t in self.tickets)
        if not counts:
            return {}
        top = max(t.ticket.points for t in self.tickets)
        return {band(v): counts.get(band(v), 0) for v in range(1, max(top, 1) + 1, VALUE_BAND)}

    def reach_histogram(self) -> dict[str, float]:
        """Share of tickets in each reach band."""
        reaches = [r for t in self.tickets if (r := self.reach(t)) is not None]
        counts = Counter(reach_band(r) for r in reaches)
        names = [reach_band(b) for b in REACH_BANDS]
        return {k: _r(counts.get(k, 0) / len(reaches)) if reaches else 0.0 for k in names}

    def as_dict(self) -> dict[str, Any]:
        names = self.paths.edges
        return {
            "tickets": len(self.tickets),
            "places": len(self.paths.places),
            "routes": len(self.paths.edges),
            "diameter": self.diameter,
            "shape": self.shape(),
            "values": {
                "min": min((t.ticket.points for t in self.tickets), default=None),
                "max": max((t.ticket.points for t in self.tickets), default=None),
                "histogram": self.value_histogram(),
            },
            "reach_histogram": self.reach_histogram(),
            "place_uses": {p.id: self.place_uses[p.id] for p in self.paths.board.places},
            "average_uses": _r(self.average_uses),
            "unused_places": self.unused_places(),
            "overused_places": [{"place": p, "tickets": n} for p, n in self.overused_places()],
            "route_load": [
                {"route": names[e].route_id, "from": names[e].a, "to": names[e].b, "length": names[e].length,
                 "load": _r(v), "sure": self.route_sure[e]}
                for e, v in sorted(self.route_load.items(), key=lambda ev: (-ev[1], names[ev[0]].route_id))
            ],
            "mean_load": _r(self.mean_load),
            "bottlenecks": [{"route": names[e].route_id, "load": _r(v)} for e, v in self.bottlenecks()],
            "overlaps": [
                {"a": _ticket_name(self.tickets[i].ticket), "b": _ticket_name(self.tickets[j].ticket), "shared": _r(s)}
                for i, j, s in self.overlaps()
            ],
            "duplicates": [
                {"a": _ticket_name(self.tickets[i].ticket), "b": _ticket_name(self.tickets[j].ticket), "kind": kind}
                for i, j, kind in self.duplicates()
            ],
            "value_vs_path": [
                {"ticket": _ticket_name(t.ticket), "value": t.ticket.points, "shortest_path": t.path,
                 "difference": None if t.path is None else t.ticket.points - t.path}
                for t in self.tickets
            ],
        }


def _ticket_name(t: Ticket) -> str:
    return f"{t.from_}–{t.to}"


def deck_figures(paths: BoardPaths, tickets: list[Ticket] | tuple[Ticket, ...]) -> DeckFigures:
    """The figures of `tickets` on the board of `paths`."""
    rows = [TicketFigures(t, paths.distance(t.from_, t.to), paths.load(t.from_, t.to)) for t in tickets]
    uses: Counter = Counter()
    load: dict[int, float] = {}
    sure: Counter = Counter()
    for row in rows:
        uses[row.ticket.from_] += 1
        uses[row.ticket.to] += 1
        for e, share in row.load.items():
            load[e] = load.get(e, 0.0) + share
            if math.isclose(share, 1.0):
                sure[e] += 1
    return DeckFigures(paths, rows, uses, load, sure)
