"""Rendering: SVG board and cards, print-and-play PDF."""
