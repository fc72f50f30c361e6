"""Every diagnostic code any command prints, with its documentation: `ttr-maps explain CODE`.

The design checks (G, D, B, C) carry their documentation in their modules; the
loader's codes (P, S, R, V), the position file's (Q) and the state file's (T) are
documented in a table row each, `| CODE | name | meaning | fix |`, of docs/codes.md,
docs/scoring.md and docs/engine.md
(tests keep those tables in step with the registries). The docs folder installs with
the package, so this works from a wheel too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import CODES, CodeInfo

#: Code letter -> (what prints it, the doc page holding its table).
DOC_PAGES = {
    "P": ("loading a file: parse", "codes.md"),
    "S": ("loading a file: schema", "codes.md"),
    "R": ("loading a file: references", "codes.md"),
    "V": ("loading a variant file", "codes.md"),
    "Q": ("a position file (`ttr-maps score`)", "scoring.md"),
    "T": ("a game state file (`ttr-maps state`)", "engine.md"),
    "X": ("internal: a part of ttr-maps failed", "codes.md"),
}

# Codes that no family module registers (the studio reports X000 when a check crashes).
OTHER_CODES = {"X000": ("internal-error", "A part of ttr-maps failed on this file instead of reporting a problem.")}


def registered() -> dict[str, CodeInfo]:
    """Every registered code: each family registers its own when imported."""
    from .checks import registry  # noqa: F401
    from .engine import position_file, statefile  # noqa: F401
    from .diagnostics import register_code
    from .load import codes  # noqa: F401

    for code, (name, summary) in OTHER_CODES.items():
        register_code(code, name, summary)
    return dict(sorted(CODES.items()))


@dataclass(frozen=True)
class DocRow:
    meaning: str
    fix: str
    page: str


def doc_row(code: str) -> DocRow | None:
    """The code's row of its doc page, or None."""
    from .bundled import data_dir

    family = DOC_PAGES.get(code[:1])
    if family is None:
        return None
    page = family[1]
    try:
        text = (data_dir("docs") / page).read_text(encoding="utf-8")
    except (OSError, FileNotFoundError):
        return None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] == code:  # the fix column is optional
            return DocRow(cells[2], cells[3] if len(cells) >= 4 else "", f"docs/{page}")
    return None


def find(query: str) -> list[str]:
    """The codes a query names: a code (any case) or a name (several families share some names)."""
    codes = registered()
    if query.upper() in codes:
        return [query.upper()]
    return [code for code, info in codes.items() if info.name == query.lower()]


def explain_text(code: str) -> str:
    """What a loader or position-file code means and how to fix it (checks: see ttr_maps.checks.docs)."""
    info = registered()[code]
    row = doc_row(code)
    meaning = row.meaning if row else info.summary
    severity = "warning" if "(warning)" in meaning or "(warning" in info.summary else "error"
    where = DOC_PAGES.get(code[:1], ("", ""))[0]
    lines = [f"{code} {info.name} ({where}; {severity})", "", meaning.replace("(warning) ", "")]
    if row and row.fix not in ("", "—", "-"):
        lines += ["", f"Fix: {row.fix}"]
    if row:
        lines += ["", f"See {row.page}."]
    return "\n".join(lines)
