"""Tiling a big board over printer pages: which part of the board each page shows.

Neighbouring pages share an overlap strip; a page's alignment marks sit in its
strips at the same board position as on its neighbour, so the two line up when
one is laid over the other. The orientation with fewer pages wins (portrait on a tie).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}


@dataclass(frozen=True)
class Tile:
    """One board page: its place in the grid and the board rectangle it shows (mm)."""

    name: str  # row letter + column number, e.g. B3
    row: int
    col: int
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Tiling:
    paper: str
    orientation: str
    page_w: float
    page_h: float
    margin: float
    overlap: float
    board_w: float
    board_h: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def content_w(self) -> float:
        return self.page_w - 2 * self.margin

    @property
    def content_h(self) -> float:
        return self.page_h - 2 * self.margin

    def as_dict(self) -> dict:
        d = asdict(self)
        d["tiles"] = [asdict(t) for t in self.tiles]
        return _rounded(d)


def _rounded(value):
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _count(length: float, content: float, overlap: float) -> int:
    if length <= content:
        return 1
    return math.ceil((length - overlap) / (content - overlap) - 1e-9)


def tile_name(row: int, col: int) -> str:
    letters = ""
    r = row
    while True:
        letters = chr(ord("A") + r % 26) + letters
        r = r // 26 - 1
        if r < 0:
            break
    return f"{letters}{col + 1}"


def tile_board(board_w: float, board_h: float, paper: str = "a4", margin: float = 10.0, overlap: float = 10.0) -> Tiling:
    """Cover a `board_w` x `board_h` mm board with pages of `paper`."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper '{paper}'; use one of {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    best: Tiling | None = None
    for orientation, (w, h) in (("portrait", (pw, ph)), ("landscape", (ph, pw))):
        cw, ch = w - 2 * margin, h - 2 * margin
        if cw <= overlap or ch <= overlap:
            raise ValueError("the margins and overlap leave no room on the page")
        cols, rows = _count(board_w, cw, overlap), _count(board_h, ch, overlap)
        tiles = []
        for r in range(rows):
            for c in range(cols):
                x, y = c * (cw - overlap), r * (ch - overlap)
                tiles.append(Tile(tile_name(r, c), r, c, x, y, min(cw, board_w - x), min(ch, board_h - y)))
        t = Tiling(paper, orientation, w, h, margin, overlap, board_w, board_h, rows, cols, tuple(tiles))
        if best is None or rows * cols < best.rows * best.cols:
            best = t
    assert best is not None
    return best
