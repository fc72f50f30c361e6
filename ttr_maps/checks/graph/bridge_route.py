"""A route that is the only link between two parts of the board (a bridge).

Reported as information with the size of the smaller part: a bridge is not a
mistake (Edinburgh hangs off London on the Europe board).

No path passes through a country, so a country joins nothing: two cities
linked only through a country are in different parts, and the routes that
lead to them are bridges. A country's only route is a bridge to it; a country
that borders several cities belongs to a part when all those cities do.

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

from ...boardgraph import blocks, components
from ..base import Finding
from ..context import Context, RootedForest, listing

CODE = "G015"
NAME = "bridge-route"
SEVERITY = "info"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    g = ctx.pairs
    adj, keep = ctx.passable
    bridges = blocks(adj, keep)[0]
    if not bridges:
        return
    cut = set(bridges)
    # The parts left without the bridges, numbered by their first place; each lists its places in the file's order.
    part = components([[(e, v) for e, v in row if e not in cut] for row in adj], keep)
    block_of = {g.names[p]: k for p, k in enumerate(part) if k >= 0}
    members: dict[int, list[str]] = {}
    for n, k in block_of.items():
        members.setdefault(k, []).append(n)
    tree: dict[int, list[int]] = {k: [] for k in members}
    for e in bridges:
        bu, bv = part[g.ends[e][0]], part[g.ends[e][1]]
        tree[bu].append(bv)
        tree[bv].append(bu)
    forest = RootedForest.of(tree, {k: len(m) for k, m in members.items()})
    floating = [(c, {block_of[n] for n in nbrs}) for c, nbrs in ctx.floating_countries.items()]
    index = ctx.place_index
    for e in bridges:
        u, v = (g.names[p] for p in g.ends[e])
        bu, bv = block_of[u], block_of[v]
        child = bv if forest.parent[bv] == bu else bu
        sides = [{forest.side(b, child) for b in parts} for _, parts in floating]
        inside = [c for (c, _), s in zip(floating, sides) if s == {1}]
        outside = [c for (c, _), s in zip(floating, sides) if s == {0}]
        side = forest.below[child] + len(inside)
        other = forest.total[child] - forest.below[child] + len(outside)
        if side <= other:
            small_block, small, countries = child, side, inside
        else:
            small_block, small, countries = (bu if child == bv else bv), other, outside
        names = _places_beyond(tree, members, small_block, bv if small_block == bu else bu, limit=3)
        names = sorted(names, key=index.__getitem__) + sorted(countries, key=index.__getitem__)[: 3 - len(names)]
        shown = ", ".join(names) + (" …" if small > len(names) else "")
        routes = sorted(g.routes[e])
        if len(routes) == 1:
            what = f"route {ctx.route_name(ctx.board.routes[routes[0]])} is the only link"
        else:  # separate routes between the same two places (a tunnel and a ferry)
            what = f"routes {listing([ctx.route_name(ctx.board.routes[r]) for r in routes])} are the only links"
        yield Finding(
            ("routes", routes[0]),
            f"{what} to {small} place(s) ({shown}); claiming {'it' if len(routes) == 1 else 'them'} can cut them off",
        )


def _places_beyond(tree: dict[int, list[int]], members: dict[int, list[str]], start: int, avoid: int, limit: int) -> list[str]:
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
