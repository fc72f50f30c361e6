"""`ttr-maps validate --fix`: the fixes that are mechanical and safe, written back with `yamledit`.

A fix is taken from a check's own finding, at the data path the finding points at:
- D006/D007/D008 (a drawn overlap): the `bend:` the finding suggests, which the
  check has laid out and found clear on the plan the renderer draws;
- G006 (only when asked: `--fix G006`, ticket values are a design decision): the
  ticket's `points` set to the shortest path the finding suggests.

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
SAFE = ("D006", "D007", "D008")
ON_REQUEST = ("G006",)

_BEND = re.compile(r"`bend: (\[\[.*?\]\])`")
_VALUE = re.compile(r"suggested value: (\d+)")


@dataclass(frozen=True)
class Fix:
    path: str  # the file to change
    keys: tuple[Any, ...]  # where in it
    value: Any
    code: str
    what: str  # one line for the user


def fixes_for(loaded: Loaded, codes: tuple[str, ...]) -> list[Fix]:
    """The fixes of `codes` for a file that loaded clean, one per data path (the first finding's wins)."""
    if not loaded.ok or loaded.board is None or loaded.kind not in ("board", "variant"):
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
