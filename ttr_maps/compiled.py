"""Which of this install's modules run compiled: the optional mypyc build (docs/simulate.md, "A compiled build").

`TTR_MAPS_COMPILE=1 pip install .` installs the modules pyproject.toml's `[tool.ttr-maps] compiled` lists as
extension modules beside their sources, and Python imports an extension module before a source of the same
name. The pure-Python install has none.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def compiled_modules(root: Path = ROOT) -> list[str]:
    """The dotted names of the ttr_maps modules found as extension modules under `root`, sorted (the
    mypyc runtime library they share, a `*__mypyc` module, is not one of them)."""
    out = []
    for path in root.rglob("*"):
        for suffix in EXTENSION_SUFFIXES:
            if path.name.endswith(suffix):
                rel = path.relative_to(root)
                name = path.name[: -len(suffix)]
                if not name.endswith("__mypyc"):
                    out.append(".".join(("ttr_maps", *rel.parent.parts, name)))
                break
    return sorted(out)


def build_note(root: Path = ROOT) -> str:
    """`pure Python`, or which modules are compiled, as `ttr-maps --version` says."""
    mods = compiled_modules(root)
    if not mods:
        return "pure Python"
    return "compiled with mypyc: " + ", ".join(m.removeprefix("ttr_maps.") for m in mods)
