"""Draw a board plan as SVG: the table, the land, the routes, the places and the legends."""

from __future__ import annotations

import math
from typing import Any, Callable

from ..model.board import Board, GRAY
from ..model.variant import Variant
from . import glyphs
from .palette import (
    CITY_FILL,
    CITY_RING,
    COUNTRY,
    FRAME,
    FRAME_LIGHT,
    INK,
    INK_SOFT,
    LAND,
    LAND_EDGE,
    LOCO_MARK,
    PAPER,
    SEA,
    SEA_DEEP,
    darker,
    lighter,
)
from .plan import SUBTITLE, BoardOptions, BoardPlan, Block, plan_board, scoring_lines
from .svg import Leaf, Pen, Written, n, path_d, rotated
from .text import TITLE_STACK


def render_board(board: Board, variant: Variant | None = None, options: BoardOptions | None = None) -> str:
    """The board as an SVG document (a string), the same bytes for the same input (`draw_board` of `plan_board`).

    The cars, markers and names are drawn while the plan's land shape is still being worked out (`plan_board`'s
    `meanwhile`): they do not depend on it, and on two cores the land then costs no time of its own."""
    parts: list[DrawnParts] = []
    plan = plan_board(board, variant, options, meanwhile=lambda draft: parts.append(draw_parts(draft)))
    return draw_board(plan, parts=parts[0] if parts else None)


#: The elements of the routes, tokens and places (under an overlay), and of the names (over it).
DrawnParts = tuple[list[Any], list[Any]]


def draw_parts(plan: BoardPlan) -> DrawnParts:
    """What `draw_board` draws of the routes, tokens, places and names (they need no land, legend or frame):
    made with a pen of their own and written to text already (`svg.Written`: in `render_board`, while the land
    is being worked out), then moved into the board's drawing."""
    pen = Pen(1.0, 1.0)
    below, above = pen.dwg.g(), pen.dwg.g()
    draw_routes(pen, below, plan)
    draw_tokens(pen, below, plan)
    draw_places(pen, below, plan)
    draw_labels(pen, above, plan)
    return [Written(e) for e in below.elements], [Written(e) for e in above.elements]


def draw_board(plan: BoardPlan, overlay: Callable[[Pen, Any, BoardPlan], None] | None = None, parts: DrawnParts | None = None) -> str:
    """The plan as SVG. `overlay(pen, group, plan)`, when given, draws over the routes and places and
    under the names (the simulation report's heat map: ttr_maps/simulate/heatmap.py). `parts`: what
    `draw_parts` drew of this plan already."""
    pen = Pen(plan.width, plan.height, title=plan.board.meta.title)
    draw_table(pen, plan)
    g = pen.group(transform=f"translate({n(plan.dx)} {n(plan.dy)})")
    draw_land(pen, g, plan)
    if parts is None:
        draw_routes(pen, g, plan)
        draw_tokens(pen, g, plan)
        draw_places(pen, g, plan)
    else:
        pen.extend(g, parts[0])
    if overlay is not None:
        overlay(pen, g, plan)
    if parts is None:
        draw_labels(pen, g, plan)
    else:
        pen.extend(g, parts[1])
    draw_blocks(pen, g, plan)
    return pen.tostring()


def draw_table(pen: Pen, plan: BoardPlan) -> None:
    """The wooden frame, the score track and the sea."""
    car = plan.car
    root = pen.group(id="table")
    pen.rect(root, 0, 0, plan.width, plan.height, car * 0.18, fill=FRAME)
    for cell in plan.cells:
        fifth = cell.number % 5 == 0
        pen.rect(
            root, cell.x, cell.y, cell.w, cell.h, car * 0.03,
            fill="#ead9a6" if fifth else PAPER, stroke=FRAME_LIGHT, stroke_width=n(car * 0.025),
        )
        size = min(cell.w, cell.h) * (0.42 if fifth else 0.34)
        pen.text(root, str(cell.number), cell.x + cell.w / 2, cell.y + cell.h / 2, size, dy=size * 0.36,
                 bold=fifth, fill=INK if fifth else INK_SOFT)
    x0, y0, x1, y1 = plan.map_box
    mx, my = x0 + plan.dx, y0 + plan.dy
    w, h = x1 - x0, y1 - y0
    f = plan.frame
    pen.rect(root, mx - f, my - f, w + 2 * f, h + 2 * f, 0, fill=FRAME_LIGHT)
    pen.rect(root, mx - f * 0.45, my - f * 0.45, w + f * 0.9, h + f * 0.9, 0, fill="#d9b865")
    # A flat sea: a gradient would not survive being cut into print tiles.
    pen.rect(root, mx, my, w, h, 0, fill=SEA)


def draw_land(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    car = plan.car
    g = pen.group(parent, id="land")
    for poly in plan.land:
        d = path_d(poly)
        pen.path(g, d, fill="none", stroke=SEA_DEEP, stroke_width=n(car * 0.32), stroke_linejoin="round", stroke_opacity="0.55")
        pen.path(g, d, fill=LAND, stroke=LAND_EDGE, stroke_width=n(car * 0.05), stroke_linejoin="round", fill_rule="evenodd")


def draw_routes(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    l, w = plan.space_length, plan.space_width
    r = w * 0.2
    g = pen.group(parent, id="routes")
    rails = pen.group(g, fill="none", stroke=INK_SOFT, stroke_width=n(w * 0.1), stroke_opacity="0.55", stroke_dasharray=f"{n(w * 0.1)} {n(w * 0.16)}")
    for rp in plan.routes:
        for t in rp.tracks:
            if len(t.spaces) > 1:
                pen.polyline(rails, t.rail)
    # Every car is the same rectangle turned into place: each is made from one of a few templates, its own
    # `transform` added (as `pen.rect` would make it, tens of thousands of times).
    def car(**attrs: Any) -> dict[str, Any]:
        return pen.rect(None, -l / 2, -w / 2, l, w, r, **attrs).attribs

    if plan.options.shadows:
        sh = pen.group(g, fill="#000000", fill_opacity="0.28")
        shadow = car()
        for rp in plan.routes:
            for t in rp.tracks:
                for s in t.spaces:
                    sh.add(Leaf.of("rect", {**shadow, "transform": rotated(s.x + w * 0.1, s.y + w * 0.13, s.angle)}))
    looks: dict[tuple[str, bool], dict[str, Any]] = {}
    for rp in plan.routes:
        rg = pen.group(g, id=f"route-{rp.ends[0]}-{rp.ends[1]}")
        for t in rp.tracks:
            sw = plan.palette[t.color]
            for s in t.spaces:
                look = looks.get((t.color, s.tunnel))
                if look is None:
                    attrs: dict[str, Any] = {"fill": sw.fill, "stroke": sw.stroke, "stroke_width": n(w * 0.07)}
                    if s.tunnel:
                        attrs.update(stroke="#141414", stroke_width=n(w * 0.14), stroke_dasharray=f"{n(w * 0.28)} {n(w * 0.16)}")
                    look = looks[t.color, s.tunnel] = car(**attrs)
                rg.add(Leaf.of("rect", {**look, "transform": rotated(s.x, s.y, s.angle)}))
                if s.loco:
                    k = w * 1.1
                    pen.path(rg, glyphs.LOCOMOTIVE, fill=LOCO_MARK, transform=f"{rotated(s.x, s.y, s.angle)} scale({n(k)})")
                    pen.path(rg, glyphs.LOCOMOTIVE_WINDOW, fill=sw.fill, transform=f"{rotated(s.x, s.y, s.angle)} scale({n(k)})")
                elif plan.options.colorblind and sw.letter and t.color != GRAY:
                    size = w * 0.62
                    pen.text(rg, sw.letter, s.x, s.y, size, rotate=s.angle or 0.001, dy=size * 0.36, bold=True, fill=sw.text)


def draw_tokens(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    if not plan.tokens:
        return
    g = pen.group(parent, id="goods")
    for tk in plan.tokens:
        sw = plan.palette[tk.color]
        depth = min(len(tk.values) - 1, 2)
        for i in range(depth, 0, -1):
            off = tk.r * 0.22 * i
            pen.circle(g, tk.x + off, tk.y + off, tk.r, fill=darker(sw.fill, 0.85), stroke=INK, stroke_width=n(tk.r * 0.12))
        pen.circle(g, tk.x, tk.y, tk.r, fill=sw.fill, stroke=INK, stroke_width=n(tk.r * 0.14))
        size = tk.r * 1.15
        pen.text(g, str(tk.values[0]), tk.x, tk.y, size, dy=size * 0.36, bold=True, fill=sw.text)


def draw_places(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    g = pen.group(parent, id="places")
    for pp in plan.places:
        r = pp.radius
        for ex, ey in pp.entries:  # one place drawn at several points: each route ends at its own entry
            pen.line(g, pp.x, pp.y, ex, ey, stroke=COUNTRY if pp.place.is_country else CITY_RING, stroke_width=n(r * 0.12),
                     stroke_dasharray=f"{n(r * 0.3)} {n(r * 0.3)}", stroke_opacity="0.5")
            if pp.place.is_country:
                draw_country_marker(pen, g, ex, ey, r * 0.8, math.atan2(ey - pp.y, ex - pp.x))
            else:
                pen.circle(g, ex, ey, r * 0.8, fill=CITY_FILL, stroke=CITY_RING, stroke_width=n(r * 0.3))
        if plan.options.shadows:
            pen.circle(g, pp.x + r * 0.16, pp.y + r * 0.2, r * 1.05, fill="#000000", fill_opacity="0.3")
        if pp.place.is_country:
            draw_country_marker(pen, g, pp.x, pp.y, r, pp.outward)
        elif pp.big:
            pen.circle(g, pp.x, pp.y, r * 1.2, fill="none", stroke=CITY_RING, stroke_width=n(r * 0.12))
            pen.circle(g, pp.x, pp.y, r, fill=CITY_RING)
            pen.circle(g, pp.x, pp.y, r * 0.7, fill=CITY_FILL)
            pen.path(g, glyphs.STAR, fill=CITY_RING, transform=f"translate({n(pp.x)} {n(pp.y)}) scale({n(r * 1.05)})")
        else:
            pen.circle(g, pp.x, pp.y, r, fill=CITY_FILL, stroke=CITY_RING, stroke_width=n(r * 0.3))
            pen.circle(g, pp.x, pp.y, r * 0.32, fill=CITY_RING)


def draw_country_marker(pen: Pen, parent: Any, x: float, y: float, r: float, outward: float) -> None:
    """A border area (dashed ring) with an arrow pointing off the board."""
    pen.circle(parent, x, y, r * 1.9, fill=COUNTRY, fill_opacity="0.16", stroke=COUNTRY, stroke_width=n(r * 0.1),
               stroke_dasharray=f"{n(r * 0.35)} {n(r * 0.2)}")
    pen.circle(parent, x, y, r, fill=COUNTRY, stroke="#ffffff", stroke_width=n(r * 0.18))
    a = outward
    tip = (x + math.cos(a) * r * 0.62, y + math.sin(a) * r * 0.62)
    back = [(x + math.cos(a + s) * r * 0.55, y + math.sin(a + s) * r * 0.55) for s in (2.3, -2.3)]
    pen.polygon(parent, [tip, back[0], (x + math.cos(a) * r * 0.05, y + math.sin(a) * r * 0.05), back[1]], fill="#ffffff")


LEADER_GAP = 0.2  # car lengths between a marker and its name beyond which a leader line joins them


def draw_labels(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    g = pen.group(parent, id="labels")
    for pp in plan.places:
        lb = pp.label
        if lb is None:
            continue
        x0, y0, x1, y1 = lb.box
        # A name pushed away from its marker (the near spots were taken) gets a leader line to it.
        nx, ny = min(max(pp.x, x0), x1), min(max(pp.y, y0), y1)
        gap = math.hypot(nx - pp.x, ny - pp.y)
        if gap - pp.radius > plan.car * LEADER_GAP:
            ux, uy = (nx - pp.x) / gap, (ny - pp.y) / gap
            pen.line(g, pp.x + ux * pp.radius, pp.y + uy * pp.radius, nx, ny, stroke=INK, stroke_width=n(lb.size * 0.08))
        pen.rect(g, x0, y0, x1 - x0, y1 - y0, (y1 - y0) * 0.3, fill=PAPER, fill_opacity="0.82",
                 stroke=COUNTRY if pp.place.is_country else LAND_EDGE, stroke_width=n(lb.size * 0.06))
        pen.text(g, lb.text, lb.x, lb.y, lb.size, bold=lb.bold, italic=lb.italic, fill=COUNTRY if pp.place.is_country else INK)


def draw_blocks(pen: Pen, parent: Any, plan: BoardPlan) -> None:
    for blk in plan.blocks.values():
        g = pen.group(parent, id=f"legend-{blk.kind}")
        if blk.kind == "compass":
            draw_compass(pen, g, blk, plan)
            continue
        panel(pen, g, blk, plan)
        if blk.kind == "title":
            draw_title(pen, g, blk, plan)
        elif blk.kind == "key":
            draw_key(pen, g, blk, plan)
        elif blk.kind == "scoring":
            draw_scoring(pen, g, blk, plan)


def draw_compass(pen: Pen, g: Any, blk: Block, plan: BoardPlan) -> None:
    """A compass rose (north is up: board y grows southwards)."""
    car = plan.car
    cx, cy = blk.x + blk.w / 2, blk.y + blk.h * 0.58
    r = blk.w * 0.42
    pen.circle(g, cx, cy, r, fill=PAPER, fill_opacity="0.55", stroke=FRAME, stroke_width=n(car * 0.03))
    pen.circle(g, cx, cy, r * 0.8, fill="none", stroke=FRAME_LIGHT, stroke_width=n(car * 0.015))
    # The diagonals: an eight-pointed star behind the four main points.
    star = []
    for k in range(8):
        a, f = math.pi / 4 + k * math.pi / 4, (0.62 if k % 2 == 0 else 0.14)
        star.append((cx + math.cos(a) * r * f, cy + math.sin(a) * r * f))
    pen.polygon(g, star, fill=FRAME_LIGHT)
    for k in range(4):
        a = -math.pi / 2 + k * math.pi / 2
        tip = (cx + math.cos(a) * r * 0.95, cy + math.sin(a) * r * 0.95)
        left = (cx + math.cos(a - math.pi / 2) * r * 0.16, cy + math.sin(a - math.pi / 2) * r * 0.16)
        right = (cx + math.cos(a + math.pi / 2) * r * 0.16, cy + math.sin(a + math.pi / 2) * r * 0.16)
        pen.polygon(g, [(cx, cy), left, tip], fill=FRAME)
        pen.polygon(g, [(cx, cy), tip, right], fill="#d9b865" if k else CITY_RING)
    pen.text(g, "N", cx, blk.y + car * 0.2, car * 0.2, bold=True, family=TITLE_STACK, fill=FRAME)


def panel(pen: Pen, g: Any, blk: Block, plan: BoardPlan) -> None:
    car = plan.car
    if plan.options.shadows:
        pen.rect(g, blk.x + car * 0.06, blk.y + car * 0.08, blk.w, blk.h, car * 0.12, fill="#000000", fill_opacity="0.25")
    pen.rect(g, blk.x, blk.y, blk.w, blk.h, car * 0.12, fill=PAPER, stroke=FRAME, stroke_width=n(car * 0.05))
    i = car * 0.07
    pen.rect(g, blk.x + i, blk.y + i, blk.w - 2 * i, blk.h - 2 * i, car * 0.08, fill="none", stroke="#c8a24a", stroke_width=n(car * 0.02))


def draw_title(pen: Pen, g: Any, blk: Block, plan: BoardPlan) -> None:
    car = plan.car
    title = plan.options.text(plan.board.meta.title) or "Untitled board"
    cx = blk.x + blk.w / 2
    pen.text(g, title, cx, blk.y + car * 0.16 + blk.size, blk.size, bold=True, family=TITLE_STACK, fill=FRAME)
    pen.text(g, SUBTITLE, cx, blk.y + car * 0.5 + blk.size, car * 0.18, italic=True, fill=INK_SOFT)


def draw_key(pen: Pen, g: Any, blk: Block, plan: BoardPlan) -> None:
    car = plan.car
    pen.text(g, "Key", blk.x + car * 0.25, blk.y + car * 0.42, car * 0.2, anchor="start", bold=True, fill=FRAME)
    rows = plan.legend_rows
    per_col = math.ceil(len(rows) / 2)
    col_w = (blk.w - car * 0.45) / 2
    for i, (kind, label) in enumerate(rows):
        col, row = divmod(i, per_col)
        x = blk.x + car * 0.25 + col * col_w
        y = blk.y + car * 0.62 + row * car * 0.32
        key_icon(pen, g, kind, x + car * 0.3, y, plan)
        pen.text(g, label, x + car * 0.68, y, car * 0.15, anchor="start", dy=car * 0.054, fill=INK)


def key_icon(pen: Pen, g: Any, kind: str, x: float, y: float, plan: BoardPlan) -> None:
    """A small picture for one key row, centred on (x, y)."""
    car = plan.car
    l, w = car * 0.52, car * 0.21
    if kind.startswith("color:"):
        sw = plan.palette[kind[6:]]
        pen.rect(g, x - l / 2, y - w / 2, l, w, w * 0.2, fill=sw.fill, stroke=sw.stroke, stroke_width=n(w * 0.08))
        if plan.options.colorblind and sw.letter and sw.name != GRAY:
            pen.text(g, sw.letter, x, y, w * 0.7, dy=w * 0.25, bold=True, fill=sw.text)
    elif kind == "ferry":
        sw = plan.palette[GRAY]
        pen.rect(g, x - l / 2, y - w / 2, l, w, w * 0.2, fill=sw.fill, stroke=sw.stroke, stroke_width=n(w * 0.08))
        pen.path(g, glyphs.LOCOMOTIVE, fill=LOCO_MARK, transform=f"translate({n(x)} {n(y)}) scale({n(w * 1.1)})")
    elif kind == "tunnel":
        sw = plan.palette[GRAY]
        pen.rect(g, x - l / 2, y - w / 2, l, w, w * 0.2, fill=sw.fill, stroke="#141414", stroke_width=n(w * 0.14),
                 stroke_dasharray=f"{n(w * 0.28)} {n(w * 0.16)}")
    elif kind == "big":
        r = car * 0.11
        pen.circle(g, x, y, r, fill=CITY_RING)
        pen.circle(g, x, y, r * 0.7, fill=CITY_FILL)
        pen.path(g, glyphs.STAR, fill=CITY_RING, transform=f"translate({n(x)} {n(y)}) scale({n(r * 1.05)})")
    elif kind == "country":
        draw_country_marker(pen, g, x, y, car * 0.07, 0.0)
    elif kind == "goods":
        r = car * 0.1
        pen.circle(g, x, y, r, fill=plan.palette["yellow"].fill, stroke=INK, stroke_width=n(r * 0.14))
        pen.text(g, "3", x, y, r * 1.15, dy=r * 0.41, bold=True, fill=INK)


def draw_scoring(pen: Pen, g: Any, blk: Block, plan: BoardPlan) -> None:
    car = plan.car
    assert plan.variant is not None
    pen.text(g, "Route scoring", blk.x + car * 0.25, blk.y + car * 0.42, car * 0.2, anchor="start", bold=True, fill=FRAME)
    table = sorted(plan.variant.scoring.routes.items())
    col = car * 0.62
    x = blk.x + (blk.w - col * len(table)) / 2
    y = blk.y + car * 0.62
    for i, (length, points) in enumerate(table):
        cx = x + col * (i + 0.5)
        pen.rect(g, cx - col * 0.42, y - car * 0.1, col * 0.84, car * 0.2, car * 0.04, fill=lighter(FRAME_LIGHT, 0.75), stroke=FRAME_LIGHT, stroke_width=n(car * 0.015))
        pen.text(g, f"{length}", cx, y, car * 0.15, dy=car * 0.054, bold=True, fill=INK)
        pen.circle(g, cx, y + car * 0.32, car * 0.14, fill=FRAME, stroke="#d9b865", stroke_width=n(car * 0.02))
        pen.text(g, f"{points}", cx, y + car * 0.32, car * 0.15, dy=car * 0.054, bold=True, fill="#ffffff")
    ty = y + car * 0.78
    for line in scoring_lines(plan.variant):
        pen.text(g, plan.options.text(line), blk.x + car * 0.3, ty, car * 0.15, anchor="start", fill=INK)
        ty += car * 0.3
