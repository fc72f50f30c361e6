"""`ttr-maps play FILE`: play a variant against the bots in the browser (or continue a saved game)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ttr_maps.fileio import looks_like_state_file


@click.command("play")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("-p", "--players", type=click.IntRange(1, 8), default=None,
              help="Seats at the table (default: the variant's smallest count, at least 2). Ignored when resuming.")
@click.option("--humans", type=click.IntRange(1, 8), default=1, show_default=True,
              help="People at this screen (hot seat): seats 1..N; each sees their hand only after a hand-over screen.")
@click.option("--bots", default="expert", show_default=True,
              help="Comma-separated bots for the other seats, repeated to fill them (see `ttr-maps simulate --help`).")
@click.option("--seed", type=int, default=None, help="Deal from this seed (default: a random one).")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="State file the game is saved to after every move (default: game.yaml here; a resumed game saves to FILE).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port on 127.0.0.1; 0 picks a free one.")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True, help="Open the page in the default browser.")
def command(file: str, players: int | None, humans: int, bots: str, seed: int | None, output: Path | None,
            port: int, open_browser: bool) -> None:
    """Play FILE (a variant, or a state file saved by an earlier `play` to continue it) against the
    bots in the browser, the reference engine as referee. The page shows only what your seat may
    see; every move is saved to the state file, which `ttr-maps state show` reads and `play` resumes.
    The server listens on 127.0.0.1 only; the printed URL carries its token.
    """
    from ttr_maps.bots import bot_names
    from ttr_maps.bundled import resolve
    from ttr_maps.diagnostics import LoadError
    from ttr_maps.engine.statefile import StateFileError, load_state
    from ttr_maps.fileio import OutputError
    from ttr_maps.limits import DRAWING, refusal
    from ttr_maps.play import HUMAN, TableError, new_table, play_app, resume_table
    from ttr_maps.web import ServeError, serve

    path = resolve(file)
    if os.path.isdir(path):
        raise click.UsageError(f"{file} is a folder; name a variant or a saved game")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in bot_names()]
    if not names or unknown:
        raise click.UsageError(f"--bots: unknown bot {', '.join(unknown) or '(none given)'}; known: {', '.join(bot_names())}")
    try:
        resumed = looks_like_state_file(path)
        if resumed:
            state = load_state(path)
            if not DRAWING.allows(state.game.board):
                raise click.ClickException(refusal(file, state.game.board, "play"))
            seats = _seats(state.game.num_players, humans, names)
            table = resume_table(state, seats, Path(output or path))
        else:
            from ttr_maps.engine.game import Game

            game = Game.from_file(path, 2)
            if not DRAWING.allows(game.board):
                raise click.ClickException(refusal(file, game.board, "play"))
            lo, hi = game.variant.players.min, game.variant.players.max
            n = players or max(lo, 2)
            if not lo <= n <= hi:
                raise click.UsageError(f"{game.variant.name} is for {lo}-{hi} players, not {n}")
            if n != 2:
                game = Game.from_file(path, n)
            target = output or Path("game.yaml")
            if target.exists():
                raise click.UsageError(f"{target} exists: continue that game with `ttr-maps play {target}`, or save this one elsewhere with -o")
            table = new_table(game, _seats(n, humans, names), target, seed)
    except (LoadError, StateFileError, OutputError) as exc:
        raise click.ClickException(str(exc)) from None
    except TableError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"{exc.filename or file}: {exc.strerror or exc}") from None
    who = ", ".join(f"seat {s + 1}: {'you' if name == HUMAN else name}" for s, name in enumerate(table.seats))
    click.echo(f"{table.game.variant.name}, {who}; saved after every move to {table.save_path}", err=True)
    try:
        serve(play_app(table), port=port, open_browser=open_browser, echo=lambda text: click.echo(text, err=True))
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        pass


def _seats(n: int, humans: int, bots: list[str]) -> list[str]:
    if humans > n:
        raise click.UsageError(f"--humans {humans} is more than the {n} seats")
    from ttr_maps.play import HUMAN

    return [HUMAN] * humans + [bots[i % len(bots)] for i in range(n - humans)]


