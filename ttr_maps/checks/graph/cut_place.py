"""A place every path between two parts of the board passes through (a cut place).

Reported as information with the size of each part its removal leaves (on the
Europe board, Madrid holds Lisboa and Cádiz). Countries are never reported: no
path passes through a country anyway. For the same reason a country joins
nothing: two cities linked only through a country are in different parts (a
country that borders several cities belongs to a part when all those cities
other than the cut place do).

Why: like a bridge route, a cut place is a choke point: the routes around it
are contested, and a player holding them controls access to the parts behind it.

Example:

```yaml
routes:
  - {from: a, to: hub, length: 1, tracks: [red]}
  - {from: b, to: hub, length: 1, tracks: [red]}
  - {from: a, to: b, length: 1, tracks: [blue]}
  - {from: hub, to: c, length: 2, tracks: [green]}
  - {from: hub, to: d, length: 2, tracks: [gray]}
  - {from: c, to: d, length: 1, tracks: [white]}   # every a/b-c/d path passes hub
```

No finding once another route joins the two sides, e.g. `{from: b, to: c, length: 3, tracks: [gray]}`.
"""

from __future__ import annotations

from typing import Iterator

from ...boardgraph import blocks
from ..base import Finding
from ..context import Context, RootedForest

CODE = "G016"
NAME = "cut-place"
SEVERITY = "info"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    names = ctx.pairs.names
    _, is_cut, found = blocks(*ctx.passable)
    cuts = {names[p] for p, c in enumerate(is_cut) if c}
    if not cuts:
        return
    parts = [{names[p] for p in block} for block in found]
    # The block-cut tree: a node per block and per cut place. Each place weighs 1, in its
    # cut node or (if not a cut place) in its only block; a side's size is a subtree's weight.
    tree: dict[tuple, list[tuple]] = {}
    weight: dict[tuple, int] = {}
    home: dict[str, tuple] = {}
    for k, block in enumerate(parts):
        weight[("b", k)] = len(block - cuts)
        tree.setdefault(("b", k), [])
        for n in block - cuts:
            home[n] = ("b", k)
        for n in block & cuts:
            tree[("b", k)].append(("c", n))
            tree.setdefault(("c", n), []).append(("b", k))
            weight[("c", n)] = 1
            home[n] = ("c", n)
    forest = RootedForest.of(tree, weight)
    index = ctx.place_index
    for n in sorted((n for n in cuts if n not in ctx.countries), key=index.__getitem__):
        node = ("c", n)
        sides = []
        for nb in tree[node]:
            if nb != forest.parent[node]:
                size = forest.below[nb]
            else:
                size = forest.total[node] - forest.below[node]
            # A country bordering several cities is in this part when all of them but n are.
            for nbrs in ctx.floating_countries.values():
                where = {_side(forest, home[m], node, nb) for m in nbrs if m != n and m in home}
                if where == {True}:
                    size += 1
            near = min((m for m in parts[nb[1]] if m != n), key=index.__getitem__)
            sides.append((size, index[near], near))
        sides.sort()
        listed = ", ".join(f"{size} place(s) around {near}" for size, _, near in sides)
        yield Finding(("places", index[n]), f"every path between {len(sides)} parts of the board passes through '{n}': {listed}")


def _side(forest: RootedForest, where: tuple, cut: tuple, part: tuple) -> bool | None:
    """Whether tree node `where` is in the part behind `part`, a tree neighbour of `cut` (None: another tree)."""
    s = forest.side(where, cut)
    if s < 0:
        return None
    if part != forest.parent[cut]:
        return forest.inside(where, part)
    return s == 0
