"""`ttr-maps new NAME`: start a board: NAME.yaml and NAME-rules.yaml, ready to validate and simulate."""

from __future__ import annotations

import os
import re

import click


def _sources() -> list[str]:
    from ttr_maps.bundled import names

    return ["blank", *names("variants")]


@click.command("new")
@click.argument("name")
@click.option("--from", "source", default="blank", show_default=True, metavar="STARTER",
              help="blank (a small playable board of our own) or a bundled variant to copy with its board (usa, europe, ...; `ttr-maps boards`).")
def command(name: str, source: str) -> None:
    """Write a board NAME.yaml and its rules NAME-rules.yaml to start from.

    Both validate clean and can be simulated at once; they start with the schema line
    that gives editors completion. NAME may include a folder (boards/my-board). Files
    that exist are never overwritten.
    """
    from ttr_maps.diagnostics import did_you_mean
    from ttr_maps.fileio import write_atomic
    from ttr_maps.starter import starter_files

    sources = _sources()
    if source not in sources:
        raise click.BadParameter(f"'{source}'{did_you_mean(source, sources)}; choose one of {', '.join(sources)}", param_hint="--from")
    stem = os.path.basename(name).removesuffix(".yaml")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", stem):
        raise click.BadParameter(f"'{stem}' is not a usable name; use letters, digits, '-' and '_' (e.g. my-board)", param_hint="NAME")
    folder = os.path.dirname(name) or "."
    if not os.path.isdir(folder):
        raise click.ClickException(f"folder '{folder}' not found; create it first")
    files = starter_files(name, source)
    taken = [str(p) for p in files if os.path.lexists(p)]
    if taken:
        raise click.ClickException(f"{' and '.join(taken)} already exist(s); choose another NAME (nothing was written)")
    written = []
    try:
        for path, text in files.items():
            write_atomic(path, text, make_dirs=False)
            written.append(path)
    except OSError as e:
        for path in written:
            path.unlink(missing_ok=True)
        raise click.ClickException(f"cannot write {e.filename or folder}: {e.strerror or e}") from None
    board, rules = (str(p) for p in files)
    click.echo(f"wrote {board} (the board) and {rules} (its rules), from '{source}'. Next:")
    click.echo(f"  ttr-maps validate {rules}            # both files: every problem at file:line:col")
    click.echo(f"  ttr-maps render {rules} -o {os.path.splitext(board)[0]}.svg")
    click.echo(f"  ttr-maps simulate {rules} -n 50      # bots play it; a report on the board")
    click.echo("docs/walkthrough.md builds a board step by step; docs/format.md describes every key.")
