"""A route that is the only link between two parts of the board (a bridge).

Reported as information with the size of the smaller part: a bridge is not a
mistake (Edinburgh hangs off London on the Europe board).

Why: every ticket into the smaller part depends on the bridge, so whoever
claims it can block those tickets; with one track, a single claim cuts the
part off for everyone else.

Example:

```yaml
routes:
  - {from: a, to: b, length: 1, tracks: [red]}
  - {from: b, to: c, length: 1, tracks: [red]}
  - {from: c, to: a, length: 1, tracks: [red]}
  - {from: c, to: d, length: 2, tracks: [blue]}   # the only way to d
```

No finding once a second route reaches d, e.g. `{from: b, to: d, length: 2, tracks: [gray]}`.
"""

from __future__ import annotations

from typing import Iterator

import networkx as nx

from ..base import Finding
from ..context import Context

CODE = "G015"
NAME = "bridge-route"
SEVERITY = "info"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    g = ctx.graph
    bridges = list(nx.bridges(g))
    if not bridges:
        return
    rest = g.copy()
    rest.remove_edges_from(bridges)
    block_of = {n: k for k, comp in enumerate(nx.connected_components(rest)) for n in comp}
    members: dict[int, list[str]] = {}
    for n, k in block_of.items():
        members.setdefault(k, []).append(n)
    tree = nx.Graph()
    tree.add_nodes_from(members)
    tree.add_edges_from((block_of[u], block_of[v]) for u, v in bridges)
    size: dict[int, int] = {}
    parent: dict[int, int | None] = {}
    total: dict[int, int] = {}
    for comp in nx.connected_components(tree):
        root = min(comp)
        order = list(nx.dfs_preorder_nodes(tree, root))
        parent[root] = None
        for k in order:
            for nb in tree[k]:
                if nb != parent[k]:
                    parent[nb] = k
        for k in reversed(order):
            size[k] = len(members[k]) + sum(size[nb] for nb in tree[k] if nb != parent[k])
        for k in order:
            total[k] = size[root]
    index = ctx.place_index
    for u, v in bridges:
        bu, bv = block_of[u], block_of[v]
        child = bv if parent[bv] == bu else bu
        side, other = size[child], total[child] - size[child]
        small_block = child if side <= other else (bu if child == bv else bv)
        small = side if side <= other else other
        names = _places_beyond(tree, members, small_block, bv if small_block == bu else bu, limit=3)
        shown = ", ".join(sorted(names, key=index.__getitem__)) + (" …" if small > len(names) else "")
        route = ctx.board.routes[min(g.edges[u, v]["routes"])]
        yield Finding(
            ("routes", min(g.edges[u, v]["routes"])),
            f"route {ctx.route_name(route)} is the only link to {small} place(s) ({shown}); claiming it can cut them off",
        )


def _places_beyond(tree: nx.Graph, members: dict[int, list[str]], start: int, avoid: int, limit: int) -> list[str]:
    out: list[str] = []
    stack, seen = [start], {start, avoid}
    while stack and len(out) < limit:
        k = stack.pop()
        out.extend(members[k][: limit - len(out)])
        for nb in tree[k]:
            if nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return out
