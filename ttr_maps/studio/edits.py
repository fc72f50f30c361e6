"""Edits made on the studio page, written into the user's board file (through `yamledit`).

Every edit names what it changes by its index in the board's lists (the page got
them from the model), and carries the sha-256 of the board file the page shows:
when the file changed on disk since, nothing is written and the page reloads.
Each written edit is one undo step; undo and redo write back the whole previous
text, and only while the file is still as the studio left it.

A drag (a place, a name, a bend point) is drawn before it is written: the change is
made on the board file's data as last read (`_patched`, the loader's own schema
check) and the page gets that drawing at once; writing the text (ruamel.yaml's dump,
the new text loaded to check it, the atomic write that refuses a file changed on
disk) follows in the background, and the next edit waits for it. When that write is
refused, the page is redrawn from the file as it is and says why.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from ..geometry import Layout, unproject
from ..model.board import MAX_ROUTE_LENGTH
from ..yamledit import EditError, YamlFile, write_checked
from .session import Drawing, Session, file_sha, suggest_length
from ..load import Loaded


class BadEdit(ValueError):
    """A malformed edit request (a 400): the message says which field is wrong."""


class Stale(EditError):
    """The board file changed on disk since the page loaded it (a 409: the page reloads)."""


STARTER = """\
format: ttr-board/1
meta:
  title: {title}
drawing:
  car_length: 1  # board units per route space: x/y below count in car lengths
places:
  - {{id: {pid}, name: {name}, x: 0, y: 0}}
"""


def apply(session: Session, op: dict[str, Any]) -> str:
    """Write the edit `op` into the board file; returns what was done, in words. A drag returns once it is
    drawn; its text is written in the background (see the module docstring)."""
    kind = op.get("op")
    if kind not in OPS and kind not in ("undo", "redo", "start"):
        raise BadEdit(f"unknown edit {str(kind)[:40]!r}; known: {', '.join(sorted(OPS))}, undo, redo, start")
    # The background steps of the drawing shown (render's layout, the checks) stop: this edit makes a newer one.
    cancelled = session.cancel_background()
    try:
        while True:
            session.wait_written()  # the edit before this one is on disk (or was refused) first
            with session.lock:
                if session.writing:  # another edit came in between
                    continue
                return _apply(session, op, kind)
    except BaseException:
        if cancelled:
            session.resume()  # refused: the drawing shown still gets its exact layout and findings
        raise


def _apply(session: Session, op: dict[str, Any], kind: str) -> str:
    path = session.board_path
    check = session.path if session.path != path else None
    if kind == "start":
        message = _start(session)
    else:
        base = op.get("base")
        sha = session.resolve(base) if isinstance(base, str) else None
        if sha is None or sha != file_sha(path):
            raise Stale(f"{path} was changed on disk since the page loaded it; nothing was written, the page now shows the file as it is")
        if kind in ("undo", "redo"):
            message = _undo_redo(session, kind, check)
        else:
            snap = session.snapshot
            if not snap.ok or snap.drawing is None or snap.stale:
                raise EditError(f"{path} does not load now; fix the problems listed, then edit on the board again")
            doc = session.doc if session.doc is not None and session.doc.sha == sha else YamlFile.read(path)
            session.doc = None  # a refused edit leaves the tree changed: read the file again next time
            before = doc.text
            # What the text as read loads with (compared with the new text's load: no new error may appear).
            known = doc.loaded.diagnostics if doc.loaded is not None else snap.drawing.loaded.diagnostics
            if kind in DRAGS:
                recorded = _Recorded(doc)
                message = OPS[kind](recorded, snap.drawing, op)
                loaded = _patched(snap.drawing.loaded, recorded.changes)
                if loaded is not None:
                    token = session.show_edit(loaded, message)
                    session.write_later(lambda: _write(session, doc, before, check, known, message, token))
                    return message
            else:
                message = OPS[kind](doc, snap.drawing, op)
            after = doc.save(check=check, before=known)
            session.doc = doc
            if after != before:
                _done(session, before, after)
                # The new text was loaded to check it: the drawing is made from that load.
                session.refresh(force=True, message=message, later=True, loaded=doc.loaded)
                return message
    session.refresh(force=True, message=message, later=True)
    return message


def _done(session: Session, before: str, after: str) -> None:
    """One undo step more."""
    session.undo.append((before, after))
    del session.undo[:-200]
    session.redo.clear()


def _write(session: Session, doc: YamlFile, before: str, check: str | None, known: list, message: str, token: str) -> None:
    """Write a drag already drawn (in the background, one at a time); a refusal redraws the file as it is, saying why.
    The text is made and checked without holding the session (the page reads its state meanwhile); the write itself,
    which must see the file as it was read, holds it."""
    try:
        prepared = doc.prepare(check=check, before=known)
        with session.lock:
            after = doc.commit(prepared)
            session.doc = doc
            if after != before:
                _done(session, before, after)
            session.written(token, doc.sha, doc.loaded)
    except Exception as exc:  # refused (changed on disk, would break, cannot write): the page shows the file as it is
        with session.lock:
            session.doc = None
            why = str(exc) if isinstance(exc, EditError) else f"{type(exc).__name__}: {exc}"
            session.refresh(force=True, message=f"{message}: not written, {why}", later=True)


class _Recorded:
    """A YamlFile that notes each change made through it: (key path, value), the value None for a removal."""

    def __init__(self, doc: YamlFile):
        self.doc = doc
        self.changes: list[tuple[tuple[Any, ...], Any]] = []

    def get(self, keys: tuple[Any, ...]) -> Any:
        return self.doc.get(keys)

    def set(self, keys: tuple[Any, ...], value: Any) -> None:
        self.doc.set(keys, value)
        self.changes.append((tuple(keys), value))

    def delete(self, keys: tuple[Any, ...]) -> None:
        self.doc.delete(keys)
        self.changes.append((tuple(keys), None))


def _patched(loaded: Loaded, changes: list[tuple[tuple[Any, ...], Any]]) -> Loaded | None:
    """`loaded` with the `changes` made to its board file's data and the board built again from it (the loader's
    schema check); None when that data does not make a board (the edit then goes the long way: written, loaded)."""
    from ..load.source import Source
    from ..load.validation import validate
    from ..model.board import Board

    variant = loaded.kind == "variant"
    src = loaded.board_source if variant else loaded.source
    if src is None or not changes:
        return None
    data = src.data
    for keys, value in changes:
        data = _with(data, keys, value)
        if data is None:
            return None
    problems: list = []
    fresh = Source(src.path, data=data)
    board = validate(fresh, Board, problems)
    if board is None or problems:
        return None
    # The positions stay those of the text as read (the lines do not move); the written text's load replaces it.
    fresh = replace(src, data=data)
    return replace(loaded, board=board, **({"board_source": fresh} if variant else {"source": fresh}))


def _with(node: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """A copy of `node` with `value` at `keys` (None: the key removed), sharing what did not change; None when
    `keys` leads nowhere."""
    key, rest = keys[0], keys[1:]
    if isinstance(node, dict):
        out = dict(node)
        if rest:
            if key not in out:
                return None
            child = _with(out[key], rest, value)
            if child is None:
                return None
            out[key] = child
        elif value is None:
            out.pop(key, None)
        else:
            out[key] = _plain(value)
        return out
    if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
        items = list(node)
        if rest:
            child = _with(items[key], rest, value)
            if child is None:
                return None
            items[key] = child
        elif value is None:
            del items[key]
        else:
            items[key] = _plain(value)
        return items
    return None


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _undo_redo(session: Session, kind: str, check: str | None) -> str:
    stack, other = (session.undo, session.redo) if kind == "undo" else (session.redo, session.undo)
    if not stack:
        raise EditError(f"nothing to {kind}")
    before, after = stack[-1]
    current, wanted = (after, before) if kind == "undo" else (before, after)
    try:
        write_checked(session.board_path, current, wanted, check)
    except EditError as exc:
        raise EditError(f"cannot {kind}: {exc}") from None
    stack.pop()
    other.append((before, after))
    return f"{kind} done"


def _start(session: Session) -> str:
    """Write a one-place starter board into an empty (or missing) board file."""
    path = Path(session.board_path)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise EditError(f"{path} is not a .yaml file; the studio starts YAML boards only")
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise EditError(f"{path} is not empty; the studio starts a board only in an empty file")
    title = path.stem.replace("-", " ").replace("_", " ").strip().title() or "My board"
    new = text + STARTER.format(title=_quoted(title), pid="first", name="First")
    from ..fileio import write_atomic

    try:
        write_atomic(path, new, make_dirs=False)
    except OSError as exc:
        raise EditError(f"cannot write {path}: {exc.strerror or exc}") from None
    session.undo.clear()
    session.redo.clear()
    return f"started a board in {path}: drag its first place, add more with 'Add place'"


# --- the edits -------------------------------------------------------------------------------------


def _move_place(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    i = _index(op, "index", drawing.loaded.board.places)
    place = drawing.loaded.board.places[i]
    keys = _board_point(drawing, _point(op, "at"))
    for key, value in keys.items():
        doc.set(("places", i, key), value)
    return f"moved {place.name} to " + ", ".join(f"{k} {v}" for k, v in keys.items())


def _move_label(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    """The place's name drawn centred at `at` (`label: {dx, dy}` from the place); `at` null: back to render's choice."""
    board, plan = drawing.loaded.board, drawing.plan
    i = _index(op, "index", board.places)
    place = board.places[i]
    if op.get("at") is None:
        if "label" in doc.get(("places", i)):
            doc.delete(("places", i, "label"))
        return f"{place.name}: name placed by the renderer again"
    cx, cy = _point(op, "at")
    pp = plan.place(place.id)
    digits = _digits(Layout(board).car_length)
    dx = _tidy(round((cx - plan.dx - pp.x) / plan.scale, digits))
    dy = _tidy(round((cy - plan.dy - pp.y) / plan.scale, digits))
    doc.set(("places", i, "label"), {"dx": dx, "dy": dy})
    return f"moved the name of {place.name} to dx {dx}, dy {dy}"


def _add_place(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    name = _text(op, "name", 100)
    taken = {p.id for p in board.places}
    pid = base = _slug(name) or "place"
    n = 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    entry: dict[str, Any] = {"id": pid, "name": name}
    entry.update(_board_point(drawing, _point(op, "at")))
    if op.get("country"):
        entry = {"id": pid, "name": name, "kind": "country", **{k: v for k, v in entry.items() if k not in ("id", "name")}}
    doc.append(("places",), entry)
    return f"added {name} ({pid})"


def _rename_place(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    i = _index(op, "index", drawing.loaded.board.places)
    name = _text(op, "name", 100)
    doc.set(("places", i, "name"), name)
    return f"renamed {drawing.loaded.board.places[i].name} to {name}"


def _delete_place(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    i = _index(op, "index", board.places)
    pid = board.places[i].id
    used = [r.id for r in board.routes if pid in r.ends] + [t.id for t in board.tickets if pid in (t.from_, t.to)]
    if used:
        raise EditError(f"{board.places[i].name} is used by {', '.join(used[:4])}{' and more' if len(used) > 4 else ''}; delete those first")
    doc.delete(("places", i))
    return f"deleted {board.places[i].name}"


def _set_bend(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    i = _index(op, "route", board.routes)
    points = op.get("points")
    if not isinstance(points, list) or len(points) > 20:
        raise BadEdit("points must be a list of at most 20 [x, y] pairs")
    # Parallel routes share one shape: the renderer follows the first of them with a bend.
    route = board.routes[i]
    siblings = [k for k, r in enumerate(board.routes) if set(r.ends) == set(route.ends)]
    owner = next((k for k in siblings if board.routes[k].bend), i)
    owner_route = board.routes[owner]
    pts = [_board_point(drawing, _pair(p, "points")) for p in points]
    written = [[p["lat"], p["lon"]] if "lat" in p else [p["x"], p["y"]] for p in pts]
    if owner_route.from_ != route.from_:  # the page drew them from this route's `from`
        written.reverse()
    if written:
        doc.set(("routes", owner, "bend"), written)
    elif "bend" in doc.get(("routes", owner)):
        doc.delete(("routes", owner, "bend"))
    return f"{owner_route.id}: {len(written)} bend point(s)"


def _add_route(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    loaded = drawing.loaded
    a, b = _ends(op, drawing, "a route")
    length = op.get("length") or suggest_length(loaded, a, b)
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_ROUTE_LENGTH:
        raise BadEdit(f"length must be a whole number of spaces from 1 to {MAX_ROUTE_LENGTH}")
    tracks = op.get("tracks") or ["gray"]
    if not isinstance(tracks, list) or not 1 <= len(tracks) <= 3 or not all(isinstance(c, str) and re.fullmatch(r"[a-z][a-z0-9-]{0,31}", c) for c in tracks):
        raise BadEdit("tracks must be a list of 1 to 3 colour names, e.g. [\"red\"] or [\"gray\", \"gray\"]")
    entry: dict[str, Any] = {"from": a, "to": b, "length": length, "tracks": tracks}
    ferry = op.get("ferry", 0)
    if not isinstance(ferry, int) or isinstance(ferry, bool) or not 0 <= ferry <= length:
        raise BadEdit("ferry must be the number of locomotives, 0 to the route's length")
    if ferry:
        entry["ferry"] = ferry
    if op.get("tunnel"):
        entry["tunnel"] = True
    doc.append(("routes",), entry)
    return f"added route {a}-{b} ({length} {'/'.join(tracks)})"


def _delete_route(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    i = _index(op, "index", board.routes)
    doc.delete(("routes", i))
    return f"deleted route {board.routes[i].id}"


def _add_ticket(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    from ..tickets.paths import BoardPaths

    loaded = drawing.loaded
    a, b = _ends(op, drawing, "a ticket")
    points = op.get("points")
    if points is None:
        points = BoardPaths(loaded.board).distance(a, b) or 1
    points = _points(points)
    decks = op.get("decks") or drawing.data["decks"][:1]
    if not isinstance(decks, list) or not decks or not all(isinstance(d, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", d) for d in decks):
        raise BadEdit("decks must be a list of deck ids (lower case), e.g. [\"main\"]")
    doc.append(("tickets",), {"from": a, "to": b, "points": points, "decks": decks})
    return f"added ticket {a}-{b} ({points} points)"


def _set_ticket(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    i = _index(op, "index", board.tickets)
    points = _points(op.get("points"))
    doc.set(("tickets", i, "points"), points)
    return f"ticket {board.tickets[i].id}: {points} points"


def _delete_ticket(doc: YamlFile, drawing: Drawing, op: dict) -> str:
    board = drawing.loaded.board
    i = _index(op, "index", board.tickets)
    doc.delete(("tickets", i))
    return f"deleted ticket {board.tickets[i].id}"


# Drawn from the model first, written after (see the module docstring): the edits made by dragging.
DRAGS = {"move_place", "move_label", "set_bend"}

OPS: dict[str, Callable[[Any, Drawing, dict], str]] = {
    "move_place": _move_place,
    "move_label": _move_label,
    "add_place": _add_place,
    "rename_place": _rename_place,
    "delete_place": _delete_place,
    "set_bend": _set_bend,
    "add_route": _add_route,
    "delete_route": _delete_route,
    "add_ticket": _add_ticket,
    "set_ticket": _set_ticket,
    "delete_ticket": _delete_ticket,
}


# --- from the page's millimetres to the board's units ----------------------------------------------


def _board_point(drawing: Drawing, at: tuple[float, float]) -> dict[str, float]:
    """The board's own keys (x/y, or lat/lon on a lat/lon board) for a point of the drawing."""
    plan, board = drawing.plan, drawing.loaded.board
    layout = Layout(board)
    bx, by = plan.to_board(at[0] - plan.dx, at[1] - plan.dy)
    if layout.geographic:
        lat, lon = unproject(bx, by, *layout.projection)
        if not (-85 <= lat <= 85 and -180 <= lon <= 180):
            raise BadEdit("that point is off the map's latitudes and longitudes")
        digits = _digits(layout.car_length / 111.0)  # a degree of latitude is about 111 km
        return {"lat": round(lat, digits), "lon": round(lon, digits)}
    digits = _digits(layout.car_length)
    return {"x": _tidy(round(bx, digits)), "y": _tidy(round(by, digits))}


def _digits(car: float) -> int:
    """Decimals that keep a position to about a tenth of a car length."""
    return max(0, math.ceil(-math.log10(car / 10))) if car > 0 else 2


def _tidy(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


# --- request fields -----------------------------------------------------------------------------


def _index(op: dict, key: str, items: Any) -> int:
    i = op.get(key)
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(items):
        raise BadEdit(f"{key} must be an index from 0 to {len(items) - 1}")
    return i


def _point(op: dict, key: str) -> tuple[float, float]:
    return _pair(op.get(key), key)


def _pair(value: Any, key: str) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and abs(v) < 1e7 for v in value)):
        raise BadEdit(f"{key} must be a point [x, y] in millimetres of the drawing")
    return float(value[0]), float(value[1])


def _text(op: dict, key: str, limit: int) -> str:
    value = op.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadEdit(f"{key} must be text of 1 to {limit} characters")
    return value.strip()


def _ends(op: dict, drawing: Drawing, what: str) -> tuple[str, str]:
    """The `from` and `to` of a new route or ticket: ids of two different places of the board."""
    ids = {p.id for p in drawing.loaded.board.places}
    for key in ("from", "to"):
        if not isinstance(op.get(key), str) or op[key] not in ids:
            raise BadEdit(f"{key} must be the id of a place on the board")
    if op["from"] == op["to"]:
        raise BadEdit(f"{what} joins two different places")
    return op["from"], op["to"]


def _points(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise BadEdit("points must be a whole number from 0 to 99")
    return value


def _slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:40]


def _quoted(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z][A-Za-z0-9 ]*", text) else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
