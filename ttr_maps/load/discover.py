"""Which files of a folder `validate` reads: the boards and variants under it, recursively.

A file is a board or variant by its `format` key, not its name; YAML and JSON files
that are something else (a state or position file, a schema, a simulation summary)
are skipped and counted. Folders whose name starts with a dot (.git, .venv) and the
folders of build tools (`SKIP_FOLDERS`: build/, dist/, node_modules/, __pycache__) are not
searched: they hold copies or tools, not the boards a person edits. A file that cannot be
parsed at all is validated, so a broken board is reported, never skipped.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

SUFFIXES = (".yaml", ".yml", ".json")
OURS = re.compile(r"ttr-(board|variant)/")
#: Folders never searched (besides those whose name starts with a dot): build output, packages, caches.
SKIP_FOLDERS = frozenset({"build", "dist", "node_modules", "__pycache__", "venv", "site-packages"})


def is_board_or_variant(path: Path) -> bool:
    """True for a board or variant, and for a file too broken to say (the loader reports it)."""
    from .source import read_source

    src = read_source(path)
    if src.data is None:
        return True
    fmt = src.data.get("format") if isinstance(src.data, dict) else None
    return isinstance(fmt, str) and bool(OURS.match(fmt))


def expand(paths: list[str], skip_others: bool = False) -> tuple[list[str], list[str], list[str]]:
    """The files to validate (a named file always, unless `skip_others` and it is readable and
    something else; a folder's boards and variants, sorted), the files that were skipped, and the
    folders that held no board or variant."""
    files: list[str] = []
    skipped: list[str] = []
    empty: list[str] = []
    for given in paths:
        if not os.path.isdir(given):
            if skip_others and os.path.isfile(given) and not is_board_or_variant(Path(given)):
                skipped.append(given)
            else:
                files.append(given)
            continue
        before = len(files)
        for folder, dirs, names in os.walk(given):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_FOLDERS)
            for name in sorted(names):
                path = Path(folder) / name
                if path.suffix.lower() not in SUFFIXES:
                    continue
                (files if is_board_or_variant(path) else skipped).append(str(path))
        if len(files) == before:
            empty.append(given)
    return files, skipped, empty
