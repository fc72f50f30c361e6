"""`ttr-maps validate --fix`: the fixes that are mechanical and safe, written back with `yamledit`.

A fix is taken from a check's own finding, at the data path the finding points at:
- D006/D007/D008 (a drawn overlap): the `bend:` the finding suggests, which the
  check has laid out and found clear on the plan the renderer draws;
- G006 (only when asked: `--fix G006`, ticket values are a design decision): the
  ticket's `points` set to the shortest path the finding suggests;
- R002 (a file that does not load because an id names no place): the id replaced by the
  one place id it is a typo of, when exactly one place id is that close (`typo_fixes`).

Every changed file goes through `YamlFile.save`: comments, order and untouched
lines are kept byte for byte, and nothing is written unless the new text loads
with no new error (a board is checked through the variant that was named).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import CHECKS, settings_for
from .checks.context import Context
from .load.loader import Loaded

#: Fixed without being asked (each is checked by re-laying the board out); G006 only on request.
SAFE = ("D006", "D007", "D008", "R002")  # R002 is a load error, not a check: see typo_fixes
ON_REQUEST = ("G006",)

_BEND = re.compile(r"`bend: (\[\[.*?\]\])`")
_VALUE = re.compile(r"suggested value: (\d+)")
_TYPO = re.compile(r"unknown place '([^']+)' \(did you mean '([^']+)'\?\)")


@dataclass(frozen=True)
class Fix:
    path: str  # the file to change
    keys: tuple[Any, ...]  # where in it
    value: Any
    code: str
    what: str  # one line for the user


def fixes_for(loaded: Loaded, codes: tuple[str, ...]) -> list[Fix]:
    """The fixes of `codes` for a file that loaded clean, one per data path (the first finding's wins)."""
    codes = tuple(c for c in codes if c in CHECKS)
    if not loaded.ok or loaded.board is None or loaded.kind not in ("board", "variant") or not codes:
        return []
    board_src = loaded.board_source if loaded.kind == "variant" else loaded.source
    files = {"board": board_src.path if board_src else None, "variant": loaded.source.path if loaded.kind == "variant" else None}
    ctx = Context(loaded.board, loaded.variant, board_source=board_src, variant_source=loaded.source if loaded.kind == "variant" else None)
    settings = settings_for(loaded, list(codes))
    out: dict[tuple[str, tuple[Any, ...]], Fix] = {}
    for code in codes:
        check = CHECKS[code]
        if check.needs_variant and ctx.variant is None:
            continue
        for finding in check.run(ctx, settings.options_for(code)):
            path = files.get(getattr(finding, "file", "board"))
            if path is None or not hasattr(finding, "message"):
                continue
            if code in SAFE and (m := _BEND.search(finding.message)):
                keys = (*finding.loc[:2], "bend")
                value = [list(p) for p in ast.literal_eval(m.group(1))]
                route = loaded.board.routes[finding.loc[1]]
                what = f"route {ctx.route_name(route)}: bend: {m.group(1)}"
            elif code == "G006" and (m := _VALUE.search(finding.message)):
                keys = finding.loc
                value = int(m.group(1))
                what = finding.message.split(" is worth")[0].replace("the ticket ", "ticket ") + f": points: {value}"
            else:
                continue
            out.setdefault((path, keys), Fix(path, keys, value, code, what))
    return list(out.values())


def apply(fixes: list[Fix], check: str, write: bool) -> dict[str, tuple[str, str]]:
    """Make the fixes file by file: {path: (old text, new text)}. With `write`, save each file (re-validated
    through `check`, the file the user named); raises yamledit.EditError when one cannot be written."""
    from .yamledit import YamlFile

    out: dict[str, tuple[str, str]] = {}
    for path in dict.fromkeys(f.path for f in fixes):
        doc = YamlFile.read(path)
        old = doc.text
        for f in fixes:
            if f.path == path:
                doc.set(f.keys, f.value)
        new = doc.save(check=check) if write else doc.render()
        if not write:
            doc.validate(new, check=check)
        out[str(Path(path))] = (old, new)
    return out


@dataclass(frozen=True)
class TextFix:
    """One word replaced at a line and column of a file (a file that does not load has no data to edit)."""

    path: str
    line: int  # 1-based
    col: int
    old: str
    new: str
    code: str

    @property
    def what(self) -> str:
        return f"line {self.line}: '{self.old}' -> '{self.new}'"


def typo_fixes(loaded: Loaded, codes: tuple[str, ...]) -> list[TextFix]:
    """For a file that does not load: each id that names no place (R002) and is close to exactly one place id of
    its board (the measure of the "did you mean" hint, with no second candidate as close), replaced by that id."""
    import difflib

    from .yamledit import YamlFile

    if "R002" not in codes:
        return []
    out: list[TextFix] = []
    ids: dict[str, list[str]] = {}
    for d in loaded.diagnostics:
        m = _TYPO.search(d.message) if d.code == "R002" and d.line > 0 else None
        if m is None:
            continue
        word, suggestion = m.groups()
        if d.path not in ids:
            try:
                places = YamlFile.read(d.path).get(("places",)) or []
            except Exception:  # a file we cannot read for editing: no fix
                places = []
            ids[d.path] = [str(p.get("id")) for p in places if isinstance(p, dict) and p.get("id") is not None]
        known = {i.lower(): i for i in ids[d.path]}
        close = difflib.get_close_matches(word.lower(), list(known), n=2, cutoff=0.6)
        if len(close) != 1 or known[close[0]] != suggestion:
            continue  # ambiguous, or the hint came from elsewhere
        out.append(TextFix(d.path, d.line, d.col, word, suggestion, d.code))
    return out


def apply_text(fixes: list[TextFix], check: str, write: bool) -> dict[str, tuple[str, str]]:
    """Make word fixes file by file (each only where the file holds that word at that place, quoted or not):
    {path: (old text, new text)}. With `write`, save each file when it loads with no new error (through `check`)."""
    from .yamledit import write_checked

    out: dict[str, tuple[str, str]] = {}
    for path in dict.fromkeys(f.path for f in fixes):
        old = Path(path).read_text(encoding="utf-8")
        lines = old.splitlines(keepends=True)
        for f in sorted((f for f in fixes if f.path == path), key=lambda f: (f.line, -f.col)):
            text = lines[f.line - 1]
            at = f.col - 1
            quote = text[at] if at < len(text) and text[at] in "'\"" else ""
            start = at + len(quote)
            end = start + len(f.old)
            if text[start:end] != f.old or (quote and text[end:end + 1] != quote) or (not quote and end < len(text) and (text[end].isalnum() or text[end] in "-_")):
                continue  # not the word where the problem points: leave it
            lines[f.line - 1] = text[:start] + f.new + text[end:]
        new = "".join(lines)
        if new == old:
            continue
        if write:
            write_checked(path, old, new, check)
        else:
            from .yamledit import validate_text

            validate_text(path, old, new, check)
        out[str(Path(path))] = (old, new)
    return out
