"""`ttr-maps print FILE -o game.pdf`"""

from __future__ import annotations

import click

from .options import FiniteFloatRange, fail_on_load_errors

PARTS = ("board", "tickets", "trains", "summary", "rules")


def _parts(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise click.BadParameter(f"use a comma-separated list of {', '.join(PARTS)} (got '{value}')")
    return parts


@click.command("print")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True, path_type=str),
              help="PDF file to write.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default="a4", show_default=True, help="Paper size.")
@click.option("--car-mm", type=FiniteFloatRange(5, 100), default=24.0, show_default=True,
              help="Length of one route space in millimetres; the board's printed size follows from it.")
@click.option("--parts", default=",".join(PARTS), show_default=True, callback=_parts,
              help="What to include: a comma-separated list of board, tickets, trains, summary, rules.")
@click.option("--card-size", type=click.Choice(["poker", "mini"]), default="poker", show_default=True,
              help="Card size: poker 63x88 mm or mini 44x68 mm.")
@click.option("--one-of-each", is_flag=True, help="Print one train card of each kind instead of the whole deck.")
@click.option("--colorblind/--no-colorblind", default=True, show_default=True,
              help="Print a letter on every coloured space and card.")
@click.option("--score-track/--no-score-track", default=True, show_default=True, help="Numbered score track around the board.")
def command(file: str, output: str, paper: str, car_mm: float, parts: tuple[str, ...], card_size: str,
            one_of_each: bool, colorblind: bool, score_track: bool) -> None:
    """Make a print-and-play PDF: the board at real size tiled over pages, the cards on cut sheets, the rules.

    FILE is a variant (everything) or a board (board, tickets and train cards;
    the summary cards and the rules page need a variant).
    """
    from ttr_maps.fileio import OutputError, check_output, write_output
    from ttr_maps.limits import DRAWING, refusal
    from ttr_maps.load import load
    from ttr_maps.render import PrintOptions, build_pdf

    try:
        check_output(output, suffix=".pdf")
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None
    loaded = load(file)
    if car_mm < 10:
        click.echo(f"note: at --car-mm {car_mm:g} most text on the board is under {car_mm * 0.17:.1f} mm tall (place names are "
                   f"kept at 1.6 mm at least); 10 or more keeps it readable", err=True)
    fail_on_load_errors(loaded)
    if loaded.board is None:  # pragma: no cover - load reports this as an error
        raise click.ClickException(f"{file}: no board found")
    if not DRAWING.allows(loaded.board):
        raise click.ClickException(refusal(file, loaded.board, "print"))
    if loaded.variant is None:
        skipped = [p for p in parts if p in ("summary", "rules")]
        parts = tuple(p for p in parts if p not in ("summary", "rules"))
        if skipped:
            click.echo(f"note: {file} is a board, not a variant: no {' or '.join(skipped)} pages", err=True)
        if not parts:
            raise click.ClickException("nothing to print: the summary cards and the rules page need a variant file")
    opts = PrintOptions(paper=paper, car_mm=car_mm, parts=parts, card_size=card_size, every_copy=not one_of_each,
                        colorblind=colorblind, score_track=score_track)
    try:
        result = build_pdf(loaded.board, loaded.variant, opts)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        write_output(output, result.pdf)
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None
    for warning in result.warnings:
        click.echo(f"warning: {file}: {warning}", err=True)
    total = sum(result.pages.values())
    detail = ", ".join(f"{part} {n}" for part, n in result.pages.items())
    click.echo(f"wrote {output}: {total} pages ({detail})")
    if result.tiling is not None:
        t = result.tiling
        click.echo(
            f"board: {t.board_w / 10:.1f} x {t.board_h / 10:.1f} cm on {len(t.tiles)} {paper.upper()} {t.orientation} pages "
            f"({t.rows} rows x {t.cols} columns), plus a cover page with the page map"
        )
