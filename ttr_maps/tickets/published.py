"""The published decks of the bundled editions, measured: the shape a suggested deck aims at.

`published.json` beside this module holds the measurement (every deck's shape
figures and the reach of each of its tickets) and the ranges over the decks
that set the norm. Regenerate it after a bundled board changes:

    python -m ttr_maps.tickets.published > ttr_maps/tickets/published.json

(tests/test_tickets_published.py fails when the file and a fresh measurement differ).
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from importlib import resources
from typing import Any

from .figures import SHAPE, deck_figures
from .paths import BoardPaths

#: Each published deck as it is played (a variant's piles together), by the bundled board holding it.
#: Germany's decks are our own design (the Märklin tickets are not transcribed), so they are not here.
DECKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "usa": ("usa", ("usa",)),
    "usa1910": ("usa", ("usa1910",)),
    "usa1910-revised": ("usa", ("usa1910-revised",)),
    "europe": ("europe", ("europe-regular", "europe-long")),
    "europe-1912": ("europe", ("1912-regular", "1912-long")),
    "big-cities": ("europe", ("big-cities",)),
    "paris": ("paris", ("paris",)),
}
#: Decks measured but left out of the ranges: Big Cities deals only tickets between a few big
#: cities on purpose, so its place figures are not what a board's main deck should look like.
SPECIAL = {"big-cities": "tickets between the big cities only, on purpose"}

NOTE = (
    "Measured by `python -m ttr_maps.tickets.published` on the bundled boards (maps/boards): each deck as it "
    "is played (a variant's piles together), shape figures as defined in ttr_maps/tickets/figures.py (SHAPE), "
    "reach = shortest path in spaces / the board's diameter (longest shortest path between two cities). "
    "Ranges are the lowest and highest value over the decks not listed under `special`."
)


def measure() -> dict[str, Any]:
    """Measure every deck of `DECKS` on its bundled board."""
    from ..bundled import maps_dir
    from ..load import load_board

    boards: dict[str, tuple[Any, BoardPaths]] = {}
    decks: dict[str, Any] = {}
    for name, (board_name, parts) in DECKS.items():
        if board_name not in boards:
            board = load_board(maps_dir() / "boards" / f"{board_name}.yaml")
            boards[board_name] = (board, BoardPaths(board))
        board, paths = boards[board_name]
        fig = deck_figures(paths, board.tickets_in(parts))
        decks[name] = {
            "board": board_name,
            "decks": list(parts),
            "tickets": len(fig.tickets),
            "places": len(paths.places),
            "diameter": paths.diameter,
            "shape": fig.shape(),
            "reach": sorted(round(r, 3) for t in fig.tickets if (r := fig.reach(t)) is not None),
        }
    ranged = [d for n, d in decks.items() if n not in SPECIAL]
    ranges = {k: [min(d["shape"][k] for d in ranged), max(d["shape"][k] for d in ranged)] for k in SHAPE}
    return {"note": NOTE, "special": SPECIAL, "ranges": ranges, "decks": decks}


@cache
def published() -> dict[str, Any]:
    """The stored measurement (published.json)."""
    return json.loads(resources.files(__package__).joinpath("published.json").read_text(encoding="utf-8"))


def ranges() -> dict[str, tuple[float, float]]:
    return {k: (lo, hi) for k, (lo, hi) in published()["ranges"].items()}


def reaches(names: tuple[str, ...] | None = None) -> list[list[float]]:
    """The sorted reach of the tickets of each named published deck (default: those that set the ranges)."""
    decks = published()["decks"]
    names = names or tuple(n for n in decks if n not in published()["special"])
    return [decks[n]["reach"] for n in names]


def dumps(data: dict[str, Any]) -> str:
    """JSON with one line per list of numbers (the stored file stays short and diffs well)."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return re.sub(r"\[\s*([-0-9.,\s]*?)\s*\]", lambda m: "[" + ", ".join(m.group(1).split()).replace(",,", ",") + "]", text) + "\n"


if __name__ == "__main__":  # pragma: no cover - regenerates the data file
    sys.stdout.write(dumps(measure()))
