"""`ttr-maps boards`: the bundled boards and rule variants, by the names every command accepts."""

from __future__ import annotations

import os

import click


def _read(path) -> dict:
    import yaml

    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return data if isinstance(data, dict) else {}


@click.command("boards")
def command() -> None:
    """List the bundled boards and rule variants.

    Every command takes a bundled name where it takes a file (`ttr-maps validate usa`,
    `ttr-maps simulate europe-1912`), and so do a variant's `board:` and a position or
    state file's `variant:`. A file of that name in the current folder wins.
    """
    from ttr_maps.bundled import maps_dir, names

    rows: list[tuple[str, str, str, str]] = []
    for name, path in names("variants").items():
        data = _read(path)
        board = os.path.splitext(os.path.basename(str(data.get("board", ""))))[0]
        players = data.get("players") or {}
        rows.append(("variant", name, str(data.get("name", "")), f"on board {board}, {players.get('min', '?')}-{players.get('max', '?')} players"))
    for name, path in names("boards").items():
        data = _read(path)
        counts = [len(data.get(key) or []) for key in ("places", "routes", "tickets")]
        rows.append(("board", name, str((data.get("meta") or {}).get("title", "")), "{} places, {} routes, {} tickets".format(*counts)))
    wide = [max(len(r[i]) for r in rows) for i in range(3)]
    for kind, name, title, what in rows:
        click.echo(f"{kind:<{wide[0]}}  {name:<{wide[1]}}  {title:<{wide[2]}}  {what}")
    click.echo(f"Files: {maps_dir()}")
    click.echo("Start your own from one: ttr-maps new my-board --from usa")
