"""The app factory and its guard: Host check, per-run token, JSON errors (see the package docstring)."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_HEADER = "x-ttr-token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# Largest request body a page sends (an edit, a setting); more is refused before it is read whole.
MAX_BODY = 1024 * 1024

log = logging.getLogger("ttr_maps.web")


@dataclass
class Guard:
    """What a request must match: the server's own host names (set once the port is known) and the run's token."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    port: int | None = None

    @property
    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"} if self.port else set()

    @property
    def origins(self) -> set[str]:
        return {f"http://{h}" for h in self.hosts}

    def token_ok(self, given: str | None) -> bool:
        return bool(given) and secrets.compare_digest(given.encode("utf-8", "replace"), self.token.encode())  # type: ignore[union-attr]


class LocalOnly:
    """ASGI middleware: refuse a foreign Host, a changing request without the token or from another origin."""

    def __init__(self, app: ASGIApp, guard: Guard):
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "").strip().lower()
        shown = f"http://127.0.0.1:{self.guard.port}/"
        if host not in self.guard.hosts:
            await _refuse(scope, receive, send, 403, f"this server answers only at {shown} (Host '{host[:80]}' refused)")
            return
        method = scope.get("method", "GET")
        if scope["type"] == "http" and method not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and origin.lower() not in self.guard.origins:
                await _refuse(scope, receive, send, 403, f"a page from {origin[:80]} may not change anything here")
                return
            if not self.guard.token_ok(headers.get(TOKEN_HEADER)):
                await _refuse(scope, receive, send, 403, "missing or wrong token: open the URL the server printed (it carries ?token=...)")
                return
            length = headers.get("content-length", "0")
            if not length.isdigit() or int(length) > MAX_BODY:
                await _refuse(scope, receive, send, 413, f"the request body is too large or has no valid length (at most {MAX_BODY} bytes)")
                return
        started = False

        async def tracked(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # one line in the server's log, a JSON 500 to the page; never a traceback
            log.error("error answering %s %s: %s: %s", method, scope.get("path"), type(exc).__name__, exc)
            if not started and scope["type"] == "http":
                await _refuse(scope, receive, send, 500, f"the server could not answer: {type(exc).__name__}: {exc}")


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def body_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise HTTPException(400, f"the request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def make_app(routes: Sequence[BaseRoute], *, static: tuple[str, str] | None = None, guard: Guard | None = None,
             lifespan: Any = None) -> Starlette:
    """A Starlette app with `routes`, the shared page files at /web/ and the (package, folder) `static` at /static/.

    `lifespan` is an async context manager factory (background tasks, such as a file watcher).
    `app.state.guard` is the Guard; `serve` sets its port.
    """
    guard = guard or Guard()
    mounts: list[BaseRoute] = [Mount("/web", app=StaticFiles(directory=str(resources.files(__package__) / "static")), name="web")]
    if static is not None:
        package, folder = static
        mounts.append(Mount("/static", app=StaticFiles(directory=str(resources.files(package) / folder)), name="static"))
    app = Starlette(
        routes=[*routes, *mounts],
        exception_handlers={HTTPException: _http_error},
        lifespan=lifespan,
    )
    app.add_middleware(LocalOnly, guard=guard)
    app.state.guard = guard
    return app
