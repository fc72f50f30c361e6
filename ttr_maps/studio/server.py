"""The studio's routes: the page, its state, live updates, edits, exports and a simulation run."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..web import body_json, html_page, make_app
from ..yamledit import EditError, WouldBreak
from .edits import BadEdit, Stale, apply
from .session import Session, suggest_length



class Live:
    """Tells the open pages that a new snapshot exists (server-sent events)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event = asyncio.Event()
        self.version = 0
        self.closing = threading.Event()

    def bump(self, version: int) -> None:
        """Called from any thread after a new snapshot."""
        if self.loop is None or self.closing.is_set():
            self.version = version
            return
        try:
            self.loop.call_soon_threadsafe(self._set, version)
        except RuntimeError:  # the server stopped meanwhile
            self.version = version

    def _set(self, version: int) -> None:
        self.version = version
        self.event.set()
        self.event = asyncio.Event()

    async def stream(self, request: Request) -> AsyncIterator[str]:
        sent = -1
        while not self.closing.is_set():
            if self.version != sent:
                sent = self.version
                yield f"data: {sent}\n\n"
            event = self.event
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), 1.0)
            if await request.is_disconnected():
                return
            if self.version == sent:
                yield ": still here\n\n"


class Simulation:
    """One simulation run at a time, in a thread, with its progress."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"running": False, "done": 0, "games": 0, "folder": None, "error": None, "summary": None}
        self.lock = threading.Lock()

    def start(self, session: Session, games: int) -> dict[str, Any]:
        from ..load import load_variant
        from ..simulate.output import check_output_dir, OutputError

        with self.lock:
            if self.state["running"]:
                raise HTTPException(409, "a simulation is running already; wait for it to finish")
            if session.path == session.board_path:
                raise HTTPException(400, "a simulation needs a variant (rules); open the studio on a variant file to simulate")
            folder = os.path.join(os.path.dirname(session.path) or ".", "out", Path(session.path).stem)
            try:
                check_output_dir(folder, False)
                variant, board = load_variant(session.path)
            except OutputError as exc:
                raise HTTPException(409, str(exc)) from None
            except Exception as exc:
                raise HTTPException(422, f"{session.path} does not load; fix it before simulating ({exc})".splitlines()[0]) from None
            self.state = {"running": True, "done": 0, "games": games, "folder": folder, "error": None, "summary": None}
        threading.Thread(target=self._run, args=(session, variant, board, games, folder), daemon=True).start()
        return dict(self.state)

    def _run(self, session: Session, variant: Any, board: Any, games: int, folder: str) -> None:
        from ..simulate.output import simulate_to
        from ..simulate.runner import GameSource, RunSpec
        from ..cli.simulate import DEFAULT_BOTS

        def progress(n: int) -> None:
            self.state["done"] += n

        try:
            players = min(max(4, variant.players.min), variant.players.max)
            names = DEFAULT_BOTS.split(",")[:players]
            spec = RunSpec(GameSource(variant, board, players, session.path), tuple((names * players)[:players]), games, 0, "fast")
            summary = simulate_to(spec, folder, progress=progress, variant_label=session.path)
            self.state["summary"] = {name: round(b["win"]["rate"], 3) for name, b in summary["bots"].items()}
        except Exception as exc:  # reported on the page, the server goes on
            self.state["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            self.state["running"] = False


def studio_app(path: str, sim: str | None = None) -> Starlette:
    """The studio for the board or variant at `path` (and the heat map of the simulation folder `sim`)."""
    session = Session(path, sim)
    live = Live()
    session.on_change = live.bump
    simulation = Simulation()
    static = resources.files(__package__) / "static"

    async def page(request: Request) -> Response:
        return html_page((static / "index.html").read_text(encoding="utf-8"))

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(session.state(request.query_params.get("svg")))

    async def events(request: Request) -> StreamingResponse:
        return StreamingResponse(live.stream(request), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def edit(request: Request) -> JSONResponse:
        op = await body_json(request)
        try:
            message = await anyio.to_thread.run_sync(apply, session, op)
        except BadEdit as exc:
            raise HTTPException(400, str(exc)) from None
        except Stale as exc:
            why = str(exc)
            await anyio.to_thread.run_sync(lambda: session.refresh(force=True, message=why, later=True))
            return JSONResponse({"error": why, "stale": True}, status_code=409)
        except WouldBreak as exc:
            return JSONResponse({"error": str(exc), "problems": [d.as_dict() for d in exc.diagnostics]}, status_code=422)
        except EditError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        # The answer carries the page's new state (the drawing of the edit; its SVG unless the page has it).
        return JSONResponse({"message": message, "version": session.snapshot.version, "state": session.state(request.query_params.get("svg"))})

    async def suggest(request: Request) -> JSONResponse:
        from ..tickets.paths import BoardPaths

        d = session.snapshot.drawing
        a, b = request.query_params.get("from", ""), request.query_params.get("to", "")
        if d is None:
            raise HTTPException(409, "nothing is drawn yet")
        ids = {p.id for p in d.loaded.board.places}
        if a not in ids or b not in ids or a == b:
            raise HTTPException(400, "from and to must be the ids of two places on the board")
        spaces = BoardPaths(d.loaded.board).distance(a, b)
        return JSONResponse({"length": suggest_length(d.loaded, a, b), "points": spaces})

    async def export(request: Request) -> Response:
        what = request.path_params["what"]
        d = session.snapshot.drawing
        if d is None:
            raise HTTPException(409, "nothing to export: the file does not load yet")
        name = Path(session.path).stem
        if what == "svg":
            return Response(d.svg, media_type="image/svg+xml", headers={"Content-Disposition": f'attachment; filename="{name}.svg"'})
        if what == "pdf":
            from ..render import build_pdf

            result = await anyio.to_thread.run_sync(lambda: build_pdf(d.loaded.board, d.loaded.variant))
            return Response(result.pdf, media_type="application/pdf", headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'})
        raise HTTPException(404, f"no export '{what[:20]}'; use svg or pdf")

    async def simulate(request: Request) -> JSONResponse:
        if request.method == "GET":
            return JSONResponse(simulation.state)
        body = await body_json(request)
        games = body.get("games", 50)
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= 5000:
            raise HTTPException(400, "games must be a whole number from 1 to 5000")
        return JSONResponse(simulation.start(session, games))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        live.loop = asyncio.get_running_loop()
        await anyio.to_thread.run_sync(session.refresh)
        watcher = asyncio.create_task(_watch(session, live))
        try:
            yield
        finally:
            live.closing.set()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    routes = [
        Route("/", page),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/edit", edit, methods=["POST"]),
        Route("/api/suggest", suggest),
        Route("/api/export/{what}", export),
        Route("/api/simulate", simulate, methods=["GET", "POST"]),
    ]
    app = make_app(routes, static=(__package__, "static"), lifespan=lifespan)
    app.state.session = session
    app.state.live = live
    app.state.stopping_hooks = [live.closing.set, session.close]
    return app


async def _watch(session: Session, live: Live) -> None:
    """Refresh when the opened file or its board is saved, replaced or deleted (their folders are watched)."""
    import watchfiles

    while not live.closing.is_set():
        wanted = {os.path.realpath(session.path), os.path.realpath(session.board_path)}
        folders = {os.path.dirname(p) for p in wanted if os.path.isdir(os.path.dirname(p))}
        if not folders:
            await asyncio.sleep(0.5)
            continue
        stop = asyncio.Event()
        try:
            async for changes in watchfiles.awatch(*folders, debounce=30, step=10, stop_event=stop, recursive=False):
                if any(os.path.realpath(p) in wanted for _, p in changes):
                    await anyio.to_thread.run_sync(lambda: session.refresh(later=True))
                    now = {os.path.realpath(session.path), os.path.realpath(session.board_path)}
                    if now != wanted:  # a variant now names another board: watch its folder
                        break
        except (FileNotFoundError, OSError):
            await asyncio.sleep(0.5)  # a watched folder went away; look again
