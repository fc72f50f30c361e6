"""print's direct SVG-to-PDF drawing (ttr_maps/render/pdfdraw.py): our drawings go through it, anything else to fpdf2."""

from fpdf import FPDF

from ttr_maps.render import pdfdraw
from ttr_maps.render.pdf import Stamp, _register_fonts
from ttr_maps.render.text import PDF_FAMILY

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 40 20">'


def _pdf() -> FPDF:
    pdf = FPDF(unit="mm")
    _register_fonts(pdf)
    pdf.add_page()
    return pdf


def test_a_drawing_of_ours_is_written_directly_with_its_size_scale_opacity_and_text():
    pdf = _pdf()
    svg = (HEAD + '<g fill-opacity="0.5"><rect x="1" y="2" width="10" height="4" rx="1" fill="#ff0000" stroke="#000" '
           'stroke-dasharray="1 2" transform="translate(3 4) rotate(90)" /></g>'
           '<text x="20" y="10" font-size="4" font-weight="bold" text-anchor="middle">A&amp;B</text></svg>')
    w, h, stream = pdfdraw.convert(svg, pdf._resource_catalog, pdf.k, PDF_FAMILY)
    assert (w, h) == (20, 10)
    assert stream.startswith(f"q {pdfdraw._f(pdf.k)} 0 0 {pdfdraw._f(-pdf.k)} 0 {pdfdraw._f(10 * pdf.k)} cm")
    assert "0.5 0 0 0.5 0 0 cm" in stream  # the viewBox is twice the size
    assert "0 1 -1 0 3 4 cm" in stream and "[1 2] 0 d" in stream and "1 0 0 rg" in stream and "0 0 0 RG" in stream
    gs = [name for style, name in pdf._resource_catalog.graphics_styles.items() if "/ca 0.5" in style]
    assert gs and f"/{gs[0]} gs" in stream
    bold = pdf._resource_catalog.get_font_from_family(PDF_FAMILY, "B")
    assert f"/F{bold.i} 4 Tf" in stream
    kept = {glyph.unicode for glyph, _ in bold.subset.items() if glyph is not None}
    assert {(ord("A"),), (ord("&"),), (ord("B"),)} <= kept  # the glyphs used go into the font's subset
    # Centred on x = 20: the text starts half its width to the left.
    _, width = bold.get_text_width("A&B", 4, None)
    assert f" {pdfdraw._f(20 - width / 2)} 10 Tm" in stream


def test_anything_else_is_left_to_fpdf2():
    pdf = _pdf()
    for body in ('<ellipse cx="5" cy="5" rx="2" ry="1" />', '<rect width="4" height="4" opacity="0.5" />',
                 '<text x="1" y="1">a<tspan>b</tspan></text>', '<rect width="4" height="4" fill="url(#g)" />',
                 '<path d="M0 0 L1 1" transform="skewX(10)" />'):
        assert pdfdraw.convert(HEAD + body + "</svg>", pdf._resource_catalog, pdf.k, PDF_FAMILY) is None, body
    assert pdfdraw.convert('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 40 20"/>',
                           pdf._resource_catalog, pdf.k, PDF_FAMILY) is None  # sizes not in mm
    stamp = Stamp(pdf, HEAD + '<ellipse cx="5" cy="5" rx="2" ry="1" fill="#00ff00" /></svg>')
    assert (stamp.w, stamp.h) == (20, 10) and "0 1 0 rg" in stamp.stream  # fpdf2 drew it
