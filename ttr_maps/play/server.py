"""The play page's routes: the board, the view of the seat on screen, a person's action, a bot's move."""

from __future__ import annotations

import html
import re
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..web import TEXT_CSP, body_json, html_page, make_app
from .table import Table, TableError


def board_drawing(table: Table) -> dict[str, Any]:
    """The board as `render` draws it, and where its routes, spaces and places are on the drawing (canvas mm).

    Each route carries its tracks' spaces (`cars`: per track, [x, y, angle] of each space) so the page
    draws a claim as train cars on the spaces, as players do on the printed board.
    """
    from ..load import load
    from ..render import BoardOptions, plan_board
    from ..render.board import draw_board
    from ..studio.session import drawing_data

    game = table.game
    plan = plan_board(game.board, game.variant, BoardOptions())
    loaded = load(game.variant_path) if game.variant_path else None
    data = drawing_data(plan, loaded, None) if loaded is not None and loaded.ok else {"routes": [], "places": []}
    cars: dict[int, list[list[list[float]]]] = {}
    index_of = {id(r): i for i, r in enumerate(game.board.routes)}
    for rp in plan.routes:
        for t in rp.tracks:
            i = index_of.get(id(t.route))
            if i is not None:
                cars.setdefault(i, []).append([[round(s.x + plan.dx, 3), round(s.y + plan.dy, 3), round(s.angle, 2)] for s in t.spaces])
    return {"svg": draw_board(plan), "space": [round(plan.space_length, 3), round(plan.space_width, 3)],
            "routes": [{"id": r["id"], "line": r["line"], "from": r["from"], "to": r["to"], "length": r["length"],
                        "tracks": r["tracks"], "cars": cars.get(r["index"], [])} for r in data["routes"]],
            "places": [{"id": p["id"], "name": p["name"], "at": p["at"], "r": p["r"]} for p in data["places"]],
            "tokens": [{"place": tk.place, "at": [round(tk.x + plan.dx, 3), round(tk.y + plan.dy, 3)], "r": round(tk.r, 3)}
                       for tk in plan.tokens],
            "width": data.get("width"), "height": data.get("height")}


def rules_html() -> str:
    """docs/rules.md as a plain page, headings with the anchors the engine's refusals link to."""
    from ..bundled import data_dir

    try:
        text = (data_dir("docs") / "rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return "<p>docs/rules.md is not part of this installation.</p>"
    out = ["<!doctype html><meta charset='utf-8'><title>ttr-maps rules</title>",
           "<style>body{font:15px/1.45 sans-serif;max-width:46em;margin:2em auto;padding:0 1em}</style>"]
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append("<p>" + html.escape(" ".join(para)) + "</p>")
            para.clear()

    for line in text.splitlines():
        m = re.match(r"(#{1,4})\s+(.*)", line)
        if m:
            flush()
            level, title = len(m.group(1)), m.group(2).strip()
            out.append(f"<h{level} id='{html.escape(slug(title))}'>{html.escape(title)}</h{level}>")
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def slug(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def play_app(table: Table) -> Starlette:
    static = resources.files(__package__) / "static"
    drawing: dict[str, Any] = {}

    def answer(fn) -> Any:
        try:
            return fn()
        except TableError as exc:
            raise Refused(str(exc), exc.rule) from None

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Refused)
        return JSONResponse({"error": exc.message, "rule": exc.rule}, status_code=409)

    async def page(request: Request) -> Response:
        return html_page((static / "index.html").read_text(encoding="utf-8"))

    async def board(request: Request) -> JSONResponse:
        if not drawing:
            drawing.update(board_drawing(table))
        return JSONResponse(drawing)

    async def view(request: Request) -> JSONResponse:
        return JSONResponse(table.view())

    async def act(request: Request) -> JSONResponse:
        body = await body_json(request)
        text, seat = body.get("action"), body.get("seat")
        if not isinstance(text, str) or not text.strip() or len(text) > 500:
            raise HTTPException(400, "send {\"seat\": N, \"action\": \"<notation>\"}, e.g. {\"seat\": 0, \"action\": \"draw blind\"}")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise HTTPException(400, "seat must be a whole number")
        answer(lambda: table.act(seat, text))
        return JSONResponse(table.view())

    async def bot(request: Request) -> JSONResponse:
        await body_json(request)
        moved = answer(table.bot_step)
        return JSONResponse({**table.view(), "moved": moved})

    async def why(request: Request) -> JSONResponse:
        body = await body_json(request)
        route, place, seat = body.get("route"), body.get("place"), body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not (isinstance(route, str) or isinstance(place, str)):
            raise HTTPException(400, "send {\"seat\": N, \"route\": \"<route id>\"} or {\"seat\": N, \"place\": \"<place id>\"}")
        if isinstance(route, str):
            answer(lambda: table.why_not_claim(seat, route))
        else:
            answer(lambda: table.why_not_at(seat, place))
        return JSONResponse(table.view())

    async def reveal(request: Request) -> JSONResponse:
        body = await body_json(request)
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise HTTPException(400, "seat must be a whole number")
        answer(lambda: table.reveal(seat))
        return JSONResponse(table.view())

    async def state_file(request: Request) -> Response:
        if not table.state.is_terminal():
            raise HTTPException(403, f"the game is not over: its state file holds hidden cards; it is saved at {table.save_path}")
        return PlainTextResponse(table.save_path.read_text(encoding="utf-8"),
                                 headers={"Content-Disposition": f"attachment; filename=\"{table.save_path.name}\""})

    async def rules(request: Request) -> Response:
        return html_page(rules_html(), TEXT_CSP)

    routes = [
        Route("/", page),
        Route("/api/board", board),
        Route("/api/view", view),
        Route("/api/act", act, methods=["POST"]),
        Route("/api/bot", bot, methods=["POST"]),
        Route("/api/reveal", reveal, methods=["POST"]),
        Route("/api/why", why, methods=["POST"]),
        Route("/api/state-file", state_file),
        Route("/rules", rules),
    ]
    app = make_app(routes, static=(__package__, "static"))
    app.add_exception_handler(Refused, refused)
    return app


class Refused(Exception):
    """A move the table refused: 409 with the message and the rule (its name and its section of the rules page) apart."""

    def __init__(self, message: str, rule: str | None):
        super().__init__(message)
        self.message, self.rule = message, rule
