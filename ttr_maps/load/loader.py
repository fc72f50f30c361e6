"""Load boards and variants: parse, check the format, validate against the models, check cross-references.

Every problem becomes a Diagnostic pointing at the user's file, and all problems
of a file are reported in one run. Nothing here raises for bad input.
"""

from __future__ import annotations

import json
import math
import os
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from ..bundled import resolve
from ..diagnostics import Diagnostic, LoadError, Severity, did_you_mean, has_errors
from ..model.board import BOARD_FORMAT, Board
from ..model.deck import DECK_FORMAT, DeckFile
from ..model.variant import VARIANT_FORMAT, Variant
from . import refs, rules
from .codes import code_name
from ..fileio import path_problem
from .source import MAX_PROBLEMS, Source, _clip, read_source
from .validation import validate

CURRENT = {"ttr-board": BOARD_FORMAT, "ttr-variant": VARIANT_FORMAT, "ttr-deck": DECK_FORMAT}
KINDS = {"ttr-board": "board", "ttr-variant": "variant", "ttr-deck": "deck"}
# Other ttr-maps files: what they are and the command that reads them.
OTHER_KINDS = {
    "ttr-position": ("a position file, a finished game", "score it with `ttr-maps score {path}`, which also checks it"),
    "ttr-state": ("a game state file", "show it with `ttr-maps state show {path}`"),
}


@dataclass
class Loaded:
    """The result of loading one file: the models (None when anything has errors) and every diagnostic.

    For a variant, `diagnostics` also holds those of its board file.
    """

    path: str
    kind: str | None = None  # "board", "variant" or "deck"; None when the format is unknown
    board: Board | None = None
    variant: Variant | None = None
    board_path: str | None = None  # for a variant: the board file it names
    source: Source | None = None
    board_source: Source | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    deck: DeckFile | None = None  # a deck file's model; for a variant, `decks` are those it names
    decks: list[DeckFile] = field(default_factory=list)
    deck_sources: list[Source] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def load(path: str | Path, texts: Mapping[str, str] | None = None) -> Loaded:
    """Load a board or a variant (told apart by its `format`); a variant also loads its board.
    A bundled name (`usa`) stands for the bundled file when no such file exists.

    `texts` maps a file's path to text to read in place of what is on disk (an unsaved edit).
    """
    texts = {os.path.normpath(str(k)): v for k, v in (texts or {}).items()}
    if os.path.normpath(str(path)) not in texts:
        path = resolve(path)
    src = read_source(path, texts.get(os.path.normpath(str(path))))
    result = Loaded(str(path), source=src, diagnostics=list(src.diagnostics))
    kind = _format_kind(src, result.diagnostics)
    if kind == "board":
        result.kind = "board"
        board = _board(src, result.diagnostics)
        result.board = board if result.ok else None
    elif kind == "variant":
        result.kind = "variant"
        variant = validate(src, Variant, result.diagnostics)
        board = _variant_board(src, result, texts)
        if result.ok and variant is not None and board is not None and result.board_source is not None:
            rules.check_rules(src, result.board_source, variant, board, result.diagnostics)  # type: ignore[arg-type]
        if result.ok:
            result.variant, result.board = with_deck_files(variant, result.decks), board  # type: ignore[arg-type]
    elif kind == "deck":
        result.kind = "deck"
        deck = _deck(src, result, texts)
        result.deck = deck if result.ok else None
        result.board = result.board if result.ok else None
    for source in (src, result.board_source, *result.deck_sources):
        if source is not None and source.omitted:
            result.diagnostics.append(
                Diagnostic(
                    source.path, 0, 0, Severity.ERROR, "S009",
                    f"{source.omitted} more problem(s) not shown (only the first {MAX_PROBLEMS} are); fix these and validate again",
                    code_name("S009"),
                )
            )
    return result


def load_board(path: str | Path) -> Board:
    """Load a board or raise LoadError with its diagnostics."""
    r = load(path)
    if r.kind == "variant":
        raise LoadError([_wrong_kind(r, "a variant (format ttr-variant/1), not a board; name a board file")])
    if not r.ok or r.board is None:
        raise LoadError(r.diagnostics)
    return r.board


def load_variant(path: str | Path) -> tuple[Variant, Board]:
    """Load a variant and its board or raise LoadError with their diagnostics."""
    r = load(path)
    if r.kind == "board":
        raise LoadError([_wrong_kind(r, "a board (format ttr-board/1), not a variant; name a variant file")])
    if not r.ok or r.variant is None or r.board is None:
        raise LoadError(r.diagnostics)
    return r.variant, r.board


def _wrong_kind(r: Loaded, message: str) -> Diagnostic:
    assert r.source is not None
    return r.source.diag(("format",), "V002", f"this file is {message}")


def _format_kind(src: Source, out: list[Diagnostic]) -> str | None:
    """'board' or 'variant' from the file's `format`, or None after reporting why not."""
    data = src.data
    if data is None:
        return None  # the reader has said why
    if not isinstance(data, dict):
        out.append(src.diag((), "S001", "the file must be a mapping (key: value lines) starting with `format: ttr-board/1` or `format: ttr-variant/1`"))
        return None
    if "format" not in data:
        out.append(src.diag((), "S002", "missing key 'format'; add `format: ttr-board/1` (a board) or `format: ttr-variant/1` (a variant) as the first line"))
        return None
    fmt = data["format"]
    m = re.fullmatch(r"(ttr-board|ttr-variant|ttr-deck)/([0-9]+)", fmt) if isinstance(fmt, str) else None
    other = re.fullmatch(r"(ttr-position|ttr-state)/[0-9]{1,9}", fmt) if isinstance(fmt, str) else None
    if other:
        what, action = OTHER_KINDS[other.group(1)]
        out.append(
            src.diag(
                ("format",),
                "S010",
                f"this is {what} ({fmt}), not a board or variant; {action.format(path=src.path)}",
            )
        )
        return None
    if not m:
        shown = _clip(str(fmt)) if isinstance(fmt, str) else json.dumps(fmt)
        out.append(src.diag(("format",), "S003", f"unknown format '{shown}'{did_you_mean(str(fmt)[:100], CURRENT.values())}; use `ttr-board/1` or `ttr-variant/1`"))
        return None
    name, digits = m.group(1), m.group(2).lstrip("0") or "0"
    if len(digits) > 9:  # no such version; never convert thousands of digits (Python refuses beyond 4300)
        out.append(src.diag(("format",), "S003", f"unknown format '{_clip(fmt)}': there is no such version; use `{CURRENT[name]}`"))
        return None
    version = int(digits)
    current = int(CURRENT[name].split("/")[1])
    if version > current:
        out.append(
            src.diag(
                ("format",),
                "S004",
                f"'{fmt}' is newer than this ttr-maps reads (up to {CURRENT[name]}); upgrade ttr-maps (pip install -U ttr-maps)",
            )
        )
        return None
    if version != current:
        out.append(src.diag(("format",), "S003", f"unknown format '{fmt}'; use `{CURRENT[name]}`"))
        return None
    return KINDS[name]


def _board(src: Source, out: list[Diagnostic]) -> Board | None:
    board = validate(src, Board, out)
    refs.check_board(src, out)
    if board is not None and not _error_spots(src, out):
        _check_drawable(src, board, out)  # type: ignore[arg-type]
    return board  # type: ignore[return-value]


# The widest board, in car lengths, that the renderer and the geometry checks will draw. The bundled
# boards are 15-31 car lengths across and a 20,000-place board on a grid a few hundred; a place typed a
# few zeros too far (or a car length far too small) would make every route millions of spaces long.
MAX_CARS_ACROSS = 2000


def _check_drawable(src: Source, board: Board, out: list[Diagnostic]) -> None:
    """R011: the board would be drawn absurdly large: a place far off the others, or a tiny car length."""
    from ..geometry import Layout

    layout = Layout(board)
    pos = layout.positions
    car = layout.car_length
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    across = max(max(xs) - min(xs), max(ys) - min(ys)) / car if car > 0 else math.inf
    if math.isfinite(across) and across <= MAX_CARS_ACROSS:
        return
    mx, my = statistics.median(xs), statistics.median(ys)
    far = max(range(len(board.places)), key=lambda i: math.hypot(pos[board.places[i].id][0] - mx, pos[board.places[i].id][1] - my))
    rest = [p for i, p in enumerate(board.places) if i != far]
    rest_across = (
        max(max(pos[p.id][0] for p in rest) - min(pos[p.id][0] for p in rest), max(pos[p.id][1] for p in rest) - min(pos[p.id][1] for p in rest)) / car
        if rest and car > 0 else math.inf
    )
    if rest and rest_across <= MAX_CARS_ACROSS or board.drawing.car_length is None:
        place = board.places[far]
        x, y = pos[place.id]
        out.append(src.diag(("places", far), "R011",
                            f"place '{place.id}' lies {_big(math.hypot(x - mx, y - my) / car)} car lengths from the middle of the "
                            f"board, which makes it {_big(across)} car lengths across (at most {MAX_CARS_ACROSS:,} can be drawn); "
                            "check its position"))
        return
    out.append(src.diag(("drawing", "car_length"), "R011",
                        f"with drawing.car_length {car:g} the board is {_big(across)} car lengths across (at most "
                        f"{MAX_CARS_ACROSS:,} can be drawn); give the length of one route space in board units"))


def _big(n: float) -> str:
    return f"{n:,.0f}" if n < 1e9 else f"{n:.1e}" if math.isfinite(n) else "too many"


def _error_spots(src: Source, out: list[Diagnostic]) -> set[tuple[int, int]]:
    return {(d.line, d.col) for d in out if d.path == src.path and d.severity is Severity.ERROR}


def _variant_board(src: Source, result: Loaded, texts: Mapping[str, str]) -> Board | None:
    """Load the board a variant names, adding its diagnostics, then check the variant against it."""
    board, board_src = _named_board(src, result, "variant", texts)
    if board_src is not None:
        _deck_files(src, result, texts)
        refs.check_variant(src, board_src, result.diagnostics, result.deck_sources)
    return board


def _named_board(src: Source, result: Loaded, kind: str, texts: Mapping[str, str]) -> tuple[Board | None, Source | None]:
    """Load the board that a variant or deck file names under `board:`, adding its diagnostics:
    the board (None when it has errors) and its source (None when it is not a board file)."""
    out = result.diagnostics
    ref = src.data.get("board") if isinstance(src.data, dict) else None
    if not isinstance(ref, str) or not ref or src.pos(("board",)) in _error_spots(src, out):
        return None, None  # the schema check reports it
    board_path = resolve(ref, os.path.dirname(src.path), kinds=("boards",))
    result.board_path = board_path
    if not os.path.exists(board_path) and os.path.normpath(board_path) not in texts:
        problem = path_problem(board_path)
        what = "not found" if problem is None or problem.text == "not found" else f"not found: it is {problem.text}"
        out.append(
            src.diag(("board",), "V001", f"board file '{ref}' {what} (looked for {board_path}); the path is relative to this {kind} file, or a bundled board's name (`ttr-maps boards`)")
        )
        return None, None
    board_src = read_source(board_path, texts.get(os.path.normpath(board_path)))
    result.board_source = board_src
    out.extend(board_src.diagnostics)
    before = len(out)
    kind = _format_kind(board_src, out)
    if kind == "variant":
        out.append(src.diag(("board",), "V002", f"'{ref}' is a variant, not a board; name a board file (format {BOARD_FORMAT})"))
        return None, None
    if kind != "board":
        # The board file's own problem is at its path (often 0:0, the whole file): say it here too.
        why = next((d for d in board_src.diagnostics + out[before:] if d.path == board_src.path), None)
        if why is not None:
            message = f"board file '{ref}' cannot be used: {why.message} ({why.code} at {why.path}:{why.line}:{why.col})"
        else:  # pragma: no cover - the reader or the format check always says why
            message = f"board file '{ref}' cannot be used; name a board file (format {BOARD_FORMAT})"
        out.append(src.diag(("board",), "V013", message))
        return None, None
    return _board(board_src, out), board_src


def _deck_files(src: Source, result: Loaded, texts: Mapping[str, str]) -> None:
    """Read the deck files a variant names (`tickets.deck_files`), each checked against the variant's board."""
    out = result.diagnostics
    tickets = src.data.get("tickets") if isinstance(src.data, dict) else None
    files = tickets.get("deck_files") if isinstance(tickets, dict) else None
    for j, ref in enumerate(files if isinstance(files, list) else ()):
        if not isinstance(ref, str) or not ref or src.pos(("tickets", "deck_files", j)) in _error_spots(src, out):
            continue
        path = os.path.normpath(os.path.join(os.path.dirname(src.path), ref))
        if not os.path.isfile(path) and path not in texts:
            out.append(src.diag(("tickets", "deck_files", j), "V014",
                                f"deck file '{ref}' not found (looked for {path}); the path is relative to this variant file"))
            continue
        deck_src = read_source(path, texts.get(path))
        out.extend(deck_src.diagnostics)
        before = len(out)
        kind = _format_kind(deck_src, out)
        if kind != "deck":
            why = next((d for d in deck_src.diagnostics + out[before:] if d.path == deck_src.path), None)
            detail = f": {why.message} ({why.code} at {why.path}:{why.line}:{why.col})" if why is not None else f": it is a {kind}"
            out.append(src.diag(("tickets", "deck_files", j), "V015",
                                f"'{ref}' cannot be used as a deck file{detail}; name a file with `format: {DECK_FORMAT}`"))
            continue
        deck = validate(deck_src, DeckFile, out)
        if result.board_source is not None:
            refs.check_deck(deck_src, result.board_source, out)
        result.deck_sources.append(deck_src)
        if deck is not None:
            result.decks.append(deck)


def _deck(src: Source, result: Loaded, texts: Mapping[str, str]) -> DeckFile | None:
    """A deck file alone: its schema, and its tickets' places when it names a board."""
    deck = validate(src, DeckFile, result.diagnostics)
    if isinstance(src.data, dict) and "board" in src.data:
        result.board, board_src = _named_board(src, result, "deck", texts)
        if board_src is not None:
            refs.check_deck(src, board_src, result.diagnostics)
    return deck


def with_deck_files(variant: Variant, decks: list[DeckFile]) -> Variant:
    """The variant with the tickets of its deck files added after `tickets.add`'s."""
    if not decks:
        return variant
    added = variant.tickets.add + tuple(t for d in decks for t in d.tickets)
    return variant.model_copy(update={"tickets": variant.tickets.model_copy(update={"add": added})})

