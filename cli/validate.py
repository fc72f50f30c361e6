"""`ttr-maps validate FILE...`"""

from __future__ import annotations

import click

from ttr_maps.diagnostics import Severity, unique
from ttr_maps.load import load
from ttr_maps.report import render

from .checks import check_options, run_selected
from .options import format_option


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, path_type=str))
@format_option
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@check_options
def command(files: tuple[str, ...], fmt: str, strict: bool, select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Validate board and variant files (a variant also validates its board), then run the design checks.

    Each problem is printed as `path:line:col: severity CODE message` (codes: docs/codes.md).

    \b
    Exit codes:
      0 clean (warnings allowed unless --strict)
      1 problems found
      2 usage error
    """
    diags = []
    for path in files:
        loaded = load(path)
        diags += loaded.diagnostics + run_selected(loaded, select, ignore)
    diags = unique(diags)
    out = render(fmt, diags)
    if out:
        click.echo(out)
    elif fmt == "text":
        click.echo(f"{len(files)} file(s) OK")
    bad = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    if any(d.severity in bad for d in diags):
        raise SystemExit(1)
