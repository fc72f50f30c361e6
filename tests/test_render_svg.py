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
