"""Measuring how readable a board plan's routes are: cars over other routes' cars, cars over other places.

`car_overlaps(plan, share)` is the measure the drawing checks and the router are
held to: every pair of different routes (different pairs of places) where one
car of the first and one car of the second share more than `share` of a car's
area (2 % by default), with the worst such pair of cars. Parallel tracks of one
route are drawn side by side and never count against each other.

`own_overlaps(plan, share)` is its counterpart within one route: the routes
two of whose own cars (next cars of a track on a tight curve, or cars of its
parallel tracks) share more than `share` of a car. A bend that clears a pair
must not pile a route's own cars up instead.

`route_conflicts(plan)` keeps the older, coarser counts:
- **overlapping pairs**: two routes where some car of one has more than `share`
  (25 %) of its area covered by a car of the other;
- **cars over markers**: a route's car covering part of the marker of a place
  that is not one of its two ends (by more than `marker_share` of the marker).

Used by the D checks, by the regression tests on the bundled boards and by
`python benchmarks/bench_render.py --conflicts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import STRtree

from .plan import BoardPlan, TrackPlan, space_polygons

#: Two routes whose cars share more than this share of a car are reported (the measure of issue 15).
OVERLAP_SHARE = 0.02


@dataclass(frozen=True)
class CarOverlap:
    """Two routes whose cars overlap, with the worst pair of cars."""

    first: int  # index in plan.routes
    second: int
    share: float  # area the worst two cars share, as a share of one car
    first_track: TrackPlan
    second_track: TrackPlan
    first_car: int  # index of the car in its track
    second_car: int
    at: tuple[float, float]  # centre of the shared area, mm on the plan

    def ends(self, plan: BoardPlan) -> tuple[tuple[str, str], tuple[str, str]]:
        return plan.routes[self.first].ends, plan.routes[self.second].ends


@dataclass
class DrawnCars:
    """Every car of a plan as a polygon, with the route (index in plan.routes), track and place in the track of each."""

    polygons: np.ndarray
    route: np.ndarray
    tracks: list[TrackPlan]
    track: np.ndarray
    car: np.ndarray

    @classmethod
    def of(cls, plan: BoardPlan) -> DrawnCars:
        spaces, route, track, car, tracks = [], [], [], [], []
        for g, rp in enumerate(plan.routes):
            for t in rp.tracks:
                spaces += t.spaces
                route += [g] * len(t.spaces)
                track += [len(tracks)] * len(t.spaces)
                car += range(len(t.spaces))
                tracks.append(t)
        polys = space_polygons(spaces, plan.space_length, plan.space_width)
        return cls(polys, np.array(route, dtype=np.int64), tracks, np.array(track, dtype=np.int64), np.array(car, dtype=np.int64))


def car_overlaps(plan: BoardPlan, share: float = OVERLAP_SHARE, cars: DrawnCars | None = None) -> list[CarOverlap]:
    """Pairs of different routes with two cars sharing more than `share` of a car, worst first."""
    cars = cars or DrawnCars.of(plan)
    if not len(cars.polygons):
        return []
    area = plan.space_length * plan.space_width
    qi, ti = STRtree(cars.polygons).query(cars.polygons, predicate="intersects")
    keep = cars.route[qi] < cars.route[ti]
    qi, ti = qi[keep], ti[keep]
    if not len(qi):
        return []
    shared = shapely.intersection(cars.polygons[qi], cars.polygons[ti])
    shares = shapely.area(shared) / area
    worst: dict[tuple[int, int], int] = {}
    for k in np.flatnonzero(shares > share).tolist():
        pair = (int(cars.route[qi[k]]), int(cars.route[ti[k]]))
        if pair not in worst or shares[k] > shares[worst[pair]]:
            worst[pair] = k
    out = []
    for (a, b), k in worst.items():
        i, j = qi[k], ti[k]
        c = shapely.centroid(shared[k])
        out.append(CarOverlap(a, b, float(shares[k]), cars.tracks[cars.track[i]], cars.tracks[cars.track[j]],
                              int(cars.car[i]), int(cars.car[j]), (float(c.x), float(c.y))))
    return sorted(out, key=lambda o: (-o.share, o.first, o.second))


def own_overlaps(plan: BoardPlan, share: float = OVERLAP_SHARE, cars: DrawnCars | None = None) -> list[tuple[int, float]]:
    """(route index in plan.routes, worst share of a car) of each route two of whose own cars share more than
    `share` of a car, worst first."""
    cars = cars or DrawnCars.of(plan)
    if not len(cars.polygons):
        return []
    area = plan.space_length * plan.space_width
    qi, ti = STRtree(cars.polygons).query(cars.polygons, predicate="intersects")
    keep = (cars.route[qi] == cars.route[ti]) & (qi < ti)
    qi, ti = qi[keep], ti[keep]
    if not len(qi):
        return []
    shares = shapely.area(shapely.intersection(cars.polygons[qi], cars.polygons[ti])) / area
    worst: dict[int, float] = {}
    for g, sh in zip(cars.route[qi].tolist(), shares.tolist()):
        if sh > share:
            worst[g] = max(worst.get(g, 0.0), sh)
    return sorted(worst.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass
class Conflicts:
    overlapping: list[tuple[tuple[str, str], tuple[str, str]]] = field(default_factory=list)  # route ends, sorted pairs
    over_markers: list[tuple[tuple[str, str], str]] = field(default_factory=list)  # (route ends, place id)

    def summary(self) -> str:
        return f"{len(self.overlapping)} overlapping route pairs, {len(self.over_markers)} routes over a foreign marker"


def route_conflicts(plan: BoardPlan, share: float = 0.25, marker_share: float = 0.05) -> Conflicts:
    """The overlapping route pairs and the routes over foreign place markers of `plan`."""
    cars = DrawnCars.of(plan)
    out = Conflicts()
    if not len(cars.polygons):
        return out
    out.overlapping = sorted({tuple(sorted(o.ends(plan))) for o in car_overlaps(plan, share, cars)})  # type: ignore[misc]
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=8)
    marker_area = shapely.area(markers)
    qi, ti = STRtree(markers).query(cars.polygons, predicate="intersects")
    hits: set[tuple[tuple[str, str], str]] = set()
    if len(qi):
        inter = shapely.area(shapely.intersection(cars.polygons[qi], markers[ti]))
        for s_i, m_i, s in zip(qi, ti, inter):
            ends = plan.routes[cars.route[s_i]].ends
            pid = plan.places[m_i].place.id
            if pid not in ends and s > marker_share * marker_area[m_i]:
                hits.add((ends, pid))
    out.over_markers = sorted(hits)
    return out
