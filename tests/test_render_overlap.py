"""The shared area of two route spaces (render/overlap.py), which the router weighs candidate shapes by, and its arcs worked out together."""

from __future__ import annotations

import numpy as np
import shapely

from ttr_maps.render.overlap import quad_coords, shared_areas


def rects(rng: np.random.Generator, n: int, length: float = 1.0, width: float = 0.3) -> np.ndarray:
    centre = rng.uniform(0, 2, (n, 2))
    angle = rng.uniform(-np.pi, np.pi, n)
    dx = np.array([-1, 1, 1, -1]) * length / 2
    dy = np.array([-1, -1, 1, 1]) * width / 2
    ca, sa = np.cos(angle)[:, None], np.sin(angle)[:, None]
    return np.stack([centre[:, :1] + ca * dx - sa * dy, centre[:, 1:] + sa * dx + ca * dy], axis=-1)


def test_shared_areas_agree_with_geos_on_random_spaces():
    rng = np.random.default_rng(7)
    a, b = rects(rng, 5000), rects(rng, 5000, 0.8, 0.25)
    b[::2] = b[::2, ::-1]  # either winding
    geos = shapely.area(shapely.intersection(shapely.polygons(a), shapely.polygons(b)))
    ours = shared_areas(a, b)
    assert (geos > 0).sum() > 1000  # the sample has many overlapping pairs
    assert np.abs(ours - geos).max() < 1e-12


def test_shared_areas_of_contained_disjoint_touching_and_equal_spaces():
    square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=float)
    inner = np.array([[0.5, 0.5], [1, 0.5], [1, 1], [0.5, 1]], dtype=float)
    far = square + 5
    beside = square + [2, 0]  # shares an edge only
    a = np.stack([square, inner, square, square, square])
    b = np.stack([inner, square, far, beside, square])
    assert shared_areas(a, b).tolist() == [0.25, 0.25, 0.0, 0.0, 4.0]


def test_corners_of_shapely_quadrilaterals():
    rng = np.random.default_rng(3)
    a = rects(rng, 10)
    assert np.array_equal(quad_coords(shapely.polygons(a)), a)


def test_many_pairs_are_worked_in_chunks_with_the_same_result():
    rng = np.random.default_rng(11)
    a, b = rects(rng, 9000), rects(rng, 9000)
    whole = shared_areas(a, b)
    assert np.array_equal(whole[:100], shared_areas(a[:100], b[:100]))
    assert np.array_equal(whole[-100:], shared_areas(a[-100:], b[-100:]))


def test_arcs_worked_out_together_are_the_arcs_worked_out_one_by_one():
    # The router works out every candidate arc of every route at once (paths.arc_angles, arc_points_many); the
    # drawing must not depend on that.
    from ttr_maps.render.paths import arc_angle, arc_angles, arc_points, arc_points_many

    rng = np.random.default_rng(5)
    chord = rng.uniform(0.1, 100, 500)
    length = chord * rng.uniform(0.5, 5, 500)
    chord[:5] = 0
    assert arc_angles(chord, length).tolist() == [arc_angle(c, n) for c, n in zip(chord.tolist(), length.tolist())]
    a = [tuple(p) for p in rng.uniform(0, 100, (500, 2)).tolist()]
    b = [tuple(p) for p in rng.uniform(0, 100, (500, 2)).tolist()]
    theta = arc_angles(chord, length)
    side = rng.choice([1, -1], 500)
    many = [list(map(tuple, line.tolist())) if isinstance(line, np.ndarray) else line for line in arc_points_many(a, b, theta, side)]
    assert many == [arc_points(p, q, t, int(s)) for p, q, t, s in zip(a, b, theta.tolist(), side.tolist())]
