"""ttr-maps: an unofficial fan tool to design, validate, render, play and simulate
Ticket to Ride-style railway boards."""

from .diagnostics import Diagnostic, LoadError, Severity
from .load import load, load_board, load_variant
from .model import Board, Variant

__version__ = "0.1.0"

__all__ = ["Board", "Diagnostic", "LoadError", "Severity", "Variant", "load", "load_board", "load_variant", "__version__"]
