"""Which checks run and at what severity: command-line selection, `ttr-maps.toml`, and a file's `checks:`.

Precedence, lowest first: a check's default severity; `ttr-maps.toml` (the
nearest one from the checked file's folder upwards); the board's `checks:`;
the variant's `checks:`. Within one source the most specific key wins (`G007`
over `G`). `--select` replaces the config's `select`; `--ignore` adds to its
`ignore`. Selectors are codes, code prefixes (`G`, `D00`) or check names.
"""

from __future__ import annotations

import math

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..diagnostics import Diagnostic, Severity, did_you_mean
from ..load.source import Source
from .base import MAX_FINDINGS, Check

CONFIG_NAME = "ttr-maps.toml"
LEVELS = ("off", "error", "warning", "info")
BAD_SETTING = ("C001", "invalid-check-setting")
SETTINGS_CODES = frozenset({BAD_SETTING[0]})


class SelectorError(ValueError):
    """A selector that names no check (raised for command-line input)."""


def normalise(selector: str, checks: Mapping[str, Check]) -> str | None:
    """The code prefix a selector stands for, or None when it matches no check."""
    s = selector.strip()
    for c in checks.values():
        if s == c.name:
            return c.code
    s = s.upper()
    if s and any(code.startswith(s) for code in checks):
        return s
    return None


def parse_selectors(values: Iterable[str], checks: Mapping[str, Check]) -> list[str]:
    """Split comma-separated selectors and normalise them; raise SelectorError for an unknown one."""
    out = []
    for value in values:
        for part in value.split(","):
            if not part.strip():
                continue
            code = normalise(part, checks)
            if code is None:
                names = list(checks) + [c.name for c in checks.values()]
                raise SelectorError(f"unknown check '{part.strip()}'{did_you_mean(part.strip(), names)}; see `ttr-maps checks`")
            out.append(code)
    return out


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


@dataclass
class Settings:
    """The resolved selection: what runs, at which severity, with which options."""

    checks: Mapping[str, Check]
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    levels: list[dict[str, str]] = field(default_factory=list)  # one {prefix: level} per source, lowest first
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    max_findings: int = MAX_FINDINGS  # per check and file; 0: no limit
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def level(self, code: str) -> str:
        level = self.checks[code].severity.value
        for source in self.levels:
            keys = [k for k in source if code.startswith(k)]
            if keys:
                level = source[max(keys, key=len)]
        return level

    def enabled(self, code: str) -> bool:
        # `select` picks design checks; the settings' own findings (C) show unless ignored or off.
        if self.select is not None and not _matches(code, self.select) and code not in SETTINGS_CODES:
            return False
        return not _matches(code, self.ignore) and self.level(code) != "off"

    def severity(self, code: str) -> Severity:
        return Severity(self.level(code))

    def options_for(self, code: str) -> dict[str, Any]:
        return {**self.checks[code].options, **self.options.get(code, {})}


def find_config(start: str | Path) -> Path | None:
    """The nearest `ttr-maps.toml` in `start` (a file's folder) or a folder above it."""
    folder = Path(start).resolve()
    for d in (folder, *folder.parents):
        candidate = d / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def file_levels(src: Source | None, mapping: Mapping[str, str], checks: Mapping[str, Check], out: list[Diagnostic]) -> dict[str, str]:
    """A board's or variant's `checks:` mapping as {prefix: level}; bad entries become C001 diagnostics."""
    levels: dict[str, str] = {}
    for key, value in mapping.items():
        code = normalise(key, checks)
        if code is None:
            if src is not None:
                names = list(checks) + [c.name for c in checks.values()]
                out.append(src.diag(("checks", key), *BAD_SETTING[:1], f"unknown check '{key}'{did_you_mean(key, names)}; see `ttr-maps checks`", key=True, name=BAD_SETTING[1]))
            continue
        if value not in LEVELS:
            if src is not None:
                out.append(src.diag(("checks", key), BAD_SETTING[0], f"'{value}' is not a check setting; use one of {', '.join(LEVELS)}{did_you_mean(str(value), LEVELS)}", name=BAD_SETTING[1]))
            continue
        levels[code] = value
    return levels


def _toml_pos(text: str, key: str) -> tuple[int, int]:
    pattern = re.compile(rf'^\s*(?:"{re.escape(key)}"|\'{re.escape(key)}\'|{re.escape(key)})\s*=', re.MULTILINE)
    m = pattern.search(text)
    if not m:
        header = re.search(rf"^\s*\[[^\]]*\b{re.escape(key)}\b[^\]]*\]", text, re.MULTILINE)
        m = header
    if not m:
        return (1, 1)
    line = text.count("\n", 0, m.start()) + 1
    col = len(m.group(0)) - len(m.group(0).lstrip()) + 1
    return (line, col)


def read_config(path: Path, checks: Mapping[str, Check], settings: Settings) -> None:
    """Apply a `ttr-maps.toml` to `settings`; every problem becomes a C001 diagnostic at its line."""
    ps = str(path)

    def bad(message: str, key: str = "", pos: tuple[int, int] | None = None) -> None:
        line, col = pos or (_toml_pos(text, key) if key else (1, 1))
        settings.diagnostics.append(Diagnostic(ps, line, col, Severity.ERROR, BAD_SETTING[0], message, BAD_SETTING[1]))

    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as e:
        text = ""
        bad(f"cannot read {CONFIG_NAME}: {getattr(e, 'strerror', None) or e}")
        return
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        bad(f"TOML syntax error: {str(e).split(' (at')[0]}", pos=(int(m.group(1)), int(m.group(2))) if m else (1, 1))
        return
    section = data.get("checks", {})
    if not isinstance(section, dict):
        bad("`checks` must be a table: [checks]", "checks")
        return
    names = list(checks) + [c.name for c in checks.values()]
    levels: dict[str, str] = {}
    for key, value in section.items():
        if key in ("select", "ignore"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                bad(f"`{key}` must be a list of check codes or prefixes, e.g. [\"G\", \"D003\"]", key)
                continue
            try:
                selectors = parse_selectors(value, checks)
            except SelectorError as e:
                bad(str(e), key)
                continue
            if key == "select":
                settings.select = selectors
            else:
                settings.ignore.extend(selectors)
        elif key == "options":
            _read_options(value, checks, settings, bad)
        elif key == "max_findings":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                bad(f"`max_findings` must be a whole number of findings per check, like {MAX_FINDINGS} (0: no limit)", key)
            else:
                settings.max_findings = value
        else:
            code = normalise(key, checks)
            if code is None:
                bad(f"unknown key '{key}' in [checks]{did_you_mean(key, names + ['select', 'ignore', 'options', 'max_findings'])}; use select, ignore, options, max_findings or a check code", key)
            elif value not in LEVELS:
                bad(f"'{value}' is not a check setting; use one of {', '.join(LEVELS)}", key)
            else:
                levels[code] = value
    settings.levels.insert(0, levels)


def _read_options(value: Any, checks: Mapping[str, Check], settings: Settings, bad: Any) -> None:
    if not isinstance(value, dict):
        bad("[checks.options] must be a table of tables, e.g. [checks.options.G007]", "options")
        return
    for key, opts in value.items():
        code = normalise(key, checks)
        if code is None or code not in checks:
            bad(f"options for unknown check '{key}'; name one check by its code, e.g. G007", key)
            continue
        if not isinstance(opts, dict):
            bad(f"[checks.options.{key}] must be a table of option = value", key)
            continue
        defaults = checks[code].options
        for name, v in opts.items():
            if name not in defaults:
                allowed = ", ".join(defaults) or "(none)"
                bad(f"{code} has no option '{name}'{did_you_mean(name, defaults)}; its options: {allowed}", name)
                continue
            d = defaults[name]
            ok = isinstance(v, bool) if isinstance(d, bool) else (
                isinstance(v, (int, float)) and not isinstance(v, bool) and (isinstance(d, float) or isinstance(v, int))
            ) if isinstance(d, (int, float)) else isinstance(v, type(d))
            if not ok or (isinstance(v, (int, float)) and not isinstance(v, bool) and not 0 <= v < math.inf):  # also NaN
                bad(f"{code} option '{name}' must be a {'non-negative ' if isinstance(d, (int, float)) and not isinstance(d, bool) else ''}{type(d).__name__} like {d!r}", name)
                continue
            settings.options.setdefault(code, {})[name] = float(v) if isinstance(d, float) else v
