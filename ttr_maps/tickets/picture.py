"""The board with the deck's route load drawn on it (SVG): the simulate heat map's drawing, coloured
by load instead of claims, with each loaded route's load written on it and places ringed by use."""

from __future__ import annotations

from typing import Any

from ..render.svg import n
from ..simulate.heatmap import heat_map_svg
from .figures import DeckFigures


def route_load_svg(fig: DeckFigures, car_mm: float = 14.0) -> str:
    """Routes coloured by load (the heaviest darkest; blue dashed: no ticket's shortest path uses it),
    places ringed by how many tickets end there, and the load written on each loaded route."""
    top = max(fig.route_load.values(), default=0.0) or 1.0
    route_rate: dict[str, float] = {}
    label: dict[str, float] = {}
    for e, load in fig.route_load.items():
        for rid in fig.paths.edges[e].ids:
            route_rate[rid] = max(load / top, 1e-6)
            label[rid] = load
    most = max(fig.place_uses.values(), default=0) or 1
    place_rate = {p: max(u / most, 1e-6) for p, u in fig.place_uses.items() if u}

    def numbers(pen: Any, parent: Any, plan: Any) -> None:
        g = pen.group(parent, id="load")
        size = plan.space_width * 0.9
        for rp in plan.routes:
            track = rp.tracks[0]
            rid = str(track.route.id)
            if rid not in label or not track.spaces:
                continue
            mid = track.spaces[len(track.spaces) // 2]
            pen.circle(g, mid.x, mid.y, size * 0.75, fill="#ffffff", stroke="#3a1a00", stroke_width=n(size * 0.08))
            pen.text(g, f"{round(label[rid], 1):g}", mid.x, mid.y, size * 0.8, bold=True, dy=size * 0.28)

    return heat_map_svg(fig.paths.board, None, route_rate, place_rate, car_mm=car_mm, extra=numbers)
