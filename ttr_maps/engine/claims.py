"""Claiming a route: payments (colours, locomotives, +4 locomotives, ferries) and the parallel-route rule.

Payments are enumerated per claim group (tracks with the same colour, length and
ferry count accept the same payments), so an unaffordable group costs one test.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from . import stand_ins
from .actions import ClaimTrack
from .errors import R_BIG_LOCO, R_CLAIM, R_FERRY, R_LOCO_ONLY, R_PARALLEL, R_TRAINS, IllegalAction
from .payments import color_payments

if TYPE_CHECKING:
    from .state import State
    from .tables import ClaimGroup, Tables

    # A Tables.groups_by_color entry: (group index, length, ferry locomotives, ClaimGroup.wilds, the group).
    GroupEntry = tuple[int, int, int, int, ClaimGroup]
    # A route's row of _route_tests: per track in a claim group (group, its bit, length, ferry locomotives, colour,
    # which wilds pay, the group if stand-ins pay there).
    RouteTest = tuple[int, int, int, int, int, int, ClaimGroup | None]
    # A game.claim_checked entry (check_claim): the claim, its track, route and length, its payment counts, and
    # those counts' colour, coloured cards, locomotives and +4 locomotives, and the routes parallel to it.
    CheckedClaim = tuple[ClaimTrack, int, int, int, tuple[int, int, int, int, int], int, int, int, int, tuple[int, ...]]

_HELD: Final = itemgetter(1)  # of a (colour, cards of it) pair: the colours held are those it is true of


def legal_claims(state: State, out: list) -> None:
    """Append every legal claim of the current player, track by track in group order, payments in a fixed order.

    Action lists are interned per claim group and per what decides the payments (the cards of the colour
    and the wilds held, each capped at the length), so once warm a call allocates nothing. Gray groups are
    looked up colour by colour (a gray track takes any one colour), which keeps their keys few.
    """
    p = state.current
    game = state.game
    _claims_for(game, state.hands[p], state.trains[p], state.group_open[p], out)
    if game.t.stand_in_groups:
        stand_ins.legal_claims(game, state.hands[p], state.trains[p], state.group_open[p], out)


def _claims_for(game, hand: list[int], trains: int, gopen: list[int], out: list) -> None:
    """legal_claims for a hand, trains left and claimable-track masks (also RouteLegal's snapshot of them)."""
    t: Tables = game.t
    locos = hand[t.LOCO]
    bigs = hand[t.BIG]
    nc = t.NC
    colors = hand[:nc]
    wilds = locos + bigs
    _colored_claims(game, colors, locos, bigs, trains, gopen, out)
    if not t.groups_by_color[nc]:
        return
    # The gray groups: for each open track, the payments of each colour held, then those in wilds alone.
    held = list(filter(_HELD, enumerate(colors)))  # (colour, count) of the colours held, in order
    best = max(colors) if nc else 0
    top = best + wilds
    if top > trains:
        top = trains
    if top > t.group_len_cap:
        top = t.group_len_cap
    for gi, length, ferry, wk, g in t.groups_upto[nc][top]:
        open_mask = gopen[gi]
        if not open_mask:
            continue
        wild = wilds if wk == 2 else locos if wk else 0
        if wild < ferry or best + wild < length:
            continue
        cl = (locos if locos < length else length) if wk else 0
        cb = (bigs if bigs < length else length) if wk == 2 else 0
        _gray_group_claims(game, gi, g, length, ferry, cl, cb, held, wild, open_mask, out)


def _gray_group_claims(game, gi: int, g: ClaimGroup, length: int, ferry: int, cl: int, cb: int, held: list[tuple[int, int]], wild: int,
                       open_mask: int, out: list) -> None:
    """One gray group's claims: for each open track of `open_mask`, the payments of each colour held (`held`:
    (colour, count) pairs of the colours the hand has), then those in wild cards alone (`wild` of them usable);
    each track's payments of one colour interned in game.gray_rows."""
    rows_cache: dict[int, list[list[ClaimTrack]]] = game.gray_rows
    base = (gi * (game.t.NC + 1)) << 12 | cl << 4 | cb
    rows = []
    for k, h in held:
        if h + wild < length:
            continue
        rkey = base + (k << 12) | (h if h < length else length) << 8
        r = rows_cache.get(rkey)
        if r is None:
            r = _gray_rows(game, rkey, g, k, h if h < length else length, 1, length, ferry, cl, cb)
        rows.append(r)
    if wild >= length:
        rkey = base + (game.t.NC << 12)
        r = rows_cache.get(rkey)
        if r is None:
            r = _gray_rows(game, rkey, g, -1, 0, 0, length, ferry, cl, cb)
        rows.append(r)
    if not rows:
        return
    positions: dict[int, tuple[int, ...]] = game.open_positions
    js = positions.get(open_mask)
    if js is None:
        js = _positions(positions, open_mask)
    for j in js:
        for r in rows:
            out.extend(r[j])


def _colored_claims(game, colors: list[int], locos: int, bigs: int, trains: int, gopen: list[int], out: list) -> None:
    """The claims of the coloured groups for a hand's cards per colour and wilds, appended to `out` colour by
    colour (legal_claims' order; shared by _claims_for and claim_segments)."""
    t: Tables = game.t
    lists: dict[int, list[ClaimTrack]] = game.claim_lists
    shift = t.group_bits
    upto = t.groups_upto
    cap = t.group_len_cap
    if trains < cap:
        cap = trains
    wilds = locos + bigs
    c = -1
    for have in colors:
        c += 1
        top = have + wilds
        reach = upto[c][top if top < cap else cap]
        if not reach:
            continue
        for gi, length, ferry, wk, g in reach:
            open_mask = gopen[gi]
            if not open_mask:
                continue
            if wk == 2:
                wild = wilds
                cl = locos if locos < length else length
                cb = bigs if bigs < length else length
            elif wk:
                wild = locos
                cl = locos if locos < length else length
                cb = 0
            else:
                wild = cl = cb = 0
            if wild < ferry or have + wild < length:
                continue
            key = ((gi << 12 | (have if have < length else length) << 8 | cl << 4 | cb) << shift) | open_mask
            acts = lists.get(key)
            if acts is None:
                acts = _colored_actions(game, key, g, c, have, length, ferry, cl, cb, open_mask)
            out.extend(acts)


def claim_segments(state: State, out: list) -> tuple[list, int] | None:
    """legal_claims for legal.LegalActions: the coloured groups' claims appended to `out` (as legal_claims
    does), the gray groups' kept as segments. None when there are no gray claims (stand-in claims then
    appended to `out` too); else (segments, how many claims they hold), the stand-in claims a list segment
    at their end.

    A gray group's segment is a tuple (count, claims per open track, open-track mask, positions, game, group
    entry, cards per colour, wilds, payments by cards held): how many, from a table of payments per cards held
    (_gray_counts), its claims listed by gray_extend in legal_claims' order and the i-th made by gray_pick alone.
    """
    p = state.current
    game = state.game
    hand = state.hands[p]
    trains = state.trains[p]
    gopen = state.group_open[p]
    t: Tables = game.t
    locos = hand[t.LOCO]
    bigs = hand[t.BIG]
    nc = t.NC
    colors = hand[:nc]
    wilds = locos + bigs
    segs: list | None = None  # gray groups' segments (tuples), then the stand-in claims (a list)
    total = 0
    _colored_claims(game, colors, locos, bigs, trains, gopen, out)
    if t.groups_by_color[nc]:
        # The gray groups: per group, how many payments a colour's cards give (by cards held, capped at the
        # length) and wilds alone; the claims themselves are made only when asked for (gray_pick).
        best = max(colors) if nc else 0
        top = best + wilds
        if top > trains:
            top = trains
        if top > t.group_len_cap:
            top = t.group_len_cap
        counts: dict[int, tuple[int, ...]] = game.gray_counts
        positions: dict[int, tuple[int, ...]] = game.open_positions
        for e in t.groups_upto[nc][top]:
            gi, length, ferry, wk, g = e
            open_mask = gopen[gi]
            if not open_mask:
                continue
            wild = wilds if wk == 2 else locos if wk else 0
            if wild < ferry or best + wild < length:
                continue
            cl = (locos if locos < length else length) if wk else 0
            cb = (bigs if bigs < length else length) if wk == 2 else 0
            ckey = gi << 16 | cl << 8 | cb
            tab = counts.get(ckey)
            if tab is None:
                tab = _gray_counts(game, ckey, length, ferry)
            per = tab[-1]  # wilds alone
            for h in colors:
                per += tab[h if h < length else length]
            if per:
                n = open_mask.bit_count() * per
                if segs is None:
                    segs = []
                segs.append((n, per, open_mask, positions, game, e, colors, cl, cb, tab))
                total += n
    if t.stand_in_groups:
        if segs is None:
            stand_ins.legal_claims(game, hand, trains, gopen, out)
        else:
            more: list = []
            stand_ins.legal_claims(game, hand, trains, gopen, more)
            if more:
                segs.append(more)
                total += len(more)
    return None if segs is None else (segs, total)


def gray_pick(seg: tuple, i: int) -> ClaimTrack:
    """The i-th claim of a gray segment (claim_segments), in gray_extend's order: per open track, each colour's
    payments (colours in order), then wilds alone."""
    _, per, open_mask, positions, game, e, colors, cl, cb, tab = seg
    q, i = divmod(i, per)
    js = positions.get(open_mask)
    if js is None:
        js = _positions(positions, open_mask)
    length = e[1]
    k = 0
    for h in colors:
        if h > length:
            h = length
        n = tab[h]
        if i < n:
            return _gray_row(game, e, k, h, cl, cb)[js[q]][i]
        i -= n
        k += 1
    return _gray_row(game, e, -1, 0, cl, cb)[js[q]][i]


def gray_extend(seg: tuple, out: list) -> None:
    """Append a gray segment's claims to `out`: per open track, each row's payments (as _claims_for)."""
    _, _, open_mask, positions, game, e, colors, cl, cb, tab = seg
    length = e[1]
    capped = [h if h < length else length for h in colors]
    rows = [_gray_row(game, e, k, h, cl, cb) for k, h in enumerate(capped) if tab[h]]
    if tab[-1]:
        rows.append(_gray_row(game, e, -1, 0, cl, cb))
    js = positions.get(open_mask)
    if js is None:
        js = _positions(positions, open_mask)
    for j in js:
        for r in rows:
            out.extend(r[j])


def _gray_row(game, e: tuple, k: int, h: int, cl: int, cb: int) -> list[list[ClaimTrack]]:
    """Per track of the gray group `e` (a Tables.groups_by_color entry), its claims paid with `h` cards of
    colour `k` (-1: wilds alone), as _claims_for's rows (the same interned lists)."""
    gi, length, ferry, wk, g = e
    nc = game.t.NC
    base = (gi * (nc + 1)) << 12 | cl << 4 | cb
    rkey = base + (k << 12) | h << 8 if k >= 0 else base + (nc << 12)  # as _claims_for's keys
    r = game.gray_rows.get(rkey)
    if r is None:
        r = _gray_rows(game, rkey, g, k, h, 1 if k >= 0 else 0, length, ferry, cl, cb)
    return r


def _gray_counts(game, ckey: int, length: int, ferry: int) -> tuple[int, ...]:
    """For a gray group and the wilds that may pay there (`ckey`: group << 16 | locomotives << 8 | +4
    locomotives, each capped at the length), how many payments a colour gives by the cards of it held (index
    0 to the length: none for 0), and last how many wilds alone give; kept in game.gray_counts."""
    cl = ckey >> 8 & 0xFF
    cb = ckey & 0xFF
    t: Tables = game.t
    tab = [len(color_payments(t, 0, h, 1, length, ferry, cl, cb)) if h + cl + cb >= length else 0
           for h in range(1, length + 1)]
    alone = len(color_payments(t, -1, 0, 0, length, ferry, cl, cb)) if cl + cb >= length else 0
    out = game.gray_counts[ckey] = (0, *tab, alone)
    return out


# _BYTE_AT[k][b]: the set bits of byte b at bit 8k of a mask, as positions (k for masks up to 32 bits at first;
# _positions adds more for wider groups).
_BYTE_AT: Final[list[tuple[tuple[int, ...], ...]]] = []


def _add_byte_table() -> None:
    o = 8 * len(_BYTE_AT)
    _BYTE_AT.append(tuple(tuple(o + j for j in range(8) if b >> j & 1) for b in range(256)))


for _ in range(4):
    _add_byte_table()


def _positions(positions: dict[int, tuple[int, ...]], mask: int) -> tuple[int, ...]:
    """The set bits of `mask`, lowest first (the open tracks of a group's mask); kept in `positions`. Byte by
    byte from _BYTE_AT: a big group's masks seldom repeat (26 gray 2-space tracks on USA)."""
    if len(positions) > 200_000:
        positions.clear()
    tables = _BYTE_AT
    js: tuple[int, ...] = ()
    m = mask
    k = 0
    while m:
        if k == len(tables):
            _add_byte_table()
        b = m & 255
        if b:
            js += tables[k][b]
        m >>= 8
        k += 1
    positions[mask] = js
    return js


def _python_class(cls: type) -> type:
    """A class decorator that does nothing. (mypyc, compiling this module, keeps a decorated class a Python class:
    a compiled "native" class cannot subclass list, which RouteLegal does.)"""
    return cls


@_python_class
class RouteLegal(list):
    """`State.legal_actions(payments=False)`: the legal actions other than claims, and the claims by route.

    For bots that choose a route before its payment: `routes` maps each route the player can claim now to
    its claimable track ids (routes in the order legal_actions lists their first claim; worked out when
    first asked for), `can_claim(route)` tests one route, and `claims(route)` lists that route's claims with
    every payment, as legal_actions lists them. It holds a copy of what decides the claims (the player's
    hand, trains and claimable tracks), never the state. `listed` is the last route `claims` found claims
    of (-1: none yet): a claim of it needs no can_claim test (simulate's runner reads it).
    """

    __slots__ = ("_game", "_hand", "_trains", "_open", "_routes", "_quick", "listed")
    _game: Any  # the Game
    _hand: list[int]
    _trains: int
    _open: list[int] | None  # None: not at the start of a turn (no claims)
    _routes: dict[int, list[int]] | None
    _quick: tuple[list[int], tuple[int, int, int]] | None
    listed: int

    @property
    def routes(self) -> dict[int, list[int]]:
        if self._routes is None:
            # (_routes is None only at the start of a turn, when _open is set: route_legal)
            self._routes = claimable_routes(self._game, self._hand, self._trains, self._open)  # type: ignore[arg-type]
        return self._routes

    def can_claim(self, route: int) -> bool:
        """Has `route` a legal claim? (The tests of legal_claims, for one route.)"""
        if self._routes is not None:
            return route in self._routes
        game = self._game
        row: tuple[RouteTest, ...] | None = (game.route_tests or _route_tests(game)).get(route)
        if row is None:  # no such route
            return False
        quick = self._quick
        if quick is None:
            # Cards per colour, the colour held most at -1 (a gray track) and -2; wild cards by ClaimGroup.wilds.
            t: Tables = game.t
            hand = self._hand
            haves = hand[: t.NC]
            best = max(haves) if haves else 0  # (max's `default=` is a keyword call, parsed every time)
            haves.append(best)
            haves.append(best)
            loco = hand[t.LOCO]
            quick = self._quick = (haves, (0, loco, loco + hand[t.BIG]))
        haves, wilds = quick
        gopen: list[int] = self._open  # type: ignore[assignment]  # (set: _routes is None, as in routes)
        trains = self._trains
        for gi, bit, length, ferry, color, wk, sg in row:
            if not gopen[gi] & bit or length > trains:
                continue
            if sg is not None:
                if stand_ins.claimable(game.t, sg, self._hand, trains):
                    return True
                continue
            wild = wilds[wk]
            if wild >= ferry and haves[color] + wild >= length:
                return True
        return False

    def claims(self, route: int) -> list[ClaimTrack]:
        """The claims of `route`, every payment, in legal_actions' order (empty if it has none)."""
        out: list[ClaimTrack] = []
        gopen = self._open
        game = self._game
        t: Tables = game.t
        if gopen is None or not 0 <= route < len(t.route_tids):
            return out
        if t.stand_in_groups:
            mask = [0] * len(gopen)  # only this route's claimable tracks
            for tid in t.route_tids[route]:
                gi, bit = t.tid_group[tid]
                if gi >= 0:
                    mask[gi] |= gopen[gi] & bit
            _claims_for(game, self._hand, self._trains, mask, out)
            stand_ins.legal_claims(game, self._hand, self._trains, mask, out)
            if out:
                self.listed = route
            return out
        groups: tuple[tuple[tuple[int, GroupEntry, int], ...], ...] | None = game.route_groups
        if groups is None:
            groups = _route_groups(game)
        _route_claims(game, self._hand, self._trains, gopen, groups[route], out)
        if out:
            self.listed = route
        return out


def _route_groups(game) -> tuple[tuple[tuple[int, GroupEntry, int], ...], ...]:
    """Per route, its tracks' claim groups in the order _claims_for walks them (colour by colour, gray last;
    within a colour shortest first, as Tables.groups_by_color): (colour (NC: gray), group entry, the route's
    bits in the group's open-track mask). Kept as game.route_groups."""
    t: Tables = game.t
    where = {}
    for c, entries in enumerate(t.groups_by_color):
        for i, e in enumerate(entries):
            where[e[0]] = (c, i, e)
    rows = []
    for tids in t.route_tids:
        bits: dict[int, int] = {}
        for tid in tids:
            gi, bit = t.tid_group[tid]
            if gi >= 0 and gi in where:
                bits[gi] = bits.get(gi, 0) | bit
        rows.append(tuple((where[gi][0], where[gi][2], b) for gi, b in sorted(bits.items(), key=lambda x: where[x[0]][:2])))
    game.route_groups = out = tuple(rows)
    return out


def _route_claims(game, hand: list[int], trains: int, gopen: list[int], groups: tuple[tuple[int, GroupEntry, int], ...],
                  out: list) -> None:
    """_claims_for's claims of one route's groups (_route_groups: what _claims_for would list of a mask of
    the route's tracks alone, in its order, the same interned lists), without walking the other groups."""
    t: Tables = game.t
    nc = t.NC
    locos = hand[t.LOCO]
    bigs = hand[t.BIG]
    wilds = locos + bigs
    for c, e, bits in groups:
        gi, length, ferry, wk, g = e
        open_mask = gopen[gi] & bits
        if not open_mask or length > trains:  # (_claims_for reaches no group longer than the trains left)
            continue
        if wk == 2:
            wild = wilds
            cl = locos if locos < length else length
            cb = bigs if bigs < length else length
        elif wk:
            wild = locos
            cl = locos if locos < length else length
            cb = 0
        else:
            wild = cl = cb = 0
        if c < nc:  # _colored_claims' body
            have = hand[c]
            if wild < ferry or have + wild < length:
                continue
            key = ((gi << 12 | (have if have < length else length) << 8 | cl << 4 | cb) << t.group_bits) | open_mask
            acts = game.claim_lists.get(key)
            if acts is None:
                acts = _colored_actions(game, key, g, c, have, length, ferry, cl, cb, open_mask)
            out.extend(acts)
            continue
        colors = hand[:nc]  # a gray group: as _claims_for
        best = max(colors) if nc else 0
        if wild < ferry or best + wild < length:
            continue
        _gray_group_claims(game, gi, g, length, ferry, cl, cb, list(filter(_HELD, enumerate(colors))), wild,
                           open_mask, out)


def _route_tests(game) -> dict[int, tuple[RouteTest, ...]]:
    """Per route (by its index), what RouteLegal.can_claim tests of each of its tracks in a claim group: (group, its
    bit, length, ferry locomotives, colour, which wilds pay (ClaimGroup.wilds), the group if stand-ins pay there).
    Kept as game.route_tests."""
    t: Tables = game.t
    rows = {}
    for r, tids in enumerate(t.route_tids):
        row = []
        for tid in tids:
            gi, bit = t.tid_group[tid]
            if gi >= 0:
                g = t.claim_groups[gi]
                row.append((gi, bit, g.length, g.ferry, g.color, g.wilds, g if g.stand_in else None))
        rows[r] = tuple(row)
    game.route_tests = rows
    return rows


def route_legal(state: State, turn: bool) -> RouteLegal:
    """An empty RouteLegal for the current player; at the start of a turn (`turn`) with what decides its claims."""
    out = RouteLegal()
    out._game = state.game
    out.listed = -1
    if turn:
        p = state.current
        out._hand = state.hands[p][:]
        out._trains = state.trains[p]
        out._open = state.group_open[p][:]
        out._routes = None
        out._quick = None
    else:
        out._open = None
        out._routes = {}
    return out


def claimable_routes(game, hand: list[int], trains: int, gopen: list[int]) -> dict[int, list[int]]:
    """The routes with a legal claim (route -> claimable track ids): legal_claims' tests without its payments."""
    t: Tables = game.t
    out: dict[int, list[int]] = {}
    t_route = t.t_route
    locos = hand[t.LOCO]
    bigs = hand[t.BIG]
    nc = t.NC
    colors = hand[:nc]
    upto = t.groups_upto
    cap = t.group_len_cap
    if trains < cap:
        cap = trains
    wilds = locos + bigs
    rows = []  # (cards of the colour, its groups within reach): each colour, then gray, in legal_claims' order
    c = -1
    for have in colors:
        c += 1
        top = have + wilds
        reach = upto[c][top if top < cap else cap]
        if reach:
            rows.append((have, reach))
    if t.groups_by_color[nc]:
        best = max(colors) if nc else 0  # best + wilds >= length: a colour held most, or wilds alone, pays it
        top = best + wilds
        rows.append((best, upto[nc][top if top < cap else cap]))
    found = []  # (tracks, open-track mask) of each group with a claim, in legal_claims' order
    for have, reach in rows:
        for gi, length, ferry, wk, g in reach:
            open_mask = gopen[gi]
            if not open_mask:
                continue
            wild = wilds if wk == 2 else locos if wk else 0
            if wild < ferry or have + wild < length:
                continue
            found.append((g.tids, open_mask))
    positions: dict[int, tuple[int, ...]] = game.open_positions
    for tids, open_mask in found:
        js = positions.get(open_mask)
        if js is None:
            js = _positions(positions, open_mask)
        for j in js:
            tid = tids[j]
            r = t_route[tid]
            lst = out.get(r)
            if lst is None:
                out[r] = [tid]
            else:
                lst.append(tid)
    for gi, g in t.stand_in_groups:  # listed after the others, as legal_claims lists their claims
        open_mask = gopen[gi]
        if open_mask and stand_ins.claimable(t, g, hand, trains):
            for j, tid in enumerate(g.tids):
                if open_mask >> j & 1:
                    out.setdefault(t_route[tid], []).append(tid)
    return out


def _colored_actions(game, key: int, g: ClaimGroup, color: int, have: int, length: int, ferry: int, locos: int, cb: int,
                     open_mask: int) -> list[ClaimTrack]:
    """The claim actions of a coloured group's open tracks; interned."""
    lists: dict[int, list[ClaimTrack]] = game.claim_lists
    if len(lists) > 200_000:
        lists.clear()
    pays = color_payments(game.t, color, have, 0, length, ferry, locos, cb)
    acts = lists[key] = [_claim_action(game, tid, pid) for j, tid in enumerate(g.tids) if open_mask >> j & 1 for pid in pays]
    return acts


def _gray_rows(game, rkey: int, g: ClaimGroup, color: int, have: int, least: int, length: int, ferry: int, cl: int,
               cb: int) -> list[list[ClaimTrack]]:
    """Per track of a gray group, the claim actions paying with `color` (or wilds alone); interned."""
    cache: dict[int, list[list[ClaimTrack]]] = game.gray_rows
    if len(cache) > 200_000:
        cache.clear()
    pays = color_payments(game.t, color, have, least, length, ferry, cl, cb)
    r = cache[rkey] = [[_claim_action(game, tid, pid) for pid in pays] for tid in g.tids]
    return r


def _claim_action(game, tid: int, pid: int) -> ClaimTrack:
    """The claim of track `tid` paying payment `pid`, interned in game.claim_cache. Only the listings make
    these, from the payments their track's group accepts (payments.color_payments), so what check_claim tests
    of the action alone holds for it: its entry in game.claim_checked is made with it."""
    t: Tables = game.t
    cache: dict[tuple[int, int], ClaimTrack] = game.claim_cache
    a = cache.get((tid, pid))
    if a is None:
        r = t.t_route[tid]
        a = cache[(tid, pid)] = ClaimTrack(r, t.t_track[tid], t.payment(pid))
        checked: dict[int, CheckedClaim] = game.claim_checked
        if len(checked) > 200_000:
            checked.clear()
        counts = t.payment_counts_by_id(pid)
        checked[id(a)] = (a, tid, r, t.t_len[tid], counts, counts[0], counts[1], counts[2], counts[3],
                          tuple(t.route_parallel[r][1:]))
    return a


def check_claim(state: State, action: ClaimTrack) -> tuple[int, tuple[int, int, int, int, int]]:
    """The track id and payment counts of a legal claim; IllegalAction naming the rule otherwise.

    What depends on the action alone (its track, its payment against the track's colour, length, ferry and
    wild rules) is checked once per action object and kept in `game.claim_checked` (a listed claim's entry is
    made with it, by _claim_action); a kept action is then checked only against the state (track free,
    parallel rule, trains, cards). Anything failing there goes through the full checks, which name the rule.
    """
    hit: CheckedClaim | None = state.game.claim_checked.get(id(action))
    if hit is not None and hit[0] is action:
        _, tid, r, length, counts, color, nc, nl, nb, parallel = hit
        p = state.current
        bit = 1 << p
        mask = state.route_mask
        if state.owner[tid] < 0 and not mask[r] & bit and state.avail[tid] and state.trains[p] >= length:
            hand = state.hands[p]
            t = state.t
            if not ((nc and hand[color] < nc) or hand[t.LOCO] < nl or hand[t.BIG] < nb):
                for q in parallel:
                    if mask[q] & bit:
                        break
                else:
                    return tid, counts
    tid, counts = _check_claim(state, action)
    if type(action.stand_ins) is int and not action.stand_ins:  # stand-ins' check looks at the hand: not kept
        checked: dict[int, CheckedClaim] = state.game.claim_checked
        if len(checked) > 200_000:
            checked.clear()
        r = action.route
        checked[id(action)] = (action, tid, r, state.t.t_len[tid], counts, counts[0], counts[1], counts[2], counts[3],
                               tuple(state.t.route_parallel[r][1:]))
    return tid, counts


def _check_claim(state: State, action: ClaimTrack) -> tuple[int, tuple[int, int, int, int, int]]:
    """check_claim, every test."""
    t = state.t
    p = state.current
    r = action.route
    if not isinstance(r, int) or not 0 <= r < len(t.route_tids):
        raise IllegalAction(f"there is no route {r!r}", R_CLAIM)
    tids = t.route_tids[r]
    k = action.track
    if not isinstance(k, int) or not 0 <= k < len(tids):
        raise IllegalAction(f"route {t.route_ids[r]} has no track {k!r} (it has {len(tids)})", R_CLAIM)
    tid = tids[k]
    rid = t.route_ids[r]
    if state.owner[tid] >= 0:
        raise IllegalAction(f"track {k} of {rid} is already claimed by player {state.owner[tid]}", R_CLAIM)
    if state.route_mask[r] & (1 << p):
        raise IllegalAction(f"player {p} already holds a track of {rid}; one player never claims two tracks between the same places", R_PARALLEL)
    for q in t.route_parallel[r][1:]:
        if state.route_mask[q] & (1 << p):
            raise IllegalAction(
                f"player {p} already holds {t.route_ids[q]}, which joins the same places as {rid}; here they count as one double route",
                R_PARALLEL,
            )
    if not state.avail[tid]:
        raise IllegalAction(
            f"{rid} is closed: with {state.game.num_players} players only one track of a parallel route is used", R_PARALLEL
        )
    length = t.t_len[tid]
    if state.trains[p] < length:
        raise IllegalAction(f"{rid} needs {length} trains and player {p} has {state.trains[p]}", R_TRAINS)
    counts = t.payment_counts(action.payment)
    if counts is None:
        raise IllegalAction(t.payment_problem(action.payment), R_CLAIM)
    color, nc, nl, nb, npass = counts
    if npass:
        raise IllegalAction("passenger cards cannot pay for a route", R_CLAIM)
    n_in = action.stand_ins
    stand_ins.check(state, tid, counts, n_in, rid)
    if nc + nl + nb + n_in != length:
        if n_in:
            raise IllegalAction(f"{rid} has {length} spaces: {n_in} paid by stand-ins, {length - n_in} by cards; the payment has {nc + nl + nb}", R_CLAIM)
        raise IllegalAction(f"{rid} has {length} spaces but the payment has {nc + nl + nb} cards", R_CLAIM)
    want = t.t_color[tid]
    if nc and want >= 0 and color != want:
        raise IllegalAction(f"track {k} of {rid} is {t.colors[want]}; {t.kinds[color]} cards cannot pay for it", R_CLAIM)
    if want == -2:
        raise IllegalAction(f"track {k} of {rid} has a colour with no cards in this variant", R_CLAIM)
    if nb and length < t.big_min:
        raise IllegalAction(f"a +4 locomotive is wild only on routes of {t.big_min} or more spaces; {rid} has {length}", R_BIG_LOCO)
    if (nl or nb) and not t.t_loco_ok[tid]:
        raise IllegalAction(f"locomotives pay only on {' and '.join(state.game.variant.cards.locomotives_only_on)}; {rid} is neither", R_LOCO_ONLY)
    ferry = t.t_ferry[tid] - n_in
    if nl + nb < ferry:
        need = f"{ferry} locomotives" + (f" besides its {n_in} stand-ins" if n_in else "")
        raise IllegalAction(f"the ferry {rid} needs {need}; the payment has {nl + nb}", R_FERRY)
    hand = state.hands[p]
    if (nc and hand[color] < nc) or hand[t.LOCO] < nl or hand[t.BIG] < nb:
        raise IllegalAction(f"player {p} does not hold the cards {action.payment}", R_CLAIM)
    return tid, counts


def place_trains(state: State, tid: int) -> None:
    """The claim is made: trains on the track, points scored, parallel tracks closed as the rules say."""
    t = state.t
    p = state.current
    r = t.t_route[tid]
    length = t.t_len[tid]
    state.owner[tid] = p
    state.avail[tid] = False
    state.route_mask[r] |= 1 << p
    tid_group = t.tid_group
    gi, b = tid_group[tid]
    if gi >= 0:
        b = ~b
        for go in state.group_open:
            go[gi] &= b
    mine = state.group_open[p]
    for other in t.parallel_tids[r]:
        gi, b = tid_group[other]
        if gi >= 0:
            mine[gi] &= ~b
    state.trains[p] -= length
    state.scores[p] += t.route_points.get(length, 0)
    state.claims[p].append(tid)
    if state.game.few_players_close:  # fewer players than variant.parallel.all_tracks_from
        for other in t.parallel_tids[r]:
            state.avail[other] = False
            gi, b = tid_group[other]
            if gi >= 0:
                for go in state.group_open:
                    go[gi] &= ~b
