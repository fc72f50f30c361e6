"""The turn flow: dealing, the setup rounds, what follows a claim, the end of a turn and of the game, the
legal actions of each phase and the handler of each action.

game.State, the class games make, binds these as its methods (`state.legal_actions()`, `state.apply(a)`
through HANDLERS, and the mechanics' `state.end_turn()`, `state.complete_claim(...)`); the position's own
class (state.py) and the mechanics never import this module, and it imports them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import cards, claims, tickets
from .actions import (
    Action,
    ClaimTrack,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from .errors import R_PASS, IllegalAction
from .events import Claimed
from .first_player import first_player
from .legal import LegalActions
from .payments import pay
from .phases import (
    PH_KEEP,
    PH_OVER,
    PH_SECOND,
    PH_SETUP_MIX,
    PH_TURN,
    PHASE_NAMES,
)

if TYPE_CHECKING:
    from .state import State

PASS = Pass()


def deal(s: State, seed: int, first: str | int | None) -> None:
    """Shuffle and deal a new game from `seed` into the blank state `s`, then start the setup."""
    game = s.game
    s.first = first_player(game.variant.players.first if first is None else first, seed, game.num_players)
    t = s.t
    v = game.variant
    s.seed = seed
    s.rng = random.Random(seed)
    deck = list(t.deck_unshuffled)
    cards.shuffle(s.rng, deck)
    s.deck = deck
    for p in range(game.num_players):
        hand = s.hands[p]
        for _ in range(v.hand):
            k = cards.draw_top(s)
            if k < 0:
                break
            hand[k] += 1
    s.face_up = [cards.draw_top(s) for _ in range(v.face_up.count)]
    cards.check_face_up(s)
    for name in t.pile_names:
        pile = list(t.pile_tickets[name])
        cards.shuffle(s.rng, pile)
        s.piles[name] = pile
    _start_setup_round(s)


def legal_actions(s: State, payments: bool = True) -> list[Action]:
    """Every legal action of the current player, in a fixed order (empty when the game is over).

    `payments=False`, for bots that choose a route before its payment: the list leaves claims out and
    is a claims.RouteLegal, whose `routes` are the claimable routes and `claims(route)` their claims.
    """
    ph = s.phase
    out: list[Action] = [] if payments else claims.route_legal(s, ph == PH_TURN)
    if ph == PH_TURN:
        fu = s.face_up
        if (s.deck or s.discard_total) and fu and -1 not in fu:  # cards.legal_draws' usual case (legal_sequence's)
            out.extend(cards.FIRST_DRAWS[len(fu)])
        else:
            cards.legal_draws(s, out, False)
        if payments:
            claims.legal_claims(s, out)
        tickets.legal_draw(s, out)
        for legal in s.game.turn_legal:
            legal(s, out)
        if not out and (payments or not out.routes):  # type: ignore[attr-defined]
            out.append(PASS)
    elif ph == PH_SECOND:
        cards.legal_draws(s, out, True)
    elif ph == PH_KEEP or ph == PH_SETUP_MIX:
        tickets.legal_setup(s, out)
    else:
        legal = s.game.phase_legal.get(ph)
        if legal is not None:
            legal(s, out)
    return out


def legal_sequence(s: State) -> Sequence[Action]:
    """legal_actions(), as a sequence that builds a claim only when asked for it: at the start of a turn with
    gray claims a legal.LegalActions (the same actions, the same objects, in the same order), else the list.

    For callers that take one action by its index (a random choice): `len()` and `seq[i]` cost no list of
    every gray claim with every payment. Any other read builds that list once (LegalActions.tolist).
    """
    ph = s.phase
    if ph != PH_TURN:
        if ph == PH_SECOND:  # legal_actions' list for the second card, without its other phases' tests
            out: list[Action] = []
            cards.legal_draws(s, out, True)
            return out
        return legal_actions(s)
    fu = s.face_up
    if (s.deck or s.discard_total) and fu and -1 not in fu:  # cards.legal_draws' usual case: every card can be drawn
        out = cards.FIRST_DRAWS[len(fu)][:]
    else:
        out = []
        cards.legal_draws(s, out, False)
    gray = claims.claim_segments(s, out)
    rest: list[Action] = out if gray is None else []
    tickets.legal_draw(s, rest)
    more = s.game.turn_legal
    if more:  # (a loop over an empty tuple still makes an iterator)
        for legal in more:
            legal(s, rest)
    if gray is None:  # every claim listed: the list
        if not out:
            out.append(PASS)
        return out
    segs, n = gray
    segs.insert(0, out)
    if rest:
        segs.append(rest)
    return LegalActions(segs, n + len(out) + len(rest))


def begin_second_draw(s: State) -> None:
    s.phase = PH_SECOND
    if not cards.can_draw_second(s):
        s.count("second-draw-impossible")
        end_turn(s)


def complete_claim(s: State, tid: int, paid: tuple, extra: tuple = (), given: tuple | list = ()) -> None:
    claims.place_trains(s, tid)
    if s.events is not None:
        s.events.append(Claimed(s.current, tid, paid, extra, given))
    s.pending_route = s.t.t_route[tid]
    hooks = s.game.after_claim
    if hooks:
        for hook in hooks:
            if hook(s, tid, paid):
                return
    end_turn(s)


def claim_done(s: State, mechanic) -> None:
    """`mechanic`'s phase after a claim is over: the after_claim hooks of the mechanics after it, then the rest."""
    later = s.game.after_claim_mechanics
    tid = s.claims[s.current][-1]
    for m in later[later.index(mechanic) + 1:]:
        if m.after_claim(s, tid, None):
            return
    end_turn(s)


def after_keep(s: State) -> None:
    if s.in_setup:
        _advance_setup(s)
    else:
        end_turn(s)


def end_turn(s: State, passed: bool = False) -> None:
    p = s.current
    game = s.game
    n = game.num_players
    hooks = game.end_of_turn
    if hooks:
        for hook in hooks:
            hook(s)
    fu = s.face_up
    if -1 in fu:
        cards.refill_face_up(s)
    t = s.t
    rp = s.redeal_passengers
    if fu.count(t.LOCO) >= s.redeal_locos or (rp is not None and fu.count(t.PASS) >= rp):  # cards.recheck_face_up's test
        cards.recheck_face_up(s)
    s.pending_route = -1
    s.turns += 1
    s.passes = s.passes + 1 if passed else 0
    left = s.final_left
    if left > 0:
        s.final_left = left = left - 1
        if not left:
            _game_over(s)
            return
    elif left < 0 and s.trains[p] <= game.end_trains:
        s.final_left = n
    if passed and s.passes >= n:  # (without a pass none are in a row)
        s.count("all-passed")
        _game_over(s)
        return
    s.current = (p + 1) % n
    s.phase = PH_TURN


def _game_over(s: State) -> None:
    s.phase = PH_OVER


# ---------------------------------------------------------------------- setup
def _start_setup_round(s: State) -> None:
    setup = s.game.variant.tickets.setup
    s.current = 0
    if setup.mix:
        s.phase = PH_SETUP_MIX
    else:
        deals = setup.deal[s.setup_stage: s.setup_stage + 1] if tickets.staged(s) else setup.deal
        for p in range(s.game.num_players):
            offer: list[int] = []
            for d in deals:
                offer.extend(tickets.take(s, d.pile, d.count))
            s.offers[p] = offer
        s.phase = PH_KEEP
    _skip_empty_setup(s)


def _skip_empty_setup(s: State) -> None:
    """Players with nothing to decide (no tickets left) are passed over."""
    while s.in_setup:
        if s.phase == PH_KEEP and s.offers[s.current]:
            return
        if s.phase == PH_SETUP_MIX and tickets.mixes(s, s.game.variant.tickets.setup):
            return
        _next_setup_seat(s)


def _advance_setup(s: State) -> None:
    _next_setup_seat(s)
    _skip_empty_setup(s)


def _next_setup_seat(s: State) -> None:
    setup = s.game.variant.tickets.setup
    if s.current + 1 < s.game.num_players:
        s.current += 1
        s.phase = PH_SETUP_MIX if setup.mix else PH_KEEP
        return
    if tickets.staged(s) and s.setup_stage + 1 < len(setup.deal):
        s.setup_stage += 1
        _start_setup_round(s)
        return
    tickets.finish_setup(s)
    s.in_setup = False
    s.current = s.first
    s.phase = PH_TURN


# ---------------------------------------------------------------------- dispatch
def _claim(s: State, a: ClaimTrack) -> None:
    tid, counts = claims.check_claim(s, a)
    hooks = s.game.pay_claim
    if hooks:
        for hook in hooks:
            if hook(s, tid, counts, a):
                return
    pay(s, counts)
    s.complete_claim(tid, counts)


def _draw_tickets(s: State, a: DrawTickets) -> None:
    tickets.apply_draw(s, a)


def _keep(s: State, a: KeepTickets) -> None:
    tickets.apply_keep(s, a)


def _pass(s: State, a: Pass) -> None:
    if s.legal_actions() != [PASS]:
        raise IllegalAction("a player may pass only when no other action is legal", R_PASS)
    s.count("pass")
    s.end_turn(passed=True)


_BY_PAIR: dict[tuple[int, type], Any] = {
    (PH_TURN, DrawFaceUp): cards.apply_draw_face_up,  # the first card of a turn or the second: the phase says
    (PH_TURN, DrawBlind): cards.apply_draw_blind,
    (PH_TURN, ClaimTrack): _claim,
    (PH_TURN, DrawTickets): _draw_tickets,
    (PH_TURN, Pass): _pass,
    (PH_SECOND, DrawFaceUp): cards.apply_draw_face_up,
    (PH_SECOND, DrawBlind): cards.apply_draw_blind,
    (PH_KEEP, KeepTickets): _keep,
    (PH_SETUP_MIX, DrawTickets): _draw_tickets,
}

HANDLERS: list[dict[type, Any]] = [{} for _ in PHASE_NAMES]
for (_ph, _kind), _fn in _BY_PAIR.items():
    HANDLERS[_ph][_kind] = _fn
