"""The longest continuous path: the longest trail in a player's own routes.

A trail uses each route at most once and may revisit places (loops are allowed:
New York–Pittsburgh–Chicago–Toronto–Pittsburgh–Nashville is one trail, USA
rules). Its length is the number of trains on it.

Countries (Märklin) are terminal: routes end there and no path passes through
one. A trail may start or end in a country but never goes in and out of it, so
each route into a country ends at its own dead end ("leaf") here.

Exact and fast, from three facts about a longest trail T in one connected
component (with the country leaves split off):

1. An unused route at an end of T could be appended, so every route at T's ends
   is in T. If T is open, its ends therefore have odd degree; if T is closed,
   every place on it has all its routes in T, so T is the whole component and
   the component has only even degrees (an Eulerian component: the answer is
   its total length, no search).
2. A place of degree 2 is never an end, so a trail through it uses both its
   routes one after the other: such places are contracted away (their two
   routes become one, possibly a loop).
3. Each odd place that is not an end keeps at least one route out of T, which
   bounds T from above; the search stops as soon as it reaches that bound.

What is left is a depth-first search from the odd places over the routes as a
bitmask, pruned by "length so far + length of unused routes <= best".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

Edge = tuple[Hashable, Hashable, int]


@dataclass(frozen=True)
class Trail:
    """A longest trail: its length in trains and the input edges (by index) it uses."""

    length: int
    edges: frozenset[int]


def longest_trail(edges: Sequence[Edge], terminals: Iterable[Hashable] = ()) -> Trail:
    """The longest trail over `edges` (ends, length), never passing through a place in `terminals`.

    Parallel edges are distinct routes (a caller gives each route once; a player
    never owns two tracks of one route).
    """
    terminal = frozenset(terminals)
    ends: list[tuple[Hashable, Hashable]] = []
    for i, (a, b, _w) in enumerate(edges):
        ends.append((("leaf", a, i) if a in terminal else a, ("leaf", b, i) if b in terminal else b))
    best = Trail(0, frozenset())
    for component in _components(ends):
        found = _component_trail(ends, edges, component)
        if found.length > best.length:
            best = found
    return best


def _components(ends: list[tuple[Hashable, Hashable]]) -> list[list[int]]:
    parent: dict[Hashable, Hashable] = {}

    def find(x: Hashable) -> Hashable:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in ends:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[Hashable, list[int]] = {}
    for i, (a, _b) in enumerate(ends):
        groups.setdefault(find(a), []).append(i)
    return list(groups.values())


def _component_trail(ends: list[tuple[Hashable, Hashable]], edges: Sequence[Edge], component: list[int]) -> Trail:
    # Contracted edges: id -> [u, v, weight, original edge indices].
    live: dict[int, list] = {i: [ends[i][0], ends[i][1], edges[i][2], (i,)] for i in component}
    total = sum(e[2] for e in live.values())
    incident: dict[Hashable, list[int]] = {}
    for i, (u, v, _w, _o) in live.items():
        incident.setdefault(u, []).append(i)
        incident.setdefault(v, []).append(i)  # a loop appears twice: degree 2
    if all(len(ids) % 2 == 0 for ids in incident.values()):
        return Trail(total, frozenset(component))

    next_id = max(live) + 1
    queue = [x for x, ids in incident.items() if len(ids) == 2]
    while queue:
        x = queue.pop()
        ids = incident.get(x)
        if ids is None or len(ids) != 2 or ids[0] == ids[1]:
            continue
        e1, e2 = live.pop(ids[0]), live.pop(ids[1])
        a = e1[1] if e1[0] == x else e1[0]
        b = e2[1] if e2[0] == x else e2[0]
        del incident[x]
        incident[a].remove(ids[0])
        incident[b].remove(ids[1])
        live[next_id] = [a, b, e1[2] + e2[2], e1[3] + e2[3]]
        incident[a].append(next_id)
        incident[b].append(next_id)
        next_id += 1

    order = list(live)
    index = {x: k for k, x in enumerate(incident)}
    weight = [live[eid][2] for eid in order]
    adj: list[list[tuple[int, int, int, bool]]] = [[] for _ in index]
    for k, eid in enumerate(order):
        u, v = index[live[eid][0]], index[live[eid][1]]
        adj[u].append((1 << k, v, weight[k], u != v))
        if u != v:
            adj[v].append((1 << k, u, weight[k], True))
    for moves in adj:  # long routes first: good trails are found early, so pruning bites sooner
        moves.sort(key=lambda t: -t[2])

    # A place that is odd among the unused routes, and is neither where the
    # trail goes on from nor where it will end, keeps an unused route of at
    # least its lightest weight; an unused route serves two such places.
    lightest = [min(weight[k] for k in range(len(order)) if order[k] in incident[x]) for x in incident]
    degree = [len(incident[x]) for x in incident]
    odd_now = [d % 2 == 1 for d in degree]
    heaviest = max(lightest)
    odd_sum = sum(w for w, o in zip(lightest, odd_now) if o)
    odd = [k for k in range(len(index)) if odd_now[k]]
    slack = sorted(lightest[k] for k in odd)
    bound = total - (sum(slack[:-2]) + 1) // 2

    best_len = 0
    best_mask = 0

    class _Done(Exception):
        pass

    def dfs(x: int, used: int, length: int, remaining: int, odd_sum: int) -> None:
        nonlocal best_len, best_mask
        if length > best_len:
            best_len, best_mask = length, used
            if best_len >= bound:
                raise _Done
        for bit, y, w, flips in adj[x]:
            if used & bit:
                continue
            if flips:
                odd_x = odd_now[x] = not odd_now[x]
                odd_y = odd_now[y] = not odd_now[y]
                s = odd_sum + (lightest[x] if odd_x else -lightest[x]) + (lightest[y] if odd_y else -lightest[y])
            else:
                s = odd_sum
            left = remaining - w
            keep = s - (lightest[y] if odd_now[y] else 0) - heaviest
            if length + w + left - (keep + 1) // 2 > best_len:
                dfs(y, used | bit, length + w, left, s)
            if flips:
                odd_now[x] = not odd_now[x]
                odd_now[y] = not odd_now[y]

    odd.sort(key=lambda k: -sum(t[2] for t in adj[k]))
    try:
        for start in odd:
            dfs(start, 0, 0, total, odd_sum)
    except _Done:
        pass
    used_edges = frozenset(i for k, eid in enumerate(order) if best_mask >> k & 1 for i in live[eid][3])
    return Trail(best_len, used_edges)
