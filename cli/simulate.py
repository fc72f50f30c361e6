"""`ttr-maps simulate VARIANT -o DIR`: many games of bots, a report a designer can read."""

from __future__ import annotations

import sys

import click

DEFAULT_BOTS = "expert,route-focus,ticket-hungry,long-route"


@click.command("simulate")
@click.argument("variant_file", metavar="VARIANT", type=click.Path(dir_okay=False, path_type=str))
@click.option("-o", "--output", "out_dir", default=None, type=click.Path(path_type=str),
              help="Folder to write records.jsonl, summary.json, report.html and run.json into "
                   "(created if missing; removed again if the run fails before writing anything). "
                   "Default: out/NAME, NAME being the variant file's name without .yaml.")
@click.option("-n", "--games", type=click.IntRange(1, 10_000_000), default=200, show_default=True, help="Games to play.")
@click.option("-p", "--players", type=int, default=None, help="Players per game (default: 4, or the variant's nearest count).")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True,
              help="Comma-separated bot names, one per seat (a shorter list repeats). Seats rotate each game.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed: game i's seed is derived from it and i.")
@click.option("-w", "--workers", type=click.IntRange(1, 512), default=1, show_default=True,
              help="Local processes playing games in parallel (results are identical for any count).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play on a Dask distributed cluster (e.g. tcp://10.0.0.5:8786) instead of local processes.")
@click.option("--force", is_flag=True, help="Write into OUTPUT even if it is a non-empty folder that is not a simulate output.")
@click.option("--observation", type=click.Choice(["fast", "engine"]), default="fast", show_default=True,
              help="How bots see the game: fast views, or views built from the engine's observation dicts (slower; same games).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--strict", is_flag=True,
              help="Fail (exit 1) when the setup deal cannot give every player their tickets (before playing) "
                   "or when games end abnormally: every player passed, or the action cap (after writing OUTPUT).")
@click.option("--bot-option", "bot_options", multiple=True, metavar="BOT.KEY=VALUE",
              help="Set a bot's option, e.g. search.budget=64 (repeatable; docs/simulate.md lists them).")
def command(variant_file: str, out_dir: str, games: int, players: int | None, bots: str, seed: int, workers: int,
            scheduler: str | None, force: bool, observation: str, quiet: bool, strict: bool,
            bot_options: tuple[str, ...] = ()) -> None:
    """Play GAMES games of bots on VARIANT and write a report.

    Bots: random, route-focus, ticket-hungry, long-route, expert, search (see docs/simulate.md).
    OUTPUT gets records.jsonl (one line per game), summary.json (every figure),
    report.html (self-contained, with plots and the board as a heat map) and run.json.

    Warnings on the terminal: a setup deal the ticket piles cannot give out, games that ended
    because every player passed or at the action cap (--strict makes them errors).

    Exit codes: 0 done; 1 bad input or a failed run (unreadable variant, unknown bot, player count,
    unusable output folder such as an existing file or one another run is writing, unreachable Dask
    scheduler, a warning under --strict); 2 usage error (unknown option, bad option value).
    """
    from ttr_maps.bots import BOTS
    from ttr_maps.load.loader import LoadError
    from ttr_maps.simulate.output import OutputError, check_output_dir, simulate_to
    from ttr_maps.engine.scoring import ScoringError
    from ttr_maps.simulate.runner import GameSource, RunSpec

    if out_dir is None:
        import os

        out_dir = os.path.join("out", os.path.splitext(os.path.basename(variant_file))[0] or "simulation")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise click.UsageError("--bots needs at least one bot name")
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise click.ClickException(f"unknown bot {', '.join(repr(b) for b in unknown)}; known bots: {', '.join(BOTS)}")
    options = _bot_options(bot_options, names)
    try:
        check_output_dir(out_dir, force)
    except OutputError as e:
        raise click.ClickException(str(e)) from None
    try:
        from ttr_maps.load import load_variant

        variant, board = load_variant(variant_file)
    except LoadError as e:
        from ttr_maps.report import render

        click.echo(render("text", e.diagnostics), err=True)
        raise click.ClickException(f"{variant_file}: not a valid variant file (see the problems above)") from None
    except OSError as e:
        raise click.ClickException(f"{variant_file}: {e.strerror or e}") from None
    lo, hi = variant.players.min, variant.players.max
    if players is None:
        players = min(max(4, lo), hi)
    if not lo <= players <= hi:
        raise click.ClickException(f"{variant.name} is for {lo}-{hi} players, not {players}")
    if len(names) > players and bots == DEFAULT_BOTS:
        names = names[:players]  # the default line-up, cut to the seats: expert and route-focus at two players
    if len(names) > players:
        raise click.ClickException(f"{len(names)} bots for {players} players; give at most one bot per seat")
    seat_names = tuple((names * players)[:players])
    spec = RunSpec(GameSource(variant, board, players, variant_file), seat_names, games, seed, observation, options)
    _check_bot_options(spec)
    from ttr_maps.simulate.health import abnormal_ends, deal_shortfall
    from ttr_maps.simulate.runner import game_for

    _warn(deal_shortfall(game_for(spec.source)), strict, "the tickets cannot be dealt, so nothing was played")

    bar = None
    if not quiet:
        bar = click.progressbar(length=games, label=f"Simulating {games} games", file=sys.stderr, show_pos=True, show_eta=True)
        bar.__enter__()
    try:
        summary = simulate_to(spec, out_dir, workers=workers, scheduler=scheduler, force=force,
                              progress=(bar.update if bar is not None else None), variant_label=variant_file)
    except OutputError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        if scheduler is not None:
            raise click.ClickException(f"cannot use the Dask scheduler at {scheduler}: {e}") from None
        raise click.ClickException(f"{out_dir}: {e.strerror or e}") from None
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    except ScoringError as e:
        raise click.ClickException(f"a game could not be scored: {e}") from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    from ttr_maps.limits import DOCS, DRAWING, size

    if not DRAWING.allows(board):
        click.echo(f"note: report.html has no heat map: the board has {size(board)}, more than the {DRAWING.text()} "
                   f"a report draws ({DOCS}#{DRAWING.anchor})", err=True)
    import html
    import re

    from ttr_maps.simulate.report import board_findings

    click.echo(f"{summary['meta']['games']} games written to {out_dir}: report.html, summary.json, records.jsonl")
    for line in board_findings(summary):  # the board first: length, turn order, routes and tickets that stand out
        click.echo("  " + html.unescape(re.sub(r"<[^>]+>", "", line)))
    click.echo("  the bots (win rate with its 95% interval, mean score):")
    for name, b in summary["bots"].items():
        lo_, hi_ = b["win"]["ci"]
        click.echo(f"  {name:<14} wins {b['win']['rate'] * 100:5.1f}% ({lo_ * 100:.1f}-{hi_ * 100:.1f}%), mean score {b['score'].get('mean', 0):.1f}")
    _warn(abnormal_ends(summary), strict, f"games ended abnormally (the output is in {out_dir})")


def _warn(problems: list[str], strict: bool, failure: str) -> None:
    """Say each problem on standard error; under --strict, fail with `failure` after them."""
    for problem in problems:
        click.echo(f"{'error' if strict else 'warning'}: {problem}", err=True)
    if problems and strict:
        raise click.ClickException(f"--strict: {failure}")


def _bot_options(given: tuple[str, ...], names: list[str]) -> tuple[tuple[str, str, str], ...]:
    """`BOT.KEY=VALUE` texts as (bot, key, value); a usage error names what is wrong."""
    from ttr_maps.bots import BOTS

    out = []
    for text in given:
        target, eq, value = text.partition("=")
        bot, dot, key = target.strip().partition(".")
        if not eq or not dot or not bot or not key.strip() or not value.strip():
            raise click.UsageError(f"--bot-option {text!r}: write it as BOT.KEY=VALUE, e.g. search.budget=64")
        if bot not in BOTS:
            raise click.UsageError(f"--bot-option {text!r}: unknown bot {bot!r}; known bots: {', '.join(BOTS)}")
        if bot not in names:
            raise click.UsageError(f"--bot-option {text!r}: no {bot} bot plays (--bots {','.join(names)})")
        out.append((bot, key.strip(), value.strip()))
    return tuple(out)


def _check_bot_options(spec) -> None:
    """Build each bot that has options once, so a bad key or value is a usage error before any game."""
    if not spec.bot_options:
        return
    from ttr_maps.bots import make_bot
    from ttr_maps.simulate.runner import game_for, options_by_bot

    game = game_for(spec.source)
    for name, opts in options_by_bot(spec.bot_options).items():
        try:
            make_bot(name, game, 0, 0, opts)
        except ValueError as e:
            raise click.UsageError(f"--bot-option: {e}") from None
