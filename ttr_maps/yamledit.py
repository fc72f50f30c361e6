"""Change a user's YAML file in place, keeping everything the change does not touch.

A designer's board file is theirs: comments, key order, flow or block style, quotes
and blank lines are how they keep it readable. Tools that write into it (the studio's
drags, `validate --fix`, ticket values) go through `YamlFile`:

    doc = YamlFile.read("my-board.yaml")
    doc.set(("places", 3, "x"), 12.5)              # mapping keys and list indices
    doc.insert(("routes", 7), {"from": "a", "to": "b", "length": 2, "tracks": ["red"]})
    doc.delete(("routes", 12, "bend"))
    doc.save()                                     # or doc.save(check="my-rules.yaml")

How the text stays the user's: the file is parsed with ruamel.yaml's round-trip
loader (comments, order, style and quotes are kept in the tree). On save the tree is
dumped twice, as read and as changed; the lines that differ between those two dumps
are the change, and only they replace lines of the original text. Every other line
is copied from the file byte for byte, so even a file ruamel.yaml would re-indent
keeps its look. A new item in a list of flow mappings (`- {id: a, x: 1}`) is written
in flow style too.

`save` writes only when it is safe:
- the file on disk is still the one read (sha-256 of its bytes); otherwise
  `FileChanged`: someone saved it meanwhile, read it again;
- the new text loads with the project's loader with no error that the old text did
  not have (`check` names the file to load, e.g. the variant whose board this is;
  the new text is given to the loader in memory, nothing is written to try it);
  otherwise `WouldBreak`, which carries the new errors;
- the write is atomic (a temporary file and a rename, the file's mode kept:
  `fileio.write_atomic`).
Every refusal is an `EditError` whose message names the file and what to do; nothing
is written then. JSON files are not edited (`NotEditable`): rewriting them would not
keep their look.
"""

from __future__ import annotations

import difflib
import hashlib
import io
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from .diagnostics import Diagnostic, Severity
from .fileio import write_atomic

KeyPath = tuple[Any, ...]
# (mapping, sequence, offset) indentations tried, most common first; the one whose dump matches
# the file best is used, so changed lines are indented like their neighbours.
_INDENTS = ((2, 4, 2), (2, 2, 0), (4, 4, 2), (4, 6, 4), (4, 4, 0), (2, 4, 0), (3, 3, 0))


class EditError(Exception):
    """A change that cannot be written; the message says why and what to do."""


class NotEditable(EditError):
    """The file cannot be changed by a tool (unreadable, JSON, or not a YAML mapping)."""


class FileChanged(EditError):
    """The file on disk is not the one that was read: read it again, then change it."""


class WouldBreak(EditError):
    """The changed text would not load; `diagnostics` holds the errors it would add."""

    def __init__(self, message: str, diagnostics: list[Diagnostic]):
        super().__init__(message)
        self.diagnostics = diagnostics


class BadPath(EditError):
    """A key path that does not lead to a value in the file."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class YamlFile:
    """One YAML file, read for changing; see the module docstring."""

    def __init__(self, path: str | Path, raw: bytes):
        self.path = str(path)
        self.loaded: Any = None  # the text last saved, as loaded to check it (`save`)
        if Path(self.path).suffix.lower() == ".json":
            raise NotEditable(f"{self.path} is JSON; only YAML files are changed in place (save it as .yaml to edit it here)")
        self.sha = sha256(raw)
        try:
            self.text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise NotEditable(f"{self.path} is not UTF-8 text; validate it and fix what it reports") from None
        try:
            self._yaml, self.data, self._base = _best_yaml(self.text)
        except YAMLError as exc:
            where = getattr(exc, "problem_mark", None)
            at = f":{where.line + 1}:{where.column + 1}" if where is not None else ""
            raise NotEditable(f"{self.path}{at} does not parse ({getattr(exc, 'problem', None) or exc}); "
                              "validate it and fix what it reports before changing it here") from None
        if not isinstance(self.data, CommentedMap):
            raise NotEditable(f"{self.path} is not a mapping of keys; validate it and fix what it reports")

    @classmethod
    def read(cls, path: str | Path) -> "YamlFile":
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise NotEditable(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls(path, raw)

    # --- looking and changing -------------------------------------------------------------

    def get(self, keys: KeyPath) -> Any:
        node: Any = self.data
        for i, key in enumerate(keys):
            node = _child(node, key, keys[: i + 1], self.path)
        return node

    def set(self, keys: KeyPath, value: Any) -> None:
        """Set the value at `keys`: a mapping key (added at the end when new) or an existing list index."""
        parent, key = self._parent(keys)
        if isinstance(parent, list):
            if not isinstance(key, int) or not -len(parent) <= key < len(parent):
                raise BadPath(f"{self.path}: no item {_shown(keys)} to set")
        elif not isinstance(parent, dict):
            raise BadPath(f"{self.path}: {_shown(keys[:-1])} is not a mapping or a list")
        old = parent[key] if (isinstance(parent, list) or key in parent) else None
        parent[key] = _styled(value, old if old is not None else _sibling(parent))

    def insert(self, keys: KeyPath, value: Any) -> None:
        """Insert `value` into a list at index `keys[-1]` (the list's length appends)."""
        parent, index = self._parent(keys)
        if not isinstance(parent, list) or not isinstance(index, int) or not 0 <= index <= len(parent):
            raise BadPath(f"{self.path}: cannot insert at {_shown(keys)}; it must be a list index from 0 to its length")
        neighbour = parent[index - 1] if index > 0 else (parent[0] if parent else self._list_item())
        parent.insert(index, _styled(value, neighbour))

    def append(self, keys: KeyPath, value: Any) -> int:
        """Add `value` at the end of the list at `keys` (created as an empty list when missing); its index."""
        try:
            target = self.get(keys)
        except BadPath:
            self.set(keys, CommentedSeq())
            target = self.get(keys)
        if not isinstance(target, list):
            raise BadPath(f"{self.path}: {_shown(keys)} is not a list")
        self.insert(tuple(keys) + (len(target),), value)
        return len(target) - 1

    def delete(self, keys: KeyPath) -> None:
        """Remove the mapping key or list item at `keys`."""
        parent, key = self._parent(keys)
        try:
            del parent[key]
        except (KeyError, IndexError, TypeError):
            raise BadPath(f"{self.path}: nothing at {_shown(keys)} to remove") from None

    def _list_item(self) -> Any:
        """An item of some top-level list of mappings: the style an item of an empty list follows."""
        for value in self.data.values():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return value[0]
        return None

    def _parent(self, keys: KeyPath) -> tuple[Any, Any]:
        if not keys:
            raise BadPath(f"{self.path}: an empty key path names the whole file")
        return self.get(tuple(keys[:-1])), keys[-1]

    # --- writing ------------------------------------------------------------------------

    def render(self) -> str:
        """The file's text with the changes made so far; unchanged lines are the original's, byte for byte."""
        return merge_lines(self.text, self._base, self._dump())

    @property
    def changed(self) -> bool:
        return self.render() != self.text

    def save(self, check: str | Path | None = None, before: list[Diagnostic] | None = None) -> str:
        """Write the changes (see the module docstring for when it refuses); returns the new text.

        `check` is the file to load to re-validate (default: this one), e.g. the variant that
        names this board, so a change that breaks the variant is refused too. `before` is what
        loading `check` with the text as read reported, when the caller has it (else it is
        loaded again). `self.loaded` is then the new text as loaded (`load(check)`).
        """
        return self.commit(self.prepare(check, before))

    def prepare(self, check: str | Path | None = None, before: list[Diagnostic] | None = None) -> tuple[str, str, Any]:
        """The first half of `save`: the new text made and checked (WouldBreak when it would not load), nothing
        written; `commit` writes it. The studio makes it without holding up the page, then writes it."""
        dumped = self._dump()
        new = merge_lines(self.text, self._base, dumped)
        return new, dumped, validate_text(self.path, self.text, new, check, before)

    def commit(self, prepared: tuple[str, str, Any]) -> str:
        """The second half of `save`: write the text `prepare` made, only if the file still holds the text as read
        (FileChanged otherwise), atomically; returns the new text."""
        new, dumped, loaded = prepared
        replace_text(self.path, self.text, new)
        self.loaded = loaded
        self.text, self.sha, self._base = new, sha256(new.encode("utf-8")), dumped
        return new

    def validate(self, new: str, check: str | Path | None = None) -> None:
        """Raise WouldBreak when `new` (this file's next text) loads with errors the current text has not."""
        validate_text(self.path, self.text, new, check)

    def _dump(self) -> str:
        out = io.StringIO()
        self._yaml.dump(self.data, out)
        return out.getvalue()


def validate_text(path: str, old: str, new: str, check: str | Path | None = None, before: list[Diagnostic] | None = None) -> Any:
    """Raise WouldBreak when `new` (the next text of `path`) loads with errors `old` has not (`before`: the
    diagnostics of `old`, when the caller has them); returns the new text as loaded."""
    from .load import load

    root = str(check or path)
    if before is None:
        before = load(root, {path: old}).diagnostics
    loaded = load(root, {path: new})
    added = new_errors(before, loaded.diagnostics)
    if added:
        first = added[0]
        raise WouldBreak(
            f"the change was not written: it would make {first.path}:{first.line}:{first.col} "
            f"{first.code} {first.message}" + (f" (and {len(added) - 1} more)" if len(added) > 1 else ""),
            added,
        )
    return loaded


def write_checked(path: str, old: str, new: str, check: str | Path | None = None, before: list[Diagnostic] | None = None) -> Any:
    """Replace the text `old` of `path` by `new`: only if the file still holds `old` (sha-256 of its
    bytes) and `new` loads with no new error; atomically. Raises an EditError otherwise. Returns the
    new text as loaded (`validate_text`)."""
    loaded = validate_text(path, old, new, check, before)
    replace_text(path, old, new)
    return loaded


def replace_text(path: str, old: str, new: str) -> None:
    """Write `new` over `path` atomically, only if the file still holds `old` (FileChanged otherwise)."""
    try:
        on_disk = Path(path).read_bytes()
    except OSError as exc:
        raise FileChanged(f"{path} cannot be read any more ({exc.strerror or exc}); it was moved or removed since it was read") from None
    if sha256(on_disk) != sha256(old.encode("utf-8")):
        raise FileChanged(f"{path} was changed on disk since it was read; nothing was written (read it again and redo the change)")
    if new == old:
        return
    try:
        write_atomic(path, new, make_dirs=False)
    except OSError as exc:
        raise EditError(f"cannot write {path}: {exc.strerror or exc}; nothing was changed") from None


def new_errors(before: Iterable[Diagnostic], after: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The errors of `after` that `before` did not have (by code and message: lines move when text is added)."""
    had = Counter((d.path, d.code, d.message) for d in before if d.severity is Severity.ERROR)
    out = []
    for d in after:
        if d.severity is not Severity.ERROR:
            continue
        key = (d.path, d.code, d.message)
        if had[key]:
            had[key] -= 1
        else:
            out.append(d)
    return out


def merge_lines(original: str, base: str, changed: str) -> str:
    """Apply the line changes base -> changed to `original` (of which `base` is a re-formatted copy).

    Lines of `original` whose counterpart in `base` did not change are kept as they are;
    where `original` and `base` differ around a change, the changed block is taken from
    `changed` whole.
    """
    if base == changed:
        return original
    o, b, c = original.splitlines(keepends=True), base.splitlines(keepends=True), changed.splitlines(keepends=True)
    if original == base:
        return changed
    # Chunks aligning original and base: (o_start, o_end, b_start, b_end).
    chunks: list[tuple[int, int, int, int]] = []
    for tag, o1, o2, b1, b2 in difflib.SequenceMatcher(None, o, b, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and o2 - o1 == b2 - b1):  # line for line (re-spaced lines)
            chunks += [(o1 + k, o1 + k + 1, b1 + k, b1 + k + 1) for k in range(o2 - o1)]
        else:
            chunks.append((o1, o2, b1, b2))
    edits = [(i1, i2) for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, b, c, autojunk=False).get_opcodes() if tag != "equal"]
    lo, hi = _position_map(b, c)
    # Regions of base (closed ranges of positions) to take from `changed`, grown to whole chunks.
    regions: list[list[int]] = []
    for i1, i2 in edits:
        s, e = i1, i2
        for _, _, cb1, cb2 in chunks:
            inside = (cb1 < e and cb2 > s) if e > s else cb1 < s < cb2
            if inside:
                s, e = min(s, cb1), max(e, cb2)
        if regions and s <= regions[-1][1]:
            regions[-1][1] = max(regions[-1][1], e)
        else:
            regions.append([s, e])
    out: list[str] = []
    k = 0
    for s, e in regions:
        # The chunks before the region (a chunk only in `original`, at the region's start, too).
        while k < len(chunks) and (chunks[k][3] <= s if chunks[k][2] < chunks[k][3] else chunks[k][2] <= s):
            out += o[chunks[k][0]:chunks[k][1]]
            k += 1
        out += c[lo[s]:hi[e]]
        while k < len(chunks) and chunks[k][2] < e:  # the chunks the region replaces
            k += 1
    while k < len(chunks):
        out += o[chunks[k][0]:chunks[k][1]]
        k += 1
    return "".join(out)


def _position_map(b: list[str], c: list[str]) -> tuple[dict[int, int], dict[int, int]]:
    """For each position between lines of `b`: where it falls in `c`, before (lo) and after (hi) lines inserted there."""
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, b, c, autojunk=False).get_opcodes():
        if tag == "equal":
            for p in range(i1, i2 + 1):
                lo.setdefault(p, j1 + p - i1)
                hi[p] = j1 + p - i1
        else:
            lo.setdefault(i1, j1)
            hi[i1] = j1 if i2 > i1 else j2
            lo[i2] = lo.get(i2, j2) if i2 == i1 else j2
            hi[i2] = j2
    return lo, hi


def _best_yaml(text: str) -> tuple[YAML, Any, str]:
    """A round-trip YAML whose indentation reproduces `text` best (most lines alike), the data it
    read and its dump of it. Raises YAMLError when the text does not parse."""
    best: tuple[int, YAML, Any, str] | None = None
    lines = text.splitlines()
    block_lists = any(line.lstrip().startswith("- ") for line in lines)
    for mapping, sequence, offset in _INDENTS:
        y = YAML(typ="rt")
        y.preserve_quotes = True
        y.width = 4096  # never fold a long line the user wrote on one line
        y.indent(mapping=mapping, sequence=sequence, offset=offset)
        data = y.load(text)
        out = io.StringIO()
        y.dump(data, out)
        dumped = out.getvalue()
        if dumped == text:
            return y, data, dumped
        alike = sum(n for *_, n in difflib.SequenceMatcher(None, lines, dumped.splitlines(), autojunk=False).get_matching_blocks())
        if best is None or alike > best[0]:
            best = (alike, y, data, dumped)
        if not block_lists:
            break  # no block lists: their indentation does not matter
    assert best is not None
    return best[1], best[2], best[3]


def _sibling(container: Any) -> Any:
    """A value already in `container` whose style a new value should follow."""
    values = list(container.values()) if isinstance(container, dict) else list(container)
    return values[-1] if values else None


def _styled(value: Any, like: Any) -> Any:
    """`value` as ruamel.yaml nodes, in flow style when `like` (its neighbour) is a flow collection."""
    flow = isinstance(like, (CommentedMap, CommentedSeq)) and like.fa.flow_style()
    return _to_node(value, flow)


def _to_node(value: Any, flow: bool) -> Any:
    if isinstance(value, dict) and not isinstance(value, CommentedMap):
        node = CommentedMap()
        for k, v in value.items():
            node[k] = _to_node(v, flow)
    elif isinstance(value, (list, tuple)) and not isinstance(value, CommentedSeq):
        node = CommentedSeq(_to_node(v, flow) for v in value)
    else:
        return value
    if flow:
        node.fa.set_flow_style()
    return node


def _child(node: Any, key: Any, where: KeyPath, path: str) -> Any:
    try:
        if isinstance(node, list) and isinstance(key, int) and not isinstance(key, bool):
            return node[key]
        if isinstance(node, dict):
            return node[key]
    except (IndexError, KeyError):
        pass
    raise BadPath(f"{path}: nothing at {_shown(where)}")


def _shown(keys: Iterable[Any]) -> str:
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out or "(the whole file)"


