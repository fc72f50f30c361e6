"""The final-scoring bonuses that compare players, each a mechanic (docs/rules.md#final-scoring).

Each is a `Mechanic` whose `final_scoring_table` hook scores every seat at once (mechanic.py), switched on
by its variant setting (`scoring.bonuses.*`); a new bonus is one more class here and one entry in
mechanics.py. Ties: every player tied for the most scores the full points, and "the most" needs at
least one (mechanic.tied_for_most).

- Longest path (`scoring.bonuses.longest_path`): the players tied for the longest trail of their own
  routes (scoring.py works the trails out; trail.py).
- Most tickets (`scoring.bonuses.most_tickets`): the players tied for the most completed tickets (the
  station borrowing scoring.py chose; it weighs this bonus when choosing, docs/rules.md#most-tickets).
- Two paths (`scoring.bonuses.two_paths`): points for each kept ticket whose start and one of its
  destinations the player's own routes join by two separate paths: two paths with no route in
  common (places may be shared). A route is one edge however many tracks it has; two separate
  routes between the same places are two. Countries stay dead ends: no path passes through one,
  and a country at a ticket's end is reached by two different border routes. Stations' borrowed
  routes never count.
- Most routes of a length (`scoring.bonuses.most_routes`): for each listed length, every player
  tied for the most routes of exactly that length scores the points; nobody does when no one has
  such a route.

One module for the last two's rules, so scoring, the bots and the docs share one reading of the rule. The
functions take plain nodes (place ids or indices), so the bots can ask the same questions of
their own tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable, Iterable, Sequence

from .mechanic import Mechanic, tied_for_most

if TYPE_CHECKING:
    from .position import ScoringTable

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
        for seat, won in enumerate(tied_for_most(counts, points)):
            out[seat] += won
    return out


class LongestPath(Mechanic):
    """The longest-path bonus (docs/rules.md#longest-path): row `longest_path`."""

    name = "longest-path"

    def enabled(self, variant, board) -> bool:
        return variant.scoring.bonuses.longest_path > 0

    def final_scoring_table(self, table: ScoringTable) -> list[dict[str, int]]:
        won = tied_for_most((t.length for t in table.trails), table.variant.scoring.bonuses.longest_path)
        return [{"longest_path": w} for w in won]


class MostTickets(Mechanic):
    """The most-completed-tickets bonus (docs/rules.md#most-tickets): row `most_tickets`."""

    name = "most-tickets"

    def enabled(self, variant, board) -> bool:
        return variant.scoring.bonuses.most_tickets > 0

    def final_scoring_table(self, table: ScoringTable) -> list[dict[str, int]]:
        won = tied_for_most((len(c) for c in table.completed), table.variant.scoring.bonuses.most_tickets)
        return [{"most_tickets": w} for w in won]


class TwoPaths(Mechanic):
    """Points per kept ticket joined by two separate paths of the player's own routes
    (docs/rules.md#two-paths): row `two_paths`; the tickets are noted under its name
    (PlayerScore.two_path_tickets)."""

    name = "two-paths"

    def enabled(self, variant, board) -> bool:
        return variant.scoring.bonuses.two_paths > 0

    def final_scoring_table(self, table: ScoringTable) -> list[dict[str, int]]:
        routes, tickets = table.board.routes, table.tickets
        rows = []
        for player, notes in zip(table.position.players, table.notes):
            own = [routes[r].ends for r, _t in player.claims]
            mine = ((i, tickets[i].from_, [to for to, _p in tickets[i].destinations]) for i in sorted(player.tickets))
            found = two_path_tickets(own, table.countries, mine)
            notes[self.name] = found
            rows.append({"two_paths": table.variant.scoring.bonuses.two_paths * len(found)})
        return rows


class MostRoutes(Mechanic):
    """The bonuses for the most routes of a length (docs/rules.md#most-routes-of-a-length): row `most_routes`."""

    name = "most-routes"

    def enabled(self, variant, board) -> bool:
        return bool(variant.scoring.bonuses.most_routes)

    def final_scoring_table(self, table: ScoringTable) -> list[dict[str, int]]:
        routes = table.board.routes
        lengths = [[routes[r].length for r, _t in p.claims] for p in table.position.players]
        won = most_routes_points(lengths, ((m.length, m.points) for m in table.variant.scoring.bonuses.most_routes))
        return [{"most_routes": w} for w in won]


LONGEST_PATH, MOST_TICKETS, TWO_PATHS, MOST_ROUTES = LongestPath(), MostTickets(), TwoPaths(), MostRoutes()
