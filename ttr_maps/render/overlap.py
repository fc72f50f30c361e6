"""The area two convex quadrilaterals (route spaces) share, for many pairs at once.

The router weighs every pair of candidate spaces of two routes that touch by the
area they share (`plan._candidate_pairs`): tens of thousands of pairs on a large
board. The shared area is that of one clipped by the four sides of the other
(Sutherland-Hodgman), done for all pairs in a few array operations, about four
times as fast as GEOS's general overlay (`shapely.intersection`) pair by pair.
The areas agree with GEOS's to about 1e-12 of a space.
"""

from __future__ import annotations

import numpy as np

#: Shared areas below this share of the first quadrilateral's area are taken as 0 (the two only touch).
TOUCH = 1e-12


def quad_coords(polygons: np.ndarray) -> np.ndarray:
    """The four corners (n, 4, 2) of an array of shapely quadrilaterals (as `plan.space_polygons` makes them)."""
    import shapely

    return shapely.get_coordinates(polygons).reshape(len(polygons), 5, 2)[:, :4]


def _next(v: np.ndarray, rows: np.ndarray, last: np.ndarray) -> np.ndarray:
    """The value of the next point of each point of the rows of `v` (of the first, for the last, at `last`): the
    rows moved by one, the last point of each put right (a copy, no look-up per point). Every entry is set, also
    past a row's last point (where nothing reads it), so no arithmetic meets uninitialised memory: NaN or infinite
    bits there made numpy print RuntimeWarnings now and then."""
    out = np.empty_like(v)
    out[:, :-1] = v[:, 1:]
    out[:, -1] = v[:, 0]
    out[rows, last] = v[:, 0]
    return out


def _twice_area(x: np.ndarray, y: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Twice the signed area of each polygon (rows of x, y), of which the first `count` points are used."""
    rows, last = np.arange(len(x)), count - 1
    terms = x * _next(y, rows, last) - _next(x, rows, last) * y
    return np.where(np.arange(x.shape[1])[None, :] < count[:, None], terms, 0.0).sum(axis=1)


#: Pairs worked on at once (the working arrays of a chunk take a few MB).
CHUNK = 4096


def shared_areas(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area quadrilateral a[k] and quadrilateral b[k] share, for each k (a, b: (n, 4, 2), convex, either winding)."""
    if len(a) <= CHUNK:
        return _shared_areas(a, b)
    return np.concatenate([_shared_areas(a[k:k + CHUNK], b[k:k + CHUNK]) for k in range(0, len(a), CHUNK)])


def _shared_areas(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = len(a)
    if not n:
        return np.zeros(0)
    four = np.full(n, 4, dtype=np.int64)
    ax, ay = a[..., 0], a[..., 1]
    twice = _twice_area(ax, ay, four)
    flip = twice < 0
    ax = np.where(flip[:, None], ax[:, ::-1], ax)
    ay = np.where(flip[:, None], ay[:, ::-1], ay)  # the clipping sides counter-clockwise: inside is to their left
    # The clipped polygon, at most 8 points (a quadrilateral cut by four sides).
    x, y = np.zeros((n, 8)), np.zeros((n, 8))
    x[:, :4], y[:, :4] = b[..., 0], b[..., 1]
    count = four.copy()
    for k in range(4):
        x0, y0 = ax[:, k:k + 1], ay[:, k:k + 1]
        ex, ey = ax[:, (k + 1) % 4][:, None] - x0, ay[:, (k + 1) % 4][:, None] - y0
        # Packed to the front of each row (8 points at most, unless rounding makes a sliver of one more).
        x, y, count = _clip(x, y, count, ex * (y - y0) - ey * (x - x0), 8)
    area = np.abs(_twice_area(x, y, count)) / 2
    area[count < 3] = 0.0
    area[area <= np.abs(twice) / 2 * TOUCH] = 0.0
    return area


#: What `box_areas` may be off by, as a share of the box's area (it agrees with GEOS's overlay to about 1e-13).
BOX_TOLERANCE = 1e-9


def box_areas(boxes: np.ndarray, polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The area box `boxes[k]` (x0, y0, x1, y1) shares with convex polygon `polys[k]` ((n, V, 2): V corners, either
    winding), and whether that area is surely 0 (the two are apart, or only touch: GEOS's overlay gives 0 too).

    The polygon is clipped by the box's four sides (Sutherland-Hodgman) in coordinates from the box's corner, for all
    pairs in a few array operations, about ten times as fast as GEOS's overlay pair by pair; an area not surely 0 is
    within `BOX_TOLERANCE` of the box's area of GEOS's."""
    n, v = polys.shape[:2]
    if not n:
        return np.zeros(0), np.zeros(0, dtype=bool)
    w = (boxes[:, 2] - boxes[:, 0])[:, None]
    h = (boxes[:, 3] - boxes[:, 1])[:, None]
    px = polys[..., 0] - boxes[:, 0:1]
    py = polys[..., 1] - boxes[:, 1:2]
    # Apart, or touching, when the polygon keeps to one side of a side of the box, or the box to one side of an
    # edge of the polygon (by a margin far above the rounding of these sums).
    apart = (px.max(axis=1) <= 0) | (px.min(axis=1) >= w[:, 0]) | (py.max(axis=1) <= 0) | (py.min(axis=1) >= h[:, 0])
    count = np.full(n, v, dtype=np.int64)
    flip = _twice_area(px, py, count) < 0
    cx = np.where(flip[:, None], px[:, ::-1], px)
    cy = np.where(flip[:, None], py[:, ::-1], py)  # counter-clockwise: the polygon is to the left of its edges
    ex, ey = np.roll(cx, -1, axis=1) - cx, np.roll(cy, -1, axis=1) - cy
    margin = np.hypot(ex, ey) * ((w + h) * 1e-9)
    outside = np.ones(ex.shape, dtype=bool)  # each edge: all four corners of the box are to its right
    for qx, qy in ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)):
        outside &= ex * (qy - cy) - ey * (qx - cx) < -margin  # (how far the corner is to the left, times the edge's length)
    apart |= outside.any(axis=1)
    area = np.zeros(n)
    near = np.flatnonzero(~apart)
    if len(near):
        x, y, count, w, h = px[near], py[near], count[near], w[near], h[near]
        x, y, count = _clip(x, y, count, x)
        x, y, count = _clip(x, y, count, w - x)
        x, y, count = _clip(x, y, count, y)
        x, y, count = _clip(x, y, count, h - y)
        clipped = np.abs(_twice_area(x, y, count)) / 2
        clipped[count < 3] = 0.0
        area[near] = clipped
    return area, apart


def _clip(x: np.ndarray, y: np.ndarray, count: np.ndarray, side: np.ndarray,
          least: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each polygon (its first `count` points of the rows of x, y) cut to where `side` (of each point) is >= 0; the
    rows come back at least `least` wide."""
    n, m = x.shape
    valid = np.arange(m)[None, :] < count[:, None]
    rows, last = np.arange(n), count - 1
    xn, yn, side_n = _next(x, rows, last), _next(y, rows, last), _next(side, rows, last)
    inside = side >= 0
    crosses = valid & (inside != (side_n >= 0))
    t = np.divide(side, side - side_n, out=np.zeros_like(side), where=crosses)
    keep = np.empty((n, 2 * m), dtype=bool)
    keep[:, 0::2] = valid & inside
    keep[:, 1::2] = crosses
    ox, oy = np.empty((n, 2 * m)), np.empty((n, 2 * m))
    ox[:, 0::2], ox[:, 1::2] = x, x + (xn - x) * t
    oy[:, 0::2], oy[:, 1::2] = y, y + (yn - y) * t
    # The points kept, packed to the front of each row: where each goes in the flat rows of the given width.
    dest = np.cumsum(keep, axis=1, dtype=np.int32)
    count = dest[:, -1].astype(np.int64)
    width = max(least, int(count.max()))
    at = (dest + (np.arange(n) * width - 1)[:, None])[keep]
    x, y = np.zeros(n * width), np.zeros(n * width)
    x[at], y[at] = ox[keep], oy[keep]
    return x.reshape(n, width), y.reshape(n, width), count
