"""YAML text for plain data, written directly: the same text as PyYAML, several times faster.

`dump(data)` is `yaml.dump(data, Dumper=CSafeDumper, sort_keys=False, allow_unicode=True, width=120,
default_flow_style=None)`, character for character, for the data a state file holds: dicts and lists
(a collection of scalars only on one line, wrapped at the width; others one entry a line), strings,
ints, booleans and None. The library spends most of that call building a node per value and asking
its resolver about each one twice (4-5 ms a save of a USA game in the middle; `ttr-maps play` saves
after every move); here each value is written as it is met, following libyaml's emitter rules for
plain scalars: where a line breaks, which column a wrapped line starts at, a long scalar's words
folded at the width.

Anything else is left to the library, which writes it exactly as before: a string that must be
quoted (one that reads as another type, such as `yes`, `1` or `null`; one starting or ending with
a space, holding two spaces in a row, a `#`, a flow indicator inside a `[...]`/`{...}`, a `: `,
a control or unusual character, or `...`), a float, a key too long to be a simple key, an object
that appears twice (the library would write an anchor), or any other type. The tests compare the
two writers on every bundled variant's games.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

WIDTH = 120  # the state files' line width; the library wraps a flow collection past it

_LETTERS = "A-Za-z0-9_./+=\u00a1-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
# One word, or words with single spaces; no indicator at the start (`-`, `?`, `:` and the like are
# not in the first set). In a flow collection nothing of `,[]{}:?#`; in block context a `:` that is
# not followed by a space or the end.
_FLOW_OK = re.compile(f"[{_LETTERS}][{_LETTERS}-]*(?: [{_LETTERS}-]+)*")
_BLOCK_OK = re.compile(f"[{_LETTERS}](?:[{_LETTERS}-]|:(?=[^ ]))*(?: (?:[{_LETTERS}-]|:(?=[^ ]))+)*")
_IMPLICIT = getattr(yaml, "CSafeDumper", yaml.SafeDumper).yaml_implicit_resolvers  # first character -> [(tag, regexp)], as the library resolves
_STR_TAG = "tag:yaml.org,2002:str"
_KEY_MAX = 100  # a simple key is under 128 characters (PyYAML counts the tag's 21 too)


class _Unusual(Exception):
    """A value this writer leaves to the library."""


_FLOW_CACHE: dict[str, bool] = {}
_BLOCK_CACHE: dict[str, bool] = {}


def _plain(text: str, flow: bool) -> bool:
    """True when the library writes `text` as a plain scalar that these rules cover."""
    cache = _FLOW_CACHE if flow else _BLOCK_CACHE
    ok = cache.get(text)
    if ok is None:
        ok = bool(text) and bool((_FLOW_OK if flow else _BLOCK_OK).fullmatch(text)) and not text.startswith("...")
        if ok:
            for tag, regexp in _IMPLICIT.get(text[0], []) + _IMPLICIT.get(None, []):
                if tag != _STR_TAG and regexp.match(text):
                    ok = False  # reads as a number, a boolean, null, a date...: the library quotes it
                    break
        if len(cache) > 50_000:
            cache.clear()
        cache[text] = ok
    return ok


def _text(value: Any, flow: bool) -> str:
    """A scalar's plain text; _Unusual when the library would write it otherwise."""
    kind = type(value)
    if kind is str:
        ok = (_FLOW_CACHE if flow else _BLOCK_CACHE).get(value)
        if ok or (ok is None and _plain(value, flow)):
            return value
    elif kind is int:
        return str(value)
    elif kind is bool:
        return "true" if value else "false"
    elif value is None:
        return "null"
    raise _Unusual


def _key_text(value: Any, flow: bool) -> str:
    text = _text(value, flow)
    if len(text) >= _KEY_MAX:
        raise _Unusual  # the library may write it as a complex key (`? ...`)
    return text


def _fold(text: str, col: int, indent: int, out: list[str]) -> int:
    """Write a plain scalar's words from column `col`, breaking at a space where the line has passed the width
    (libyaml's rule; the next line indented to `indent`); the column after it."""
    words = text.split(" ")
    out.append(words[0])
    col += len(words[0])
    for word in words[1:]:
        if col > WIDTH:
            out.append("\n" + " " * indent)
            col = indent
        else:
            out.append(" ")
            col += 1
        out.append(word)
        col += len(word)
    return col


class _Writer:
    """libyaml's emitter state: the column, whether the last character was white space (`ws`: no space is
    needed before a scalar) and whether only indentation is on the line (`ind`)."""

    __slots__ = ("out", "col", "ws", "ind", "seen")

    def __init__(self) -> None:
        self.out: list[str] = []
        self.col = 0
        self.ws = True
        self.ind = True
        self.seen: set[int] = set()  # the collections written (one met twice is the library's anchor)

    def indent(self, indent: int) -> None:
        col = self.col
        if not self.ind or col > indent or (col == indent and not self.ws):
            self.out.append("\n")
            col = 0
        if col < indent:
            self.out.append(" " * (indent - col))
            col = indent
        self.col = col
        self.ws = self.ind = True

    def node(self, value: Any, indent: int, in_mapping: bool) -> None:
        """A value in block context, after `key:` or `-`: a collection, or a scalar (one step deeper if it folds)."""
        kind = type(value)
        if kind is dict or kind is list:
            if id(value) in self.seen:
                raise _Unusual  # the library writes an anchor and an alias
            self.seen.add(id(value))
            if not value or all(type(v) in _SCALARS for v in (value.values() if kind is dict else value)):
                if kind is list:
                    self.flow([_text(v, True) for v in value], indent, False)
                else:
                    texts = []
                    for k, v in value.items():
                        texts.append(_key_text(k, True))
                        texts.append(_text(v, True))
                    self.flow(texts, indent, True)
            elif kind is list:
                self.block(value, indent, in_mapping)
            else:
                self.block_map(value, indent)
            return
        text = _text(value, False)
        col = self.col + 1  # after the space the last indicator (`:` or `-`) leaves for it
        self.out.append(" ")
        if col + len(text) > WIDTH + 1 and " " in text:
            self.col = _fold(text, col, indent + 2, self.out)
        else:
            self.out.append(text)
            self.col = col + len(text)
        self.ws = self.ind = False

    def flow(self, texts: list[str], indent: int, is_map: bool) -> None:
        """`[a, b]`, or `{k: v}` (`texts` alternating keys and values), after `key:` or `-` and a space;
        wrapped before an item once the line has passed the width, the next line one step deeper."""
        out = self.out
        if is_map:
            body = "{" + ", ".join([f"{k}: {v}" for k, v in zip(texts[::2], texts[1::2])]) + "}"
        else:
            body = "[" + ", ".join(texts) + "]"
        col = self.col + 1
        if col + len(body) <= WIDTH + 2:
            # it ends by the width: nothing wraps (the library wraps before an item, or at a scalar's space,
            # only once the line has passed the width, and an item and the bracket follow either)
            out.append(" " + body)
            self.col = col + len(body)
            self.ws = self.ind = False
            return
        inner = indent + 2
        out.append(" " + body[0])
        col += 1
        for i, text in enumerate(texts):
            if is_map and i % 2:  # a value, after its key's `:`
                out.append(": ")
                col += 2
            else:
                if i:
                    out.append(",")
                    col += 1
                if col > WIDTH:
                    out.append("\n" + " " * inner)
                    col = inner
                elif i:
                    out.append(" ")
                    col += 1
                if is_map:  # a key: never folded
                    out.append(text)
                    col += len(text)
                    continue
            if col + len(text) > WIDTH + 1 and " " in text:
                col = _fold(text, col, inner + 2, out)
            else:
                out.append(text)
                col += len(text)
        out.append(body[-1])
        self.col = col + 1
        self.ws = self.ind = False

    def block(self, items: list, indent: int, in_mapping: bool) -> None:
        inner = indent if (in_mapping and not self.ind) else indent + 2  # a mapping's list is not indented
        for item in items:
            self.indent(inner)
            self.out.append("-")
            self.col += 1
            self.ws = False  # `ind` stays: a mapping or list in the item starts on this line
            self.node(item, inner, False)

    def block_map(self, mapping: dict, indent: int) -> None:
        inner = indent + 2
        for k, v in mapping.items():
            self.indent(inner)
            key = _key_text(k, False)
            self.out.append(key + ":")
            self.col += len(key) + 1
            self.ws = self.ind = False
            self.node(v, inner, True)


_SCALARS = frozenset((str, int, bool, type(None), float))


def dump_fast(data: Any) -> str | None:
    """`dump(data)`'s text when these rules cover all of `data`, else None."""
    if type(data) is not dict or not data or all(type(v) in _SCALARS for v in data.values()):
        return None  # a document that is not a block mapping: the library's
    w = _Writer()
    try:
        w.block_map(data, -2)  # the root mapping is at indent 0
    except _Unusual:
        return None
    w.indent(0)
    return "".join(w.out)


def dump(data: Any) -> str:
    """The YAML of a state file (`yaml.dump` with the options above), written directly where it can be."""
    text = dump_fast(data)
    if text is None:
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        text = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=WIDTH, default_flow_style=None)
    return text
