"""Load boards and variants: parse, validate against the models, check cross-references.

Every problem becomes a Diagnostic pointing at the user's file; all problems of a
file are reported in one run. Nothing here raises for bad input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import Diagnostic, LoadError, Severity, did_you_mean, has_errors
from ..model.board import BOARD_FORMAT, GRAY, Board
from ..model.variant import VARIANT_FORMAT, Variant
from .source import Source, read_source

FORMATS: dict[str, type[BaseModel]] = {"ttr-board": Board, "ttr-variant": Variant}
CURRENT = {"ttr-board": BOARD_FORMAT, "ttr-variant": VARIANT_FORMAT}


@dataclass
class Loaded:
    """The result of loading one file: the model (None when it has errors) and everything found."""

    path: str
    kind: str | None = None  # "board" or "variant"
    board: Board | None = None
    variant: Variant | None = None
    board_path: str | None = None  # for a variant: the board file it names
    source: Source | None = None
    board_source: Source | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def load(path: str | Path) -> Loaded:
    """Load a board or a variant (told apart by its `format`); a variant also loads its board."""
    src = read_source(path)
    result = Loaded(str(path), source=src, diagnostics=list(src.diagnostics))
    if src.diagnostics and src.data is None:
        return result
    kind = _check_format(src, result)
    if kind is None:
        return result
    model = _validate(src, FORMATS[kind], result.diagnostics)
    if kind == "ttr-board":
        result.kind = "board"
        if model is not None:
            _check_board_refs(src, model, result.diagnostics)  # type: ignore[arg-type]
            result.board = model  # type: ignore[assignment]
        return result
    result.kind = "variant"
    board_ref = src.data.get("board") if isinstance(src.data, dict) else None
    if isinstance(board_ref, str) and board_ref:
        board_path = (Path(path).parent / board_ref)
        result.board_path = str(board_path)
        if not board_path.is_file():
            result.diagnostics.append(
                src.diag(("board",), "V001", f"board file '{board_ref}' not found (looked at {board_path}); the path is relative to this variant file", name="board-not-found")
            )
        else:
            inner = load(board_path)
            result.board_source = inner.source
            result.diagnostics.extend(inner.diagnostics)
            if inner.kind != "board" and inner.ok:
                result.diagnostics.append(src.diag(("board",), "V001", f"'{board_ref}' is not a board file (format ttr-board/1)", name="board-not-found"))
            result.board = inner.board
    if model is not None:
        result.variant = model  # type: ignore[assignment]
        if result.board is not None:
            _check_variant_refs(src, model, result.board, result.diagnostics)  # type: ignore[arg-type]
    if not result.ok:
        result.variant = result.variant if result.board is not None and not has_errors(
            d for d in result.diagnostics if d.path == str(path)
        ) else None
    return result


def load_board(path: str | Path) -> Board:
    """Load a board or raise LoadError with its diagnostics."""
    r = load(path)
    if not r.ok or r.board is None or r.kind != "board":
        raise LoadError(r.diagnostics or [Diagnostic(str(path), 0, 0, Severity.ERROR, "V002", "not a board file", "wrong-kind")])
    return r.board


def load_variant(path: str | Path) -> tuple[Variant, Board]:
    """Load a variant and its board or raise LoadError with their diagnostics."""
    r = load(path)
    if not r.ok or r.variant is None or r.board is None or r.kind != "variant":
        raise LoadError(r.diagnostics or [Diagnostic(str(path), 0, 0, Severity.ERROR, "V002", "not a variant file", "wrong-kind")])
    return r.variant, r.board


def _check_format(src: Source, result: Loaded) -> str | None:
    data = src.data
    if not isinstance(data, dict):
        result.diagnostics.append(src.diag((), "S001", "the file must be a mapping starting with `format: ttr-board/1` or `format: ttr-variant/1`", name="not-a-mapping"))
        return None
    fmt = data.get("format")
    if fmt is None:
        result.diagnostics.append(src.diag((), "S002", "missing key 'format'; add `format: ttr-board/1` (a board) or `format: ttr-variant/1` (a variant)", name="missing-format"))
        return None
    m = re.fullmatch(r"(ttr-board|ttr-variant)/(\d+)", str(fmt))
    if not m:
        result.diagnostics.append(src.diag(("format",), "S003", f"unknown format '{fmt}'; use `ttr-board/1` or `ttr-variant/1`{did_you_mean(str(fmt), CURRENT.values())}", name="unknown-format"))
        return None
    name, version = m.group(1), int(m.group(2))
    current = int(CURRENT[name].split("/")[1])
    if version > current:
        result.diagnostics.append(src.diag(("format",), "S004", f"'{fmt}' is newer than this ttr-maps understands ({CURRENT[name]}); upgrade ttr-maps", name="newer-format"))
        return None
    if version < 1:
        result.diagnostics.append(src.diag(("format",), "S003", f"unknown format '{fmt}'; use `{CURRENT[name]}`", name="unknown-format"))
        return None
    return name


def _model_fields(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys allowed at `loc` (best effort, for 'did you mean')."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        f = _field_by_key(current, part)
        if f is None:
            return []
        current = _inner_model(f.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [f.alias or n for n, f in current.model_fields.items()]
    return []


def _field_by_key(model: type[BaseModel], key: str) -> Any:
    for name, f in model.model_fields.items():
        if key in (name, f.alias):
            return f
    return None


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _validate(src: Source, model: type[BaseModel], out: list[Diagnostic]) -> BaseModel | None:
    try:
        return model.model_validate(src.data)
    except ValidationError as exc:
        seen: set[tuple] = set()
        for err in exc.errors(include_url=False):
            loc = tuple(err["loc"])
            # Drop pydantic's internal markers (e.g. function-after) from locations.
            loc = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p.startswith("function-"))))
            kind = err["type"]
            if kind == "extra_forbidden":
                allowed = _model_fields(model, loc[:-1])
                d = src.diag(loc, "S005", f"unknown key '{loc[-1]}'{did_you_mean(str(loc[-1]), allowed)}; allowed keys: {', '.join(allowed)}" if allowed else f"unknown key '{loc[-1]}'", key=True, name="unknown-key")
            elif kind == "missing":
                d = src.diag(loc[:-1], "S006", f"missing key '{loc[-1]}'" + _where(loc[:-1]), name="missing-key")
            else:
                msg = err["msg"]
                if msg.startswith("Value error, "):
                    msg = msg[len("Value error, "):]
                d = src.diag(loc, "S007", f"{_where(loc, lead='')}{msg}".strip(), name="invalid-value")
            ident = (d.line, d.col, d.code, d.message)
            if ident not in seen:
                seen.add(ident)
                out.append(d)
        return None


def _where(loc: tuple[Any, ...], lead: str = " in ") -> str:
    if not loc:
        return ""
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    return f"{lead}{text}" + (": " if not lead else "")


def _check_board_refs(src: Source, board: Board, out: list[Diagnostic]) -> None:
    ids: dict[str, int] = {}
    for i, place in enumerate(board.places):
        if place.id in ids:
            out.append(src.diag(("places", i, "id"), "R001", f"duplicate place id '{place.id}' (first is places[{ids[place.id]}]); give each place its own id", name="duplicate-id"))
        else:
            ids[place.id] = i
    colors = set(board.colors) | {GRAY}
    if GRAY in board.colors:
        out.append(src.diag(("colors",), "R003", "'gray' is implicit (any one colour); remove it from colors", name="gray-declared"))

    def place_ref(loc: tuple[Any, ...], pid: str) -> None:
        if pid not in ids:
            out.append(src.diag(loc, "R002", f"unknown place '{pid}'{did_you_mean(pid, ids)}; declare it under places", name="unknown-place"))

    for i, route in enumerate(board.routes):
        place_ref(("routes", i, "from"), route.from_)
        place_ref(("routes", i, "to"), route.to)
        for j, color in enumerate(route.tracks):
            if color not in colors:
                out.append(src.diag(("routes", i, "tracks", j), "R004", f"unknown colour '{color}'{did_you_mean(color, colors)}; the board's colours are {', '.join(board.colors)} and gray", name="unknown-color"))
    for i, ticket in enumerate(board.tickets):
        place_ref(("tickets", i, "from"), ticket.from_)
        place_ref(("tickets", i, "to"), ticket.to)
    for i, goods in enumerate(board.goods):
        place_ref(("goods", i, "place"), goods.place)
    decks = set(board.deck_names)
    for name in board.decks:
        if name not in decks:
            out.append(src.diag(("decks", name), "R005", f"deck '{name}' is described but no ticket belongs to it{did_you_mean(name, decks)}", Severity.WARNING, key=True, name="unknown-deck"))


def _check_variant_refs(src: Source, variant: Variant, board: Board, out: list[Diagnostic]) -> None:
    decks = set(board.deck_names) | {d for t in variant.tickets.add for d in t.decks}
    piles = dict(variant.tickets.piles) or {"main": tuple(sorted(decks))}
    for pile, pile_decks in variant.tickets.piles.items():
        for j, deck in enumerate(pile_decks):
            if deck not in decks:
                out.append(src.diag(("tickets", "piles", pile, j), "R005", f"unknown deck '{deck}'{did_you_mean(deck, decks)}; the board's decks are {', '.join(sorted(decks)) or '(none)'}", name="unknown-deck"))
    for section in ("setup", "draw"):
        deal = getattr(variant.tickets, section)
        for j, d in enumerate(deal.deal):
            if d.pile not in piles:
                out.append(src.diag(("tickets", section, "deal", j, "pile"), "R006", f"unknown pile '{d.pile}'{did_you_mean(d.pile, piles)}; declare it under tickets.piles", name="unknown-pile"))
        for j, p in enumerate(deal.mix):
            if p not in piles:
                out.append(src.diag(("tickets", section, "mix", j), "R006", f"unknown pile '{p}'{did_you_mean(p, piles)}; declare it under tickets.piles", name="unknown-pile"))
        for key in ("keep_max", "returned"):
            for p in getattr(deal, key):
                if p not in piles:
                    out.append(src.diag(("tickets", section, key, p), "R006", f"unknown pile '{p}'{did_you_mean(p, piles)}", key=True, name="unknown-pile"))
    for p in variant.tickets.leftover_at_setup:
        if p not in piles:
            out.append(src.diag(("tickets", "leftover_at_setup", p), "R006", f"unknown pile '{p}'{did_you_mean(p, piles)}", key=True, name="unknown-pile"))
    board_colors = set(board.colors)
    for color in variant.cards.colors:
        if color not in board_colors:
            out.append(src.diag(("cards", "colors", color), "R004", f"colour '{color}' is not one of the board's colours{did_you_mean(color, board_colors)} ({', '.join(board.colors)})", key=True, name="unknown-color"))
    for j, color in enumerate(variant.flags.colors):
        if color not in board_colors:
            out.append(src.diag(("flags", "colors", j), "R004", f"colour '{color}' is not one of the board's colours{did_you_mean(color, board_colors)}", name="unknown-color"))
    ids = {p.id for p in board.places}
    for i, ticket in enumerate(variant.tickets.add):
        for end in ("from", "to"):
            pid = ticket.from_ if end == "from" else ticket.to
            if pid not in ids:
                out.append(src.diag(("tickets", "add", i, end), "R002", f"unknown place '{pid}'{did_you_mean(pid, ids)}", name="unknown-place"))
