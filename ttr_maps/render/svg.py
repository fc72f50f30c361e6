"""A thin, deterministic layer over svgwrite.

Every number is rounded to 0.01 mm and written the same way on every machine;
text goes through svgwrite (so it is XML-escaped) after `clean`. Nothing here
writes a script, an external reference, an image or a font file: there is no
`url(...)` and no `href` at all.
"""

from __future__ import annotations

import math
import re
import sys
import types
from typing import Any, Iterable


def _parser_on_first_use() -> None:
    """svgwrite's validator imports `svgwrite.data.svgparser`, which compiles the regular expressions of SVG's
    transform, path and timing grammars as it is imported (about a sixth of `render`'s imports, before anything
    is drawn); the pens here never validate (`debug=False`). So, unless svgwrite is imported already, the module
    is a stand-in that imports the real one when first used (a validating drawing gets the same checks)."""
    name = "svgwrite.data.svgparser"
    if "svgwrite" in sys.modules or name in sys.modules:
        return
    stand_in = types.ModuleType(name)

    def real() -> types.ModuleType:
        import importlib.machinery
        import importlib.util

        import svgwrite.data

        spec = importlib.machinery.PathFinder.find_spec(name, svgwrite.data.__path__)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
        for attr in ("is_valid_transferlist", "is_valid_pathdata", "is_valid_animation_timing"):
            setattr(stand_in, attr, getattr(module, attr))
        return module

    def check(attr: str):
        def f(term: str) -> bool:
            return getattr(real() if sys.modules.get(name) is stand_in else sys.modules[name], attr)(term)
        f.__name__ = attr
        return f

    for attr in ("is_valid_transferlist", "is_valid_pathdata", "is_valid_animation_timing"):
        setattr(stand_in, attr, check(attr))
    stand_in.__getattr__ = lambda attr: getattr(real() if sys.modules.get(name) is stand_in else sys.modules[name], attr)  # type: ignore[method-assign]
    sys.modules[name] = stand_in


_parser_on_first_use()

import svgwrite  # noqa: E402
from svgwrite.container import Group  # noqa: E402
from svgwrite.etree import CDATA_TAG, CDATA_TPL, etree  # noqa: E402

from .text import FONT_STACK, clean  # noqa: E402

Point = tuple[float, float]

_SURROGATE = re.compile("[\ud800-\udfff]")


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
    """Makes svgwrite elements with rounded numbers."""

    def __init__(self, width: float, height: float, title: str = ""):
        self.dwg = svgwrite.Drawing(
            size=(f"{n(width)}mm", f"{n(height)}mm"),
            viewBox=f"0 0 {n(width)} {n(height)}",
            profile="full",
            debug=False,
        )
        self.width = width
        self.height = height
        self._title = clean(title)
        self._written: dict[int, str] = {}  # id of a `Written` element's tree -> its text

    def group(self, parent: Any | None = None, **attrs: Any) -> Group:
        g = self.dwg.g(**_attrs(attrs))
        (parent if parent is not None else self.dwg).add(g)
        return g

    def rect(self, parent: Any, x: float, y: float, w: float, h: float, r: float = 0.0, **attrs: Any) -> Any:
        """A rectangle added to `parent` (with `parent` None, only made)."""
        el = Leaf("rect", attrs, x=n(x), y=n(y), width=n(w), height=n(h), rx=n(r) if r else None)
        if parent is not None:
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
        if rotate:
            el = self.dwg.text(clean(text), insert=("0", n(dy)), **kw, **_attrs(attrs))
            el["transform"] = f"translate({n(x)} {n(y)}) rotate({n(rotate)})"
        else:
            el = self.dwg.text(clean(text), insert=(n(x), n(y + dy)), **kw, **_attrs(attrs))
        parent.add(el)
        return el

    def extend(self, parent: Any, elements: list[Any]) -> None:
        """Add `elements` (made by another pen, some of them perhaps `Written` already) to `parent`."""
        parent.elements.extend(elements)
        self._written.update((id(e.xml), e.text) for e in elements if type(e) is Written and e.text is not None)

    def tostring(self) -> str:
        xml = self.dwg.get_xml()
        # svgwrite's own tostring serializes to UTF-8 bytes and decodes them: the same text, written through an
        # encoder call per piece. Straight to text is quicker; only a lone surrogate (which UTF-8 cannot encode,
        # so svgwrite's way writes a character reference) needs svgwrite's way.
        body = xml_text(xml, self._written)
        if _SURROGATE.search(body):
            body = etree.tostring(xml, encoding="utf-8").decode("utf-8")
        return finish(body, self._title)


# The standard library's own escaping, so that the text below is its text.
_escape_attrib = etree._escape_attrib
_escape_cdata = etree._escape_cdata


class _Unusual(Exception):
    """A tree `xml_text` leaves to the standard library (a name with a namespace, a comment, a value not text)."""


def xml_text(root: Any, written: dict[int, str] | None = None) -> str:
    """`etree.tostring(root, encoding="unicode")` as svgwrite's etree writes it (its CDATA elements as they are),
    the same text, without the library's first pass over the tree for namespaces and with one test for characters
    to escape over all attribute values: an SVG of plain names has no namespace to find (svgwrite writes `xmlns`
    as an attribute) and, mostly, nothing to escape in its attributes. A tree with anything else (a `{uri}` name,
    a comment, a name or value that is not text) goes the library's way. `written`: the text of some of the
    tree's elements, written already (`Written`), by their id."""
    try:
        out = _quick_text(root, written)
    except (_Unusual, TypeError):  # (a name or value that is not text raises TypeError, as the library does)
        return etree.tostring(root, encoding="unicode")
    return "".join(out)


def _quick_text(root: Any, written: dict[int, str] | None) -> list[str]:
    """The pieces of `xml_text` of `root`, or _Unusual or TypeError (the library's way is needed)."""
    elements = list(root.iter()) if not written else list(_unwritten(root, written))
    values = "".join([v for e in elements for v in e.attrib.values()])
    names = "".join([k for e in elements for k in e.attrib])
    if "{" in names:
        raise _Unusual
    plain = not any(c in values for c in '&<>"\r\n\t')  # the characters `_escape_attrib` replaces
    out: list[str] = []
    _write(root, out.append, plain, written or None)
    return out


def _unwritten(root: Any, written: dict[int, str]):
    """The elements of the tree at `root` but those of the subtrees whose text is written already."""
    todo = [root]
    while todo:
        e = todo.pop()
        if id(e) not in written:
            yield e
            todo.extend(e)


class Written:
    """An element made into its XML tree and written to text ahead of the document (the board's cars and names,
    while the land is being worked out), as `xml_text` writes it in the document: the same characters (a value
    with a character to escape is escaped, with or without others in the document; an element the quick writer
    leaves to the library's way has no text of its own, and the document goes that way)."""

    __slots__ = ("xml", "text")

    def __init__(self, element: Any):
        self.xml = element.get_xml()
        try:
            self.text: str | None = "".join(_quick_text(self.xml, None))
        except (_Unusual, TypeError):
            self.text = None

    def get_xml(self) -> Any:
        return self.xml


def _write(elem: Any, write: Any, plain: bool, written: dict[int, str] | None = None) -> None:
    """`xml_text` of `elem`, piece by piece; `plain`: no attribute value has a character to escape."""
    if written is not None:
        text = written.get(id(elem))
        if text is not None:  # (its tail included)
            write(text)
            return
    tag = elem.tag
    if tag == CDATA_TAG:  # svgwrite's patch writes these as they are, without their tail
        write(CDATA_TPL % elem.text)
        return
    if type(tag) is not str or "{" in tag:
        raise _Unusual
    attrib = elem.attrib
    if not attrib:
        head = "<" + tag
    elif plain:
        head = "<" + tag + " " + '" '.join(map('="'.join, attrib.items())) + '"'
    else:
        head = "<" + tag + "".join([f' {k}="{_escape_attrib(v)}"' for k, v in attrib.items()])
    text = elem.text
    if text or len(elem):
        if text:
            if type(text) is not str:
                raise _Unusual
            write(head + ">" + _escape_cdata(text))
        else:
            write(head + ">")
        for child in elem:
            _write(child, write, plain, written)
        write("</" + tag + ">")
    else:
        write(head + " />")
    tail = elem.tail
    if tail:
        if type(tail) is not str:
            raise _Unusual
        write(_escape_cdata(tail))


class Leaf:
    """An element without children (rect, circle, line, path) written as svgwrite writes its own: attribute names
    with '_' as '-' (a trailing '_' dropped), numbers as `n` rounds them, sorted by name, empty ones left out; but
    without svgwrite's machinery per element (a board has tens of thousands of them)."""

    __slots__ = ("elementname", "attribs")

    def __init__(self, name: str, attrs: dict[str, Any], **own: Any):
        self.elementname = name
        self.attribs = {_NAMES.get(k) or _name(k): v for k, v in _attrs(attrs).items()}
        self.attribs.update((k, v) for k, v in own.items() if v is not None)

    @classmethod
    def of(cls, name: str, attribs: dict[str, Any]) -> Leaf:
        """An element with these attributes, already as written (names with '-', numbers as text): for many
        elements alike, one made with `Leaf(...)` and copied with what differs."""
        leaf = cls.__new__(cls)
        leaf.elementname = name
        leaf.attribs = attribs
        return leaf

    def __setitem__(self, key: str, value: Any) -> None:
        self.attribs[key] = value

    def __getitem__(self, key: str) -> Any:
        return self.attribs[key]

    def get_xml(self) -> Any:
        attrib = {}
        for attribute, value in sorted(self.attribs.items()):
            if value is not None:
                value = str(value)
                if value:
                    attrib[attribute] = value
        return etree.Element(self.elementname, attrib)


#: Keyword -> attribute name (`stroke_width` -> `stroke-width`, `class_` -> `class`), as each is first met.
_NAMES: dict[str, str] = {}


def _name(keyword: str) -> str:
    name = _NAMES[keyword] = keyword.rstrip("_").replace("_", "-")
    return name


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
