"""Text: cleaning user strings, measuring them, and wrapping them.

Widths use the metrics of Helvetica, so label boxes and wrapped lines come out
the same on every machine; the SVG's font stack names similar sans-serif faces.

The PDF embeds Source Sans Pro (SIL Open Font License, installed with pip as the
`font-source-sans-pro` package): Latin with its extensions, Greek and Cyrillic.
Text in other scripts (e.g. Chinese, Japanese, Arabic) prints as '?' in the PDF
only, and `print` warns naming the place; the SVG keeps every character.
"""

from __future__ import annotations

import os
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

PDF_FAMILY = "ttrsans"  # the family name the embedded font is registered under in the PDF
_PDF_FONT_FILES = {"": "SourceSansPro-Regular.ttf", "B": "SourceSansPro-Bold.ttf",
                   "I": "SourceSansPro-It.ttf", "BI": "SourceSansPro-BoldIt.ttf"}


@lru_cache(maxsize=1)
def pdf_font_files() -> dict[str, str] | None:
    """Style ("", "B", "I", "BI") -> path of the font the PDF embeds; None when the font package is missing."""
    try:
        import font_source_sans_pro
    except ImportError:
        return None
    folder = font_source_sans_pro.font_directory
    paths = {style: os.path.join(folder, name) for style, name in _PDF_FONT_FILES.items()}
    return paths if all(os.path.isfile(p) for p in paths.values()) else None


@lru_cache(maxsize=2)
def _pdf_charset(italic: bool = False) -> frozenset[int] | None:
    """The characters of the embedded font's upright (or italic) styles; None: only the PDF base fonts (Windows-1252)."""
    files = pdf_font_files()
    if files is None:
        return None
    from fontTools.ttLib import TTFont

    common: set[int] | None = None
    for style, path in files.items():
        if ("I" in style) != italic:
            continue
        cmap = set(TTFont(path, lazy=True).getBestCmap())
        common = cmap if common is None else common & cmap
    return frozenset(common or ())


def pdf_italic_ok(text: str) -> bool:
    """Whether the embedded italic has every letter of `text` (its Greek and Cyrillic are upright only)."""
    charset = _pdf_charset(True)
    return charset is None or all(ord(c) in charset for c in text)


def _in_pdf_font(ch: str) -> bool:
    charset = _pdf_charset()
    if charset is None:
        try:
            ch.encode("cp1252")
            return True
        except UnicodeEncodeError:
            return False
    return ord(ch) in charset or ch in " \t"


@lru_cache(maxsize=4096)
def pdf_safe(text: str) -> str:
    """`text` in the characters the PDF's font has.

    With the embedded font (the usual case) that is Latin, Greek and Cyrillic;
    without it (font package missing) Windows-1252. A letter the font lacks loses
    its accent (ş → s) when that helps, anything else becomes '?'.
    """
    out = []
    for ch in text:
        if _in_pdf_font(ch):
            out.append(ch)
            continue
        swap = _PDF_EXTRA.get(ch)
        if swap is not None and all(_in_pdf_font(c) for c in swap):
            out.append(swap)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if base and all(_in_pdf_font(c) for c in base) else "?")
    return "".join(out)


def pdf_missing(text: str) -> str:
    """The characters of `text` the PDF cannot show (printed as '?'), in order, each once."""
    safe = pdf_safe(text)
    if "?" not in safe or len(safe) != len(text) and safe.count("?") == text.count("?"):
        return ""
    missing: list[str] = []
    for ch in text:
        if ch != "?" and pdf_safe(ch) == "?" and ch not in missing:
            missing.append(ch)
    return "".join(missing)


@lru_cache(maxsize=4096)
def _latin_base(ch: str) -> str:
    """A Windows-1252 stand-in for `ch` to look its width up in Helvetica's metrics (independent of fonts installed)."""
    if ch in _PDF_EXTRA:
        return _PDF_EXTRA[ch][:1]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))[:1]
    try:
        base.encode("cp1252")
        return base or "?"
    except UnicodeEncodeError:
        return "?"


@lru_cache(maxsize=1)
def _metrics() -> tuple[dict[str, int], dict[str, int]]:
    from .metrics import HELVETICA, HELVETICA_BOLD

    return {chr(i): w for i, w in enumerate(HELVETICA)}, {chr(i): w for i, w in enumerate(HELVETICA_BOLD)}


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
            if unicodedata.east_asian_width(ch) in ("W", "F"):
                w = 1000  # Chinese, Japanese, Korean: a full em
            else:
                w = widths.get(_latin_base(ch), 556)
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
