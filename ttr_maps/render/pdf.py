"""The print-and-play PDF: the board tiled at real size, the cards on cut sheets, the rules.

Everything is drawn from the same SVG the `render` command writes, converted by
fpdf2 (pure Python, so `pip install` is all a user needs). Text in the PDF uses
the embedded Source Sans Pro (Latin, Greek, Cyrillic; see `text.pdf_safe`); a
place whose name has letters outside it gets a warning.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from fpdf import FPDF
from fpdf.drawing import BlendGroup, DrawingContext, Point
from fpdf.svg import SVGObject
from fpdf.syntax import Name, PDFArray, PDFContentStream

from ..model.board import Board
from ..model.variant import Variant
from . import pdfdraw
from .board import draw_board
from .cards import CARD_SIZES, TICKET_LAYERS, Card, CardContext, card_context, cards_for, render_card, ticket_layer_key
from .plan import BoardOptions, BoardPlan, plan_board
from .rules import sections
from .text import PDF_FAMILY, clean, pdf_font_files, pdf_italic_ok, pdf_missing, pdf_safe
from .tiling import PAPERS, Tiling, tile_board

PARTS = ("board", "tickets", "trains", "summary", "rules")
INK = (43, 33, 24)
MARK = (60, 60, 60)
FAINT = (150, 150, 150)


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"
    car_mm: float = 24.0
    parts: tuple[str, ...] = PARTS
    card_size: str = "poker"
    every_copy: bool = True  # print each train card as many times as the deck holds it
    colorblind: bool = True
    score_track: bool = True
    margin: float = 10.0
    overlap: float = 10.0


@dataclass
class PrintResult:
    pdf: bytes
    tiling: Tiling | None
    pages: dict[str, int] = field(default_factory=dict)  # pages per part
    warnings: list[str] = field(default_factory=list)  # text the PDF's font cannot show


def build_pdf(board: Board, variant: Variant | None = None, options: PrintOptions | None = None) -> PrintResult:
    """Every page needed to play `variant` (or just `board`) as PDF bytes."""
    opts = options or PrintOptions()
    if opts.paper not in PAPERS:
        raise ValueError(f"unknown paper '{opts.paper}'; use one of {', '.join(PAPERS)}")
    if opts.card_size not in CARD_SIZES:
        raise ValueError(f"unknown card size '{opts.card_size}'; use one of {', '.join(CARD_SIZES)}")
    unknown = [p for p in opts.parts if p not in PARTS]
    if unknown:
        raise ValueError(f"unknown part(s) {', '.join(unknown)}; use any of {', '.join(PARTS)}")
    board_opts = BoardOptions(car_mm=opts.car_mm, colorblind=opts.colorblind, score_track=opts.score_track, pdf_text=True)
    plan = plan_board(board, variant, board_opts)
    pdf = FPDF(unit="mm", format=opts.paper.upper() if opts.paper != "letter" else "letter")
    pdf.set_auto_page_break(False)
    pdf.set_creator("ttr-maps")
    _register_fonts(pdf)
    pdf.set_title(clean(board.meta.title))
    # A fixed creation date keeps the output the same for the same input.
    pdf.set_creation_date(_EPOCH)
    pages: dict[str, int] = {}
    tiling = None

    def count(part: str, before: int) -> None:
        if pdf.page - before:
            pages[part] = pdf.page - before

    if "board" in opts.parts:
        before = pdf.page
        tiling = tile_board(plan.width, plan.height, opts.paper, opts.margin, opts.overlap)
        svg = Stamp(pdf, draw_board(plan))
        _cover(pdf, plan, tiling, svg, opts)
        for tile_index in range(len(tiling.tiles)):
            _tile_page(pdf, plan, tiling, tile_index, svg)
        count("board", before)
    ctx = card_context(plan, opts.card_size)
    for part in ("tickets", "trains", "summary"):
        if part in opts.parts:
            cards = cards_for(ctx, copies=opts.every_copy if part != "tickets" else False, parts=(part,))
            before = pdf.page
            _card_sheets(pdf, cards, ctx, opts, part)
            count(part, before)
    if "rules" in opts.parts and variant is not None:
        before = pdf.page
        _rules_pages(pdf, board, variant, opts)
        count("rules", before)
    if pdf.page == 0:
        raise ValueError("nothing to print: choose at least one part (rules and summary need a variant)")
    return PrintResult(bytes(pdf.output()), tiling, pages, _font_warnings(board, variant))


_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


def board_pdf(board: Board, variant: Variant | None = None, options: BoardOptions | None = None) -> bytes:
    """The board alone on one page of its own size (`ttr-maps render -o board.pdf`): the SVG drawing, as `print` places it."""
    plan = plan_board(board, variant, replace(options or BoardOptions(), pdf_text=True))
    pdf = FPDF(unit="mm", format=(plan.width, plan.height))
    pdf.set_auto_page_break(False)
    pdf.set_creator("ttr-maps")
    _register_fonts(pdf)
    pdf.set_title(clean(board.meta.title))
    pdf.set_creation_date(_EPOCH)
    pdf.add_page()
    Stamp(pdf, draw_board(plan)).place(pdf, 0, 0, once=True)
    return bytes(pdf.output())


def _register_fonts(pdf: FPDF) -> None:
    """Embed our open font (subset to the letters used) when its package is installed."""
    files = pdf_font_files()
    if files is None:
        return
    for style, path in files.items():
        pdf.add_font(PDF_FAMILY, style, path)


def _family(pdf: FPDF) -> str:
    return PDF_FAMILY if PDF_FAMILY in pdf.fonts else "helvetica"


def _font_warnings(board: Board, variant: Variant | None) -> list[str]:
    """One warning per name (place, title, variant) with letters the PDF's font does not have."""
    out = []
    named = [(f"place '{p.name}' ({p.id})", p.name) for p in board.places]
    named.insert(0, (f"board title '{board.meta.title}'", board.meta.title))
    if variant is not None:
        named.insert(1, (f"variant name '{variant.name}'", variant.name))
    for what, text in named:
        missing = pdf_missing(clean(text))
        if missing:
            out.append(f"{what}: the PDF font has no {' '.join(missing)}; they print as '?' "
                       f"(the SVG from `ttr-maps render` keeps them). The PDF font covers Latin, Greek and Cyrillic.")
    return out


_TEXT_EL = re.compile(r"<text([^>]*)>([^<]*)</text>")


_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_RECT = re.compile(r"<rect\b([^>]*?)\s*/>")
_CIRCLE = re.compile(r"<circle\b([^>]*?)\s*/>")
_KAPPA = 0.5522847498307936  # a quarter circle as one cubic Bezier curve: its control points this far along the tangents


def _n(v: float) -> str:
    return f"{round(v, 3):g}"


def _as_path(attrs: dict[str, str], d: str) -> str:
    rest = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<path d="{d}"{rest} />'


def _rounded_rect(m: re.Match) -> str:
    """A <rect> with rounded corners as the <path> of the same curves (fpdf2 draws the corners as elliptical arcs,
    a third of the time converting a board; the same quarter-circle Bezier curves, written out, cost little)."""
    attrs = dict(_ATTR.findall(m[1]))
    if "rx" not in attrs and "ry" not in attrs:
        return m[0]
    try:
        x, y = float(attrs.pop("x", "0")), float(attrs.pop("y", "0"))
        w, h = float(attrs.pop("width")), float(attrs.pop("height"))
        rx, ry = attrs.pop("rx", None), attrs.pop("ry", None)
        rx, ry = float(rx if rx is not None else ry), float(ry if ry is not None else rx)
    except (KeyError, ValueError):  # percentages, "auto": left to fpdf2
        return m[0]
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    if w <= 0 or h <= 0 or rx <= 0 or ry <= 0:
        return m[0]
    kx, ky = _KAPPA * rx, _KAPPA * ry
    n = _n
    d = (f"M{n(x + rx)} {n(y)}L{n(x + w - rx)} {n(y)}"
         f"C{n(x + w - rx + kx)} {n(y)} {n(x + w)} {n(y + ry - ky)} {n(x + w)} {n(y + ry)}L{n(x + w)} {n(y + h - ry)}"
         f"C{n(x + w)} {n(y + h - ry + ky)} {n(x + w - rx + kx)} {n(y + h)} {n(x + w - rx)} {n(y + h)}L{n(x + rx)} {n(y + h)}"
         f"C{n(x + rx - kx)} {n(y + h)} {n(x)} {n(y + h - ry + ky)} {n(x)} {n(y + h - ry)}L{n(x)} {n(y + ry)}"
         f"C{n(x)} {n(y + ry - ky)} {n(x + rx - kx)} {n(y)} {n(x + rx)} {n(y)}Z")
    return _as_path(attrs, d)


def _circle(m: re.Match) -> str:
    """A <circle> as the <path> of its four quarter-circle Bezier curves (see `_rounded_rect`)."""
    attrs = dict(_ATTR.findall(m[1]))
    try:
        cx, cy, r = float(attrs.pop("cx", "0")), float(attrs.pop("cy", "0")), float(attrs.pop("r"))
    except (KeyError, ValueError):
        return m[0]
    if r <= 0:
        return m[0]
    k, n = _KAPPA * r, _n
    d = (f"M{n(cx + r)} {n(cy)}C{n(cx + r)} {n(cy + k)} {n(cx + k)} {n(cy + r)} {n(cx)} {n(cy + r)}"
         f"C{n(cx - k)} {n(cy + r)} {n(cx - r)} {n(cy + k)} {n(cx - r)} {n(cy)}"
         f"C{n(cx - r)} {n(cy - k)} {n(cx - k)} {n(cy - r)} {n(cx)} {n(cy - r)}"
         f"C{n(cx + k)} {n(cy - r)} {n(cx + r)} {n(cy - k)} {n(cx + r)} {n(cy)}Z")
    return _as_path(attrs, d)


def _svg(text: str, family: str | None = None) -> SVGObject:
    """Parse our SVG for fpdf2 (which has no use for the <title>); with `family`, all text uses that font."""
    text = re.sub(r"<title>.*?</title>", "", text, count=1, flags=re.S)
    text = _CIRCLE.sub(_circle, _RECT.sub(_rounded_rect, text))
    if family is not None:
        def one(m: re.Match) -> str:
            attrs = re.sub(r'font-family="[^"]*"', f'font-family="{family}"', m[1])
            if 'font-style="italic"' in attrs and not pdf_italic_ok(html.unescape(m[2])):
                attrs = attrs.replace(' font-style="italic"', "")  # the italic has no Greek or Cyrillic
            return f"<text{attrs}>{m[2]}</text>"

        text = _TEXT_EL.sub(one, text)
    return SVGObject(text)


class Stamp:
    """A drawing converted to PDF operators once, then placed on any page, any number of times.

    Converting an SVG is the slow part of making the PDF; the board is placed on
    every tile page and a train card design on every copy, so each is converted
    only once. Our own drawings are converted by `pdfdraw` (straight to PDF operators, three to four times
    faster, the same pages: benchmarks/print_pixels.py); fpdf2 converts anything pdfdraw does not draw. A drawing placed more than once is written to the PDF once, as a
    form (a PDF Form XObject) that each page refers to: the board was written out
    on every tile page. Works with fpdf2's drawing internals (render, resource
    catalog); gradients are avoided in our SVG because PDF patterns would not move with it.
    """

    def __init__(self, pdf: FPDF, svg_text: str):
        self._form: int | None = None  # the form's resource index, once written as one
        if PDF_FAMILY in pdf.fonts:
            # Our drawings are converted directly (pdfdraw); fpdf2 converts anything else.
            done = pdfdraw.convert(svg_text, pdf._resource_catalog, pdf.k, PDF_FAMILY)
            if done is not None:
                self.w, self.h, self.stream = done
                return
        obj = _svg(svg_text, PDF_FAMILY if PDF_FAMILY in pdf.fonts else None)
        self.w, self.h, group = obj.transform_to_rect_viewport(pdf.k, 0, 0)
        context = DrawingContext()
        context.add_item(group, False)
        self.stream = context.render(pdf._resource_catalog, Point(0, 0), pdf.k, self.h, pdf._current_graphic_style())

    def place(self, pdf: FPDF, x: float, y: float, scale: float = 1.0, once: bool = False) -> None:
        """Put the drawing's top-left corner at (x, y) mm on the current page; `once`: the drawing is placed only
        here, so it goes into the page itself rather than into a form of its own."""
        k = pdf.k
        tx = x * k
        ty = (pdf.h - y) * k - scale * self.h * k
        body = self.stream if once else f"/I{self._form_index(pdf)} Do"
        pdf._resource_catalog.index_stream_resources(body, pdf.page)
        pdf._out(f"q {scale:.6f} 0 0 {scale:.6f} {tx:.3f} {ty:.3f} cm")
        pdf._out(body)
        pdf._out("Q")
        pdf._set_min_pdf_version("1.4")

    def _form_index(self, pdf: FPDF) -> int:
        """The drawing as a Form XObject of the PDF (made on first use): fpdf2 writes it with its own resources
        (fonts, graphics states), as it does the forms of its blend groups."""
        if self._form is None:
            catalog = pdf._resource_catalog
            form = PDFContentStream(contents=self.stream.encode("latin-1"), compress=pdf.compress)
            form.type = Name("XObject")
            form.subtype = Name("Form")
            # Nothing of the drawing is cut off: it is drawn whole, as the page's own operators were.
            w, h = self.w * pdf.k, self.h * pdf.k
            form.b_box = PDFArray([round(-w, 2), round(-h, 2), round(2 * w, 2), round(2 * h, 2)])
            form._blend_group = _FormResources(catalog.scan_stream(self.stream))
            self._form = catalog.next_xobject_index
            catalog.next_xobject_index += 1
            catalog.form_xobjects.append((self._form, form))
        return self._form


class _FormResources(BlendGroup):
    """The resources a form uses, named as fpdf2's output expects of the forms it writes (`BlendGroup`'s)."""

    __slots__ = ()

    def __init__(self, resources: set) -> None:
        self.resources = resources


def _page(pdf: FPDF, paper: str, orientation: str = "portrait") -> None:
    pdf.add_page(orientation="L" if orientation == "landscape" else "P", format=paper if paper == "letter" else paper.upper())


def _font(pdf: FPDF, style: str, size: float, text: str = "") -> None:
    if "I" in style and not pdf_italic_ok(text):
        style = style.replace("I", "")
    pdf.set_font(_family(pdf), style, size)


def _text(pdf: FPDF, x: float, y: float, text: str, size: float = 9, style: str = "", color=INK, align: str = "L", w: float = 0) -> None:
    s = pdf_safe(text)
    _font(pdf, style, size, s)
    pdf.set_text_color(*color)
    if align == "C":
        x -= pdf.get_string_width(s) / 2
    elif align == "R":
        x -= pdf.get_string_width(s)
    pdf.text(x, y, s)


def _cover(pdf: FPDF, plan: BoardPlan, tiling: Tiling, svg: Stamp, opts: PrintOptions) -> None:
    """The first page: what this is, how to print and assemble it, and the page map."""
    _page(pdf, opts.paper)
    pw, ph = pdf.w, pdf.h
    m = 15.0
    # The title: 20 pt, smaller (down to 12 pt) when long, wrapped when still too long.
    title = pdf_safe(clean(plan.board.meta.title))
    size = 20.0
    _font(pdf, "B", size, title)
    while size > 12 and pdf.get_string_width(title) > pw - 2 * m:
        size -= 1
        _font(pdf, "B", size, title)
    pdf.set_text_color(*INK)
    pdf.set_xy(m, m + 6 - size * 0.3)
    pdf.multi_cell(pw - 2 * m, size * 0.42, title, align="L")
    top = pdf.get_y() - (m + 6 - size * 0.3) - size * 0.42  # extra height of wrapped lines
    made = "Print-and-play kit made with ttr-maps (unofficial fan tool)"
    if plan.variant is not None:
        made = f"Rules: {plan.variant.name}. " + made
    pdf.set_xy(m, m + 9.5 + top)
    _font(pdf, "I", 10, pdf_safe(made))
    pdf.set_text_color(*FAINT)
    pdf.multi_cell(pw - 2 * m, 4.5, pdf_safe(made), align="L")
    top = pdf.get_y() - (m + 14 + top) + top
    lines = [
        f"Board: {plan.width / 10:.1f} x {plan.height / 10:.1f} cm when assembled, a route space is {opts.car_mm:g} mm long; "
        f"{len(tiling.tiles)} {opts.paper.upper()} {tiling.orientation} pages ({tiling.rows} rows x {tiling.cols} columns).",
        "Print at 100% / actual size (not 'fit to page'). Check: the bar below must measure exactly 100 mm.",
        "Assemble: trim each board page along its cut marks on the left and top edges (not on the first column or row), "
        f"lay it over its neighbour's {opts.overlap:g} mm overlap so the round alignment marks meet, and glue.",
    ]
    y = m + 22 + top
    pdf.set_font(_family(pdf), "", 10)
    pdf.set_text_color(*INK)
    for line in lines:
        pdf.set_xy(m, y)
        pdf.multi_cell(pw - 2 * m, 5, pdf_safe(line), align="L")
        y = pdf.get_y() + 2
    # A 100 mm scale bar.
    pdf.set_draw_color(*INK)
    pdf.set_fill_color(*INK)
    pdf.set_line_width(0.3)
    for i in range(10):
        if i % 2 == 0:
            pdf.rect(m + i * 10, y + 1, 10, 3, style="F")
    pdf.rect(m, y + 1, 100, 3)
    _text(pdf, m + 102, y + 4, "100 mm", 8)
    y += 10
    # Page map: the board in small with the pages over it.
    _text(pdf, m, y + 4, "Page map", 12, "B")
    top = y + 8
    avail_w, avail_h = pw - 2 * m, ph - top - m
    k = min(avail_w / plan.width, avail_h / plan.height)
    ox = m + (avail_w - plan.width * k) / 2
    svg.place(pdf, ox, top, k)
    pdf.set_draw_color(180, 20, 20)
    pdf.set_line_width(0.35)
    for t in tiling.tiles:
        pdf.rect(ox + t.x * k, top + t.y * k, t.w * k, t.h * k)
    for t in tiling.tiles:
        cx, cy = ox + (t.x + t.w / 2) * k, top + (t.y + t.h / 2) * k
        pdf.set_fill_color(255, 255, 255)
        pdf.set_font(_family(pdf), "B", 11)
        label = f"{t.name}"
        sw = pdf.get_string_width(label) + 3
        pdf.rect(cx - sw / 2, cy - 3.2, sw, 5.4, style="DF")
        _text(pdf, cx, cy + 1.2, label, 11, "B", (180, 20, 20), "C")


def _tile_page(pdf: FPDF, plan: BoardPlan, tiling: Tiling, index: int, svg: Stamp) -> None:
    t = tiling.tiles[index]
    _page(pdf, tiling.paper, tiling.orientation)
    m, o = tiling.margin, tiling.overlap
    with pdf.rect_clip(m, m, t.w, t.h):
        svg.place(pdf, m - t.x, m - t.y)
    # Cut marks at the four corners of the printed area, in the margin.
    pdf.set_draw_color(*MARK)
    pdf.set_line_width(0.2)
    x0, y0, x1, y1 = m, m, m + t.w, m + t.h
    for x in (x0, x1):
        pdf.line(x, 1.5, x, m - 1.5)
        pdf.line(x, y1 + 1.5, x, min(pdf.h - 1.5, y1 + m - 1.5))
    for y in (y0, y1):
        pdf.line(1.5, y, m - 1.5, y)
        pdf.line(x1 + 1.5, y, min(pdf.w - 1.5, x1 + m - 1.5), y)
    # Dashed cut lines where this page is trimmed to lie over its neighbours.
    with pdf.local_context():
        pdf.set_dash_pattern(dash=2, gap=1.5)
        pdf.set_draw_color(*FAINT)
        if t.col > 0:
            pdf.line(x0, y0 - m + 2, x0, y0)
            pdf.line(x0, y1, x0, y1 + m - 2)
        if t.row > 0:
            pdf.line(x0 - m + 2, y0, x0, y0)
            pdf.line(x1, y0, x1 + m - 2, y0)
    # Alignment marks inside the overlap strips, at the same board spot as on the neighbour.
    marks = []
    if t.col > 0:
        marks += [(t.x + o / 2, t.y + t.h * f) for f in (0.25, 0.75)]
    if t.col < tiling.cols - 1:
        marks += [(t.x + t.w - o / 2, t.y + t.h * f) for f in (0.25, 0.75)]
    if t.row > 0:
        marks += [(t.x + t.w * f, t.y + o / 2) for f in (0.25, 0.75)]
    if t.row < tiling.rows - 1:
        marks += [(t.x + t.w * f, t.y + t.h - o / 2) for f in (0.25, 0.75)]
    for bx, by in marks:
        _crosshair(pdf, m + bx - t.x, m + by - t.y)
    # The page's name and neighbours in the margin.
    names = {(tt.row, tt.col): tt.name for tt in tiling.tiles}
    nb = []
    for (dr, dc), arrow in (((0, -1), "left"), ((0, 1), "right"), ((-1, 0), "above"), ((1, 0), "below")):
        other = names.get((t.row + dr, t.col + dc))
        if other:
            nb.append(f"{other} {arrow}")
    # The header spans the page, not just the tile: the last column or row may hold a narrow strip of board.
    xr = max(x1, pdf.w - m)
    right = 0.0
    if nb:
        _text(pdf, xr, m - 3.5, "; ".join(nb), 7, "", MARK, "R")
        right = pdf.get_string_width("; ".join(nb)) + 4
    # The page's name always shows; a long title is cut short (with "...") to leave room for it.
    suffix = f" - board page {t.name} ({index + 1} of {len(tiling.tiles)})"
    title = pdf_safe(clean(plan.board.meta.title))
    _font(pdf, "B", 7, title)
    room = (xr - m) - right - pdf.get_string_width(suffix)
    if pdf.get_string_width(title) > room:
        while title and pdf.get_string_width(title + "...") > room:
            title = title[:-1]
        title = title.rstrip() + "..."
    _text(pdf, m, m - 3.5, title + suffix, 7, "B", MARK)


def _crosshair(pdf: FPDF, x: float, y: float, r: float = 2.2) -> None:
    pdf.set_draw_color(0, 0, 0)
    pdf.set_fill_color(255, 255, 255)
    pdf.set_line_width(0.25)
    pdf.circle(x, y, r, style="DF")
    pdf.line(x - r * 1.6, y, x + r * 1.6, y)
    pdf.line(x, y - r * 1.6, x, y + r * 1.6)


CARD_MARGIN = 6.0  # the least margin around a card sheet: room for the cut marks, inside most printers' reach
FOOTER_MARGIN = 10.0  # the sheet's name goes in a margin at least this wide (most printers leave 4-6 mm blank)


@dataclass(frozen=True)
class CardGrid:
    orientation: str
    cols: int
    rows: int
    page_w: float
    page_h: float
    x0: float  # top-left corner of the grid
    y0: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def card_grid(paper: str, card_size: tuple[float, float], margin: float = CARD_MARGIN) -> CardGrid:
    """The most cards of `card_size` (mm) that fit a sheet of `paper`, edge to edge, centred.

    Portrait unless landscape holds more. Poker cards (63 x 88 mm) fit 3 x 3 on A4 and Letter.
    """
    pw, ph = PAPERS[paper]
    cw, ch = card_size
    best: CardGrid | None = None
    for orientation, (w, h) in (("portrait", (pw, ph)), ("landscape", (ph, pw))):
        cols = max(1, int((w - 2 * margin + 1e-9) // cw))
        rows = max(1, int((h - 2 * margin + 1e-9) // ch))
        grid = CardGrid(orientation, cols, rows, w, h, (w - cols * cw) / 2, (h - rows * ch) / 2)
        if best is None or grid.per_sheet > best.per_sheet:
            best = grid
    assert best is not None
    return best


def _card_sheets(pdf: FPDF, cards: list[Card], ctx: CardContext, opts: PrintOptions, part: str) -> None:
    if not cards:
        return
    cw, ch = ctx.size
    grid = card_grid(opts.paper, ctx.size)
    pw, ph = grid.page_w, grid.page_h
    cols, per = grid.cols, grid.per_sheet
    x0, y0 = grid.x0, grid.y0
    title = {"tickets": "Destination tickets", "trains": "Train cards", "summary": "Summary cards"}[part]
    sheets = math.ceil(len(cards) / per)
    stamps: dict[object, Stamp] = {}

    def stamp(key: object, make) -> Stamp:
        if key not in stamps:
            stamps[key] = Stamp(pdf, make())
        return stamps[key]

    for s in range(sheets):
        chunk = cards[s * per : (s + 1) * per]
        _page(pdf, opts.paper, grid.orientation)
        for i, card in enumerate(chunk):
            r, c = divmod(i, cols)
            x, y = x0 + c * cw, y0 + r * ch
            if card.kind == "ticket":
                # Tickets share their card and mini-map: draw those once, stamp them on every ticket.
                for layer in TICKET_LAYERS:
                    key = ticket_layer_key(card, ctx, layer)
                    stamp(key, lambda card=card, layer=layer: render_card(card, ctx, layer)).place(pdf, x, y, once=layer == "top")
                    if layer == "top":
                        del stamps[key]
            else:
                stamp(card, lambda card=card: render_card(card, ctx)).place(pdf, x, y)
        used_rows = math.ceil(len(chunk) / cols)
        used_cols = cols if used_rows > 1 else len(chunk)
        pdf.set_draw_color(*MARK)
        pdf.set_line_width(0.2)
        # Cut marks run from 1 mm off the cards to 2 mm off the paper's edge: the part next to the cards
        # survives a printer that cannot print near the edge.
        for c in range(used_cols + 1):
            x = x0 + c * cw
            pdf.line(x, 2, x, y0 - 1)
            pdf.line(x, y0 + used_rows * ch + 1, x, ph - 2)
        for r in range(used_rows + 1):
            y = y0 + r * ch
            pdf.line(2, y, x0 - 1, y)
            pdf.line(x0 + used_cols * cw + 1, y, pw - 2, y)
        # The sheet's name in the middle of the bottom margin, between two columns' cut marks; when that
        # margin is too thin to print reliably (Letter: 7.7 mm), up the left margin instead.
        label = f"{title}, sheet {s + 1} of {sheets}"
        bottom = ph - y0 - grid.rows * ch
        size = 7.0
        pdf.set_font(_family(pdf), "", size)
        while size > 4 and pdf.get_string_width(pdf_safe(label)) > cw - 6:
            size -= 0.5
            pdf.set_font(_family(pdf), "", size)
        if bottom >= FOOTER_MARGIN or x0 < FOOTER_MARGIN:
            _text(pdf, x0 + (cols // 2 + 0.5) * cw, ph - bottom / 2 + size * 0.125, label, size, "", MARK, "C")
        else:
            cx, cy = x0 - 3.0, y0 + (grid.rows // 2 + 0.5) * ch  # next to the cards, away from the edge
            with pdf.rotation(90, cx, cy):
                _text(pdf, cx, cy, label, size, "", MARK, "C")


@dataclass
class _Para:
    text: str
    size: float
    style: str = ""
    color: tuple[int, int, int] = INK
    h: float = 5.0  # line height at scale 1
    indent: float = 0.0
    after: float = 0.0  # space below
    bullet: bool = False
    keep_with_next: bool = False  # a heading stays on the page of its first paragraph


RULES_MARGIN = 18.0


def _rules_paras(board: Board, variant: Variant) -> list[_Para]:
    out = [
        _Para(f"{variant.name}: the rules in brief", 18, "B", h=8),
        _Para("Written by ttr-maps from this variant's settings: an unofficial summary, not the publisher's rules.", 9, "I", FAINT, after=3),
    ]
    for heading, paras in sections(variant, board):
        out.append(_Para(heading, 12, "B", (91, 42, 28), h=7, keep_with_next=True))
        for i, p in enumerate(paras):
            out.append(_Para(p, 10, indent=5, after=1 + (2 if i == len(paras) - 1 else 0), bullet=True))
    return out


def rules_layout(pdf: FPDF, paras: list[_Para], scale: float) -> list[tuple[int, float, float]]:
    """(page, top y, height) of each paragraph at `scale`; a paragraph never runs past the bottom margin
    (unless it alone is taller than a page) and a heading never ends a page."""
    m = RULES_MARGIN
    width = pdf.w - 2 * m
    bottom = pdf.h - m

    def height(p: _Para) -> float:
        text = pdf_safe(p.text)
        _font(pdf, p.style, p.size * scale, text)
        lines = pdf.multi_cell(width - p.indent * scale, p.h * scale, text, align="L", dry_run=True, output="LINES")
        return len(lines) * p.h * scale

    heights = [height(p) for p in paras]
    out = []
    page, y = 0, m
    for i, p in enumerate(paras):
        need = heights[i]
        if p.keep_with_next and i + 1 < len(paras):
            need += p.after * scale + heights[i + 1]
        if y + need > bottom and y > m:
            page, y = page + 1, m
        out.append((page, y, heights[i]))
        y += heights[i] + p.after * scale
    return out


def rules_scale(pdf: FPDF, paras: list[_Para]) -> float:
    """1, or a little smaller when that saves a last page that would hold only a few lines."""
    return _rules_fit(pdf, paras)[0]


def _rules_fit(pdf: FPDF, paras: list[_Para]) -> tuple[float, list[tuple[int, float, float]]]:
    """`rules_scale` and the layout at that scale (laid out once: measuring the text is most of the rules' time)."""
    m = RULES_MARGIN
    full = rules_layout(pdf, paras, 1.0)
    pages = full[-1][0] + 1
    last_fill = (full[-1][1] + full[-1][2] - m) / (pdf.h - 2 * m)
    if pages == 1 or last_fill > 0.3:
        return 1.0, full
    for scale in (0.95, 0.9, 0.86):
        lay = rules_layout(pdf, paras, scale)
        if lay[-1][0] + 1 < pages:
            return scale, lay
    return 1.0, full


def _rules_pages(pdf: FPDF, board: Board, variant: Variant, opts: PrintOptions) -> None:
    _page(pdf, opts.paper)
    m = RULES_MARGIN
    paras = _rules_paras(board, variant)
    scale, layout = _rules_fit(pdf, paras)
    width = pdf.w - 2 * m
    page = 0
    for p, (pg, y, _h) in zip(paras, layout):
        if pg != page:
            _page(pdf, opts.paper)
            page = pg
        text = pdf_safe(p.text)
        _font(pdf, p.style, p.size * scale, text)
        pdf.set_text_color(*p.color)
        pdf.set_xy(m + p.indent * scale, y)
        pdf.multi_cell(width - p.indent * scale, p.h * scale, text, align="L")
        if p.bullet:
            _text(pdf, m + 1 * scale, y + 3.6 * scale, "-", 10 * scale)
