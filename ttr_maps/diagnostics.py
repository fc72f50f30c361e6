"""Diagnostics: every problem found in a user's file, at `path:line:col`, with a stable code."""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Iterable


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
        return f"{self.path}:{self.line}:{self.col}: {self.severity.value} {self.code} {self.message}"

    def as_dict(self) -> dict:
        d = asdict(self)
        d["severity"] = self.severity.value
        return d


class LoadError(Exception):
    """Raised by the `load_*_or_raise` helpers when a file has errors."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.as_text() for d in diagnostics))


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` when a close choice exists, else empty."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{matches[0]}'?)" if matches else ""


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)
