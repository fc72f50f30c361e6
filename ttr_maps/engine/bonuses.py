"""Final-scoring bonuses beyond the longest path and most tickets (docs/rules.md#final-scoring).

- Two paths (`scoring.bonuses.two_paths`): points for each kept ticket whose start and one of its
  destinations the player's own routes join by two separate paths: two paths with no route in
  common (places may be shared). A route is one edge however many tracks it has; two separate
  routes between the same places are two. Countries stay dead ends: no path passes through one,
  and a country at a ticket's end is reached by two different border routes. Stations' borrowed
  routes never count.
- Most routes of a length (`scoring.bonuses.most_routes`): for each listed length, every player
  tied for the most routes of exactly that length scores the points; nobody does when no one has
  such a route.

One module for both, so scoring, the bots and the docs share one reading of the rule. The
functions take plain nodes (place ids or indices), so the bots can ask the same questions of
their own tables.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Sequence

Node = Hashable


def separate_paths(edges: Iterable[tuple[Node, Node]], starts: Iterable[Node], ends: Iterable[Node]) -> int:
    """How many paths with no edge in common join a node of `starts` to a node of `ends` (0, 1 or 2: the
    search stops at two). `edges` is a multigraph: the same pair twice is two edges.

    Two rounds of augmenting paths over unit capacities (an undirected edge carries one path either
    way), so the answer is exact: a second path may reuse places and even undo part of the first.
    """
    adj: dict[Node, list[tuple[Node, int]]] = {}
    for e, (a, b) in enumerate(edges):
        if a == b:
            continue
        adj.setdefault(a, []).append((b, e))
        adj.setdefault(b, []).append((a, e))
    sources = {s for s in starts if s in adj}
    sinks = {t for t in ends if t in adj}
    if not sources or not sinks or sources & sinks:
        return 0
    used: dict[int, Node] = {}  # edge -> the node the path left it from (the direction it carries flow)
    found = 0
    while found < 2:
        came: dict[Node, tuple[Node, int] | None] = {s: None for s in sources}
        queue = list(sources)
        hit = None
        for u in queue:
            if u in sinks:
                hit = u
                break
            for v, e in adj[u]:
                if v in came:
                    continue
                # Forward along a free edge, or backward along an edge the flow uses the other way (cancelling it).
                if e not in used or used[e] == v:
                    came[v] = (u, e)
                    queue.append(v)
        if hit is None:
            return found
        v = hit
        while came[v] is not None:
            u, e = came[v]
            if e in used:
                del used[e]  # cancelled
            else:
                used[e] = u
            v = u
        found += 1
    return found


def two_path_tickets(
    routes: Sequence[tuple[Node, Node]],
    countries: frozenset,
    tickets: Iterable[tuple[int, Node, Sequence[Node]]],
) -> tuple[int, ...]:
    """The tickets (given as (index, start, destinations)) whose start and one destination `routes` (a
    player's own, as place pairs) join by two separate paths (module doc). A country is split into one
    dead end per route into it, except where it is the ticket's own end."""
    nodes = [tuple((x, i) if x in countries else x for x in pair) for i, pair in enumerate(routes)]
    out = []
    for index, start, destinations in tickets:
        starts = _ends(nodes, start)
        if any(separate_paths(nodes, starts, _ends(nodes, to)) >= 2 for to in destinations):
            out.append(index)
    return tuple(out)


def _ends(nodes: Sequence[tuple[Node, ...]], place: Node) -> set[Node]:
    """The nodes a ticket end is: the place, or each dead end of a country."""
    return {n for pair in nodes for n in pair if n == place or (isinstance(n, tuple) and n[0] == place)}


def most_routes_points(lengths_by_player: Sequence[Sequence[int]], bonuses: Iterable[tuple[int, int]]) -> list[int]:
    """Per player, the most-routes bonuses won: for each (length, points), the players tied for the most
    routes of exactly that length (at least one) score the points."""
    out = [0] * len(lengths_by_player)
    for length, points in bonuses:
        counts = [sum(1 for n in lengths if n == length) for lengths in lengths_by_player]
        best = max(counts, default=0)
        if best > 0:
            for seat, c in enumerate(counts):
                if c == best:
                    out[seat] += points
    return out
