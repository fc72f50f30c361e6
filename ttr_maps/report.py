"""Reporters for diagnostics: text, json, github (workflow annotations), sarif. A registry feeds `--format`."""

from __future__ import annotations

import json
from typing import Callable, Iterable

from . import __version__
from .diagnostics import Diagnostic, Severity


def text(diags: list[Diagnostic]) -> str:
    lines = [d.as_text() for d in diags]
    errors = sum(d.severity is Severity.ERROR for d in diags)
    warnings = sum(d.severity is Severity.WARNING for d in diags)
    if diags:
        lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def as_json(diags: list[Diagnostic]) -> str:
    return json.dumps([d.as_dict() for d in diags], indent=2, ensure_ascii=False)


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def github(diags: list[Diagnostic]) -> str:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    for d in diags:
        out.append(
            f"::{level[d.severity]} file={_gh_escape(d.path, True)},line={max(d.line, 1)},col={max(d.col, 1)},"
            f"title={_gh_escape(d.code, True)}::{_gh_escape(d.message)}"
        )
    return "\n".join(out)


def sarif(diags: list[Diagnostic]) -> str:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    rules: dict[str, dict] = {}
    for d in diags:
        rules.setdefault(d.code, {"id": d.code, "name": d.name or d.code, "shortDescription": {"text": d.name or d.code}})
    results = []
    for d in diags:
        region = {"startLine": max(d.line, 1), "startColumn": max(d.col, 1)}
        results.append(
            {
                "ruleId": d.code,
                "level": level[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": d.path}, "region": region}}],
            }
        )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "ttr-maps", "version": __version__, "rules": sorted(rules.values(), key=lambda r: r["id"])}},
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


REPORTERS: dict[str, Callable[[list[Diagnostic]], str]] = {"text": text, "json": as_json, "github": github, "sarif": sarif}


def render(fmt: str, diags: Iterable[Diagnostic]) -> str:
    return REPORTERS[fmt](sorted(diags))
