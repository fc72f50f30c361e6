"""The headers every HTML page the local servers send carries (`studio`, `play`).

A page shows board text a user typed: with this Content-Security-Policy nothing but
the server's own scripts and styles can run in it, even if text slipped in as markup.
The page's URL carries the run's token, so no Referer ever leaves it; no other site
may frame it, and the browser must not guess a file's type.
"""

from __future__ import annotations

from starlette.responses import HTMLResponse

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# A page of text only (the rules): no script at all.
TEXT_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"


def security_headers(csp: str = CSP) -> dict[str, str]:
    """The headers of an HTML page: its Content-Security-Policy and the rest named above."""
    return {
        "Content-Security-Policy": csp,
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
    }


def html_page(text: str, csp: str = CSP) -> HTMLResponse:
    """An HTML page with `security_headers`."""
    return HTMLResponse(text, headers=security_headers(csp))
