"""`ttr-maps play`: a person (or several at one screen) against the bots, the reference engine as referee.

`Table` (table.py) holds the game and builds what the seat on screen may see from the
engine's observation; `play_app` (server.py) serves it on the shared local server
(ttr_maps.web: 127.0.0.1 only, Host check, per-run token).
"""

from .server import play_app
from .table import HUMAN, Table, TableError, new_table, resume_table

__all__ = ["HUMAN", "Table", "TableError", "new_table", "play_app", "resume_table"]
