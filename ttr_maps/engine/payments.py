"""Payments: the cards that pay for a route, a tunnel's extra cost or a station, as counts.

A payment is (colour, coloured cards, locomotives, +4 locomotives, passenger cards); these functions
enumerate the ways to pay and move the cards between the hand and the discards. The claims, tunnels,
stations and stand-ins mechanics all pay through them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State
    from .tables import Tables


def wild_splits(w: int, locos: int, bigs: int):
    """(n_loco, n_big) with n_loco + n_big == w."""
    lo = max(0, w - bigs)
    hi = min(w, locos)
    for nl in range(lo, hi + 1):
        yield nl, w - nl


def color_payments(t: Tables, color: int, have: int, least: int, length: int, ferry: int, locos: int, bigs: int) -> list[int]:
    """Ids of every payment for `length` spaces with `least`..`have` cards of `color` (-1: wilds only), the
    rest in locomotives and +4 locomotives (a ferry's locomotives first), most coloured cards first."""
    out: list[int] = []
    pid = t.payment_id
    for n in range(min(have, length - ferry), least - 1, -1):
        w = length - n
        if w > locos + bigs:
            break
        for nl, nb in wild_splits(w, locos, bigs):
            out.append(pid(color, n, nl, nb))
    return out


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


def pay(state: State, counts: tuple[int, int, int, int, int]) -> None:
    """take_payment, then discard_payment: the cards of a claim go from the hand to the discards (one call)."""
    t = state.t
    hand = state.hands[state.current]
    d = state.discard
    color, nc, nl, nb, npass = counts
    if nc:
        hand[color] -= nc
        d[color] += nc
    if nl:
        k = t.LOCO
        hand[k] -= nl
        d[k] += nl
    if nb:
        k = t.BIG
        hand[k] -= nb
        d[k] += nb
    if npass:
        k = t.PASS
        hand[k] -= npass
        d[k] += npass
    state.discard_total += nc + nl + nb + npass


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
