"""Destination tickets: piles, the setup deal, drawing in play, keeping and returning.

Piles are lists with their top at the end. What is dealt and how many must be
kept come from `variant.tickets.setup` / `.draw` (fixed deals or an announced
mix); where unkept tickets go from their `returned` settings.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from .actions import DrawTickets, KeepTickets
from .cards import shuffle
from .errors import R_KEEP, R_TICKETS, IllegalAction
from .events import TicketsKept
from .phases import PH_KEEP, PH_SETUP_MIX

if TYPE_CHECKING:
    from ..model.variant import TicketDeal
    from .state import State

MAX_ENUMERATED_OFFER = 16  # offers larger than this are kept by explicit choice only (never in bundled variants)


@lru_cache(maxsize=64)
def _subsets(n: int) -> tuple[tuple[int, ...], ...]:
    """Every non-empty subset of range(n) plus the empty one, as ascending index tuples."""
    out = []
    for mask in range(1 << n):
        out.append(tuple(i for i in range(n) if mask >> i & 1))
    return tuple(out)


def deal_rules(state: State) -> TicketDeal:
    game = state.game
    return game.setup_deal if state.in_setup else game.draw_deal


def staged(state: State) -> bool:
    return state.in_setup and state.game.staged_setup


def mixes(state: State, deal: TicketDeal) -> list[tuple[int, ...]]:
    sizes = tuple(len(state.piles.get(p, ())) for p in deal.mix)
    total = min(deal.count, sum(sizes))
    if total <= 0:
        return []
    return list(_mixes(sizes, total))


@lru_cache(maxsize=256)
def _mixes(sizes: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    """The ways to take `total` tickets from piles of `sizes`, in lexicographic order (a pile's share capped
    by its size at `total`: a larger share could never sum to it, and the product stays small)."""
    return tuple(m for m in product(*(range(min(s, total) + 1) for s in sizes)) if sum(m) == total)


def can_draw(state: State) -> bool:
    piles = state.piles
    for name in state.game.draw_piles:
        if piles.get(name):
            return True
    return False


def legal_draw(state: State, out: list, deal: TicketDeal | None = None) -> None:
    game = state.game
    if deal is None:
        if not game.draw_mix:
            piles = state.piles
            for name in game.draw_piles:  # can_draw, inlined
                if piles.get(name):
                    out.append(game.draw_tickets_plain)
                    return
            return
        deal = game.draw_deal
    names = deal.mix
    if names:
        # The mixes' actions per deal size and pile sizes (they depend on nothing else), listed once a game.
        piles = state.piles
        if len(names) == 2:
            sizes: tuple[int, ...] = (len(piles.get(names[0], ())), len(piles.get(names[1], ())))
        else:
            sizes = tuple([len(piles.get(p, ())) for p in names])
        key = (deal.count, sizes)
        acts = game.mix_actions.get(key)
        if acts is None:
            cache = game.ticket_cache
            listed = []
            for m in mixes(state, deal):
                a = cache.get(m)
                if a is None:
                    a = cache[m] = DrawTickets(m)
                listed.append(a)
            acts = game.mix_actions[key] = tuple(listed)
        out.extend(acts)
    elif can_draw(state):
        out.append(state.game.draw_tickets_plain)


def take(state: State, pile: str, n: int) -> list[int]:
    cards = state.piles.get(pile)
    if not cards or n <= 0:
        return []
    n = min(n, len(cards))
    got = cards[-n:]
    del cards[-n:]
    got.reverse()  # top card first
    return got


def apply_draw(state: State, action: DrawTickets) -> None:
    deal = deal_rules(state)
    p = state.current
    mix = tuple(action.mix) if isinstance(action.mix, (tuple, list)) else None
    if deal.mix:
        if mix is None or len(mix) != len(deal.mix) or not all(isinstance(n, int) and n >= 0 for n in mix):
            raise IllegalAction(f"announce how many tickets from each of {', '.join(deal.mix)} (e.g. `tickets 2 2`)", R_TICKETS)
        if mix not in mixes(state, deal):
            sizes = ", ".join(f"{pile} {len(state.piles.get(pile, ()))}" for pile in deal.mix)
            raise IllegalAction(f"the mix must add up to {deal.count} (or all that is left) within the piles ({sizes})", R_TICKETS)
        offer = []
        for pile, n in zip(deal.mix, mix):
            offer.extend(take(state, pile, n))
    else:
        if mix:
            raise IllegalAction("this variant deals tickets without an announced mix; write `tickets`", R_TICKETS)
        if not state.in_setup and not can_draw(state):
            raise IllegalAction("the ticket deck is empty", R_TICKETS)
        offer = []
        for d in deal.deal:
            offer.extend(take(state, d.pile, d.count))
    state.offers[p] = offer
    state.phase = PH_KEEP
    if not offer:  # nothing was left to deal (setup only)
        state.after_keep()


def _limits(state: State, p: int, deal: TicketDeal) -> tuple[int, dict[str, int]]:
    """(minimum to keep now, per-pile maximum still allowed) for player p's current offer; `deal` is
    deal_rules(state)."""
    offer = state.offers[p]
    game = state.game
    if not (state.in_setup and game.staged_setup):
        need = game.plain_keep[state.in_setup]
        if need is not None:  # no per-pile caps, one deal: keep_min of the offer (or all of it)
            return max(0, min(need, len(offer))), {}
    t = state.t
    limits = {}
    for pile, cap in deal.keep_max.items():
        already = sum(1 for k in state.setup_kept[p] if t.ticket_pile.get(k) == pile) if state.in_setup else 0
        limits[pile] = max(0, cap - already)
    by_pile: dict[str, int] = {}
    for k in offer:
        pile = t.ticket_pile.get(k, "")
        by_pile[pile] = by_pile.get(pile, 0) + 1
    keepable = sum(min(n, limits.get(pile, n)) for pile, n in by_pile.items())
    need = deal.keep_min
    if staged(state):
        need -= len(state.setup_kept[p])
        for d in deal.deal[state.setup_stage + 1:]:
            need -= min(d.count, len(state.piles.get(d.pile, ())), limits.get(d.pile, d.count))
    return max(0, min(need, keepable)), limits


def legal_keep(state: State, out: list) -> None:
    p = state.current
    offer = state.offers[p]
    n = len(offer)
    if n > MAX_ENUMERATED_OFFER:
        out.append(KeepTickets(tuple(range(n))))
        return
    need, limits = _limits(state, p, deal_rules(state))
    t = state.t
    cache = state.game.keep_cache
    piles = [t.ticket_pile.get(k, "") for k in offer]
    for subset in _subsets(n):
        if len(subset) < need:
            continue
        if limits and not _within(subset, piles, limits):
            continue
        a = cache.get(subset)
        if a is None:
            a = cache[subset] = KeepTickets(subset)
        out.append(a)


def _within(subset: tuple[int, ...], piles: list[str], limits: dict[str, int]) -> bool:
    used: dict[str, int] = {}
    for i in subset:
        pile = piles[i]
        if pile in limits:
            used[pile] = used.get(pile, 0) + 1
            if used[pile] > limits[pile]:
                return False
    return True


def apply_keep(state: State, action: KeepTickets) -> None:
    p = state.current
    offer = state.offers[p]
    idx = action.indices
    if not isinstance(idx, (tuple, list)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in idx):
        raise IllegalAction("keep takes positions of offered tickets, e.g. `keep 0 2`", R_KEEP)
    idx = tuple(idx)
    if len(set(idx)) != len(idx) or any(not 0 <= i < len(offer) for i in idx):
        raise IllegalAction(f"positions must be distinct and within 0..{len(offer) - 1}", R_KEEP)
    deal = deal_rules(state)
    need, limits = _limits(state, p, deal)
    if len(idx) < need:
        raise IllegalAction(f"keep at least {need} of the {len(offer)} offered tickets", R_KEEP)
    t = state.t
    piles = [t.ticket_pile.get(k, "") for k in offer]
    if limits and not _within(idx, piles, limits):
        which = ", ".join(f"{pile} {n}" for pile, n in limits.items())
        raise IllegalAction(f"keep at most this many from each pile: {which}", R_KEEP)
    chosen = set(idx)
    kept = [offer[i] for i in sorted(idx)]
    back = [k for i, k in enumerate(offer) if i not in chosen]
    state.kept[p].extend(kept)
    if state.events is not None:
        state.events.append(TicketsKept(p, tuple(kept), tuple(back), state.in_setup))
    if state.in_setup:
        state.setup_kept[p].extend(kept)
    state.offers[p] = []
    return_tickets(state, back, deal)
    state.after_keep()


def return_tickets(state: State, back: list[int], deal: TicketDeal) -> None:
    """Unkept tickets go where the variant says; at setup the shuffled ones wait until every player has chosen."""
    if not back:
        return
    t = state.t
    groups: dict[tuple[str, str], list[int]] = {}
    how: str
    for k in back:
        pile = t.ticket_pile.get(k, "")
        how = deal.returned_to(pile)
        groups.setdefault((pile, how), []).append(k)
    for (pile, how), cards in groups.items():
        if how == "box":
            state.boxed.extend(cards)
        elif how == "bottom":
            under(state, pile, cards)
        elif state.in_setup:
            state.aside.extend((k, how) for k in cards)
        elif how == "shuffled-bottom":
            shuffle(state.rng, cards)
            under(state, pile, cards)
        else:  # reshuffle
            state.piles.setdefault(pile, []).extend(cards)
            shuffle(state.rng, state.piles[pile])


def under(state: State, pile: str, cards: list[int]) -> None:
    """Slide cards under a pile in order: the last one ends at the very bottom."""
    lst = state.piles.setdefault(pile, [])
    lst[:0] = list(reversed(cards))


def finish_setup(state: State) -> None:
    """Setup returns that are shuffled go back now; leftover piles may go to the box."""
    t = state.t
    for pile in t.pile_names:
        for how in ("shuffled-bottom", "reshuffle"):
            cards = [k for k, h in state.aside if h == how and t.ticket_pile.get(k) == pile]
            if not cards:
                continue
            if how == "shuffled-bottom":
                shuffle(state.rng, cards)
                under(state, pile, cards)
            else:
                state.piles[pile].extend(cards)
                shuffle(state.rng, state.piles[pile])
    state.aside = []
    for pile, what in state.game.variant.tickets.leftover_at_setup.items():
        if what == "box" and state.piles.get(pile):
            state.boxed.extend(reversed(state.piles[pile]))
            state.piles[pile] = []


def legal_setup(state: State, out: list) -> None:
    if state.phase == PH_SETUP_MIX:
        legal_draw(state, out, state.game.setup_deal)
    else:
        legal_keep(state, out)
