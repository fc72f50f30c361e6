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
        d = read_deck(path, deck)
    except LoadError as e:
        click.echo(render("text", e.diagnostics), err=True)
        raise click.ClickException(f"{path}: cannot be read (see the problems above)") from None
    except DeckError as e:
        raise click.ClickException(str(e)) from None
    _check_size(d.board_path or path, d.board, "tickets")
    return d


def _check_size(file: str, board, command: str) -> None:
    """Refuse a board beyond what the ticket commands work on (docs/limits.md#tickets)."""
    from ttr_maps.limits import TICKETS, refusal

    if not TICKETS.allows(board):
        raise click.ClickException(refusal(file, board, command, TICKETS))


def _check_target(path: str | None, inputs: list, what: str = "a deck file", option: str = "-o") -> None:
    from ttr_maps.tickets.deck import DeckError, check_target

    if path is None:
        return
    try:
        check_target(path, inputs, what, option)
    except DeckError as e:
        raise click.ClickException(str(e)) from None


def _write_deck(path: str, text: str) -> None:
    from ttr_maps.tickets.deck import DeckError, write_deck

    try:
        write_deck(path, text)
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
    _check_size(board_file, board, "tickets suggest")
    board_file = loaded.board_path if loaded.kind == "variant" and loaded.board_path else loaded.path
    _check_target(out, [loaded.path, loaded.board_path])
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
    text = deck_yaml(result.tickets, name=f"Suggested deck for {board.meta.title}", board_ref=ref, header=header)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if out is None:
        click.echo(text, nl=False)
        return
    _write_deck(out, text)
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
    _check_target(svg, [d.path, d.board_path], "an SVG picture", "--svg")
    if svg is not None:
        from ttr_maps.limits import DRAWING, refusal

        if not DRAWING.allows(d.board):
            raise click.ClickException(refusal(d.board_path or file, d.board, "tickets score --svg"))
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


@command.command("balance")
@click.argument("variant_file", metavar="VARIANT")
@click.option("-n", "--games", type=click.IntRange(1, 10_000_000), default=2000, show_default=True, help="Games per round.")
@click.option("-p", "--players", type=int, default=None, help="Players per game (default: 4, or the variant's nearest count).")
@click.option("--bots", default=BOTS_DEFAULT, show_default=True, help="Comma-separated bot names, one per seat (as simulate).")
@click.option("--seed", type=int, default=0, show_default=True, help="Round r plays from seed + r.")
@click.option("--rounds", type=click.IntRange(1, 20), default=1, show_default=True,
              help="Play, propose, play the proposed values again, ... this many times.")
@click.option("--yardstick", type=click.Choice(["published", "own"]), default="published", show_default=True,
              help="Judge completion against the published boards' curve, or against this board's own (fitted on round 1).")
@click.option("--min-kept", type=click.IntRange(1, 10_000_000), default=20, show_default=True,
              help="Judge a ticket only when it was kept at least this often in a round.")
@click.option("-w", "--workers", type=click.IntRange(1, 512), default=1, show_default=True, help="Local processes (same results for any count).")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Play on a Dask distributed cluster instead.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--write", "write", is_flag=True,
              help="Write the proposed values where each ticket is written (board file, tickets.add, deck file), keeping comments.")
@click.option("-o", "--output", "out", metavar="FILE", default=None,
              help="Write every ticket in use, with the proposed values, to a new deck file instead.")
@click.option("--quiet", "-q", is_flag=True, help="No progress.")
def balance_cmd(variant_file: str, games: int, players: int | None, bots: str, seed: int, rounds: int, yardstick: str, min_kept: int, workers: int,
                scheduler: str | None, fmt: str, write: bool, out: str | None, quiet: bool) -> None:
    """Play games of VARIANT and propose values for tickets completed more or less often than their value says.

    The yardstick is how often bots complete tickets of each value on the published boards (a curve
    fitted on their simulated games). Nothing is written unless --write or -o is given.
    """
    from ttr_maps.bots import BOTS
    from ttr_maps.engine.scoring import ScoringError
    from ttr_maps.load import load
    from ttr_maps.report import render
    from ttr_maps.tickets.balance import balance

    if write and out:
        raise click.UsageError("give --write or -o, not both")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in BOTS]
    if not names or unknown:
        raise click.ClickException(f"unknown bot {', '.join(repr(b) for b in unknown) or '(none given)'}; known bots: {', '.join(BOTS)}")
    loaded = load(variant_file)
    if loaded.kind != "variant" or not loaded.ok or loaded.variant is None or loaded.board is None:
        click.echo(render("text", loaded.diagnostics), err=True)
        raise click.ClickException(f"{variant_file}: not a valid variant file (see the problems above); balance plays a variant")
    variant, board = loaded.variant, loaded.board
    _check_size(variant_file, board, "tickets balance")
    lo, hi = variant.players.min, variant.players.max
    players = min(max(4, lo), hi) if players is None else players
    if not lo <= players <= hi:
        raise click.ClickException(f"{variant.name} is for {lo}-{hi} players, not {players}")
    if len(names) > players and bots == BOTS_DEFAULT:
        names = names[:players]
    if len(names) > players:
        raise click.ClickException(f"{len(names)} bots for {players} players; give at most one bot per seat")
    seats = tuple((names * players)[:players])
    if write:
        _check_writable(loaded)
    _check_target(out, [p for p, _ in _origins(loaded)] + [loaded.path])

    def progress(r: int, n: int) -> None:
        if not quiet:
            sys.stderr.write(f"\rround {r + 1}/{rounds}: {n}/{games} games")
            if n == games:
                sys.stderr.write("\n")
            sys.stderr.flush()

    try:
        result = balance(variant, board, loaded.path, games=games, players=players, bots=seats, seed=seed, rounds=rounds,
                         workers=workers, scheduler=scheduler, yardstick=yardstick, min_kept=min_kept, progress=progress)
    except OSError as e:
        if scheduler is not None:
            raise click.ClickException(f"cannot use the Dask scheduler at {scheduler}: {e}") from None
        raise click.ClickException(str(e)) from None
    except (RuntimeError, ScoringError) as e:
        raise click.ClickException(str(e)) from None
    if fmt == "json":
        click.echo(json.dumps(result.as_dict(), indent=1, ensure_ascii=False))
    else:
        click.echo(_balance_text(result, board))
    if not result.values:
        if write or out:
            click.echo("nothing written: no value to change", err=True)
        return
    if out:
        _write_balanced_deck(loaded, result.values, out, variant_file)
    elif write:
        _write_in_place(loaded, result.values)
    else:
        click.echo("\nnothing written; --write puts these values into the files, -o FILE into a new deck file", err=True)


def _balance_text(result, board) -> str:
    names = {p.id: p.name for p in board.places}
    rel = result.relation
    out = [f"yardstick: completion = 1 / (1 + exp(-({rel.a:.3f} {rel.b:+.3f} x value / diameter)))"]
    for k, r in enumerate(result.rounds, 1):
        c = r.completion
        out.append(f"round {k} (seed {r.seed}, {r.games} games): tickets completed {c['rate']:.1%} "
                   f"({c['ci'][0]:.1%}-{c['ci'][1]:.1%}); {len(r.verdicts)} judged, {len(r.changes)} out of line; "
                   f"mean gap to the curve {r.gap:.3f}")
        for v in sorted(r.changes, key=lambda v: (v.proposed - v.value, v.ticket)):
            out.append(f"  {names.get(v.from_, v.from_)}–{names.get(v.to, v.to)}: {v.value} -> {v.proposed}  completed "
                       f"{v.rate:.0%} ({v.ci[0]:.0%}-{v.ci[1]:.0%}) of {v.kept} kept; a {v.value}-point ticket: {v.expected:.0%}")
    if result.values:
        out.append(f"proposed values: {len(result.values)} ticket(s): "
                   + ", ".join(f"{k} {v}" for k, v in result.values.items()))
    else:
        out.append("every judged ticket is completed about as often as its value says")
    return "\n".join(out)


def _origins(loaded) -> list[tuple[str, tuple]]:
    """Where each ticket (board.tickets + variant.tickets.add) is written: (file, key path of the ticket)."""
    board, variant = loaded.board, loaded.variant
    out = [(loaded.board_path, ("tickets", i)) for i in range(len(board.tickets))]
    from_files = sum(len(d.tickets) for d in loaded.decks)
    own = len(variant.tickets.add) - from_files
    out += [(loaded.path, ("tickets", "add", i)) for i in range(own)]
    for deck, src in zip(loaded.decks, loaded.deck_sources):
        out += [(src.path, ("tickets", i)) for i in range(len(deck.tickets))]
    return out


def _check_writable(loaded) -> None:
    from ttr_maps.bundled import bundled_name

    for path in {p for p, _ in _origins(loaded)}:
        if bundled_name(path) is not None:
            raise click.ClickException(f"{path} is a bundled file; copy the board and variant next to you and balance the copy, "
                                       "or write a new deck file with -o")


def _write_in_place(loaded, values: dict[str, int]) -> None:
    from ttr_maps.engine.game import Game
    from ttr_maps.yamledit import EditError, YamlFile

    keys = Game(loaded.variant, loaded.board, loaded.variant.players.min).t.ticket_keys
    origins = _origins(loaded)
    by_file: dict[str, list[tuple[tuple, int, str]]] = {}
    for i, key in enumerate(keys):
        if key in values:
            path, where = origins[i]
            by_file.setdefault(path, []).append((where + ("points",), values[key], key))
    for path, changes in by_file.items():
        try:
            doc = YamlFile.read(path)
            for where, value, _key in changes:
                doc.set(where, value)
            doc.save(check=loaded.path)
        except EditError as e:
            raise click.ClickException(str(e)) from None
        click.echo(f"wrote {len(changes)} value(s) into {path}: " + ", ".join(f"{k} {v}" for _, v, k in changes))


def _write_balanced_deck(loaded, values: dict[str, int], out: str, variant_file: str) -> None:
    from ttr_maps.bundled import bundled_name
    from ttr_maps.checks.context import Context
    from ttr_maps.engine.game import Game
    from ttr_maps.tickets.deck import deck_yaml

    variant, board = loaded.variant, loaded.board
    keys = Game(variant, board, variant.players.min).t.ticket_keys
    all_tickets = list(board.tickets) + list(variant.tickets.add)
    in_use = {id(ref.ticket) for ref in Context(board, variant).tickets}
    tickets = []
    for key, t in zip(keys, all_tickets):
        if id(t) in in_use:
            tickets.append(t.model_copy(update={"points": values.get(key, t.points), "decks": tuple(f"{d}-balanced" for d in t.decks)}))
    ref = bundled_name(loaded.board_path) or os.path.relpath(os.path.abspath(loaded.board_path), os.path.dirname(os.path.abspath(out)))
    piles = {p: [f"{d}-balanced" for d in decks] for p, decks in variant.tickets.piles.items()}
    header = (f"Every ticket {variant_file} deals, with the values `ttr-maps tickets balance` proposed ({len(values)} changed).\n"
              f"Use it: in the variant, tickets.deck_files: [{os.path.basename(out)}] and tickets.piles: "
              + (json.dumps(piles).replace('"', "") if piles else "{main: [...]}") + ".")
    text = deck_yaml(tickets, name=f"{variant.name}, balanced", board_ref=ref, header=header)
    _write_deck(out, text)
    click.echo(f"wrote {out}: {len(tickets)} tickets, {len(values)} with new values")
