"""`ttr-maps schema`"""

from __future__ import annotations

from pathlib import Path

import click

from ttr_maps.fileio import write_atomic


@click.command("schema")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("schemas"), show_default=True, help="Folder to write the schemas into.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the files in the folder differ from the models.")
@click.option("--path", "show_path", is_flag=True, help="Write nothing; print where the installed schemas are, with the first line to put in a board or variant file for editor completion.")
def command(out_dir: Path, check: bool, show_path: bool) -> None:
    """Write the JSON Schemas of the board and variant formats (generated from the models)."""
    if show_path:
        from ttr_maps.bundled import schemas_dir

        folder = schemas_dir()
        click.echo(folder)
        for kind in ("board", "variant"):
            click.echo(f"# yaml-language-server: $schema={(folder / f'{kind}.schema.json').as_uri()}", err=True)
        return
    from ttr_maps.schema import all_schema_texts  # here, not at the top: every command's start-up pays for imports

    stale = []
    for name, text in all_schema_texts().items():
        target = out_dir / name
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current == text:
            continue
        stale.append(name)
        if not check:
            try:
                write_atomic(target, text)
            except OSError as e:
                raise click.ClickException(f"cannot write {target}: {e.strerror or e}; choose another folder with -o") from None
            click.echo(f"wrote {target}")
    if check and stale:
        raise click.ClickException(f"out of date in {out_dir}: {', '.join(stale)}; run `ttr-maps schema -o {out_dir}`")
    if not stale:
        click.echo(f"schemas in {out_dir} are up to date")
