"""The longest continuous path: the longest trail in a player's own routes.

A trail uses each route at most once and may revisit places (loops are allowed:
New York–Pittsburgh–Chicago–Toronto–Pittsburgh–Nashville is one trail, USA
rules). Its length is the number of trains on it.

Countries (Märklin) are terminal: routes end there and no path passes through
one. A trail may start or end in a country but never goes in and out of it, so
each route into a country ends at its own dead end ("leaf") here.

Exact, with a worst case bounded by the network's shape, not by luck. Per
connected network:

1. Euler: a set of routes is one trail exactly when it is connected and has 0
   or 2 places of odd degree. A network with none is one closed trail.
2. Pendant trees (what is left after repeatedly cutting off dead ends) can only
   hold the trail's ends, so each place of the remaining core keeps just its
   two longest "descents" into them (linear time).
3. In the core, places of degree 2 without descents are contracted away.
4. Every candidate route set S of the core is, for its two ends a and b, a
   cycle-space element C plus the spanning-tree path between a and b. A
   longest trail's ends are odd places or places with descents (else it could
   be extended), so the search is over 2**c cycle-space elements times the
   pairs of such places (c = routes - places + 1 of the core, small for 45
   trains: at most 9 on the bundled boards); candidates are sorted by length
   and the first connected one wins.
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
    ids: dict[Hashable, int] = {}
    ends: list[tuple[int, int]] = []
    for i, (a, b, _w) in enumerate(edges):
        a = ("leaf", a, i) if a in terminal else a
        b = ("leaf", b, i) if b in terminal else b
        ia = ids.get(a)
        if ia is None:
            ia = ids[a] = len(ids)
        ib = ids.get(b)
        if ib is None:
            ib = ids[b] = len(ids)
        ends.append((ia, ib))
    return trail_of(ends, [e[2] for e in edges], len(ids))


def networks(ends: Sequence[tuple[int, int]], nodes: int) -> list[int]:
    """Union-find over places 0..nodes-1 joined by `ends` (with path halving): following parent[x] from x
    leads to one root per network."""
    parent = list(range(nodes))
    for a, b in ends:
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    return parent


def trail_of(ends: Sequence[tuple[int, int]], weights: Sequence[int], nodes: int, parent: list[int] | None = None) -> Trail:
    """longest_trail over places numbered 0..nodes-1: edge i joins ends[i] (a country's end already its own
    place per edge) and has length weights[i]. The first network (by its first edge) of the greatest length wins.

    A network's trail is at most its total length, so a network whose total cannot beat (or, before the
    winner so far, equal) the best found is not searched; the heaviest network is searched first. `parent`:
    networks(ends, nodes), if the caller has it."""
    if parent is None:
        parent = networks(ends, nodes)
    groups: dict[int, list[int]] = {}
    sums: dict[int, int] = {}
    for i, (a, _b) in enumerate(ends):
        while parent[a] != a:  # (halving the path on the way: the next edge's walk is shorter)
            parent[a] = a = parent[parent[a]]
        g = groups.get(a)
        if g is None:
            groups[a] = [i]
            sums[a] = weights[i]
        else:
            g.append(i)
            sums[a] += weights[i]
    if not groups:
        return Trail(0, frozenset())
    components = list(groups.values())
    totals = list(sums.values())
    heavy = totals.index(max(totals))
    best = _network_trail(ends, weights, components[heavy], totals[heavy])
    at = heavy
    for k, component in enumerate(components):
        total = totals[k]
        if total < best.length or (total == best.length and k > at) or k == heavy:
            continue
        found = _network_trail(ends, weights, component, total)
        if found.length > best.length or (found.length == best.length and k < at):
            best, at = found, k
    return best


def _network_trail(ends: Sequence[tuple[int, int]], weights: Sequence[int], component: list[int], total: int) -> Trail:
    """The longest trail of one connected network (its edges `component`, in order; `total` their length)."""
    if len(component) <= 2:  # one or two connected routes always make one trail
        return Trail(total, frozenset(component))
    incident: dict[int, list[int]] = {}  # place -> its routes not yet cut off, in the component's order
    for i in component:
        u, v = ends[i]
        ids = incident.get(u)
        if ids is None:
            incident[u] = [i]
        else:
            ids.append(i)
        ids = incident.get(v)
        if ids is None:
            incident[v] = [i]
        else:
            ids.append(i)  # a loop appears twice: degree 2
    leaves = []
    odd = []
    for x, ids in incident.items():
        if len(ids) & 1:
            odd.append(x)
            if len(ids) == 1:
                leaves.append(x)
    if not odd:
        return Trail(total, frozenset(component))

    cut, descents, best = _pendant_trees(ends, weights, incident, leaves)
    if len(cut) == len(component):
        return Trail(best[0], frozenset(best[1]))
    alive = set(component).difference(cut)
    for x in incident:
        if x not in descents:
            descents[x] = []
    return _core_trail(ends, weights, component, alive, descents, set(odd), best)


def _pendant_trees(ends: Sequence[tuple[int, int]], weights: Sequence[int], incident: dict[int, list[int]],
                   leaves: list[int]) -> tuple[list[int], dict, tuple[int, tuple[int, ...]]]:
    """Step 2: cut off the pendant trees, starting from the places of degree 1 (`leaves`, in the incident
    order); `incident` loses the routes cut. The routes cut, descents[x] = the two longest (length, routes)
    down from place x (longest first; an equal one after those already there; only places with a descent),
    and the longest trail within the trees: the place whose two descents are longest (length, routes)."""
    descents: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    cut = []
    queue = leaves
    while queue:
        x = queue.pop()
        ids = incident[x]
        if len(ids) != 1:  # cut off already, or not a leaf (a place is queued when its degree falls to 1)
            continue
        i = ids.pop()
        cut.append(i)
        u, v = ends[i]
        y = v if u == x else u
        dx = descents.get(x)
        item = (weights[i] + dx[0][0], (i,) + dx[0][1]) if dx else (weights[i], (i,))
        dy = descents.get(y)
        if dy is None:
            descents[y] = [item]
        elif len(dy) == 1:
            if item[0] > dy[0][0]:
                dy.insert(0, item)
            else:
                dy.append(item)
        elif item[0] > dy[0][0]:
            dy[1] = dy[0]
            dy[0] = item
        elif item[0] > dy[1][0]:
            dy[1] = item
        iy = incident[y]
        iy.remove(i)
        if len(iy) == 1:
            queue.append(y)
    # The place whose two descents are longest (on a tie, the greatest routes tuple: max() of the pairs, which
    # does not depend on the order the places are looked at in).
    most = -1
    richest_places: list = []
    for ds in descents.values():
        n = ds[0][0] + ds[1][0] if len(ds) == 2 else ds[0][0]
        if n > most:
            most = n
            richest_places = [ds]
        elif n == most:
            richest_places.append(ds)
    if not richest_places:
        return cut, descents, (0, ())
    if len(richest_places) == 1:
        ds = richest_places[0]
        return cut, descents, (most, ds[0][1] + ds[1][1] if len(ds) == 2 else ds[0][1])
    best = max((most, tuple(i for d in ds for i in d[1])) for ds in richest_places)
    return cut, descents, best


def _core_trail(ends: Sequence[tuple[int, int]], weights: Sequence[int], component: list[int], alive: set[int],
                descents: dict, odd: set[int], best: tuple[int, tuple[int, ...]]) -> Trail:
    """Steps 3 and 4 over the core (`alive`) of a network whose pendant trees give `descents` and `best`."""
    # 3. The core, with degree-2 places that hold no descent contracted away.
    core: dict[int, list] = {i: [ends[i][0], ends[i][1], weights[i], (i,)] for i in alive}
    around: dict[int, list[int]] = {}
    for i, (u, v, _w, _o) in core.items():
        around.setdefault(u, []).append(i)
        around.setdefault(v, []).append(i)
    next_id = max(core) + 1
    for x in list(around):
        ids = around[x]
        if len(ids) != 2 or ids[0] == ids[1] or descents[x]:
            continue
        e1, e2 = core.pop(ids[0]), core.pop(ids[1])
        a = e1[1] if e1[0] == x else e1[0]
        b = e2[1] if e2[0] == x else e2[0]
        del around[x]
        around[a].remove(ids[0])
        around[b].remove(ids[1])
        core[next_id] = [a, b, e1[2] + e2[2], e1[3] + e2[3]]
        around[a].append(next_id)
        around[b].append(next_id)  # a new loop (a == b) counts twice, as loops do
        next_id += 1

    # 4. Cycle space times end pairs, longest first; the first connected one wins.
    places = list(around)
    index = {x: k for k, x in enumerate(places)}
    order = list(core)
    m = len(order)
    eu = [index[core[e][0]] for e in order]
    ev = [index[core[e][1]] for e in order]
    inc = [0] * len(places)
    for k in range(m):
        inc[eu[k]] |= 1 << k
        inc[ev[k]] |= 1 << k
    path = _tree_paths(inc, eu, ev)
    tree = 0
    for p in path:
        tree |= p
    top = [descents[x][0][0] if descents[x] else 0 for x in places]
    both = [sum(d[0] for d in descents[x]) for x in places]
    enders = [k for k, x in enumerate(places) if x in odd or descents[x]]
    loops = sum(1 for k in range(m) if not tree >> k & 1)
    work = (1 << loops) * (len(enders) * (len(enders) - 1) // 2 + 1)
    if work > MAX_CANDIDATES or (m > 62 and work > MAX_PURE_PYTHON):
        raise TrailTooLarge(
            f"the longest continuous path of a network of {len(component)} routes with {loops} independent loops "
            f"is too large to search exactly ({work:,} candidate trails; the limit is {MAX_CANDIDATES:,})"
        )
    cycles = [0]
    for k in range(m):
        if not tree >> k & 1:
            f = (1 << k) ^ path[eu[k]] ^ path[ev[k]]
            cycles += [c ^ f for c in cycles]
    length_of = _measure([core[e][2] for e in order])

    pairs = [(path[a] ^ path[b], top[a] + top[b], a, b) for n, a in enumerate(enders) for b in enders[n + 1 :]]
    richest = max(both)
    if len(cycles) * (len(pairs) + 1) >= VECTOR_FROM and m <= 62:
        candidates = _vector_candidates(cycles, pairs, richest, [core[e][2] for e in order], best[0])
    else:
        masks = [c ^ q for c in cycles for q, _bonus, _a, _b in pairs]
        masks += cycles
        lengths = length_of(masks) if len(masks) > 64 else [length_of(mk) for mk in masks]
        extras = [(bonus, a, b) for _c in cycles for _q, bonus, a, b in pairs] + [(richest, -1, -1)] * len(cycles)
        candidates = [(n + e[0], mk, e[1], e[2]) for n, mk, e in zip(lengths, masks, extras) if mk and n + e[0] > best[0]]
        if candidates:
            first = max(candidates)
            if first[2] < 0 or not _connected(first[1], inc, eu, ev):
                candidates.sort(reverse=True)
            else:
                candidates = [first]  # nothing else is longer
    for value, s, a, b in candidates:
        if value <= best[0]:
            break
        if not _connected(s, inc, eu, ev):
            continue
        if a < 0:  # a closed trail: hang the two longest descents of one of its places on it
            v = max((k for k in range(len(places)) if inc[k] & s), key=lambda k: both[k])
            value += both[v] - richest
            if value <= best[0]:
                continue
            hung = [i for d in descents[places[v]] for i in d[1]]
        else:
            hung = [i for k in (a, b) if descents[places[k]] for i in descents[places[k]][0][1]]
        used = [i for k in range(m) if s >> k & 1 for i in core[order[k]][3]]
        best = (value, tuple(used + hung))
    return Trail(best[0], frozenset(best[1]))


# The most candidate trails (cycle-space elements times end pairs) one network may need: about half a
# minute on numpy. Real 45-train networks need at most a few thousand; past this the search is refused
# (TrailTooLarge) rather than left to run for hours. Networks of more than 62 core routes, which numpy's
# 64-bit masks cannot hold, are searched in pure Python up to MAX_PURE_PYTHON candidates.
MAX_CANDIDATES = 1 << 29
MAX_PURE_PYTHON = 1 << 20


class TrailTooLarge(ValueError):
    """A network whose longest trail cannot be searched exactly in reasonable time (see MAX_CANDIDATES)."""


# From this many candidate route sets (2**c cycle-space elements times end pairs) on, step 4 runs on
# numpy arrays: the same candidates in the same order, 3 times faster on the bundled boards' densest
# networks and 25 times on a dense fan board of short routes; below it numpy's overhead does not pay.
VECTOR_FROM = 1024


def _vector_candidates(cycles: list[int], pairs: list, richest: int, weights: list[int], floor: int):
    """Step 4's candidates (value, routes mask, end a, end b) longer than `floor`, longest first, from numpy
    arrays: the order is the pure-Python path's (value, then mask, a, b, all descending). The arrays are
    made a block of cycle-space elements at a time (memory stays small) and one length at a time, longest
    first, is sorted and handed out (the first connected candidate usually ends the search)."""
    import numpy as np

    q = np.array([p[0] for p in pairs] + [0], dtype=np.int64)  # the last column: the cycle alone, a closed trail
    bonus = np.array([p[1] for p in pairs] + [richest], dtype=np.int64)
    ends = [(p[2], p[3]) for p in pairs] + [(-1, -1)]
    tables = []
    for shift in range(0, len(weights), 8):
        table = [0] * 256
        for byte in range(1, 256):
            low = byte & -byte
            k = shift + low.bit_length() - 1
            table[byte] = table[byte ^ low] + (weights[k] if k < len(weights) else 0)
        tables.append((shift, np.array(table, dtype=np.int64)))
    cyc = np.array(cycles, dtype=np.int64)
    rows = max(1, _VECTOR_BLOCK // len(q))
    blocks = list(range(0, len(cyc), rows))

    def block(lo: int):
        masks = cyc[lo : lo + rows, None] ^ q[None, :]
        values = np.broadcast_to(bonus, masks.shape).copy()
        for shift, table in tables:
            values += table[(masks >> shift) & 255]
        values[masks == 0] = floor  # the empty set is no trail
        return masks, values

    cached = block(0) if len(blocks) == 1 else None
    levels: set[int] = set()
    for lo in blocks:
        _masks, values = cached or block(lo)
        levels.update(np.unique(values[values > floor]).tolist())
    for level in sorted(levels, reverse=True):
        found = []
        for lo in blocks:
            masks, values = cached or block(lo)
            rows_at, cols_at = np.nonzero(values == level)
            for mk, col in zip(masks[rows_at, cols_at].tolist(), cols_at.tolist()):
                found.append((level, mk) + ends[col])
        found.sort(reverse=True)
        yield from found


_VECTOR_BLOCK = 1 << 20  # candidates per numpy block


def _tree_paths(inc: list[int], eu: list[int], ev: list[int]) -> list[int]:
    """For each place v, the routes (a bitmask) of a spanning tree's path between place 0 and v."""
    path: list[int | None] = [None] * len(inc)
    path[0] = 0
    queue = [0]
    for v in queue:
        mm = inc[v]
        while mm:
            low = mm & -mm
            mm ^= low
            k = low.bit_length() - 1
            o = eu[k] ^ ev[k] ^ v
            if path[o] is None:
                path[o] = path[v] | low  # type: ignore[operator]  # (path[v] is set: v was queued)
                queue.append(o)
    return path  # type: ignore[return-value]


def _measure(weights: list[int]):
    """`length_of(mask)`: the total length of the routes in a bitmask; given a list of
    masks, a list of lengths (by per-byte tables, worth building for many masks)."""
    groups: dict[int, int] = {}
    for k, w in enumerate(weights):
        groups[w] = groups.get(w, 0) | 1 << k
    by_length = list(groups.items())

    def tables() -> list[list[int]]:
        out = []
        for shift in range(0, len(weights), 8):
            t = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                k = shift + low.bit_length() - 1
                t[byte] = t[byte ^ low] + (weights[k] if k < len(weights) else 0)
            out.append(t)
        return out

    def length_of(masks):
        if isinstance(masks, int):
            return sum(w * (masks & g).bit_count() for w, g in by_length)
        ts = tables()
        if len(ts) == 1:
            (t0,) = ts
            return [t0[s] for s in masks]
        if len(ts) == 2:
            t0, t1 = ts
            return [t0[s & 255] + t1[s >> 8] for s in masks]
        if len(ts) == 3:
            t0, t1, t2 = ts
            return [t0[s & 255] + t1[s >> 8 & 255] + t2[s >> 16] for s in masks]
        return [sum(t[s >> (8 * j) & 255] for j, t in enumerate(ts)) for s in masks]

    return length_of


def _connected(s: int, inc: list[int], eu: list[int], ev: list[int]) -> bool:
    """Whether the routes in bitmask `s` form one connected network."""
    k = (s & -s).bit_length() - 1
    seen_routes = 0
    seen = 1 << eu[k]
    stack = [eu[k]]
    while stack:
        v = stack.pop()
        mm = inc[v] & s & ~seen_routes
        seen_routes |= mm
        while mm:
            low = mm & -mm
            mm ^= low
            j = low.bit_length() - 1
            o = eu[j] ^ ev[j] ^ v
            if not seen >> o & 1:
                seen |= 1 << o
                stack.append(o)
    return seen_routes == s
