"""`ttr-maps compare A B`: what a change to a board did, from two simulate output folders."""

from __future__ import annotations

import json

import click


@click.command("compare")
@click.argument("report_a", metavar="REPORT_A", type=click.Path(path_type=str))
@click.argument("report_b", metavar="REPORT_B", type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Readable tables, or JSON for scripts.")
@click.option("--all", "show_all", is_flag=True, help="List every ticket and route, not only the significant differences.")
def command(report_a: str, report_b: str, fmt: str, show_all: bool) -> None:
    """Compare two `ttr-maps simulate` outputs: win rates, game length, ticket completion and route claim rates.

    Differences are B - A; p-values come from two-proportion z-tests (rates) and
    Welch's t-test (means); * marks p < 0.05. Exit codes: 0 done, 1 unreadable folder, 2 usage error.
    """
    from ttr_maps.simulate.compare import compare, render_text
    from ttr_maps.simulate.output import OutputError, load_summary

    try:
        a = load_summary(report_a)
        b = load_summary(report_b)
    except OutputError as e:
        raise click.ClickException(str(e)) from None
    result = compare(a, b)
    if fmt == "json":
        click.echo(json.dumps(result, indent=1, ensure_ascii=False))
    else:
        click.echo(render_text(result, report_a, report_b, show_all))
