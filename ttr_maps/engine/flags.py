"""French flags (Paris; docs/rules.md#french-flags).

After claiming a route of a flag colour, paid with at least one card of that
colour, the player may set one of those cards in front of them if they have no
card of that colour there yet. At the end of their turn a full set (one of each
flag colour) scores `flags.points` and is discarded. The route's colour decides
(a blue, white or red route, docs/rules.md#french-flags): a gray route never makes a flag card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import SetFlag, SkipFlag
from .errors import R_FLAG, IllegalAction
from .mechanic import Mechanic
from .notation import NotationError
from .phases import PH_FLAG

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
    state.claim_done(FLAGS)


def apply_skip(state: State) -> None:
    state.pending_flag = -1
    state.claim_done(FLAGS)


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


def _parse_flag(game: Any, args: list[str], state: State | None) -> list:
    if args == ["skip"]:
        return [SkipFlag()]
    if len(args) == 1:
        return [SetFlag(args[0])]
    raise NotationError("write `flag COLOUR` or `flag skip`")


class Flags(Mechanic):
    """French flags as a mechanic (mechanic.py): its slice is each seat's cards set in front (`flag_cards`)
    and completed sets (`flag_sets`), and the colour a claim just offered (`pending_flag`)."""

    name = "flags"
    fields = ("flag_cards", "flag_sets", "pending_flag")
    verbs = {"flag": _parse_flag}
    usage = "flag COLOUR | flag skip"
    phases = {PH_FLAG: legal}
    handlers = {
        (PH_FLAG, SetFlag): apply_set,
        (PH_FLAG, SkipFlag): lambda s, a: apply_skip(s),
    }

    def enabled(self, variant, board) -> bool:
        return bool(variant.flags.colors)

    def setup(self, game: Any) -> None:
        game.flag_actions = {c: SetFlag(game.t.colors[c]) for c in game.t.flag_colors}

    def new(self, state: State) -> None:
        n = state.game.num_players
        state.flag_cards = [[] for _ in range(n)]
        state.flag_sets = [0] * n
        state.pending_flag = -1

    def copy(self, src: State, dst: State) -> None:
        dst.flag_cards = [f[:] for f in src.flag_cards]
        dst.flag_sets = src.flag_sets[:]
        dst.pending_flag = src.pending_flag

    def key(self, state: State) -> tuple:
        return (state.pending_flag, tuple(map(tuple, state.flag_cards)), tuple(state.flag_sets))

    def cards_held(self, state: State) -> int:
        return sum(map(len, state.flag_cards))

    def write(self, state: State, data: dict[str, Any]) -> None:
        kinds = state.t.kinds
        for p, entry in enumerate(data["players"]):
            entry["flag_cards"] = [kinds[c] for c in state.flag_cards[p]]
            entry["flag_sets"] = state.flag_sets[p]
        if state.pending_flag >= 0:
            data["pending"]["flag"] = kinds[state.pending_flag]

    def read_cards(self, rd: Any, state: State) -> None:
        for p, ps in enumerate(rd.sf.players):
            for i, name in enumerate(ps.flag_cards):
                k = rd.card(name, ("players", p, "flag_cards", i))
                if k >= rd.t.NC:
                    rd.error("only coloured cards make a flag", ("players", p, "flag_cards", i))
                state.flag_cards[p].append(k)

    def read(self, rd: Any, state: State) -> None:
        sf = rd.sf
        points = rd.game.variant.flags.points
        for p, ps in enumerate(sf.players):
            state.flag_sets[p] = ps.flag_sets
            if ps.score is None:
                state.scores[p] += ps.flag_sets * points
        if sf.pending.flag is not None:
            state.pending_flag = rd.kind(sf.pending.flag, ("pending", "flag"))
        if sf.phase == "flag" and (state.pending_flag < 0 or state.pending_flag not in rd.t.flag_colors):
            rd.error("phase flag needs pending.flag, a flag colour", ("phase",))

    def observe(self, view: Any, obs: dict[str, Any]) -> None:
        kinds = view.game.t.kinds
        for p, entry in enumerate(obs["players"]):
            entry["flag_cards"] = [kinds[c] for c in view.flag_cards(p)]
            entry["flag_sets"] = view.flag_sets(p)

    def position(self, state: State, p: int) -> dict[str, Any]:
        return {"flag_sets": state.flag_sets[p]}

    def live_points(self, state: State, p: int) -> int:
        return state.flag_sets[p] * state.game.variant.flags.points

    def after_claim(self, state: State, tid: int, paid: tuple | None) -> bool:
        c = offered_color(state, tid, paid) if paid is not None else -1
        if c < 0:
            return False
        state.pending_flag = c
        state.phase = PH_FLAG
        return True

    def end_of_turn(self, state: State) -> None:
        score_sets(state)

    def final_scoring(self, variant, board, player) -> dict[str, int]:
        return {"flags": player.flag_sets * variant.flags.points}


FLAGS = Flags()
