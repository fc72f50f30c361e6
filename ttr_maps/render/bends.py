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
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely import STRtree

from ..geometry import Layout
from ..model.board import Route
from .paths import smooth, smooth_many
from .plan import BoardPlan, Laid, RoutePlan, space_polygons

if TYPE_CHECKING:
    from .conflicts import DrawnCars

#: Cars of different routes may share at most this much of a car; a car may cover at most this much of a
#: foreign marker, and a name at most this much of a car (the measure of the drawing checks).
CAR_SHARE = 0.02
MARKER_SHARE = 0.05
LABEL_SHARE = 0.02

# Where along the route (share of the way from its first end) and how far to the side (car lengths) to try a bend point.
_ALONG = (0.5, 0.3, 0.7, 0.15, 0.85)
_ASIDE = (0.25, 0.5, 1.0, 1.5, 2.5)


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
    (`place` is the index in plan.places), a goods token (`place` is its index in plan.tokens), by `share` (of a
    car; of the marker or token for those)."""

    kind: str  # "car", "marker", "label" or "token"
    share: float
    route: int = -1
    place: int = -1


class Obstacles:
    """The cars, markers and names of a plan, indexed for "what does this route's car cover?".

    The cars of each route are kept (`cars_of`); `replace` swaps one route's cars when the route is
    redrawn, so a caller that moves routes one at a time does not lay out the whole board again: the
    spatial index of all cars is kept and the cars of the routes changed since it was built are looked
    up in a small index of their own (the big one is rebuilt once many routes have changed)."""

    #: Rebuild the index of all cars once this many routes have been redrawn since it was built.
    REBUILD = 256

    def __init__(self, plan: BoardPlan, cars: DrawnCars | None = None):
        from .conflicts import DrawnCars

        self.plan = plan
        self.car_area = plan.space_length * plan.space_width
        cars = cars if cars is not None else DrawnCars.of(plan)
        cuts = np.searchsorted(cars.route, np.arange(len(plan.routes) + 1), side="left").tolist()
        self._cars: list[np.ndarray] = [cars.polygons[a:b] for a, b in zip(cuts, cuts[1:])]  # as np.split makes them
        polys, kinds, owners = [], [], []
        markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=8)
        polys += list(markers)
        kinds += [1] * len(markers)
        owners += range(len(markers))
        if plan.tokens:
            tokens = shapely.buffer(shapely.points([(tk.x, tk.y) for tk in plan.tokens]), [tk.r for tk in plan.tokens], quad_segs=4)
            polys += list(tokens)
            kinds += [3] * len(tokens)
            owners += range(len(tokens))
        for k in range(len(plan.places)):
            b = label_text_box(plan, k)
            if b is not None:
                polys.append(shapely.box(*b))
                kinds.append(2)
                owners.append(k)
        self.place_index = {pp.place.id: k for k, pp in enumerate(plan.places)}
        self._ends = np.array([[self.place_index[p] for p in rp.ends] for rp in plan.routes], dtype=np.int64).reshape(-1, 2)
        # Markers, tokens and names (they do not move), then the cars.
        self._static = np.array(polys, dtype=object)
        self._static_kind = np.array(kinds, dtype=np.int64)
        self._static_owner = np.array(owners, dtype=np.int64)
        self._static_area = shapely.area(self._static)
        self._static_tree = STRtree(self._static)
        self._index_cars()

    def _index_cars(self) -> None:
        counts = [len(c) for c in self._cars]
        self._car_polys = np.concatenate(self._cars) if self._cars else np.empty(0, dtype=object)
        self._car_owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        self._car_tree = STRtree(self._car_polys)
        self._stale = np.zeros(len(self._cars), dtype=bool)  # routes redrawn since the index was built
        self._fresh: dict[int, np.ndarray] = {}
        self._fresh_index: tuple[np.ndarray, np.ndarray, STRtree] | None = None
        self._hits: dict[int, list[Hit]] = {}  # `hits` of routes as drawn now, since the last `replace`

    def cars_of(self, group: int) -> np.ndarray:
        """The car polygons of route `group` as now drawn."""
        return self._cars[group]

    def replace(self, group: int, cars: np.ndarray) -> None:
        """Route `group` is now drawn with the cars `cars`."""
        self._cars[group] = cars
        self._stale[group] = True
        self._fresh[group] = cars
        self._fresh_index = None
        self._hits.clear()
        if len(self._fresh) >= self.REBUILD:
            self._index_cars()

    def _query_cars(self, cars: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(car index in `cars`, polygon, owner route) of every drawn car intersecting one of `cars`."""
        qi, ti = self._car_tree.query(cars, predicate="intersects")
        owner = self._car_owner[ti]
        keep = ~self._stale[owner]
        qi, polys, owner = qi[keep], self._car_polys[ti[keep]], owner[keep]
        if self._fresh:
            if self._fresh_index is None:
                groups = list(self._fresh)
                fp = np.concatenate([self._fresh[g] for g in groups])
                fo = np.repeat(np.array(groups, dtype=np.int64), [len(self._fresh[g]) for g in groups])
                self._fresh_index = (fp, fo, STRtree(fp))
            fp, fo, tree = self._fresh_index
            fq, ft = tree.query(cars, predicate="intersects")
            qi, polys, owner = np.concatenate([qi, fq]), np.concatenate([polys, fp[ft]]), np.concatenate([owner, fo[ft]])
        return qi, polys, owner

    def _shares(self, group: int, cars: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(car index, kind, owner, share) of every thing the cars of route `group` cover beyond the measure."""
        empty = np.empty(0, dtype=np.int64)
        if not len(cars):
            return empty, empty, empty, np.empty(0)
        ends = self._ends[group]
        # Other routes' cars.
        cq, cpolys, cowner = self._query_cars(cars)
        keep = cowner != group
        cq, cpolys, cowner = cq[keep], cpolys[keep], cowner[keep]
        cshare = shapely.area(shapely.intersection(cars[cq], cpolys)) / self.car_area if len(cq) else np.empty(0)
        # Markers (not of its own ends), goods tokens and names.
        qi, ti = self._static_tree.query(cars, predicate="intersects")
        kind, owner = self._static_kind[ti], self._static_owner[ti]
        keep = ~((kind == 1) & ((owner == ends[0]) | (owner == ends[1])))
        qi, ti, kind, owner = qi[keep], ti[keep], kind[keep], owner[keep]
        shared = shapely.area(shapely.intersection(cars[qi], self._static[ti])) if len(qi) else np.empty(0)
        share = np.where((kind == 1) | (kind == 3), shared / self._static_area[ti], shared / self.car_area)
        qi = np.concatenate([cq, qi])
        kind = np.concatenate([np.zeros(len(cq), dtype=np.int64), kind])
        owner = np.concatenate([cowner, owner])
        share = np.concatenate([cshare, share])
        over = share > np.choose(kind, [CAR_SHARE, MARKER_SHARE, LABEL_SHARE, MARKER_SHARE])
        return qi[over], kind[over], owner[over], share[over]

    def hits(self, group: int, cars: np.ndarray | None = None) -> list[Hit]:
        """What the cars `cars` (by default, as drawn now) of route `group` cover beyond the measure, the worst of each
        thing once (the list is kept until a route is redrawn: do not change it)."""
        if cars is None:
            known = self._hits.get(group)
            if known is None:
                known = self._hits[group] = self._hits_of(group, self._cars[group])
            return known
        return self._hits_of(group, cars)

    def _hits_of(self, group: int, cars: np.ndarray) -> list[Hit]:
        _, kind, owner, share = self._shares(group, cars)
        worst: dict[tuple[int, int], float] = {}
        for kd, ow, sh in zip(kind.tolist(), owner.tolist(), share.tolist()):
            worst[kd, ow] = max(worst.get((kd, ow), 0.0), sh)
        out = []
        for (kd, ow), sh in sorted(worst.items()):
            out.append(Hit("car", sh, route=ow) if kd == 0 else Hit(("", "marker", "label", "token")[kd], sh, place=ow))
        return out

    def over_markers(self) -> set[int]:
        """The routes with a car over a marker of a place that is not one of its ends, or over a goods token, beyond the measure."""
        if not len(self._cars):
            return set()
        polys = np.concatenate(self._cars)
        route = np.repeat(np.arange(len(self._cars), dtype=np.int64), [len(c) for c in self._cars])
        qi, ti = self._static_tree.query(polys, predicate="intersects")
        kind, owner, g = self._static_kind[ti], self._static_owner[ti], route[qi]
        keep = ((kind == 1) & (owner != self._ends[g, 0]) & (owner != self._ends[g, 1])) | (kind == 3)
        qi, ti, g = qi[keep], ti[keep], g[keep]
        if not len(qi):
            return set()
        share = shapely.area(shapely.intersection(polys[qi], self._static[ti])) / self._static_area[ti]
        return set(g[share > MARKER_SHARE].tolist())

    def hit_sets(self, group: int, cars: np.ndarray, layout: np.ndarray, count: int, but: int = -1) -> list[dict[tuple[int, int], float]]:
        """For each of `count` layouts of route `group` (car k belongs to layout `layout[k]`): the things it covers
        beyond the measure, (kind, owner) -> the worst share, with kind 0 a route's cars, 1 a marker, 2 a name,
        3 a goods token; the cars of route `but` are not counted."""
        qi, kind, owner, share = self._shares(group, cars)
        keep = ~((kind == 0) & (owner == but))
        out: list[dict[tuple[int, int], float]] = [{} for _ in range(count)]
        for t, kd, ow, sh in zip(layout[qi[keep]].tolist(), kind[keep].tolist(), owner[keep].tolist(), share[keep].tolist()):
            d = out[t]
            d[kd, ow] = max(d.get((kd, ow), 0.0), sh)
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
    laid: Laid  # the tries laid out together, this one the `index`-th
    index: int

    @property
    def plan(self) -> RoutePlan:
        """The route laid out with it."""
        return self.laid.plan(self.index)

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


def clear_bend(plan: BoardPlan, group: int, obstacles: Obstacles, layout: Layout | None = None, *, stretch: float = 1.0,
               written_only: bool = True) -> BendSuggestion | None:
    """The bend point (or, for a route that has some, the shift of all its bend points) nearest the current
    drawing that leaves route `group` covering nothing; None when no bend tried does.

    A bent route is longer; it may be no longer than its straight line plus `stretch` car lengths (or than
    its spaces need plus that, for a short line), so its cars are not spread far apart. With `written_only`
    the bend point is rounded as a board file would hold it (a suggestion to write); without, it is any point
    (the router's own bends). A bend whose own cars would overlap one another (a curve too tight) is never
    suggested."""
    layout = layout or Layout(plan.board)
    for batch in _bend_tries(plan, group, layout, stretch, written_only):
        ok = obstacles.clear(group, batch.cars, batch.which, len(batch.tries))
        for k in np.flatnonzero(ok).tolist():
            if batch.own_ok(k):
                return batch.tries[k]
    return None


class _Batch:
    """The bend points tried at one distance aside: each try, its cars (car k belongs to try `which[k]`), and
    whether each try's cars stay clear of one another (`own_ok`, worked out for the tries asked about only: most
    tries are turned down for what they cover first)."""

    def __init__(self, plan: BoardPlan, tries: list[BendSuggestion], cars: np.ndarray, which: np.ndarray):
        self.plan = plan
        self.tries = tries
        self.cars = cars
        self.which = which
        self._own: dict[int, bool] = {}

    def own_ok(self, k: int) -> bool:
        """Do the cars of try `k` keep off one another?"""
        if k not in self._own:
            self.own_ok_of([k])
        return self._own[k]

    def own_ok_of(self, ks: list[int]) -> None:
        """Work out `own_ok` of the tries `ks` at once."""
        ks = [k for k in ks if k not in self._own]
        if not ks:
            return
        pick = np.isin(self.which, ks)
        # The tries' cars, numbered 0..len(ks)-1 in the order they come (the order of `which`).
        order = sorted(ks)
        which = np.searchsorted(np.array(order), self.which[pick])
        ok = _own_cars_clear(self.plan, len(order), self.cars[pick], which)
        self._own.update(zip(order, ok.tolist()))


def _bend_tries(plan: BoardPlan, group: int, layout: Layout, stretch: float, written_only: bool):
    """The bend points `clear_bend` tries for route `group`, nearest first, one `_Batch` per distance aside."""
    rp = plan.routes[group]
    members = group_members(rp)
    entry = next((r for r in members if r.bend), members[0])
    pa, pb = rp.centerline[0], rp.centerline[-1]  # its places, or the entries it ends at
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    chord = math.hypot(dx, dy)
    if chord == 0:
        return
    nx, ny = -dy / chord, dx / chord
    need = max(r.length for r in members) * plan.car * 0.93 + 2 * plan.clear
    most = max(chord, need / 0.93) + stretch * plan.car
    now = [plan.to_map(*p) for p in layout.bend_points(entry)]
    if entry.from_ != rp.ends[0]:
        now.reverse()

    def tries_of(aside: float) -> list[tuple[tuple[tuple[float, float], ...], list[tuple[float, float]]]]:
        """(bend as written, points the curve goes through) of each try at `aside` car lengths to either side."""
        tries = []
        for along in (_ALONG if not now else (0.0,)):
            for side in (1, -1):
                off = aside * plan.car * side
                if now:
                    mm = [(x + nx * off, y + ny * off) for x, y in now]
                else:
                    mm = [(pa[0] + dx * along + nx * off, pa[1] + dy * along + ny * off)]
                if written_only:
                    # Rounded as a board file would hold it, and drawn from that.
                    written = tuple(tuple(layout.written(*plan.to_board(x, y))) for x, y in mm)
                    mm = [plan.to_map(*p) for p in layout.bend_points(entry.model_copy(update={"bend": written}))]
                else:
                    written = tuple(plan.to_board(x, y) for x, y in mm)
                tries.append((written, [pa, *mm, pb]))
        return tries

    if written_only:  # the checks' suggestions: most routes are cleared near, so one distance at a time
        for aside in _ASIDE:
            yield from _lay_tries(plan, group, rp, members, entry, [(aside, tries_of(aside))], need, most)
    else:  # the router's search mostly tries every distance: all at once
        yield from _lay_tries(plan, group, rp, members, entry, [(aside, tries_of(aside)) for aside in _ASIDE], need, most)


def _lay_tries(plan: BoardPlan, group: int, rp: RoutePlan, members: list[Route], entry: Route, asides: list, need: float,
               most: float):
    """The `_Batch` of each (distance aside, tries) of `asides` that has tries neither too short nor too long:
    the curves of all the tries drawn at once, then all laid out in one batch (each try is laid out as it would
    be on its own)."""
    tries = [(aside, written, pts) for aside, ts in asides for written, pts in ts]
    by_size: dict[int, list[int]] = {}
    for k, (_, _, pts) in enumerate(tries):
        by_size.setdefault(len(pts), []).append(k)
    curves: list = [[] for _ in tries]  # lists of points, or (n, 2) arrays
    lengths = [0.0] * len(tries)
    for size, ks in by_size.items():
        if size < 3:
            for k in ks:
                curves[k] = smooth(tries[k][2])
                lengths[k] = _length(curves[k])
            continue
        drawn = smooth_many(np.array([tries[k][2] for k in ks], dtype=float))
        steps = np.diff(drawn, axis=1)
        # The lengths only decide which tries are kept (need <= length <= most): summed in one array operation,
        # and again as _length sums them (math.hypot, one by one) for a try within rounding of either bound.
        rough = np.hypot(steps[..., 0], steps[..., 1]).sum(axis=1)
        near = (np.abs(rough - need) <= most * 1e-9) | (np.abs(rough - most) <= most * 1e-9)
        for k, curve, n, again in zip(ks, drawn, rough.tolist(), near.tolist()):
            curves[k] = curve  # an (n, 2) array, from the first point as given
            lengths[k] = sum(map(math.hypot, *np.diff(curve, axis=0).T.tolist())) if again else n
    kept = [(aside, written, line) for (aside, written, _), line, n in zip(tries, curves, lengths) if need <= n <= most]
    if not kept:
        return
    laid = Laid([(rp.ends, members, line, "bend") for _, _, line in kept], plan.car, plan.clear, plan.space_width, plan.track_gap)
    cars = laid.rectangles(plan.space_length, plan.space_width)
    first = 0
    for aside, _ in asides:
        count = 0
        while first + count < len(kept) and kept[first + count][0] == aside:
            count += 1
        if not count:
            continue
        suggestions = []
        for k in range(first, first + count):
            written = kept[k][1]
            if entry.from_ != rp.ends[0]:
                written = tuple(reversed(written))
            suggestions.append(BendSuggestion(group, entry, written, aside, laid, k))
        which = np.repeat(np.arange(count), laid.counts[first:first + count])
        yield _Batch(plan, suggestions, cars[_car_span(laid, first, count)], which)
        first += count


def _car_span(laid: Laid, first: int, count: int) -> slice:
    """Where the cars of layouts first..first+count-1 are in `laid.rectangles()` (all layouts, one after the other)."""
    start = int(laid.counts[:first].sum())
    return slice(start, start + int(laid.counts[first:first + count].sum()))


class _Tries:
    """The batches of `_bend_tries` of one route, made as first needed and kept (they depend on the route alone)."""

    def __init__(self, plan: BoardPlan, group: int, layout: Layout, stretch: float, written_only: bool):
        self._gen = _bend_tries(plan, group, layout, stretch, written_only)
        self._done: list[_Batch] = []

    def __iter__(self):
        yield from self._done
        for batch in self._gen:
            self._done.append(batch)
            yield batch


def _own_cars_clear(plan: BoardPlan, count: int, cars: np.ndarray, which: np.ndarray) -> np.ndarray:
    """For each of `count` laid-out tries: do its cars keep off one another (next cars of a track, and the tracks side by side)?"""
    ok = np.ones(count, dtype=bool)
    if not len(cars):
        return ok
    # Every pair of cars of one try (the cars of a try are consecutive), those whose boxes meet, those that intersect.
    counts = np.bincount(which, minlength=count).tolist()
    firsts = np.cumsum([0, *counts[:-1]]).tolist()
    pairs = [np.triu_indices(n, 1) for n in counts]
    qi = np.concatenate([a + f for (a, _), f in zip(pairs, firsts)])
    ti = np.concatenate([b + f for (_, b), f in zip(pairs, firsts)])
    bounds = shapely.bounds(cars)
    a, b = bounds[qi], bounds[ti]
    keep = (a[:, 0] <= b[:, 2]) & (b[:, 0] <= a[:, 2]) & (a[:, 1] <= b[:, 3]) & (b[:, 1] <= a[:, 3])
    qi, ti = qi[keep], ti[keep]
    keep = shapely.intersects(cars[qi], cars[ti])
    qi, ti = qi[keep], ti[keep]
    if len(qi):
        shared = shapely.area(shapely.intersection(cars[qi], cars[ti])) / (plan.space_length * plan.space_width)
        ok[which[qi[shared > CAR_SHARE]]] = False
    return ok


#: A move may leave a thing a route covers covered by at most this much more (of a car, or of the marker).
_WORSE = 0.005


_KINDS = {"car": 0, "marker": 1, "label": 2, "token": 3}


def _hit_set(hits: list[Hit], but: int = -1) -> dict[tuple[int, int], float]:
    """`Obstacles.hits` of a route as drawn now as `Obstacles.hit_sets` gives them (the same worst shares, read from
    the list the obstacles keep rather than worked out again); the cars of route `but` are not counted."""
    return {(_KINDS[h.kind], h.route if h.kind == "car" else h.place): h.share for h in hits if not (h.kind == "car" and h.route == but)}


def _fewer(after: dict[tuple[int, int], float], before: dict[tuple[int, int], float], strict: bool = True) -> bool:
    """Does `after` cover only things `before` covers, none of them more, and (`strict`) fewer of them?"""
    if strict and len(after) >= len(before):
        return False
    return all(k in before and sh <= before[k] + _WORSE for k, sh in after.items())


def better_bend(plan: BoardPlan, group: int, obstacles: Obstacles, layout: Layout, *, stretch: float = 2.0,
                written_only: bool = False, tries: _Tries | None = None) -> tuple[int, BendSuggestion] | None:
    """The bend point that leaves route `group` covering nothing (as `clear_bend`), else the one that leaves
    it covering fewest of the things it covers now and nothing new (nearest first); with how many things it
    still covers. None when no bend tried does better than the route as drawn."""
    now = _hit_set(obstacles.hits(group))
    best: tuple[int, BendSuggestion] | None = None
    for batch in tries if tries is not None else _bend_tries(plan, group, layout, stretch, written_only):
        sets = obstacles.hit_sets(group, batch.cars, batch.which, len(batch.tries))
        fewer = [k for k, hs in enumerate(sets) if _fewer(hs, now)]
        batch.own_ok_of(fewer)
        for k in fewer:
            hs = sets[k]
            if not batch.own_ok(k):
                continue
            if not hs:
                return 0, batch.tries[k]
            if best is None or len(hs) < best[0]:
                best = (len(hs), batch.tries[k])
    return best


def clear_pair(plan: BoardPlan, first: int, second: int, obstacles: Obstacles, layout: Layout, *, stretch: float = 2.0,
               written_only: bool = False, tries: dict[int, _Tries] | None = None) -> tuple[int, tuple[BendSuggestion | None, BendSuggestion | None]] | None:
    """Bend points for two overlapping routes together (either may stay as drawn, None) that separate them and
    leave each covering fewer things than now, nothing new: two routes leaving a town at a narrow angle that no
    single bend point separates (the one moved runs into a neighbour) are fanned apart. The pair covering fewest
    things, then nearest (the sum of the distances aside); with how many things they still cover. None when no
    pair tried is better than the two routes as drawn."""
    options = []
    before = 1  # the overlap of the two
    mutual = max((h.share for h in obstacles.hits(first) if h.kind == "car" and h.route == second), default=CAR_SHARE)
    for g, other in ((first, second), (second, first)):
        now_cars = obstacles.cars_of(g)
        now = _hit_set(obstacles.hits(g), but=other)
        before += len(now)
        mine: list[tuple[int, float, BendSuggestion | None, np.ndarray]] = [(len(now), 0.0, None, now_cars)]
        for batch in tries[g] if tries is not None else _bend_tries(plan, g, layout, stretch, written_only):
            sets = obstacles.hit_sets(g, batch.cars, batch.which, len(batch.tries), but=other)
            fewer = [k for k, hs in enumerate(sets) if _fewer(hs, now, strict=False)]
            batch.own_ok_of(fewer)
            for k in fewer:
                hs = sets[k]
                if batch.own_ok(k):
                    mine.append((len(hs), batch.tries[k].aside, batch.tries[k], batch.cars[batch.which == k]))
        options.append(mine)
    a, b = options
    # Which pairs of tries keep the two routes' cars apart: one query of all of the second's cars.
    b_cars = np.concatenate([c for *_, c in b])
    b_which = np.repeat(np.arange(len(b)), [len(c) for *_, c in b])
    tree = STRtree(b_cars)
    best: tuple[int, float, int, int] | None = None
    for i, (na, da, sa, ca) in enumerate(a):
        qi, ti = tree.query(ca, predicate="intersects")
        worst = np.zeros(len(b))
        if len(qi):
            shared = shapely.area(shapely.intersection(ca[qi], b_cars[ti]))
            np.maximum.at(worst, b_which[ti], shared / (plan.space_length * plan.space_width))
        for j, (nb, db, sb, _) in enumerate(b):
            if sa is None and sb is None or worst[j] > mutual + _WORSE:
                continue
            left = na + nb + int(worst[j] > CAR_SHARE)
            if left >= before:
                continue
            key = (left, da + db, i, j)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return best[0], (a[best[2]][2], b[best[3]][2])


def untangle(plan: BoardPlan, rounds: int = 3) -> list[int]:
    """Give a bend point to each route whose cars the router's shapes leave over another route's cars, a marker
    or a goods token, when one draws it clear (`clear_bend`), else when one leaves it covering fewer of them and
    nothing new (`better_bend`); two overlapping routes neither of which one bend point separates get a bend
    point each, fanned apart (`clear_pair`). Routes with bend points in the board file are followed as given.
    Changes `plan.routes` in place (before the names are placed); returns the routes changed.

    The cars of all routes are laid out once a round; a move redraws only the routes moved (`Obstacles.replace`).
    Every move lowers the number of things the moved routes cover and adds none, so the rounds only get better."""
    from .conflicts import DrawnCars, car_overlaps

    layout = Layout(plan.board)
    fixed = {g for g, rp in enumerate(plan.routes) if rp.shape == "bend"}
    changed: list[int] = []
    failed: set[int] = set()  # routes no bend point improves: not searched again
    pair_failed: set[tuple[int, int]] = set()  # pairs no two bend points improve
    cache: dict[int, _Tries] = {}  # the bend points tried for each route, until it moves

    def tries(g: int) -> _Tries:
        if g not in cache:
            cache[g] = _Tries(plan, g, layout, 2.0, False)
        return cache[g]

    for _ in range(rounds):
        cars = DrawnCars.of(plan)
        obstacles = Obstacles(plan, cars)
        todo = [(o.first, o.second) for o in car_overlaps(plan, CAR_SHARE, cars)]
        covering = obstacles.over_markers()
        todo += [(g, g) for g in range(len(plan.routes)) if g not in fixed and g in covering]
        moved = False
        for pair in todo:
            if pair[0] != pair[1] and not any(h.kind == "car" and h.route == pair[1] for h in obstacles.hits(pair[0])):
                continue  # already cleared by an earlier move
            options = []
            for g in dict.fromkeys(pair):
                if g in fixed or g in failed:
                    continue
                found = better_bend(plan, g, obstacles, layout, tries=tries(g))
                if found is None:
                    failed.add(g)
                else:
                    # How many things it stops covering (the most first), then how far it moves.
                    left, bend = found
                    gain = len(obstacles.hits(g)) - left
                    options.append((-gain, bend.aside, g, [bend]))
            if pair[0] != pair[1] and not (set(pair) & fixed) and pair not in pair_failed and not any(o[0] == -len(obstacles.hits(o[2])) for o in options):
                both = clear_pair(plan, pair[0], pair[1], obstacles, layout, tries={g: tries(g) for g in pair})
                if both is None:
                    pair_failed.add(pair)
                else:
                    left, moves = both
                    gain = len({(h.kind, h.route, h.place) for g in pair for h in obstacles.hits(g) if not (h.kind == "car" and h.route in pair)}) + 1 - left
                    options.append((-gain, sum(m.aside for m in moves if m is not None), -1, [m for m in moves if m is not None]))
            if not options:
                continue
            *_, moves = min(options, key=lambda o: o[:3])
            for found in moves:
                plan.routes[found.group] = found.plan
                cache.pop(found.group, None)
                changed.append(found.group)
                moved = True
                obstacles.replace(found.group, space_polygons([s for t in found.plan.tracks for s in t.spaces], plan.space_length, plan.space_width))
        if not moved:
            break
    return changed


def _length(line: list[tuple[float, float]]) -> float:
    return sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(line, line[1:]))
