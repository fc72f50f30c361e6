"""ttr-maps' build backend: setuptools' own, plus the optional compiled build.

`TTR_MAPS_COMPILE=1 pip install .` builds the modules listed in pyproject.toml's `[tool.ttr-maps]
compiled` with mypyc (setup.py does that): this backend asks pip for mypy in the build environment then,
and only then, so the usual install needs nothing more than setuptools. An editable install is never
compiled: the compiled modules would sit beside their sources in the checkout and be imported instead of
them, so an edit to one would not be seen; asking for both is refused with that reason.

docs/simulate.md ("A compiled build") says what it is for and how it is checked.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools has, the ones below wrap)

MYPY = "mypy>=1.11"
REQUIRES_ONLY = "TTR_MAPS_BUILD_REQUIRES_ONLY"  # set while setuptools runs setup.py only to list requirements


def compile_requested() -> bool:
    return os.environ.get("TTR_MAPS_COMPILE", "").strip() not in ("", "0")


def toolchain_problem() -> str | None:
    """What the compiled build lacks on this machine to compile C (None: nothing): a C compiler, Python's headers."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    program = (shlex.split(cc) or ["cc"])[0]
    if shutil.which(program) is None:
        return (f"the C compiler {program!r} is not installed (Debian, Ubuntu: apt-get install gcc; or set CC to "
                "yours)")
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        return (f"this Python's C headers are not installed (no Python.h in {include}; Debian, Ubuntu: apt-get "
                "install python3-dev)")
    return None


def _check_toolchain() -> None:
    problem = toolchain_problem()
    if problem:
        raise SystemExit(f"TTR_MAPS_COMPILE=1 asks for the compiled build, but {problem}. Install that, or unset "
                         "TTR_MAPS_COMPILE for the usual (pure-Python) install, which needs neither.")


def get_requires_for_build_wheel(config_settings=None):
    if not compile_requested():
        return _setuptools.get_requires_for_build_wheel(config_settings)
    _check_toolchain()
    # setuptools runs setup.py to collect its requirements, before mypy is there: setup.py is told so.
    os.environ[REQUIRES_ONLY] = "1"
    try:
        return _setuptools.get_requires_for_build_wheel(config_settings) + [MYPY]
    finally:
        del os.environ[REQUIRES_ONLY]


def _refuse_editable() -> None:
    if compile_requested():
        raise SystemExit(
            "TTR_MAPS_COMPILE=1 makes a compiled build, which an editable install (pip install -e) cannot be: "
            "the compiled modules would be imported instead of the sources you edit. Install without -e "
            "(TTR_MAPS_COMPILE=1 pip install .), or unset TTR_MAPS_COMPILE for an editable install."
        )


def get_requires_for_build_editable(config_settings=None):
    _refuse_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _refuse_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
