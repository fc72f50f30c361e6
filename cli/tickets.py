"""`ttr-maps tickets suggest|score|compare|balance`: design, score, compare and balance a ticket deck."""

from __future__ import annotations

import json
import os
import re
import sys

import click

BOTS_DEFAULT = "expert,route-focus,ticket-hungry,long-route"


@click.group("tickets")
def command() -> None:
    """Ticket decks: suggest one for a board, score it, compare two, balance values by simulated play.

    A deck is read from a board (its first deck, or --deck NAME), a variant (the tickets its piles
    deal) or a deck file (format ttr-deck/1, which a variant can name under tickets.deck_files).
    See docs/tickets.md.
    """


def _read(path: str, deck: str | None = None):
    from ttr_maps.diagnostics import LoadError
    from ttr_maps.report import render
    from ttr_maps.tickets.deck import DeckError, read_deck

    try:
        return read_deck(path, deck)
    except LoadError as e:
        click.echo(render("text", e.diagnostics), err=True)
        raise click.ClickException(f"{path}: cannot be read (see the problems above)") from None
    except DeckError as e:
        raise click.ClickException(str(e)) from None


def _write(path: str, text: str) -> None:
    from ttr_maps.fileio import OutputError, write_output

    try:
        write_output(path, text)
    except OutputError as e:
        raise click.ClickException(str(e)) from None


def _values(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d{1,2})\s*-\s*(\d{1,2})\s*", text)
    if not m or int(m.group(1)) > int(m.group(2)) or int(m.group(1)) < 1:
        raise click.BadParameter(f"'{text}' is not a range of values like 4-22", param_hint="--values")
    return int(m.group(1)), int(m.group(2))


@command.command("suggest")
@click.argument("board_file", metavar="BOARD")
@click.option("-n", "--tickets", "count", type=click.IntRange(1, 500), default=30, show_default=True, help="Tickets in the deck.")
@click.option("--long", "long", type=click.IntRange(0, 500), default=None,
              help="Long tickets (shortest path at least 60% of the board's diameter); default: the published decks' share.")
@click.option("--values", "values", metavar="LO-HI", default=None, help="Lowest and highest ticket value, e.g. 4-22.")
@click.option("--favour", multiple=True, metavar="PLACE", help="A place to end more tickets (repeat for several).")
@click.option("--avoid", multiple=True, metavar="PLACE", help="A place no ticket ends at (repeat for several).")
@click.option("--like", multiple=True, metavar="DECK",
              help="Take the shape from these published decks only (usa, usa1910, usa1910-revised, europe, europe-1912, paris).")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same deck.")
@click.option("--deck", "deck_name", default="suggested", show_default=True, help="Deck id the tickets belong to.")
@click.option("-o", "--output", "out", metavar="FILE", default=None, help="Write a deck file (ttr-deck/1) instead of printing it.")
def suggest_cmd(board_file: str, count: int, long: int | None, values: str | None, favour: tuple[str, ...], avoid: tuple[str, ...],
                like: tuple[str, ...], seed: int, deck_name: str, out: str | None) -> None:
    """Suggest a deck of tickets for BOARD (or a variant's board), shaped like the published decks.

    Values are the tickets' shortest paths in spaces. Every place ends a ticket where the board has
    enough tickets for it; no pair twice, no near-duplicates. Prints the deck file, or writes it with -o.
    """
    from ttr_maps.load import load
    from ttr_maps.report import render
    from ttr_maps.tickets.deck import deck_yaml
    from ttr_maps.tickets.published import published
    from ttr_maps.tickets.suggest import Options, SuggestError, suggest

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", deck_name):
        raise click.BadParameter(f"'{deck_name}' is not a deck id (lower-case letters, digits and hyphens)", param_hint="--deck")
    unknown = [d for d in like if d not in published()["decks"]]
    if unknown:
        raise click.BadParameter(f"no published deck {', '.join(unknown)}; choose from {', '.join(published()['decks'])}", param_hint="--like")
    loaded = load(board_file)
    if not loaded.ok or loaded.board is None or loaded.kind not in ("board", "variant"):
        click.echo(render("text", loaded.diagnostics), err=True)
        raise click.ClickException(f"{board_file}: not a valid board or variant (see the problems above)")
    board = loaded.board
    board_file = loaded.board_path if loaded.kind == "variant" and loaded.board_path else loaded.path
    try:
        result = suggest(board, Options(count, long, _values(values), favour, avoid, like, seed, deck_name))
    except SuggestError as e:
        raise click.ClickException(f"{board_file}: {e}") from None
    from ttr_maps.bundled import bundled_name

    ref = bundled_name(board_file)
    if ref is None:
        ref = os.path.relpath(os.path.abspath(board_file), os.path.dirname(os.path.abspath(out)) if out else os.getcwd())
    header = (f"A deck suggested by `ttr-maps tickets suggest` (seed {seed}) for {board.meta.title}:\n"
              f"{len(result.tickets)} tickets, values = shortest paths in spaces.")
    text = deck_yaml(result.tickets, name=f"Suggested deck for {board.meta.title}", board_ref=ref, deck=deck_name, header=header)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if out is None:
        click.echo(text, nl=False)
        return
    _write(out, text)
    click.echo(f"wrote {out}: {len(result.tickets)} tickets; score it with `ttr-maps tickets score {out}`")


@command.command("score")
@click.argument("file")
@click.option("--deck", default=None, help="Which of a board's decks (default: its first).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--svg", "svg", metavar="FILE", default=None, help="Also draw the board with the deck's route load (SVG).")
def score_cmd(file: str, deck: str | None, fmt: str, svg: str | None) -> None:
    """The figures of the deck in FILE (a board, a variant or a deck file) against the published decks'.

    Value histogram, places never used and overused, route load (how many tickets' shortest paths
    use each route), overlap between tickets, value vs shortest path, and findings.
    """
    from ttr_maps.tickets.figures import deck_figures
    from ttr_maps.tickets.paths import BoardPaths
    from ttr_maps.tickets.report import score_dict, score_text

    d = _read(file, deck)
    fig = deck_figures(BoardPaths(d.board), d.tickets)
    if svg is not None:
        from ttr_maps.tickets.picture import route_load_svg

        _write(svg, route_load_svg(fig))
    if fmt == "json":
        click.echo(json.dumps(score_dict(fig, d.label), indent=1, ensure_ascii=False))
    else:
        click.echo(score_text(fig, d.label))


@command.command("compare")
@click.argument("a")
@click.argument("b", required=False)
@click.option("--deck-a", default=None, help="Which of A's decks, when A is a board.")
@click.option("--deck-b", default=None, help="Which of B's decks, when B is a board.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def compare_cmd(a: str, b: str | None, deck_a: str | None, deck_b: str | None, fmt: str) -> None:
    """Two decks side by side on the score figures. Without B: a deck file against its board's first deck."""
    from ttr_maps.tickets.figures import deck_figures
    from ttr_maps.tickets.paths import BoardPaths
    from ttr_maps.tickets.report import compare_dict, compare_text

    da = _read(a, deck_a)
    if b is None:
        if da.kind != "deck" or da.board_path is None:
            raise click.UsageError("give two decks, or one deck file (compared with the first deck of the board it names)")
        b = da.board_path
    db = _read(b, deck_b)
    pa = BoardPaths(da.board)
    pb = pa if db.board == da.board else BoardPaths(db.board)
    fa, fb = deck_figures(pa, da.tickets), deck_figures(pb, db.tickets)
    if fmt == "json":
        click.echo(json.dumps(compare_dict(fa, fb, da.label, db.label), indent=1, ensure_ascii=False))
    else:
        click.echo(compare_text(fa, fb, da.label, db.label))


def _progress(quiet: bool):
    if quiet:
        return None

    def tick(n: int, total: int, label: str) -> None:
        sys.stderr.write(f"\r{label}: {n}/{total} games")
        if n == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return tick
