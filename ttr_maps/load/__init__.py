"""Reading board and variant files with precise diagnostics."""

from .loader import Loaded, load, load_board, load_variant
from .source import Source, read_source

__all__ = ["Loaded", "Source", "load", "load_board", "load_variant", "read_source"]
