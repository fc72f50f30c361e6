"""Design checks: graph, geometry and balance lints with stable codes.

`run_checks(loaded)` runs the selected checks on a file that loaded clean and
returns Diagnostics at the line and column of the thing at fault. The checks
live one per module under `graph/` (G), `geometry/` (D, drawing) and
`balance/` (B); `registry.CHECKS` lists them; `config` decides which run.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from ..diagnostics import Diagnostic
from ..load.loader import Loaded
from .base import Check, Finding, More
from .cache import Findings
from .config import CONFIG_NAME, SelectorError, Settings, file_levels, find_config, parse_selectors, read_config
from .context import Context
from .registry import CHECKS

__all__ = ["CHECKS", "CONFIG_NAME", "Check", "Context", "Finding", "SelectorError", "Settings", "parse_selectors", "run_checks", "settings_for"]


def settings_for(loaded: Loaded, select: Iterable[str] | None = None, ignore: Iterable[str] = (), *, config: str | Path | bool = True) -> Settings:
    """The selection for one loaded file: `ttr-maps.toml` (`config=True`: the nearest from the file's
    folder upwards; a path: that file; False: none), then the board's and the variant's `checks:`,
    then the selectors given here (from the command line)."""
    settings = Settings(CHECKS)
    if config is True:
        path = find_config(Path(loaded.path).parent)
    else:
        path = Path(config) if config is not False else None
    if path is not None:
        read_config(path, CHECKS, settings)
    board_src = loaded.board_source if loaded.kind == "variant" else loaded.source
    if loaded.board is not None:
        settings.levels.append(file_levels(board_src, loaded.board.checks, CHECKS, settings.diagnostics))
    if loaded.variant is not None:
        settings.levels.append(file_levels(loaded.source, loaded.variant.checks, CHECKS, settings.diagnostics))
    if select is not None:
        settings.select = parse_selectors(select, CHECKS)
    settings.ignore.extend(parse_selectors(ignore, CHECKS))
    return settings


def run_checks(loaded: Loaded, select: Iterable[str] | None = None, ignore: Iterable[str] = (), *, config: str | Path | bool = True,
               settings: Settings | None = None, cache: bool = False, drawing: Any = None) -> list[Diagnostic]:
    """Run the selected checks on a file that loaded without errors (else return nothing).

    A variant runs the checks on its board with its rules. Raises SelectorError
    for an unknown selector in `select` or `ignore`. With `cache`, findings come from (and go to)
    the on-disk cache of `checks.cache` where the file, the options and the code are unchanged.
    `drawing` is the board's layout (`render.plan_board(loaded.board, ...)`, of these very
    objects) when the caller has made it already (the studio): the checks of the drawn board
    read it instead of laying the board out again.
    """
    if not loaded.ok or loaded.board is None or loaded.kind not in ("board", "variant"):
        return []
    if loaded.kind == "variant" and loaded.variant is None:
        return []
    settings = settings or settings_for(loaded, select, ignore, config=config)
    board_src = loaded.board_source if loaded.kind == "variant" else loaded.source
    variant_src = loaded.source if loaded.kind == "variant" else None
    limit = settings.max_findings or 10**12
    stored = Findings(loaded, limit) if cache else None
    ctx: Context | None = None  # built only when a check has to run (its drawing brings numpy and shapely)
    # The settings' own findings (C001), unless ignored, at the severity configured for them.
    out = [replace(d, severity=settings.severity(d.code)) for d in settings.diagnostics if settings.enabled(d.code)]
    for code, check in CHECKS.items():
        if not settings.enabled(code) or (check.needs_variant and loaded.variant is None):
            continue
        severity = settings.severity(code)
        options = settings.options_for(code)
        findings = stored.get(code, options) if stored is not None else None
        if findings is None:
            if ctx is None:
                ctx = Context(loaded.board, loaded.variant, board_source=board_src, variant_source=variant_src)
                ctx.max_findings = limit
                if drawing is not None and drawing.board is loaded.board:
                    ctx.drawing = drawing  # the layout the checks would make (routes and names do not depend on the rules)
            findings = list(check.run(ctx, options))
            if stored is not None:
                stored.put(code, options, findings)
        listed, hidden, first, stopped = 0, 0, None, False
        for finding in findings:
            src = board_src if finding.file == "board" else variant_src
            if src is None:
                continue
            if isinstance(finding, More):
                hidden += finding.count
                stopped = stopped or finding.stopped
                first = first or finding
            elif listed >= limit:
                hidden += 1
                first = first or finding
            else:
                listed += 1
                out.append(src.diag(finding.loc, code, finding.message, severity, key=finding.key, name=check.name))
        if first is not None:
            src = board_src if first.file == "board" else variant_src
            out.append(src.diag(first.loc, code, _summary(check, listed, hidden, stopped), severity, name=check.name))
    if stored is not None:
        stored.save()
    return out


def _summary(check: Check, listed: int, hidden: int, stopped: bool) -> str:
    """The message of the finding that stands for the findings of a check past `max_findings`."""
    what = f"{check.name} findings"
    if stopped:
        more = f"at least {hidden:,} more {what}" if hidden else f"possibly more {what}"
        why = "; the check stopped early, the board has too many overlapping shapes to look at them all"
    else:
        more, why = f"{hidden:,} more {what}", ""
    return (
        f"{more} from here on are not listed (only the first {listed:,} are){why}; "
        f"fix those first, or raise `max_findings` under [checks] in {CONFIG_NAME}"
    )
