"""Design checks: graph, geometry and balance lints with stable codes.

`run_checks(loaded)` runs the selected checks on a file that loaded clean and
returns Diagnostics at the line and column of the thing at fault. The checks
live one per module under `graph/` (G), `geometry/` (D, drawing) and
`balance/` (B); `registry.CHECKS` lists them; `config` decides which run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..diagnostics import Diagnostic
from ..load.loader import Loaded
from .base import Check, Finding
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


def run_checks(loaded: Loaded, select: Iterable[str] | None = None, ignore: Iterable[str] = (), *, config: str | Path | bool = True, settings: Settings | None = None) -> list[Diagnostic]:
    """Run the selected checks on a file that loaded without errors (else return nothing).

    A variant runs the checks on its board with its rules. Raises SelectorError
    for an unknown selector in `select` or `ignore`.
    """
    if not loaded.ok or loaded.board is None or loaded.kind not in ("board", "variant"):
        return []
    if loaded.kind == "variant" and loaded.variant is None:
        return []
    settings = settings or settings_for(loaded, select, ignore, config=config)
    board_src = loaded.board_source if loaded.kind == "variant" else loaded.source
    variant_src = loaded.source if loaded.kind == "variant" else None
    ctx = Context(loaded.board, loaded.variant, board_source=board_src, variant_source=variant_src)
    out = list(settings.diagnostics)
    for code, check in CHECKS.items():
        if not settings.enabled(code) or (check.needs_variant and ctx.variant is None):
            continue
        severity = settings.severity(code)
        options = settings.options_for(code)
        for finding in check.run(ctx, options):
            src = board_src if finding.file == "board" else variant_src
            if src is None:
                continue
            out.append(src.diag(finding.loc, code, finding.message, severity, key=finding.key, name=check.name))
    return out
