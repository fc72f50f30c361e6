"""`ttr-maps studio FILE`: see and shape a board live in the browser."""

from __future__ import annotations

import os

import click


@click.command("studio")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 to serve on; 0 picks a free one.")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True, help="Open the page in the default browser.")
@click.option("--sim", "sim", type=click.Path(file_okay=False, path_type=str), default=None,
              help="A `ttr-maps simulate` output folder: its claim rates become the heat-map overlay.")
def command(file: str, port: int, open_browser: bool, sim: str | None) -> None:
    """Serve FILE (a board or a variant) as a live page: the board as `render` draws it, redrawn
    when the file is saved, with every `validate` finding on it; drag places and bend points, add
    routes and tickets, undo and redo. Edits are written back into FILE's board keeping its
    comments and layout. The server listens on 127.0.0.1 only; the printed URL carries its token.

    A FILE that does not exist yet, or is empty, can be started from the page.
    """
    from ttr_maps.bundled import resolve
    from ttr_maps.studio import studio_app
    from ttr_maps.web import ServeError, serve

    path = resolve(file)
    if os.path.isdir(path) or file.endswith(os.sep):
        raise click.ClickException(f"{file} is a folder; name a board or variant file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise click.ClickException(f"folder {folder} does not exist; create it first (mkdir -p {folder}) or name a file in another folder")
    if sim is not None:
        from ttr_maps.simulate.output import OutputError, load_summary

        try:
            load_summary(sim)
        except (OutputError, OSError, ValueError) as exc:
            raise click.ClickException(f"--sim {sim}: {exc}") from None
    _check_size(path, file)
    app = studio_app(path, sim)
    try:
        serve(app, port=port, open_browser=open_browser, echo=lambda text: click.echo(text, err=True))
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        pass


def _check_size(path: str, file: str) -> None:
    """Refuse a board too large to draw live (docs/limits.md#drawing); anything else is the page's to show."""
    if not os.path.isfile(path):
        return
    from ttr_maps.limits import DRAWING, refusal
    from ttr_maps.load import load

    try:
        board = load(path).board
    except (OSError, ValueError):  # the page reports whatever the file's problem is
        return
    if board is not None and not DRAWING.allows(board):
        raise click.ClickException(refusal(file, board, "studio"))
