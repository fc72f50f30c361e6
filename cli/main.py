"""The `ttr-maps` click group. Every module of this package that defines `command`
(a click command or group) is registered, so adding a command is adding a module."""

from __future__ import annotations

import importlib
import pkgutil

import click

from ttr_maps import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ttr-maps")
def cli() -> None:
    """ttr-maps: design, check, render, play and simulate Ticket to Ride-style boards.

    An unofficial fan tool. Boards and variants are YAML (or JSON) files; see the README.
    """


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(importlib.import_module(__package__).__path__), key=lambda m: m.name):
        if info.name in ("main", "options") or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            cli.add_command(command)


_register()
