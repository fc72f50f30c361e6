"""A quick layout of an edited board from the last one drawn, shown while `render`'s own layout is made.

Laying out a whole board (`render.plan.plan_board`: every route's candidate shapes
against each other, the untangling bends, every name) takes a second or more of CPU
on Europe; a drag or a save changes one place or route. `quick_plan(old, board,
variant)` keeps everything the edit did not touch as `old` has it (the shapes of the
untouched routes, the names that are not near the change, the frame and legend) and
lays again only:
- the places that moved (or were renamed, or their name was dragged): their markers and names;
- the routes that changed or end at a moved place: each takes the candidate shape of
  the router (`render.plan`'s own candidates) that covers least of the kept routes'
  cars and of other places' markers;
- the names of the places near a change (the ones a moved marker or re-laid route
  could now cover), placed by the renderer's label placer around the kept ones.

The page shows that at once; the exact layout (`plan_board`, the board as `render`
draws it) follows a moment later and replaces it. When the edit changes what the
quick layout cannot follow (places added or removed, the car size, the title, the
colours, goods, the rules' scoring), `quick_plan` returns None and the exact layout
is made first. `same_drawing` says when an edit changes nothing drawn at all (a
ticket): the old layout is then exact as it is.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace
from typing import Any

from ..geometry import Layout
from ..model.board import Board, Route

# A place is moved when its marker moves more than this share of a car length (a drag moves it by much more;
# a lat/lon board's centre shifts every place by a hair when one moves).
MOVED = 0.02


def _route_key(r: Route) -> tuple[Any, ...]:
    return (r.id, r.from_, r.to, r.length, r.tracks, r.ferry, r.tunnel, r.from_entry, r.to_entry, r.bend)


def _drawn_fixed(board: Board) -> tuple[Any, ...]:
    """What a quick layout cannot follow when it changes."""
    return (board.meta, board.colors, board.projection, board.drawing, board.goods,
            tuple((p.id, p.kind, p.tags, p.entries) for p in board.places))


def same_drawing(old: Any, board: Board, variant: Any) -> bool:
    """True when `board` (and `variant`) draw exactly as the plan `old` (only tickets, decks or checks changed)."""
    ob = old.board
    return (_drawn_fixed(ob) == _drawn_fixed(board)
            and [(p.name, p.lat, p.lon, p.x, p.y, p.label) for p in ob.places] == [(p.name, p.lat, p.lon, p.x, p.y, p.label) for p in board.places]
            and [_route_key(r) for r in ob.routes] == [_route_key(r) for r in board.routes]
            and _scoring(old.variant) == _scoring(variant))


def _scoring(variant: Any) -> Any:
    if variant is None:
        return None
    return (variant.scoring, variant.stations, variant.flags)


def rebind(old: Any, board: Board, variant: Any) -> Any:
    """The plan `old` for the equal-drawing `board` (its places and routes are the new board's objects)."""
    by_old = {id(o): r for o, r in zip(old.board.routes, board.routes)}  # the same routes in the same order
    out = []
    for rp in old.routes:
        out.append(replace(rp, tracks=[replace(t, route=by_old[id(t.route)]) for t in rp.tracks]))
    places = [replace(pp, place=p) for pp, p in zip(old.places, board.places)]
    return replace(old, board=board, variant=variant, places=places, routes=out)


def quick_plan(old: Any, board: Board, variant: Any) -> Any | None:
    """A layout of `board` kept from the plan `old` where the edit did not reach (see the module docstring); None
    when the edit changes what it cannot follow."""
    import numpy as np
    import shapely
    from shapely import STRtree
    from shapely.geometry import box

    from ..render import plan as rp_mod

    ob = old.board
    if _drawn_fixed(ob) != _drawn_fixed(board) or _scoring(old.variant) != _scoring(variant):
        return None
    if any(p.entries for p in board.places):
        return None
    layout = Layout(board)
    car = old.car
    scale = car / layout.car_length
    if not math.isfinite(scale) or abs(scale / old.scale - 1) > 0.05:
        return None  # the car size follows the routes' lengths and changed much: everything is drawn bigger or smaller
    scale = old.scale  # a board without drawing.car_length: the median fit of its routes moves a little with a place
    ox, oy = old.origin

    def to_mm(x: float, y: float) -> tuple[float, float]:
        return ((x - ox) * scale, (y - oy) * scale)

    x0, y0, x1, y1 = old.map_box
    moved: set[str] = set()
    relabel: set[str] = set()
    places = []
    # On a lat/lon board the projection's centre is the places' mean: moving one shifts them all by a hair,
    # nearly the same for all. That common shift (the median) is left out: the others stay where they are drawn.
    now = [to_mm(*layout.positions[p.id]) for p in board.places]
    sx = statistics.median(x - pp.x for (x, _), pp in zip(now, old.places))
    sy = statistics.median(y - pp.y for (_, y), pp in zip(now, old.places))
    for pp, p, (x, y) in zip(old.places, board.places, now):
        x, y = x - sx, y - sy
        if math.hypot(x - pp.x, y - pp.y) > MOVED * car:
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                return None  # off the drawn map: the frame grows
            moved.add(p.id)
        else:
            x, y = pp.x, pp.y
        if p.name != pp.place.name or p.label != pp.place.label or p.id in moved:
            relabel.add(p.id)
        places.append(replace(pp, place=p, x=x, y=y, label=pp.label if p.id not in relabel else None))
    pos = {pp.place.id: (pp.x, pp.y) for pp in places}
    at_place = {layout.positions[pid]: xy for pid, xy in pos.items()}

    def to_drawn(x: float, y: float) -> tuple[float, float]:
        """Board units to the millimetres of this layout: a place's point is where its marker is drawn."""
        if (x, y) in at_place:
            return at_place[(x, y)]
        mx, my = to_mm(x, y)
        return (mx - sx, my - sy)

    # Bundles as the router makes them: routes joining the same two places, in the board's order.
    groups: dict[tuple[str, str], list[Route]] = {}
    for r in board.routes:
        if r.from_ == r.to or r.from_ not in pos or r.to not in pos:
            continue
        groups.setdefault(tuple(sorted((r.from_, r.to))), []).append(r)  # type: ignore[arg-type]
    old_by_members = {tuple(_route_key(r) for r in {id(t.route): t.route for t in rp.tracks}.values()): rp for rp in old.routes}
    routes: list[Any] = []
    fresh: list[int] = []
    for key, members in groups.items():
        found = old_by_members.get(tuple(_route_key(r) for r in members))
        if found is not None and not (set(key) & moved):
            it = iter(members)
            by_old: dict[int, Route] = {}
            tracks = []
            for t in found.tracks:
                if id(t.route) not in by_old:
                    by_old[id(t.route)] = next(it)
                tracks.append(replace(t, route=by_old[id(t.route)]))
            routes.append(replace(found, tracks=tracks))
        else:
            routes.append(None)
            fresh.append(len(routes) - 1)
    if len(fresh) > max(8, len(routes) // 4):
        return None  # most of the board changed: lay it out whole

    length, width = old.space_length, old.space_width
    unit = length * width
    kept = [s for rpl in routes if rpl is not None for t in rpl.tracks for s in t.spaces]
    kept_polys = rp_mod.space_polygons(kept, length, width)
    kept_tree = STRtree(kept_polys)
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in places]), [pp.radius * 1.3 for pp in places], quad_segs=4)
    marker_tree = STRtree(markers)
    index = {pp.place.id: i for i, pp in enumerate(places)}
    keys = list(groups)
    for g in fresh:
        key, members = keys[g], groups[keys[g]]
        options = _laid(rp_mod, rp_mod._candidates(key, members, to_drawn, car, old.clear, width, old.track_gap, layout),
                        key, members, car, old.clear, width, old.track_gap)
        best = None
        for pref, plan in options:
            ps = rp_mod.space_polygons([s for t in plan.tracks for s in t.spaces], length, width * 1.1)
            cost = pref
            if len(ps):
                qi, ti = kept_tree.query(ps, predicate="intersects")
                if len(qi):
                    cost += float(shapely.area(shapely.intersection(ps[qi], kept_polys[ti])).sum()) / unit * 3
                qi, ti = marker_tree.query(ps, predicate="intersects")
                own = {index[k] for k in key}
                keep = np.array([int(t) not in own for t in ti], dtype=bool)
                if keep.any():
                    cost += float(shapely.area(shapely.intersection(ps[qi[keep]], markers[ti[keep]])).sum()) / unit * 10
            if best is None or cost < best[0]:
                best = (cost, plan)
        assert best is not None
        routes[g] = rp_mod._with_rails(best[1], old.clear, car)

    # Names near a change are placed again: a moved place's, the ends of re-laid routes', and any kept name
    # the new markers or routes now reach.
    touched = [box(pp.x - pp.radius * 2, pp.y - pp.radius * 2, pp.x + pp.radius * 2, pp.y + pp.radius * 2)
               for pp in places if pp.place.id in moved]
    for g in fresh:
        relabel.update(keys[g])
        line = routes[g].centerline
        xs, ys = [p[0] for p in line], [p[1] for p in line]
        touched.append(box(min(xs) - car, min(ys) - car, max(xs) + car, max(ys) + car))
    old_lines = {rp_old.ends: rp_old.centerline for rp_old in old.routes}
    for g in fresh:
        line = old_lines.get(keys[g])
        if line:
            xs, ys = [p[0] for p in line], [p[1] for p in line]
            touched.append(box(min(xs) - car, min(ys) - car, max(xs) + car, max(ys) + car))
    if touched:
        area = shapely.union_all(touched)
        for pp in places:
            if pp.label is not None and area.intersects(box(*pp.label.box)):
                relabel.add(pp.place.id)
    places = [replace(pp, label=None) if pp.place.id in relabel else pp for pp in places]
    if relabel:
        all_spaces = rp_mod.space_polygons([s for rpl in routes for t in rpl.tracks for s in t.spaces], length, width)
        obstacles = list(all_spaces)
        obstacles += list(shapely.buffer(shapely.points([(pp.x, pp.y) for pp in places]), [pp.radius * 1.15 for pp in places], quad_segs=4))
        if old.tokens:
            obstacles += list(shapely.buffer(shapely.points([(tk.x, tk.y) for tk in old.tokens]), [tk.r for tk in old.tokens], quad_segs=3))
        obstacles += [box(*pp.label.box) for pp in places if pp.label is not None]
        degree = {p.id: 0 for p in board.places}
        for r in board.routes:
            for end in r.ends:
                if end in degree:
                    degree[end] += len(r.tracks)
        rp_mod._place_labels([pp for pp in places if pp.place.id in relabel], obstacles, old.options, car, degree, scale)

    land = old.land
    if moved or fresh:
        changed = [(pp.x, pp.y) for pp in old.places if pp.place.id in moved] + [(pp.x, pp.y) for pp in places if pp.place.id in moved]
        lines = [routes[g].centerline for g in fresh] + [line for g in fresh if (line := old_lines.get(keys[g]))]
        land = _local_land(rp_mod, old, places, routes, changed, lines, car)
    return replace(old, board=board, variant=variant, places=places, routes=routes, land=land)


# How far a change of the places' discs or the routes' bands reaches into the land around them, in car lengths: render's
# own rounding of the land's outline (render.plan._land closes the union of the shapes by 0.9 car, which reaches twice
# that), and the size of a place's disc (1.5 car) and a route's band (0.75 car).
LAND_REACH = 2.0
DISC = 1.6


def _local_land(rp_mod: Any, old: Any, places: list[Any], routes: list[Any], points: list[tuple[float, float]],
                lines: list[list[tuple[float, float]]], car: float) -> list[Any]:
    """The land of the new layout made again only around what changed (render's own `_land` of the places and routes
    near it, cut to that area); elsewhere the old land as it was drawn."""
    import shapely
    from shapely.geometry import Polygon, box

    reach = LAND_REACH * car
    boxes = [(x - DISC * car, y - DISC * car, x + DISC * car, y + DISC * car) for x, y in points]
    for line in lines:
        xs, ys = [p[0] for p in line], [p[1] for p in line]
        boxes.append((min(xs) - car, min(ys) - car, max(xs) + car, max(ys) + car))
    area = shapely.union_all([box(x0 - reach, y0 - reach, x1 + reach, y1 + reach) for x0, y0, x1, y1 in boxes])
    near = area.buffer(reach, quad_segs=2)  # the shapes that reach into the area
    near_places = [pp for pp in places if near.intersects(shapely.Point(pp.x, pp.y).buffer(DISC * car, quad_segs=2))]
    near_routes = [rp for rp in routes if len(rp.centerline) > 1 and near.intersects(shapely.LineString(rp.centerline))]
    local = rp_mod._land(near_places, near_routes, car).intersection(area) if near_places or near_routes else Polygon()
    kept = shapely.union_all([Polygon(rings[0], rings[1:]) for rings in old.land]).difference(area)
    return rp_mod._land_rings(kept.union(local).intersection(box(*old.map_box)))


def _laid(rp_mod: Any, candidates: list[tuple[Any, ...]], key: tuple[str, str], members: list[Route], car: float, clear: float,
          width: float, gap: float) -> list[tuple[float, Any]]:
    """(preference, laid-out shape) of the router's candidates, which are (preference, shape name, line)."""
    if candidates and len(candidates[0]) == 2:  # already laid out
        return candidates  # type: ignore[return-value]
    specs = [(key, members, line, shape) for _, shape, line in candidates]
    lay_routes = getattr(rp_mod, "lay_routes", None)
    if lay_routes is not None:
        plans = lay_routes(specs, car, clear, width, gap)
    else:
        plans = [rp_mod.lay_route(k, m, line, shape, car, clear, width, gap) for k, m, line, shape in specs]
    return [(c[0], p) for c, p in zip(candidates, plans)]
