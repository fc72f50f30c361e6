"""The design checks' findings kept on disk, so `validate` of a file that has not changed is quick.

What a check finds depends only on what it reads: the board and variant as loaded (the models, the
parsed data and where each node is written, and the files' paths), the check's options, the
findings limit, and the code of ttr-maps and of the libraries it measures with (shapely,
numpy). The cache key is a hash of all of these, so any change to a file, to a setting or to
the installed code misses the cache and runs the checks again; severities and the selection of
checks are applied after, so they never need a new run. The drawing checks lay the board out as
`render` does (seconds on a large board): with their findings cached, `validate` loads neither the
renderer nor shapely or numpy.

Where: `$TTR_MAPS_CACHE_DIR`, else `$XDG_CACHE_HOME/ttr-maps`, else `~/.cache/ttr-maps` (a
`findings/` folder of small JSON files, the oldest removed past `KEEP` files).
`TTR_MAPS_NO_CACHE=1` or `validate --no-cache` turns it off. A cache that cannot be read or
written is ignored: the checks run as if there were none.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import Finding, More

if TYPE_CHECKING:
    from ..load.loader import Loaded

#: Version of the entry layout (bump when it changes).
FORMAT = 1

#: Entries kept; past this the oldest (by modification time) are removed when one is written.
KEEP = 500

#: The libraries whose results the checks' findings depend on (their installed files are hashed by size and time).
LIBRARIES = ("shapely", "numpy")


def folder() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    if os.environ.get("TTR_MAPS_NO_CACHE", "") not in ("", "0"):
        return None
    root = os.environ.get("TTR_MAPS_CACHE_DIR")
    if root:
        return Path(root) / "findings"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "ttr-maps" / "findings"


@cache
def code_version() -> str:
    """A hash of ttr-maps' own Python files (their text) and of the measuring libraries' installed files."""
    h = hashlib.sha256(b"ttr-maps findings %d\n" % FORMAT)
    root = Path(__file__).resolve().parent.parent
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode() + b"\0")
        h.update(p.read_bytes())
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin:
            st = os.stat(origin)
            h.update(f"{name} {origin} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def key(loaded: Loaded, limit: int) -> str:
    """The hash of everything the checks read from `loaded`, with the findings limit and the code version."""
    h = hashlib.sha256(code_version().encode())
    h.update(f"\0{loaded.kind}\0{limit}\0".encode())
    sources = [loaded.board_source, loaded.source] if loaded.kind == "variant" else [loaded.source]
    for src in sources:
        h.update(f"\0{src.path}\0".encode())
        h.update(json.dumps(src.data, default=repr, ensure_ascii=False).encode())
        h.update(repr(list(src.value_pos.items())).encode())
        h.update(repr(list(src.key_pos.items())).encode())
    for model in (loaded.board, loaded.variant):
        h.update(b"\0" + (model.model_dump_json().encode() if model is not None else b"-"))
    return h.hexdigest()


def _encode(f: Finding | More) -> dict[str, Any]:
    if isinstance(f, More):
        return {"more": f.count, "loc": list(f.loc), "file": f.file, "stopped": f.stopped}
    return {"loc": list(f.loc), "message": f.message, "file": f.file, "key": f.key}


def _decode(d: dict[str, Any]) -> Finding | More:
    if "more" in d:
        return More(d["more"], tuple(d["loc"]), d["file"], d["stopped"])
    return Finding(tuple(d["loc"]), d["message"], d["file"], d["key"])


class Findings:
    """The cached findings of one file's checks, by check code; `save` writes back what was added."""

    def __init__(self, loaded: Loaded, limit: int):
        self.dir = folder()
        self.entry: dict[str, Any] = {}
        self.changed = False
        if self.dir is None:
            return
        try:
            self.path = self.dir / f"{key(loaded, limit)}.json"
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") == FORMAT and isinstance(data.get("checks"), dict):
                self.entry = data["checks"]
                os.utime(self.path)  # recently used: kept when the folder is trimmed
        except (OSError, ValueError, TypeError, AttributeError):
            self.entry = {}

    def get(self, code: str, options: dict[str, Any]) -> list[Finding | More] | None:
        """The findings of check `code` run with `options`, or None when they are not cached."""
        hit = self.entry.get(code)
        if not isinstance(hit, dict) or hit.get("options") != _plain(options):
            return None
        try:
            return [_decode(d) for d in hit["findings"]]
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, code: str, options: dict[str, Any], findings: list[Finding | More]) -> None:
        if self.dir is None:
            return
        self.entry[code] = {"options": _plain(options), "findings": [_encode(f) for f in findings]}
        self.changed = True

    def save(self) -> None:
        """Write the entry (atomically) if a check was added; trim the folder to `KEEP` entries."""
        if self.dir is None or not self.changed:
            return
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"format": FORMAT, "checks": self.entry}, out, ensure_ascii=False)
            os.replace(tmp, self.path)
            entries = list(self.dir.glob("*.json"))
            if len(entries) > KEEP:
                entries.sort(key=lambda p: p.stat().st_mtime)
                for old in entries[: len(entries) - KEEP]:
                    old.unlink(missing_ok=True)
        except (OSError, TypeError, ValueError):
            try:
                os.unlink(tmp)
            except (OSError, UnboundLocalError):
                pass


def _plain(options: dict[str, Any]) -> Any:
    """`options` as JSON would give them back (tuples become lists), to compare with a cached entry."""
    return json.loads(json.dumps(options, sort_keys=True, default=repr))
