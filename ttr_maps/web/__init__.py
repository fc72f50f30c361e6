"""The local web server shared by the pages ttr-maps serves (`studio`, `play`).

A page on the user's own machine can still be reached by any web site the user
visits, so every app made here:
- listens on 127.0.0.1 only;
- answers only requests whose Host header is its own (127.0.0.1:PORT or
  localhost:PORT), which defeats DNS rebinding;
- changes nothing without the per-run token (`secrets.token_urlsafe`) printed in
  its URL, sent back by the page in the `X-TTR-Token` header, and refuses a
  changing request from another origin;
- answers a malformed request with a 4xx and a JSON `{"error": message}`, and any
  failure with a JSON 500, never a traceback;
- serves its page from package data, nothing fetched from the internet, with the
  headers of `pages.security_headers` (a CSP that runs only its own scripts).

`make_app(routes, static=...)` builds the Starlette app, `serve(app, port)` runs it
until Ctrl-C, `run_in_thread(app)` runs it in the background (tests, benchmarks).
"""

from .app import Guard, body_json, make_app
from .pages import CSP, TEXT_CSP, html_page, security_headers
from .serve import ServeError, Running, run_in_thread, serve

__all__ = ["CSP", "Guard", "Running", "ServeError", "TEXT_CSP", "body_json", "html_page", "make_app", "run_in_thread",
           "security_headers", "serve"]
