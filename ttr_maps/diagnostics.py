"""Diagnostics: every problem found in a user's file, at `path:line:col`, with a stable code."""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Iterable


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem. `line` and `col` are 1-based; 0 means the whole file."""

    path: str
    line: int
    col: int
    severity: Severity = field(compare=False)
    code: str
    message: str = field(compare=False)
    name: str = field(default="", compare=False)

    def as_text(self) -> str:
        """One line, always: control characters in a message (say, from a quoted key) are escaped, `\\n`."""
        message = _CONTROL.sub(lambda m: repr(m.group())[1:-1], self.message)
        return f"{self.path}:{self.line}:{self.col}: {self.severity.value} {self.code} {message}"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["severity"] = self.severity.value
        return d


@dataclass(frozen=True)
class CodeInfo:
    """What a code means: its kebab-case name (the bad pattern), a one-line summary and, when
    there is one, its full documentation in Markdown (SARIF rule help)."""

    code: str
    name: str
    summary: str
    help: str = ""


CODES: dict[str, CodeInfo] = {}


def register_code(code: str, name: str, summary: str, help: str = "") -> None:
    """Make a code known to the reporters (SARIF rule descriptions and help); each family registers its own."""
    known = CODES.get(code)
    if known is not None and known.name != name:
        raise ValueError(f"code {code} is already registered as {known.name!r}")
    CODES[code] = CodeInfo(code, name, summary, help)


def unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """`diags` in order without repeats: a board validated on its own and through its variant
    reports each problem once. Two findings at one place with one code but different messages
    are different problems and both stay."""
    seen: set = set()
    out = []
    for d in diags:
        key = (d.path, d.line, d.col, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


class LoadError(Exception):
    """Raised by `load_board` and `load_variant` when a file has errors."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.as_text() for d in diagnostics))


def did_you_mean(word: str, choices: Iterable[object]) -> str:
    """` (did you mean 'x'?)` when a close choice exists (ignoring case), else empty."""
    by_lower: dict[str, str] = {}
    for choice in choices:
        by_lower.setdefault(str(choice).lower(), str(choice))
    word = str(word)
    if len(by_lower) > 500:  # keep suggestions cheap on huge boards: only names of about the same length
        by_lower = {k: v for k, v in by_lower.items() if abs(len(k) - len(word)) <= 2}
    matches = difflib.get_close_matches(str(word).lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean '{by_lower[matches[0]]}'?)" if matches else ""


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)
