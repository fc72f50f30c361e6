"""Shortest paths between a deck's places, and the routes they load.

Built on the board graph (`boardgraph.PlaceGraph`, which the design checks'
`Context` holds: one edge per pair of adjacent places, its length the shortest
route between them, no path passing through a country). On top of distances this counts shortest paths, so
a ticket's load on a route is the share of its shortest paths that ride it:
a ticket with two equally short paths puts 0.5 on each path's own routes and
1 on the routes both share.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..boardgraph import tight_edges
from ..checks.context import Context
from ..model.board import Board


@dataclass(frozen=True)
class Edge:
    """A pair of adjacent places (`a` before `b` in the board's order) and its shortest route."""

    a: str
    b: str
    length: int
    routes: tuple[int, ...]  # indices in board.routes of the routes of that shortest length
    ids: tuple[str, ...]  # their route ids

    @property
    def name(self) -> str:
        return f"{self.a}–{self.b}"

    @property
    def route_id(self) -> str:
        """The id of the route (`a-b`, or its own `id:`); parallel routes of the same length joined by '/'."""
        return "/".join(self.ids)


@dataclass(frozen=True)
class Search:
    """Shortest paths from one place: distance in spaces and number of shortest paths to every place reached."""

    dist: list[int | None]
    paths: list[float]


class BoardPaths:
    """Distances, path counts and route loads of one board, each search from a place done once."""

    def __init__(self, board: Board, context: Context | None = None):
        self.board = board
        self.ctx = context or Context(board)
        g = self.ctx.pairs
        self.graph = g
        self.places: list[str] = g.names
        self.index = g.index
        self.country = g.country
        routes = self.ctx.board.routes
        self.edges: list[Edge] = []
        for (u, v), length, found in zip(g.ends, g.length, g.routes):  # u before v in the board's order
            shortest = tuple(i for i in found if routes[i].length == length)
            self.edges.append(Edge(g.names[u], g.names[v], length, shortest, tuple(str(routes[i].id) for i in shortest)))
        self.ends: list[tuple[int, int]] = g.ends
        self._searches: dict[int, Search] = {}
        self._loads: dict[tuple[str, str], dict[int, float]] = {}

    def search(self, place: str | int) -> Search:
        """Shortest paths from a place (the checks' search, counting paths): a country is reached, never
        passed through (unless it is the start)."""
        start = place if isinstance(place, int) else self.index[place]
        found = self._searches.get(start)
        if found is None:
            found = self._searches[start] = Search(*self.ctx.shortest_paths_from(start))
        return found

    def distance(self, a: str, b: str) -> int | None:
        """Spaces on the shortest path from a to b (None: not connected without passing a country)."""
        if a not in self.index or b not in self.index:
            return None
        return self.search(a).dist[self.index[b]]

    def load(self, a: str, b: str) -> dict[int, float]:
        """Each edge (by index in `edges`) on a shortest path from a to b, with the share of those paths using it."""
        if a == b or a not in self.index or b not in self.index:
            return {}
        key = (a, b) if a < b else (b, a)
        found = self._loads.get(key)
        if found is None:
            found = self._loads[key] = self._load(*key)
        return found

    def _load(self, a: str, b: str) -> dict[int, float]:
        """Walk back from b over the edges that keep a path shortest: an edge u→v is on a shortest path from
        a to b when dist_a(u) + length = dist_a(v) and v leads on to b (u a country only when it is a)."""
        i, j = self.index[a], self.index[b]
        sa, sb = self.search(i), self.search(j)
        if sa.dist[j] is None:
            return {}
        count = sa.paths[j]
        g = self.graph
        out: dict[int, float] = {}
        for k, u, v in tight_edges(g.adj, g.country, g.length, sa.dist, i, j):
            out[k] = out.get(k, 0.0) + sa.paths[u] * sb.paths[v] / count
        return out

    @cached_property
    def diameter(self) -> int:
        """The longest shortest path between two cities (the checks' estimate past 400 cities)."""
        return self.ctx.diameter_estimate
