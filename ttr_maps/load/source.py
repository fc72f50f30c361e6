"""Read a YAML or JSON file into plain data plus the position of every node.

Both readers are iterative (YAML from the parser's event stream, JSON from a
small tokenizer), so no input can exhaust the Python stack. They bound file
size, nesting depth and the values aliases expand to (YAML "billion laughs"),
refuse duplicate keys, NaN and infinite numbers and unknown tags, and report
every failure as a Diagnostic instead of raising.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml

from ..diagnostics import Diagnostic, Severity
from ..fileio import path_problem
from .codes import code_name

# Far above any real board (the USA board is 13 KB and 2,000 values), low enough that any
# input is read or refused within a few seconds and a few hundred MB.
MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 500_000
MAX_PROBLEMS = 500

Pos = tuple[int, int]
PathT = tuple[Any, ...]

WHOLE_FILE: Pos = (0, 0)
# A NaN or infinite number is reported (P010) and read as 0, so no follow-on errors pile up on it.
NON_FINITE_STAND_IN = 0.0
# A whole number is "too large" (P010, like 1e999) when a float cannot hold it. Literals longer
# than MAX_NUMBER_CHARS are refused before they are converted: Python refuses to convert more than
# 4300 digits, and YAML's base-60 numbers (`1:2:3`) would take quadratic time.
MAX_INT_BITS = 1024
MAX_NUMBER_CHARS = 400


@dataclass
class Source:
    """A parsed file: its data and where each node (and each mapping key) starts."""

    path: str
    data: Any = None
    value_pos: dict[PathT, Pos] = field(default_factory=dict)
    key_pos: dict[PathT, Pos] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    reported: int = 0  # diagnostics this file has given, by the reader and the loader
    omitted: int = 0  # problems found after MAX_PROBLEMS, counted but not reported

    @property
    def full(self) -> bool:
        """True once the file has given MAX_PROBLEMS diagnostics: a flood helps no one and costs time."""
        return self.reported >= MAX_PROBLEMS

    def report(self, out: list[Diagnostic], d: Diagnostic) -> None:
        """Append `d` to `out` unless the file is full (then only count it)."""
        if self.full:
            self.omitted += 1
            return
        self.reported += 1
        out.append(d)

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

    def diag(
        self,
        loc: PathT,
        code: str,
        message: str,
        severity: Severity = Severity.ERROR,
        *,
        key: bool = False,
        name: str = "",
    ) -> Diagnostic:
        line, col = self.pos(loc, key=key)
        return Diagnostic(self.path, line, col, severity, code, message, name or code_name(code))

    def add(self, pos: Pos, code: str, message: str) -> None:
        self.report(self.diagnostics, Diagnostic(self.path, pos[0], pos[1], Severity.ERROR, code, message, code_name(code)))


class _Stop(Exception):
    """Reading cannot go on (too deep, too many values): the diagnostic is already recorded."""


def read_source(path: str | Path, text: str | None = None) -> Source:
    """Parse `path` (JSON when it ends in .json, else YAML). Never raises for bad input.

    With `text`, parse that instead of the file's contents, as if it were saved at `path`
    (an editor checks a change before writing it).
    """
    p = Path(path)
    src = Source(os.path.normpath(str(path)))
    text = _read_text(p, src) if text is None else _decode(text.encode("utf-8", "surrogatepass"), src)
    if text is None:
        return src
    try:
        if p.suffix.lower() == ".json":
            _JsonReader(src, text).read()
        else:
            _YamlReader(src, text).read()
    except _Stop:
        src.data = None
    except RecursionError:  # pragma: no cover - both readers are iterative; a last line of defence
        src.data = None
        src.add((1, 1), "P007", f"the file is nested too deeply (limit {MAX_DEPTH} levels)")
    if src.data is None and not src.diagnostics:
        src.add((1, 1), "P005", "the file holds no data; start it with `format: ttr-board/1` or `format: ttr-variant/1`")
    return src


def _bundled_hint(p: Path) -> str:
    """For a bare name: the bundled one it is probably a misspelling of, and where they are listed."""
    from ..bundled import names
    from ..diagnostics import did_you_mean

    if p.suffix or len(p.parts) != 1:
        return ""
    known = list(names("variants")) + list(names("boards"))
    return f", or give a bundled board's name{did_you_mean(p.name, known)} (`ttr-maps boards` lists them)"


def _read_text(p: Path, src: Source) -> str | None:
    """The file's text, or None after recording why it cannot be read."""
    problem = path_problem(p)
    if problem is not None:
        if problem.kind == "missing":
            what = "file not found" if problem.text == "not found" else f"file not found: this is {problem.text}"
            src.add(WHOLE_FILE, "P001", f"{what}; check the path{_bundled_hint(p)}")
        elif problem.kind == "folder":
            src.add(WHOLE_FILE, "P002", "this is a folder, not a board or variant file; name a .yaml or .json file")
        elif problem.kind == "unreachable":
            src.add(WHOLE_FILE, "P013", f"cannot read the file: it is {problem.text}; check the permissions of its folders")
        else:
            src.add(WHOLE_FILE, "P002", f"this is {problem.text}; name a .yaml or .json file")
        return None
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except PermissionError as e:
        src.add(WHOLE_FILE, "P013", f"cannot read the file: {e.strerror or e}; check its permissions")
        return None
    except OSError as e:
        src.add(WHOLE_FILE, "P013", f"cannot read the file: {e.strerror or e}")
        return None
    return _decode(raw, src)


def _decode(raw: bytes, src: Source) -> str | None:
    """The text of a file's bytes, or None after recording why it is no board text."""
    if len(raw) > MAX_BYTES:
        src.add(WHOLE_FILE, "P003", f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB; a board is far smaller (so this is probably the wrong file)")
        return None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        src.add(_byte_pos(raw, raw.index(b"\x00")), "P004", "the file holds binary data (a NUL byte), not text; save it as UTF-8 text")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        src.add(_byte_pos(raw, e.start), "P004", f"the file is not UTF-8 (byte 0x{raw[e.start]:02x}); save it as UTF-8 text")
        return None
    if not any(ln.strip() and not ln.lstrip().startswith("#") for ln in text.splitlines()):
        src.add((1, 1), "P005", "the file is empty; start it with `format: ttr-board/1` or `format: ttr-variant/1`")
        return None
    return text


def _byte_pos(raw: bytes, index: int) -> Pos:
    line = raw.count(b"\n", 0, index) + 1
    start = raw.rfind(b"\n", 0, index) + 1
    return line, len(raw[start:index].decode("utf-8", "replace")) + 1


class _LineIndex:
    """1-based line and column of a character offset."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, index: int) -> Pos:
        line = bisect.bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1


# --- YAML -------------------------------------------------------------------------------------


class _Resolver(yaml.SafeLoader):
    """SafeLoader's resolver with YAML 1.2 booleans (`no`, `on` stay text), no timestamps
    (dates stay text) and YAML 1.2 floats (`1e5` is a number)."""


_Resolver.yaml_implicit_resolvers = {
    k: [(tag, regexp) for tag, regexp in v if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.copy().items()
}
_Resolver.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("null", "bool", "int", "float", "str")}
_SEQ_TAG = _TAG + "seq"
_MAP_TAG = _TAG + "map"
_MERGE_TAG = _TAG + "merge"
_STR_TAG = _TAG + "str"
_INT_TAG = _TAG + "int"
_FLOAT_TAG = _TAG + "float"
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_NUMBERISH = re.compile(r"[-+]?[0-9][0-9a-fA-FxXoObB_:]*")
_SHORT_TAGS = {"!!" + t: _TAG + t for t in ("null", "bool", "int", "float", "str", "seq", "map")}

_Parser: type = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


class _Frame:
    """A mapping or sequence being built from events."""

    __slots__ = ("value", "loc", "pos", "size", "height", "is_map", "key", "key_pos", "key_ok", "merges", "anchor", "explicit")

    def __init__(self, value: Any, loc: PathT, pos: Pos, anchor: str | None):
        self.value = value
        self.loc = loc
        self.pos = pos
        self.size = 1
        self.height = 1
        self.is_map = isinstance(value, dict)
        self.key: Any = _NO_KEY
        self.key_pos: Pos = pos
        self.key_ok = True
        self.merges: list[tuple[Any, Pos]] = []
        self.anchor = anchor
        self.explicit: set[str] = set()


_NO_KEY = object()
_ScalarEvent = yaml.ScalarEvent


class _YamlReader:
    """Builds data and positions from the YAML event stream, without recursion."""

    def __init__(self, src: Source, text: str):
        self.src = src
        self.text = text
        self.resolver = _Resolver("")
        self.tags: dict[str, str] = {}  # plain scalar -> resolved tag
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # name -> (value, size, height)
        self.total = 0
        self.stack: list[_Frame] = []
        self.documents = 0
        self.root: Any = None

    def read(self) -> None:
        loader = None
        try:
            loader = _Parser(self.text)  # the pure-Python reader checks the characters here already
            get_event, on_event, on_scalar = loader.get_event, self._event, self._scalar_event
            while True:
                event = get_event()
                if event.__class__ is _ScalarEvent:  # most events: taken the short way
                    on_scalar(event)
                    continue
                if event is None or isinstance(event, yaml.StreamEndEvent):
                    break
                on_event(event)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            pos = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = e.problem or e.context or "invalid syntax"
            if "maximum nesting depth" in problem:
                # PyYAML >= 6.0.3 stops its scanner at 1,000 levels, before our own limit is reached:
                # runs of brackets are scanned ahead of the events we count.
                self.src.add(pos, "P007", f"the file is nested too deeply (limit {MAX_DEPTH} levels); a board needs only a few")
                raise _Stop from None
            context = f" ({e.context})" if e.context and e.problem else ""
            hint = "check the indentation, colons and brackets here"
            if "escape" in problem:
                hint = "write the character itself, or a valid escape such as \\u00e9 or \\U0001F600 (YAML has no surrogate pairs)"
            self.src.add(pos, "P006", f"YAML syntax error: {problem}{context}; {hint}")
            raise _Stop from None
        except yaml.reader.ReaderError as e:
            # libyaml counts this position in bytes: find the character ourselves.
            bad = _NON_PRINTABLE.search(self.text)
            pos = _LineIndex(self.text).pos(bad.start()) if bad else (1, 1)
            char = f" U+{ord(bad.group()):04X}" if bad else ""
            self.src.add(pos, "P006", f"YAML syntax error: {e.reason} (character{char}); remove it")
            raise _Stop from None
        except yaml.YAMLError as e:
            self.src.add((1, 1), "P006", f"YAML syntax error: {e}")
            raise _Stop from None
        finally:
            if loader is not None:
                loader.dispose()
        self.src.data = self.root

    def _event(self, ev: yaml.Event) -> None:
        if isinstance(ev, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.src.add(_mark(ev), "P006", "the file holds more than one YAML document; keep one (remove the second `---`)")
                raise _Stop
            return
        if isinstance(ev, (yaml.StreamStartEvent, yaml.DocumentEndEvent)):
            return
        if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = self.stack.pop()
            if frame.is_map:
                self._apply_merges(frame)
            self._complete(frame.value, frame.size, frame.height, frame.pos, frame.anchor)
            return
        parent = self.stack[-1] if self.stack else None
        is_key = parent is not None and parent.is_map and parent.key is _NO_KEY
        loc = self._child_loc(parent, is_key)
        pos = _mark(ev)
        if not is_key:
            self.src.value_pos.setdefault(loc, pos)
        if isinstance(ev, yaml.AliasEvent):
            if ev.anchor not in self.anchors:
                self.src.add(pos, "P006", f"YAML syntax error: alias *{ev.anchor} has no anchor &{ev.anchor} before it; define the anchor first")
                self._complete(None, 1, 0, pos, None)
                return
            value, size, height = self.anchors[ev.anchor]
            depth = len(self.stack)
            if depth + height > MAX_DEPTH:
                self.src.add(pos, "P007", f"the file is nested too deeply through alias *{ev.anchor} (limit {MAX_DEPTH} levels)")
                raise _Stop
            self.total += size
            if self.total > MAX_NODES:
                self.src.add(pos, "P011", f"the aliases expand the file to more than {MAX_NODES} values; use fewer aliases (`*name`)")
                raise _Stop
            self._complete(value, size, height, pos, None)
            return
        self.total += 1
        if self.total > MAX_NODES:
            self.src.add(pos, "P011", f"the file holds more than {MAX_NODES} values; a board needs far fewer")
            raise _Stop
        tag = _SHORT_TAGS.get(ev.tag, ev.tag) if ev.tag not in (None, "!") else None
        if isinstance(ev, yaml.ScalarEvent):
            self._complete(self._scalar(ev, tag, pos, is_key), 1, 0, pos, ev.anchor)
            return
        expected = _MAP_TAG if isinstance(ev, yaml.MappingStartEvent) else _SEQ_TAG
        if tag is not None and tag != expected:
            self.src.add(pos, "P012", f"unsupported tag {_short_tag(ev.tag)}; remove it (only plain YAML data is allowed)")
        if len(self.stack) >= MAX_DEPTH:
            self.src.add(pos, "P007", f"the file is nested too deeply (limit {MAX_DEPTH} levels); a board needs only a few")
            raise _Stop
        self.stack.append(_Frame({} if isinstance(ev, yaml.MappingStartEvent) else [], loc, pos, ev.anchor))

    def _scalar_event(self, ev: yaml.ScalarEvent) -> None:
        """`_event` of a scalar, the same steps without the tests for the other kinds of event (most events are
        scalars; a 1,000-place board has some 20,000)."""
        stack = self.stack
        if stack:
            parent = stack[-1]
            is_map = parent.is_map
            is_key = is_map and parent.key is _NO_KEY
        else:
            is_map = is_key = False
        mark = ev.start_mark
        pos = (mark.line + 1, mark.column + 1)
        if not is_key:  # where the value is (a key's own place is kept by _complete)
            if not stack:
                loc: PathT = ()
            elif is_map:
                loc = parent.loc + (parent.key,) if parent.key_ok else parent.loc + ("<bad-key>", id(parent))
            else:
                loc = parent.loc + (len(parent.value),)
            self.src.value_pos.setdefault(loc, pos)
        self.total += 1
        if self.total > MAX_NODES:
            self.src.add(pos, "P011", f"the file holds more than {MAX_NODES} values; a board needs far fewer")
            raise _Stop
        tag = ev.tag
        if tag is None and ev.anchor is None and stack and not is_key:
            # A list's item or a mapping's value without tag or anchor (most scalars): `_complete`'s steps here.
            value = self._scalar(ev, None, pos)
            parent.size += 1
            if not is_map:
                parent.value.append(value)
                return
            key_ok = parent.key_ok
            parent.key = _NO_KEY
            if key_ok:
                parent.value[loc[-1]] = value
                self.src.key_pos.setdefault(loc, parent.key_pos)
            elif key_ok is None:  # a merge key `<<`
                self._take_merge(parent, value, pos)
            return
        tag = _SHORT_TAGS.get(tag, tag) if tag not in (None, "!") else None
        self._complete(self._scalar(ev, tag, pos, is_key), 1, 0, pos, ev.anchor)

    def _child_loc(self, parent: _Frame | None, is_key: bool) -> PathT:
        if parent is None:
            return ()
        if is_key:
            return parent.loc + ("<key>",)
        if parent.is_map:
            return parent.loc + (parent.key,) if parent.key_ok else parent.loc + ("<bad-key>", id(parent))
        return parent.loc + (len(parent.value),)

    def _scalar(self, ev: yaml.ScalarEvent, tag: str | None, pos: Pos, is_key: bool = False) -> Any:
        if tag is None:
            if not ev.implicit[0]:
                return ev.value  # quoted or block text
            tag = self.tags.get(ev.value)
            if tag is None:
                tag = self.tags[ev.value] = self.resolver.resolve(yaml.ScalarNode, ev.value, (True, False))
        if tag == _STR_TAG:
            return ev.value
        if tag == _INT_TAG and len(ev.value) > MAX_NUMBER_CHARS and _NUMBERISH.fullmatch(ev.value):
            return self._too_large(ev.value, pos, is_key)
        if tag == _INT_TAG and _DECIMAL.fullmatch(ev.value):
            value = int(ev.value)
            return self._too_large(ev.value, pos, is_key) if value.bit_length() > MAX_INT_BITS else value
        if tag == _MERGE_TAG:
            if is_key and ev.value == "<<":
                return _MergeKey
            self.src.add(pos, "P012", f"the tag {_short_tag(ev.tag)} belongs only on a merge key `<<`; remove it")
            return _BAD_KEY if is_key else ev.value
        if tag not in _SCALAR_TAGS:
            self.src.add(pos, "P012", f"unsupported tag {_short_tag(ev.tag)}; remove it (only plain YAML data is allowed)")
            return ev.value
        if not ev.implicit[0] and not self._fits(ev.value, tag):
            # An explicit tag on text that is not of its kind (`!!int` on nothing, `!!bool maybe`):
            # PyYAML's constructors would index an empty string or look up an unknown word.
            return self._rejected(ev, tag, pos, is_key)
        node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
        try:
            value = yaml.SafeLoader.yaml_constructors[tag](self.resolver, node)
        except (yaml.YAMLError, ValueError, LookupError, TypeError, ArithmeticError):
            return self._rejected(ev, tag, pos, is_key)
        if isinstance(value, float) and not math.isfinite(value):
            self.src.add(pos, "P010", f"'{_clip(ev.value)}' is not a finite number; NaN and infinity are not allowed, write a number")
            return _BAD_KEY if is_key else NON_FINITE_STAND_IN
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
            return self._too_large(ev.value, pos, is_key)
        return value

    def _fits(self, text: str, tag: str) -> bool:
        """Whether plain `text` would be read as `tag` without it (an int also fits `!!float`)."""
        implicit = self.tags.get(text)
        if implicit is None:
            implicit = self.tags[text] = self.resolver.resolve(yaml.ScalarNode, text, (True, False))
        return implicit == tag or (tag == _FLOAT_TAG and implicit == _INT_TAG)

    def _rejected(self, ev: yaml.ScalarEvent, tag: str, pos: Pos, is_key: bool) -> Any:
        """Report a value its explicit tag rejects (P012); a value reads as its text, a key is dropped."""
        kind = tag.rsplit(":", 1)[-1]
        shown = f"'{_clip(ev.value)}'" if ev.value else "an empty value"
        self.src.add(pos, "P012", f"{shown} is not a valid {kind}; fix the value or remove the tag {_short_tag(ev.tag)}")
        return _BAD_KEY if is_key else ev.value

    def _too_large(self, text: str, pos: Pos, is_key: bool) -> Any:
        """Report a whole number too large for a float (P010); a value reads as 0, a key is dropped."""
        self.src.add(pos, "P010", _too_large_message(text, "key" if is_key else "number"))
        return _BAD_KEY if is_key else NON_FINITE_STAND_IN

    def _complete(self, value: Any, size: int, height: int, pos: Pos, anchor: str | None) -> None:
        """A node is finished: register its anchor and hand it to its parent."""
        if anchor is not None:
            self.anchors[anchor] = (value, size, height)
        if not self.stack:
            self.root = value
            return
        parent = self.stack[-1]
        parent.size += size
        if height >= parent.height:
            parent.height = height + 1
        if not parent.is_map:
            parent.value.append(value)
            return
        if parent.key is _NO_KEY:
            self._take_key(parent, value, pos)
            return
        key, key_ok = parent.key, parent.key_ok
        parent.key = _NO_KEY
        if key_ok is None:  # a merge key `<<`
            self._take_merge(parent, value, pos)
        elif key_ok:
            parent.value[key] = value
        if key_ok:
            self.src.key_pos.setdefault(parent.loc + (key,), parent.key_pos)

    def _take_key(self, parent: _Frame, key: Any, pos: Pos) -> None:
        parent.key, parent.key_pos, parent.key_ok = key, pos, True
        if key is _BAD_KEY:  # already reported
            parent.key_ok = False
            return
        if key is _MergeKey:
            parent.key, parent.key_ok = "<<", None
            return
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            shown = "a list or mapping" if isinstance(key, (list, dict)) else json.dumps(key)
            self.src.add(pos, "P008", f"a key must be a name or a whole number, not {shown}; write a plain name (quote it if needed)")
            parent.key_ok = False
            return
        text = str(key)
        if text in parent.explicit:
            first = self.src.key_pos.get(parent.loc + (_find_key(parent.value, text),), (0, 0))
            self.src.add(pos, "P009", f"duplicate key '{key}' (first at line {first[0]}); remove one of them (the first one is used)")
            parent.key_ok = False
            return
        parent.explicit.add(text)

    def _take_merge(self, parent: _Frame, value: Any, pos: Pos) -> None:
        parts = value if isinstance(value, list) else [value]
        if not parts or not all(isinstance(v, dict) for v in parts):
            self.src.add(pos, "P008", "a merge key `<<` needs a mapping or a list of mappings (e.g. `<<: *defaults`)")
            return
        for v in parts:
            parent.merges.append((v, pos))

    def _apply_merges(self, frame: _Frame) -> None:
        for merged, pos in frame.merges:
            for k, v in merged.items():
                if str(k) in frame.explicit:
                    continue
                frame.explicit.add(str(k))
                frame.value[k] = v
                self.src.value_pos.setdefault(frame.loc + (k,), pos)
                self.src.key_pos.setdefault(frame.loc + (k,), pos)


class _MergeKeyType:
    def __repr__(self) -> str:
        return "<<"


_MergeKey = _MergeKeyType()
_BAD_KEY = object()  # a key already reported (P010): the entry is dropped


def _clip(text: str, limit: int = 40) -> str:
    """`text`, or its start and length when it is long (a 5,000-digit number fills no screen)."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _too_large_message(text: str, what: str) -> str:
    return (
        f"the {what} {_clip(text)} is too large (a whole number of more than {MAX_INT_BITS} bits, about 308 digits); "
        "write a smaller number"
    )


def _short_tag(tag: str | None) -> str:
    return "!!" + tag[len(_TAG):] if tag and tag.startswith(_TAG) else str(tag)


def _find_key(mapping: dict, text: str) -> Any:
    for k in mapping:
        if str(k) == text:
            return k
    return text


def _mark(ev: yaml.Event) -> Pos:
    return (ev.start_mark.line + 1, ev.start_mark.column + 1)


# --- JSON -------------------------------------------------------------------------------------

_JSON_TOKEN = re.compile(
    r"""[ \t\r\n]*(?:
      (?P<punct>[{}\[\],:])
    | (?P<string>")
    | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)(?![0-9A-Za-z.])
    | (?P<word>-?[A-Za-z_][A-Za-z0-9_]*)
    | (?P<end>\Z)
    | (?P<other>.)
    )""",
    re.VERBOSE | re.DOTALL,
)
_WORDS = {"true": True, "false": False, "null": None}
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def _is_high(code: str) -> bool:
    return 0xD800 <= int(code, 16) <= 0xDBFF


def _is_low(code: str) -> bool:
    return 0xDC00 <= int(code, 16) <= 0xDFFF


_NON_FINITE = {"NaN", "Infinity", "-Infinity"}


class _JsonFrame:
    __slots__ = ("container", "loc", "state", "key", "key_pos", "is_map", "close")

    def __init__(self, container: Any, loc: PathT):
        self.container = container
        self.loc = loc
        self.state = "first"  # then: key, colon, value (objects) / value (lists); after an item: after
        self.key: str = ""
        self.key_pos: Pos = (1, 1)
        self.is_map = isinstance(container, dict)
        self.close = "}" if self.is_map else "]"


_NOTHING = object()


class _JsonReader:
    """A strict JSON reader that records positions. Iterative; stops at the first syntax error.

    `read` is one loop with the common tokens (punctuation, numbers) read in place and a token's line and column
    worked out only where they are kept or shown: a file of 500,000 numbers took 3.6 s of CPU to refuse when each
    token was a call of its own and every comma's position was found."""

    def __init__(self, src: Source, text: str):
        self.src = src
        self.text = text
        self.lines = _LineIndex(text)
        self.i = 0
        self.stack: list[_JsonFrame] = []
        self.root: Any = _NOTHING
        self.total = 0

    def read(self) -> None:
        text, match, stack = self.text, _JSON_TOKEN.match, self.stack
        starts, bisect_right = self.lines.starts, bisect.bisect_right
        value_pos = self.src.value_pos
        total = 0
        i = 0
        while True:
            m = match(text, i)
            kind = m.lastgroup or "end"
            begin = m.start(kind)
            i = m.end()
            # The token: its kind (punctuation is its own kind) and value. A number's or a word's own problem (P010)
            # is reported here, before any about where it stands.
            if kind == "punct":
                kind = text[begin]
                value: Any = None
            elif kind == "number":
                number = m.group(kind)
                if "." in number or "e" in number or "E" in number:
                    value = float(number)
                    if not math.isfinite(value):
                        self.src.add(self._pos(begin), "P010", f"{_clip(number)} is too large to be a finite number; write a smaller number")
                        value = NON_FINITE_STAND_IN
                elif len(number) > MAX_NUMBER_CHARS:
                    self.src.add(self._pos(begin), "P010", _too_large_message(number, "number"))
                    value = NON_FINITE_STAND_IN
                else:
                    value = int(number)
                    if value.bit_length() > MAX_INT_BITS:
                        self.src.add(self._pos(begin), "P010", _too_large_message(number, "number"))
                        value = NON_FINITE_STAND_IN
            else:
                self.i = i
                kind, value = self._token(m, kind, begin)
                i = self.i
            if not stack:
                if self.root is not _NOTHING:
                    if kind == "end":
                        break
                    self._fail(self._pos(begin), "extra data after the end of the JSON value; remove it")
                loc: PathT = ()
            else:
                frame = stack[-1]
                state = frame.state
                if state == "after":
                    if kind == ",":
                        frame.state = "key" if frame.is_map else "value"
                    elif kind == frame.close:
                        self._close()
                    else:
                        if kind == "end":
                            self._ended(frame, begin)
                        self._fail(self._pos(begin), f"expected `,` or `{frame.close}`, found {_shown(kind, value)}")
                    continue
                if kind == frame.close and state == "first":
                    self._close()
                    continue
                if kind == "end":
                    self._ended(frame, begin)
                if frame.is_map:
                    if state == "first" or state == "key":
                        if kind != "string":
                            extra = " (JSON allows no comma after the last item)" if kind == frame.close else ""
                            self._fail(self._pos(begin), f"expected a key in double quotes, found {_shown(kind, value)}{extra}")
                        frame.key, frame.key_pos, frame.state = value, self._pos(begin), "colon"
                        continue
                    if state == "colon":
                        if kind != ":":
                            self._fail(self._pos(begin), f"expected `:` after the key, found {_shown(kind, value)}")
                        frame.state = "value"
                        continue
                if kind == frame.close:
                    self._fail(self._pos(begin), f"expected a value, found `{frame.close}` (JSON allows no comma after the last item)")
                loc = frame.loc + ((frame.key,) if frame.is_map else (len(frame.container),))
            line = bisect_right(starts, begin)
            pos = (line, begin - starts[line - 1] + 1)
            total += 1
            if total > MAX_NODES:
                self.total = total
                self.src.add(pos, "P011", f"the file holds more than {MAX_NODES} values; a board needs far fewer")
                raise _Stop
            if kind == "{" or kind == "[":
                if len(stack) >= MAX_DEPTH:
                    self.src.add(pos, "P007", f"the file is nested too deeply (limit {MAX_DEPTH} levels); a board needs only a few")
                    raise _Stop
                value_pos.setdefault(loc, pos)
                stack.append(_JsonFrame({} if kind == "{" else [], loc))
                continue
            if kind != "number" and kind != "string" and kind != "word":
                self._fail(pos, f"expected a value, found {_shown(kind, value)}")
            value_pos.setdefault(loc, pos)
            if stack and not frame.is_map:
                frame.container.append(value)
                frame.state = "after"
            else:
                self._deliver(value)
        self.total = total
        self.src.data = self.root

    def _pos(self, index: int) -> Pos:
        return self.lines.pos(index)

    def _ended(self, frame: _JsonFrame, begin: int) -> NoReturn:
        """The file ends inside `frame`'s object or list: say so."""
        self._fail(self._pos(begin), f"the file ends inside {'an object' if frame.is_map else 'a list'}; add the missing `{frame.close}`")

    def _close(self) -> None:
        self._deliver(self.stack.pop().container)

    def _deliver(self, value: Any) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.state = "after"
        container = frame.container
        if not frame.is_map:
            container.append(value)
            return
        child = frame.loc + (frame.key,)
        if frame.key in container:
            first = self.src.key_pos.get(child, (0, 0))
            self.src.add(frame.key_pos, "P009", f"duplicate key '{frame.key}' (first at line {first[0]}); remove one of them (the first one is used)")
            return
        container[frame.key] = value
        self.src.key_pos[child] = frame.key_pos

    def _token(self, m: re.Match, kind: str, begin: int) -> tuple[str, Any]:
        """A token other than punctuation and numbers (text, a word, the end, a character out of place);
        `self.i` is where the next one starts."""
        if kind == "string":
            try:
                value, self.i = json.decoder.scanstring(self.text, begin + 1, True)
            except json.JSONDecodeError as e:
                self._fail(self.lines.pos(e.pos), f"bad text in double quotes: {e.msg}")
            if _SURROGATE.search(value):
                value = self._lone_surrogates(begin + 1, self.i - 1, value)
            return "string", value
        if kind == "word":
            word = m.group(kind)
            if word in _WORDS:
                return "word", _WORDS[word]
            if word in _NON_FINITE:
                self.src.add(self._pos(begin), "P010", f"{word} is not a finite number; JSON allows only finite numbers, write a number")
                return "word", NON_FINITE_STAND_IN
            self._fail(self._pos(begin), f"unexpected word '{word}'; text must be in double quotes (only true, false and null are bare words)")
        if kind == "other":
            self._fail(self._pos(begin), f"unexpected character {m.group(kind)!r}")
        return "end", None

    def _lone_surrogates(self, start: int, end: int, value: str) -> str:
        """Report each `\\uD800`-`\\uDFFF` escape that is not half of a pair (it is no character, and
        nothing can encode it) at its own position, and read it as U+FFFD so reading goes on."""
        escapes = list(_JSON_ESCAPE.finditer(self.text, start, end))
        paired: set[int] = set()
        for a, b in zip(escapes, escapes[1:]):
            if a.end() == b.start() and a.group(1) and b.group(1) and _is_high(a.group(1)) and _is_low(b.group(1)):
                paired.update((a.start(), b.start()))
        for e in escapes:
            code = e.group(1)
            if code and (_is_high(code) or _is_low(code)) and e.start() not in paired:
                self.src.add(
                    self.lines.pos(e.start()),
                    "P006",
                    f"JSON syntax error: invalid unicode escape \\u{code}: a lone surrogate is no character; "
                    "write the character itself (or both halves of a surrogate pair)",
                )
        return _SURROGATE.sub("\ufffd", value)

    def _fail(self, pos: Pos, message: str) -> NoReturn:
        self.src.add(pos, "P006", f"JSON syntax error: {message}")
        raise _Stop


def _shown(kind: str, value: Any) -> str:
    if kind == "end":
        return "the end of the file"
    if kind == "string":
        return f'"{value}"'
    if kind in ("number", "word"):
        return f"`{json.dumps(value)}`"
    return f"`{kind}`"
