"""`ttr-maps studio FILE`: the board as `render` draws it, live, with its findings, edited on the board.

session (what the page shows: last good drawing, findings, diagnostics) → edits
(page edits written into the user's YAML through `yamledit`, undo/redo) → server
(routes, live updates, exports) on the shared local server of `ttr_maps.web`;
the page itself is plain HTML/JS/CSS in static/. See docs/studio.md.
"""

from .server import studio_app

__all__ = ["studio_app"]
