"""Options shared by several commands."""

from __future__ import annotations

import click

from ttr_maps.report import REPORTERS

class FiniteFloatRange(click.FloatRange):
    """click's FloatRange, which lets `nan` through (every comparison with it is false), without it."""

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if rv != rv:  # NaN
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}.", param, ctx)
        return rv


format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(REPORTERS)),
    default="text",
    show_default=True,
    help="How to print diagnostics: text (path:line:col), json, github (workflow annotations) or sarif.",
)


def fail_on_load_errors(loaded) -> None:
    """Print a loaded file's diagnostics and exit 1 when it has errors."""
    from ttr_maps.report import render

    if not loaded.ok:
        click.echo(render("text", loaded.diagnostics), err=True)
        raise SystemExit(1)
