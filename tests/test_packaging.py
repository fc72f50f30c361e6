"""The package installs every subpackage and keeps `cli` inside the ttr_maps namespace."""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {p for p in find_packages(str(ROOT), include=["ttr_maps*"])}
    found |= {"ttr_maps.cli." + p for p in find_packages(str(ROOT / "cli"))} | {"ttr_maps.cli"}
    assert found <= listed, f"add to pyproject.toml [tool.setuptools] packages: {sorted(found - listed)}"


def test_cli_installs_under_ttr_maps():
    import ttr_maps.cli.main as main

    assert main.cli.name is not None
    assert Path(main.__file__).resolve().parent == ROOT / "cli"
