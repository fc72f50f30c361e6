"""The board as a graph, for the parts of ttr-maps that walk it: components and the country rule.

A country is a terminal place (docs/rules.md#countries): a path may start or end there but never passes
through it. `distances` is the shortest-path search under that rule over int-indexed places (the engine's
tables: `adj[place]` lists `(route, other end)`); `UnionFind` joins places (or any hashable nodes) into
networks. The engine's scoring and longest trail, the bots and simulate use these rather than their own.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Hashable, Iterable, Sequence

INF = float("inf")


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
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


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
