"""Stand-ins (docs/rules.md#stand-ins): cards of any colours paid in place of one card a claim needs.

Two settings of `stand_ins`: `ferry: N` lets N cards stand in for each locomotive a ferry's marks need;
`routes: {ROUTE: N}` lets N cards stand in for any one card of the named routes. A claim says how many
of the route's cards it replaces (`ClaimTrack.stand_ins`); the player then gives the stand-in cards a
colour at a time, in the colours' order (`GiveStandIns`), so every choice of cards is exactly one short
sequence of decisions instead of one action per combination. The hand is left alone until the last
stand-in is given; then the whole payment is made and the claim goes on as any other (a tunnel turns up
its cards).

Claims on tracks where stand-ins may pay are listed after the others (`legal_claims`), for every number
of stand-ins from none up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import ClaimTrack, GiveStandIns, payment_text
from . import tunnels
from .errors import R_STAND_IN, IllegalAction
from .mechanic import Mechanic
from .notation import NotationError, parse_payment
from .payments import color_payments, pay
from .phases import PH_STAND_IN

if TYPE_CHECKING:
    from .state import State
    from .tables import ClaimGroup, Tables


class PendingStandIns:
    """A claim waiting for its stand-in cards. Nothing has left the hand yet."""

    __slots__ = ("tid", "paid", "count", "given", "last")

    def __init__(self, tid: int, paid: tuple, count: int, given: list[int], last: int):
        self.tid = tid
        self.paid = paid  # payment counts of the route's own cards (colour, n, locos, bigs, passengers)
        self.count = count  # cards of the route paid by stand-ins
        self.given = given  # stand-in cards given so far, per colour
        self.last = last  # the last colour given (-1: none yet); the next one comes later in the order

    def copy(self) -> PendingStandIns:
        return PendingStandIns(self.tid, self.paid, self.count, list(self.given), self.last)

    def key(self) -> tuple:
        return (self.tid, self.paid, self.count, tuple(self.given), self.last)

    def still(self, t: Tables) -> int:
        """Stand-in cards still to give."""
        return self.count * t.t_stand_in[self.tid][0] - sum(self.given)


def most(g: ClaimGroup) -> int:
    """The most cards of a track that stand-ins may replace: its ferry marks, or all of it."""
    return g.ferry if g.stand_in_marks else g.length


def _payments(t: Tables, g: ClaimGroup, hand: list[int]):
    """(payment id, stand-ins) of every payment of the group's tracks with this hand, in a fixed order:
    fewest stand-ins first, then as legal claims order them (the track's colour, or each colour held, then
    wild cards alone)."""
    nc = t.NC
    locos = hand[t.LOCO] if g.loco_ok else 0
    bigs = hand[t.BIG] if g.loco_ok and g.big_ok else 0
    colored = sum(hand[:nc])
    colours = [g.color] if g.color >= 0 else [k for k in range(nc) if hand[k]] + [-1]
    counts = t.payment_counts_by_id
    for n in range(most(g) + 1):
        own = g.length - n
        marks = max(0, g.ferry - n)
        for c in colours:
            have = hand[c] if c >= 0 else 0
            least = 1 if g.color < 0 and c >= 0 else 0
            for pid in color_payments(t, c, have, least, own, marks, min(locos, own), min(bigs, own)):
                if colored - counts(pid)[1] >= n * g.stand_in:
                    yield pid, n


def legal_claims(game, hand: list[int], trains: int, gopen: list[int], out: list) -> None:
    """Append the claims of the open stand-in tracks the player can pay, track by track."""
    t = game.t
    cache = game.claim_cache
    for gi, g in t.stand_in_groups:
        open_mask = gopen[gi]
        if not open_mask or g.length > trains:
            continue
        pays = list(_payments(t, g, hand))
        if not pays:
            continue
        for j, tid in enumerate(g.tids):
            if open_mask >> j & 1:
                for pid, n in pays:
                    a = cache.get((tid, pid, n))
                    if a is None:
                        a = cache[(tid, pid, n)] = ClaimTrack(t.t_route[tid], t.t_track[tid], t.payment(pid), n)
                    out.append(a)


def claimable(t: Tables, g: ClaimGroup, hand: list[int], trains: int) -> bool:
    return g.length <= trains and next(_payments(t, g, hand), None) is not None


def check(state: State, tid: int, counts: tuple, n: int, rid: str) -> None:
    """The stand-in part of a claim's checks: how many, and enough cards left to give."""
    t = state.t
    per, marks = t.t_stand_in[tid]
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise IllegalAction(f"{n!r} is not a number of stand-ins", R_STAND_IN)
    if not n:
        return
    if not per:
        raise IllegalAction(f"no cards stand in for others on {rid}", R_STAND_IN)
    top = t.t_ferry[tid] if marks else t.t_len[tid]
    if n > top:
        what = f"its {top} ferry marks" if marks else f"its {top} cards"
        raise IllegalAction(f"stand-ins replace at most {what} on {rid}, not {n}", R_STAND_IN)
    hand = state.hands[state.current]
    left = sum(hand[: t.NC]) - (counts[1] if counts[0] >= 0 else 0)
    if left < n * per:
        raise IllegalAction(f"{n} stand-ins on {rid} take {n * per} more cards of any colours; player {state.current} has {left} left", R_STAND_IN)


def start(state: State, tid: int, counts: tuple, n: int) -> None:
    state.stand_ins = PendingStandIns(tid, counts, n, [0] * state.t.NC, -1)
    state.phase = PH_STAND_IN


def _givable(state: State) -> tuple[PendingStandIns, list[int], int]:
    """The pending claim, the cards the player may still give per colour, and how many are still owed."""
    t = state.t
    pend = state.stand_ins
    hand = state.hands[state.current]
    color, nc = pend.paid[0], pend.paid[1]
    free = [hand[k] - pend.given[k] - (nc if k == color else 0) for k in range(t.NC)]
    return pend, free, pend.still(t)


def legal(state: State, out: list) -> None:
    """Each colour after the last one given, with each count that leaves enough in later colours."""
    t = state.t
    pend, free, still = _givable(state)
    cache = state.game.stand_in_cache
    later = sum(free[pend.last + 1:])
    for k in range(pend.last + 1, t.NC):
        later -= free[k]
        for m in range(min(free[k], still), max(1, still - later) - 1, -1):
            a = cache.get((k, m))
            if a is None:
                a = cache[(k, m)] = GiveStandIns(((t.kinds[k], m),))
            out.append(a)


def apply_give(state: State, action: GiveStandIns) -> None:
    t = state.t
    pend, free, still = _givable(state)
    payment = action.payment
    counts = t.payment_counts(payment) if isinstance(payment, tuple) else None
    if counts is None or counts[2] or counts[3] or counts[4] or counts[1] < 1:
        raise IllegalAction("stand-ins are train cards of one colour at a time, e.g. `standin 2blue`", R_STAND_IN)
    k, m = counts[0], counts[1]
    if k <= pend.last:
        raise IllegalAction(f"give the stand-ins colour by colour in the order {', '.join(t.colors)}; "
                            f"{t.colors[pend.last]} is given, so {t.colors[k]} comes too late", R_STAND_IN)
    if m > still:
        raise IllegalAction(f"only {still} more stand-in cards are owed", R_STAND_IN)
    if m > free[k]:
        raise IllegalAction(f"player {state.current} has {free[k]} {t.colors[k]} cards to give", R_STAND_IN)
    if still - m > sum(free[k + 1:]):
        raise IllegalAction(f"after {m} {t.colors[k]} the player could not give the other {still - m} in later colours", R_STAND_IN)
    pend.given[k] += m
    pend.last = k
    if m == still:
        finish(state)


def finish(state: State) -> None:
    """Every stand-in is given: the whole payment leaves the hand and the claim goes on."""
    pend = state.stand_ins
    state.stand_ins = None
    state.count("claims-with-stand-ins")
    hand = state.hands[state.current]
    given = pend.given
    for k, m in enumerate(given):
        hand[k] -= m
    if state.t.t_tunnel[pend.tid]:
        tunnels.start(state, pend.tid, pend.paid, given)
        return
    pay(state, pend.paid)
    for k, m in enumerate(given):
        if m:
            state.discard[k] += m
            state.discard_total += m
    state.complete_claim(pend.tid, pend.paid, (), given)


def _parse_stand_ins(game: Any, args: list[str], state: State | None) -> list:
    if not args:
        raise NotationError("write `standin PAYMENT`, e.g. `standin 2blue+1green` (cards of any colours)")
    payment = parse_payment(game, "+".join(args))
    return [GiveStandIns((part,)) for part in payment]


class StandIns(Mechanic):
    """Stand-ins as a mechanic (mechanic.py). Its slice: the claim waiting for its stand-in cards
    (`stand_ins`, a PendingStandIns, or None). It takes over the payment of a claim that names stand-ins
    (pay_claim, before a tunnel's) and owns the stand-ins phase. Which claims may name them is still
    listed and checked by claims.py (legal_claims, check). Switched on by the variant's `stand_ins`."""

    name = "stand-ins"
    fields = ("stand_ins",)
    verbs = dict.fromkeys(("standin", "standins", "stand-in", "stand-ins"), _parse_stand_ins)
    usage = "standin PAYMENT"
    phases = {PH_STAND_IN: legal}
    handlers = {(PH_STAND_IN, GiveStandIns): apply_give}

    def enabled(self, variant, board) -> bool:
        return bool(variant.stand_ins.ferry or variant.stand_ins.routes)

    def setup(self, game: Any) -> None:
        game.stand_in_cache = {}  # interned GiveStandIns actions

    def new(self, state: State) -> None:
        state.stand_ins = None

    def copy(self, src: State, dst: State) -> None:
        dst.stand_ins = src.stand_ins.copy() if src.stand_ins is not None else None

    def key(self, state: State) -> tuple:
        return (state.stand_ins.key() if state.stand_ins else None,)

    def write(self, state: State, data: dict[str, Any]) -> None:
        si = state.stand_ins
        if si is None:
            return
        t = state.t
        data["pending"]["stand_ins"] = {
            "route": t.route_ids[t.t_route[si.tid]],
            "track": t.t_track[si.tid],
            "paid": payment_text(t.payment(t.payment_id(*si.paid))),
            "count": si.count,
            "given": {t.kinds[k]: m for k, m in enumerate(si.given) if m},
        }

    def read(self, rd: Any, state: State) -> None:
        si = rd.sf.pending.stand_ins
        if si is not None:
            state.stand_ins = self._read_pending(rd, state, si)
        phase = rd.sf.phase
        if phase == "stand-ins" and state.stand_ins is None:
            rd.error("phase stand-ins needs pending.stand-ins", ("phase",))
        if phase != "stand-ins" and state.stand_ins is not None:
            rd.error("pending.stand-ins is only meaningful in phase stand-ins", ("pending", "stand-ins"))

    def _read_pending(self, rd: Any, s: State, si: Any) -> PendingStandIns:
        """A claim waiting for its stand-in cards (docs/rules.md#stand-ins), checked as the claim itself is."""
        t = rd.t
        at = ("pending", "stand_ins")
        tid = rd.track(si.route, si.track, at)
        pay = rd.payment(si.paid, at + ("paid",))
        given = [0] * t.NC
        for name, m in si.given.items():
            k = rd.kind(name, at + ("given", name), key=True)
            if k >= t.NC:
                rd.error("stand-ins are coloured train cards", at + ("given", name), key=True)
            given[k] += m
        tid, counts = rd.check_claim(s, ClaimTrack(t.t_route[tid], t.t_track[tid], pay, si.count), at)
        pend = PendingStandIns(tid, counts, si.count, given, max((k for k in range(t.NC) if given[k]), default=-1))
        hand = s.hands[s.current]
        if any(given[k] + (counts[1] if k == counts[0] else 0) > hand[k] for k in range(t.NC)) or pend.still(t) < 0:
            rd.error("more stand-in cards than the hand holds or the claim asks for", at + ("given",))
        return pend

    def pay_claim(self, state: State, tid: int, counts: tuple, action: Any) -> bool:
        if not action.stand_ins:
            return False
        start(state, tid, counts, action.stand_ins)
        return True


STAND_INS = StandIns()
