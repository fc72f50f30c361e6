"""`ttr-maps checks`: list the design checks (or print their reference as Markdown).

Also the `--select`/`--ignore` options that `validate` shares.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

# ttr_maps.checks is imported where it is used: it brings the models (pydantic).


def _selectors(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...] | None:
    if any(not v.replace(",", "").strip() for v in value):  # `--select ''` would quietly run nothing
        raise click.BadParameter("give at least one check: a code, a prefix or a name (e.g. G,D003)")
    from ttr_maps.checks import CHECKS, SelectorError, parse_selectors

    try:
        parse_selectors(value, CHECKS)
    except SelectorError as e:
        raise click.BadParameter(str(e)) from None
    return value


def check_options(f):
    """`--select` and `--ignore`, validated up front (an unknown code is a usage error)."""
    f = click.option("--ignore", multiple=True, metavar="CODES", callback=_selectors, help="Skip these checks: codes, prefixes or names, comma-separated (e.g. D002,B).")(f)
    f = click.option("--select", multiple=True, metavar="CODES", callback=_selectors, help="Run only these checks: codes, prefixes or names, comma-separated (e.g. G,D003). Default: all.")(f)
    return f


def run_selected(loaded, select: tuple[str, ...], ignore: tuple[str, ...], *, cache: bool = False) -> list:
    """The check findings for one loaded file (nothing if it has load errors); `cache`: reuse the
    findings of an unchanged file (`ttr_maps.checks.cache`)."""
    from ttr_maps.checks import run_checks

    return run_checks(loaded, select or None, ignore, cache=cache)


@click.command("checks")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the full reference as Markdown (docs/checks.md).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="With --markdown: write to this file.")
def command(as_json: bool, as_markdown: bool, output: Path | None) -> None:
    """List the design checks that `validate` runs: code, default severity, name and what each finds.

    `ttr-maps explain CODE` prints one check's documentation.
    """
    from ttr_maps.checks import CHECKS
    from ttr_maps.checks.docs import markdown
    from ttr_maps.fileio import write_atomic

    if output is not None and not as_markdown:
        raise click.UsageError("-o/--output needs --markdown")
    if as_markdown:
        text = markdown(CHECKS)
        if output is None:
            click.echo(text, nl=False)
        else:
            try:
                write_atomic(output, text)
            except OSError as e:
                raise click.ClickException(f"cannot write {output}: {e.strerror or e}") from None
            click.echo(f"wrote {output}")
        return
    if as_json:
        rows = [
            {"code": c.code, "name": c.name, "severity": c.severity.value, "family": c.family, "summary": c.summary, "options": c.options, "needs_variant": c.needs_variant}
            for c in CHECKS.values()
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(c.name) for c in CHECKS.values())
    for c in CHECKS.values():
        click.echo(f"{c.code}  {c.severity.value:<7}  {c.name:<{width}}  {c.summary}")
