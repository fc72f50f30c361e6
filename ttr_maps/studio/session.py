"""What the studio page shows: the last good drawing of the opened file, its findings, or why it does not load.

`Session.refresh()` reads the files again (after a save in any editor or an edit
from the page) and builds a `Snapshot` in steps, each published as soon as it is
made: the drawing first (load, layout, SVG: what the page waits for), then the
design checks' findings. A drag on the page is drawn from the model before its
text is written (`show_edit`, then `edits.py` writes the file in the background;
the next edit waits for that write). The first drawing of an edit is the quick layout of
`quick.py` (the last drawing with only what the edit reached laid out again, a
tenth of the time); `render`'s own layout follows and replaces it, and the checks
of the drawn board read that same layout instead of making it again. An edit that
changes nothing drawn (a ticket) keeps the drawing as it is. A file that stops
loading keeps the last good drawing and shows its diagnostics instead.
"""

from __future__ import annotations

import ctypes
import hashlib
import itertools
import logging
import math
import os
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Severity, unique
from ..load import Loaded, load
from ..load.source import Source


@dataclass
class Drawing:
    """A drawable board: its SVG and the geometry the page needs to point at things (canvas mm)."""

    svg: str
    data: dict[str, Any]
    plan: Any
    loaded: Loaded
    exact: bool = True  # the layout is `render`'s own (False: the quick layout of an edit, the exact one follows)
    key: str = ""  # names this SVG: a page that has it is not sent it again


@dataclass
class Snapshot:
    version: int = 0
    ok: bool = False
    problems: list[Diagnostic] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    findings_ready: bool = False
    drawing: Drawing | None = None
    stale: bool = False  # the drawing is of an earlier text (the file does not load now)
    sha: str | None = None  # of the board file's bytes the drawing and findings are of
    message: str = ""


def file_sha(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


log = logging.getLogger("ttr_maps.studio")


class Cancelled(BaseException):
    """Raised in the background thread when a newer edit or save makes its drawing old: its steps stop at once.
    A BaseException, so that no `except Exception` in the renderer or the checks holds it up."""

#: Seconds without a newer drawing before the steps after it (render's layout, the checks) start.
SETTLE = 0.25


class Session:
    """One opened file (a board, or a variant and its board) and what the page shows of it."""

    def __init__(self, path: str, sim: str | None = None):
        self.path = os.path.normpath(path)
        self.sim = sim
        self.board_path = self.path
        self.snapshot = Snapshot()
        self.lock = threading.RLock()  # one refresh or edit at a time
        self.undo: list[tuple[str, str]] = []  # (text before, text after) of the board file, per edit
        self.redo: list[tuple[str, str]] = []
        self._seen: tuple[str | None, str | None] | None = None
        self._heat: dict[str, float] | None = None
        self.on_change: Any = None  # called (from any thread) after each new snapshot
        self.doc: Any = None  # the board file read for editing (a yamledit.YamlFile), kept while it is unchanged
        self._queue = threading.Condition()
        self._next: tuple[Snapshot, Loaded] | None = None
        self._worker: threading.Thread | None = None
        self._cancel_asked = False  # cancel_background asked the step under way to stop (_cancellable)
        self._closed = False
        self._quick_failed = False
        # Writing a drag's text (ruamel.yaml's dump, the check, the atomic write) happens after the page has
        # its drawing, one write at a time; `aliases` maps the name a drawing shows for its not yet written
        # text (its `sha`) to the sha-256 of the bytes written.
        self._pending: threading.Thread | None = None
        self.aliases: dict[str, str] = {}
        self._edits = 0
        self._keys = itertools.count(1)
        # The background steps (render's layout, the checks, reading the file for editing) give way to an edit or a
        # save: those cancel them (`cancel_background`) while `_working` says they are in a step that may stop.
        self._guard = threading.Lock()
        self._working = False
        self._units_lock = threading.Lock()  # not self.lock: the page's state never waits for an edit's write
        self._units: dict[str, tuple[tuple[Any, ...], dict[tuple[int, ...], str]]] = {}  # the last drawings' parts, by key

    # --- edits drawn before they are written ---------------------------------------------------

    def resolve(self, sha: str) -> str:
        """The sha-256 of the file's bytes that `sha` (a snapshot's) stands for."""
        return self.aliases.get(sha, sha)

    @property
    def writing(self) -> bool:
        return self._pending is not None and self._pending.is_alive()

    def wait_written(self) -> None:
        """Return once the last edit's text is written (or refused: the write says so on the page itself)."""
        pending = self._pending
        if pending is not None and pending is not threading.current_thread():
            pending.join()

    def write_later(self, job: Any) -> None:
        """Run `job` (an edit's write) in the background; the caller holds `self.lock` and waited for the last write."""
        self._pending = threading.Thread(target=job, daemon=True, name="studio-write")
        self._pending.start()

    def show_edit(self, loaded: Loaded, message: str) -> str:
        """Publish the drawing of `loaded`, an edit made on the model whose text is not written yet; returns
        the name its snapshot gives the text (`sha`), which `written` ties to the bytes once they are on disk."""
        with self.lock:
            self._edits += 1
            token = f"edit-{self._edits}"
            old = self.snapshot
            snap = Snapshot(version=old.version + 1, message=message, sha=token, ok=True,
                            problems=[d for d in loaded.diagnostics if d.severity is not Severity.ERROR])
            snap.drawing = self._draw(loaded, None if old.stale else old.drawing)
            snap.findings = old.findings
            self._publish(snap)
            return token

    def written(self, token: str, sha: str, loaded: Loaded) -> None:
        """The text of the edit shown as `token` is on disk (`sha`, loaded as `loaded`): the exact layout and the
        checks of the drawing follow from that load, unless a newer drawing is out."""
        with self.lock:
            self.aliases[token] = sha
            if len(self.aliases) > 50:
                del self.aliases[next(iter(self.aliases))]
            self._seen = (file_sha(self.path), file_sha(self.board_path) if self.board_path != self.path else None)
            snap = self.snapshot
            if snap.sha != token or snap.drawing is None:
                return
            drawing = replace(snap.drawing, loaded=loaded)
            snap = replace(snap, sha=sha, drawing=drawing)
            self.snapshot = snap  # the same drawing, now of the written text: no new version
        self._later(snap, loaded)

    # --- reading ---------------------------------------------------------------------------

    def refresh(self, force: bool = False, message: str = "", later: bool = False, loaded: Loaded | None = None) -> bool:
        """Read the files again if they changed; returns True when a new snapshot was made.

        The drawing is published first (the quick layout when the last drawing allows it);
        the rest (the exact layout when the first was quick; shortest paths, loads, the
        design checks) follows, in a background thread with `later` (so an edit's answer
        and the next edit need not wait for it; a newer refresh supersedes it). `loaded` is the
        files as they are on disk, loaded already (an edit checked its text that way).
        """
        with self.lock:
            seen = (file_sha(self.path), file_sha(self.board_path) if self.board_path != self.path else None)
            if seen == self._seen and not force:
                return False
            self._seen = seen
            self.cancel_background()  # a newer drawing is coming: the steps of the last one stop
            if loaded is None or not loaded.ok:
                loaded = load(self.path)
            if loaded.board_path:
                self.board_path = os.path.normpath(loaded.board_path)
            old = self.snapshot
            snap = Snapshot(version=old.version + 1, message=message, sha=file_sha(self.board_path))
            if loaded.ok and loaded.board is not None:
                snap.ok = True
                snap.problems = [d for d in loaded.diagnostics if d.severity is not Severity.ERROR]
                snap.drawing = self._draw(loaded, None if old.stale else old.drawing)
                snap.findings = old.findings  # listed (marked as being checked again) until the new ones are made
            else:
                snap.problems = unique(loaded.diagnostics)
                snap.drawing, snap.stale = old.drawing, old.drawing is not None
                snap.findings_ready = True
            self._publish(snap)
        if snap.ok:
            if later:
                self._later(snap, loaded)
            else:
                self._finish(snap, loaded)
        return True

    def _later(self, snap: Snapshot, loaded: Loaded) -> None:
        """Hand the steps after the first drawing to the background thread."""
        with self._queue:
            self._next = (snap, loaded)
            self._queue.notify()
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, daemon=True, name="studio-checks")
                self._worker.start()

    def _work(self) -> None:
        while True:
            with self._queue:
                while self._next is None and not self._closed:
                    self._queue.wait()
                if self._closed:
                    return
                # A burst of saves (an editor saving as one types, a run of drags) settles first: the exact
                # layout and the checks start once no newer drawing came for SETTLE seconds.
                while True:
                    job = self._next
                    self._queue.wait(SETTLE)
                    if self._closed:
                        return
                    if self._next is job:
                        break
                snap, loaded = self._next
                self._next = None
            try:
                self._finish(snap, loaded)
            except Cancelled:
                continue  # a newer drawing is out; its own steps follow
            except Exception as exc:  # the page says so; the server and this thread go on
                with self.lock:
                    if self.snapshot.version == snap.version:
                        self._publish(replace(self.snapshot, version=snap.version + 1, findings_ready=True, findings=[
                            {"path": self.path, "line": 0, "col": 0, "severity": "error", "code": "X000",
                             "message": f"the studio could not finish this drawing: {type(exc).__name__}: {exc}"}]))

    def _cancellable(self, step: Any) -> Any:
        """Run `step()`; in the background thread, a newer edit or save may stop it (raising Cancelled)."""
        if threading.current_thread() is not self._worker:
            return step()
        with self._guard:
            self._working = True
            self._cancel_asked = False
        try:
            out = step()
            # Python drops an exception raised inside a weakref callback or a __del__ (printing "Exception
            # ignored in ..."), and the asynchronous Cancelled lands there now and then: a cancel asked for
            # during the step stops it here, then, instead of letting its old result go on.
            with self._guard:
                if self._cancel_asked:
                    raise Cancelled
            return out
        finally:
            with self._guard:
                self._working = False
                # A cancel asked for just as the step ended must not fire later, outside it.
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._worker.ident), None)

    def cancel_background(self) -> bool:
        """Stop the background step under way, if any: an edit or a save makes a newer drawing, whose own steps follow.
        True when one was stopped (`resume` starts it again if no newer drawing comes after all)."""
        with self._guard:
            if not self._working or self._worker is None or self._worker.ident is None:
                return False
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._worker.ident), ctypes.py_object(Cancelled))
            self._working = False
            self._cancel_asked = True
            return True

    def resume(self) -> None:
        """Take the background steps of the drawing shown again (an edit that cancelled them was refused)."""
        with self.lock:
            snap = self.snapshot
            if snap.ok and snap.drawing is not None and not snap.findings_ready and not (snap.sha or "").startswith("edit-"):
                self._later(snap, snap.drawing.loaded)

    def close(self) -> None:
        """Stop the background step (the server is stopping); an edit being written is written first."""
        with self._queue:
            self._closed = True
            self._queue.notify()
        self.wait_written()

    def _finish(self, snap: Snapshot, loaded: Loaded) -> None:
        """The steps of `refresh` after the first drawing, each published only if no newer drawing came out meanwhile."""
        if self.snapshot.version != snap.version or snap.drawing is None:
            return
        d = snap.drawing
        if not d.exact:
            d = self._cancellable(lambda: self._draw(loaded, None))
            with self.lock:
                if self.snapshot.version != snap.version:
                    return
                snap = replace(snap, version=snap.version + 1, drawing=d)
                self._publish(snap)
        tickets, load_share = self._cancellable(lambda: analysis(loaded))
        routes = [{**r, "load": load_share.get(r["index"], 0.0)} for r in d.data["routes"]]
        drawing = replace(d, data={**d.data, "tickets": tickets, "routes": routes})
        findings = self._cancellable(lambda: self._findings(loaded, d.plan))
        with self.lock:
            if self.snapshot.version != snap.version:
                return
            self._publish(replace(snap, version=snap.version + 1, drawing=drawing, findings=findings, findings_ready=True))
        self._prepare_doc()

    def _prepare_doc(self) -> None:
        """Read the board file for editing now, so the first edit does not wait for it (ruamel.yaml is slow)."""
        from ..yamledit import EditError, YamlFile

        sha = file_sha(self.board_path)
        if editable(self.board_path) or (self.doc is not None and self.doc.sha == sha):
            return
        try:
            doc = self._cancellable(lambda: YamlFile.read(self.board_path))
        except EditError:
            return
        with self.lock:
            if doc.sha == file_sha(self.board_path):
                self.doc = doc

    def _publish(self, snap: Snapshot) -> None:
        self.snapshot = snap
        if self.on_change is not None:
            self.on_change(snap.version)

    def _draw(self, loaded: Loaded, last: Drawing | None) -> Drawing:
        """The drawing of `loaded`: kept from `last` when nothing drawn changed, its quick layout when it can be
        (`quick.py`), else the exact layout of `render`."""
        from ..render import BoardOptions, plan_board
        from ..render.board import draw_board
        from .quick import quick_plan, rebind, same_drawing

        plan, exact = None, True
        if last is not None and last.exact:
            try:
                if same_drawing(last.plan, loaded.board, loaded.variant):
                    plan = rebind(last.plan, loaded.board, loaded.variant)
            except Exception:  # a layout the quick path does not follow: the exact one below
                plan = None
        if plan is None and last is not None:
            try:
                plan, exact = quick_plan(last.plan, loaded.board, loaded.variant), False
            except Exception as exc:  # the renderer's inner steps changed: drawn whole (slower), and said once
                if not self._quick_failed:
                    log.warning("the studio's quick layout failed (%s: %s); each edit is laid out whole", type(exc).__name__, exc)
                    self._quick_failed = True
                plan = None
        if plan is None:
            plan, exact = plan_board(loaded.board, loaded.variant, BoardOptions()), True
        svg = draw_board(plan)
        return Drawing(svg, drawing_data(plan, loaded, self.heat()), plan, loaded, exact, key=f"{id(self):x}-{next(self._keys)}")

    def _findings(self, loaded: Loaded, plan: Any = None) -> list[dict[str, Any]]:
        from ..checks import run_checks

        try:
            found = run_checks(loaded, drawing=plan)
        except Exception as exc:  # a check failing must not stop the page; say so in the list
            found = [Diagnostic(self.path, 0, 0, Severity.ERROR, "X000", f"the design checks failed: {type(exc).__name__}: {exc}")]
        diags = unique([d for d in loaded.diagnostics if d.severity is not Severity.ERROR] + found)
        targets = _Targets(loaded)
        return [{**d.as_dict(), **targets.of(d)} for d in diags]

    def heat(self) -> dict[str, float] | None:
        """Claim rate per route id from the simulation folder given with --sim (None without one)."""
        if self.sim is None:
            return None
        if self._heat is None:
            from ..simulate.output import load_summary

            summary = load_summary(self.sim)
            self._heat = {r["route"]: r["claimed"]["rate"] for r in summary.get("routes", [])}
        return self._heat

    def state(self, have: str | None = None) -> dict[str, Any]:
        """The snapshot as the page reads it (JSON); the SVG is left out (null) when it is the one named `have`."""
        snap = self.snapshot
        d = snap.drawing
        return {
            "version": snap.version,
            "file": self.path,
            "board_file": self.board_path,
            "ok": snap.ok,
            "stale": snap.stale,
            "sha": snap.sha,
            "message": snap.message,
            "problems": [p.as_dict() for p in snap.problems],
            "findings": snap.findings,
            "findings_ready": snap.findings_ready,
            "drawing": None if d is None else {**self._svg_for(d, have), "key": d.key, **d.data, "exact": d.exact},
            "editable": editable(self.board_path),
            "saved": not self.writing,
            "undo": len(self.undo),
            "redo": len(self.redo),
            "sim": self.sim,
        }


    def _svg_for(self, d: Drawing, have: str | None) -> dict[str, Any]:
        """The drawing's SVG for a page that shows the drawing `have`: nothing when it is this one, only the parts
        that changed when the page's drawing is one of the last few, else the whole SVG."""
        if have == d.key:
            return {"svg": None}
        with self._units_lock:
            mine = self._units.get(d.key)
            if mine is None:
                mine = self._units[d.key] = svg_units(d.svg)
                while len(self._units) > 4:
                    del self._units[next(iter(self._units))]
            theirs = self._units.get(have) if have else None
        if theirs is None or theirs[0] != mine[0]:
            return {"svg": d.svg}
        patch = [[list(path), text] for path, text in mine[1].items() if theirs[1].get(path) != text]
        if len(patch) > len(mine[1]) // 2:
            return {"svg": d.svg}
        return {"svg": None, "patch": patch, "base": have}


def svg_units(svg: str) -> tuple[tuple[Any, ...], dict[tuple[int, ...], str]]:
    """The renderer's SVG (one element per line) as its skeleton and its parts.

    The parts are the elements two levels down (the table's pieces; the land, places, names and legends of
    the map) and, inside the routes' group, each of its groups (the rails, the shadows, each route); a part
    is named by its element path (child indices from the root). The skeleton is everything else, in order,
    with the parts' names in their places: two drawings with the same skeleton differ only in the parts
    whose text differs, which the page replaces in place.
    """
    skeleton: list[Any] = []
    units: dict[tuple[int, ...], str] = {}
    counters = [0]  # children seen so far, per open element
    depth = 0  # open elements: the root <svg> is at depth 1
    routes = False  # inside the routes' group
    unit: tuple[int, ...] | None = None
    start = 0
    where: list[int] = []
    lines = svg.split("\n")
    for k, line in enumerate(lines):
        if not line.startswith("<") or line.startswith("<?"):
            if unit is None:
                skeleton.append(line)
            continue
        if line.startswith("</"):
            counters.pop()
            depth -= 1
            where.pop()
            if unit is not None and len(where) == len(unit):
                units[unit] = "\n".join(lines[start:k + 1])
                skeleton.append(unit)
                unit = None
            elif unit is None:
                skeleton.append(line)
                if routes and depth == 2:
                    routes = False
            continue
        index = counters[-1]
        counters[-1] += 1
        leaf = line.endswith("/>") or "</" in line
        if unit is None:
            here = (*where[1:], index)  # the path below the root
            if len(here) == 2 and 'id="routes"' in line and not leaf:
                routes = True
                skeleton.append(line)
            elif len(here) == 2 or (routes and len(here) == 3):
                if leaf:
                    units[here] = line
                    skeleton.append(here)
                else:
                    unit, start = here, k
            else:
                skeleton.append(line)
        if not leaf:
            where.append(index)
            counters.append(0)
            depth += 1
    return tuple(skeleton), units


def editable(path: str) -> str:
    """Empty when the page may change `path`, else why not."""
    if Path(path).suffix.lower() == ".json":
        return f"{path} is JSON; the studio changes YAML files only (save it as .yaml to edit it here)"
    return ""


# --- the geometry the page points at ---------------------------------------------------------------


def drawing_data(plan: Any, loaded: Loaded, heat: dict[str, float] | None) -> dict[str, Any]:
    """Places, routes and tickets in canvas millimetres (the SVG's viewBox), with the overlays' figures."""
    from ..geometry import Layout

    board = loaded.board
    layout = Layout(board)
    minx, miny = plan.origin  # the board point at map (0, 0): kept from the last drawing by a quick layout

    def canvas(x: float, y: float) -> list[float]:
        return [round(x + plan.dx, 3), round(y + plan.dy, 3)]

    def to_canvas(bx: float, by: float) -> list[float]:
        return canvas((bx - minx) * plan.scale, (by - miny) * plan.scale)

    places = []
    for i, pp in enumerate(plan.places):
        label = pp.label
        places.append({
            "index": i, "id": pp.place.id, "name": pp.place.name, "country": pp.place.is_country,
            "at": canvas(pp.x, pp.y), "r": round(pp.radius, 3),
            "label": None if label is None else [round(v, 3) for v in (label.box[0] + plan.dx, label.box[1] + plan.dy,
                                                                     label.box[2] + plan.dx, label.box[3] + plan.dy)],
        })
    index_of = {id(r): i for i, r in enumerate(board.routes)}
    drawn: dict[int, list[list[float]]] = {}
    for rp in plan.routes:
        for t in rp.tracks:
            i = index_of.get(id(t.route))
            if i is not None:
                drawn[i] = [canvas(x, y) for x, y in (t.rail or rp.centerline)]
    tickets = [{"index": i, "from": t.from_, "to": t.to, "points": t.points, "decks": list(t.decks), "spaces": None, "routes": []}
               for i, t in enumerate(board.tickets)]
    colours: Counter[str] = Counter()
    routes = []
    for i, r in enumerate(board.routes):
        for c in r.tracks:
            colours[c] += r.length
        routes.append({
            "index": i, "id": r.id, "from": r.from_, "to": r.to, "length": r.length, "tracks": list(r.tracks),
            "ferry": r.ferry, "tunnel": r.tunnel, "line": drawn.get(i, [to_canvas(*layout.positions[r.from_]), to_canvas(*layout.positions[r.to])]),
            "bends": [to_canvas(*p) for p in layout.bend_points(r)],
            "load": 0.0,
            "heat": None if heat is None else heat.get(r.id, 0.0),
        })
    palette = {c: plan.palette[c].fill for c in colours}
    decks = Counter(d for t in board.tickets for d in t.decks)
    return {
        "width": round(plan.width, 3), "height": round(plan.height, 3), "car": plan.car,
        "places": places, "routes": routes, "tickets": tickets,
        "colours": [{"colour": c, "spaces": n, "fill": palette[c]} for c, n in colours.most_common()],
        "colors": list(board.colors) + ["gray"],
        "decks": [d for d, _ in decks.most_common()] or ["main"],
        "geographic": layout.geographic,
    }


def analysis(loaded: Loaded) -> tuple[list[dict[str, Any]], dict[int, float]]:
    """Each ticket's shortest path (spaces, routes on it) and each route's load: tickets wanting it."""
    from ..tickets.paths import BoardPaths

    board = loaded.board
    paths = BoardPaths(board)
    load_share: Counter[int] = Counter()
    tickets = []
    for i, t in enumerate(board.tickets):
        routes_on: dict[int, float] = {}
        for k, share in paths.load(t.from_, t.to).items():
            for r in paths.edges[k].routes:
                routes_on[r] = routes_on.get(r, 0.0) + share
                load_share[r] += share
        tickets.append({"index": i, "from": t.from_, "to": t.to, "points": t.points, "decks": list(t.decks),
                        "spaces": paths.distance(t.from_, t.to), "routes": sorted(routes_on)})
    return tickets, {i: round(v, 3) for i, v in load_share.items()}


class _Targets:
    """Which place, route or ticket a diagnostic points at (by its line and column in the board file)."""

    def __init__(self, loaded: Loaded):
        src: Source | None = loaded.board_source if loaded.kind == "variant" else loaded.source
        self.path = src.path if src is not None else None
        self.at: dict[tuple[int, int], tuple[str, int]] = {}
        if src is None:
            return
        kinds = {"places": "place", "routes": "route", "tickets": "ticket"}
        for table in (src.value_pos, src.key_pos):
            for loc, pos in table.items():
                if len(loc) >= 2 and loc[0] in kinds and isinstance(loc[1], int):
                    self.at.setdefault(pos, (kinds[loc[0]], loc[1]))
        # A line holding one item (`- {from: a, ...}`) points at it from any column.
        self.lines: dict[int, tuple[str, int]] = {}
        for (line, _), target in sorted(self.at.items()):
            self.lines.setdefault(line, target)

    def of(self, d: Diagnostic) -> dict[str, int]:
        if d.path != self.path:
            return {}
        target = self.at.get((d.line, d.col)) or self.lines.get(d.line)
        return {target[0]: target[1]} if target else {}


def suggest_length(loaded: Loaded, a: str, b: str) -> int:
    """Spaces a new route between places a and b needs, from the drawn distance (1-9)."""
    from ..geometry import Layout

    layout = Layout(loaded.board)
    ratio = loaded.board.drawing.city_radius_ratio
    spaces = layout.distance(a, b) / layout.car_length - 2 * ratio
    return max(1, min(9, round(spaces))) if math.isfinite(spaces) else 1
