"""The SVG writer (ttr_maps/render/svg.py): the document is the text svgwrite itself writes, character for character."""

from __future__ import annotations

import pytest

from ttr_maps.render.svg import Pen, finish


@pytest.mark.parametrize("odd", ["Zürich – Köln & <Ørsted>", "a lone surrogate \ud800 in an attribute", ""])
def test_the_document_is_the_text_svgwrite_writes(odd):
    pen = Pen(120.5, 80.25, title="Board ä")
    g = pen.group(id="routes")
    pen.rect(g, 1.234, 5.678, 10, 4, 0.5, fill="#ff0000", transform="rotate(30)")
    pen.path(g, "M0 0L1 1Z", fill="#00ff00", id=odd or None)
    pen.text(g, "Zürich " + odd, 3, 4, 2.5, bold=True, rotate=12.0)
    written = pen.tostring()
    assert written == finish(pen.dwg.tostring(), "Board ä")  # svgwrite's own serialization
    if "\ud800" in odd:
        assert "&#55296;" in written and "\ud800" not in written  # UTF-8 cannot hold it: a character reference


def _odd_tree():
    """A tree with what an SVG may hold besides plain elements: svgwrite's CDATA, text with tails, escaped
    attribute characters, a comment, a namespaced name."""
    from svgwrite.etree import CDATA, etree

    root = etree.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink"})
    style = etree.SubElement(root, "style")
    style.append(CDATA("text { fill: red } a < b && c > d"))
    style[0].tail = "after the cdata"  # svgwrite's patch writes a CDATA element without its tail
    g = etree.SubElement(root, "g", {"id": 'a "quoted" <name> & co', "data-x": "line\nbreak\ttab\rret"})
    t = etree.SubElement(g, "text", {"x": "1"})
    t.text = "Köln & <Zürich>"
    span = etree.SubElement(t, "tspan")
    span.text = "inner"
    span.tail = " tail > here"
    etree.SubElement(g, "rect", {})
    empty = etree.SubElement(g, "g")
    empty.text = ""
    g.tail = "\n"
    return root


@pytest.mark.parametrize("twist", ["plain", "escapes", "comment", "namespace", "attribute-namespace", "number"])
def test_the_quick_writer_writes_what_the_library_writes(twist, monkeypatch):
    from svgwrite.etree import etree

    from ttr_maps.render.svg import xml_text

    root = _odd_tree()
    if twist == "plain":  # no attribute character to escape
        del root[1].attrib["id"], root[1].attrib["data-x"]
    elif twist == "comment":
        root.append(etree.Comment(" a comment "))
    elif twist == "namespace":
        etree.SubElement(root, "{http://example.com/ns}thing", {"a": "1"})
    elif twist == "attribute-namespace":
        root[1].set("{http://www.w3.org/1999/xlink}href", "#x")
    elif twist == "number":
        root[1].set("width", 3)  # not text: the library raises, and so does this writer
        with pytest.raises(TypeError):
            etree.tostring(root, encoding="unicode")
        with pytest.raises(TypeError):
            xml_text(root)
        return
    expected = etree.tostring(root, encoding="unicode")
    if twist in ("plain", "escapes"):  # written without the library's writer
        monkeypatch.setattr(etree, "tostring", None)
    assert xml_text(root) == expected


@pytest.mark.parametrize("odd", ["plain", "Zürich – Köln & <Ørsted>", "a lone surrogate \ud800 in a name", "{http://example.com/ns}id"])
def test_parts_written_ahead_give_the_same_document(odd):
    """`render` writes the cars, markers and names to text while the land is worked out (`Written`): the
    document is the one written with those elements drawn in place, whatever they hold."""
    from ttr_maps.render.svg import Written

    def draw(pen, parent):
        g = pen.group(parent, id="routes")
        pen.rect(g, 1.234, 5.678, 10, 4, 0.5, fill="#ff0000", transform="rotate(30)")
        if odd.startswith("{"):
            g[odd] = "x"  # a namespaced name: the library's writer, for the whole document
        else:
            pen.path(g, "M0 0L1 1Z", fill="#00ff00", id=odd)
        names = pen.group(parent, id="names")
        pen.text(names, "Zürich " + odd, 3, 4, 2.5, bold=True, rotate=12.0)

    def board(ahead):
        pen = Pen(120.5, 80.25, title="Board ä")
        pen.rect(pen.group(id="table"), 0, 0, 120.5, 80.25, 1.0, fill="#aa8800")
        g = pen.group(transform="translate(1 2)")
        if ahead:
            other = Pen(1.0, 1.0)
            below = other.dwg.g()
            draw(other, below)
            pen.extend(g, [Written(e) for e in below.elements])
        else:
            draw(pen, g)
        pen.rect(pen.group(g, id="legend"), 2, 3, 4, 5, fill="#112233")
        return pen.tostring()

    assert board(True) == board(False)


def test_svgwrite_still_validates_after_the_grammar_is_deferred():
    """The pens import svgwrite with its SVG grammar put off until used: a drawing that validates (debug=True)
    still rejects a bad transform and takes a good one, in a fresh interpreter where ttr_maps came first."""
    import subprocess
    import sys

    code = (
        "import sys, ttr_maps.render.svg, svgwrite\n"
        "d = svgwrite.Drawing(debug=True)\n"
        "d.add(d.path(d='M0 0L1 1Z', transform='rotate(30)'))\n"
        "try:\n"
        "    d.add(d.path(d='M0 0', transform='rotate(bad)'))\n"
        "except TypeError as e:\n"
        "    print('rejected', e)\n"
        "from svgwrite.data import svgparser\n"
        "print(svgparser.is_valid_pathdata('M0 0L1 1Z'), svgparser.is_valid_pathdata('M0 0 L bad'), len(svgparser.event_names))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "rejected 'rotate(bad)' is not a valid value for attribute 'transform'" in out
    assert out.splitlines()[-1] == "True False 26"
