"""Reporters for diagnostics: text, json, github (workflow annotations), sarif. A registry feeds `--format`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import quote

from . import __version__
from .diagnostics import CODES, Diagnostic, Severity

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def text(diags: list[Diagnostic]) -> str:
    """`path:line:col: severity CODE message` lines and a count (line and col 0: the whole file)."""
    lines = [d.as_text() for d in diags]
    errors = sum(d.severity is Severity.ERROR for d in diags)
    warnings = sum(d.severity is Severity.WARNING for d in diags)
    infos = len(diags) - errors - warnings
    if errors or warnings:
        lines.append(f"{errors} error(s), {warnings} warning(s)" + (f", {infos} info" if infos else ""))
    elif infos:
        lines.append(f"{infos} info note(s), nothing to fix")
    return "\n".join(lines)


def as_json(diags: list[Diagnostic]) -> str:
    """A JSON list of diagnostics: path, line, col, severity, code, message, name."""
    return json.dumps([d.as_dict() for d in diags], indent=2, ensure_ascii=False)


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def github(diags: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands, shown as annotations on the pull request's files."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    for d in diags:
        where = f"file={_gh_escape(d.path, True)}"
        if d.line > 0:
            where += f",line={d.line},col={max(d.col, 1)}"
        title = f"{d.code} {d.name}".strip()
        out.append(f"::{level[d.severity]} {where},title={_gh_escape(title, True)}::{_gh_escape(d.message)}")
    return "\n".join(out)


def _uri(path: str) -> str:
    """A SARIF artifact URI: relative paths stay relative (to the working folder), others become file URIs."""
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(Path(path).as_posix())


def sarif(diags: list[Diagnostic]) -> str:
    """A SARIF 2.1.0 log with one run, a rule per code met, and a result per diagnostic."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    rule_ids = sorted({d.code for d in diags})
    index = {code: i for i, code in enumerate(rule_ids)}
    names = {d.code: d.name for d in diags}
    rules = []
    for code in rule_ids:
        info = CODES.get(code)
        name = info.name if info else (names[code] or code)
        rule: dict = {"id": code, "name": name, "shortDescription": {"text": info.summary if info else name}}
        if info and info.help:
            # The documentation before its "Why" paragraph says what the rule finds; all of it is the help.
            what = info.help.split("\nWhy")[0].strip()
            rule["fullDescription"] = {"text": what, "markdown": what}
            rule["help"] = {"text": info.help, "markdown": info.help}
        rules.append(rule)
    results = []
    for d in diags:
        location: dict = {"artifactLocation": {"uri": _uri(d.path)}}
        if d.line > 0:
            location["region"] = {"startLine": d.line, "startColumn": max(d.col, 1)}
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": level[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ttr-maps",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


REPORTERS: dict[str, Callable[[list[Diagnostic]], str]] = {"text": text, "json": as_json, "github": github, "sarif": sarif}


def render(fmt: str, diags: Iterable[Diagnostic]) -> str:
    """The diagnostics in `fmt`, sorted by file, line, column and code."""
    return REPORTERS[fmt](sorted(diags))
