"""Reference mixes of the bundled official boards, for the balance checks.

The constants are derived from `maps/boards/` (the boards whose facts are the
published ones: routes of USA, Europe and Märklin Germany; tickets of USA and
Europe, whose cards are published too) by the functions below;
`tests/test_checks_reference.py` recomputes them and fails when they drift.
Each board weighs the same, whatever its size.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..model.board import Board

ROUTE_BOARDS = ("usa", "europe", "germany")
TICKET_BOARDS = ("usa", "europe")

LENGTH_BINS = ("1", "2", "3", "4", "5", "6+")
VALUE_BINS = ("<20%", "20-40%", "40-60%", "60-80%", "80%+")

#: Share of route tracks of each length (a double route counts twice).
ROUTE_LENGTH_MIX = {"1": 0.113, "2": 0.326, "3": 0.241, "4": 0.201, "5": 0.058, "6+": 0.061}
#: Share of tickets by value, as a share of the board's longest shortest path (its diameter, in spaces).
TICKET_VALUE_MIX = {"<20%": 0.077, "20-40%": 0.457, "40-60%": 0.26, "60-80%": 0.119, "80%+": 0.087}


def route_length_mix(board: Board) -> dict[str, float]:
    counts = dict.fromkeys(LENGTH_BINS, 0)
    for r in board.routes:
        counts[LENGTH_BINS[min(r.length, 6) - 1]] += len(r.tracks)
    return _shares(counts)


def ticket_value_mix(points: Iterable[int], diameter: int) -> dict[str, float]:
    counts = dict.fromkeys(VALUE_BINS, 0)
    for p in points:
        counts[VALUE_BINS[min(int(5 * p / diameter), 4)] if diameter > 0 else VALUE_BINS[-1]] += 1
    return _shares(counts)


def average(mixes: Sequence[dict[str, float]]) -> dict[str, float]:
    keys = mixes[0].keys() if mixes else ()
    return {k: round(sum(m[k] for m in mixes) / len(mixes), 3) for k in keys}


def distance(a: dict[str, float], b: dict[str, float]) -> float:
    """Total variation distance: the share of items that would have to change bin (0 = same mix, 1 = disjoint)."""
    return sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b)) / 2


def describe(mix: dict[str, float]) -> str:
    return ", ".join(f"{k}: {v:.0%}" for k, v in mix.items())


def _shares(counts: dict[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {k: (v / total if total else 0.0) for k, v in counts.items()}
