"""Claiming a route: payments (colours, locomotives, +4 locomotives, ferries) and the parallel-route rule.

Payments are enumerated per claim group (tracks with the same colour, length and
ferry count accept the same payments), so an unaffordable group costs one test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ClaimTrack
from .errors import R_BIG_LOCO, R_CLAIM, R_FERRY, R_PARALLEL, R_TRAINS, IllegalAction

if TYPE_CHECKING:
    from .game import State
    from .tables import Tables


def _wild_splits(w: int, locos: int, bigs: int):
    """(n_loco, n_big) with n_loco + n_big == w."""
    lo = max(0, w - bigs)
    hi = min(w, locos)
    for nl in range(lo, hi + 1):
        yield nl, w - nl


def route_payments(t: Tables, hand: list[int], color: int, length: int, ferry: int, big_ok: bool) -> list[int]:
    """Ids of every distinct payment for a track: one colour (any, on gray) plus wilds, ferries' locomotives first."""
    locos = hand[t.LOCO]
    bigs = hand[t.BIG] if big_ok else 0
    out: list[int] = []
    pid = t.payment_id
    if color >= 0:
        have = hand[color]
        for nc in range(min(have, length - ferry), -1, -1):
            w = length - nc
            if w > locos + bigs:
                break
            for nl, nb in _wild_splits(w, locos, bigs):
                out.append(pid(color, nc, nl, nb))
        return out
    for c in range(t.NC):
        have = hand[c]
        if not have:
            continue
        for nc in range(min(have, length - ferry), 0, -1):
            w = length - nc
            if w > locos + bigs:
                break
            for nl, nb in _wild_splits(w, locos, bigs):
                out.append(pid(c, nc, nl, nb))
    if locos + bigs >= length:
        for nl, nb in _wild_splits(length, locos, bigs):
            out.append(pid(-1, 0, nl, nb))
    return out


def legal_claims(state: State, out: list) -> None:
    p = state.current
    t = state.t
    game = state.game
    trains = state.trains[p]
    hand = state.hands[p]
    locos = hand[t.LOCO]
    bigs = hand[t.BIG]
    gopen = state.group_open[p]
    pays_cache = game.pays_cache
    lists = game.claim_lists
    nc = t.NC
    ng = t.NG
    shift = t.group_bits
    colors = hand[:nc]
    best = max(colors) if nc else 0
    c = -1
    for groups in t.groups_by_color:
        c += 1
        have = colors[c] if c < nc else best
        top = have + locos + bigs
        if top > trains:
            top = trains
        for gi, length, ferry, big_ok, g in groups:
            if length > top:
                break
            open_mask = gopen[gi]
            if not open_mask:
                continue
            wild = locos + bigs if big_ok else locos
            if wild < ferry or have + wild < length:
                continue
            cl = locos if locos < length else length
            cb = (bigs if bigs < length else length) if big_ok else 0
            if c < nc:
                key = ((gi << 4 | (have if have < length else length)) << 4 | cl) << 4 | cb
            else:
                key = (gi, tuple([h if h < length else length for h in colors]), cl, cb)
            pays = pays_cache.get(key)
            if pays is None:
                if len(pays_cache) > 50_000 or len(lists) > 200_000:
                    pays_cache.clear()
                    lists.clear()
                pays = pays_cache[key] = (len(pays_cache), route_payments(t, hand, g.color, length, ferry, big_ok))
            lkey = (pays[0] * ng + gi) << shift | open_mask
            acts = lists.get(lkey)
            if acts is None:
                acts = lists[lkey] = [
                    _claim_action(game, tid, pid) for j, tid in enumerate(g.tids) if open_mask >> j & 1 for pid in pays[1]
                ]
            out.extend(acts)


def _claim_action(game, tid: int, pid: int) -> ClaimTrack:
    t = game.t
    cache = game.claim_cache
    a = cache.get((tid, pid))
    if a is None:
        a = cache[(tid, pid)] = ClaimTrack(t.t_route[tid], t.t_track[tid], t.payment(pid))
    return a


def check_claim(state: State, action: ClaimTrack) -> tuple[int, tuple[int, int, int, int, int]]:
    """The track id and payment counts of a legal claim; IllegalAction naming the rule otherwise."""
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
    if nc + nl + nb != length:
        raise IllegalAction(f"{rid} has {length} spaces but the payment has {nc + nl + nb} cards", R_CLAIM)
    want = t.t_color[tid]
    if nc and want >= 0 and color != want:
        raise IllegalAction(f"track {k} of {rid} is {t.colors[want]}; {t.kinds[color]} cards cannot pay for it", R_CLAIM)
    if want == -2:
        raise IllegalAction(f"track {k} of {rid} has a colour with no cards in this variant", R_CLAIM)
    if nb and length < t.big_min:
        raise IllegalAction(f"a +4 locomotive is wild only on routes of {t.big_min} or more spaces; {rid} has {length}", R_BIG_LOCO)
    ferry = t.t_ferry[tid]
    if nl + nb < ferry:
        raise IllegalAction(f"the ferry {rid} needs {ferry} locomotives; the payment has {nl + nb}", R_FERRY)
    hand = state.hands[p]
    if (nc and hand[color] < nc) or hand[t.LOCO] < nl or hand[t.BIG] < nb:
        raise IllegalAction(f"player {p} does not hold the cards {action.payment}", R_CLAIM)
    return tid, counts


def take_payment(state: State, counts: tuple[int, int, int, int, int]) -> None:
    t = state.t
    hand = state.hands[state.current]
    color, nc, nl, nb, npass = counts
    if nc:
        hand[color] -= nc
    if nl:
        hand[t.LOCO] -= nl
    if nb:
        hand[t.BIG] -= nb
    if npass:
        hand[t.PASS] -= npass


def return_payment(state: State, counts: tuple[int, int, int, int, int]) -> None:
    t = state.t
    hand = state.hands[state.current]
    color, nc, nl, nb, npass = counts
    if nc:
        hand[color] += nc
    if nl:
        hand[t.LOCO] += nl
    if nb:
        hand[t.BIG] += nb
    if npass:
        hand[t.PASS] += npass


def discard_payment(state: State, counts: tuple[int, int, int, int, int]) -> None:
    t = state.t
    d = state.discard
    color, nc, nl, nb, npass = counts
    if nc:
        d[color] += nc
    if nl:
        d[t.LOCO] += nl
    if nb:
        d[t.BIG] += nb
    if npass:
        d[t.PASS] += npass
    state.discard_total += nc + nl + nb + npass


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
        for go in state.group_open:
            go[gi] &= ~b
    mine = state.group_open[p]
    for other in t.route_tids[r]:
        gi, b = tid_group[other]
        if gi >= 0:
            mine[gi] &= ~b
    state.trains[p] -= length
    state.scores[p] += t.route_points.get(length, 0)
    state.claims[p].append(tid)
    if state.game.num_players < state.game.variant.parallel.all_tracks_from:
        for other in t.route_tids[r]:
            state.avail[other] = False
            gi, b = tid_group[other]
            if gi >= 0:
                for go in state.group_open:
                    go[gi] &= ~b
