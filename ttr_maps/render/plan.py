"""The board plan: where everything goes, in millimetres, before anything is drawn.

The plan is pure geometry built on `Layout` (projected positions, car size): route
spaces, place markers, goods tokens, labels placed to avoid each other, the land
shape, the legend blocks, the frame and the score track. The SVG writer only
draws it; the print tiler only needs its size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Polygon, box

from ..geometry import Layout
from ..model.board import Board, Place, Route
from ..model.variant import Variant
from .overlap import BOX_TOLERANCE, box_areas, quad_coords, shared_areas
from .palette import Palette
from .paths import Polyline, arc_angles, arc_points_many, offset, smooth
from .text import clean, fit_size, pdf_safe, text_width

Box = tuple[float, float, float, float]

DEFAULT_CAR_MM = 24.0
BIG_CITY = "big-city"


@dataclass(frozen=True)
class BoardOptions:
    """What to draw and how big. Sizes follow `car_mm`, the length of one route space."""

    car_mm: float = DEFAULT_CAR_MM
    colorblind: bool = False
    shadows: bool = True
    score_track: bool = True
    legend: bool = True
    title: bool = True
    pdf_text: bool = False  # keep text to the characters of the PDF base fonts

    def text(self, s: str) -> str:
        s = clean(s)
        return pdf_safe(s) if self.pdf_text else s


@dataclass
class SpacePlan:
    x: float
    y: float
    angle: float  # degrees, in (-90, 90] so a letter on it reads upright
    color: str
    loco: bool
    tunnel: bool

    def polygon(self, length: float, width: float) -> Polygon:
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        hl, hw = length / 2, width / 2
        return Polygon(
            [(self.x + ca * dx - sa * dy, self.y + sa * dx + ca * dy) for dx, dy in ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))]
        )


def space_polygons(spaces: list[SpacePlan], length: float, width: float) -> np.ndarray:
    """The rectangles of many spaces at once, as an array of shapely polygons."""
    if not spaces:
        return np.empty(0, dtype=object)
    xy = np.array([(s.x, s.y) for s in spaces])
    return rectangles(xy[:, 0], xy[:, 1], np.array([s.angle for s in spaces], dtype=float), length, width)


def rectangles(x: np.ndarray, y: np.ndarray, angle: np.ndarray, length: float, width: float) -> np.ndarray:
    """The rectangles of spaces centred at (x, y) at `angle` degrees, as `space_polygons` makes them."""
    if not len(x):
        return np.empty(0, dtype=object)
    a = np.radians(angle)
    ca, sa = np.cos(a)[:, None], np.sin(a)[:, None]
    dx = np.array([-1, 1, 1, -1]) * length / 2
    dy = np.array([-1, -1, 1, 1]) * width / 2
    xs = x[:, None] + ca * dx - sa * dy
    ys = y[:, None] + sa * dx + ca * dy
    return shapely.polygons(np.stack([xs, ys], axis=-1))


@dataclass
class TrackPlan:
    route: Route
    color: str
    spaces: list[SpacePlan]
    rail: list[tuple[float, float]]  # the line under the spaces, from the first to the last
    shift: float = 0.0  # offset from the route's centre line (parallel tracks)


@dataclass
class RoutePlan:
    ends: tuple[str, str]
    shape: str  # straight, arc or bend
    centerline: list[tuple[float, float]]
    tracks: list[TrackPlan]


@dataclass
class LabelPlan:
    text: str
    x: float  # centre of the text
    y: float  # baseline
    size: float
    bold: bool
    italic: bool
    box: Box


@dataclass
class PlacePlan:
    place: Place
    x: float
    y: float
    radius: float
    big: bool
    outward: float  # radians, from the board's centre towards this place (country arrows)
    label: LabelPlan | None = None
    entries: tuple[tuple[float, float], ...] = ()  # its other drawn points (docs/rules.md#entry-points)


@dataclass
class TokenPlan:
    place: str
    x: float
    y: float
    r: float
    color: str
    values: tuple[int, ...]


@dataclass
class Block:
    """A legend block (title, colours, scoring) and where it landed."""

    kind: str
    w: float
    h: float
    x: float = 0.0
    y: float = 0.0
    size: float = 0.0  # the main font size (the title's)

    @property
    def box(self) -> Box:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass
class Cell:
    """One square of the score track."""

    x: float
    y: float
    w: float
    h: float
    number: int


@dataclass
class BoardPlan:
    board: Board
    variant: Variant | None
    options: BoardOptions
    palette: Palette
    car: float
    space_length: float
    space_width: float
    track_gap: float
    clear: float
    places: list[PlacePlan]
    routes: list[RoutePlan]
    tokens: list[TokenPlan]
    land: list[list[list[tuple[float, float]]]]  # polygons, each a list of rings
    map_box: Box
    blocks: dict[str, Block]
    cells: list[Cell]
    frame: float
    width: float
    height: float
    dx: float  # map coordinates + (dx, dy) = canvas coordinates
    dy: float
    scale: float  # mm per board unit
    legend_rows: list[tuple[str, str]] = field(default_factory=list)
    origin: tuple[float, float] = (0.0, 0.0)  # the board point (units of the board file) at map (0, 0)

    def place(self, pid: str) -> PlacePlan:
        return self._by_id[pid]

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """Map millimetres back to board units (x/y as a board file writes them; projected km on a lat/lon board)."""
        return (x / self.scale + self.origin[0], y / self.scale + self.origin[1])

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        """Board units to map millimetres."""
        return ((x - self.origin[0]) * self.scale, (y - self.origin[1]) * self.scale)

    def __post_init__(self) -> None:
        self._by_id = {p.place.id: p for p in self.places}


def plan_board(board: Board, variant: Variant | None = None, options: BoardOptions | None = None, *, decor: bool = True,
               meanwhile: Callable[[BoardPlan], object] | None = None) -> BoardPlan:
    """Lay out `board` (and the legend of `variant`) at the car size of `options`.

    With `decor=False`, only what the drawing checks read: the routes (without the rail lines under their
    cars), the places, their names and the goods tokens, placed exactly as in the full plan; no land, legend,
    frame or score track (the plan is not for drawing).

    `meanwhile(draft)`, when given, is called while the land shape is worked out (in a thread of its own), with
    a plan whose routes, places, names and tokens are those of the plan returned, and nothing else yet (no
    land, legend, frame or score track, and sizes of the map alone): `board.render_board` draws the cars,
    markers and names then."""
    opts = options or BoardOptions()
    layout = Layout(board)
    car = opts.car_mm
    scale = car / layout.car_length
    minx, miny, _, _ = layout.bounds

    def to_mm(x: float, y: float) -> tuple[float, float]:
        return ((x - minx) * scale, (y - miny) * scale)

    pos = {pid: to_mm(x, y) for pid, (x, y) in layout.positions.items()}
    clear = layout.city_radius * scale
    space_length = car * 0.86
    space_width = layout.car_width * scale
    track_gap = space_width * 0.14

    palette = Palette(board.colors)
    cx = sum(p[0] for p in pos.values()) / len(pos)
    cy = sum(p[1] for p in pos.values()) / len(pos)

    degree: dict[str, int] = {p.id: 0 for p in board.places}
    for r in board.routes:
        for end in r.ends:
            if end in degree:
                degree[end] += len(r.tracks)

    places = []
    for p in board.places:
        x, y = pos[p.id]
        big = BIG_CITY in p.tags
        radius = car * (0.26 if big else 0.2)
        if p.is_country:
            radius = car * 0.24
        entries = tuple(to_mm(*layout.entry_positions[(p.id, e.id)]) for e in p.entries)
        places.append(PlacePlan(p, x, y, radius, big, math.atan2(y - cy, x - cx), entries=entries))

    tokens = _plan_tokens(board, places, car)
    routes = _plan_routes(board, pos, to_mm, car, clear, space_length, space_width, track_gap, places, layout, tokens, rails=False)
    _untangle(board, routes, places, tokens, car, clear, space_length, space_width, track_gap, scale, (minx, miny), rails=False)
    # The land shape needs the routes' lines alone; it is worked out in a thread of its own while the rails under
    # the cars are laid and the names are placed.
    land_later = _Later(_land, places, routes, car) if decor else None
    if decor:
        _with_rails_many(routes, clear, car)

    obstacles: list[Polygon] = list(space_polygons([s for rp in routes for t in rp.tracks for s in t.spaces], space_length, space_width))
    obstacles += list(shapely.buffer(shapely.points([(pp.x, pp.y) for pp in places]), [pp.radius * 1.15 for pp in places], quad_segs=4))
    if tokens:
        obstacles += list(shapely.buffer(shapely.points([(tk.x, tk.y) for tk in tokens]), [tk.r for tk in tokens], quad_segs=3))
    _place_labels(places, obstacles, opts, car, degree, scale)

    boxes = [pp.label.box for pp in places if pp.label] + shapely.bounds(np.array(obstacles, dtype=object)).tolist()
    x0 = min(b[0] for b in boxes) - car * 0.5
    y0 = min(b[1] for b in boxes) - car * 0.5
    x1 = max(b[2] for b in boxes) + car * 0.5
    y1 = max(b[3] for b in boxes) + car * 0.5
    if not decor:
        return BoardPlan(board, variant, opts, palette, car, space_length, space_width, track_gap, clear, places, routes, tokens, [],
                         (x0, y0, x1, y1), {}, [], 0.0, x1 - x0, y1 - y0, -x0, -y0, scale, origin=(minx, miny))

    named = [pp.label.box for pp in places if pp.label]
    label_boxes = list(shapely.box(*np.array(named, dtype=float).reshape(-1, 4).T)) if named else []  # as `box` makes them
    legend_rows = _legend_rows(board, variant, palette)
    blocks = _size_blocks(board, variant, opts, car, legend_rows, x1 - x0)
    if meanwhile is not None:
        meanwhile(BoardPlan(board, variant, opts, palette, car, space_length, space_width, track_gap, clear, places, routes, tokens, [],
                            (x0, y0, x1, y1), {}, [], 0.0, x1 - x0, y1 - y0, -x0, -y0, scale, origin=(minx, miny)))
    assert land_later is not None
    land_shape = land_later.result()
    map_box = _place_blocks(blocks, (x0, y0, x1, y1), obstacles + label_boxes, land_shape, car)

    land = _land_rings(land_shape.intersection(box(*map_box)))

    frame = car * 0.16
    track = car * 0.5 if opts.score_track else 0.0
    edge = car * 0.14
    around = edge + track + frame
    width = (map_box[2] - map_box[0]) + 2 * around
    height = (map_box[3] - map_box[1]) + 2 * around
    cells = _score_track(width, height, edge, track, car) if opts.score_track else []
    return BoardPlan(
        board=board,
        variant=variant,
        options=opts,
        palette=palette,
        car=car,
        space_length=space_length,
        space_width=space_width,
        track_gap=track_gap,
        clear=clear,
        places=places,
        routes=routes,
        tokens=tokens,
        land=land,
        map_box=map_box,
        blocks=blocks,
        cells=cells,
        frame=frame,
        width=width,
        height=height,
        dx=around - map_box[0],
        dy=around - map_box[1],
        scale=scale,
        legend_rows=legend_rows,
        origin=(minx, miny),
    )


def _plan_routes(
    board: Board,
    pos: dict[str, tuple[float, float]],
    to_mm: Callable[[float, float], tuple[float, float]],
    car: float,
    clear: float,
    space_length: float,
    space_width: float,
    track_gap: float,
    places: list[PlacePlan],
    layout: Layout,
    tokens: list[TokenPlan] = (),  # type: ignore[assignment]
    rails: bool = True,
) -> list[RoutePlan]:
    """Each group of parallel tracks gets the candidate shape that conflicts least with the others.

    Candidates: the straight line when it is long enough, else an arc on either side
    just long enough (and rounder ones); a straight route may also bow out, a
    little or more, to either side. `bend` points are always followed as given.
    A candidate's cost is its preference (straighter is better) plus the area its
    spaces share with the spaces of the shapes already chosen for the other
    routes, penalties that grow with how much of a space is covered (see
    `_candidate_pairs`), and the area it covers of other places' markers and of
    goods tokens, with a large penalty once a marker is more than 5% covered (a
    route over a place reads as stopping there). The choice is refined
    route by route until nothing changes (a few rounds at most).
    """
    # Routes are drawn in bundles by the points they join: two places, or the entries of a place with
    # several drawn points (docs/rules.md#entry-points) the routes end at.
    groups: dict[tuple[tuple[str, str | None], ...], list[Route]] = {}
    for r in board.routes:
        if r.from_ == r.to or r.from_ not in pos or r.to not in pos:
            continue
        ea, eb = layout.route_entries(r)
        groups.setdefault(tuple(sorted(((r.from_, ea), (r.to, eb)), key=lambda e: (e[0], e[1] or ""))), []).append(r)
    bundles = list(groups)
    keys = [(a[0], b[0]) for a, b in bundles]
    lines = _candidate_lines_many([(key, groups[bundle]) for key, bundle in zip(keys, bundles)], to_mm, car, clear, layout)
    laid = Laid([(key, groups[bundle], line, shape) for key, bundle, ls in zip(keys, bundles, lines) for _, shape, line in ls],
                car, clear, space_width, track_gap)
    # (preference, layout in `laid`) of each candidate of each bundle.
    numbers = iter(range(len(laid.specs)))
    options: list[list[tuple[float, int]]] = [[(pref, next(numbers)) for pref, _, _ in ls] for ls in lines]

    place_index = {pp.place.id: i for i, pp in enumerate(places)}
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in places]), [pp.radius * 1.3 for pp in places], quad_segs=4)
    if tokens:
        # Goods tokens are in the way of every route, their own place's too (index >= len(places)).
        markers = np.concatenate([markers, shapely.buffer(shapely.points([(tk.x, tk.y) for tk in tokens]), [tk.r * 1.2 for tk in tokens], quad_segs=3)])
    marker_tree = STRtree(markers)
    unit = space_length * space_width
    # The spaces of every candidate of every bundle, made at once: those of candidate k are the counts[k] after
    # those of the candidates before it.
    counts = laid.counts
    flat = laid.rectangles(space_length, space_width * 1.1)

    # The area of other places' markers (and goods tokens) each candidate covers, for all candidates in one query.
    cand_of = np.repeat(np.arange(len(counts)), counts)
    group_of = np.repeat(np.repeat(np.arange(len(options)), [len(o) for o in options]), counts)
    hit_area = np.zeros(len(counts))
    if len(flat):
        qi, ti = marker_tree.query(flat)
        own = np.array([[place_index[k] for k in key] for key in keys], dtype=np.int64).reshape(-1, 2)
        g = group_of[qi]
        keep = (ti != own[g, 0]) & (ti != own[g, 1])
        qi, ti = qi[keep], ti[keep]
        if len(qi):
            area = shapely.area(shapely.intersection(flat[qi], markers[ti]))
            for c, a in zip(cand_of[qi].tolist(), area.tolist()):
                hit_area[c] += a
    hits_of: list[list[float]] = []
    k = 0
    for opts in options:
        hits_of.append(hit_area[k:k + len(opts)].tolist())
        k += len(opts)

    # Covering another place's marker (or a goods token) is worse than touching a route: a fixed penalty plus the area.
    base = [[(h / unit + 0.4 + 2.0 * (h > 0.05 * unit)) if h > 0.005 * unit else h / unit for h in hs] for hs in hits_of]
    chosen = [min(range(len(o)), key=lambda j, o=o, b=b: o[j][0] + b[j] * 10) for o, b in zip(options, base)]
    # Every candidate of each route with those of other routes whose spaces touch it: (route, candidate, the area
    # shared and the spaces badly covered), as a list, each pair in the order first met.
    clash_lists = _candidate_pairs(flat, counts, [len(o) for o in options], unit)
    pair_dicts: dict[tuple[int, int], dict[tuple[int, int], float]] = {}

    def pair_cost(g: int, j: int) -> dict[tuple[int, int], float]:
        """(other route, its candidate) -> the cost of taking it with candidate j of route g."""
        d = pair_dicts.get((g, j))
        if d is None:
            d = pair_dicts[g, j] = {(g2, j2): c for g2, j2, c in clash_lists[g][j]}
        return d

    def cost(g: int, j: int, skip: int = -1) -> float:
        clash = sum([c for g2, j2, c in clash_lists[g][j] if g2 != skip and chosen[g2] == j2])
        return options[g][j][0] + base[g][j] * 10 + clash

    # A route's costs depend only on the shapes of the routes its candidates touch: a route none of whose
    # neighbours changed since it last chose keeps its choice, so only the "dirty" ones are looked at again.
    neighbours: list[set[int]] = [{g2 for clashes in lists for g2, _, _ in clashes} for lists in clash_lists]
    dirty = [True] * len(options)

    def moved_to(g: int) -> None:
        dirty[g] = True
        for h in neighbours[g]:
            dirty[h] = True

    for _ in range(6):
        # Single moves: each route takes its best shape given the others, until none changes.
        for _ in range(12):
            changed = False
            for g, opts in enumerate(options):
                if len(opts) < 2 or not dirty[g]:
                    continue
                dirty[g] = False
                # cost(g, j) of each j (the same sums, in the same order)
                now = chosen[g]
                costs = [pref + b * 10 + sum([c for g2, j2, c in clashes if chosen[g2] == j2])
                         for (pref, _), b, clashes in zip(opts, base[g], clash_lists[g])]
                # The cheapest, the one taken now among equals, else the first.
                least = min(costs)
                best = now if costs[now] == least else costs.index(least)
                if best != chosen[g]:
                    chosen[g] = best
                    changed = True
                    moved_to(g)
            if not changed:
                break
        # Pair moves: two routes that still clash try every pair of shapes together.
        moved = False
        for g in range(len(options)):
            for h, k, c in clash_lists[g][chosen[g]]:
                if h <= g or chosen[h] != k or c <= 0:
                    continue
                now = cost(g, chosen[g], h) + cost(h, chosen[h], g) + c
                best_pair = (now, chosen[g], chosen[h])
                costs_h = [cost(h, k2, g) for k2 in range(len(options[h]))]
                for j in range(len(options[g])):
                    cj = cost(g, j, h)
                    with_j = pair_cost(g, j)
                    for k2, ch in enumerate(costs_h):
                        total = cj + ch + with_j.get((h, k2), 0.0)
                        if total < best_pair[0] - 1e-9:
                            best_pair = (total, j, k2)
                if best_pair[1:] != (chosen[g], chosen[h]):
                    chosen[g], chosen[h] = best_pair[1], best_pair[2]
                    moved = True
                    moved_to(g)
                    moved_to(h)
        if not moved:
            break
    chosen_plans = [laid.plan(options[g][chosen[g]][1]) for g in range(len(keys))]
    return _with_rails_many(chosen_plans, clear, car) if rails else chosen_plans


def _untangle(board, routes, places, tokens, car, clear, space_length, space_width, track_gap, scale, origin, rails=True) -> None:
    """Bend the routes whose chosen shapes still overlap (`bends.untangle`), on a draft plan of the routes alone."""
    from .bends import untangle

    draft = BoardPlan(board, None, BoardOptions(car_mm=car), Palette(board.colors), car, space_length, space_width, track_gap, clear,
                      places, routes, tokens, [], (0.0, 0.0, 0.0, 0.0), {}, [], 0.0, 0.0, 0.0, 0.0, 0.0, scale, origin=origin)
    changed = list(dict.fromkeys(untangle(draft)))
    if rails:
        _with_rails_many([draft.routes[g] for g in changed], clear, car)
    for g in changed:
        routes[g] = draft.routes[g]


#: A shared area (of a space) above which two spaces surely intersect: the clipping's rounding leaves no more than
#: about 1e-13 of a space where two spaces only touch or miss (overlap.TOUCH already drops what is under 1e-12).
_SURE = 1e-9


def _candidate_pairs(flat: np.ndarray, counts: np.ndarray, per_route: list[int], unit: float) -> list[list[list[tuple[int, int, float]]]]:
    """For each candidate j of each route g, the candidates of other routes it clashes with, as (other route, its
    candidate, cost of taking both), in the order the pairs are first met: `flat` the spaces of every candidate,
    `counts[k]` of them of the k-th candidate, `per_route[g]` candidates of route g, one after the other.

    The cost is three times the shared area in spaces plus, for every pair of spaces,
    a step for each threshold their overlap passes: 0.5 above 3% of a space, 1 above
    10%, 5 above 20% and 5 more above 25% (a space more than a quarter covered is
    one players can misread, so it outweighs any bow). It is symmetric, so choosing
    the best candidate route by route never makes the total worse.
    """
    counts = np.asarray(counts, dtype=np.int64)
    out: list[list[list[tuple[int, int, float]]]] = [[[] for _ in range(k)] for k in per_route]
    if not len(counts) or not counts.sum():
        return out
    groups = len(per_route)
    gid = np.repeat(np.repeat(np.arange(groups), per_route), counts)
    cid = np.repeat(np.arange(len(counts)) - np.repeat(np.cumsum(per_route) - per_route, per_route), counts)
    # The pairs of different routes' spaces whose boxes meet (most pairs of boxes are two candidates of one
    # route), in the order a query of the index finds them, and the area each pair shares. Only pairs that
    # intersect count: two spaces that do not share an area of 0 (they are left out below with the pairs that
    # only touch), so GEOS's exact test is needed only for an area too small to be sure of (`_SURE`).
    qi, ti = STRtree(flat).query(flat)
    keep = gid[qi] < gid[ti]
    qi, ti = qi[keep], ti[keep]
    if not len(qi):
        return out
    corners = quad_coords(flat)
    areas = shared_areas(corners[qi], corners[ti])
    unsure = np.flatnonzero((areas > 0) & (areas < _SURE * unit))
    if len(unsure):
        areas[unsure[~shapely.intersects(flat[qi[unsure]], flat[ti[unsure]])]] = 0.0
    costs = areas / unit * 3 + (areas > 0.03 * unit) * 0.5 + (areas > 0.1 * unit) * 1.0 + (areas > 0.2 * unit) * 5.0 + (areas > 0.25 * unit) * 5.0
    # Sum the costs per pair of candidates (in the order found, as a running sum would).
    pos = costs > 0
    qi, ti, costs = qi[pos], ti[pos], costs[pos]
    if not len(qi):
        return out
    width = int(cid.max()) + 1
    ka, kb = gid[qi] * width + cid[qi], gid[ti] * width + cid[ti]
    pairs, first, inverse = np.unique(ka * (groups * width) + kb, return_index=True, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=costs, minlength=len(pairs))
    order = np.argsort(first, kind="stable")  # the order the pairs were first met
    a, b, c = ka[first[order]], kb[first[order]], sums[order]
    # Each pair both ways (a's with b, then b's with a), the entries of each candidate in the order met.
    mine, other = np.empty(2 * len(a), dtype=np.int64), np.empty(2 * len(a), dtype=np.int64)
    mine[0::2], mine[1::2] = a, b
    other[0::2], other[1::2] = b, a
    by = np.argsort(mine, kind="stable")
    mine, other, c = mine[by], other[by], np.repeat(c, 2)[by]
    entries = list(zip((other // width).tolist(), (other % width).tolist(), c.tolist()))
    keys, starts = np.unique(mine, return_index=True)
    ends = np.append(starts[1:], len(mine)).tolist()
    for k, s, e in zip(keys.tolist(), starts.tolist(), ends):
        out[k // width][k % width] = entries[s:e]
    return out


def _with_rails(rp: RoutePlan, clear: float, car: float) -> RoutePlan:
    """The chosen shape, now with the rail line under each track (skipped for the candidates)."""
    return _with_rails_many([rp], clear, car)[0]


def _with_rails_many(plans: list[RoutePlan], clear: float, car: float) -> list[RoutePlan]:
    """`_with_rails` of many route plans at once: the rail points `_spaces` makes (`rail=True`), the look-ups
    along every line in array computations (lines of as many points together), the same numbers."""
    polys = [Polyline(rp.centerline) for rp in plans]
    span = car * 0.4
    # The arc lengths along each track's line where its rail has a point, grouped by how many points the line has.
    by_size: dict[int, tuple[list[int], list[float], list[float], list[bool], list[int]]] = {}
    rows: dict[int, dict[int, int]] = {}
    tracks = []
    for i, (rp, poly) in enumerate(zip(plans, polys)):
        curved = rp.shape != "straight"
        size = len(poly.points)
        row_of = rows.setdefault(size, {})
        row = row_of.setdefault(i, len(row_of))
        rws, ss, shifts, bent, counts = by_size.setdefault(size, ([], [], [], [], []))
        length = poly.length
        for t in rp.tracks:
            n = t.route.length
            pitch = max((length - 2 * clear) / n, car * 0.3)
            start = (length - pitch * n) / 2
            a, b = start + pitch * 0.5, start + pitch * (n - 0.5)
            steps = max(1, math.ceil((b - a) / (car * 0.25))) if curved else 1
            ss += [a + (b - a) * k / steps for k in range(steps + 1)]
            rws += [row] * (steps + 1)
            shifts += [t.shift] * (steps + 1)
            bent += [curved] * (steps + 1)
            counts.append(steps + 1)
            tracks.append((size, t))
    points: dict[int, list[tuple[float, float]]] = {}
    for size, (rws, ss, shifts, bent, _counts) in by_size.items():
        members = list(rows[size])
        pts = np.array([polys[i].points for i in members], dtype=float).reshape(len(members), size, 2)
        cum = np.array([polys[i].cum for i in members], dtype=float).reshape(len(members), size)
        row = np.array(rws, dtype=np.int64)
        c = cum[row]
        length = c[:, -1]
        at = np.arange(len(row))

        def pose(s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """Polyline.at for every sample."""
            s = np.maximum(0.0, np.minimum(length, s))
            j = np.minimum(np.maximum((c < s[:, None]).sum(axis=1), 1), size - 1)
            p, q = pts[row, j - 1], pts[row, j]
            c0, c1 = c[at, j - 1], c[at, j]
            seg = c1 - c0
            t = np.divide(s - c0, seg, out=np.zeros_like(s), where=seg > 0)
            return p[:, 0] + (q[:, 0] - p[:, 0]) * t, p[:, 1] + (q[:, 1] - p[:, 1]) * t, np.arctan2(q[:, 1] - p[:, 1], q[:, 0] - p[:, 0])

        s = np.array(ss, dtype=float)
        x, y, angle = pose(s)
        curved = np.array(bent, dtype=bool)
        if curved.any():
            # Polyline.tangent_at: the direction of the chord from s - span to s + span.
            ax, ay, _ = pose(s - span)
            bx, by, _ = pose(s + span)
            dx, dy = bx - ax, by - ay
            far = np.array([math.hypot(u, v) >= 1e-9 for u, v in zip(dx.tolist(), dy.tolist())], dtype=bool)
            angle = np.where(curved & far, np.arctan2(dy, dx), angle)
        shift = np.array(shifts, dtype=float)
        points[size] = list(zip((x + np.sin(angle) * shift).tolist(), (y - np.cos(angle) * shift).tolist()))
    taken = dict.fromkeys(by_size, 0)
    counts = {size: iter(v[4]) for size, v in by_size.items()}
    for size, t in tracks:
        k = next(counts[size])
        t.rail = points[size][taken[size]:taken[size] + k]
        taken[size] += k
    return plans


# (arc length / chord, preference cost) of the bows a straight route may take, and
# (angle factor, cost) of the rounder arcs a short route may take.
_BOWS = ((1.02, 0.15), (1.05, 0.35), (1.1, 0.6), (1.18, 0.9))
_ROUNDER = ((1.3, 0.3), (1.6, 0.6))


def _candidates(
    key: tuple[str, str],
    members: list[Route],
    to_mm: Callable[[float, float], tuple[float, float]],
    car: float,
    clear: float,
    space_width: float,
    track_gap: float,
    layout: Layout,
) -> list[tuple[float, RoutePlan]]:
    """(preference cost, plan) for each shape this group may take (the studio's quick layout lays out one route)."""
    lines = _candidate_lines_many([(key, members)], to_mm, car, clear, layout)[0]
    plans = lay_routes([(key, members, line, shape) for _, shape, line in lines], car, clear, space_width, track_gap)
    return [(pref, plan) for (pref, _, _), plan in zip(lines, plans)]


def _candidate_lines_many(
    bundles: list[tuple[tuple[str, str], list[Route]]],
    to_mm: Callable[[float, float], tuple[float, float]],
    car: float,
    clear: float,
    layout: Layout,
) -> list[list[tuple[float, str, list[tuple[float, float]]]]]:
    """(preference cost, shape, line) for each shape each group (key, members) may take, all groups at once: the arcs' angles and points in array computations."""
    # First the lines and the arcs each group may take, an arc as (angle request, angle factor, side); then
    # every arc's angle, then every arc's points.
    plans: list[list[tuple[float, str, object]]] = []
    ends: list[tuple[tuple[float, float], tuple[float, float]]] = []
    chords: list[float] = []
    lengths: list[float] = []
    for _key, members in bundles:
        first = members[0]
        pa, pb = (to_mm(*e) for e in layout.route_ends(first))
        ends.append((pa, pb))
        n = max(r.length for r in members)
        bend = next((r for r in members if r.bend), None)
        shapes: list[tuple[float, str, object]] = []
        if bend is not None:
            bends = [to_mm(bx, by) for bx, by in layout.bend_points(bend)]
            if bend.from_ != first.from_:
                bends.reverse()
            shapes.append((0.0, "bend", smooth([pa, *bends, pb])))
        else:
            chord = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
            need = n * car
            if chord - 2 * clear >= need * 0.93 or chord == 0:
                shapes.append((0.0, "straight", [pa, pb]))
                if chord > 0:
                    # Bows: arcs a little longer than the line, to either side.
                    for stretch, pref in _BOWS:
                        chords.append(chord)
                        lengths.append(chord * stretch)
                        shapes += [(pref, "arc", (len(chords) - 1, None, side)) for side in (1, -1)]
            else:
                chords.append(chord)
                lengths.append(need + 2 * clear)
                shapes += [(0.0 + 0.01 * (side < 0), "arc", (len(chords) - 1, None, side)) for side in (1, -1)]
                for more, pref in _ROUNDER:
                    shapes += [(pref, "arc", (len(chords) - 1, more, side)) for side in (1, -1)]
        plans.append(shapes)
    thetas = arc_angles(np.array(chords), np.array(lengths)).tolist() if chords else []
    arc_a, arc_b, arc_theta, arc_side = [], [], [], []
    for (pa, pb), shapes in zip(ends, plans):
        for _pref, shape, spec in shapes:
            if shape == "arc":
                k, more, side = spec  # type: ignore[misc]
                theta = thetas[k] if more is None else min(thetas[k] * more, 1.5 * math.pi)
                arc_a.append(pa)
                arc_b.append(pb)
                arc_theta.append(theta)
                arc_side.append(side)
    points = iter(arc_points_many(arc_a, arc_b, np.array(arc_theta), np.array(arc_side)) if arc_a else [])
    return [[(pref, shape, next(points) if shape == "arc" else spec) for pref, shape, spec in shapes] for shapes in plans]  # type: ignore[misc]


def lay_route(
    key: tuple[str, str], members: list[Route], line: list[tuple[float, float]], shape: str,
    car: float, clear: float, space_width: float, track_gap: float,
) -> RoutePlan:
    """The tracks of a group of parallel routes laid side by side along `line` (no rails yet)."""
    tracks_spec = [(r, c) for r in members for c in r.tracks]
    count = len(tracks_spec)
    spacing = space_width + track_gap
    poly = Polyline(line)
    tracks = []
    for k, (route, color) in enumerate(tracks_spec):
        shift = ((count - 1) / 2 - k) * spacing
        spaces, rail = _spaces(poly, route, color, shift, clear, car, shape != "straight")
        tracks.append(TrackPlan(route, color, spaces, rail, shift))
    return RoutePlan(key, shape, [(p[0], p[1]) for p in poly.points], tracks)


def lay_routes(
    specs: list[tuple[tuple[str, str], list[Route], list[tuple[float, float]], str]],
    car: float, clear: float, space_width: float, track_gap: float,
) -> list[RoutePlan]:
    """`lay_route` for many (key, members, line, shape) at once, without rails: the look-ups along every line in one
    array computation (the router lays out every candidate shape of every route). A line is a list of points or
    an (n, 2) array."""
    laid = Laid(specs, car, clear, space_width, track_gap)
    return [laid.plan(i) for i in range(len(specs))]


class Laid:
    """Many layouts (`lay_routes`) kept as arrays of their spaces' centres and angles: the router and the bend
    search measure every candidate by its spaces' rectangles but keep one, so a `RoutePlan` is made only for the
    layouts asked for (`plan`), the same as `lay_route` gives."""

    def __init__(self, specs: list[tuple[tuple[str, str], list[Route], list[tuple[float, float]], str]],
                 car: float, clear: float, space_width: float, track_gap: float):
        self.specs = specs
        self._plans: dict[int, RoutePlan] = {}
        # For each layout of the batch: its tracks as (route, color, shift, spaces) and where its spaces start in x, y, angle.
        self._tracks: list[list[tuple[Route, str, float, int]] | None] = [None] * len(specs)
        self._first = np.zeros(len(specs), dtype=np.int64)
        self.counts = np.zeros(len(specs), dtype=np.int64)  # spaces of each layout
        self.x = self.y = self.angle = np.empty(0)
        batch = []
        for i, (key, members, line, shape) in enumerate(specs):
            if 2 <= len(line) <= 64:
                batch.append(i)
            else:
                self._eager(i, car, clear, space_width, track_gap)
        if not batch:
            self._arrays_of_eager()
            return
        sizes = [len(specs[i][2]) for i in batch]
        width = max(sizes)
        pts = np.full((len(batch), width, 2), np.nan)
        npts = np.array(sizes, dtype=np.int64)
        rows_of: dict[int, list[int]] = {}  # the lines of each number of points, copied in together
        for r, size in enumerate(sizes):
            rows_of.setdefault(size, []).append(r)
        for size, rows in rows_of.items():
            pts[rows, :size] = np.array([specs[batch[r]][2] for r in rows], dtype=float).reshape(len(rows), size, 2)
        seg = np.hypot(pts[:, 1:, 0] - pts[:, :-1, 0], pts[:, 1:, 1] - pts[:, :-1, 1])
        valid = np.arange(width - 1)[None, :] < (npts - 1)[:, None]
        # A line with repeated points is laid out one by one (Polyline drops them).
        repeated = (valid & ~(seg > 1e-9)).any(axis=1)
        cum = np.concatenate([np.zeros((len(batch), 1)), np.cumsum(np.where(valid, seg, 0.0), axis=1)], axis=1)
        length = cum[np.arange(len(batch)), npts - 1]
        cum[np.arange(width)[None, :] >= npts[:, None]] = np.inf
        spacing = space_width + track_gap
        # The tracks of each group of routes (the candidates of a route share it): (route, color, shift, spaces).
        # With each: its spaces, and its tracks' spaces and shifts (the lists the loop below extends by).
        tracks_of: dict[int, tuple[list[tuple[Route, str, float, int]], int, list[int], list[float]]] = {}
        trow, tn, tshift, tcurved = [], [], [], []  # one entry per track
        first = self._first.tolist()
        spaces_of = self.counts.tolist()
        q = 0
        for r, i, again in zip(range(len(batch)), batch, repeated.tolist()):
            key, members, line, shape = specs[i]
            if again:
                self._eager(i, car, clear, space_width, track_gap)
                continue
            known = tracks_of.get(id(members))
            if known is None:
                tracks_spec = [(rt, c) for rt in members for c in rt.tracks]
                count = len(tracks_spec)
                tracks = [(route, color, ((count - 1) / 2 - k) * spacing, route.length) for k, (route, color) in enumerate(tracks_spec)]
                known = tracks_of[id(members)] = (tracks, sum(t[3] for t in tracks), [t[3] for t in tracks], [t[2] for t in tracks])
            tracks, n_spaces, ns, shifts = known
            first[i] = q
            spaces_of[i] = n_spaces
            q += n_spaces
            self._tracks[i] = tracks  # shared by the layouts of one group, never changed
            trow += [r] * len(tracks)
            tn += ns
            tshift += shifts
            tcurved += [shape != "straight"] * len(tracks)
        self._first = np.array(first, dtype=np.int64)
        self.counts = np.array(spaces_of, dtype=np.int64)
        if not tn:
            self._arrays_of_eager()
            return
        # Each track's spaces spread along its line as _spaces spreads them (the same arithmetic, track by track).
        per = np.array(tn, dtype=np.int64)
        total = length[np.array(trow, dtype=np.int64)]
        pitch = np.maximum((total - 2 * clear) / per, car * 0.3)
        start = (total - pitch * per) / 2
        row = np.repeat(np.array(trow, dtype=np.int64), per)
        # The middle of each space along its line: start + pitch * (j + 0.5) for the j-th space of its track.
        nth = np.arange(len(row)) - np.repeat(np.cumsum(per) - per, per)
        s = np.repeat(start, per) + np.repeat(pitch, per) * (nth + 0.5)
        shift_arr = np.repeat(np.array(tshift, dtype=float), per)
        curved = np.repeat(np.array(tcurved, dtype=bool), per)

        def poses(s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            s = np.minimum(np.maximum(s, 0.0), length[row])
            c = cum[row]
            j = np.minimum(np.maximum((c < s[:, None]).sum(axis=1), 1), npts[row] - 1)
            a, b = pts[row, j - 1], pts[row, j]
            c0, c1 = c[np.arange(len(s)), j - 1], c[np.arange(len(s)), j]
            span = c1 - c0
            t = np.divide(s - c0, span, out=np.zeros_like(s), where=span > 0)
            return a[:, 0] + (b[:, 0] - a[:, 0]) * t, a[:, 1] + (b[:, 1] - a[:, 1]) * t, np.arctan2(b[:, 1] - a[:, 1], b[:, 0] - a[:, 0])

        px, py, angle = poses(s)
        bent = curved
        if bent.any():
            ax, ay, _ = poses(s - car * 0.4)
            bx, by, _ = poses(s + car * 0.4)
            dx, dy = bx - ax, by - ay
            tangent = np.where(np.hypot(dx, dy) < 1e-9, angle, np.arctan2(dy, dx))
            angle = np.where(bent, tangent, angle)
        self.x = px + np.sin(angle) * shift_arr
        self.y = py - np.cos(angle) * shift_arr
        self.angle = (np.degrees(angle) + 90) % 180 - 90
        self._arrays_of_eager()

    def _eager(self, i: int, car: float, clear: float, space_width: float, track_gap: float) -> None:
        key, members, line, shape = self.specs[i]
        self._plans[i] = lay_route(key, members, _points(line), shape, car, clear, space_width, track_gap)

    def _arrays_of_eager(self) -> None:
        """The spaces of the layouts made one by one, after those of the batch in x, y, angle."""
        q = len(self.x)
        extra = []
        for i in sorted(self._plans):
            spaces = [sp for t in self._plans[i].tracks for sp in t.spaces]
            self._first[i] = q
            self.counts[i] = len(spaces)
            q += len(spaces)
            extra += spaces
        if extra:
            self.x = np.concatenate([self.x, np.array([sp.x for sp in extra], dtype=float)])
            self.y = np.concatenate([self.y, np.array([sp.y for sp in extra], dtype=float)])
            self.angle = np.concatenate([self.angle, np.array([sp.angle for sp in extra], dtype=float)])

    def index(self, which: list[int] | np.ndarray | None = None) -> np.ndarray:
        """Where the spaces of the layouts `which` (all by default), one after the other, are in x, y, angle."""
        which = np.arange(len(self.specs)) if which is None else np.asarray(which, dtype=np.int64)
        counts = self.counts[which]
        return np.repeat(self._first[which] - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()))

    def rectangles(self, length: float, width: float, which: list[int] | np.ndarray | None = None) -> np.ndarray:
        """The rectangles of the spaces of the layouts `which` (all by default), one layout after the other."""
        k = self.index(which)
        return rectangles(self.x[k], self.y[k], self.angle[k], length, width)

    def plan(self, i: int) -> RoutePlan:
        """Layout `i` as `lay_route` makes it (the same object each time asked)."""
        rp = self._plans.get(i)
        if rp is None:
            key, members, line, shape = self.specs[i]
            q = int(self._first[i])
            xs = self.x[q:q + int(self.counts[i])].tolist()
            ys = self.y[q:q + int(self.counts[i])].tolist()
            degs = self.angle[q:q + int(self.counts[i])].tolist()
            laid = []
            q = 0
            for route, color, shift, n in self._tracks[i]:  # type: ignore[union-attr]
                ferry = min(route.ferry, n)
                locos = {round((j + 0.5) * n / ferry - 0.5) for j in range(ferry)} if ferry else set()
                spaces = [SpacePlan(xs[q + j], ys[q + j], degs[q + j], color, j in locos, route.tunnel) for j in range(n)]
                q += n
                laid.append(TrackPlan(route, color, spaces, [], shift))
            rp = self._plans[i] = RoutePlan(key, shape, _points(line), laid)
        return rp


def _points(line) -> list[tuple[float, float]]:
    """A line (a list of points or an (n, 2) array) as a list of (x, y) tuples."""
    if isinstance(line, np.ndarray):
        return list(map(tuple, line.tolist()))
    return [(p[0], p[1]) for p in line]


def _spaces(
    poly: Polyline, route: Route, color: str, shift: float, clear: float, car: float, curved: bool, rail: bool = False
) -> tuple[list[SpacePlan], list[tuple[float, float]]]:
    n = route.length
    usable = poly.length - 2 * clear
    pitch = max(usable / n, car * 0.3)
    start = (poly.length - pitch * n) / 2
    ferry = min(route.ferry, n)
    locos = {round((j + 0.5) * n / ferry - 0.5) for j in range(ferry)} if ferry else set()
    out = []
    for i in range(n):
        s = start + pitch * (i + 0.5)
        pose = poly.at(s)
        angle = poly.tangent_at(s, car * 0.4) if curved else pose.angle
        pose = type(pose)(pose.x, pose.y, angle)
        x, y = offset(pose, shift)
        deg = math.degrees(angle)
        deg = (deg + 90) % 180 - 90
        out.append(SpacePlan(x, y, deg, color, i in locos, route.tunnel))
    if not rail:
        return out, []
    a, b = start + pitch * 0.5, start + pitch * (n - 0.5)
    steps = max(1, math.ceil((b - a) / (car * 0.25))) if curved else 1
    line = []
    for k in range(steps + 1):
        s = a + (b - a) * k / steps
        pose = poly.at(s)
        if curved:
            pose = type(pose)(pose.x, pose.y, poly.tangent_at(s, car * 0.4))
        line.append(offset(pose, shift))
    return out, line


def _plan_tokens(board: Board, places: list[PlacePlan], car: float) -> list[TokenPlan]:
    by_place: dict[str, list] = {}
    for g in board.goods:
        by_place.setdefault(g.place, []).append(g)
    where = {pp.place.id: pp for pp in places}
    out = []
    r = car * 0.13
    for pid, stacks in by_place.items():
        pp = where.get(pid)
        if pp is None:
            continue
        dist = pp.radius + r * 1.1
        for i, g in enumerate(stacks):
            a = math.radians(-135 + 42 * i)
            out.append(TokenPlan(pid, pp.x + dist * math.cos(a), pp.y + dist * math.sin(a), r, g.color, tuple(g.values)))
    return out


# Label candidates: (dx, dy) direction of the box from the marker and a small preference cost.
_DIRECTIONS = (
    ("E", 1, 0, 0.0),
    ("W", -1, 0, 0.04),
    ("S", 0, 1, 0.06),
    ("N", 0, -1, 0.06),
    ("NE", 1, -1, 0.1),
    ("SE", 1, 1, 0.1),
    ("NW", -1, -1, 0.12),
    ("SW", -1, 1, 0.12),
)


MIN_LABEL_MM = 1.6  # place names never smaller than this (about 4.5 pt), however small the board


def _label_size(pp: PlacePlan, car: float) -> tuple[float, bool, bool]:
    if pp.place.is_country:
        return max(car * 0.17, MIN_LABEL_MM), True, True
    if pp.big:
        return max(car * 0.2, MIN_LABEL_MM * 1.15), True, False
    return max(car * 0.165, MIN_LABEL_MM), True, False


#: How far out (car lengths beyond the marker) each ring of label candidates lies.
_RINGS = (0.0, 0.4, 0.8, 1.3)


def _label_candidates(pp: PlacePlan, w: float, h: float, car: float, ring: int) -> list[Box]:
    """The boxes of a `w` x `h` name in each of the 8 directions (`_DIRECTIONS`) at ring `ring` round `pp`'s marker."""
    extra = car * _RINGS[ring] if ring else 0.0
    d = pp.radius + car * 0.06 + extra
    out = []
    for _name, ux, uy, _pref in _DIRECTIONS:
        diag = 0.72 if ux and uy else 1.0
        ax, ay = pp.x + ux * d * diag, pp.y + uy * d * diag
        bx0 = ax if ux > 0 else ax - w if ux < 0 else ax - w / 2
        by0 = ay if uy > 0 else ay - h if uy < 0 else ay - h / 2
        out.append((bx0, by0, bx0 + w, by0 + h))
    return out


def _covered(cands: list[Box], tree: STRtree, obstacles: np.ndarray) -> list[tuple[float, float]]:
    """(area of the obstacles it covers, its own area or 1) of each box, all boxes in one query of the index."""
    boxes = shapely.box(*np.array(cands, dtype=float).T)
    own = shapely.area(boxes).tolist()
    qi, ti = tree.query(boxes)
    areas = shapely.area(shapely.intersection(obstacles[ti], boxes[qi])) if len(qi) else np.empty(0)
    cuts = np.searchsorted(qi, np.arange(len(cands) + 1)).tolist()
    # Each box's sum over its own hits, in the index's order (as a query of the box alone would give them).
    return [(float(areas[a:b].sum()) if b > a else 0.0, own[k] or 1.0) for k, (a, b) in enumerate(zip(cuts, cuts[1:]))]


class _QuickCover:
    """`_covered` of many boxes (the nearest ring of every place) with the areas the boxes share with the obstacles
    worked out by `overlap.box_areas`, not GEOS's overlay: `cover` gives (area covered, own area, how far the first
    may be from `_covered`'s); `exact(k0, k1)` gives `_covered`'s own figures of boxes k0..k1-1 (the same pairs of
    the same query, summed alike). Obstacles that are not convex polygons go GEOS's way from the start."""

    def __init__(self, cands: list[Box], tree: STRtree, obstacles: np.ndarray):
        self.corners = np.array(cands, dtype=float).reshape(-1, 4)
        self.boxes = shapely.box(*self.corners.T)
        self.own = shapely.area(self.boxes).tolist()
        self.obstacles = obstacles
        self.qi, self.ti = qi, ti = tree.query(self.boxes)
        self.cuts = np.searchsorted(qi, np.arange(len(cands) + 1)).tolist()
        areas = np.zeros(len(qi))
        quick = np.zeros(len(qi), dtype=bool)  # areas from box_areas that are not surely 0
        coords, starts, corners = _convex_corners(obstacles)
        size = corners[ti]
        for v in sorted(set(size.tolist())):  # (np.unique would import numpy.ma, 0.03 s, for its masked-array test)
            pick = np.flatnonzero(size == v)
            if v:
                polys = coords[starts[ti[pick]][:, None] + np.arange(v)]
                got, apart = box_areas(self.corners[qi[pick]], polys)
                areas[pick] = got
                quick[pick] = ~apart
            else:
                areas[pick] = shapely.area(shapely.intersection(obstacles[ti[pick]], self.boxes[qi[pick]]))
        self.cover = []
        for k, (a, b) in enumerate(zip(self.cuts, self.cuts[1:])):
            own = self.own[k] or 1.0
            err = BOX_TOLERANCE * own * int(quick[a:b].sum()) if b > a else 0.0
            self.cover.append((float(areas[a:b].sum()) if b > a else 0.0, own, err))

    def exact(self, k0: int, k1: int) -> list[tuple[float, float, float]]:
        a, b = self.cuts[k0], self.cuts[k1]
        qi, ti = self.qi[a:b], self.ti[a:b]
        areas = shapely.area(shapely.intersection(self.obstacles[ti], self.boxes[qi])) if b > a else np.empty(0)
        return [(float(areas[c - a:d - a].sum()) if d > c else 0.0, self.own[k] or 1.0, 0.0)
                for k, (c, d) in enumerate(zip(self.cuts[k0:k1], self.cuts[k0 + 1:k1 + 1]), start=k0)]


def _convex_corners(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coordinates of all polygons, where each starts, and the number of corners of each (its ring without the
    closing point) that is a convex polygon without holes (turning one way at every corner), the shapes
    `overlap.box_areas` takes; 0 for any other."""
    coords = shapely.get_coordinates(polys)
    counts = shapely.get_num_coordinates(polys)
    starts = np.cumsum(counts) - counts
    ok = (shapely.get_type_id(polys) == 3) & (shapely.get_num_interior_rings(polys) == 0) & (counts >= 4)
    corners = np.where(ok, counts - 1, 0)
    for v in sorted(set(corners.tolist())):
        if not v:
            continue
        which = np.flatnonzero(corners == v)
        c = coords[starts[which][:, None] + np.arange(v)]
        e = np.roll(c, -1, axis=1) - c
        turn = e[..., 0] * np.roll(e[..., 1], -1, axis=1) - e[..., 1] * np.roll(e[..., 0], -1, axis=1)
        convex = ((turn >= 0).all(axis=1) | (turn <= 0).all(axis=1)) & turn.any(axis=1)
        corners[which[~convex]] = 0
    return coords, starts, corners


def _ring_best(cands: list[Box], cover: list[tuple[float, float, float]], ring: int, placed: BoxGrid,
               best: tuple[float, Box, float] | None) -> tuple[tuple[float, Box, float] | None, bool]:
    """The cheapest of the spots `cands` of one ring, or `best` (cost, box, how far that cost may be off) when it is
    cheaper by the margin `_place_labels` keeps; with whether every comparison on the way is sure (covered areas
    that may be off by `cover`'s third figure can tip none of them)."""
    for cand, (static, area, err), (_name, _ux, _uy, pref) in zip(cands, cover, _DIRECTIONS):
        total = static + sum(_box_overlap(cand, other) for other in placed.near(cand)) * 1.5
        covered = total / area
        # Covering anything at all (a car, a marker, a name) costs more than going out a ring.
        cost = pref + ring * 0.6 + covered * 8 + (covered > 0.002) * 2.0
        off = (err / area) * 8 + 1e-12 if err else 0.0
        if err and abs(covered - 0.002) <= err / area + 1e-12:
            return best, False
        if best is not None and (off or best[2]) and abs(cost - (best[0] - 1e-9)) <= off + best[2]:
            return best, False
        if best is None or cost < best[0] - 1e-9:
            best = (cost, cand, off)
    return best, True


def _place_labels(places: list[PlacePlan], obstacles: list[Polygon], opts: BoardOptions, car: float, degree: dict[str, int],
                  scale: float) -> None:
    """Name each place: where its `label` says (`scale` mm per board unit), else at the free spot nearest its marker.

    A name takes the first ring of candidate spots with a good one (`_DIRECTIONS`, `_RINGS`), the cheapest there:
    the share of it covered by cars, markers and tokens (worked out for the nearest ring of every place at once,
    `_QuickCover`, and GEOS's own figures for a place whose choice they might tip) and by names placed before it
    (the places with the most tracks first)."""
    obstacle_arr = np.array(obstacles, dtype=object)
    tree = STRtree(obstacle_arr)
    placed = BoxGrid(car * 2)
    order = sorted(places, key=lambda pp: (-degree.get(pp.place.id, 0), pp.place.id))
    sizes = {}
    for pp in order:
        text = opts.text(pp.place.name)
        if pp.place.is_country:
            text = text.upper()
        size, bold, italic = _label_size(pp, car)
        sizes[id(pp)] = (text, size, bold, italic, text_width(text, size, bold) + size * 0.6, size * 1.3)
    auto = [pp for pp in order if pp.place.label is None]
    first = [_label_candidates(pp, sizes[id(pp)][4], sizes[id(pp)][5], car, 0) for pp in auto]
    quick = _QuickCover([b for cands in first for b in cands], tree, obstacle_arr) if auto else None
    nearest = {id(pp): (k, cands) for k, (pp, cands) in enumerate(zip(auto, first))}
    for pp in order:
        text, size, bold, italic, w, h = sizes[id(pp)]
        if pp.place.label is not None:  # set by hand: drawn there, whatever it covers (the drawn checks say so)
            cx, cy = pp.x + pp.place.label.dx * scale, pp.y + pp.place.label.dy * scale
            b = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            pp.label = LabelPlan(text, cx, cy + size * 0.36, size, bold, italic, b)
            placed.add(b)
            continue
        assert quick is not None
        k, first_cands = nearest[id(pp)]
        cover = quick.cover[8 * k:8 * k + 8]
        best, sure = _ring_best(first_cands, cover, 0, placed, None)
        if not (sure and best is not None and (best[0] < 0.5 - best[2] - 1e-12 if best[2] else best[0] < 0.5)):
            # Not surely settled in the nearest ring with these figures: the nearest ring with GEOS's own, then the next.
            if any(c[2] for c in cover):
                cover = quick.exact(8 * k, 8 * k + 8)
            best = None
            for ring in range(len(_RINGS)):
                if ring == 0:
                    cands = first_cands
                else:
                    cands = _label_candidates(pp, w, h, car, ring)
                    cover = [(static, area, 0.0) for static, area in _covered(cands, tree, obstacle_arr)]
                best, _ = _ring_best(cands, cover, ring, placed, best)
                if best is not None and best[0] < 0.5 + ring * 0.6:
                    break
        assert best is not None
        b = best[1]
        pp.label = LabelPlan(text, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2 + size * 0.36, size, bold, italic, b)
        placed.add(b)


class BoxGrid:
    """Axis-aligned boxes bucketed on a grid, for quick overlap look-ups."""

    def __init__(self, cell: float):
        self.cell = cell
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _keys(self, b: Box):
        c = self.cell
        for i in range(math.floor(b[0] / c), math.floor(b[2] / c) + 1):
            for j in range(math.floor(b[1] / c), math.floor(b[3] / c) + 1):
                yield (i, j)

    def add(self, b: Box) -> None:
        for k in self._keys(b):
            self.cells.setdefault(k, []).append(b)

    def near(self, b: Box) -> set[Box]:
        return {o for k in self._keys(b) for o in self.cells.get(k, ())}


def _box_overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class _Later:
    """`fn(*args)` worked out in a thread of its own while the caller goes on; `result()` waits for it (and raises
    what it raised). For the land shape: GEOS lets go of the interpreter's lock for its union and buffers, so on a
    machine with two cores they take no time of the caller's (a tenth of a second or more on a large board)."""

    def __init__(self, fn: Callable, *args: object):
        import threading

        self._value: object = None
        self._error: BaseException | None = None

        def run() -> None:
            try:
                self._value = fn(*args)
            except BaseException as exc:  # handed to the caller by result()
                self._error = exc

        self._thread = threading.Thread(target=run, name="ttr-maps-land", daemon=True)
        self._thread.start()

    def result(self) -> object:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _land(places: list[PlacePlan], routes: list[RoutePlan], car: float):
    shapes = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in places]), car * 1.5, quad_segs=6)
    # Ferries cross water, so they add no land.
    lines = [rp.centerline for rp in routes if len(rp.centerline) > 1 and not any(t.route.ferry for t in rp.tracks)]
    if lines:
        coords = np.array([p for line in lines for p in line], dtype=float)
        which = np.repeat(np.arange(len(lines)), [len(line) for line in lines])
        shapes = np.concatenate([shapes, shapely.buffer(shapely.linestrings(coords, indices=which), car * 0.75, quad_segs=4)])
    merged = shapely.union_all(shapes)
    return merged.buffer(car * 0.9, quad_segs=6).buffer(-car * 0.9, quad_segs=6).simplify(car * 0.04)


def _land_rings(shape) -> list[list[list[tuple[float, float]]]]:
    polys = list(getattr(shape, "geoms", [shape]))
    out = []
    for poly in polys:
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        rings = [list(poly.exterior.coords)] + [list(r.coords) for r in poly.interiors]
        out.append([[(float(x), float(y)) for x, y in ring] for ring in rings])
    return out


def _legend_rows(board: Board, variant: Variant | None, palette: Palette) -> list[tuple[str, str]]:
    """(kind, text) rows of the key: colours first, then the special marks the board uses."""
    rows = [("color:" + sw.name, sw.name) for sw in palette.swatches()]
    rows.append(("color:gray", "gray: any one colour"))
    if any(r.ferry for r in board.routes):
        rows.append(("ferry", "ferry: a locomotive per mark"))
    if any(r.tunnel for r in board.routes):
        rows.append(("tunnel", "tunnel: may cost more cards"))
    if any(BIG_CITY in p.tags for p in board.places):
        rows.append(("big", "big city"))
    if any(p.is_country for p in board.places):
        rows.append(("country", "country (routes end here)"))
    if board.goods:
        rows.append(("goods", "goods tokens (top value)"))
    return rows


def _size_blocks(
    board: Board, variant: Variant | None, opts: BoardOptions, car: float, legend_rows, map_w: float
) -> dict[str, Block]:
    blocks: dict[str, Block] = {}
    if opts.title:
        title = opts.text(board.meta.title) or "Untitled board"
        size = fit_size(title, car * 0.7, max(map_w * 0.6, car * 8), True)
        tw = max(text_width(title, size, True), text_width(SUBTITLE, car * 0.18))
        blocks["title"] = Block("title", tw + car * 1.0, car * 0.75 + size, size=size)
    if opts.title:
        blocks["compass"] = Block("compass", car * 1.3, car * 1.5)
    if opts.legend:
        per_col = math.ceil(len(legend_rows) / 2)
        row_w = max(text_width(t, car * 0.15) for _, t in legend_rows) + car * 0.95
        blocks["key"] = Block("key", row_w * 2 + car * 0.45, car * (0.55 + 0.32 * per_col) + car * 0.2)
        if variant is not None:
            lines = scoring_lines(variant)
            lengths = sorted(variant.scoring.routes)
            col_w = car * 0.62
            w = max(col_w * len(lengths), max((text_width(t, car * 0.15) for t in lines), default=0)) + car * 0.6
            h = car * (0.55 + 0.55 + 0.3 * len(lines)) + car * 0.2
            blocks["scoring"] = Block("scoring", max(w, text_width("Route scoring", car * 0.2, True) + car * 0.6), h)
    return blocks


SUBTITLE = "ttr-maps - unofficial fan board"


def scoring_lines(variant: Variant) -> list[str]:
    """The bonus lines under the scoring table, in our words."""
    b = variant.scoring.bonuses
    lines = []
    if b.longest_path:
        lines.append(f"Longest continuous path: +{b.longest_path}")
    if b.most_tickets:
        lines.append(f"Most completed tickets: +{b.most_tickets}")
    if variant.stations.count and variant.stations.unused_points:
        lines.append(f"Each station not built: +{variant.stations.unused_points}")
    if b.goods:
        lines.append("Goods tokens: their face value")
    if variant.flags.colors and variant.flags.points:
        lines.append(f"Each flag set ({'/'.join(variant.flags.colors)}): +{variant.flags.points}")
    lines.append("Tickets: + value if done, - if not")
    return lines


def _place_blocks(blocks: dict[str, Block], content: Box, obstacles: list[Polygon], land, car: float) -> Box:
    """Put each block where it covers least (preferring the sea); blocks that fit nowhere get a band below."""
    x0, y0, x1, y1 = content
    tree = STRtree(obstacles) if obstacles else None
    taken: list[Polygon] = []
    overflow: list[Block] = []
    inset = car * 0.25
    for name in ("title", "scoring", "key", "compass"):
        blk = blocks.get(name)
        if blk is None:
            continue
        if blk.w > (x1 - x0) - 2 * inset or blk.h > (y1 - y0) - 2 * inset:
            if name == "compass":
                del blocks[name]
            else:
                overflow.append(blk)
            continue
        xs = (x0 + inset, (x0 + x1 - blk.w) / 2, x1 - inset - blk.w)
        ys = (y0 + inset, (y0 + y1 - blk.h) / 2, y1 - inset - blk.h)
        cands = [(xs[0], ys[0]), (xs[2], ys[0]), (xs[0], ys[2]), (xs[2], ys[2]), (xs[1], ys[0]), (xs[1], ys[2]), (xs[0], ys[1]), (xs[2], ys[1])]
        best: tuple[float, float, float, float] | None = None
        for i, (bx, by) in enumerate(cands):
            b = box(bx, by, bx + blk.w, by + blk.h)
            hit = sum(obstacles[int(j)].intersection(b).area for j in tree.query(b)) if tree is not None else 0.0
            hit += sum(t.intersection(b).area for t in taken) * 4
            frac = hit / b.area
            cost = frac * 10 + land.intersection(b).area / b.area * 0.3 + i * 0.001
            if best is None or cost < best[0]:
                best = (cost, frac, bx, by)
        assert best is not None
        if best[1] > 0.002:
            if name == "compass":  # a decoration: left out when there is no free spot
                del blocks[name]
            else:
                overflow.append(blk)
            continue
        blk.x, blk.y = best[2], best[3]
        taken.append(box(*blk.box))
    gap = car * 0.3
    title = next((b for b in overflow if b.kind == "title"), None)
    if title is not None:
        # A title that fits nowhere on the map heads it, centred, in a band of its own.
        overflow.remove(title)
        title.x = (x0 + x1 - title.w) / 2
        title.y = y0 - gap - title.h
        y0 = title.y - gap
        x0, x1 = min(x0, title.x - inset), max(x1, title.x + title.w + inset)
    if overflow:
        x = x0 + inset
        y = y1 + gap
        row_h = 0.0
        for blk in overflow:
            if x > x0 + inset and x + blk.w > max(x1, x0 + inset + blk.w):
                x = x0 + inset
                y += row_h + gap
                row_h = 0.0
            blk.x, blk.y = x, y
            x += blk.w + gap
            row_h = max(row_h, blk.h)
            x1 = max(x1, blk.x + blk.w + inset)
        y1 = y + row_h + gap
    return (x0, y0, x1, y1)


def _score_track(width: float, height: float, edge: float, t: float, car: float) -> list[Cell]:
    """Cells numbered clockwise from the top-left corner, filling the ring exactly."""
    ox0, oy0, ox1, oy1 = edge, edge, width - edge, height - edge
    W, H = ox1 - ox0, oy1 - oy0
    perimeter = 2 * (W + H) - 4 * t
    target = min(max(perimeter / 100, car * 0.42), car * 0.75)
    n_top = max(2, round(W / target))
    n_side = max(1, round((H - 2 * t) / target))
    cells: list[Cell] = []
    cw = W / n_top
    ch = (H - 2 * t) / n_side

    def add(x: float, y: float, w: float, h: float) -> None:
        cells.append(Cell(x, y, w, h, len(cells)))

    for i in range(n_top):
        add(ox0 + i * cw, oy0, cw, t)
    for i in range(n_side):
        add(ox1 - t, oy0 + t + i * ch, t, ch)
    for i in range(n_top):
        add(ox1 - (i + 1) * cw, oy1 - t, cw, t)
    for i in range(n_side):
        add(ox0, oy1 - t - (i + 1) * ch, t, ch)
    return cells
