"""`ttr-maps stats BOARD [--variant V]`"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click


from .options import fail_on_load_errors


@click.command("stats")
@click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=True, path_type=str))
@click.option("-v", "--variant", "variant_file", type=click.Path(dir_okay=True, path_type=str), help="A variant of this board: adds cards per colour against spaces and trains against the board.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Readable tables, or JSON for scripts.")
def command(board_file: str, variant_file: str | None, fmt: str) -> None:
    """Figures of a board: places, tracks, spaces by colour and length, ferries, tunnels,
    tickets per deck, degree of each place and the shortest path of every ticket.

    BOARD may also be a variant file, which is the same as giving its board with --variant.
    Exit codes: 0 done, 1 the file has errors, 2 usage error.
    """
    from ttr_maps.load import load
    from ttr_maps.stats import render_text, stats

    loaded = load(board_file)
    fail_on_load_errors(loaded)
    variant = loaded.variant
    board = loaded.board
    if variant_file is not None:
        if variant is not None:
            raise click.UsageError(f"{board_file} is a variant, not a board; name a board file as BOARD to use --variant, or drop --variant")
        other = load(variant_file)
        fail_on_load_errors(other)
        if other.kind != "variant" or other.variant is None:
            raise click.ClickException(f"{variant_file} is a board, not a variant (format ttr-variant/1)")
        if other.board_path is None or Path(other.board_path).resolve() != Path(board_file).resolve():
            raise click.ClickException(
                f"{variant_file} is a variant of {os.path.normpath(other.board_path or '?')}, not of {board_file}; "
                f"run `ttr-maps stats {variant_file}` to see it with its own board"
            )
        variant = other.variant
    assert board is not None
    figures = stats(board, variant)
    if fmt == "json":
        click.echo(json.dumps(figures, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(board, figures))
