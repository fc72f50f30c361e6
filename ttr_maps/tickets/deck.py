"""Reading a deck from whatever a designer names: a board (one of its decks), a variant (the tickets
its piles deal) or a deck file (`ttr-deck/1`, on the board it names), and writing a deck file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..diagnostics import LoadError
from ..model.board import Board, Ticket
from ..model.deck import DECK_FORMAT
from ..model.variant import Variant


class DeckError(ValueError):
    """The file holds no deck that can be read; the message names the file and the fix."""


@dataclass
class Deck:
    """A deck on its board: the tickets, and what they are (for headings)."""

    board: Board
    tickets: list[Ticket]
    label: str  # e.g. "usa.yaml, deck usa"
    path: str
    kind: str  # board, variant or deck
    variant: Variant | None = None
    board_path: str | None = None


def board_decks(board: Board) -> list[str]:
    """The board's decks: those described under `decks:` first, then the others in order of use."""
    used = board.deck_names
    return [d for d in board.decks if d in used] + [d for d in used if d not in board.decks]


def read_deck(path: str, deck: str | None = None) -> Deck:
    """The deck in `path`; `deck` picks one of a board's decks (default: its first). Raises LoadError
    (with the file's diagnostics) for a file that does not load, DeckError for one without a deck."""
    from ..load import load

    r = load(path)
    if not r.ok:
        raise LoadError(r.diagnostics)
    if r.kind == "board" and r.board is not None:
        names = board_decks(r.board)
        if not names:
            raise DeckError(f"{path}: the board has no tickets; suggest a deck with `ttr-maps tickets suggest {path}`")
        name = deck or names[0]
        if name not in names:
            raise DeckError(f"{path}: the board has no deck '{name}'; its decks are {', '.join(names)}")
        return Deck(r.board, r.board.tickets_in([name]), f"{path}, deck {name}", r.path, "board", board_path=r.path)
    if deck is not None:
        raise DeckError(f"--deck picks one of a board's decks; {path} is a {r.kind}")
    if r.kind == "variant" and r.variant is not None and r.board is not None:
        from ..checks.context import Context

        tickets = [ref.ticket for ref in Context(r.board, r.variant).tickets]
        return Deck(r.board, tickets, f"{path} ({r.variant.name})", r.path, "variant", r.variant, r.board_path)
    if r.kind == "deck" and r.deck is not None:
        if r.board is None:
            raise DeckError(f"{path}: the deck file names no board; add `board: BOARD` (a path relative to it, or a bundled name like usa)")
        return Deck(r.board, list(r.deck.tickets), f"{path}" + (f" ({r.deck.name})" if r.deck.name else ""), r.path, "deck",
                    board_path=r.board_path)
    raise DeckError(f"{path}: not a board, variant or deck file")  # pragma: no cover - load reports it first


def deck_yaml(tickets: list[Ticket], *, name: str | None, board_ref: str | None, header: str = "") -> str:
    """A deck file's text: one ticket a line, as the bundled boards write them."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines.append(f"format: {DECK_FORMAT}")
    if name:
        lines.append(f"name: {_scalar(name)}")
    if board_ref:
        lines.append(f"board: {_scalar(board_ref)}")
    decks = list(dict.fromkeys(d for t in tickets for d in t.decks))
    lines.append("decks: {" + ", ".join(f"{d}: {{name: {_scalar(d)}}}" for d in decks) + "}")
    lines.append("tickets:")
    for t in tickets:
        lines.append(f"  - {{from: {t.from_}, to: {t.to}, points: {t.points}, decks: [{', '.join(t.decks)}]}}")
    return "\n".join(lines) + "\n"


def _scalar(text: str) -> str:
    """`text` as a YAML scalar on one line (quoted when plain would not read back the same)."""
    dumped = yaml.safe_dump(text, default_flow_style=True, allow_unicode=True, width=10_000).strip()
    return dumped[:-4].strip() if dumped.endswith("\n...") else dumped.removesuffix("...").strip()


def _same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_target(path: str | os.PathLike, inputs: list[str | os.PathLike | None], what: str = "a deck file",
                 option: str = "-o") -> None:
    """Refuse, before any work, an output path that would replace a file the command reads, or (for a deck
    file) an existing file that is not a deck file: a mistyped -o never costs a designer their board."""
    from ..fileio import OutputError, check_output, path_problem

    try:
        check_output(path, option, ".svg" if "SVG" in what else ".yaml")
    except OutputError as e:
        raise DeckError(str(e)) from None
    for src in inputs:
        if src is not None and _same_file(path, src):
            raise DeckError(f"{option} {path} is the file this command reads; writing {what} there would replace it: choose another file")
    if what != "a deck file" or path_problem(path) is not None:
        return
    from ..load import load

    kind = load(path).kind
    if kind != "deck":
        was = f"a {kind} file" if kind else "not a ttr-maps deck file"
        raise DeckError(f"{path} exists and is {was}; {option} replaces only a deck file (format: {DECK_FORMAT}): "
                        "choose a new name, or move the file away first")


def write_deck(path: str | os.PathLike, text: str, option: str = "-o") -> None:
    """Write a deck file atomically, only if its text loads as a valid deck where it will live (its `board:`
    resolved from that folder); else raise DeckError with the problems at file:line:col and write nothing."""
    from ..fileio import OutputError, write_output
    from ..load import load
    from ..report import render

    r = load(Path(path), texts={os.path.normpath(str(path)): text})
    if not r.ok or r.kind != "deck":
        raise DeckError(f"{path}: not written, the deck would not load:\n{render('text', r.diagnostics).rstrip()}")
    try:
        write_output(path, text, option)
    except OutputError as e:
        raise DeckError(str(e)) from None
