"""Measuring how readable a board plan's routes are: spaces over other spaces, spaces over other places.

`route_conflicts(plan)` finds
- **overlapping pairs**: two routes (different pairs of places) where some space of
  one has more than `share` (25 %) of its area covered by a space of the other;
- **spaces over markers**: a route's space covering part of the marker of a place
  that is not one of its two ends (by more than `marker_share` of the marker).

Used by the regression test on the bundled boards and by
`python benchmarks/bench_render.py --conflicts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import STRtree

from .plan import BoardPlan, space_polygons


@dataclass
class Conflicts:
    overlapping: list[tuple[tuple[str, str], tuple[str, str]]] = field(default_factory=list)  # route ends, sorted pairs
    over_markers: list[tuple[tuple[str, str], str]] = field(default_factory=list)  # (route ends, place id)

    def summary(self) -> str:
        return f"{len(self.overlapping)} overlapping route pairs, {len(self.over_markers)} routes over a foreign marker"


def route_conflicts(plan: BoardPlan, share: float = 0.25, marker_share: float = 0.05) -> Conflicts:
    """The overlapping route pairs and the routes over foreign place markers of `plan`."""
    spaces = []
    owner: list[int] = []
    for g, rp in enumerate(plan.routes):
        for t in rp.tracks:
            spaces += t.spaces
            owner += [g] * len(t.spaces)
    out = Conflicts()
    if not spaces:
        return out
    polys = space_polygons(spaces, plan.space_length, plan.space_width)
    own = np.array(owner)
    area = plan.space_length * plan.space_width
    tree = STRtree(polys)
    qi, ti = tree.query(polys, predicate="intersects")
    keep = own[qi] != own[ti]
    qi, ti = qi[keep], ti[keep]
    pairs: set[tuple[tuple[str, str], tuple[str, str]]] = set()
    if len(qi):
        inter = shapely.area(shapely.intersection(polys[qi], polys[ti]))
        for a, b, s in zip(qi, ti, inter):
            if s > share * area:
                ka, kb = plan.routes[own[a]].ends, plan.routes[own[b]].ends
                pairs.add((min(ka, kb), max(ka, kb)))
    out.overlapping = sorted(pairs)
    markers = shapely.buffer(shapely.points([(pp.x, pp.y) for pp in plan.places]), [pp.radius for pp in plan.places], quad_segs=8)
    marker_area = shapely.area(markers)
    qi, ti = STRtree(markers).query(polys, predicate="intersects")
    hits: set[tuple[tuple[str, str], str]] = set()
    if len(qi):
        inter = shapely.area(shapely.intersection(polys[qi], markers[ti]))
        for s_i, m_i, s in zip(qi, ti, inter):
            ends = plan.routes[own[s_i]].ends
            pid = plan.places[m_i].place.id
            if pid not in ends and s > marker_share * marker_area[m_i]:
                hits.add((ends, pid))
    out.over_markers = sorted(hits)
    return out
