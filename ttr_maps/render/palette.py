"""Colours of the drawings: the board's card colours, the table, and a letter per colour.

Every colour name a board can use gets a fill, an outline, a text colour that reads
on it, and a letter (colour-blind help) that is unique among the board's colours.
Unknown names get a deterministic colour from a spare palette, so any board renders.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..model.board import GRAY

# Card and route colours, chosen to stay apart from each other and from the
# table colours below (gray is a cool stone, the land a warm parchment).
KNOWN: dict[str, str] = {
    "pink": "#e56fb1",
    "purple": "#8a55b8",
    "violet": "#8a55b8",
    "white": "#f7f5ef",
    "blue": "#2f6cc2",
    "yellow": "#f4c430",
    "orange": "#ee8127",
    "black": "#2a2a2e",
    "red": "#d0342c",
    "green": "#3a9a48",
    "brown": "#8b5a2b",
    "teal": "#1f9a9a",
    "cyan": "#35b6d6",
    "gray": "#a7a9ac",
    "grey": "#a7a9ac",
    "gold": "#d4a72c",
    "silver": "#c4c8cc",
}
SPARE = ("#7b6cd9", "#b5651d", "#2aa198", "#c2185b", "#6d8f1f", "#5d7fa3", "#a1447a", "#3f6e5a")

# The letter printed on a colour (colour-blind help). Known names get a fixed one.
LETTERS: dict[str, str] = {
    "pink": "P",
    "purple": "U",
    "violet": "V",
    "white": "W",
    "blue": "B",
    "yellow": "Y",
    "orange": "O",
    "black": "K",
    "red": "R",
    "green": "G",
    "brown": "N",
    "teal": "T",
    "cyan": "C",
    "gold": "D",
    "silver": "S",
}

# The table: sea, land, frame and ink.
SEA = "#b9d3d9"
SEA_DEEP = "#9fc0c9"
LAND = "#f1e6c8"
LAND_EDGE = "#c9b88f"
FRAME = "#5b2a1c"
FRAME_LIGHT = "#8c4a32"
INK = "#2b2118"
INK_SOFT = "#5a4a3a"
PAPER = "#fbf6e9"
CITY_RING = "#8e1f1b"
CITY_FILL = "#fff8e6"
COUNTRY = "#4f6d7a"
SHADOW = "#000000"
LOCO_MARK = "#2a2a2e"


@dataclass(frozen=True)
class Swatch:
    """How one colour is drawn."""

    name: str
    fill: str
    stroke: str
    text: str
    letter: str


def _hex_to_rgb(h: str) -> tuple[int, int, int]:
    h = h.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def luminance(h: str) -> float:
    r, g, b = _hex_to_rgb(h)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def darker(h: str, factor: float = 0.65) -> str:
    r, g, b = _hex_to_rgb(h)
    return "#{:02x}{:02x}{:02x}".format(int(r * factor), int(g * factor), int(b * factor))


def lighter(h: str, factor: float = 0.5) -> str:
    r, g, b = _hex_to_rgb(h)
    return "#{:02x}{:02x}{:02x}".format(
        int(r + (255 - r) * factor), int(g + (255 - g) * factor), int(b + (255 - b) * factor)
    )


def _fill_for(name: str) -> str:
    if name in KNOWN:
        return KNOWN[name]
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return SPARE[digest[0] % len(SPARE)]


class Palette:
    """The swatches of one board's colours (plus gray), with unique letters."""

    def __init__(self, colors: tuple[str, ...] | list[str]):
        self.colors = tuple(colors)
        used: set[str] = set()
        letters: dict[str, str] = {}
        for name in self.colors:
            letter = LETTERS.get(name)
            if letter and letter not in used:
                letters[name] = letter
                used.add(letter)
        for name in self.colors:
            if name in letters:
                continue
            for ch in name.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
                if ch.isalnum() and ch not in used:
                    letters[name] = ch
                    used.add(ch)
                    break
            else:  # pragma: no cover - at most 12 colours, 36 symbols
                letters[name] = "?"
        self._swatches: dict[str, Swatch] = {}
        for name in self.colors:
            self._swatches[name] = self._make(name, letters[name])
        self._swatches[GRAY] = self._make(GRAY, "")

    @staticmethod
    def _make(name: str, letter: str) -> Swatch:
        fill = _fill_for(name)
        light = luminance(fill) > 0.6
        return Swatch(
            name=name,
            fill=fill,
            stroke="#3a3a3a" if light else darker(fill, 0.55),
            text=INK if light else "#ffffff",
            letter=letter,
        )

    def __getitem__(self, name: str) -> Swatch:
        if name not in self._swatches:
            self._swatches[name] = self._make(name, "")
        return self._swatches[name]

    def swatches(self) -> list[Swatch]:
        """The board's colours in board order (gray not included)."""
        return [self._swatches[c] for c in self.colors]
