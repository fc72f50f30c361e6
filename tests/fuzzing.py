"""Seeded mutations of the files and texts a user edits (state files, position files, action strings),
and the judge of what a command did with one: the suite's fuzz tests (tests/test_fuzz_*.py) and the
long runs (benchmarks/fuzz_files.py) share them.

A command given a mutated file must end with exit 0 (it still reads), 1 with every problem at
file:line:col (or a sentence naming the file when it cannot be opened at all), or 2 (a usage
error); never a traceback, never another exception, never a hang.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

# Explicit tags on values they do not fit, tags the reader refuses, and odd scalars.
TAGGED = ["!!int", "!!int -", "!!int +", "!!int _", "!!int ::", "!!float", "!!float _", "!!bool maybe", '!!bool ""',
          "!!merge x", "!!null foo", "!!binary aGk=", "!!timestamp 2001-01-01", "!custom x", "!!python/object:os.system x",
          "!!str", "!!int 0x_", "!!float .nan", "!!float -.inf", "!!int 1:2:3"]
ODD_SCALARS = ["", "~", "-1", "0", "1e999", "99999999999999999999", "1.5", "-0", "true", "no", "'x'", "\"\\u0000\"",
               "³", "٣", "x" * 300, "null", "[]", "{}", "[[[[", "&a x", "*nope", "<<", "'", "0x1F", "1_000", "+4", "-4",
               "\t", "💥", "a: b", "- x"]
ODD_VALUES: list[Any] = [None, -1, 0, 1, 2**70, 1.5, -0.5, True, False, "", "x", "³", "0", "-1", "+4", "loco",
                         "locomotive", [], {}, [None], {"x": 1}, [1, 2, 3], "x" * 300, "a-b", "draw blind", "claim"]


@dataclass
class Verdict:
    """What one command did with one input: `kind` is ok, diagnostic, usage, no-position or crash."""

    kind: str
    detail: str = ""


@dataclass
class Tally:
    counts: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, verdict: Verdict, label: str) -> None:
        self.counts[verdict.kind] = self.counts.get(verdict.kind, 0) + 1
        ex = self.examples.setdefault(verdict.kind, [])
        if len(ex) < 5:
            ex.append(f"{label}: {verdict.detail[:300]}")


def judge(result: Any, path: str) -> Verdict:
    """Classify a click CliRunner result for a command given the file `path`."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return Verdict("crash", f"{type(result.exception).__name__}: {result.exception}")
    out = result.output
    if "Traceback" in out:
        return Verdict("crash", out[-500:])
    if result.exit_code == 0:
        return Verdict("ok")
    if result.exit_code == 2:
        return Verdict("usage", out.strip().splitlines()[-1] if out.strip() else "")
    if result.exit_code != 1:
        return Verdict("crash", f"exit {result.exit_code}: {out[-300:]}")
    errors = [ln for ln in out.splitlines() if re.search(r"\berror\b|^Error:", ln)]
    placed = re.compile(re.escape(str(path)) + r":(\d+):(\d+): error ")
    if any(placed.search(ln) and placed.search(ln).group(1) != "0" for ln in errors):
        return Verdict("diagnostic", errors[0])
    if any(placed.search(ln) for ln in errors):  # whole-file problems (not found, not a file) sit at 0:0
        return Verdict("diagnostic", errors[0])
    return Verdict("no-position", " | ".join(errors)[:400] or out[-300:])


# --- text mutations ------------------------------------------------------------------------------


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or ["\n"]


def mutate_text(text: str, rng: random.Random) -> str:
    """One to three random edits of `text`, as a person or a broken tool might make them."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(_TEXT_OPS)(text, rng)
    return text


def _tag_a_value(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    spots = [i for i, ln in enumerate(lines) if re.search(r":\s+\S", ln) or re.match(r"\s*- \S", ln)]
    if not spots:
        return text
    i = rng.choice(spots)
    m = re.search(r"(:\s+|^\s*- )(.*?)(\s*)$", lines[i])
    if m is None:
        return text
    tag = rng.choice(TAGGED)
    keep = rng.random() < 0.4 and m.group(2) and not m.group(2).startswith(("[", "{"))
    lines[i] = lines[i][: m.start(2)] + (f"{tag.split()[0]} {m.group(2)}" if keep else tag) + m.group(3)
    return "".join(lines)


def _odd_scalar(text: str, rng: random.Random) -> str:
    spots = list(re.finditer(r"(?<=[:\[,] )[^\s,\[\]{}#][^,\[\]{}\n#]*", text))
    if not spots:
        return text
    m = rng.choice(spots)
    return text[: m.start()] + rng.choice(ODD_SCALARS) + text[m.end():]


def _number(text: str, rng: random.Random) -> str:
    spots = list(re.finditer(r"\b\d+\b", text))
    if not spots:
        return text
    m = rng.choice(spots)
    new = rng.choice(["0", "-1", str(int(m.group()) + 1), str(int(m.group()) * 1000 + 7), "1" * 40, "³", "1.5", "1e3"])
    return text[: m.start()] + new + text[m.end():]


def _drop_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "".join(lines)


def _duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "".join(lines)


def _swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _indent(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(["  ", "\t", " "]) + lines[i] if rng.random() < 0.6 else lines[i].lstrip()
    return "".join(lines)


def _char(text: str, rng: random.Random) -> str:
    if not text:
        return rng.choice(ODD_SCALARS)
    i = rng.randrange(len(text))
    c = rng.choice([":", "-", "[", "]", "{", "}", ",", "'", '"', "#", "&", "*", "!", "|", ">", "%", "@", "`", "\\",
                    "é", "\u200b", "\ufeff", "\x7f", "\x00", "\r", "\n"])
    return text[:i] + c + text[i + rng.randint(0, 1):]


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _alias(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    spots = [i for i, ln in enumerate(lines) if re.search(r":\s+\S", ln)]
    if len(spots) < 2:
        return text
    a, b = rng.sample(spots, 2)
    lines[a] = re.sub(r":\s+", ": &k ", lines[a], count=1)
    lines[b] = re.sub(r":\s+.*", ": *k", lines[b].rstrip("\n"), count=1) + "\n"
    return "".join(lines)


_TEXT_OPS = [_tag_a_value, _tag_a_value, _odd_scalar, _odd_scalar, _number, _number, _drop_line, _duplicate_line,
             _swap_lines, _indent, _char, _truncate, _alias]


# --- tree mutations ------------------------------------------------------------------------------


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, here + (i,))
    return out


def _get(node: Any, path: tuple) -> Any:
    for k in path:
        node = node[k]
    return node


def mutate_tree(data: Any, rng: random.Random) -> Any:
    """A deep copy of `data` with one to three random changes to its structure or values."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return data
        path = rng.choice(paths)
        parent, key = _get(data, path[:-1]), path[-1]
        op = rng.random()
        if op < 0.45:
            # an odd value or another node's (copied: a node moved into itself would make a cycle)
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES + [_get(data, rng.choice(paths))]))
        elif op < 0.65:
            del parent[key]
        elif op < 0.8 and isinstance(parent, list):
            parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(parent[key]))
        elif op < 0.9 and isinstance(parent, dict):
            parent[rng.choice(["x", "players", "phase", str(key) + "s", str(key).upper()])] = parent.pop(key)
        else:
            value = parent[key]
            if isinstance(value, str) and value:
                i = rng.randrange(len(value))
                parent[key] = value[:i] + rng.choice(["", "x", "-", " ", "³", "+4", "2"]) + value[i + 1:]
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                parent[key] = rng.choice([-value, value + 1, value * 1000, 0, -1])
            elif isinstance(value, list) and len(value) > 1:
                rng.shuffle(value)
            else:
                parent[key] = rng.choice(ODD_VALUES)
    return data


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


# --- action strings -------------------------------------------------------------------------------

_WORDS = ["draw", "blind", "faceup", "claim", "tickets", "keep", "station", "tunnel", "pay", "abandon", "passenger",
          "skip", "move", "stop", "flag", "pass", "loco", "big", "gray", "red", "+", ";", "-"]


def mutate_action(text: str, rng: random.Random) -> str:
    """A listed action's text with one or two edits: tokens dropped, doubled, swapped or replaced,
    numbers changed (negative, huge, non-ASCII digits), odd characters."""
    for _ in range(rng.randint(1, 2)):
        tokens = text.split()
        op = rng.random()
        if op < 0.15 and tokens:
            del tokens[rng.randrange(len(tokens))]
        elif op < 0.25 and tokens:
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(tokens))
        elif op < 0.35 and len(tokens) > 1:
            i, j = rng.sample(range(len(tokens)), 2)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op < 0.5 and tokens:
            tokens[rng.randrange(len(tokens))] = rng.choice(_WORDS + ODD_SCALARS)
        elif op < 0.75:
            spots = list(re.finditer(r"\d+", text))
            if spots:
                m = rng.choice(spots)
                new = rng.choice(["-1", "0", "99", "4", "1" * 30, "³", "٣", "1.5", "+1", "x"])
                text = text[: m.start()] + new + text[m.end():]
                continue
            tokens.append(rng.choice(["0", "-1", "3", "1" * 30, "³"]))
        elif op < 0.9:
            text = _char(text, rng)
            continue
        else:
            tokens.append(rng.choice(_WORDS + ODD_SCALARS))
        text = " ".join(tokens)
    return text
