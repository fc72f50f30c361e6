"""Text: cleaning user strings, measuring them, and wrapping them.

Widths use the metrics of Helvetica (the PDF base font the print path uses), so
label boxes and wrapped lines come out the same on every machine; the SVG's font
stack names similar sans-serif faces.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

FONT_STACK = "Helvetica, Arial, 'Liberation Sans', 'Nimbus Sans', 'DejaVu Sans', sans-serif"
TITLE_STACK = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"

# Characters XML 1.0 forbids (C0 controls but tab/newline/return, surrogates, U+FFFE/U+FFFF).
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SPACES = re.compile(r"\s+")


def clean(text: str) -> str:
    """A user string as one line of drawable text: no control characters, single spaces."""
    return _SPACES.sub(" ", _XML_BAD.sub("", text)).strip()


_PDF_EXTRA = {"ß": "ss", "Œ": "OE", "œ": "oe", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ı": "i", "–": "-", "—": "-", "≥": ">=", "≤": "<=", "→": "->", "×": "x", "…": "..."}


@lru_cache(maxsize=4096)
def pdf_safe(text: str) -> str:
    """`text` in the characters the PDF base fonts have (Windows-1252).

    Accents outside that set are dropped (ş → s), anything else becomes '?'.
    Plain Latin-1 text (é, ü, ß, ø) is kept as it is.
    """
    out = []
    for ch in text:
        try:
            ch.encode("cp1252")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        if ch in _PDF_EXTRA:
            out.append(_PDF_EXTRA[ch])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        try:
            base.encode("cp1252")
            out.append(base or "?")
        except UnicodeEncodeError:
            out.append("?")
    return "".join(out)


@lru_cache(maxsize=1)
def _metrics() -> tuple[dict[str, int], dict[str, int]]:
    from fpdf.fonts import CORE_FONTS_CHARWIDTHS

    return CORE_FONTS_CHARWIDTHS["helvetica"], CORE_FONTS_CHARWIDTHS["helveticaB"]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of `text` at font size `size`, in the same unit as `size`.

    A little wider than Helvetica, because the SVG's first-choice faces run wider.
    """
    regular, heavy = _metrics()
    widths = heavy if bold else regular
    total = 0
    for ch in text:
        w = widths.get(ch)
        if w is None:
            base = pdf_safe(ch)[:1] or "?"
            w = widths.get(base, 556)
        total += w
    return total * size / 1000 * 1.1


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of `text` into lines no wider than `width`."""
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        line = ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, bold) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def fit_size(text: str, size: float, width: float, bold: bool = False, smallest: float = 0.0) -> float:
    """The font size (at most `size`) at which `text` fits in `width`."""
    w = text_width(text, size, bold)
    if w <= width or w == 0:
        return size
    return max(smallest, size * width / w)
