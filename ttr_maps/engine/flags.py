"""French flags (Paris; docs/rules.md#french-flags).

After claiming a route of a flag colour, paid with at least one card of that
colour, the player may set one of those cards in front of them if they have no
card of that colour there yet. At the end of their turn a full set (one of each
flag colour) scores `flags.points` and is discarded. The route's colour decides
(a blue, white or red route, docs/rules.md#french-flags): a gray route never makes a flag card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import SetFlag, SkipFlag
from .errors import R_FLAG, IllegalAction

if TYPE_CHECKING:
    from .state import State

SKIP = SkipFlag()


def offered_color(state: State, tid: int, paid: tuple) -> int:
    """The flag colour the player may set aside after this claim, or -1."""
    t = state.t
    color = t.t_color[tid]
    if color < 0 or color not in t.flag_colors:
        return -1
    if paid[0] != color or paid[1] < 1:
        return -1
    if color in state.flag_cards[state.current]:
        return -1
    return color


def legal(state: State, out: list) -> None:
    out.append(state.game.flag_actions[state.pending_flag])
    out.append(SKIP)


def apply_set(state: State, action: SetFlag) -> None:
    t = state.t
    color = state.pending_flag
    if action.color != t.colors[color]:
        raise IllegalAction(f"only a paid {t.colors[color]} card can be set in front of you now", R_FLAG)
    state.discard[color] -= 1
    state.discard_total -= 1
    state.flag_cards[state.current].append(color)
    state.pending_flag = -1
    state.after_flag()


def apply_skip(state: State) -> None:
    state.pending_flag = -1
    state.after_flag()


def score_sets(state: State) -> None:
    """End of turn: a complete flag scores and its cards are discarded."""
    t = state.t
    p = state.current
    cards = state.flag_cards[p]
    if not t.flag_colors or len(cards) < len(t.flag_colors):
        return
    if all(c in cards for c in t.flag_colors):
        for c in t.flag_colors:
            cards.remove(c)
            state.discard[c] += 1
            state.discard_total += 1
        state.flag_sets[p] += 1
        state.scores[p] += state.game.variant.flags.points
