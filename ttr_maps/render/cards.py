"""Cards: destination tickets, train cards and summary cards, drawn as SVG.

Each card is drawn into a group at a given position, so the same drawing makes a
single-card SVG, a sheet for `ttr-maps render --cards` and the print sheets.
A ticket carries a mini-map of the board (built once per board from the plan).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..model.board import Board, Ticket
from ..model.variant import Variant
from . import glyphs
from .palette import CITY_RING, FRAME, FRAME_LIGHT, INK, INK_SOFT, LAND, LAND_EDGE, PAPER, Palette, darker, lighter
from .plan import BoardOptions, BoardPlan, plan_board
from .rules import notes, turn_actions, wild_name
from .svg import Pen, circle_d, n, path_d
from .text import TITLE_STACK, fit_size, wrap

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),  # the common "standard" card
    "mini": (44.0, 68.0),  # the small cards of the published game
}
LONG_BAND = "#1f3f73"
LONG_GOLD = "#d9b865"
LOCO_DARK = "#2a2a2e"
PASSENGER_BAND = "#4f6d8a"


@dataclass(frozen=True)
class Card:
    """One card to draw: its kind and what it shows."""

    kind: str  # ticket, train, locomotive, big-locomotive, passenger, summary
    ticket: Ticket | None = None
    color: str = ""
    copies: int = 1

    @property
    def label(self) -> str:
        if self.ticket is not None:
            return f"ticket {self.ticket.id}"
        return f"{self.kind} {self.color}".strip()


@dataclass
class MiniMap:
    """The board in small: land, route lines and place dots, as path data in plan millimetres."""

    box: tuple[float, float, float, float]
    land: str
    routes: str
    dots: str
    positions: dict[str, tuple[float, float]]


@dataclass
class CardContext:
    board: Board
    variant: Variant | None
    palette: Palette
    options: BoardOptions
    size: tuple[float, float]
    minimap: MiniMap
    decks_used: tuple[str, ...] = field(default_factory=tuple)

    def text(self, s: str) -> str:
        return self.options.text(s)


def card_context(plan: BoardPlan, size: str | tuple[float, float] = "poker") -> CardContext:
    """Everything the cards of `plan`'s board need, computed once."""
    board, variant = plan.board, plan.variant
    wh = CARD_SIZES[size] if isinstance(size, str) else size
    return CardContext(board, variant, plan.palette, plan.options, wh, _minimap(plan), _decks_used(board, variant))


def _decks_used(board: Board, variant: Variant | None) -> tuple[str, ...]:
    if variant is None or not variant.tickets.piles:
        decks = list(board.deck_names)
        if variant is not None:
            decks += [d for t in variant.tickets.add for d in t.decks if d not in decks]
        return tuple(decks)
    seen: dict[str, None] = {}
    for pile_decks in variant.tickets.piles.values():
        for d in pile_decks:
            seen.setdefault(d, None)
    return tuple(seen)


def _minimap(plan: BoardPlan) -> MiniMap:
    xs = [pp.x for pp in plan.places]
    ys = [pp.y for pp in plan.places]
    pad = plan.car * 0.9
    box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    routes = []
    for rp in plan.routes:
        pts = rp.centerline if len(rp.centerline) <= 2 else rp.centerline[:: max(1, len(rp.centerline) // 8)] + [rp.centerline[-1]]
        routes.append(pts)
    land = [[_clip_pt(p, box) for p in ring] for poly in plan.land for ring in poly]
    r = plan.car * 0.16
    dots = "".join(circle_d(pp.x, pp.y, r) for pp in plan.places)
    return MiniMap(
        box=box,
        land=path_d(land),
        routes=path_d(routes, closed=False),
        dots=dots,
        positions={pp.place.id: (pp.x, pp.y) for pp in plan.places},
    )


def _clip_pt(p: tuple[float, float], box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (min(max(p[0], box[0]), box[2]), min(max(p[1], box[1]), box[3]))


def cards_for(ctx: CardContext, copies: bool = False, parts: tuple[str, ...] = ("tickets", "trains", "summary")) -> list[Card]:
    """The cards of a game: tickets, train cards (one of each, or every copy) and summary cards."""
    out: list[Card] = []
    board, variant = ctx.board, ctx.variant
    if "tickets" in parts:
        tickets = board.tickets_in(ctx.decks_used) if ctx.decks_used else list(board.tickets)
        if variant is not None:
            tickets += list(variant.tickets.add)
        out += [Card("ticket", ticket=t) for t in tickets]
    if "trains" in parts:
        if variant is not None:
            colors = [(c, k) for c, k in variant.cards.colors.items() if k > 0]
            specials = [
                ("locomotive", variant.cards.locomotives),
                ("big-locomotive", variant.cards.big_locomotives.count),
                ("passenger", variant.cards.passengers),
            ]
        else:
            colors = [(c, 12) for c in board.colors]
            specials = [("locomotive", 14), ("big-locomotive", 0), ("passenger", 0)]
        for color, count in colors:
            out += [Card("train", color=color, copies=count)] * (count if copies else 1)
        for kind, count in specials:
            if count:
                out += [Card(kind, copies=count)] * (count if copies else 1)
    if "summary" in parts and variant is not None:
        count = variant.players.max
        out += [Card("summary", copies=count)] * (count if copies else 1)
    return out


def draw_card(pen: Pen, parent: Any, card: Card, x: float, y: float, ctx: CardContext) -> None:
    g = pen.group(parent, transform=f"translate({n(x)} {n(y)})")
    DRAWERS[card.kind](pen, g, card, ctx)


def _frame(pen: Pen, g: Any, ctx: CardContext, band: str, inner: str = PAPER) -> tuple[float, float, float]:
    w, h = ctx.size
    u = w / 63
    pen.rect(g, 0, 0, w, h, 3 * u, fill=band)
    pen.rect(g, 2.2 * u, 2.2 * u, w - 4.4 * u, h - 4.4 * u, 2 * u, fill=inner)
    return w, h, u


def _is_long(ticket: Ticket, board: Board) -> bool:
    return any(board.decks.get(d) is not None and board.decks[d].long for d in ticket.decks)


def _deck_name(ticket: Ticket, ctx: CardContext) -> str:
    decks = [d for d in ticket.decks if d in ctx.decks_used] or list(ticket.decks)
    info = ctx.board.decks.get(decks[0])
    return (info.name if info is not None and info.name else decks[0])


TICKET_LAYERS = ("base", "map", "top")


def draw_ticket(pen: Pen, g: Any, card: Card, ctx: CardContext, layers: tuple[str, ...] = TICKET_LAYERS) -> None:
    """A ticket in three layers, bottom to top: the card and its deck (`base`), the mini-map
    (`map`, the same on every ticket) and the ends, points and marks (`top`).
    The print path draws the shared layers once and stamps them on every card."""
    t = card.ticket
    assert t is not None
    long = _is_long(t, ctx.board)
    band = LONG_BAND if long else FRAME_LIGHT
    w, h = ctx.size
    u, v = w / 63, h / 88
    fx0, fy0, fx1, fy1 = 4.2 * u, 9.6 * v, w - 4.2 * u, 55 * v
    mm = ctx.minimap
    bx0, by0, bx1, by1 = mm.box
    k = min((fx1 - fx0 - 2 * u) / (bx1 - bx0), (fy1 - fy0 - 2 * u) / (by1 - by0))
    ox = (fx0 + fx1) / 2 - (bx0 + bx1) / 2 * k
    oy = (fy0 + fy1) / 2 - (by0 + by1) / 2 * k
    if "base" in layers:
        _frame(pen, g, ctx, band)
        deck = ctx.text(_deck_name(t, ctx))
        head = f"LONG - {deck}" if long else deck
        size = fit_size(head, 2.9 * u, w - 12 * u, True)
        pen.text(g, head, w / 2, 7.4 * v, size, bold=True, fill=band)
        if long:
            for sx in (4.6 * u, w - 4.6 * u):
                pen.path(g, glyphs.STAR, fill=LONG_GOLD, transform=f"translate({n(sx)} {n(6.4 * v)}) scale({n(3.2 * u)})")
        pen.rect(g, fx0, fy0, fx1 - fx0, fy1 - fy0, 1.5 * u, fill="#cfe3e8", stroke=band, stroke_width=n(0.35 * u))
        foot = ctx.text(ctx.board.meta.title)
        pen.text(g, foot, w / 2, 83.2 * v, fit_size(foot, 2.0 * u, w - 10 * u), italic=True, fill=INK_SOFT)
    if "map" in layers:
        mg = pen.group(g, transform=f"translate({n(ox)} {n(oy)}) scale({k:.5f})")
        pen.path(mg, mm.land, fill=LAND, stroke=LAND_EDGE, stroke_width=n(0.25 * u / k), fill_rule="evenodd")
        pen.path(mg, mm.routes, fill="none", stroke="#ab9f86", stroke_width=n(0.22 * u / k))
        pen.path(mg, mm.dots, fill=INK_SOFT)
    if "top" not in layers:
        return
    ends = [mm.positions.get(t.from_)] + [mm.positions.get(to) for to, _ in t.destinations]
    pts = [(ox + p[0] * k, oy + p[1] * k) if p is not None else None for p in ends]
    if pts[0] is not None:
        for q in pts[1:]:
            if q is not None:
                pen.line(g, *pts[0], *q, stroke=CITY_RING, stroke_width=n(0.45 * u), stroke_dasharray=f"{n(1.2 * u)} {n(0.8 * u)}")
    for q in pts:
        if q is not None:
            pen.circle(g, q[0], q[1], 1.9 * u, fill=CITY_RING, stroke="#ffffff", stroke_width=n(0.5 * u))
            pen.circle(g, q[0], q[1], 0.7 * u, fill="#ffffff")
    a = ctx.text(ctx.board.place_by_id[t.from_].name) if t.from_ in ctx.board.place_by_id else t.from_
    if len(t.destinations) > 1:
        _several_destinations(pen, g, ctx, t, a, band, u, v)
        return
    b = ctx.text(ctx.board.place_by_id[t.to].name) if t.to in ctx.board.place_by_id else t.to
    text_w = w - 25 * u
    pen.text(g, a, 5.5 * u, 64 * v, fit_size(a, 4.4 * u, text_w, True), anchor="start", bold=True, fill=INK)
    pen.text(g, "to", 5.5 * u, 69.6 * v, 2.6 * u, anchor="start", italic=True, fill=INK_SOFT)
    pen.text(g, b, 5.5 * u, 75.5 * v, fit_size(b, 4.4 * u, text_w, True), anchor="start", bold=True, fill=INK)
    cx, cy, r = w - 11.5 * u, 69 * v, 7.2 * u
    pen.circle(g, cx, cy, r, fill=band, stroke=LONG_GOLD if long else "#e7cf8d", stroke_width=n(0.7 * u))
    pen.text(g, str(t.points), cx, cy, 7.4 * u, dy=2.6 * u, bold=True, fill="#ffffff")


def _several_destinations(pen: Pen, g: Any, ctx: CardContext, t: Ticket, a: str, band: str, u: float, v: float) -> None:
    """The text of a ticket with several destinations (docs/rules.md#tickets-with-several-destinations):
    its start, then each destination with its points; the best one reached scores."""
    w = ctx.size[0]
    pen.text(g, a, 5.5 * u, 62 * v, fit_size(a, 4.0 * u, w - 11 * u, True), anchor="start", bold=True, fill=INK)
    pen.text(g, "to the best of", 5.5 * u, 66.4 * v, 2.4 * u, anchor="start", italic=True, fill=INK_SOFT)
    rows = t.destinations
    step = min(4.6, 14.0 / len(rows)) * v
    for i, (to, points) in enumerate(rows):
        y = 71 * v + i * step
        name = ctx.text(ctx.board.place_by_id[to].name) if to in ctx.board.place_by_id else to
        size = fit_size(name, min(3.4 * u, step * 0.8), w - 20 * u, True)
        pen.text(g, name, 5.5 * u, y, size, anchor="start", bold=True, fill=INK)
        pen.text(g, str(points), w - 6 * u, y, size, anchor="end", bold=True, fill=band)


def ticket_layer_key(card: Card, ctx: CardContext, layer: str) -> tuple:
    """Which tickets share a drawn layer: the map is shared by all, the base by a deck."""
    assert card.ticket is not None
    if layer == "map":
        return ("map",)
    if layer == "base":
        return ("base", _deck_name(card.ticket, ctx), _is_long(card.ticket, ctx.board))
    return ("top", card)


def _train_face(pen: Pen, g: Any, ctx: CardContext, fill: str, glyph: str, glyph_fill: str, name: str, corner: str,
                corner_fill: str, art: Callable[[float, float, float, float], None] | None = None) -> tuple[float, float, float]:
    w, h = ctx.size
    u = w / 63
    v = h / 88
    pen.rect(g, 0, 0, w, h, 3 * u, fill=fill, stroke=darker(fill, 0.7), stroke_width=n(0.3 * u))
    pen.rect(g, 2.6 * u, 2.6 * u, w - 5.2 * u, h - 5.2 * u, 2 * u, fill="none", stroke="#ffffff", stroke_width=n(0.6 * u), stroke_opacity="0.8")
    if art is not None:
        art(4.5 * u, 9 * v, w - 4.5 * u, 66 * v)
    cx, cy = w / 2, 38 * v
    pen.circle(g, cx, cy, 19 * u, fill=lighter(fill, 0.35) if fill != LOCO_DARK else "#f4efe2", stroke="#ffffff", stroke_width=n(0.8 * u))
    pen.path(g, glyph, fill=glyph_fill, transform=f"translate({n(cx)} {n(cy)}) scale({n(30 * u)})")
    band_y = 71 * v
    pen.rect(g, 4.5 * u, band_y, w - 9 * u, 10 * v, 1.5 * u, fill="#ffffff", fill_opacity="0.88")
    size = fit_size(name, 4.6 * u, w - 14 * u, True)
    pen.text(g, name, w / 2, band_y + 6.8 * v, size, bold=True, fill=INK)
    if corner:
        for sx in (8.5 * u, w - 8.5 * u):
            pen.circle(g, sx, 8.8 * v, 4.2 * u, fill="#ffffff", stroke=INK, stroke_width=n(0.35 * u))
            cs = fit_size(corner, 4.6 * u, 6.6 * u, True)
            pen.text(g, corner, sx, 8.8 * v, cs, dy=cs * 0.36, bold=True, fill=corner_fill)
    return w, h, u


def draw_train(pen: Pen, g: Any, card: Card, ctx: CardContext) -> None:
    sw = ctx.palette[card.color]
    corner = sw.letter if ctx.options.colorblind else ""
    name = ctx.text(card.color).upper()
    glyph_fill = darker(sw.fill, 0.55) if sw.name not in ("black",) else "#55555c"
    if sw.name == "white":
        glyph_fill = "#8a8a8a"
    _train_face(pen, g, ctx, sw.fill, glyphs.WAGON, glyph_fill, name, corner, INK)
    w, h = ctx.size
    u, v = w / 63, h / 88
    pen.path(g, glyphs.WAGON_DOOR, fill=lighter(sw.fill, 0.35), transform=f"translate({n(w / 2)} {n(38 * v)}) scale({n(30 * u)})")


def _rainbow(pen: Pen, g: Any, ctx: CardContext) -> Callable[[float, float, float, float], None]:
    colors = [ctx.palette[c].fill for c in ctx.board.colors] or ["#888888"]

    def art(x0: float, y0: float, x1: float, y1: float) -> None:
        step = (x1 - x0) / len(colors)
        for i, c in enumerate(colors):
            pen.rect(g, x0 + i * step, y0, step + 0.05, y1 - y0, 0, fill=c)

    return art


def draw_locomotive(pen: Pen, g: Any, card: Card, ctx: CardContext) -> None:
    name = ctx.text(wild_name(ctx.variant) if ctx.variant else "locomotive").upper()
    _train_face(pen, g, ctx, LOCO_DARK, glyphs.LOCOMOTIVE, LOCO_DARK, name, "*" if ctx.options.colorblind else "", INK,
                art=_rainbow(pen, g, ctx))


def draw_big_locomotive(pen: Pen, g: Any, card: Card, ctx: CardContext) -> None:
    wild = wild_name(ctx.variant) if ctx.variant else "locomotive"
    min_len = ctx.variant.cards.big_locomotives.min_length if ctx.variant else 4
    w, h, u = _train_face(pen, g, ctx, LOCO_DARK, glyphs.LOCOMOTIVE, LOCO_DARK, ctx.text(f"+4 {wild}").upper(), "+4", INK,
                          art=_rainbow(pen, g, ctx))
    v = h / 88
    pen.rect(g, 14 * u, 58.5 * v, w - 28 * u, 7.5 * v, 1.5 * u, fill="#ffffff", stroke=INK, stroke_width=n(0.3 * u))
    note = f"only on routes of {min_len}+"
    pen.text(g, note, w / 2, 63.6 * v, fit_size(note, 2.8 * u, w - 31 * u, True), bold=True, fill=INK)


def draw_passenger(pen: Pen, g: Any, card: Card, ctx: CardContext) -> None:
    w, h, u = _train_face(pen, g, ctx, PASSENGER_BAND, glyphs.PASSENGER, PASSENGER_BAND, "PASSENGER",
                          "P+" if ctx.options.colorblind else "", INK)
    v = h / 88
    note = "rides one opponent route"
    pen.text(g, note, w / 2, 63.6 * v, fit_size(note, 2.8 * u, w - 16 * u), italic=True, fill="#ffffff")


def draw_summary(pen: Pen, g: Any, card: Card, ctx: CardContext) -> None:
    variant = ctx.variant
    assert variant is not None
    w, h, u = _frame(pen, g, ctx, FRAME)
    v = h / 88
    title = ctx.text(variant.name)
    pen.text(g, title, w / 2, 8.6 * v, fit_size(title, 4.4 * u, w - 10 * u, True), bold=True, family=TITLE_STACK, fill=FRAME)
    groups = [("On your turn, do one:", turn_actions(variant)), ("Good to know:", notes(variant, ctx.board))]
    groups = [(head, [ctx.text(s) for s in lines]) for head, lines in groups if lines]
    table = sorted(variant.scoring.routes.items())
    top, bottom = 11 * v, 66 * v
    size = 2.5 * u
    while True:
        wrapped = [(head, [wrap(s, size, w - 14 * u) for s in lines]) for head, lines in groups]
        need = sum(size * 1.9 + sum(len(x) * size * 1.22 + size * 0.35 for x in paras) for _, paras in wrapped)
        if need <= bottom - top or size < 1.2 * u:
            break
        size *= 0.94
    y = top
    for head, paras in wrapped:
        y += size * 1.5
        pen.text(g, head, 5 * u, y, size * 1.08, anchor="start", bold=True, fill=INK)
        y += size * 0.4
        for para in paras:
            y += size * 1.22
            pen.circle(g, 6 * u, y - size * 0.33, size * 0.22, fill=FRAME)
            for k, line in enumerate(para):
                pen.text(g, line, 8 * u, y + k * size * 1.22, size, anchor="start", fill=INK)
            y += (len(para) - 1) * size * 1.22 + size * 0.35
    # Route scoring table.
    pen.text(g, "Route scoring", 5 * u, 70.2 * v, 2.7 * u, anchor="start", bold=True, fill=INK)
    cols = len(table)
    cw = (w - 10 * u) / max(cols, 1)
    for i, (length, points) in enumerate(table):
        cx = 5 * u + cw * (i + 0.5)
        pen.rect(g, cx - cw * 0.44, 72 * v, cw * 0.88, 4.6 * v, 0.8 * u, fill=lighter(FRAME_LIGHT, 0.75), stroke=FRAME_LIGHT, stroke_width=n(0.2 * u))
        pen.text(g, str(length), cx, 75.5 * v, 2.8 * u, bold=True, fill=INK)
        pen.circle(g, cx, 80.3 * v, min(cw * 0.4, 3 * u), fill=FRAME)
        pen.text(g, str(points), cx, 80.3 * v, 2.8 * u, dy=1.0 * u, bold=True, fill="#ffffff")


DRAWERS: dict[str, Callable[[Pen, Any, Card, CardContext], None]] = {
    "ticket": draw_ticket,
    "train": draw_train,
    "locomotive": draw_locomotive,
    "big-locomotive": draw_big_locomotive,
    "passenger": draw_passenger,
    "summary": draw_summary,
}


def render_card(card: Card, ctx: CardContext, layer: str | None = None) -> str:
    """One card as an SVG document at its real size (or one layer of a ticket)."""
    w, h = ctx.size
    pen = Pen(w, h, title=card.label)
    if layer is not None:
        g = pen.group(pen.dwg)
        draw_ticket(pen, g, card, ctx, (layer,))
    else:
        draw_card(pen, pen.dwg, card, 0, 0, ctx)
    return pen.tostring()


def render_card_sheet(cards: list[Card], ctx: CardContext, columns: int = 6, gap: float = 4.0) -> str:
    """All `cards` in a grid on one SVG (for looking at them, not for printing)."""
    w, h = ctx.size
    cols = max(1, min(columns, len(cards)))
    rows = max(1, math.ceil(len(cards) / cols))
    W = cols * w + (cols + 1) * gap
    H = rows * h + (rows + 1) * gap
    pen = Pen(W, H, title=f"{ctx.board.meta.title}: cards")
    pen.rect(pen.dwg, 0, 0, W, H, 0, fill="#e8e4da")
    for i, card in enumerate(cards):
        r, c = divmod(i, cols)
        draw_card(pen, pen.dwg, card, gap + c * (w + gap), gap + r * (h + gap), ctx)
    return pen.tostring()


def board_cards(board: Board, variant: Variant | None = None, options: BoardOptions | None = None,
                size: str = "poker") -> tuple[CardContext, list[Card]]:
    """A convenience for callers without a plan: plan the board, then list one card of each kind."""
    plan = plan_board(board, variant, options)
    ctx = card_context(plan, size)
    return ctx, cards_for(ctx)

