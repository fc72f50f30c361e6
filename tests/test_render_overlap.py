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
    one = [arc_points(p, q, t, int(s)) for p, q, t, s in zip(a, b, theta.tolist(), side.tolist())]
    # The same points, to the last bits of a float: numpy's own sin and cos (vectorised, AVX-512 on some CPUs) and the
    # C library's, which arc_points uses, may differ in the last place (seen: 6e-14 on coordinates up to 100). A
    # drawing writes coordinates to hundredths, so that never shows; a wrong sweep, side or sample count would.
    assert [len(line) for line in many] == [len(line) for line in one]
    assert [line for line in many if len(line) == 2] == [line for line in one if len(line) == 2]  # flat: [a, b]
    assert np.allclose(np.concatenate([np.asarray(line) for line in many]), np.concatenate([np.asarray(line) for line in one]),
                       rtol=0, atol=1e-9)


def polygons(rng: np.random.Generator, n: int) -> np.ndarray:
    """Convex polygons as the label placer meets them: route spaces (4 corners), markers and tokens (circles of 16
    and 12 corners), of either winding."""
    out = []
    for k in range(n):
        centre, r = rng.uniform(0, 2, 2), rng.uniform(0.05, 0.6)
        corners = (4, 16, 12)[k % 3]
        if corners == 4:
            ring = rects(rng, 1, r * 2, r * 0.6)[0] + centre - 1
        else:
            t = np.linspace(0, 2 * np.pi, corners, endpoint=False)
            ring = np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], axis=-1)
        out.append(ring[::-1] if k % 2 else ring)
    return out


def test_box_areas_agree_with_geos_and_say_which_are_surely_apart():
    from ttr_maps.render.overlap import BOX_TOLERANCE, box_areas

    rng = np.random.default_rng(13)
    polys = polygons(rng, 6000)
    lo = rng.uniform(0, 2, (6000, 2))
    boxes = np.concatenate([lo, lo + rng.uniform(0.05, 1.0, (6000, 2))], axis=1)
    shapes = shapely.polygons([shapely.linearrings(p) for p in polys])
    geos = shapely.area(shapely.intersection(shapes, shapely.box(*boxes.T)))
    ours = np.zeros(len(polys))
    apart = np.zeros(len(polys), dtype=bool)
    for corners in (4, 16, 12):
        k = np.array([i for i, p in enumerate(polys) if len(p) == corners])
        ours[k], apart[k] = box_areas(boxes[k], np.array([polys[i] for i in k]))
    own = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    assert (geos > 0).sum() > 1000 and apart.sum() > 1000  # the sample has many of both
    assert (np.abs(ours - geos) <= BOX_TOLERANCE * own * 1e-3).all()  # far inside the tolerance the placer allows
    assert (geos[apart] == 0).all() and (ours[apart] == 0).all()


def test_box_areas_of_contained_touching_and_far_polygons():
    from ttr_maps.render.overlap import box_areas

    square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=float)
    boxes = np.array([[-1, -1, 3, 3], [0.5, 0.5, 1, 1], [2, 0, 4, 2], [5, 5, 6, 6], [1, 1, 3, 3]], dtype=float)
    area, apart = box_areas(boxes, np.stack([square] * 5))
    assert area.tolist() == [4.0, 0.25, 0.0, 0.0, 1.0]
    assert apart.tolist() == [False, False, True, True, False]


def test_quick_covers_are_within_their_bounds_and_exact_covers_are_geos_own():
    # The label placer's nearest ring: areas from box_areas for convex obstacles, GEOS's for any other shape (an
    # L-shaped one, one with a hole), and GEOS's own figures when asked.
    from shapely import STRtree

    from ttr_maps.render.plan import _covered, _QuickCover

    rng = np.random.default_rng(17)
    obstacles = [shapely.polygons(shapely.linearrings(p)) for p in polygons(rng, 300)]
    # Away from the others (at 10, 10).
    obstacles.append(shapely.Polygon([(10, 10), (11.5, 10), (11.5, 10.4), (10.4, 10.4), (10.4, 11.5), (10, 11.5)]))
    obstacles.append(shapely.Polygon([(12, 12), (13, 12), (13, 13), (12, 13)], [[(12.4, 12.4), (12.6, 12.4), (12.6, 12.6), (12.4, 12.6)]]))
    arr = np.array(obstacles, dtype=object)
    tree = STRtree(arr)
    lo = rng.uniform(0, 2, (400, 2))
    cands = [tuple(b) for b in np.concatenate([lo, lo + rng.uniform(0.05, 0.5, (400, 2))], axis=1).tolist()]
    cands += [(10.1, 10.2, 10.8, 10.6), (12.3, 12.3, 12.5, 12.5)]  # over the L's corner; over the hole's edge
    exact = _covered(cands, tree, arr)
    quick = _QuickCover(cands, tree, arr)
    assert [(s, a) for s, a, _ in quick.exact(0, len(cands))] == exact
    assert all(abs(s - e[0]) <= err for (s, _, err), e in zip(quick.cover, exact))
    assert sum(err > 0 for _, _, err in quick.cover) > 100
    assert quick.cover[-2:] == [(s, a, 0.0) for s, a in exact[-2:]]  # GEOS's own figures for the odd shapes
    assert [round(s, 9) for s, _ in exact[-2:]] == [0.2, 0.03]


def test_names_are_placed_as_with_geos_areas_alone(monkeypatch):
    # With no tolerance to trust, every place whose nearest spots touch a convex obstacle is settled with GEOS's
    # own areas (the placer before box_areas): the names land in the same spots.
    import ttr_maps.render.plan as plan_mod
    from ttr_maps.bundled import resolve
    from ttr_maps.load import load_variant

    for name in ("usa", "marklin"):
        variant, board = load_variant(resolve(name))
        quick = [pp.label.box for pp in plan_mod.plan_board(board, variant, decor=False).places]
        monkeypatch.setattr(plan_mod, "BOX_TOLERANCE", float("inf"))
        slow = [pp.label.box for pp in plan_mod.plan_board(board, variant, decor=False).places]
        monkeypatch.undo()
        assert quick == slow


def test_areas_do_no_arithmetic_on_unset_memory():
    """The clipping reads each point's next point from the rows moved by one; every entry of that copy is set, also
    past a row's last point, so no NaN or infinity left in reused memory reaches numpy's arithmetic (which printed
    'RuntimeWarning: invalid value encountered' on a user's terminal now and then)."""
    from ttr_maps.render.overlap import _next, box_areas

    rng = np.random.default_rng(5)
    v = rng.uniform(-1, 1, (50, 8))
    rows, last = np.arange(50), rng.integers(2, 8, 50)
    want = np.roll(v, -1, axis=1)
    want[rows, last] = v[:, 0]
    for _ in range(3):
        np.full_like(v, np.nan)  # freed memory full of NaN, which the next array of this size may reuse
        assert np.array_equal(_next(v, rows, last), want)
    a, b = rects(rng, 400), rects(rng, 400)
    boxes = np.concatenate([b.min(axis=1), b.max(axis=1)], axis=1)
    for _ in range(3):
        np.full((400, 16), np.inf), np.full((400, 8), np.nan)
        with np.errstate(all="raise"):
            shared_areas(a, b)
            box_areas(boxes, a)
