"""State files (`ttr-state/1`) on disk: reading one with its variant, writing one beside it.

The format, its model (`StateFile`) and the conversion to and from a `State`
are statedict.py; its names are importable from here too, as they always were.
`load_state` reads a file, finds its variant (a path relative to the file or a
bundled variant's name), builds the Game and the State, and reports every
problem at file:line:col with its T code; `dump_state` writes the YAML or JSON.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, has_errors
from .statedict import (  # noqa: F401 (the format's names, importable from here as before)
    STATE_FORMAT,
    TCODES,
    StateFile,
    StateFileError,
    parse_state_file,
    rng_from_text,
    rng_to_text,
    state_from_dict,
    state_to_dict,
)

if TYPE_CHECKING:
    from .game import State


def load_state(path: str | Path) -> State:
    """Read a state file and its variant; StateFileError with diagnostics at file:line:col (or LoadError
    for the variant's own problems) otherwise."""
    from ..diagnostics import LoadError
    from ..load import read_source
    from ..load.validation import validate
    from .game import Game

    src = read_source(path)
    if has_errors(src.diagnostics):
        raise StateFileError("the file cannot be read", diagnostics=src.diagnostics)
    found: list[Diagnostic] = []
    if not _check_format(src, found):
        raise StateFileError("not a state file", diagnostics=found)
    sf = validate(src, StateFile, found)
    if sf is None:
        raise StateFileError("not a ttr-state/1 file", diagnostics=[_as_t(d) for d in found])
    assert isinstance(sf, StateFile)

    def fail(exc: StateFileError) -> StateFileError:
        diag = src.diag(exc.loc, exc.code, exc.message, key=exc.key, name=TCODES[exc.code][0])
        return StateFileError(exc.message, exc.loc, exc.code, diagnostics=[diag])

    from ..bundled import resolve

    variant_path = Path(resolve(sf.variant, Path(path).parent, kinds=("variants",)))
    if not variant_path.is_file():
        raise fail(StateFileError(
            f"file '{sf.variant}' not found (looked at {variant_path}); the path is relative to the state file, "
            "or a bundled variant's name (`ttr-maps boards`)", ("variant",), "T010"))
    try:
        game = Game.from_file(variant_path, len(sf.players))
    except LoadError as exc:
        wrong_kind = [d for d in exc.diagnostics if d.code in ("S003", "S010", "V002") and Path(d.path) == variant_path]
        if not wrong_kind:
            raise  # the variant's own problems, at its file:line:col
        raise fail(StateFileError(f"'{sf.variant}' ({variant_path}) is not a variant file: {wrong_kind[0].message}", ("variant",), "T010")) from None
    except ValueError as exc:
        raise fail(StateFileError(str(exc), ("players",), "T010")) from None
    game.variant_path = str(variant_path)
    try:
        return state_from_dict(game, sf)
    except StateFileError as exc:
        raise fail(exc) from None


_SCHEMA_CODES = {"S001": "T001", "S002": "T002", "S003": "T003", "S004": "T004", "S005": "T005", "S006": "T006", "S007": "T007", "S008": "T008"}


def _as_t(d: Diagnostic) -> Diagnostic:
    code = _SCHEMA_CODES.get(d.code)
    return replace(d, code=code, name=TCODES[code][0]) if code else d


def _check_format(src: Any, out: list[Diagnostic]) -> bool:
    """A mapping whose `format` is `ttr-state/1`; another ttr-maps file is named, with what to do."""
    data = src.data

    def diag(loc: tuple, code: str, message: str) -> bool:
        out.append(src.diag(loc, code, message, name=TCODES[code][0]))
        return False

    if not isinstance(data, dict):
        return diag((), "T001", f"a state file is a mapping starting with `format: {STATE_FORMAT}`")
    fmt = data.get("format")
    if fmt is None:
        return diag((), "T002", f"missing key 'format'; add `format: {STATE_FORMAT}` as the first line")
    if isinstance(fmt, str) and fmt != STATE_FORMAT:
        kind = {"ttr-board": "a board", "ttr-variant": "a variant", "ttr-position": "a position"}.get(fmt.split("/")[0])
        if kind is not None:
            return diag(("format",), "T003",
                        f"this is {kind} file ({fmt}), not a game state ({STATE_FORMAT}); make a state with "
                        "`ttr-maps state new VARIANT -p N -o state.yaml`"
                        + (", or score a position with `ttr-maps score`" if kind == "a position" else ""))
        m = re.fullmatch(r"ttr-state/(\d+)", fmt)
        if m and int(m.group(1)) > 1:
            return diag(("format",), "T004", f"'{fmt}' is newer than this ttr-maps understands ({STATE_FORMAT}); upgrade ttr-maps")
    return True


def dump_state(state: State, path: str | Path, fmt: str | None = None) -> str:
    """The state as YAML (or JSON for `.json` paths / fmt='json'), its variant path relative to `path`."""
    import json
    import os

    from ..bundled import bundled_name

    ref = state.game.variant_path or ""
    name = bundled_name(ref) if ref else None
    here = Path(path).resolve().parent
    if name and not (os.path.exists(here / name) or os.path.isfile(here / f"{name}.yaml")):
        ref = name  # a bundled variant by its name: the file moves with the installation
    elif name:
        ref = str(Path(ref).resolve())  # a file beside this one (even this one: usa.yaml) would be read for the name
    elif ref:
        try:
            ref = os.path.relpath(Path(ref).resolve(), Path(path).resolve().parent)
        except ValueError:
            ref = str(Path(ref).resolve())
    data = state_to_dict(state, variant_ref=ref.replace(os.sep, "/"))
    fmt = fmt or ("json" if str(path).endswith(".json") else "yaml")
    if fmt == "json":
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    from ..yamlplain import dump

    # libyaml's text, written directly for the plain values a state holds (yamlplain.py: 0.5 ms instead of 3.6 ms a
    # save of a USA game in the middle, which `ttr-maps play` makes after every move), by the library otherwise
    return dump(data)
