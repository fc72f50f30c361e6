"""What a check is: a module with a stable code, a name, a default severity, options and a `check` generator.

A check module defines

- `CODE` (e.g. `G004`: family letter G graph, D drawing, B balance, and a number),
- `NAME` naming the bad pattern (`ticket-end-unreachable`),
- `SEVERITY` (the default; configuration may override it),
- `OPTIONS` (name -> default value),
- `NEEDS_VARIANT` (True when the check only makes sense with a rule set),
- `check(ctx, options)` yielding `Finding`s,

and its module docstring is its documentation: the first line says what it
finds, the rest why it matters, with a failing and a passing example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterator, Literal

from ..diagnostics import Severity

FAMILIES = {"G": "graph", "D": "geometry (drawing)", "B": "balance", "C": "check settings"}

#: Findings listed per check and file; the rest are summed up in one finding (`max_findings` in ttr-maps.toml).
MAX_FINDINGS = 50


@dataclass(frozen=True)
class Finding:
    """One problem a check found, at a data path of the board (or the variant) file."""

    loc: tuple[Any, ...]
    message: str
    file: Literal["board", "variant"] = "board"
    key: bool = False


@dataclass(frozen=True)
class More:
    """Findings a check counted but did not build (past `Context.max_findings`), summed up in one finding.

    `loc` is where the first of them is. `stopped` says the check gave up before
    looking at everything (a pathological board), so `count` is a lower bound.
    """

    count: int
    loc: tuple[Any, ...]
    file: Literal["board", "variant"] = "board"
    stopped: bool = False


@dataclass(frozen=True)
class Check:
    code: str
    name: str
    severity: Severity
    options: dict[str, Any]
    needs_variant: bool
    run: Callable[..., Iterator[Finding | More]] = field(repr=False)
    doc: str = field(repr=False)

    @classmethod
    def from_module(cls, module: ModuleType) -> Check:
        return cls(
            code=module.CODE,
            name=module.NAME,
            severity=Severity(module.SEVERITY),
            options=dict(getattr(module, "OPTIONS", {})),
            needs_variant=bool(getattr(module, "NEEDS_VARIANT", False)),
            run=module.check,
            doc=(module.__doc__ or "").strip(),
        )

    @property
    def family(self) -> str:
        return FAMILIES[self.code[0]]

    @property
    def summary(self) -> str:
        return self.doc.splitlines()[0].strip() if self.doc else ""
