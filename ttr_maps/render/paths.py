"""Route paths: the line a route's spaces follow, and where each space sits on it.

A route is drawn along a straight line between its places when that line is about
as long as its spaces; a line too short becomes a circular arc just long enough,
a line too long spreads its spaces evenly; `bend` points give a smooth curve
through them. A space never changes size, only the gaps between spaces do.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class Pose:
    """A point on a path and the direction (radians) the path runs there."""

    x: float
    y: float
    angle: float


class Polyline:
    """A polyline with arc-length look-ups."""

    def __init__(self, points: list[Point]):
        if len(points) >= 2:
            # The usual line has no repeated points: its steps and their running sum at once (the same numbers).
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            steps = list(map(math.hypot, map(operator.sub, xs[1:], xs[:-1]), map(operator.sub, ys[1:], ys[:-1])))
            if min(steps) > 1e-9:
                self.points = list(points)
                self.cum = list(itertools.accumulate(steps, initial=0.0))
                return
        pts = [points[0]]
        for p in points[1:]:
            if math.hypot(p[0] - pts[-1][0], p[1] - pts[-1][1]) > 1e-9:
                pts.append(p)
        if len(pts) == 1:
            pts.append((pts[0][0] + 1e-6, pts[0][1]))
        self.points = pts
        self.cum = [0.0]
        for a, b in zip(pts, pts[1:]):
            self.cum.append(self.cum[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))

    @property
    def length(self) -> float:
        return self.cum[-1]

    def at(self, s: float) -> Pose:
        """The pose at arc length `s` (clamped to the ends)."""
        s = max(0.0, min(self.length, s))
        i = max(1, min(len(self.cum) - 1, bisect.bisect_left(self.cum, s)))
        (x1, y1), (x2, y2) = self.points[i - 1], self.points[i]
        seg = self.cum[i] - self.cum[i - 1]
        t = (s - self.cum[i - 1]) / seg if seg > 0 else 0.0
        return Pose(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, math.atan2(y2 - y1, x2 - x1))

    def tangent_at(self, s: float, span: float) -> float:
        """Direction of the chord from `s - span` to `s + span`: a smooth tangent on sampled curves."""
        a, b = self.at(s - span), self.at(s + span)
        if math.hypot(b.x - a.x, b.y - a.y) < 1e-9:
            return self.at(s).angle
        return math.atan2(b.y - a.y, b.x - a.x)

    def sample(self, step: float) -> list[Point]:
        n = max(1, math.ceil(self.length / step))
        return [(p.x, p.y) for p in (self.at(self.length * i / n) for i in range(n + 1))]


def arc_angle(chord: float, length: float, max_angle: float = 1.5 * math.pi) -> float:
    """The central angle of the circular arc with this chord and this arc length.

    Capped at `max_angle`; 0 when the chord is already long enough.
    """
    if chord <= 0 or length <= chord:
        return 0.0

    def arc_len(theta: float) -> float:
        return chord * (theta / 2) / math.sin(theta / 2)

    if arc_len(max_angle) <= length:
        return max_angle
    lo, hi = 1e-6, max_angle
    for _ in range(60):
        mid = (lo + hi) / 2
        if arc_len(mid) < length:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def arc_points(a: Point, b: Point, theta: float, side: int, samples: int = 48) -> list[Point]:
    """Points of the arc from `a` to `b` with central angle `theta`, bulging to `side` (+1 left, -1 right)."""
    if theta <= 1e-6:
        return [a, b]
    dx, dy = b[0] - a[0], b[1] - a[1]
    chord = math.hypot(dx, dy)
    radius = chord / (2 * math.sin(theta / 2))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    # Unit normal to the left of a→b (screen coordinates, y down: left is (dy, -dx)).
    nx, ny = dy / chord, -dx / chord
    # Centre sits opposite the bulge.
    h = radius * math.cos(theta / 2)
    cx, cy = mx - side * nx * h, my - side * ny * h
    start = math.atan2(a[1] - cy, a[0] - cx)
    bulge = (mx + side * nx * (radius - h), my + side * ny * (radius - h))

    def miss(sweep: float) -> float:
        m = start + sweep / 2
        return math.hypot(cx + radius * math.cos(m) - bulge[0], cy + radius * math.sin(m) - bulge[1])

    sweep = theta if miss(theta) <= miss(-theta) else -theta
    return [
        (cx + radius * math.cos(start + sweep * i / samples), cy + radius * math.sin(start + sweep * i / samples))
        for i in range(samples + 1)
    ]


def smooth(points: list[Point], samples: int = 16) -> list[Point]:
    """A Catmull-Rom curve through `points` (centripetal, so it never loops on uneven spacing)."""
    if len(points) < 3:
        return list(points)
    out = smooth_many(np.array([points], dtype=float), samples)[0]
    return [points[0], *map(tuple, out[1:].tolist())]


def smooth_many(points: np.ndarray, samples: int = 16) -> np.ndarray:
    """`smooth` of many lines of as many points each at once: `points` is (lines, k, 2) with k >= 3; returns
    (lines, (k - 1) * samples + 1, 2), each curve from its first point (the same numbers as `smooth`)."""
    ext = np.concatenate([points[:, :1], points, points[:, -1:]], axis=1)
    p0, p1, p2, p3 = ext[:, :-3], ext[:, 1:-2], ext[:, 2:-1], ext[:, 3:]

    def dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = b - a
        return np.maximum(1e-6, np.hypot(d[..., 0], d[..., 1]) ** 0.5)

    t0 = np.zeros(p0.shape[:2])
    t1 = t0 + dist(p0, p1)
    t2 = t1 + dist(p1, p2)
    t3 = t2 + dist(p2, p3)
    k = np.arange(1, samples + 1)
    t = t1[..., None] + (t2 - t1)[..., None] * k / samples  # (lines, segments, samples)

    def lerp(p, q, ta, tb):
        span = (tb - ta)[..., None]
        u = np.divide(t - ta[..., None], span, out=np.zeros_like(t), where=span >= 1e-12)
        return p[..., None, :] + (q - p)[..., None, :] * u[..., None]

    a1, a2, a3 = lerp(p0, p1, t0, t1), lerp(p1, p2, t1, t2), lerp(p2, p3, t2, t3)

    def lerp2(p, q, ta, tb):
        span = (tb - ta)[..., None]
        u = np.divide(t - ta[..., None], span, out=np.zeros_like(t), where=span >= 1e-12)
        return p + (q - p) * u[..., None]

    b1, b2 = lerp2(a1, a2, t0, t2), lerp2(a2, a3, t1, t3)
    out = lerp2(b1, b2, t1, t2).reshape(len(points), -1, 2)
    return np.concatenate([points[:, :1], out], axis=1)


def offset(pose: Pose, distance: float) -> Point:
    """The point `distance` to the left of `pose` (screen coordinates)."""
    return (pose.x + math.sin(pose.angle) * distance, pose.y - math.cos(pose.angle) * distance)


def arc_angles(chord: np.ndarray, length: np.ndarray, max_angle: float = 1.5 * math.pi) -> np.ndarray:
    """`arc_angle` of many (chord, length) pairs at once (the same numbers)."""
    chord, length = np.asarray(chord, dtype=float), np.asarray(length, dtype=float)

    def arc_len(theta):
        return chord * (theta / 2) / np.sin(theta / 2)

    capped = arc_len(np.full(len(chord), max_angle)) <= length
    lo, hi = np.full(len(chord), 1e-6), np.full(len(chord), max_angle)
    for _ in range(60):
        mid = (lo + hi) / 2
        short = arc_len(mid) < length
        lo = np.where(short, mid, lo)
        hi = np.where(short, hi, mid)
    out = np.where(capped, max_angle, (lo + hi) / 2)
    return np.where((chord <= 0) | (length <= chord), 0.0, out)


def arc_points_many(a: list[Point], b: list[Point], theta: np.ndarray, side: np.ndarray, samples: int = 48) -> list:
    """`arc_points` of many arcs at once (the same points, to the last place of a float: numpy's sin and cos may round
    differently from the C library's on some CPUs): each arc a (samples + 1, 2) array (a flat one, of angle
    0, the list [a, b])."""
    out: list = [[p, q] for p, q in zip(a, b)]
    theta = np.asarray(theta, dtype=float)
    rows = np.flatnonzero(theta > 1e-6)
    if not len(rows):
        return out
    pa, pb = np.array(a, dtype=float)[rows], np.array(b, dtype=float)[rows]
    th, sd = theta[rows], np.asarray(side, dtype=float)[rows]
    dx, dy = pb[:, 0] - pa[:, 0], pb[:, 1] - pa[:, 1]
    chord = np.array([math.hypot(x, y) for x, y in zip(dx.tolist(), dy.tolist())])
    radius = chord / (2 * np.sin(th / 2))
    mx, my = (pa[:, 0] + pb[:, 0]) / 2, (pa[:, 1] + pb[:, 1]) / 2
    nx, ny = dy / chord, -dx / chord
    h = radius * np.cos(th / 2)
    cx, cy = mx - sd * nx * h, my - sd * ny * h
    start = np.arctan2(pa[:, 1] - cy, pa[:, 0] - cx)
    bx, by = mx + sd * nx * (radius - h), my + sd * ny * (radius - h)

    def miss(sweep: np.ndarray) -> list[float]:
        m = start + sweep / 2
        ex, ey = cx + radius * np.cos(m) - bx, cy + radius * np.sin(m) - by
        return [math.hypot(x, y) for x, y in zip(ex.tolist(), ey.tolist())]

    sweep = np.where(np.array(miss(th)) <= np.array(miss(-th)), th, -th)
    angle = start[:, None] + sweep[:, None] * np.arange(samples + 1) / samples
    xy = np.stack([cx[:, None] + radius[:, None] * np.cos(angle), cy[:, None] + radius[:, None] * np.sin(angle)], axis=-1)
    for r, line in zip(rows.tolist(), xy):
        out[r] = line
    return out
