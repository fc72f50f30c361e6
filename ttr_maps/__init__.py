"""ttr-maps: an unofficial fan tool to design, validate, render, play and simulate
Ticket to Ride-style railway boards.

The names below are imported on first use (PEP 562), so `import ttr_maps` (and
`ttr-maps --help`) does not pay for the models and the loader.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "Diagnostic": "diagnostics", "LoadError": "diagnostics", "Severity": "diagnostics",
    "load": "load", "load_board": "load", "load_variant": "load",
    "Board": "model", "Variant": "model",
}

__all__ = ["Board", "Diagnostic", "LoadError", "Severity", "Variant", "load", "load_board", "load_variant", "__version__"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ttr_maps' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
