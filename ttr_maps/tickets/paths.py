"""Shortest paths between a deck's places, and the routes they load.

Built on the design checks' board graph (`checks.context.Context`: one edge per
pair of adjacent places, its length the shortest route between them, no path
passing through a country). On top of distances this counts shortest paths, so
a ticket's load on a route is the share of its shortest paths that ride it:
a ticket with two equally short paths puts 0.5 on each path's own routes and
1 on the routes both share.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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
        g = self.ctx.graph
        self.places: list[str] = list(g)
        self.index = {p: k for k, p in enumerate(self.places)}
        self.country = [p in self.ctx.countries for p in self.places]
        routes = self.ctx.board.routes
        self.edges: list[Edge] = []
        self.adj: list[list[tuple[int, int]]] = [[] for _ in self.places]
        order = self.ctx.place_index
        for u, v, data in g.edges(data=True):
            a, b = (u, v) if order[u] <= order[v] else (v, u)
            shortest = tuple(i for i in data["routes"] if routes[i].length == data["length"])
            self.edges.append(Edge(a, b, data["length"], shortest, tuple(str(routes[i].id) for i in shortest)))
        self.ends = [(self.index[e.a], self.index[e.b]) for e in self.edges]
        for k, (i, j) in enumerate(self.ends):
            w = self.edges[k].length
            self.adj[i].append((j, w))
            self.adj[j].append((i, w))
        self._searches: dict[int, Search] = {}
        self._ring = max((e.length for e in self.edges), default=0) + 1
        self._loads: dict[tuple[str, str], dict[int, float]] = {}

    def search(self, place: str | int) -> Search:
        """Dial's algorithm (lengths are whole spaces 1..9) counting shortest paths; a country is reached,
        never passed through (unless it is the start)."""
        start = place if isinstance(place, int) else self.index[place]
        found = self._searches.get(start)
        if found is not None:
            return found
        n = len(self.places)
        dist: list[int | None] = [None] * n
        best = [1 << 60] * n
        paths = [0.0] * n
        size = self._ring
        buckets: list[list[int]] = [[] for _ in range(size)]
        buckets[0].append(start)
        best[start], paths[start] = 0, 1.0
        pending, d = 1, 0
        while pending:
            bucket = buckets[d % size]
            while bucket:
                node = bucket.pop()
                pending -= 1
                if dist[node] is not None or best[node] != d:
                    continue
                dist[node] = d
                if self.country[node] and node != start:
                    continue
                for nbr, w in self.adj[node]:
                    nd = d + w
                    if nd < best[nbr]:
                        best[nbr], paths[nbr] = nd, paths[node]
                        buckets[nd % size].append(nbr)
                        pending += 1
                    elif nd == best[nbr]:
                        paths[nbr] += paths[node]
            d += 1
        found = self._searches[start] = Search(dist, paths)
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
        i, j = self.index[a], self.index[b]
        sa, sb = self.search(i), self.search(j)
        total = sa.dist[j]
        if total is None:
            return {}
        count = sa.paths[j]
        out: dict[int, float] = {}
        for k, (u, v) in enumerate(self.ends):
            w = self.edges[k].length
            share = self._through(sa, sb, i, j, u, v, w, total) + self._through(sa, sb, i, j, v, u, w, total)
            if share:
                out[k] = share / count
        return out

    def _through(self, sa: Search, sb: Search, i: int, j: int, u: int, v: int, w: int, total: int) -> float:
        """Shortest paths i → … → u → v → … → j (u and v only countries when they are the ends)."""
        du, dv = sa.dist[u], sb.dist[v]
        if du is None or dv is None or du + w + dv != total:
            return 0.0
        if (self.country[u] and u != i) or (self.country[v] and v != j):
            return 0.0
        return sa.paths[u] * sb.paths[v]

    @cached_property
    def diameter(self) -> int:
        """The longest shortest path between two cities (the checks' estimate past 400 cities)."""
        return self.ctx.diameter_estimate
