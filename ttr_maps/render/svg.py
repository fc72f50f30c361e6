"""A thin, deterministic SVG writer (the document svgwrite would write, without its per-element machinery).

Every number is rounded to 0.01 mm and written the same way on every machine;
text and attribute values are XML-escaped (by ElementTree's own escaping) after
`clean`. Nothing here writes a script, an external reference, an image or a font
file: there is no `url(...)` and no `href` at all.

The document is the one svgwrite's `Drawing(profile="full", debug=False).tostring()`
gives for the same elements, byte for byte: each element's attributes sorted by
name (`_` in a name written as `-`, a trailing `_` dropped, empty values left out),
`<defs />` first, an empty element closed with ` />`. svgwrite is not imported: a
board has tens of thousands of elements, and its import alone takes 0.1 s.
"""

from __future__ import annotations

import math
from typing import Any, Iterable
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]

from .text import FONT_STACK, clean

Point = tuple[float, float]


def n(x: float) -> str:
    """A number rounded to 2 decimals, without trailing zeros or a negative zero."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pts(points: Iterable[Point]) -> str:
    return " ".join(f"{n(x)},{n(y)}" for x, y in points)


def path_d(rings: Iterable[Iterable[Point]], closed: bool = True) -> str:
    parts = []
    for ring in rings:
        ring = list(ring)
        if not ring:
            continue
        parts.append("M" + n(ring[0][0]) + " " + n(ring[0][1]))
        parts.extend("L" + n(x) + " " + n(y) for x, y in ring[1:])
        if closed:
            parts.append("Z")
    return "".join(parts)


def circle_d(cx: float, cy: float, r: float) -> str:
    """A circle as path data (two arcs), for drawing many dots as one path."""
    return f"M{n(cx - r)} {n(cy)}a{n(r)} {n(r)} 0 1 0 {n(2 * r)} 0a{n(r)} {n(r)} 0 1 0 {n(-2 * r)} 0Z"


class Pen:
    """Makes SVG elements with rounded numbers."""

    def __init__(self, width: float, height: float, title: str = ""):
        self.dwg = Element("svg", {
            "baseProfile": "full", "height": f"{n(height)}mm", "version": "1.1", "viewBox": f"0 0 {n(width)} {n(height)}",
            "width": f"{n(width)}mm", "xmlns": "http://www.w3.org/2000/svg", "xmlns:ev": "http://www.w3.org/2001/xml-events",
            "xmlns:xlink": "http://www.w3.org/1999/xlink",
        })
        self.dwg.add(Element("defs", {}))
        self.width = width
        self.height = height
        self._title = clean(title)

    def group(self, parent: Any | None = None, **attrs: Any) -> Element:
        g = Element("g", _names(_attrs(attrs)))
        (parent if parent is not None else self.dwg).add(g)
        return g

    def rect(self, parent: Any, x: float, y: float, w: float, h: float, r: float = 0.0, **attrs: Any) -> Any:
        el = Leaf("rect", attrs, x=n(x), y=n(y), width=n(w), height=n(h), rx=n(r) if r else None)
        parent.add(el)
        return el

    def circle(self, parent: Any, cx: float, cy: float, r: float, **attrs: Any) -> Any:
        el = Leaf("circle", attrs, cx=n(cx), cy=n(cy), r=n(r))
        parent.add(el)
        return el

    def line(self, parent: Any, x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> Any:
        el = Leaf("line", attrs, x1=n(x1), y1=n(y1), x2=n(x2), y2=n(y2))
        parent.add(el)
        return el

    def path(self, parent: Any, d: str, **attrs: Any) -> Any:
        el = Leaf("path", attrs, d=d)
        parent.add(el)
        return el

    def polygon(self, parent: Any, points: Iterable[Point], **attrs: Any) -> Any:
        return self.path(parent, path_d([list(points)], closed=True), **attrs)

    def polyline(self, parent: Any, points: Iterable[Point], **attrs: Any) -> Any:
        return self.path(parent, path_d([list(points)], closed=False), **attrs)

    def text(
        self,
        parent: Any,
        text: str,
        x: float,
        y: float,
        size: float,
        *,
        anchor: str = "middle",
        bold: bool = False,
        italic: bool = False,
        fill: str = "#000000",
        family: str = FONT_STACK,
        rotate: float = 0.0,
        dy: float = 0.0,
        **attrs: Any,
    ) -> Any:
        """Text at (x, y + dy); with `rotate`, the text turns about (x, y) and `dy` is along its own up axis."""
        kw: dict[str, Any] = {"font_size": n(size), "font_family": family, "fill": fill}
        if anchor != "start":
            kw["text_anchor"] = anchor
        if bold:
            kw["font_weight"] = "bold"
        if italic:
            kw["font_style"] = "italic"
        el = Element("text", _names({**kw, **_attrs(attrs)}), clean(text))
        if rotate:
            el["x"], el["y"] = "0", n(dy)
            el["transform"] = f"translate({n(x)} {n(y)}) rotate({n(rotate)})"
        else:
            el["x"], el["y"] = n(x), n(y + dy)
        parent.add(el)
        return el

    def tostring(self) -> str:
        out: list[str] = []
        _write(self.dwg, out)
        # As ElementTree encodes it: a character UTF-8 cannot hold (a lone surrogate) as a character reference.
        body = "".join(out).encode("utf-8", "xmlcharrefreplace").decode("utf-8")
        return finish(body, self._title)


class Element:
    """An element with attributes (names as written), children and text, written by `_write`."""

    __slots__ = ("elementname", "attribs", "elements", "text")

    def __init__(self, name: str, attribs: dict[str, Any], text: str | None = None):
        self.elementname = name
        self.attribs = attribs
        self.elements: list[Any] = []
        self.text = text

    def add(self, element: Any) -> Any:
        self.elements.append(element)
        return element

    def __setitem__(self, key: str, value: Any) -> None:
        self.attribs[key] = value

    def __getitem__(self, key: str) -> Any:
        return self.attribs[key]


class Leaf:
    """An element without children or text (rect, circle, line, path): attribute names with '_' as '-' (a trailing
    '_' dropped), numbers as `n` rounds them; made with as little work as can be (a board has tens of thousands)."""

    __slots__ = ("elementname", "attribs")
    elements: tuple[()] = ()
    text = None

    def __init__(self, name: str, attrs: dict[str, Any], **own: Any):
        self.elementname = name
        self.attribs = _names(_attrs(attrs))
        self.attribs.update((k, v) for k, v in own.items() if v is not None)

    def __setitem__(self, key: str, value: Any) -> None:
        self.attribs[key] = value

    def __getitem__(self, key: str) -> Any:
        return self.attribs[key]


#: Attribute names as keyword arguments give them (stroke_width, class_) -> as written (stroke-width, class).
_NAMES: dict[str, str] = {}


def _names(attrs: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in attrs.items():
        name = _NAMES.get(k)
        if name is None:
            name = _NAMES[k] = k.rstrip("_").replace("_", "-")
        out[name] = v
    return out


def _write(el: Any, out: list[str]) -> None:
    """Append element `el` and its children as ElementTree writes them (`tostring(encoding="utf-8")`)."""
    tag = el.elementname
    parts = ["<", tag]
    for k, v in sorted(el.attribs.items()):
        if v is not None:
            v = str(v)
            if v:
                parts.append(f' {k}="{_escape_attrib(v)}"')
    text = el.text
    if text or el.elements:
        parts.append(">")
        if text:
            parts.append(_escape_cdata(text))
        out.append("".join(parts))
        for child in el.elements:
            _write(child, out)
        out.append(f"</{tag}>")
    else:
        parts.append(" />")
        out.append("".join(parts))


def _attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in attrs.items():
        if v is None:
            continue
        out[k] = n(v) if isinstance(v, float) else v
    return out


def finish(body: str, title: str = "") -> str:
    """The final document: XML declaration, one element per line (readable diffs), a <title>."""
    from xml.sax.saxutils import escape

    if title:
        head, sep, rest = body.partition(">")
        body = head + sep + f"<title>{escape(clean(title))}</title>" + rest
    body = body.replace("><", ">\n<")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n"


def rotated(x: float, y: float, deg: float) -> str:
    return f"translate({n(x)} {n(y)}) rotate({n(deg)})" if deg else f"translate({n(x)} {n(y)})"


def deg(rad: float) -> float:
    return math.degrees(rad)
