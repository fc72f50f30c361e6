"""The fixed tables a game is played on: card kinds, tracks, places, tickets, payments.

Built once per (variant, board) from the variant file alone, int-indexed so the
hot paths of the engine work on small ints and count arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.board import GRAY, Board, Ticket
from ..model.variant import Variant
from .actions import BIG_LOCOMOTIVE, KIND_ABBREVIATIONS, LOCOMOTIVE, PASSENGER, Payment


@dataclass(frozen=True, slots=True)
class ClaimGroup:
    """Tracks that accept exactly the same payments: same colour, length, ferry count and wild cards."""

    color: int  # -1: gray
    length: int
    ferry: int
    big_ok: bool
    tids: tuple[int, ...]
    loco_ok: bool = True  # locomotives may pay (cards.locomotives_only_on)
    stand_in: int = 0  # cards of any colours that may stand in for one card (stand_ins); 0: none
    stand_in_marks: bool = False  # they stand in only for a ferry mark's locomotive (else for any card)

    @property
    def wilds(self) -> int:
        """Which wild cards pay: 2 locomotives and big ones, 1 locomotives, 0 none."""
        return 0 if not self.loco_ok else 2 if self.big_ok else 1

    def wild(self, locos: int, bigs: int) -> int:
        """How many of these wild cards may pay on the group's tracks."""
        return 0 if not self.loco_ok else locos + bigs if self.big_ok else locos


def all_tickets_of(variant: Variant, board: Board) -> tuple[Ticket, ...]:
    """board.tickets + variant.tickets.add, in that order (the scoring contract's ticket indices)."""
    return tuple(board.tickets) + tuple(variant.tickets.add)


class UnknownRoute(ValueError):
    """A route name that names no route, or several."""


def parallel_routes(variant: Variant, board: Board) -> tuple[tuple[int, ...], ...]:
    """For each route, the routes the parallel-route rules treat as one with it (its index first): itself, or
    with `parallel.same_places_double` every route between the same two places (docs/rules.md#parallel-routes)."""
    if not variant.parallel.same_places_double:
        return tuple((i,) for i in range(len(board.routes)))
    by_pair: dict[frozenset[str], list[int]] = {}
    for i, r in enumerate(board.routes):
        by_pair.setdefault(frozenset(r.ends), []).append(i)
    return tuple((i,) + tuple(j for j in by_pair[frozenset(r.ends)] if j != i) for i, r in enumerate(board.routes))


class Tables:
    """Int-indexed view of a variant and its board."""

    def __init__(self, variant: Variant, board: Board):
        self.variant = variant
        self.board = board
        cards = variant.cards
        # Card kinds: the colours, then locomotive, big locomotive, passenger (always present, maybe 0 cards).
        self.colors: tuple[str, ...] = tuple(cards.colors)
        nc = len(self.colors)
        self.NC = nc
        self.LOCO = nc
        self.BIG = nc + 1
        self.PASS = nc + 2
        self.NK = nc + 3
        self.kinds: tuple[str, ...] = self.colors + (LOCOMOTIVE, BIG_LOCOMOTIVE, PASSENGER)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        for abbrev, kind in KIND_ABBREVIATIONS.items():
            self.kind_index.setdefault(abbrev, self.kind_index[kind])
        self.color_index = {c: i for i, c in enumerate(self.colors)}
        self.deck_counts = [cards.colors[c] for c in self.colors] + [cards.locomotives, cards.big_locomotives.count, cards.passengers]
        self.deck_size = sum(self.deck_counts)
        # The deck before its shuffle, kind by kind (turns.deal copies it every game).
        self.deck_unshuffled = tuple(k for k, n in enumerate(self.deck_counts) for _ in range(n))
        self.big_min = cards.big_locomotives.min_length

        # Places.
        self.place_ids: tuple[str, ...] = tuple(p.id for p in board.places)
        self.place_index = {pid: i for i, pid in enumerate(self.place_ids)}
        self.is_country = tuple(p.is_country for p in board.places)
        self.NP = len(self.place_ids)

        # Routes and tracks (tid = flat track id).
        self.route_ids: tuple[str, ...] = tuple(r.id for r in board.routes)  # type: ignore[misc]  # (a board fills every route's id in)
        self.route_ends: tuple[tuple[int, int], ...] = tuple(
            (self.place_index[r.from_], self.place_index[r.to]) for r in board.routes
        )
        self.route_length = tuple(r.length for r in board.routes)
        self.route_by_id: dict[str, int] = board.route_index  # exact ids; `find_route` also reads `to-from`
        self.routes_between: dict[tuple[int, int], tuple[int, ...]] = {}
        for i, (a, b) in enumerate(self.route_ends):
            self.routes_between[(a, b)] = self.routes_between.get((a, b), ()) + (i,)
            if b != a:
                self.routes_between[(b, a)] = self.routes_between.get((b, a), ()) + (i,)
        self.route_tids: list[tuple[int, ...]] = []
        t_route: list[int]
        t_track: list[int]
        t_color: list[int]
        t_len: list[int]
        t_ferry: list[int]
        t_tunnel: list[bool]
        t_route, t_track, t_color, t_len, t_ferry, t_tunnel = [], [], [], [], [], []
        only_on = set(cards.locomotives_only_on)
        for ri, r in enumerate(board.routes):
            tids = []
            for ti, col in enumerate(r.tracks):
                tids.append(len(t_route))
                t_route.append(ri)
                t_track.append(ti)
                t_color.append(-1 if col == GRAY else self.color_index.get(col, -2))
                t_len.append(r.length)
                t_ferry.append(r.ferry)
                t_tunnel.append(bool(r.tunnel))
            self.route_tids.append(tuple(tids))
        self.t_route = tuple(t_route)
        self.t_track = tuple(t_track)
        self.t_claim = tuple(zip(t_route, t_track))  # a track's (route, track index): a scoring position's claim
        self.t_color = tuple(t_color)  # -2: a colour with no cards in this variant (never claimable)
        self.t_len = tuple(t_len)
        self.t_ferry = tuple(t_ferry)
        self.t_tunnel = tuple(t_tunnel)
        # Locomotives pay on every track, or only on the kinds of route `cards.locomotives_only_on` names.
        self.t_loco_ok = tuple(
            not only_on or ("ferries" in only_on and t_ferry[i] > 0) or ("tunnels" in only_on and t_tunnel[i])
            for i in range(len(t_route))
        )
        self.NT = len(t_route)
        # The routes the parallel-route rules join with each route, and all their tracks.
        self.route_parallel = parallel_routes(variant, board)
        self.parallel_tids = tuple(tuple(x for q in group for x in self.route_tids[q]) for group in self.route_parallel)
        # Stand-ins per track: (cards for one, only for a ferry's marks), or (0, False) where none stand in.
        stand_ins = variant.stand_ins
        named = {board.route_index[rid]: n for rid, n in stand_ins.routes.items() if rid in board.route_index}
        self.t_stand_in = tuple(
            (named[t_route[i]], False) if t_route[i] in named else (stand_ins.ferry, True) if stand_ins.ferry and t_ferry[i] else (0, False)
            for i in range(self.NT)
        )
        # Routes touching each place, for passengers and stations.
        self.place_routes: list[list[int]] = [[] for _ in range(self.NP)]
        for ri, (a, b) in enumerate(self.route_ends):
            self.place_routes[a].append(ri)
            if b != a:
                self.place_routes[b].append(ri)

        groups: dict[tuple[int, int, int, bool, int, bool], list[int]] = {}
        for tid in range(self.NT):
            if t_color[tid] == -2 or t_ferry[tid] > t_len[tid]:
                continue
            key = (t_color[tid], t_len[tid], t_ferry[tid], not self.t_loco_ok[tid]) + self.t_stand_in[tid]
            groups.setdefault(key, []).append(tid)
        self.claim_groups = tuple(
            ClaimGroup(c, ln, f, cards.big_locomotives.count > 0 and ln >= self.big_min, tuple(tids), not no_loco, per, marks)
            for (c, ln, f, no_loco, per, marks), tids in sorted(groups.items())
        )
        # Each track's group and its bit in the group's open-track mask.
        self.tid_group: list[tuple[int, int]] = [(-1, 0)] * self.NT
        for gi, g in enumerate(self.claim_groups):
            for j, tid in enumerate(g.tids):
                self.tid_group[tid] = (gi, 1 << j)
        self.NG = len(self.claim_groups)
        self.group_full = [(1 << len(g.tids)) - 1 for g in self.claim_groups]  # every track of each group open
        self.group_bits = max((len(g.tids) for g in self.claim_groups), default=1)
        # Groups by colour (index NC: gray), shortest first, so enumeration stops at the first unaffordable length.
        # Entries are plain tuples (gi, length, ferry, wilds, group) for fast unpacking in the hot loop.
        by_color: list[list[tuple[int, int, int, int, ClaimGroup]]] = [[] for _ in range(nc + 1)]
        for gi, g in enumerate(self.claim_groups):
            if not g.stand_in:
                by_color[g.color if g.color >= 0 else nc].append((gi, g.length, g.ferry, g.wilds, g))
        self.groups_by_color = tuple(tuple(sorted(x, key=lambda e: e[1])) for x in by_color)
        # groups_upto[c][n]: colour c's groups of at most n spaces (n up to the longest group, group_len_cap),
        # so listing claims walks only the groups a hand's cards can reach.
        self.group_len_cap = max((g.length for g in self.claim_groups), default=0)
        self.groups_upto = tuple(tuple(tuple(e for e in x if e[1] <= n) for n in range(self.group_len_cap + 1))
                                 for x in self.groups_by_color)
        # Groups where stand-ins may pay: their claims are listed apart (stand_ins.py), after the others.
        self.stand_in_groups = tuple((gi, g) for gi, g in enumerate(self.claim_groups) if g.stand_in)
        self.route_points = dict(variant.scoring.routes)

        # Tickets and piles.
        self.tickets: tuple[Ticket, ...] = all_tickets_of(variant, board)
        self.ticket_keys = self._ticket_keys()
        self.ticket_index = {k: i for i, k in enumerate(self.ticket_keys)}
        piles = dict(variant.tickets.piles) or {"main": tuple(sorted({d for t in self.tickets for d in t.decks}))}
        self.pile_names: tuple[str, ...] = tuple(piles)
        self.pile_tickets: dict[str, tuple[int, ...]] = {}
        used: set[int] = set()
        for name, decks in piles.items():
            wanted = set(decks)
            chosen = [i for i, t in enumerate(self.tickets) if i not in used and wanted.intersection(t.decks)]
            used.update(chosen)
            self.pile_tickets[name] = tuple(chosen)
        self.tickets_in_game = sum(len(v) for v in self.pile_tickets.values())
        self.ticket_pile = {k: name for name, ks in self.pile_tickets.items() for k in ks}

        # Goods stacks (top first, as on the board).
        self.goods_stacks: list[tuple[int, tuple[int, ...]]] = [
            (self.place_index[g.place], tuple(g.values)) for g in board.goods if g.place in self.place_index
        ]

        self.station_costs = tuple(variant.stations.costs)
        self.flag_colors = tuple(self.color_index[c] for c in variant.flags.colors if c in self.color_index)

        # Interned payments: id -> (color, n_color, n_loco, n_big, n_passenger) and -> Payment tuple.
        self._pay_key: dict[int, int] = {}
        self._pay_counts: list[tuple[int, int, int, int, int]] = []
        self._payments: list[Payment] = []
        self._pay_by_tuple: dict[Payment, int] = {}

    def find_route(self, name: str) -> int:
        """The route called `name`: its id, or `from-to` in either order when only one route joins those
        places. UnknownRoute (a ValueError) says why not, listing the routes an ambiguous name may mean."""
        board = self.board
        found = board.routes_named(name)
        if len(found) == 1:
            return found[0]
        if found:
            a, b = board.routes[found[0]].ends
            choices = "; ".join(board.route_summary(i) for i in found)
            raise UnknownRoute(f"several routes join {a} and {b}; name one by its id: {choices}")
        from ..diagnostics import did_you_mean

        raise UnknownRoute(f"unknown route '{name}'{did_you_mean(name, self.route_ids)}; routes are named by their id, `from-to` by default")

    def _ticket_keys(self) -> tuple[str, ...]:
        seen: dict[str, int] = {}
        keys = []
        for t in self.tickets:
            base = t.id
            seen[base] = seen.get(base, 0) + 1
            keys.append(base if seen[base] == 1 else f"{base}.{seen[base]}")
        return tuple(keys)

    def payment_id(self, color: int, nc: int, nl: int, nb: int = 0, npass: int = 0) -> int:
        """The interned id of a payment: `nc` cards of colour `color` (-1 none) plus wilds/passengers."""
        key = ((((color + 1) * 64 + nc) * 64 + nl) * 64 + nb) * 64 + npass
        pid = self._pay_key.get(key)
        if pid is None:
            parts: list[tuple[str, int]] = []
            if nc:
                parts.append((self.kinds[color], nc))
            if nl:
                parts.append((LOCOMOTIVE, nl))
            if nb:
                parts.append((BIG_LOCOMOTIVE, nb))
            if npass:
                parts.append((PASSENGER, npass))
            payment = tuple(parts)
            pid = len(self._payments)
            self._payments.append(payment)
            self._pay_counts.append((color if nc else -1, nc, nl, nb, npass))
            self._pay_key[key] = pid
            self._pay_by_tuple[payment] = pid
        return pid

    def payment_counts_by_id(self, pid: int) -> tuple[int, int, int, int, int]:
        return self._pay_counts[pid]

    def payment(self, pid: int) -> Payment:
        return self._payments[pid]

    def payment_counts(self, payment: Payment) -> tuple[int, int, int, int, int] | None:
        """(colour, n_colour, n_loco, n_big, n_passenger) of a payment, or None if it mixes colours or is malformed."""
        try:
            pid = self._pay_by_tuple.get(payment)
        except TypeError:  # unhashable (e.g. lists): read it item by item below
            pid = None
        if pid is not None:
            return self._pay_counts[pid]
        color, nc, nl, nb, npass = -1, 0, 0, 0, 0
        try:
            items = list(payment)
        except TypeError:
            return None
        for item in items:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                return None
            kind, n = item
            if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 60:
                return None
            k = self.kind_index.get(kind) if isinstance(kind, str) else None
            if k is None:
                return None
            if n == 0:
                continue
            if k < self.NC:
                if color not in (-1, k):
                    return None
                color, nc = k, nc + n
            elif k == self.LOCO:
                nl += n
            elif k == self.BIG:
                nb += n
            else:
                npass += n
        return self._pay_counts[self.payment_id(color, nc, nl, nb, npass)]

    def payment_problem(self, payment: Payment) -> str:
        """Why `payment_counts` refused a payment, in words (for IllegalAction messages)."""
        try:
            items = list(payment)
        except TypeError:
            return f"{payment!r} is not a payment; write e.g. 3pink or 2pink+1loco"
        colours = []
        for item in items:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                return f"{item!r} is not a payment part (kind, count)"
            kind, n = item
            k = self.kind_index.get(kind) if isinstance(kind, str) else None
            if k is None:
                return f"unknown card kind {kind!r}; kinds: {', '.join(self.kinds)}"
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                return f"{n!r} is not a number of cards"
            if n > 60:
                return f"{n} {kind} cards is more than any payment needs"
            if n and k < self.NC and self.kinds[k] not in colours:
                colours.append(self.kinds[k])
        if len(colours) > 1:
            return f"the payment mixes {' and '.join(colours)}; pay cards of one colour plus locomotives"
        return "a payment is cards of one colour plus locomotives"

    def canonical_payment(self, payment: Payment) -> Payment | None:
        counts = self.payment_counts(payment)
        if counts is None:
            return None
        return self._payments[self.payment_id(*counts)]
