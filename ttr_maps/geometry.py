"""Board geometry: where each place sits in board units, and the size of a route space.

Lat/lon places are projected (board units are kilometres on the projected plane,
x east, y south so that SVG's y-down matches); x/y places are used as given.
Checks and rendering both read this one layout.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import cached_property

from .model.board import Board, Entry, Place, Route

EARTH_RADIUS_KM = 6371.0


def project(lat: float, lon: float, name: str, standard_parallel: float, lon0: float = 0.0) -> tuple[float, float]:
    """Project a point to board units (km at the standard parallel; y grows southwards)."""
    k = EARTH_RADIUS_KM * math.cos(math.radians(standard_parallel))
    x = k * math.radians(lon - lon0)
    if name == "mercator":
        phi = math.radians(max(-85.0, min(85.0, lat)))
        y = -k * math.log(math.tan(math.pi / 4 + phi / 2))
    elif name == "equirectangular":
        y = -EARTH_RADIUS_KM * math.radians(lat)
    else:  # pragma: no cover - the model restricts the names
        raise ValueError(f"unknown projection {name!r}")
    return x, y


def unproject(x: float, y: float, name: str, standard_parallel: float, lon0: float = 0.0) -> tuple[float, float]:
    """(lat, lon) of a point in board units: the inverse of `project` (a place dragged on a lat/lon board)."""
    k = EARTH_RADIUS_KM * math.cos(math.radians(standard_parallel))
    lon = lon0 + math.degrees(x / k)
    if name == "mercator":
        lat = math.degrees(2 * math.atan(math.exp(-y / k)) - math.pi / 2)
    else:
        lat = -math.degrees(y / EARTH_RADIUS_KM)
    return lat, lon


@dataclass(frozen=True)
class Layout:
    """Positions of places in board units and the drawing sizes derived from the board."""

    board: Board

    @cached_property
    def _projection(self) -> tuple[str, float, float]:
        geo = [p for p in self.board.places if p.lat is not None]
        proj = self.board.projection
        sp = proj.standard_parallel
        if sp is None:
            sp = statistics.fmean(p.lat for p in geo) if geo else 0.0  # type: ignore[misc]
        lon0 = statistics.fmean(p.lon for p in geo) if geo else 0.0  # type: ignore[misc]
        return proj.name, sp, lon0

    @property
    def projection(self) -> tuple[str, float, float]:
        """(name, standard parallel, central longitude) of this board's projection."""
        return self._projection

    @cached_property
    def positions(self) -> dict[str, tuple[float, float]]:
        return {p.id: _position(p, *self._projection) for p in self.board.places}

    @cached_property
    def entry_positions(self) -> dict[tuple[str, str], tuple[float, float]]:
        """(place, entry) -> position of each entry of a place with several drawn points."""
        return {(p.id, e.id): _position(e, *self._projection) for p in self.board.places for e in p.entries}

    def route_entries(self, route: Route) -> tuple[str | None, str | None]:
        """The entry each end of `route` is drawn to (None: the place itself). An end at a place with entries
        that names none goes to the entry nearest to where the route comes from (its nearest bend point, or the
        other end), so routes end at the right crossing without writing it (docs/rules.md#entry-points)."""
        out: list[str | None] = []
        bends = self.bend_points(route)
        for end, named, toward in ((route.from_, route.from_entry, 0), (route.to, route.to_entry, -1)):
            place = self.board.place_by_id.get(end)
            if place is None or not place.entries:
                out.append(None)
                continue
            if named is not None and any(e.id == named for e in place.entries):
                out.append(named)
                continue
            other = route.to if toward == 0 else route.from_
            ox, oy = bends[toward] if bends else self.positions.get(other, self.positions[end])
            ents = self.entry_positions
            out.append(min(place.entries, key=lambda e: math.hypot(ents[(end, e.id)][0] - ox, ents[(end, e.id)][1] - oy)).id)
        return out[0], out[1]

    def route_ends(self, route: Route) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the drawn route starts and ends: its places, or the entries it ends at."""
        ea, eb = self.route_entries(route)
        a = self.entry_positions[(route.from_, ea)] if ea else self.positions[route.from_]
        b = self.entry_positions[(route.to, eb)] if eb else self.positions[route.to]
        return a, b

    @cached_property
    def geographic(self) -> bool:
        """True when the board places things by lat/lon (then bend points are [lat, lon] too)."""
        return any(p.lat is not None for p in self.board.places)

    def bend_points(self, route: Route) -> list[tuple[float, float]]:
        """A route's bend points in board units: written [lat, lon] on a lat/lon board, [x, y] otherwise."""
        if not self.geographic:
            return [(x, y) for x, y in route.bend]
        return [project(lat, lon, *self._projection) for lat, lon in route.bend]

    def written(self, x: float, y: float, digits: int = 2) -> list[float]:
        """A point in board units as a board file writes it: [lat, lon] on a lat/lon board, [x, y] otherwise."""
        a, b = unproject(x, y, *self._projection) if self.geographic else (x, y)
        return [round(a, digits), round(b, digits)]

    def distance(self, a: str, b: str) -> float:
        (x1, y1), (x2, y2) = self.positions[a], self.positions[b]
        return math.hypot(x2 - x1, y2 - y1)

    @cached_property
    def car_length(self) -> float:
        """The board's `drawing.car_length`, or the median fit of its routes (spaces + two place markers)."""
        if self.board.drawing.car_length:
            return self.board.drawing.car_length
        ratio = self.board.drawing.city_radius_ratio
        fits = [
            math.dist(*self.route_ends(r)) / (r.length + 2 * ratio)
            for r in self.board.routes
            if r.from_ in self.positions and r.to in self.positions and r.from_ != r.to
        ]
        fits = [f for f in fits if f > 0]
        if fits:
            return statistics.median(fits)
        xs = [x for x, _ in self.positions.values()]
        ys = [y for _, y in self.positions.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        return span / 20 if span > 0 else 1.0

    @property
    def car_width(self) -> float:
        return self.car_length * self.board.drawing.car_width_ratio

    @property
    def city_radius(self) -> float:
        return self.car_length * self.board.drawing.city_radius_ratio

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the places, bend points included."""
        pts = list(self.positions.values()) + list(self.entry_positions.values())
        pts += [b for r in self.board.routes for b in self.bend_points(r)]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)


def _position(p: Place | Entry, projection: str, sp: float, lon0: float) -> tuple[float, float]:
    if p.lat is not None and p.lon is not None:
        return project(p.lat, p.lon, projection, sp, lon0)
    assert p.x is not None and p.y is not None
    return (p.x, p.y)
