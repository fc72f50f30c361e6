"""The optional compiled build (tools/backend/ttr_build.py, docs/simulate.md "A compiled build").

Everything about the package is in pyproject.toml. With TTR_MAPS_COMPILE=1 the modules its
`[tool.ttr-maps] compiled` lists are compiled with mypyc into extension modules installed beside their
sources (which Python then imports instead); without it this adds nothing.
"""

import os
import tomllib

from setuptools import setup


def compiled_modules() -> list[str]:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyproject.toml"), "rb") as f:
        return list(tomllib.load(f)["tool"]["ttr-maps"]["compiled"])


# (tools/backend/ttr_build.py sets TTR_MAPS_BUILD_REQUIRES_ONLY while pip only asks what the build needs:
# mypy is not installed yet then.)
if os.environ.get("TTR_MAPS_COMPILE", "").strip() not in ("", "0") and not os.environ.get("TTR_MAPS_BUILD_REQUIRES_ONLY"):
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(compiled_modules(), opt_level="3"))
else:
    setup()
