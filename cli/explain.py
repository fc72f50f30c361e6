"""`ttr-maps explain CODE`: print one design check's documentation."""

from __future__ import annotations

import click

from ttr_maps.checks import CHECKS
from ttr_maps.checks.config import normalise
from ttr_maps.checks.docs import header
from ttr_maps.diagnostics import did_you_mean


@click.command("explain")
@click.argument("code")
def command(code: str) -> None:
    """Print what check CODE finds, why it matters, and a failing and a passing example.

    CODE is a check's code (G006) or name (ticket-value-mismatch); `ttr-maps checks` lists them.
    """
    key = normalise(code, CHECKS)
    if key not in CHECKS:
        names = list(CHECKS) + [c.name for c in CHECKS.values()]
        raise click.BadParameter(f"no check '{code}'{did_you_mean(code, names) or did_you_mean(code.upper(), names)}; `ttr-maps checks` lists them", param_hint="CODE")
    check = CHECKS[key]
    click.echo(header(check))
    click.echo()
    click.echo(check.doc)
