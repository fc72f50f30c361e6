"""What the checks of the drawn board (D006-D009) share: the board as `render` lays it out, laid out once per run.

The checks read the renderer's own plan (`Context.drawing`, the code `render` and
`print` draw from), so what they check is what is printed. Laying out a board
costs about as much as rendering it; boards of more than `max_places` places are
not laid out (one finding says so).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

from ...geometry import Layout
from ...model.board import Route
from ..base import Finding
from ..context import Context

#: The option every drawn-board check has: boards with more places are not laid out.
MAX_PLACES = 2000


def too_big(ctx: Context, options: dict, code: str) -> Finding | None:
    limit = options["max_places"]
    n = len(ctx.board.places)
    if n <= limit:
        return None
    return Finding(
        ("places",),
        f"the drawn board is not checked: laying out {n} places takes as long as rendering it, and {code} does it for at "
        f"most {limit} (option max_places); render the board and look, or raise [checks.options.{code}] max_places in ttr-maps.toml",
        key=True,
    )


class Drawn:
    """The plan of `ctx.drawing` with look-ups the findings need: a route entry's line, a nearby place's name."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.plan = ctx.drawing
        self._index = {id(r): i for i, r in enumerate(ctx.board.routes)}

    @cached_property
    def layout(self) -> Layout:
        return Layout(self.ctx.board)

    @cached_property
    def obstacles(self) -> Any:
        from ...render.bends import Obstacles

        return Obstacles(self.plan)

    @cached_property
    def bends(self) -> dict[int, Any]:
        return {}

    def bend_for(self, group: int) -> Any:
        """The bend point that draws route group `group` clear (cached: several findings may ask)."""
        from ...render.bends import clear_bend

        if group not in self.bends:
            self.bends[group] = clear_bend(self.plan, group, self.obstacles, self.layout, stretch=2.5)
        return self.bends[group]

    def index(self, route: Route) -> int:
        return self._index[id(route)]

    def loc(self, route: Route) -> tuple[Any, ...]:
        return ("routes", self.index(route))

    def named(self, route: Route) -> str:
        """'route a–b (line N)'."""
        return f"route {self.ctx.route_name(route)} ({self.ctx.line(self.loc(route))})"

    def near(self, x: float, y: float) -> str:
        """The name of the place nearest a point of the plan."""
        pp = min(self.plan.places, key=lambda p: math.hypot(p.x - x, p.y - y))
        return pp.place.name

    def bend_advice(self, group: int) -> str:
        """'give it `bend: [[..]]` (...)', or what to do when no bend point draws route group `group` clear."""
        found = self.bend_for(group)
        if found is None:
            a, b = self.plan.routes[group].ends
            return f"no single bend point draws it clear: move '{a}' or '{b}', or bend the routes by hand"
        verb = "move its bend points to" if found.route.bend else "give it"
        return f"{verb} `bend: {found.text}` ({found.aside:g} car length{'' if found.aside == 1 else 's'} aside), which draws it clear"


def drawn(ctx: Context) -> Drawn:
    """The `Drawn` of this context, made once and shared by the checks of one run."""
    found = ctx.__dict__.get("_drawn")
    if found is None:
        found = ctx.__dict__["_drawn"] = Drawn(ctx)
    return found
