"""Read a YAML or JSON file into plain data plus the position of every node.

The reader is defensive: it bounds file size, nesting depth and the number of
nodes (so YAML alias bombs cannot blow up), refuses duplicate keys, NaN and
infinite numbers, and reports every failure as a Diagnostic instead of raising.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Diagnostic, Severity

MAX_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 1_000_000

Pos = tuple[int, int]
PathT = tuple[Any, ...]


@dataclass
class Source:
    """A parsed file: its data and where each node (and each mapping key) starts."""

    path: str
    data: Any = None
    value_pos: dict[PathT, Pos] = field(default_factory=dict)
    key_pos: dict[PathT, Pos] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def pos(self, loc: PathT, *, key: bool = False) -> Pos:
        """Position of the node at `loc`, or of its nearest enclosing node when it is missing."""
        loc = tuple(loc)
        if key and loc in self.key_pos:
            return self.key_pos[loc]
        while loc:
            if loc in self.value_pos:
                return self.value_pos[loc]
            loc = loc[:-1]
        return self.value_pos.get((), (1, 1))

    def diag(self, loc: PathT, code: str, message: str, severity: Severity = Severity.ERROR, *, key: bool = False, name: str = "") -> Diagnostic:
        line, col = self.pos(loc, key=key)
        return Diagnostic(self.path, line, col, severity, code, message, name)


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans (so `no`, `on`, `NO` stay strings) and no timestamps."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, regexp) for tag, regexp in v if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.copy().items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


class _TooBig(Exception):
    pass


def _mark(node: yaml.Node) -> Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _line_col(text: str, index: int) -> Pos:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def read_source(path: str | Path) -> Source:
    """Parse `path` (YAML, or JSON when it ends in .json). Never raises for bad input."""
    p = Path(path)
    src = Source(str(path))

    def fail(code: str, message: str, line: int = 1, col: int = 1, name: str = "") -> Source:
        src.diagnostics.append(Diagnostic(str(path), line, col, Severity.ERROR, code, message, name))
        return src

    if not p.exists():
        return fail("P001", "file not found; check the path", 0, 0, "file-not-found")
    if p.is_dir():
        return fail("P002", "this is a directory, not a board or variant file; name a .yaml or .json file", 0, 0, "not-a-file")
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            return fail("P003", f"file is {size} bytes; the limit is {MAX_BYTES} bytes", 0, 0, "file-too-large")
        raw = p.read_bytes()
    except OSError as e:
        return fail("P001", f"cannot read the file: {e.strerror or e}", 0, 0, "file-not-found")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        line, col = _line_col(raw.decode("latin-1"), raw.index(b"\x00"))
        return fail("P004", "the file holds binary data (a NUL byte); save it as UTF-8 text", line, col, "not-text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _line_col(raw[: e.start].decode("utf-8", "replace"), e.start)
        return fail("P004", f"the file is not UTF-8 (byte 0x{raw[e.start]:02x}); save it as UTF-8 text", line, col, "not-text")
    if not text.strip() or all(ln.strip() == "" or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return fail("P005", "the file is empty; start with `format: ttr-board/1` or `format: ttr-variant/1`", 1, 1, "empty-file")

    if p.suffix.lower() == ".json":
        err = _json_syntax_error(text)
        if err:
            return fail("P006", err[2], err[0], err[1], "syntax-error")

    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = e.problem or e.context or "invalid syntax"
        return fail("P006", f"YAML syntax error: {problem}", line, col, "syntax-error")
    except yaml.YAMLError as e:
        return fail("P006", f"YAML syntax error: {e}", 1, 1, "syntax-error")
    except RecursionError:
        return fail("P007", f"the file is nested too deeply (limit {MAX_DEPTH} levels)", 1, 1, "too-deep")
    if node is None:
        return fail("P005", "the file is empty; start with `format: ttr-board/1` or `format: ttr-variant/1`", 1, 1, "empty-file")

    builder = _Builder(src)
    try:
        src.data = builder.build(node, (), 0)
    except _TooBig as e:
        src.data = None
        src.diagnostics.append(Diagnostic(str(path), *e.args[1], Severity.ERROR, "P007", e.args[0], "too-large"))
    return src


def _json_syntax_error(text: str) -> tuple[int, int, str] | None:
    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON allows here; write a finite number")

    try:
        json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        return (e.lineno, e.colno, f"JSON syntax error: {e.msg}")
    except ValueError as e:
        return (1, 1, str(e))
    except RecursionError:
        return (1, 1, f"the file is nested too deeply (limit {MAX_DEPTH} levels)")
    return None


class _Builder:
    def __init__(self, src: Source):
        self.src = src
        self.nodes = 0
        self.constructor = _Loader("")

    def build(self, node: yaml.Node, loc: PathT, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _TooBig(f"the file expands to more than {MAX_NODES} values (too many aliases?)", _mark(node))
        if depth > MAX_DEPTH:
            raise _TooBig(f"the file is nested too deeply (limit {MAX_DEPTH} levels)", _mark(node))
        self.src.value_pos.setdefault(loc, _mark(node))
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            self.constructor.flatten_mapping(node)
            for knode, vnode in node.value:
                key = self._scalar(knode) if isinstance(knode, yaml.ScalarNode) else None
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    self.src.diagnostics.append(
                        Diagnostic(self.src.path, *_mark(knode), Severity.ERROR, "P008", "a key must be a plain name", "bad-key")
                    )
                    continue
                child = loc + (key,)
                if key in out:
                    first = self.src.key_pos.get(child, (0, 0))
                    self.src.diagnostics.append(
                        Diagnostic(
                            self.src.path, *_mark(knode), Severity.ERROR, "P009",
                            f"duplicate key '{key}' (first at line {first[0]}); remove one of them", "duplicate-key",
                        )
                    )
                    continue
                self.src.key_pos[child] = _mark(knode)
                out[key] = self.build(vnode, child, depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(v, loc + (i,), depth + 1) for i, v in enumerate(node.value)]
        value = self._scalar(node)
        if isinstance(value, float) and not math.isfinite(value):
            self.src.diagnostics.append(
                Diagnostic(self.src.path, *_mark(node), Severity.ERROR, "P010", "NaN and infinite numbers are not allowed; write a finite number", "non-finite-number")
            )
            return None
        return value

    def _scalar(self, node: yaml.Node) -> Any:
        try:
            return self.constructor.construct_object(node, deep=False)
        except yaml.YAMLError:
            return node.value
