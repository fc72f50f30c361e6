"""Geometry checks (D, for drawing): markers, labels and routes as the board would be drawn."""
