"""Our own SVG drawings as PDF operators, written directly (the print path's fast converter).

fpdf2 converts any SVG through a tree of drawing objects: a board's 1,500 elements took half a second
of CPU, every card a few milliseconds, most of a print's time. The drawings `print` places are ours, in
a small part of SVG (`render.board`, `render.cards`): groups, rectangles, circles, lines, paths and
one-line text, with fill, stroke, opacity, dashes and translate/rotate/scale transforms. `convert`
writes those straight into a content stream, with the same geometry as fpdf2's (the same corner and
circle curves, the same text placement through fpdf2's fonts, which keep subsetting the glyphs used) and
returns None for anything else, which then goes to fpdf2 as before.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from fontTools.pens.basePen import BasePen
from fontTools.svgLib.path import parse_path
from fpdf.drawing import GraphicsStyle

from .text import pdf_italic_ok

_KAPPA = 0.5522847498307936  # a quarter circle as one cubic Bezier curve (as pdf._rounded_rect and pdf._circle)
_NS = "{http://www.w3.org/2000/svg}"
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"\s*(translate|rotate|scale|matrix)\s*\(([^)]*)\)\s*,?")

# What each element may carry; anything else (and any other element) leaves the drawing to fpdf2.
_PAINT = {"fill", "stroke", "stroke-width", "stroke-dasharray", "fill-opacity", "stroke-opacity", "stroke-linejoin",
          "fill-rule", "transform", "id"}
_ALLOWED = {
    "g": _PAINT,
    "rect": _PAINT | {"x", "y", "width", "height", "rx", "ry"},
    "circle": _PAINT | {"cx", "cy", "r"},
    "line": _PAINT | {"x1", "y1", "x2", "y2"},
    "path": _PAINT | {"d"},
    "text": _PAINT | {"x", "y", "font-family", "font-size", "font-weight", "font-style", "text-anchor"},
}
_INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "fill-opacity", "stroke-opacity", "stroke-linejoin",
              "fill-rule")
_JOINS = {"miter": "0", "round": "1", "bevel": "2"}


class Unsupported(Exception):
    """Something this converter does not draw: fpdf2 converts the drawing instead."""


def _f(v: float) -> str:
    """A number as fpdf2 writes it (at most four decimals, no trailing zeros)."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _r3(v: float) -> str:
    """A coordinate rounded as pdf._n rounds the corner and circle curves it writes for fpdf2, written as `_f` writes
    that number (the same text: at most three decimals, so `_f` would add nothing)."""
    s = f"{round(v, 3):g}"
    return _f(float(s)) if "e" in s or s == "-0" else s


def _num(value: str) -> float:
    try:
        v = float(value)
    except ValueError:
        raise Unsupported(value) from None
    if not math.isfinite(v):
        raise Unsupported(value)
    return v


def _color(value: str) -> tuple[float, float, float] | None:
    """'#rrggbb' or '#rgb' as 0-1 components; None for 'none'."""
    if value == "none":
        return None
    if value.startswith("#") and len(value) in (4, 7):
        h = value[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        try:
            r, g, b = int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
        except ValueError:
            raise Unsupported(value) from None
        return r / 255, g / 255, b / 255
    raise Unsupported(value)


def _rgb(c: tuple[float, float, float], op: str) -> str:
    return f"{_f(c[0])} {_f(c[1])} {_f(c[2])} {op}"


def _matrix(value: str) -> tuple[float, float, float, float, float, float]:
    """An SVG transform list as one matrix (a, b, c, d, e, f)."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    pos = 0
    value = value.strip()
    while pos < len(value):
        t = _TRANSFORM.match(value, pos)
        if t is None:
            raise Unsupported(value)
        pos = t.end()
        args = [float(a) for a in _NUM.findall(t[2])]
        kind = t[1]
        if kind == "translate" and len(args) in (1, 2):
            step = (1.0, 0.0, 0.0, 1.0, args[0], args[1] if len(args) == 2 else 0.0)
        elif kind == "scale" and len(args) in (1, 2):
            step = (args[0], 0.0, 0.0, args[1] if len(args) == 2 else args[0], 0.0, 0.0)
        elif kind == "rotate" and len(args) == 1:
            a = math.radians(args[0])
            step = (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0.0, 0.0)
        elif kind == "matrix" and len(args) == 6:
            step = tuple(args)
        else:
            raise Unsupported(value)
        a1, b1, c1, d1, e1, f1 = m
        a2, b2, c2, d2, e2, f2 = step
        m = (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)
    return m


class _OpsPen(BasePen):
    """fontTools' path parser (fpdf2's too) draws into this: PDF path operators."""

    def __init__(self, out: list[str]):
        super().__init__(None)
        self.out = out
        self.moved = False

    def _moveTo(self, pt):
        self.moved = True
        self.out.append(f"{_f(pt[0])} {_f(pt[1])} m")

    def _lineTo(self, pt):
        self.out.append(f"{_f(pt[0])} {_f(pt[1])} l")

    def _curveToOne(self, p1, p2, p3):
        self.out.append(f"{_f(p1[0])} {_f(p1[1])} {_f(p2[0])} {_f(p2[1])} {_f(p3[0])} {_f(p3[1])} c")

    def _closePath(self):
        self.out.append("h")

    def _endPath(self):
        pass


def _rect_ops(a: dict[str, str], out: list[str]) -> None:
    x, y = _num(a.get("x", "0")), _num(a.get("y", "0"))
    w, h = _num(a["width"]), _num(a["height"])
    rx, ry = a.get("rx"), a.get("ry")
    if rx is None and ry is None:
        if w <= 0 or h <= 0:
            raise Unsupported("degenerate rect")
        out.append(f"{_f(x)} {_f(y)} {_f(w)} {_f(h)} re")
        return
    rx, ry = _num(rx if rx is not None else ry), _num(ry if ry is not None else rx)
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    if w <= 0 or h <= 0 or rx <= 0 or ry <= 0:
        raise Unsupported("degenerate rect")
    kx, ky = _KAPPA * rx, _KAPPA * ry
    n = _r3
    out.append(
        f"{n(x + rx)} {n(y)} m {n(x + w - rx)} {n(y)} l "
        f"{n(x + w - rx + kx)} {n(y)} {n(x + w)} {n(y + ry - ky)} {n(x + w)} {n(y + ry)} c "
        f"{n(x + w)} {n(y + h - ry)} l "
        f"{n(x + w)} {n(y + h - ry + ky)} {n(x + w - rx + kx)} {n(y + h)} {n(x + w - rx)} {n(y + h)} c "
        f"{n(x + rx)} {n(y + h)} l "
        f"{n(x + rx - kx)} {n(y + h)} {n(x)} {n(y + h - ry + ky)} {n(x)} {n(y + h - ry)} c "
        f"{n(x)} {n(y + ry)} l "
        f"{n(x)} {n(y + ry - ky)} {n(x + rx - kx)} {n(y)} {n(x + rx)} {n(y)} c h"
    )


def _circle_ops(a: dict[str, str], out: list[str]) -> None:
    cx, cy, r = _num(a.get("cx", "0")), _num(a.get("cy", "0")), _num(a["r"])
    if r <= 0:
        raise Unsupported("degenerate circle")
    k, n = _KAPPA * r, _r3
    out.append(
        f"{n(cx + r)} {n(cy)} m "
        f"{n(cx + r)} {n(cy + k)} {n(cx + k)} {n(cy + r)} {n(cx)} {n(cy + r)} c "
        f"{n(cx - k)} {n(cy + r)} {n(cx - r)} {n(cy + k)} {n(cx - r)} {n(cy)} c "
        f"{n(cx - r)} {n(cy - k)} {n(cx - k)} {n(cy - r)} {n(cx)} {n(cy - r)} c "
        f"{n(cx + k)} {n(cy - r)} {n(cx + r)} {n(cy - k)} {n(cx + r)} {n(cy)} c h"
    )


class _Converter:
    def __init__(self, catalog, family: str):
        self.catalog = catalog
        self.family = family
        self.out: list[str] = []
        self.fonts: dict[str, object] = {}
        self.states: dict[tuple[float, float], str] = {}  # opacities -> "/GSn gs" (or "")

    def font(self, emphasis: str):
        font = self.fonts.get(emphasis)
        if font is None:
            font = self.fonts[emphasis] = self.catalog.get_font_from_family(self.family, emphasis)
        return font

    def walk(self, el: ET.Element, style: dict[str, str]) -> None:
        for child in el:
            tag = child.tag[len(_NS):] if child.tag.startswith(_NS) else child.tag
            if tag in ("title", "defs", "desc"):
                if tag == "defs" and len(child):
                    raise Unsupported("defs")
                continue
            attrs = child.attrib
            allowed = _ALLOWED.get(tag)
            if allowed is None or not allowed.issuperset(attrs):
                raise Unsupported(tag)
            own = dict(style)
            for key in _INHERITED:
                if key in attrs:
                    own[key] = attrs[key]
            transform = attrs.get("transform")
            if tag == "g":
                if child.text and child.text.strip():
                    raise Unsupported("text in a group")
                if transform:
                    self.out.append(f"q {' '.join(_f(v) for v in _matrix(transform))} cm")
                self.walk(child, own)
                if transform:
                    self.out.append("Q")
            elif tag == "text":
                self.text(child, own, transform)
            else:
                if len(child):
                    raise Unsupported(f"{tag} with content")
                self.shape(tag, attrs, own, transform)

    def _state(self, style: dict[str, str], out: list[str], stroking: bool) -> None:
        """The graphics state of one element: opacity (an ExtGState), line width, join and dashes."""
        fo, so = _num(style.get("fill-opacity", "1")), _num(style.get("stroke-opacity", "1")) if stroking else 1.0
        if fo != 1 or so != 1:
            op = self.states.get((fo, so))
            if op is None:
                gs = GraphicsStyle()
                if fo != 1:
                    gs.fill_opacity = fo
                if so != 1:
                    gs.stroke_opacity = so
                name = self.catalog.register_graphics_style(gs)
                op = self.states[(fo, so)] = "" if name is None else f"/{name} gs"
            if op:
                out.append(op)
        if stroking:
            out.append(f"{_f(_num(style.get('stroke-width', '1')))} w")
            join = style.get("stroke-linejoin")
            if join is not None:
                if join not in _JOINS:
                    raise Unsupported(join)
                out.append(f"{_JOINS[join]} j")
            dash = style.get("stroke-dasharray")
            if dash is not None and dash != "none":
                values = [_num(v) for v in _NUM.findall(dash)]
                if not values or any(v < 0 for v in values):
                    raise Unsupported(dash)
                if len(values) % 2:
                    values += values
                out.append(f"[{' '.join(_f(v) for v in values)}] 0 d")

    def shape(self, tag: str, attrs, style: dict[str, str], transform: str | None) -> None:
        fill = _color(style.get("fill", "#000000"))
        stroke = _color(style.get("stroke", "none"))
        if tag == "line":
            fill = None  # a line has no inside
        if fill is None and stroke is None:
            return
        ops = ["q"]
        if transform:
            ops.append(f"{' '.join(_f(v) for v in _matrix(transform))} cm")
        self._state(style, ops, stroke is not None)
        if fill is not None:
            ops.append(_rgb(fill, "rg"))
        if stroke is not None:
            ops.append(_rgb(stroke, "RG"))
        if tag == "rect":
            _rect_ops(attrs, ops)
        elif tag == "circle":
            _circle_ops(attrs, ops)
        elif tag == "line":
            ops.append(f"{_f(_num(attrs.get('x1', '0')))} {_f(_num(attrs.get('y1', '0')))} m "
                       f"{_f(_num(attrs.get('x2', '0')))} {_f(_num(attrs.get('y2', '0')))} l")
        else:
            pen = _OpsPen(ops)
            try:
                parse_path(attrs.get("d", ""), pen)
            except (ValueError, IndexError, AssertionError) as exc:
                raise Unsupported("path") from exc
            if not pen.moved:
                raise Unsupported("path")
        evenodd = style.get("fill-rule") == "evenodd"
        if style.get("fill-rule", "nonzero") not in ("nonzero", "evenodd"):
            raise Unsupported("fill-rule")
        if tag == "line":
            # As fpdf2 paints a line: filled and stroked (the fill of a line has no area, but a rasterizer may
            # still darken the pixels it crosses, in the fill colour of the moment): the pages stay the same.
            ops.append("B")
        elif fill is not None and stroke is not None:
            ops.append("B*" if evenodd else "B")
        elif fill is not None:
            ops.append("f*" if evenodd else "f")
        else:
            ops.append("S")
        ops.append("Q")
        self.out.append(" ".join(ops))

    def text(self, el: ET.Element, style: dict[str, str], transform: str | None) -> None:
        if len(el):
            raise Unsupported("tspan")
        raw = el.text or ""
        collapsed = re.sub(r"\s+", " ", raw)
        content = collapsed.strip()
        if not content:
            return
        if raw[:1].isspace():
            content = " " + content
        if raw[-1:].isspace():
            content = content + " "
        attrs = el.attrib
        weight = attrs.get("font-weight", "").strip().lower()
        italic = attrs.get("font-style", "").strip().lower() in ("italic", "oblique")
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        if weight and not bold and weight not in ("normal", "lighter") and not weight.isdigit():
            raise Unsupported(weight)
        if italic and not pdf_italic_ok(content):
            italic = False  # the italic has no Greek or Cyrillic (as pdf._svg does for fpdf2)
        emphasis = ("B" if bold else "") + ("I" if italic else "")
        fill = _color(style.get("fill", "#000000"))
        if style.get("stroke", "none") != "none":
            raise Unsupported("stroked text")
        if fill is None:
            return
        size = _num(attrs.get("font-size", "16"))
        anchor = attrs.get("text-anchor", "start").strip().lower()
        x, y = _num(attrs.get("x", "0")), _num(attrs.get("y", "0"))
        font = self.font(emphasis)
        _, width = font.get_text_width(content, size, None)
        if anchor == "middle":
            x -= width / 2
        elif anchor == "end":
            x -= width
        elif anchor != "start":
            raise Unsupported(anchor)
        ops = ["q"]
        if transform:
            ops.append(f"{' '.join(_f(v) for v in _matrix(transform))} cm")
        self._state(style, ops, False)
        ops.append(_rgb(fill, "rg"))
        ops.append(f"BT /F{font.i} {_f(size)} Tf 0 Tr 1 0 0 -1 {_f(x)} {_f(y)} Tm {font.encode_text(content)} ET Q")
        self.out.append(" ".join(ops))


def _mm(value: str | None) -> float:
    if value is None or not value.endswith("mm"):
        raise Unsupported(f"size {value}")
    return _num(value[:-2])


def convert(svg_text: str, catalog, k: float, family: str) -> tuple[float, float, str] | None:
    """(width mm, height mm, content stream) of our SVG `svg_text` drawn with its top-left corner at the origin
    of a page whose user unit is `k` points, its text in `family`; None: a drawing fpdf2 must convert."""
    try:
        root = ET.fromstring(svg_text.encode("utf-8") if svg_text.startswith("<?xml") else svg_text)
    except ET.ParseError:
        return None
    if root.tag != _NS + "svg":
        return None
    try:
        w, h = _mm(root.get("width")), _mm(root.get("height"))
        box = [_num(v) for v in root.get("viewBox", "").replace(",", " ").split()]
        if len(box) != 4 or box[2] <= 0 or box[3] <= 0 or w <= 0 or h <= 0:
            raise Unsupported("viewBox")
        sx, sy = w / box[2], h / box[3]
        conv = _Converter(catalog, family)
        conv.out.append(f"q {_f(k)} 0 0 {_f(-k)} 0 {_f(h * k)} cm 0 J [] 0 d")
        if (sx, sy, box[0], box[1]) != (1, 1, 0, 0):
            conv.out.append(f"{_f(sx)} 0 0 {_f(sy)} {_f(-box[0] * sx)} {_f(-box[1] * sy)} cm")
        conv.walk(root, {})
        conv.out.append("Q")
    except (Unsupported, KeyError, ValueError):
        return None
    return w, h, " ".join(conv.out)

