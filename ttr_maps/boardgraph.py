"""The board as a graph, for every part of ttr-maps that walks it: parts, networks and the country rule.

A country is a terminal place (docs/rules.md#countries): a path may start or end there but never passes
through it. Places are integers and `adj[place]` lists `(edge, other end)`: the engine's tables (an edge
per route) or a `PlaceGraph` (an edge per pair of adjacent places, built from a board).

- `distances`: the cheapest path from the nearest of some places under changing route costs (the bots);
- `spaces`: shortest paths in spaces from one place, with path counts and an early stop (the design
  checks, stats, ticket decks, simulate's "blocked a ticket");
- `tight_edges`: the edges on the shortest paths between two places, from a `spaces` search;
- `components`: the connected parts (optionally over some places only);
- `blocks`: bridges, cut places and the biconnected blocks (the design checks' choke points);
- `UnionFind`: networks joined one route at a time (scoring, the longest trail, the bots).
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import TYPE_CHECKING, Hashable, Iterable, Iterator, Sequence

if TYPE_CHECKING:
    from .model.board import Board

INF = float("inf")


class PlaceGraph:
    """A board's places and which are adjacent, as paths in spaces see it: a node per place (`names`, in the
    board's order, a repeated id once) and an edge per pair of adjacent places (`ends`, the earlier place
    first), its `length` the shortest route between them, `routes` the indices of every route entry joining
    them (in the file's order) and `tracks` their parallel tracks in all. A route from a place to itself or
    to an unknown place is left out. `adj[place]` lists `(edge, other end)`; `country[place]` marks the
    places no path passes through. Edges come in the order networkx lists them for the same graph (by
    their earlier place, then as first joined), so figures that follow the edge order stay as they were.
    `wadj[place]` lists `(other end, length)` for `spaces`, `longest` is the longest edge."""

    __slots__ = ("names", "index", "country", "ends", "length", "routes", "tracks", "adj", "wadj", "longest")

    def __init__(self, board: Board) -> None:
        index: dict[str, int] = {}
        for p in board.places:
            index.setdefault(p.id, len(index))
        self.names = list(index)
        self.index = index
        country = [False] * len(index)
        for p in board.places:
            if p.is_country:
                country[index[p.id]] = True
        self.country = country
        near: list[dict[int, list]] = [{} for _ in index]  # neighbour -> [length, routes, tracks]
        for i, r in enumerate(board.routes):
            a, b = index.get(r.from_), index.get(r.to)
            if a is None or b is None or a == b:
                continue
            data = near[a].get(b)
            if data is None:
                near[a][b] = near[b][a] = [r.length, [i], len(r.tracks)]
            else:
                data[0] = min(data[0], r.length)
                data[1].append(i)
                data[2] += len(r.tracks)
        self.ends: list[tuple[int, int]] = []
        self.length: list[int] = []
        self.routes: list[tuple[int, ...]] = []
        self.tracks: list[int] = []
        self.adj: list[list[tuple[int, int]]] = [[] for _ in index]
        for a, nbrs in enumerate(near):
            for b, (length, routes, tracks) in nbrs.items():
                if b > a:
                    e = len(self.ends)
                    self.ends.append((a, b))
                    self.length.append(length)
                    self.routes.append(tuple(routes))
                    self.tracks.append(tracks)
                    self.adj[a].append((e, b))
                    self.adj[b].append((e, a))
        self.wadj = weighted(self.adj, self.length)
        self.longest = max(self.length, default=0)

    def degree(self, place: str) -> int:
        """How many places `place` is adjacent to (0: no route reaches it)."""
        return len(self.adj[self.index[place]])

    def spaces_from(self, start: int, wanted: set[int] | None = None, paths: list[float] | None = None) -> list[int | None]:
        """`spaces` over this graph."""
        return spaces(self.wadj, self.country, start, wanted, paths, self.longest)


class UnionFind:
    """Disjoint sets of hashable nodes (a node is alone until joined), with path halving.

    `union(a, b)` puts a's set under b's root, so the roots (and whatever is grouped by them) come out
    in one fixed order for one sequence of unions."""

    __slots__ = ("parent",)

    def __init__(self, parent: dict[Hashable, Hashable] | None = None) -> None:
        self.parent: dict[Hashable, Hashable] = parent or {}

    def copy(self) -> UnionFind:
        return UnionFind(dict(self.parent))

    def find(self, x: Hashable) -> Hashable:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: Hashable, b: Hashable) -> None:
        parent = self.parent  # find(a) and find(b), inlined: unions come by the thousand in final scoring
        parent.setdefault(a, a)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        parent.setdefault(b, b)
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[a] = b


def distances(adj: Sequence[Sequence[tuple[int, int]]], country: Sequence[bool], cost: Sequence[float],
              sources: Iterable[int]) -> list[float]:
    """Cost of the cheapest path from the nearest of `sources` to every place (INF: none), by route `cost`
    (INF: a route that cannot be used), entering countries but never passing through one that is not a source."""
    dist = [INF] * len(adj)
    heap = []
    for s in sources:
        dist[s] = 0.0
        heap.append((0.0, s))
    heap.sort()
    srcs = {s for _, s in heap}
    while heap:
        d, u = heappop(heap)
        if d > dist[u]:
            continue
        if country[u] and u not in srcs:
            continue
        for r, v in adj[u]:
            w = cost[r]
            if w == INF:
                continue
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                heappush(heap, (nd, v))
    return dist


def weighted(adj: Sequence[Sequence[tuple[int, int]]], length: Sequence[int]) -> list[list[tuple[int, int]]]:
    """`adj` as `spaces` reads it: `(other end, length)` per place, in the same order."""
    return [[(v, length[e]) for e, v in row] for row in adj]


def spaces(wadj: Sequence[Sequence[tuple[int, int]]], country: Sequence[bool], start: int,
           wanted: set[int] | None = None, paths: list[float] | None = None, longest: int | None = None) -> list[int | None]:
    """Spaces on the shortest path from `start` to every place (None: not reached), never passing through a
    country other than `start`; `wadj[place]` lists `(other end, spaces)`, spaces a whole number up to
    `longest` (worked out when not given).

    A bucket queue (Dial's algorithm: a ring of longest + 1 buckets replaces the heap). With `wanted`
    the search stops once all of those places are settled (the set is emptied on the way); `paths` (zeros,
    one per place) receives the number of shortest paths to each place settled."""
    adj = wadj
    n = len(adj)
    dist: list[int | None] = [None] * n
    best = [1 << 60] * n
    if paths is not None:
        paths[start] = 1.0
    size = (longest if longest is not None else max((w for row in adj for _, w in row), default=0)) + 1
    buckets: list[list[int]] = [[] for _ in range(size)]
    buckets[0].append(start)
    best[start] = 0
    pending, d = 1, 0
    while pending:
        bucket = buckets[d % size]
        while bucket:
            node = bucket.pop()
            pending -= 1
            if dist[node] is not None or best[node] != d:
                continue
            dist[node] = d
            if wanted is not None:
                wanted.discard(node)
                if not wanted:
                    return dist
            if country[node] and node != start:
                continue
            for nbr, w in adj[node]:
                nd = d + w
                if nd < best[nbr]:
                    best[nbr] = nd
                    buckets[nd % size].append(nbr)
                    pending += 1
                    if paths is not None:
                        paths[nbr] = paths[node]
                elif paths is not None and nd == best[nbr]:
                    paths[nbr] += paths[node]
        d += 1
    return dist


def tight_edges(adj: Sequence[Sequence[tuple[int, int]]], country: Sequence[bool], length: Sequence[int],
                dist: Sequence[int | None], start: int, end: int) -> Iterator[tuple[int, int, int]]:
    """The edges on the shortest paths from `start` to `end`, walking back from `end`, as `(edge, u, v)`
    with u nearer `start`: `dist` is `spaces` from `start` (settled at least up to `end`); an edge u-v is
    on one when dist(u) + length = dist(v) and u is not a country (unless it is `start`)."""
    if dist[end] is None:
        return
    seen = {end}
    stack = [end]
    while stack:
        v = stack.pop()
        dv = dist[v]
        for e, u in adj[v]:
            du = dist[u]
            if du is None or du + length[e] != dv or (country[u] and u != start):
                continue
            yield e, u, v
            if u not in seen:
                seen.add(u)
                stack.append(u)


def components(adj: Sequence[Sequence[tuple[int, int]]], keep: Sequence[bool] | None = None) -> list[int]:
    """The connected part of each place, numbered 0, 1, ... in the order of each part's first place; with
    `keep`, only over the places kept (the others get -1 and join nothing)."""
    part = [-1] * len(adj)
    k = 0
    for s in range(len(adj)):
        if part[s] >= 0 or (keep is not None and not keep[s]):
            continue
        part[s] = k
        stack = [s]
        while stack:
            u = stack.pop()
            for _, v in adj[u]:
                if part[v] < 0 and (keep is None or keep[v]):
                    part[v] = k
                    stack.append(v)
        k += 1
    return part


def blocks(adj: Sequence[Sequence[tuple[int, int]]], keep: Sequence[bool] | None = None) -> tuple[list[int], list[bool], list[list[int]]]:
    """The choke points of the graph over the places kept (all without `keep`; `adj` lists no edge twice
    between two places): its bridges (the edges no cycle passes, by edge number), which places are cut
    places (removing one leaves more parts) and its biconnected blocks (each a list of places, ascending;
    a bridge is a block of two places, a place without edges is in none).

    Tarjan's depth-first search, without recursion, so a board of thousands of places in a line is fine."""
    n = len(adj)
    disc = [-1] * n
    low = [0] * n
    cut = [False] * n
    bridges: list[int] = []
    found: list[list[int]] = []
    clock = 0
    for root in range(n):
        if disc[root] >= 0 or (keep is not None and not keep[root]):
            continue
        disc[root] = low[root] = clock
        clock += 1
        children = 0
        path: list[tuple[int, int, Iterator[tuple[int, int]]]] = [(root, -1, iter(adj[root]))]  # (place, edge in, edges left)
        edges: list[tuple[int, int]] = []  # tree and back edges of the blocks not yet closed
        while path:
            u, into, rest = path[-1]
            for e, v in rest:
                if e == into or (keep is not None and not keep[v]):
                    continue
                if disc[v] < 0:
                    disc[v] = low[v] = clock
                    clock += 1
                    edges.append((u, v))
                    path.append((v, e, iter(adj[v])))
                    break
                if disc[v] < disc[u]:  # a back edge to an ancestor (from a descendant it was seen there)
                    edges.append((u, v))
                    if disc[v] < low[u]:
                        low[u] = disc[v]
            else:
                path.pop()
                if not path:
                    continue
                p = path[-1][0]
                if low[u] < low[p]:
                    low[p] = low[u]
                if low[u] > disc[p]:
                    bridges.append(into)
                if low[u] >= disc[p]:  # p separates u's subtree: close its block
                    block = set()
                    while True:
                        a, b = edges.pop()
                        block.add(a)
                        block.add(b)
                        if a == p and b == u:
                            break
                    found.append(sorted(block))
                    if p == root:
                        children += 1
                    else:
                        cut[p] = True
        if children > 1:
            cut[root] = True
    bridges.sort()
    return bridges, cut, found
