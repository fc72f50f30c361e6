"""The prepared context every check reads: built once per board, shared by all checks.

It holds the board and the variant (if any), the Layout (positions in board
units, car length, marker radius), the board graph (`boardgraph.PlaceGraph`:
distances, path counts, parts, and as paths may use it for bridges and cut places), the
tickets in use (the variant's piles when given), and the drawn shapes of
places and routes with STRtrees for pairwise queries. Everything is
computed lazily, so a selection of checks pays only for what it reads.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal

from ..boardgraph import PlaceGraph, components
from ..geometry import Layout
from ..load.source import Source
from ..model.board import Board, Route, Ticket
from ..model.variant import Variant
from .base import MAX_FINDINGS, Finding, More

if TYPE_CHECKING:  # numpy and shapely are imported where they are used: `validate` with its checks' findings cached loads neither
    import numpy as np
    from shapely import STRtree
    from shapely.geometry import LineString, Point

#: Boards with up to this many cities get an exact diameter (one search per city).
EXACT_DIAMETER_PLACES = 400

#: Candidate pairs a pairwise drawing check (D001, D003, D004) examines at most: past it the
#: check stops and says so, so a pathological board (thousands of places on one point) stays fast.
PAIR_BUDGET = 500_000

#: Candidate pairs one spatial query may return at once (bounds memory).
CHUNK_PAIRS = 200_000


def query_chunks(tree: STRtree, geoms: np.ndarray, **kwargs: Any) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """`tree.query(geoms, **kwargs)` a slice of `geoms` at a time, in order: (index in `geoms`, index in
    the tree) arrays sorted by both. Slices shrink where geometries have many neighbours, so no query
    returns much more than `CHUNK_PAIRS` pairs."""
    import numpy as np
    start, step, n = 0, 64, len(geoms)
    while start < n:
        stop = min(n, start + step)
        a, b = tree.query(geoms[start:stop], **kwargs)
        order = np.lexsort((b, a))
        yield a[order] + start, b[order]
        per_geom = max(1, len(a)) / (stop - start)
        step = int(max(1, min(4096, CHUNK_PAIRS / per_geom)))
        start = stop


def capped(
    chunks: Iterable[tuple[np.ndarray, np.ndarray, int]],
    limit: int,
    finding: Callable[[int, list[int]], Finding],
    loc: Callable[[int], tuple[Any, ...]],
    budget: int | None = None,
) -> Iterator[Finding | More]:
    """One finding per thing `a` at fault, from pairs (a, b) of index arrays sorted by a (all pairs of
    one `a` in one chunk): the first `limit` built by `finding(a, [b, ...])`, the rest only counted and
    summed up in a `More` at `loc(a)` of the first of them. Each chunk also says how many candidate
    pairs it examined; past `budget` (default `PAIR_BUDGET`) candidates the check stops (`More.stopped`)."""
    import numpy as np
    budget = PAIR_BUDGET if budget is None else budget
    listed = hidden = examined = 0
    first: tuple[Any, ...] | None = None
    stopped = False
    for a, b, seen in chunks:
        examined += seen
        if len(a):
            starts = np.flatnonzero(np.r_[True, a[1:] != a[:-1]])
            take = max(0, min(limit - listed, len(starts)))
            bounds = [*starts.tolist(), len(a)]
            for g in range(take):
                yield finding(int(a[bounds[g]]), b[bounds[g] : bounds[g + 1]].tolist())
            listed += take
            if len(starts) > take:
                hidden += len(starts) - take
                if first is None:
                    first = loc(int(a[starts[take]]))
        if examined > budget:
            stopped = True
            break
    if hidden or stopped:
        yield More(hidden, first if first is not None else (), stopped=stopped)


def listing(names: list[str], shown: int = 3) -> str:
    """'a', 'a and b', 'a, b and c', or 'a, b, c and 4 more'."""
    if len(names) > shown:
        return ", ".join(names[:shown]) + f" and {len(names) - shown} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass
class RootedForest:
    """A forest rooted at the smallest node of each tree: each node's parent, the weight of its
    subtree (`below`) and of its whole tree (`total`), and preorder intervals for subtree tests."""

    parent: dict[Any, Any]
    below: dict[Any, float]
    total: dict[Any, float]
    tin: dict[Any, int]
    tout: dict[Any, int]
    tree_of: dict[Any, int]

    @classmethod
    def of(cls, tree: dict[Any, list[Any]], weight: dict[Any, float]) -> RootedForest:
        """The forest of `tree` (each node's neighbours; a neighbour lists the node back)."""
        parent: dict[Any, Any] = {}
        below: dict[Any, float] = {}
        total: dict[Any, float] = {}
        tin: dict[Any, int] = {}
        tout: dict[Any, int] = {}
        tree_of: dict[Any, int] = {}
        clock = 0
        seen: set[Any] = set()
        k = 0
        for start in tree:
            if start in seen:
                continue
            comp = [start]
            seen.add(start)
            for node in comp:  # grows while it is walked: the whole tree of `start`
                for nb in tree[node]:
                    if nb not in seen:
                        seen.add(nb)
                        comp.append(nb)
            root = min(comp)
            parent[root] = None
            order: list[Any] = []
            stack = [root]
            while stack:  # depth first: each subtree comes in one run of `order`
                node = stack.pop()
                order.append(node)
                tin[node] = clock
                clock += 1
                kids = [nb for nb in tree[node] if nb != parent[node]]
                for nb in kids:
                    parent[nb] = node
                stack.extend(reversed(kids))
            for node in reversed(order):
                kids = [nb for nb in tree[node] if nb != parent[node]]
                below[node] = weight[node] + sum(below[nb] for nb in kids)
                tout[node] = max([tin[node]] + [tout[nb] for nb in kids])
            for node in order:
                total[node] = below[root]
                tree_of[node] = k
            k += 1
        return cls(parent, below, total, tin, tout, tree_of)

    def inside(self, node: Any, top: Any) -> bool:
        """Whether `node` is in the subtree of `top` (both in the same tree)."""
        return self.tin[top] <= self.tin[node] <= self.tout[top]

    def side(self, node: Any, top: Any) -> int:
        """1 if `node` is in the subtree of `top`, 0 if it is elsewhere in the same tree, -1 if in another tree."""
        if self.tree_of[node] != self.tree_of[top]:
            return -1
        return 1 if self.inside(node, top) else 0


@dataclass(frozen=True)
class TicketRef:
    """A ticket card in use and where it is written."""

    ticket: Ticket
    loc: tuple[Any, ...]
    file: Literal["board", "variant"]

    @property
    def ends(self) -> tuple[str, str]:
        return (self.ticket.from_, self.ticket.to)


class Context:
    """Everything the checks share about one board (and its variant)."""

    def __init__(self, board: Board, variant: Variant | None = None, *, board_source: Source | None = None, variant_source: Source | None = None):
        self.board = board
        self.variant = variant
        self.layout = Layout(board)
        self.board_source = board_source
        self.variant_source = variant_source
        #: Findings a check lists before it only counts the rest (see `capped`).
        self.max_findings = MAX_FINDINGS

    def line(self, loc: tuple[Any, ...], file: str = "board") -> str:
        """`line N` of a data path, for pointing at a second thing in a message (the data path without a source)."""
        src = self.board_source if file == "board" else self.variant_source
        return f"line {src.pos(loc)[0]}" if src is not None else "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")

    @staticmethod
    def route_name(route: Route) -> str:
        """`a–b`, or the route's id where that is not `a-b` (its own id, or `a-b-2` beside another a–b route)."""
        return f"{route.from_}–{route.to}" if route.id == route.pair_name else route.id

    # -- places and routes -------------------------------------------------

    @cached_property
    def countries(self) -> frozenset[str]:
        return frozenset(p.id for p in self.board.places if p.is_country)

    @cached_property
    def place_index(self) -> dict[str, int]:
        """Index of each place id in `board.places` (the first, if an id repeats)."""
        out: dict[str, int] = {}
        for i, p in enumerate(self.board.places):
            out.setdefault(p.id, i)
        return out

    @cached_property
    def routes(self) -> list[tuple[int, Route]]:
        """Routes joining two different known places, with their index in the file."""
        known = self.place_index
        return [(i, r) for i, r in enumerate(self.board.routes) if r.from_ != r.to and r.from_ in known and r.to in known]

    @cached_property
    def pairs(self) -> PlaceGraph:
        """The places and which are adjacent as paths see it (`boardgraph.PlaceGraph`: a node per place, an edge
        per pair of adjacent places, as integers): what distances, path counts, parts and choke points use."""
        return PlaceGraph(self.board)

    @cached_property
    def components(self) -> dict[str, int]:
        """Component number of each place in the whole graph (through countries too, as the routes join them)."""
        g = self.pairs
        return dict(zip(g.names, components(g.adj)))

    @cached_property
    def city_components(self) -> dict[str, int]:
        """Component number of each city in the graph without countries (paths never pass a country)."""
        g = self.pairs
        part = components(g.adj, [not c for c in g.country])
        return {n: k for n, k in zip(g.names, part) if k >= 0}

    @cached_property
    def country_neighbours(self) -> dict[str, frozenset[str]]:
        """The cities each country borders (its routes to other countries lead nowhere)."""
        g = self.pairs
        return {c: frozenset(g.names[v] for _, v in g.adj[g.index[c]] if not g.country[v]) for c in self.countries}

    @cached_property
    def passable(self) -> tuple[list[list[tuple[int, int]]], list[bool]]:
        """The graph as paths may use it (no path passes through a country), over `pairs`' places and edges:
        which places are in it (`keep`: the cities, and each country that borders a single city as a leaf
        on it) and `adj` without the edges between two countries. A country bordering several cities joins
        none of them, so it is left out (`floating_countries`)."""
        g = self.pairs
        leaves = {c for c, nbrs in self.country_neighbours.items() if len(nbrs) == 1}
        keep = [not c or name in leaves for name, c in zip(g.names, g.country)]
        country = g.country
        adj = [[(e, v) for e, v in row if keep[v] and not (country[u] and country[v])] if keep[u] else [] for u, row in enumerate(g.adj)]
        return adj, keep

    @cached_property
    def floating_countries(self) -> dict[str, frozenset[str]]:
        """Countries that border several cities, with those cities: not in `passable`, but cut
        off with a part of it when all the cities they border are in that part."""
        return {c: nbrs for c, nbrs in self.country_neighbours.items() if len(nbrs) > 1}

    def city_parts(self, place: str) -> set[int]:
        """The city components a place belongs to (a country: those of its neighbouring cities)."""
        if place not in self.countries:
            return {self.city_components[place]}
        return {self.city_components[n] for n in self.country_neighbours[place]}

    def connected_without_passing_countries(self, a: str, b: str) -> bool:
        """Whether a path joins a and b that passes through no country (a country may be an end)."""
        if a == b:
            return True
        g = self.pairs
        ib = g.index[b]
        return any(v == ib for _, v in g.adj[g.index[a]]) or bool(self.city_parts(a) & self.city_parts(b))

    def shortest_paths_from(self, start: int) -> tuple[list[int | None], list[float]]:
        """From the place of index `start` (in `pairs`' order): the distance in spaces to every place and
        the number of shortest paths to it (tickets' route load shares a ticket between tied paths)."""
        paths = [0.0] * len(self.pairs.names)
        return self.pairs.spaces_from(start, None, paths), paths

    def spaces_from(self, source: str, targets: Iterable[str] | None = None) -> dict[str, int]:
        """Shortest distance in spaces from `source`, never passing through a country.

        Stops once every target is settled (all places when `targets` is None).
        """
        g = self.pairs
        ids = g.index
        dist = g.spaces_from(ids[source], {ids[t] for t in targets if t in ids} if targets is not None else None)
        return {g.names[k]: d for k, d in enumerate(dist) if d is not None}

    @cached_property
    def ticket_spaces(self) -> dict[int, int | None]:
        """Shortest path in spaces between the ends of each ticket in use (by index in `tickets`), None if unreachable.

        One search per source place. The sources cover every ticket with few searches: greedily, the
        place that ends the most tickets not yet covered (a search from it settles all of them).
        """
        ids = self.pairs.index
        ends = [(ids[a], ids[b]) if a in ids and b in ids else None for a, b in (ref.ends for ref in self.tickets)]
        at: dict[int, list[int]] = {}
        for k, pair in enumerate(ends):
            if pair is not None:
                at.setdefault(pair[0], []).append(k)
                if pair[1] != pair[0]:
                    at.setdefault(pair[1], []).append(k)
        left = {k: len(v) for k, v in at.items()}
        heap = [(-n, place) for place, n in left.items()]
        heapq.heapify(heap)
        covered: set[int] = set()
        out: dict[int, int | None] = {}
        while heap:
            n, place = heapq.heappop(heap)
            if -n != left[place]:
                if left[place]:
                    heapq.heappush(heap, (-left[place], place))
                continue
            items = [k for k in at[place] if k not in covered]
            if not items:
                continue
            others = {ends[k][1] if ends[k][0] == place else ends[k][0] for k in items}
            dist = self.pairs.spaces_from(place, others)
            for k in items:
                a, b = ends[k]
                out[k] = dist[b if a == place else a]
                covered.add(k)
                left[a] -= 1
                if b != a:
                    left[b] -= 1
        return out

    @cached_property
    def diameter_estimate(self) -> int:
        """Longest shortest path in spaces between two cities of the largest city component:
        exact up to `EXACT_DIAMETER_PLACES` cities, else a double-sweep estimate (a lower bound)."""
        comps = self.city_components
        if not comps:
            return 0
        sizes: dict[int, int] = {}
        for k in comps.values():
            sizes[k] = sizes.get(k, 0) + 1
        biggest = max(sizes, key=lambda k: sizes[k])
        members = [n for n, k in comps.items() if k == biggest]

        def farthest(start: str) -> tuple[int, str]:
            dist = {n: d for n, d in self.spaces_from(start).items() if n not in self.countries}
            far = max(dist, key=lambda n: dist[n])
            return dist[far], far

        if len(members) <= EXACT_DIAMETER_PLACES:
            return max(farthest(n)[0] for n in members)
        best, start = 0, members[0]
        for _ in range(3):
            d, far = farthest(start)
            if d <= best:
                break
            best, start = d, far
        return best

    # -- tickets -----------------------------------------------------------

    @cached_property
    def ticket_groups(self) -> dict[str, list[TicketRef]]:
        """The variant's draw piles (each card once per pile), or the board's decks when there is no variant."""
        board_refs = [TicketRef(t, ("tickets", i), "board") for i, t in enumerate(self.board.tickets)]
        if self.variant is None:
            groups: dict[str, list[TicketRef]] = {}
            for ref in board_refs:
                for d in ref.ticket.decks:
                    groups.setdefault(d, []).append(ref)
            return groups
        refs = board_refs + [TicketRef(t, ("tickets", "add", i), "variant") for i, t in enumerate(self.variant.tickets.add)]
        piles = dict(self.variant.tickets.piles) or {"main": tuple({d for r in refs for d in r.ticket.decks})}
        return {name: [r for r in refs if set(decks).intersection(r.ticket.decks)] for name, decks in piles.items()}

    @cached_property
    def tickets(self) -> list[TicketRef]:
        """Every ticket card in use, once: all of the board's without a variant, else those in the variant's piles."""
        seen: dict[tuple[Any, ...], TicketRef] = {}
        if self.variant is None:
            return [TicketRef(t, ("tickets", i), "board") for i, t in enumerate(self.board.tickets)]
        for refs in self.ticket_groups.values():
            for r in refs:
                seen.setdefault((r.file, r.loc), r)
        return sorted(seen.values(), key=lambda r: (r.file != "board", r.loc))

    # -- drawing -----------------------------------------------------------

    def route_coords(self, route: Route) -> list[tuple[float, float]]:
        a, b = self.layout.route_ends(route)  # its places, or the entries it ends at
        return [a, *self.layout.bend_points(route), b]

    @cached_property
    def route_lines(self) -> list[LineString]:
        """The drawn centre line of each route in `routes` (through its bend points)."""
        from shapely.geometry import LineString
        return [LineString(self.route_coords(r)) for _, r in self.routes]

    @cached_property
    def route_array(self) -> np.ndarray:
        import numpy as np
        return np.array(self.route_lines, dtype=object)

    @cached_property
    def route_tree(self) -> STRtree:
        from shapely import STRtree
        return STRtree(self.route_lines)

    @cached_property
    def route_end_index(self) -> np.ndarray:
        """The place index (in `board.places`) of both ends of each route in `routes`, as an (n, 2) array."""
        import numpy as np
        idx = self.place_index
        return np.array([(idx[r.from_], idx[r.to]) for _, r in self.routes], dtype=np.int64).reshape(-1, 2)

    @cached_property
    def place_points(self) -> list[Point]:
        from shapely.geometry import Point
        pos = self.layout.positions
        return [Point(pos[p.id]) for p in self.board.places]

    @cached_property
    def place_array(self) -> np.ndarray:
        import numpy as np
        return np.array(self.place_points, dtype=object)

    @cached_property
    def place_tree(self) -> STRtree:
        from shapely import STRtree
        return STRtree(self.place_points)

    @cached_property
    def marker_tree(self) -> STRtree:
        from shapely import STRtree
        return STRtree(self.marker_circles)

    @cached_property
    def drawing(self) -> Any:
        """The board as `ttr-maps render` lays it out (`render.plan.BoardPlan`), for the checks of the drawn board."""
        from ..render.plan import plan_board  # imported here: the renderer takes a second to import

        return plan_board(self.board, decor=False)  # no land, legend or rails: the checks read routes, places and names

    @cached_property
    def marker_circles(self) -> list[Any]:
        import shapely
        return list(shapely.buffer(self.place_points, self.layout.city_radius, quad_segs=8))
