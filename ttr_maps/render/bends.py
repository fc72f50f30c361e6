"""Bend points that draw a route clear of what its cars cover: the suggestions of the D checks and `validate --fix`.

`Obstacles(plan)` is everything a route's cars should stay off on a laid-out
board: the cars of the other routes, the markers of the other places and the
place names. `clear_bend(plan, group, obstacles)` tries bend points on either
side of a route, nearest first, lays its cars along each (as the router would
with that `bend:` in the board file, rounded as it would be written) and returns
the smallest one that leaves nothing covered, or None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import STRtree

from ..geometry import Layout
from ..model.board import Route
from .paths import smooth
from .plan import BoardPlan, RoutePlan, lay_route, space_polygons

#: Cars of different routes may share at most this much of a car; a car may cover at most this much of a
#: foreign marker, and a name at most this much of a car (the measure of the drawing checks).
CAR_SHARE = 0.02
MARKER_SHARE = 0.05
LABEL_SHARE = 0.02

# Where along the route (share of the way from its first end) and how far to the side (car lengths) to try a bend point.
_ALONG = (0.5, 0.35, 0.65, 0.2, 0.8)
_ASIDE = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def label_text_box(plan: BoardPlan, k: int) -> tuple[float, float, float, float] | None:
    """The box of the letters of place `k`'s name (the label box without the margin the placer keeps)."""
    lab = plan.places[k].label
    if lab is None:
        return None
    x0, y0, x1, y1 = lab.box
    mx, my = lab.size * 0.3, lab.size * 0.15
    return (x0 + mx, y0 + my, x1 - mx, y1 - my)


@dataclass(frozen=True)
class Hit:
    """Something a route's cars cover: another route (`route` is its index in plan.routes), a marker or a name
    (`place` is the index in plan.places), by `share` (of a car, of a marker for markers)."""

    kind: str  # "car", "marker" or "label"
    share: float
    route: int = -1
    place: int = -1


class Obstacles:
    """The cars, markers and names of a plan, indexed for "what does this route's car cover?"."""

    def __init__(self, plan: BoardPlan):
        self.plan = plan
        self.car_area = plan.space_length * plan.space_width
        polys, kinds, owners = [], [], []
        for g, rp in enumerate(plan.routes):
            ps = space_polygons([s for t in rp.tracks for s in t.spaces], plan.space_length, plan.space_width)
            polys += list(ps)
            kinds += [0] * len(ps)
            owners += [g] * len(ps)
        markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=8)
        polys += list(markers)
        kinds += [1] * len(markers)
        owners += range(len(markers))
        for k in range(len(plan.places)):
            b = label_text_box(plan, k)
            if b is not None:
                polys.append(shapely.box(*b))
                kinds.append(2)
                owners.append(k)
        self.polys = np.array(polys, dtype=object)
        self.kind = np.array(kinds, dtype=np.int64)
        self.owner = np.array(owners, dtype=np.int64)
        self.area = shapely.area(self.polys)
        self.tree = STRtree(self.polys)
        self.place_index = {pp.place.id: k for k, pp in enumerate(plan.places)}

    def _shares(self, group: int, cars: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(car index, kind, owner, share) of every thing the cars of route `group` cover beyond the measure."""
        empty = np.empty(0, dtype=np.int64)
        if not len(cars):
            return empty, empty, empty, np.empty(0)
        ends = [self.place_index[p] for p in self.plan.routes[group].ends]
        qi, ti = self.tree.query(cars, predicate="intersects")
        kind, owner = self.kind[ti], self.owner[ti]
        keep = ~((kind == 0) & (owner == group)) & ~((kind == 1) & np.isin(owner, ends))
        qi, ti, kind, owner = qi[keep], ti[keep], kind[keep], owner[keep]
        shared = shapely.area(shapely.intersection(cars[qi], self.polys[ti])) if len(qi) else np.empty(0)
        share = np.where(kind == 1, shared / self.area[ti], shared / self.car_area)
        over = share > np.choose(kind, [CAR_SHARE, MARKER_SHARE, LABEL_SHARE])
        return qi[over], kind[over], owner[over], share[over]

    def hits(self, group: int, cars: np.ndarray) -> list[Hit]:
        """What the cars `cars` of route `group` cover beyond the measure, the worst of each thing once."""
        _, kind, owner, share = self._shares(group, cars)
        worst: dict[tuple[int, int], float] = {}
        for kd, ow, sh in zip(kind.tolist(), owner.tolist(), share.tolist()):
            worst[kd, ow] = max(worst.get((kd, ow), 0.0), sh)
        out = []
        for (kd, ow), sh in sorted(worst.items()):
            out.append(Hit("car", sh, route=ow) if kd == 0 else Hit("marker" if kd == 1 else "label", sh, place=ow))
        return out

    def clear(self, group: int, cars: np.ndarray, layout: np.ndarray, count: int) -> np.ndarray:
        """For each of `count` layouts of route `group` (car k belongs to layout `layout[k]`): does it cover nothing?"""
        qi, *_ = self._shares(group, cars)
        ok = np.ones(count, dtype=bool)
        ok[layout[qi]] = False
        return ok


@dataclass(frozen=True)
class BendSuggestion:
    group: int  # index in plan.routes
    route: Route  # the route entry whose `bend:` to write
    bend: tuple[tuple[float, float], ...]  # as the board file writes it
    aside: float  # how far the route moves at the bend point, in car lengths
    plan: RoutePlan  # the route laid out with it

    @property
    def text(self) -> str:
        return "[" + ", ".join(f"[{_num(a)}, {_num(b)}]" for a, b in self.bend) + "]"


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def group_members(rp: RoutePlan) -> list[Route]:
    """The route entries drawn in one route plan, in file order of their tracks."""
    out: list[Route] = []
    for t in rp.tracks:
        if not any(t.route is r for r in out):
            out.append(t.route)
    return out


def clear_bend(plan: BoardPlan, group: int, obstacles: Obstacles, layout: Layout | None = None) -> BendSuggestion | None:
    """The bend point (or, for a route that has some, the shift of all its bend points) nearest the current
    drawing that leaves route `group` covering nothing; None when no bend tried does."""
    layout = layout or Layout(plan.board)
    rp = plan.routes[group]
    members = group_members(rp)
    entry = next((r for r in members if r.bend), members[0])
    a, b = plan.place(rp.ends[0]), plan.place(rp.ends[1])
    pa, pb = (a.x, a.y), (b.x, b.y)
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    chord = math.hypot(dx, dy)
    if chord == 0:
        return None
    nx, ny = -dy / chord, dx / chord
    need = max(r.length for r in members) * plan.car * 0.93 + 2 * plan.clear
    now = [plan.to_map(*p) for p in layout.bend_points(entry)]
    if entry.from_ != rp.ends[0]:
        now.reverse()
    tries: list[tuple[float, tuple[tuple[float, float], ...], RoutePlan]] = []
    for aside in _ASIDE:
        for along in (_ALONG if not now else (0.0,)):
            for side in (1, -1):
                off = aside * plan.car * side
                if now:
                    mm = [(x + nx * off, y + ny * off) for x, y in now]
                else:
                    mm = [(pa[0] + dx * along + nx * off, pa[1] + dy * along + ny * off)]
                written = tuple(tuple(layout.written(*plan.to_board(x, y))) for x, y in mm)
                back = [plan.to_map(*p) for p in layout.bend_points(entry.model_copy(update={"bend": written}))]
                line = smooth([pa, *back, pb])
                if _length(line) < need:
                    continue
                laid = lay_route(rp.ends, members, line, "bend", plan.car, plan.clear, plan.space_width, plan.track_gap)
                tries.append((aside, written, laid))  # type: ignore[arg-type]
    if not tries:
        return None
    spaces = [[s for t in laid.tracks for s in t.spaces] for _, _, laid in tries]
    cars = space_polygons([s for ss in spaces for s in ss], plan.space_length, plan.space_width)
    which = np.repeat(np.arange(len(tries)), [len(ss) for ss in spaces])
    ok = obstacles.clear(group, cars, which, len(tries))
    if not ok.any():
        return None
    aside, written, laid = tries[int(np.argmax(ok))]
    if entry.from_ != rp.ends[0]:
        written = tuple(reversed(written))
    return BendSuggestion(group, entry, written, aside, laid)


def _length(line: list[tuple[float, float]]) -> float:
    return sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(line, line[1:]))
