"""Train cards: the deck, the discards, the face-up row and the draw-cards action.

The deck is a list of card kinds with its top at the end; the discards are a
count per kind (their order never matters: they are shuffled before reuse).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import DrawBlind, DrawFaceUp
from .errors import R_DRAW, R_FACE_UP_LOCO, IllegalAction

if TYPE_CHECKING:
    from .game import State

MAX_REDEALS = 1000  # a safety net; the redeal loop stops long before (see check_face_up)

BLIND = DrawBlind()
_FACE_UP = [DrawFaceUp(i) for i in range(16)]


def cards_left(state: State) -> int:
    return len(state.deck) + state.discard_total


def draw_top(state: State) -> int:
    """The top card of the deck (shuffling the discards into a new deck when it is empty); -1 if none."""
    deck = state.deck
    if not deck:
        if not state.discard_total:
            return -1
        reshuffle(state)
    return deck.pop()


def reshuffle(state: State) -> None:
    """Shuffle the discards into a new deck (docs/rules.md#drawing-train-cards)."""
    discard = state.discard
    new = []
    for kind, n in enumerate(discard):
        if n:
            new.extend([kind] * n)
            discard[kind] = 0
    state.discard_total = 0
    state.rng.shuffle(new)
    state.deck[:0] = new
    state.count("reshuffles")


def discard_cards(state: State, kind: int, n: int) -> None:
    state.discard[kind] += n
    state.discard_total += n


def _row_forces_redeal(state: State) -> bool:
    t = state.t
    fu = state.face_up
    if fu.count(t.LOCO) >= state.redeal_locos:
        return True
    rp = state.redeal_passengers
    return rp is not None and fu.count(t.PASS) >= rp


def _redeal_could_change(state: State) -> bool:
    """Could some redeal show a row that does not force another one? (docs/rules.md#the-redeal-loop)"""
    t = state.t
    counts = list(state.discard)
    for k in state.deck:
        counts[k] += 1
    for k in state.face_up:
        if k >= 0:
            counts[k] += 1
    pool = sum(counts)
    shown = min(state.game.variant.face_up.count, pool)
    locos = counts[t.LOCO]
    passengers = counts[t.PASS]
    others = pool - locos - passengers
    rp = state.redeal_passengers
    best = others + min(locos, state.redeal_locos - 1) + (passengers if rp is None else min(passengers, rp - 1))
    return best >= shown


def check_face_up(state: State) -> None:
    """Redeal the face-up row while it shows too many locomotives (or passenger cards).

    Open case (docs/rules.md#the-redeal-loop): when no redeal could show a row without a redeal,
    the cards stay face up and `redeal-loop-stopped` is counted.
    """
    redeals = 0
    while _row_forces_redeal(state):
        if not _redeal_could_change(state) or redeals >= MAX_REDEALS:
            state.count("redeal-loop-stopped")
            return
        fu = state.face_up
        for i, k in enumerate(fu):
            if k >= 0:
                state.discard[k] += 1
                state.discard_total += 1
            fu[i] = -1
        for i in range(len(fu)):
            fu[i] = draw_top(state)
        redeals += 1
        state.count("face-up-redeals")


def recheck_face_up(state: State) -> None:
    """End of a turn: a row left with too many locomotives (the loop was stopped) is redealt once a redeal
    could change it, e.g. after a claim filled the discards (docs/rules.md#the-face-up-row)."""
    if _row_forces_redeal(state) and _redeal_could_change(state):
        check_face_up(state)


def refill_face_up(state: State) -> None:
    """Fill empty face-up slots from the deck (an empty slot is refilled as soon as a card exists)."""
    fu = state.face_up
    changed = False
    for i, k in enumerate(fu):
        if k < 0:
            c = draw_top(state)
            if c < 0:
                break
            fu[i] = c
            changed = True
    if changed:
        check_face_up(state)


def legal_draws(state: State, out: list, second: bool) -> None:
    if state.deck or state.discard_total:
        out.append(BLIND)
    loco = state.t.LOCO if (second and state.face_up_loco_rule) else -2
    for i, k in enumerate(state.face_up):
        if k >= 0 and k != loco:
            out.append(_FACE_UP[i])


def can_draw_second(state: State) -> bool:
    if state.deck or state.discard_total:
        return True
    loco = state.t.LOCO if state.face_up_loco_rule else -2
    return any(k >= 0 and k != loco for k in state.face_up)


def apply_draw_face_up(state: State, action: DrawFaceUp, second: bool) -> None:
    slot = action.slot
    fu = state.face_up
    if not isinstance(slot, int) or not 0 <= slot < len(fu):
        raise IllegalAction(f"there is no face-up slot {slot!r}; slots are 0..{len(fu) - 1}", R_DRAW)
    kind = fu[slot]
    if kind < 0:
        raise IllegalAction(f"face-up slot {slot} is empty", R_DRAW)
    loco_rule = state.face_up_loco_rule and kind == state.t.LOCO
    if second and loco_rule:
        raise IllegalAction("a face-up locomotive may not be taken as the second card", R_FACE_UP_LOCO)
    state.hands[state.current][kind] += 1
    fu[slot] = draw_top(state)
    check_face_up(state)
    if second or loco_rule:
        state.end_turn()
    else:
        state.begin_second_draw()


def apply_draw_blind(state: State, second: bool) -> None:
    kind = draw_top(state)
    if kind < 0:
        raise IllegalAction("the deck and the discards are both empty", R_DRAW)
    state.hands[state.current][kind] += 1
    if second:
        state.end_turn()
    else:
        state.begin_second_draw()
