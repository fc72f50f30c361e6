"""Run an app on 127.0.0.1: in the foreground for a command (`serve`), or in a thread for tests and benchmarks."""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import time
import webbrowser
from dataclasses import dataclass
from typing import Callable

import uvicorn
from starlette.applications import Starlette

HOST = "127.0.0.1"


class ServeError(Exception):
    """The server cannot start; the message says why and what to do."""


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: a free port the system picks)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} is in use; choose another with --port, or --port 0 for a free one") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ServeError(f"port {port} needs privileges; choose a port above 1023 with --port") from None
        raise ServeError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def page_url(app: Starlette, path: str = "/") -> str:
    guard = app.state.guard
    return f"http://{HOST}:{guard.port}{path}?token={guard.token}"


class _Server(uvicorn.Server):
    """uvicorn's server that first tells the app it is stopping (`app.state.stopping_hooks`), so open
    event streams end at once instead of holding the shutdown, and that stops without uvicorn's pauses:
    its loop looks for a stop request every 0.1 s and its shutdown waited 0.1 s after asking the open
    connections to close even when there were none (0.15-0.2 s a stop; the tests start ~70 servers).
    Here a stop wakes the loop (`wake`), and the shutdown waits only while connections or tasks remain."""

    _loop: asyncio.AbstractEventLoop | None = None
    _wake: asyncio.Event | None = None

    def handle_exit(self, sig: int, frame: object) -> None:
        _stopping(self.config.app)
        super().handle_exit(sig, frame)
        self.wake()

    def wake(self) -> None:
        """Have the loop look at `should_exit` now (from any thread)."""
        loop, event = self._loop, self._wake
        if loop is not None and event is not None and not loop.is_closed():
            loop.call_soon_threadsafe(event.set)

    async def main_loop(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            try:  # a tick every 0.1 s, as uvicorn's (it updates the Date header once a second), or a wake-up
                await asyncio.wait_for(self._wake.wait(), 0.1)
            except asyncio.TimeoutError:
                pass
            should_exit = await self.on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's steps: stop accepting, ask each connection to close, wait for them and the running tasks
        (at most the graceful timeout, then cancel the tasks), then the app's lifespan shutdown."""
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        try:
            await asyncio.wait_for(self._drain(), timeout=self.config.timeout_graceful_shutdown)
        except asyncio.TimeoutError:
            for task in self.server_state.tasks:
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        if not self.force_exit:
            await self.lifespan.shutdown()

    async def _drain(self) -> None:
        state = self.server_state
        while (state.connections or state.tasks) and not self.force_exit:
            await asyncio.sleep(0.005)
        for server in self.servers:
            await server.wait_closed()


def _stopping(app: Starlette) -> None:
    for hook in getattr(app.state, "stopping_hooks", ()):
        hook()


def _server(app: Starlette) -> uvicorn.Server:
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2, ws="none")
    return _Server(config)


def serve(app: Starlette, port: int = 0, open_browser: bool = True, path: str = "/",
          echo: Callable[[str], None] = print) -> None:
    """Serve `app` on 127.0.0.1:`port` (0 picks a free one) until Ctrl-C; print the page's URL (with its token)."""
    sock = bind(port)
    app.state.guard.port = sock.getsockname()[1]
    url = page_url(app, path)
    echo(f"serving on {url}\n(open that address in a browser; Ctrl-C stops the server)")
    server = _server(app)
    if open_browser:
        def _open() -> None:
            for _ in range(100):
                if server.started:
                    break
                time.sleep(0.05)
            webbrowser.open(url)
        threading.Thread(target=_open, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


@dataclass
class Running:
    """A server running in a background thread."""

    app: Starlette
    server: uvicorn.Server
    thread: threading.Thread
    sock: socket.socket

    @property
    def port(self) -> int:
        return self.app.state.guard.port

    @property
    def token(self) -> str:
        return self.app.state.guard.token

    def url(self, path: str = "/") -> str:
        return page_url(self.app, path)

    def stop(self) -> None:
        _stopping(self.app)
        self.server.should_exit = True
        if isinstance(self.server, _Server):
            self.server.wake()
        self.thread.join(timeout=10)
        self.sock.close()


def run_in_thread(app: Starlette, port: int = 0) -> Running:
    """Start `app` on 127.0.0.1 in a daemon thread; returns once it accepts connections."""
    sock = bind(port)
    app.state.guard.port = sock.getsockname()[1]
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="ttr-maps-web")
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise ServeError("the server did not start")
        time.sleep(0.01)
    return Running(app, server, thread, sock)
