"""`ttr-maps render FILE -o board.svg`"""

from __future__ import annotations

import os

import click

from .options import FiniteFloatRange, fail_on_load_errors

CARD_PARTS = ("tickets", "trains", "summary", "all")
#: What `-o` may end in; the board is written in that format. Cards are SVG only.
FORMATS = (".svg", ".pdf")


@click.command("render")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, writable=True, path_type=str),
              help="File to write, SVG or PDF by its extension (.svg, .pdf; '-' for SVG on standard output).")
@click.option("--cards", "cards", type=click.Choice(CARD_PARTS), default=None,
              help="Draw a sheet of cards instead of the board: every ticket, one card of each train card design, "
                   "or the summary cards (tickets, trains, summary, or all three).")
@click.option("--ticket", "ticket_id", metavar="FROM-TO", default=None,
              help="Draw the one ticket card FROM-TO (place ids, e.g. boston-miami) instead of the board.")
@click.option("--car-mm", type=FiniteFloatRange(5, 100), default=24.0, show_default=True,
              help="Length of one route space in millimetres; the whole board scales from it.")
@click.option("--card-size", type=click.Choice(["poker", "mini"]), default="poker", show_default=True,
              help="Card size: poker 63x88 mm or mini 44x68 mm.")
@click.option("--colorblind/--no-colorblind", default=False, show_default=True,
              help="Print a letter on every coloured space and card.")
@click.option("--shadows/--no-shadows", default=True, show_default=True, help="Drop shadows under spaces and markers.")
@click.option("--score-track/--no-score-track", default=True, show_default=True, help="Numbered score track around the edge.")
@click.option("--legend/--no-legend", default=True, show_default=True, help="Colour key and route-scoring table.")
def command(file: str, output: str, cards: str | None, ticket_id: str | None, car_mm: float, card_size: str,
            colorblind: bool, shadows: bool, score_track: bool, legend: bool) -> None:
    """Draw a board (or a variant's board, with its scoring legend) as SVG, or as a one-page PDF.

    FILE is a board or a variant. The format follows the extension of -o: .svg
    or .pdf (the board on one page of its own size; `print` tiles it on paper).
    The same input always gives the same bytes. With --cards or --ticket, draw
    cards instead of the board (SVG only).
    """
    import gc

    from ttr_maps.fileio import OutputError, check_output, write_output

    if gc.isenabled():
        # Laying a board out makes hundreds of thousands of objects that live to the end and next to no garbage
        # cycles: the collector would look through them again and again for nothing (0.05 s on 1,000 places).
        gc.disable()
        click.get_current_context().call_on_close(gc.enable)
    from ttr_maps.limits import DRAWING, refusal
    from ttr_maps.load import load
    from ttr_maps.render import BoardOptions, render_board

    # Standard output and devices (/dev/null) get SVG; a file gets the format its extension names.
    device = output == "-" or not output.strip() or (os.path.exists(output) and not os.path.isfile(output) and not os.path.isdir(output))
    suffix = ".svg" if device else os.path.splitext(output)[1].lower()
    if suffix not in FORMATS:
        named = f"'{suffix}'" if suffix else "no extension"
        raise click.UsageError(f"-o {output}: render writes SVG or PDF, chosen by the extension (.svg or .pdf), not {named}; "
                               "for a PNG, convert the SVG (e.g. rsvg-convert board.svg -o board.png)")
    if suffix == ".pdf" and (cards or ticket_id):
        raise click.UsageError("cards are drawn as SVG only (-o cards.svg); `ttr-maps print --parts tickets` makes a PDF of them")
    if output != "-":
        try:
            check_output(output, suffix=suffix)
        except OutputError as exc:
            raise click.ClickException(str(exc)) from None
    loaded = load(file)
    if car_mm < 10:
        click.echo(f"note: at --car-mm {car_mm:g} most text on the board is under {car_mm * 0.17:.1f} mm tall (place names are "
                   f"kept at 1.6 mm at least); 10 or more keeps it readable", err=True)
    fail_on_load_errors(loaded)
    board, variant = loaded.board, loaded.variant
    if board is None:  # pragma: no cover - load reports this as an error
        raise click.ClickException(f"{file}: no board found")
    if not DRAWING.allows(board):
        raise click.ClickException(refusal(file, board, "render"))
    if cards and ticket_id:
        raise click.UsageError("give either --cards or --ticket, not both")
    if ticket_id is not None and not ticket_id.strip():
        raise click.UsageError("--ticket needs the ticket's two place ids, e.g. --ticket boston-miami")
    opts = BoardOptions(car_mm=car_mm, colorblind=colorblind, shadows=shadows, score_track=score_track, legend=legend)
    if cards or ticket_id:
        from ttr_maps.render import card_context, cards_for, plan_board, render_card, render_card_sheet

        plan = plan_board(board, variant, opts)
        ctx = card_context(plan, card_size)
        if ticket_id:
            every = cards_for(ctx, parts=("tickets",))
            match = [c for c in every if c.ticket is not None and c.ticket.id == ticket_id]
            if not match:
                known = ", ".join(c.ticket.id for c in every[:5] if c.ticket is not None)
                raise click.ClickException(f"no ticket '{ticket_id}' in {file}; tickets are named FROM-TO by place id, e.g. {known}")
            text = render_card(match[0], ctx)
        else:
            parts = ("tickets", "trains", "summary") if cards == "all" else (cards,)
            chosen = cards_for(ctx, parts=parts)
            if not chosen:
                why = " (summary cards need a variant file)" if cards == "summary" else ""
                raise click.ClickException(f"{file} has no {cards} cards to draw{why}")
            text = render_card_sheet(chosen, ctx)
    elif suffix == ".pdf":
        from ttr_maps.render.pdf import board_pdf

        text = board_pdf(board, variant, opts)
    else:
        text = render_board(board, variant, opts)
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        write_output(output, text)
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {output}", err=True)
