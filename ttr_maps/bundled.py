"""The boards, rule variants and schemas that ship with ttr-maps, found by name.

A clone keeps them in the top-level `maps/` and `schemas/` folders; the wheel installs
the same folders inside the package (`ttr_maps/maps`, `ttr_maps/schemas`, mapped in
pyproject.toml), so `ttr-maps validate usa` works after `pip install ttr-maps` alone.

A bare name (`usa`, `europe-1912`) stands for a bundled file wherever a path is asked
for: on the command line and in a variant's `board:` or a position or state file's
`variant:`. A file or folder of that name next to the user wins, and so does the
user's `NAME.yaml` (`ttr-maps validate my-board` after `ttr-maps new my-board`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def data_dir(name: str) -> Path:
    """`maps` or `schemas`: inside the installed package, else the clone's top-level folder."""
    for base in (_PACKAGE, _PACKAGE.parent):
        if (base / name).is_dir():
            return base / name
    raise FileNotFoundError(f"the bundled '{name}' folder is missing from this installation of ttr-maps; reinstall it")


def maps_dir() -> Path:
    return data_dir("maps")


def schemas_dir() -> Path:
    return data_dir("schemas")


def names(kind: str) -> dict[str, Path]:
    """Bundled `variants` or `boards` by name, sorted."""
    folder = maps_dir() / kind
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def bundled_path(ref: str | os.PathLike, kinds: tuple[str, ...] = ("variants", "boards")) -> Path | None:
    """The bundled file a bare name stands for (the first of `kinds` that has it), else None."""
    text = os.fspath(ref)
    if len(text) > 100 or not _NAME.fullmatch(text):
        return None
    for kind in kinds:
        path = maps_dir() / kind / f"{text}.yaml"
        if os.path.isfile(path):
            return path
    return None


def resolve(ref: str | os.PathLike, base: str | os.PathLike | None = None,
            kinds: tuple[str, ...] = ("variants", "boards")) -> str:
    """The path `ref` names: relative to the folder `base` when given; else `ref.yaml` there; else a
    bare bundled name. Returned unchanged (joined to `base`) otherwise, so the caller's "not found"
    message still names what the user wrote."""
    text = os.fspath(ref)
    path = os.path.normpath(os.path.join(os.fspath(base), text)) if base is not None else text
    if os.path.exists(path):
        return path
    if path and not os.path.splitext(path)[1] and os.path.isfile(path + ".yaml"):
        return path + ".yaml"
    found = bundled_path(text, kinds)
    return str(found) if found is not None else path


def bundled_name(path: str | os.PathLike) -> str | None:
    """The name a bundled file is known by (`usa`), or None for any other file."""
    try:
        p = Path(path).resolve()
        root = maps_dir().resolve()
    except (OSError, FileNotFoundError):
        return None
    if p.suffix == ".yaml" and p.parent.parent == root and p.parent.name in ("variants", "boards"):
        return p.stem
    return None
