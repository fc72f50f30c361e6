"""The longest trail's pendant-tree steps as trail.py had them before 2026-11-27 (a dict of degrees, a set of
routes still alive, a descent list for every place): the reference the leaner steps of trail.py are held to,
route for route (tests/test_trail.py). Step 4 (`_core_trail`) is trail.py's own, unchanged."""

from __future__ import annotations

from ttr_maps.engine.trail import Trail, _core_trail, networks


def reference_trail_of(ends, weights, nodes):
    """trail.trail_of, the way it was: the same networks, order and ties."""
    parent = networks(ends, nodes)
    groups: dict = {}
    sums: dict = {}
    for i, (a, _b) in enumerate(ends):
        while parent[a] != a:
            a = parent[a]
        if a not in groups:
            groups[a] = [i]
            sums[a] = weights[i]
        else:
            groups[a].append(i)
            sums[a] += weights[i]
    if not groups:
        return Trail(0, frozenset())
    components = list(groups.values())
    totals = list(sums.values())
    heavy = totals.index(max(totals))
    best = _reference_network_trail(ends, weights, components[heavy], totals[heavy])
    at = heavy
    for k, component in enumerate(components):
        total = totals[k]
        if total < best.length or (total == best.length and k > at) or k == heavy:
            continue
        found = _reference_network_trail(ends, weights, component, total)
        if found.length > best.length or (found.length == best.length and k < at):
            best, at = found, k
    return best


def _reference_network_trail(ends, weights, component, total):
    if len(component) <= 2:
        return Trail(total, frozenset(component))
    incident: dict = {}
    for i in component:
        u, v = ends[i]
        incident.setdefault(u, []).append(i)
        incident.setdefault(v, []).append(i)
    odd = {x for x, ids in incident.items() if len(ids) & 1}
    if not odd:
        return Trail(total, frozenset(component))
    alive, descents, best = _reference_pendant_trees(ends, weights, component, incident)
    if not alive:
        return Trail(best[0], frozenset(best[1]))
    return _core_trail(ends, weights, component, alive, descents, odd, best)


def _reference_pendant_trees(ends, weights, component, incident):
    degree = {x: len(ids) for x, ids in incident.items()}
    alive = set(component)
    descents: dict = {x: [] for x in incident}
    queue = [x for x, d in degree.items() if d == 1]
    while queue:
        x = queue.pop()
        if degree[x] != 1:
            continue
        for i in incident[x]:
            if i in alive:
                break
        alive.discard(i)
        u, v = ends[i]
        y = v if u == x else u
        dx = descents[x]
        item = (weights[i] + dx[0][0], (i,) + dx[0][1]) if dx else (weights[i], (i,))
        dy = descents[y]
        if not dy:
            dy.append(item)
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
        degree[x] = 0
        degree[y] -= 1
        if degree[y] == 1:
            queue.append(y)
    most = -1
    richest_places: list = []
    for ds in descents.values():
        n = ds[0][0] + ds[1][0] if len(ds) == 2 else ds[0][0] if ds else 0
        if n > most:
            most = n
            richest_places = [ds]
        elif n == most:
            richest_places.append(ds)
    best = max((most, tuple(i for d in ds for i in d[1])) for ds in richest_places)
    return alive, descents, best
