"""Train cards: the deck, the discards, the face-up row and the draw-cards action.

The deck is a list of card kinds with its top at the end; the discards are a
count per kind (their order never matters: they are shuffled before reuse).
"""

from __future__ import annotations

from math import ceil, comb, log, log1p
from random import Random
from typing import TYPE_CHECKING, Final

from .actions import DrawBlind, DrawFaceUp
from .errors import R_DRAW, R_FACE_UP_LOCO, IllegalAction
from .phases import PH_SECOND

if TYPE_CHECKING:
    from .state import State

BLIND: Final = DrawBlind()
_FACE_UP: Final = [DrawFaceUp(i) for i in range(16)]
_FACE_UP_ROWS: Final = [_FACE_UP[:n] for n in range(17)]
# The first card of a turn from a full row of n cards and a deck or discards to draw from: what legal_draws lists.
FIRST_DRAWS: Final = [[BLIND, *_FACE_UP[:n]] for n in range(17)]
# A full row of n cards but slot i (a face-up locomotive, which the second card may not be): [n][i].
_ROWS_WITHOUT: Final = [[_FACE_UP[:i] + _FACE_UP[i + 1:n] for i in range(n)] for n in range(17)]


def cards_left(state: State) -> int:
    return len(state.deck) + state.discard_total


def shuffle(rng: Random, x: list) -> None:
    """rng.shuffle(x): the same draws and the same order (random.Random.shuffle, whose index draw,
    _randbelow_with_getrandbits, is written out here: a Python call less per card). Another generator
    class (one that may draw differently) is asked to shuffle itself."""
    if type(rng) is not Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


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
    shuffle(state.rng, new)
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


def _pool(state: State) -> tuple[int, int, int, int]:
    """(locomotives, passenger cards, other cards, row size) of what a redeal draws from: deck, discards and row."""
    t = state.t
    loco, pas = t.LOCO, t.PASS
    deck, fu = state.deck, state.face_up
    shown = len(fu) - fu.count(-1)
    locos = state.discard[loco] + deck.count(loco) + fu.count(loco)
    passengers = state.discard[pas] + deck.count(pas) + fu.count(pas)
    pool = state.discard_total + len(deck) + shown
    return locos, passengers, pool - locos - passengers, min(state.game.face_up_count, pool)


def _redeal_could_change(state: State, pool: tuple[int, int, int, int] | None = None) -> bool:
    """Could some redeal show a row that does not force another one? (docs/rules.md#the-redeal-loop)"""
    locos, passengers, others, shown = pool or _pool(state)
    rp = state.redeal_passengers
    best = others + min(locos, state.redeal_locos - 1) + (passengers if rp is None else min(passengers, rp - 1))
    return best >= shown


#: The redeal loop stops once the redeals made would have shown a row without a redeal with this
#: certainty (docs/engine.md, open cases): 1 - 10^-6.
MISS = 1e-6
#: A redeal showing a row without a redeal less often than this counts as one that could not change
#: the row: the loop would need some 14,000 redeals to be sure of one (docs/engine.md, open cases).
LEAST_CHANCE = 1e-3


def settle_chance(state: State, pool: tuple[int, int, int, int] | None = None) -> float:
    """The chance that one redeal shows a row that does not force another (exact, hypergeometric)."""
    locos, passengers, others, shown = pool or _pool(state)
    total = comb(locos + passengers + others, shown)
    if not total:
        return 1.0
    rl = min(state.redeal_locos, shown + 1)
    rp = shown + 1 if state.redeal_passengers is None else min(state.redeal_passengers, shown + 1)
    ways = 0
    for nl in range(rl):
        for np_ in range(rp):
            no = shown - nl - np_
            if no < 0:
                break
            ways += comb(locos, nl) * comb(passengers, np_) * comb(others, no)
    return ways / total


_LIMITS: dict[tuple, int] = {}  # redeal_limit by what decides it: the pool and the redeal thresholds


def redeal_limit(state: State) -> int:
    """Redeals one loop makes at most: enough that a row without a redeal would have shown with
    certainty 1 - MISS, from the cards a redeal draws from when the loop starts. With many wild cards
    such a row can be possible and yet so unlikely that the loop would run for ever."""
    pool = _pool(state)
    key = (pool, state.redeal_locos, state.redeal_passengers)
    n = _LIMITS.get(key)
    if n is None:
        if len(_LIMITS) > 100_000:
            _LIMITS.clear()
        n = _LIMITS[key] = _redeal_limit(state, pool)
    return n


def _redeal_limit(state: State, pool: tuple[int, int, int, int]) -> int:
    """redeal_limit, worked out."""
    if not _redeal_could_change(state, pool):
        return 0
    chance = settle_chance(state, pool)
    if chance >= 1.0:
        return 1
    if chance < LEAST_CHANCE:
        return 0
    return max(1, ceil(log(MISS) / log1p(-chance)))


def check_face_up(state: State) -> None:
    """Redeal the face-up row while it shows too many locomotives (or passenger cards).

    Open case (docs/rules.md#the-redeal-loop): when no redeal could show a row without a redeal (or one
    would, less than once in 1,000 redeals), or the redeals made would almost surely have shown one
    (`redeal_limit`), the cards stay face up, `redeal-loop-stopped` is counted and `state.row_stopped`
    says so (a state file keeps it, so a reloaded stopped row is not redealt as a row typed by hand is).
    """
    fu = state.face_up
    t = state.t
    rp = state.redeal_passengers
    if fu.count(t.LOCO) < state.redeal_locos and (rp is None or fu.count(t.PASS) < rp):  # _row_forces_redeal, inlined
        state.row_stopped = False
        return
    redeals = 0
    limit = -1
    while _row_forces_redeal(state):
        if limit < 0:
            limit = redeal_limit(state)
        if redeals >= limit:
            state.count("redeal-loop-stopped")
            state.row_stopped = True
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
    state.row_stopped = False


def recheck_face_up(state: State) -> None:
    """End of a turn: a row left with too many locomotives (the loop was stopped) is redealt once a redeal
    could change it, e.g. after a claim filled the discards (docs/rules.md#the-face-up-row). `end_turn` calls it
    only for a row that shows too many (its own test of `_row_forces_redeal`, inlined on the hot path)."""
    if _row_forces_redeal(state) and redeal_limit(state):
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
    fu = state.face_up
    loco = state.t.LOCO if (second and state.face_up_loco_rule) else -2
    if fu and -1 not in fu:  # every slot full (-1: empty)
        if loco == -2 or loco not in fu:  # and takeable: the usual row
            out.extend(_FACE_UP_ROWS[len(fu)])
            return
        if fu.count(loco) == 1:  # a second card beside one face-up locomotive: every other slot
            out.extend(_ROWS_WITHOUT[len(fu)][fu.index(loco)])
            return
    for i, k in enumerate(fu):
        if k >= 0 and k != loco:
            out.append(_FACE_UP[i])


def can_draw_second(state: State) -> bool:
    if state.deck or state.discard_total:
        return True
    loco = state.t.LOCO if state.face_up_loco_rule else -2
    return any(k >= 0 and k != loco for k in state.face_up)


def apply_draw_face_up(state: State, action: DrawFaceUp, second: bool | None = None) -> None:
    """The handler of DrawFaceUp: the first card of a turn, or the second (`second`; None: the state's phase
    says which, so one handler serves both phases without a wrapper call)."""
    if second is None:
        second = state.phase == PH_SECOND
    slot = action.slot
    fu = state.face_up
    if type(slot) is not int or not 0 <= slot < len(fu):  # (an int's test without a call; isinstance's below)
        if not isinstance(slot, int) or not 0 <= slot < len(fu):
            raise IllegalAction(f"there is no face-up slot {slot!r}; slots are 0..{len(fu) - 1}", R_DRAW)
    kind = fu[slot]
    if kind < 0:
        raise IllegalAction(f"face-up slot {slot} is empty", R_DRAW)
    loco_rule = state.face_up_loco_rule and kind == state.t.LOCO
    if second and loco_rule:
        raise IllegalAction("a face-up locomotive may not be taken as the second card", R_FACE_UP_LOCO)
    state.hands[state.current][kind] += 1
    deck = state.deck
    fu[slot] = deck.pop() if deck else draw_top(state)
    t = state.t
    rp = state.redeal_passengers
    if fu.count(t.LOCO) < state.redeal_locos and (rp is None or fu.count(t.PASS) < rp):  # check_face_up's test, inlined
        state.row_stopped = False
    else:
        check_face_up(state)
    if second or loco_rule:
        state.end_turn()
    elif deck or state.discard_total:  # a second card can be drawn blind (begin_second_draw's first test)
        state.phase = PH_SECOND
    else:
        state.begin_second_draw()


def apply_draw_blind(state: State, action: DrawBlind | None = None, second: bool | None = None) -> None:
    """The handler of DrawBlind: the first card of a turn, or the second (`second`; None: the state's phase
    says which)."""
    if second is None:
        second = state.phase == PH_SECOND
    deck = state.deck
    kind = deck.pop() if deck else draw_top(state)
    if kind < 0:
        raise IllegalAction("the deck and the discards are both empty", R_DRAW)
    state.hands[state.current][kind] += 1
    if second:
        state.end_turn()
    elif deck or state.discard_total:  # a second card can be drawn blind (begin_second_draw's first test)
        state.phase = PH_SECOND
    else:
        state.begin_second_draw()
