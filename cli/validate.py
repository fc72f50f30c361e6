"""`ttr-maps validate FILE|FOLDER...`"""

from __future__ import annotations

import re

import click

from ttr_maps.diagnostics import Severity, unique
from ttr_maps.report import render

from .checks import check_options, run_selected
from .options import format_option

LEVELS = {s.value: s.rank for s in Severity}
_CODES = re.compile(r"^[A-Z]\d{0,3}(,[A-Z]\d{0,3})*$")


def _fix(paths: list[str], codes: str, diff: bool) -> None:
    """Apply (or, with `diff`, show) the fixes of `ttr_maps.fix` to each file, saying what changed."""
    import difflib

    from ttr_maps.fix import ON_REQUEST, SAFE, apply, apply_text, fixes_for, typo_fixes
    from ttr_maps.load import load
    from ttr_maps.yamledit import EditError

    asked = tuple(c for c in codes.split(",") if c) if codes else ()
    unknown = [c for c in asked if c not in SAFE + ON_REQUEST]
    if unknown:
        raise click.UsageError(f"--fix {codes}: {', '.join(unknown)} has no automatic fix; fixable: {', '.join(SAFE + ON_REQUEST)}")
    chosen = SAFE + tuple(c for c in asked if c in ON_REQUEST)
    for path in paths:
        loaded = load(path)
        fixes = fixes_for(loaded, chosen) if loaded.ok else typo_fixes(loaded, chosen)  # type: ignore[assignment]
        if not fixes:
            continue
        try:
            changed = apply(fixes, path, write=not diff) if loaded.ok else apply_text(fixes, path, write=not diff)  # type: ignore[arg-type]
        except EditError as exc:
            raise click.ClickException(str(exc)) from None
        for file, (old, new) in changed.items():
            if diff:
                click.echo("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), file, file)), nl=False)
            for f in fixes:
                if f.path == file:
                    click.echo(f"{'would fix' if diff else 'fixed'} {file}: {f.code} {f.what}", err=True)


@click.command("validate")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=True, path_type=str))
@format_option
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--min-severity", type=click.Choice(["info", "warning", "error"]), default="info", show_default=True,
              help="Show only problems at least this severe (exit codes follow what is shown).")
@click.option("-q", "--quiet", is_flag=True, help="Hide info notes: the same as --min-severity warning.")
@click.option("--skip-others", is_flag=True,
              help="Skip named files that are not boards or variants, as in folders (for pre-commit, which names every staged YAML file).")
@click.option("--fix", "fix", is_flag=False, flag_value="", default=None, metavar="[CODES]",
              help="Apply the safe fixes (bend points that clear a drawn overlap: D006-D008; an id that is a typo of exactly one place id: R002) and say what changed; "
                   "--fix G006 also sets ticket values to the shortest path. Keeps comments and untouched lines; "
                   "never writes a file that would not validate.")
@click.option("--diff", is_flag=True, help="With --fix: print the changes as a unified diff instead of writing them.")
@click.option("--no-cache", is_flag=True,
              help="Run every check afresh. By default the checks' findings on a file that has not changed (nor its settings, "
                   "nor ttr-maps) are reused from ~/.cache/ttr-maps (TTR_MAPS_CACHE_DIR; TTR_MAPS_NO_CACHE=1 turns it off).")
@check_options
def command(files: tuple[str, ...], fmt: str, strict: bool, min_severity: str, quiet: bool, skip_others: bool,
            fix: str | None, diff: bool, no_cache: bool, select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Validate board and variant files (a variant also validates its board), then run the design checks.

    FILES may be bundled names (`usa`, `ttr-maps boards`) and folders: every board and
    variant under a folder, recursively, by its `format` (other YAML and JSON files are
    skipped, with a note; hidden folders, build/, dist/, node_modules/ and __pycache__ are
    not searched). Each problem is printed as `path:line:col: severity CODE message`;
    `ttr-maps explain CODE` says what a code means and how to fix it.

    \b
    Exit codes:
      0 clean (warnings allowed unless --strict)
      1 problems found
      2 usage error
    """
    from ttr_maps.diagnostics import Diagnostic
    from ttr_maps.load import load
    from ttr_maps.load.codes import code_name
    from ttr_maps.load.discover import expand

    if fix is not None and fix and not _CODES.match(fix):
        files, fix = (fix, *files), ""  # `--fix FILE`: the flag, then the first file
    if not files:
        raise click.UsageError("Missing argument 'FILES...': name a board or variant file (or a folder)")
    if diff and fix is None:
        raise click.UsageError("--diff shows what --fix would change: give --fix too")
    paths, skipped, empty = expand(list(files), skip_others)
    if fix is not None:
        _fix(paths, fix, diff)
    if skipped:
        shown = ", ".join(skipped[:3]) + (", ..." if len(skipped) > 3 else "")
        click.echo(f"note: skipped {len(skipped)} file(s) that are not boards or variants ({shown})", err=True)
    diags = [
        Diagnostic(folder, 0, 0, Severity.ERROR, "P002", "this folder holds no board or variant file (searched "
                   "recursively, by `format`); name a board or variant file, or a folder that holds some", code_name("P002"))
        for folder in empty
    ]
    if not paths and not diags:
        if fmt == "text":
            click.echo("no board or variant among the files named; nothing to check")
        else:
            click.echo(render(fmt, []))
        return
    for path in paths:
        loaded = load(path)
        diags += loaded.diagnostics + run_selected(loaded, select, ignore, cache=not no_cache)
    diags = unique(diags)
    floor = LEVELS["warning" if quiet and min_severity == "info" else min_severity]
    shown_diags = [d for d in diags if d.severity.rank >= floor]
    hidden = len(diags) - len(shown_diags)
    out = render(fmt, shown_diags)
    if out:
        click.echo(out + (f" ({hidden} less severe hidden)" if hidden and fmt == "text" else ""))
    elif fmt == "text":
        click.echo(f"{len(paths)} file(s) OK" + (f" ({hidden} info note(s) hidden)" if hidden else ""))
    bad = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    if any(d.severity in bad for d in shown_diags):
        raise SystemExit(1)
