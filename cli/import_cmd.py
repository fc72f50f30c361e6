"""`ttr-maps import csv FOLDER -o BOARD.yaml`: draft a board from CSV files."""

from __future__ import annotations

import os
from pathlib import Path

import click


@click.group("import")
def command() -> None:
    """Draft a board from other formats (see `ttr-maps import csv --help`)."""


@command.command("csv")
@click.argument("folder", type=click.Path(file_okay=False, path_type=str))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False, path_type=str), help="Board file to write (never an existing file).")
@click.option("--title", default=None, help="The board's title (default: the folder's name).")
def csv_command(folder: str, out: str, title: str | None) -> None:
    """Draft a board from places.csv, routes.csv and tickets.csv in FOLDER.

    \b
    places.csv (or cities.csv): name, and lat+lon or x+y; optional id, kind (city/country)
    routes.csv: from, to (place names or ids), length, color; optional tunnel (yes/no),
                ferry (locomotives). One row per track: rows with the same ends,
                length, tunnel and ferry make one double route.
    tickets.csv (optional): from, to, points; optional decks (ids separated by spaces)

    Each problem is reported at file:line and nothing is written until the whole
    draft loads as a board; the YAML file is yours to edit afterwards (docs/walkthrough.md).
    """
    from ttr_maps.fileio import OutputError, write_output
    from ttr_maps.importcsv import ImportProblems, board_yaml
    from ttr_maps.load import load
    from ttr_maps.report import render
    from ttr_maps.starter import with_modeline

    if not os.path.isdir(folder):
        raise click.ClickException(f"{folder}: not a folder; name the folder that holds places.csv and routes.csv")
    if os.path.lexists(out):
        raise click.ClickException(f"{out} already exists; choose another file (nothing was written)")
    try:
        text = board_yaml(folder, title or os.path.basename(os.path.abspath(folder)))
    except ImportProblems as e:
        click.echo("\n".join(e.problems), err=True)
        raise click.ClickException(f"{len(e.problems)} problem(s) in the CSV files; nothing was written") from None
    text = with_modeline(text, "board", Path(out).parent)
    loaded = load(out, texts={out: text})
    if not loaded.ok:
        click.echo(render("text", loaded.diagnostics), err=True)
        raise click.ClickException("the draft does not load as a board (problems above, at the lines of the draft); nothing was written")
    try:
        write_output(out, text)
    except OutputError as e:
        raise click.ClickException(str(e)) from None
    assert loaded.board is not None
    b = loaded.board
    click.echo(f"wrote {out}: {len(b.places)} places, {len(b.routes)} routes, {len(b.tickets)} tickets. Next: ttr-maps validate {out}")
