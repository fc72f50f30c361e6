"""The shared local server: each safety rule checked on a real server with real HTTP requests."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ttr_maps.web import ServeError, body_json, make_app, run_in_thread
from ttr_maps.web.serve import bind


async def _hello(request: Request) -> JSONResponse:
    return JSONResponse({"hello": "world"})


async def _echo(request: Request) -> JSONResponse:
    return JSONResponse({"got": await body_json(request)})


async def _broken(request: Request) -> JSONResponse:
    raise RuntimeError("something inside went wrong")


@pytest.fixture(scope="module")
def server():
    app = make_app([Route("/hello", _hello), Route("/echo", _echo, methods=["POST"]), Route("/broken", _broken, methods=["GET", "POST"])])
    running = run_in_thread(app)
    yield running
    running.stop()


def _request(server, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
             host: str | None = None) -> tuple[int, dict | str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host if host is not None else f"127.0.0.1:{server.port}")
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    if body is not None:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    resp = conn.getresponse()
    raw = resp.read().decode("utf-8")
    conn.close()
    try:
        return resp.status, json.loads(raw)
    except ValueError:
        return resp.status, raw


def _post(server, path: str, body: bytes, **headers) -> tuple[int, dict | str]:
    h = {"X-TTR-Token": server.token, "Content-Type": "application/json"}
    h.update({k.replace("_", "-"): v for k, v in headers.items()})
    return _request(server, "POST", path, body, {k: v for k, v in h.items() if v is not None})


def test_listens_on_loopback_only(server) -> None:
    assert server.sock.getsockname()[0] == "127.0.0.1"
    assert server.url().startswith(f"http://127.0.0.1:{server.port}/?token=")
    assert server.token in server.url() and len(server.token) >= 24


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_own_host_names_are_answered(server, host: str) -> None:
    assert _request(server, "GET", "/hello", host=host.format(port=server.port)) == (200, {"hello": "world"})


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:{other}", "localhost", "127.0.0.2:{port}", ""])
def test_foreign_host_header_is_refused(server, host: str) -> None:
    status, body = _request(server, "GET", "/hello", host=host.format(port=server.port, other=server.port + 1))
    assert status == 403
    assert "answers only at" in body["error"]


def test_changing_request_needs_the_token(server) -> None:
    body = b'{"a": 1}'
    assert _post(server, "/echo", body) == (200, {"got": {"a": 1}})
    status, answer = _post(server, "/echo", body, X_TTR_Token=None)
    assert status == 403 and "token" in answer["error"]
    status, answer = _post(server, "/echo", body, X_TTR_Token="x" + server.token)
    assert status == 403 and "token" in answer["error"]
    # The token in the query string is for the page's address only; a changing request must send the header.
    status, _ = _request(server, "POST", f"/echo?token={server.token}", body, {"Content-Type": "application/json"})
    assert status == 403


def test_changing_request_from_another_origin_is_refused(server) -> None:
    status, answer = _post(server, "/echo", b"{}", Origin="http://evil.example")
    assert status == 403 and "evil.example" in answer["error"]
    assert _post(server, "/echo", b"{}", Origin=f"http://localhost:{server.port}")[0] == 200


@pytest.mark.parametrize("body, why", [(b"{not json", "not JSON"), (b"[1, 2]", "JSON object"), (b"\xff\xfe", "not JSON")])
def test_malformed_body_is_a_400_with_a_message(server, body: bytes, why: str) -> None:
    status, answer = _post(server, "/echo", body)
    assert status == 400 and why in answer["error"]


def test_unknown_path_and_method_are_json_4xx(server) -> None:
    status, answer = _request(server, "GET", "/nothing-here")
    assert status == 404 and isinstance(answer, dict) and answer["error"]
    status, answer = _request(server, "GET", "/echo")
    assert status == 405 and isinstance(answer, dict) and answer["error"]


def test_failure_inside_is_a_json_500_without_traceback(server) -> None:
    status, answer = _request(server, "GET", "/broken")
    assert status == 500
    assert "something inside went wrong" in answer["error"] and "Traceback" not in json.dumps(answer)
    assert _request(server, "GET", "/hello")[0] == 200  # and the server goes on


def test_too_large_body_is_refused_before_it_is_read(server) -> None:
    headers = {"X-TTR-Token": server.token, "Content-Length": "99999999"}
    status, answer = _request(server, "POST", "/echo", None, headers)  # the body is never sent
    assert status == 413 and "too large" in answer["error"]


def test_page_files_come_from_package_data(server) -> None:
    status, text = _request(server, "GET", "/web/api.js")
    assert status == 200 and "X-TTR-Token" in text
    status, _ = _request(server, "GET", "/web/../app.py")
    assert status == 404
    status, _ = _request(server, "GET", "/web/%2e%2e/app.py")
    assert status == 404


def test_a_port_in_use_is_a_clear_error() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        with pytest.raises(ServeError, match=r"port \d+ is in use; choose another with --port"):
            bind(taken.getsockname()[1])
    finally:
        taken.close()
    free = bind(0)
    assert free.getsockname()[1] > 0
    free.close()


def test_both_servers_pages_carry_the_shared_security_headers(tmp_path) -> None:
    """The studio and the play page: a CSP that runs only their own scripts, no Referer (the URL holds the token)."""
    from pathlib import Path

    from ttr_maps.engine.game import Game
    from ttr_maps.play import HUMAN, new_table, play_app
    from ttr_maps.studio import studio_app

    root = Path(__file__).resolve().parent.parent
    tiny = root / "tests/scenarios/variants/tiny.yaml"
    table = new_table(Game.from_file(tiny, 2), [HUMAN, "random"], tmp_path / "game.yaml", seed=1)
    for app, paths in ((studio_app(str(tiny)), ["/"]), (play_app(table), ["/", "/rules"])):
        running = run_in_thread(app)
        try:
            for path in paths:
                conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=20)
                conn.request("GET", path)
                resp = conn.getresponse()
                resp.read()
                conn.close()
                assert resp.status == 200
                csp = resp.getheader("Content-Security-Policy") or ""
                assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe-eval" not in csp
                assert "script-src 'self'" in csp if path == "/" else "script-src" not in csp
                assert resp.getheader("Referrer-Policy") == "no-referrer"
                assert resp.getheader("X-Content-Type-Options") == "nosniff"
        finally:
            running.stop()


def test_a_stop_lets_a_request_in_flight_finish_closes_idle_connections_and_ends_the_server() -> None:
    """`Running.stop` (the tests', the benchmarks'): a request being answered gets its answer, an idle kept-alive
    connection is closed, the port is released and the thread has ended when it returns, well inside the
    graceful timeout (it no longer waits out uvicorn's 0.1 s tick and pause)."""
    import asyncio
    import threading
    import time

    started = threading.Event()

    async def _slow(request: Request) -> JSONResponse:
        started.set()
        await asyncio.sleep(0.3)
        return JSONResponse({"slow": "done"})

    running = run_in_thread(make_app([Route("/hello", _hello), Route("/slow", _slow)]))
    port = running.port
    idle = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    idle.request("GET", "/hello")
    assert idle.getresponse().read() == b'{"hello":"world"}'
    answers: list = []

    def ask_slow() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/slow")
        resp = conn.getresponse()
        answers.append((resp.status, resp.read()))

    asking = threading.Thread(target=ask_slow)
    asking.start()
    assert started.wait(10)
    began = time.monotonic()
    running.stop()
    took = time.monotonic() - began
    asking.join(10)
    assert answers == [(200, b'{"slow":"done"}')]
    assert not running.thread.is_alive()
    assert took < 1.5, f"the stop took {took:.2f} s (the graceful timeout is 2 s)"
    assert idle.sock.recv(1) == b"", "the idle connection is closed"
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
