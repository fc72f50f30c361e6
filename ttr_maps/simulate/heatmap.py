"""The board as a heat map: the SVG board renderer draws the board, an overlay colours it by the summary.

Each route's spaces are painted by how often the route was claimed (share of
games), routes never claimed are blue with a dashed outline, and a ring around
each place shows how often some claimed route reached it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..render.board import draw_board
from ..render.plan import BoardOptions, plan_board
from ..render.svg import n, rotated

if TYPE_CHECKING:
    from ..model.board import Board
    from ..model.variant import Variant

# Colour scale (0 → 1): pale yellow → orange → dark red.
STOPS = ((0.0, (255, 245, 200)), (0.35, (253, 174, 97)), (0.7, (230, 85, 13)), (1.0, (127, 0, 0)))
NEVER = "#2f6eb5"


def heat(v: float) -> str:
    v = min(1.0, max(0.0, v))
    for (a, ca), (b, cb) in zip(STOPS, STOPS[1:]):
        if v <= b:
            f = (v - a) / (b - a) if b > a else 0.0
            return "#%02x%02x%02x" % tuple(round(x + (y - x) * f) for x, y in zip(ca, cb))
    return "#%02x%02x%02x" % STOPS[-1][1]


def gradient_css() -> str:
    return "linear-gradient(to right, " + ", ".join(f"{heat(v)} {v * 100:.0f}%" for v in (0, 0.25, 0.5, 0.75, 1)) + ")"


def heat_map_svg(board: Board, variant: Variant | None, route_rate: dict[str, float], place_rate: dict[str, float],
                 car_mm: float = 14.0, extra: Callable[[Any, Any, Any], None] | None = None) -> str:
    """The board drawn with routes and places coloured by their rates (0..1), as an SVG string."""
    plan = plan_board(board, variant, BoardOptions(car_mm=car_mm, shadows=False, score_track=False, legend=False))

    def overlay(pen: Any, parent: Any, plan: Any) -> None:
        length, width = plan.space_length, plan.space_width
        g = pen.group(parent, id="heat")
        for rp in plan.routes:
            for track in rp.tracks:
                rate = route_rate.get(track.route.id, 0.0)
                never = rate <= 0.0
                attrs = {"fill": NEVER if never else heat(rate), "stroke": "#0b2545" if never else "#3a1a00",
                         "stroke_width": n(width * (0.16 if never else 0.08))}
                if never:
                    attrs["stroke_dasharray"] = f"{n(width * 0.3)} {n(width * 0.2)}"
                for s in track.spaces:
                    pen.rect(g, -length / 2, -width / 2, length, width, width * 0.2, transform=rotated(s.x, s.y, s.angle), **attrs)
        for pp in plan.places:
            rate = place_rate.get(pp.place.id, 0.0)
            pen.circle(g, pp.x, pp.y, pp.radius * 1.25, fill="none", stroke=heat(rate) if rate > 0 else NEVER,
                       stroke_width=n(pp.radius * 0.55))

        if extra is not None:  # more drawn on top (tickets score: each route's load)
            extra(pen, parent, plan)

    return draw_board(plan, overlay=overlay)
