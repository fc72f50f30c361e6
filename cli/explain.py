"""`ttr-maps explain CODE`: what any code ttr-maps prints means, and how to fix it."""

from __future__ import annotations

import click


@click.command("explain")
@click.argument("code")
def command(code: str) -> None:
    """Print what CODE means and how to fix it; for a design check, a failing and a passing example.

    CODE is any code ttr-maps prints (R002, S005, G006, Q015, ...) or its name
    (ticket-value-mismatch); `ttr-maps checks` lists the design checks, docs/codes.md
    the loader's codes and docs/scoring.md the position file's.
    """
    from ttr_maps.checks import CHECKS
    from ttr_maps.checks.config import normalise
    from ttr_maps.checks.docs import header
    from ttr_maps.codes import explain_text, find, registered
    from ttr_maps.diagnostics import did_you_mean

    key = normalise(code, CHECKS)
    if key in CHECKS:
        check = CHECKS[key]
        click.echo(header(check))
        click.echo()
        click.echo(check.doc)
        return
    found = find(code)
    if not found:
        names = list(registered()) + [c.name for c in registered().values()]
        hint = did_you_mean(code, names) or did_you_mean(code.upper(), names)
        raise click.BadParameter(f"no code '{code}'{hint}; `ttr-maps checks` lists the design checks, docs/codes.md the others", param_hint="CODE")
    click.echo("\n\n".join(explain_text(c) for c in found))
