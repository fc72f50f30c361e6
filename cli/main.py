"""The `ttr-maps` click group. Every module of this package that defines `command`
(a click command or group) is registered, so adding a command is adding a module.
`main` is the program (the `ttr-maps` script)."""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import pkgutil
import sys
import threading

import click

from ttr_maps import __version__


class _Commands(click.Group):
    """The commands: a command's module is imported when the command is run (`ttr-maps render` needs none of the
    others); all of them when they are listed (help, completion) or a name is not found. A command named NAME
    is looked for in module NAME or NAME_cmd first (`import_cmd`: `import` is a keyword)."""

    def _load(self, module: str) -> None:
        command = getattr(importlib.import_module(f"{__package__}.{module}"), "command", None)
        if isinstance(command, click.Command) and command.name not in self.commands:
            self.add_command(command)

    def _load_all(self) -> None:
        for module in _modules():
            self._load(module)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            known = _modules()
            for module in (cmd_name, f"{cmd_name}_cmd"):
                if module in known:
                    self._load(module)
            if cmd_name not in self.commands:
                self._load_all()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_all()
        return super().list_commands(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=lambda ctx, _p, v: _version(ctx, v),
              help="Show the version, and whether this install is compiled, and exit.")
def cli() -> None:
    """ttr-maps: design, check, render, play and simulate Ticket to Ride-style boards.

    An unofficial fan tool. Boards and variants are YAML (or JSON) files; see the README.
    """


def _version(ctx: click.Context, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ttr_maps.compiled import build_note

    click.echo(f"ttr-maps, version {__version__} ({build_note()})")
    ctx.exit()


def _modules() -> list[str]:
    """The modules of this package that may hold a command, by name."""
    names = (info.name for info in pkgutil.iter_modules(importlib.import_module(__package__).__path__))
    return sorted(name for name in names if name not in ("main", "options") and not name.startswith("_"))


def main() -> None:
    """Run `ttr-maps` as the program: the command, then an exit that skips tearing the interpreter down.

    Once a command is done and its output flushed, freeing every module and object it loaded
    (pydantic's models, numpy, shapely) only costs time: about a tenth of a second of a first
    `validate`. So the program ends there with `os._exit`, after what a normal exit runs first:
    the `atexit` functions. It exits normally instead when another thread still runs (a normal exit
    waits for it), when the exit code is not a number, or when the output cannot be flushed (a
    closed pipe: Python reports that as it always does).

    The cycle collector runs after 100,000 new objects instead of Python's 700: starting a command
    makes tens of thousands that live to the end (modules, classes, the models' schemas), which
    the default has the collector look through some 150 times in a first `validate` for nothing
    (0.06 s); reference counting still frees everything else at once."""
    gc.set_threshold(100_000, *gc.get_threshold()[1:])
    try:
        cli()
    except SystemExit as done:
        code = done.code
        if (code is None or isinstance(code, int)) and threading.active_count() == 1 and _flushed():
            atexit._run_exitfuncs()
            _flushed()
            os._exit(code or 0)
        raise


def _flushed() -> bool:
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
