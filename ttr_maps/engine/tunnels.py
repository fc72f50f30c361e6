"""Tunnels (docs/rules.md#tunnels): pay, turn up cards, pay one more for each match or take the cards back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import AbandonTunnel, PayTunnel, payment_text
from .cards import discard_cards, draw_top
from .mechanic import Mechanic
from .notation import NotationError, parse_payment
from .payments import discard_payment, return_payment, take_payment, wild_splits
from .errors import R_BIG_LOCO, R_LOCO_ONLY, R_TUNNEL, IllegalAction
from .phases import PH_TUNNEL

if TYPE_CHECKING:
    from .state import State

ABANDON = AbandonTunnel()


class PendingTunnel:
    """A tunnel claim waiting for its extra cards."""

    __slots__ = ("tid", "paid", "revealed", "extra", "match", "stand_ins")

    def __init__(self, tid: int, paid: tuple, revealed: list[int], extra: int, match: int, stand_ins: tuple[int, ...] = ()):
        self.tid = tid
        self.paid = paid  # payment counts already taken from the hand
        self.revealed = revealed  # the turned-up cards
        self.extra = extra  # cards still to pay
        self.match = match  # colour the extra cards may be (-1: locomotives only)
        self.stand_ins = stand_ins  # stand-in cards paid too, per colour (docs/rules.md#stand-ins); () for none

    def copy(self) -> PendingTunnel:
        return PendingTunnel(self.tid, self.paid, list(self.revealed), self.extra, self.match, self.stand_ins)

    def key(self) -> tuple:
        return (self.tid, self.paid, tuple(self.revealed), self.extra, self.match, self.stand_ins)


def big_ok(state: State, tid: int) -> bool:
    t = state.t
    return t.t_len[tid] >= t.big_min


def matches(state: State, kind: int, match: int, tid: int) -> bool:
    """A turned card matches the paid colour; a locomotive always matches (a +4 one where it is wild)."""
    t = state.t
    if kind == t.LOCO:
        return True
    if kind == t.BIG:
        return big_ok(state, tid)
    return match >= 0 and kind == match


def start(state: State, tid: int, counts: tuple, stand_in_cards: list[int] | None = None) -> None:
    """Take the payment, turn up the cards and either finish the claim or ask for the extra cost.
    Stand-in cards (docs/rules.md#stand-ins) have already left the hand; they are set aside with the payment."""
    take_payment(state, counts)
    reveal = state.game.variant.tunnels.reveal
    revealed: list[int] = []
    for _ in range(reveal):
        k = draw_top(state)
        if k < 0:
            state.count("tunnel-short-reveal")
            break
        revealed.append(k)
    match = counts[0] if counts[1] else -1
    extra = sum(1 for k in revealed if matches(state, k, match, tid))
    state.tunnel = PendingTunnel(tid, counts, revealed, extra, match, tuple(stand_in_cards) if stand_in_cards and any(stand_in_cards) else ())
    if extra == 0:
        finish(state, ())
    else:
        state.phase = PH_TUNNEL


def extra_payments(state: State) -> list[int]:
    t = state.t
    tun = state.tunnel
    hand = state.hands[state.current]
    loco_ok = t.t_loco_ok[tun.tid]
    bigs = hand[t.BIG] if loco_ok and big_ok(state, tun.tid) else 0
    locos = hand[t.LOCO] if loco_ok else 0
    out = []
    if tun.match >= 0:
        for nc in range(min(hand[tun.match], tun.extra), -1, -1):
            w = tun.extra - nc
            if w > locos + bigs:
                break
            for nl, nb in wild_splits(w, locos, bigs):
                out.append(t.payment_id(tun.match, nc, nl, nb))
    elif locos + bigs >= tun.extra:
        for nl, nb in wild_splits(tun.extra, locos, bigs):
            out.append(t.payment_id(-1, 0, nl, nb))
    return out


def legal(state: State, out: list) -> None:
    cache = state.game.tunnel_cache
    for pid in extra_payments(state):
        a = cache.get(pid)
        if a is None:
            a = cache[pid] = PayTunnel(state.t.payment(pid))
        out.append(a)
    out.append(ABANDON)


def apply_pay(state: State, action: PayTunnel) -> None:
    t = state.t
    tun = state.tunnel
    counts = t.payment_counts(action.payment)
    if counts is None:
        raise IllegalAction(f"the extra cards are of the paid colour or locomotives: {t.payment_problem(action.payment)}", R_TUNNEL)
    color, nc, nl, nb, npass = counts
    if nc + nl + nb + npass != tun.extra:
        raise IllegalAction(f"the tunnel asks for {tun.extra} more cards; the payment has {nc + nl + nb + npass}", R_TUNNEL)
    if npass or (nc and color != tun.match):
        want = f"{t.colors[tun.match]} cards or locomotives" if tun.match >= 0 else "locomotives (the route was paid with locomotives only)"
        raise IllegalAction(f"the extra cards must be {want}", R_TUNNEL)
    if (nl or nb) and not t.t_loco_ok[tun.tid]:
        raise IllegalAction("locomotives do not pay on this route, so the extra cards must be of the paid colour", R_LOCO_ONLY)
    if nb and not big_ok(state, tun.tid):
        raise IllegalAction(f"a +4 locomotive is wild only on routes of {t.big_min} or more spaces", R_BIG_LOCO)
    hand = state.hands[state.current]
    if (nc and hand[color] < nc) or hand[t.LOCO] < nl or hand[t.BIG] < nb:
        raise IllegalAction(f"player {state.current} does not hold the cards {action.payment}", R_TUNNEL)
    take_payment(state, counts)
    finish(state, counts)


def finish(state: State, extra: tuple) -> None:
    tun = state.tunnel
    state.tunnel = None
    discard_payment(state, tun.paid)
    if extra:
        discard_payment(state, extra)
    for k, m in enumerate(tun.stand_ins):
        if m:
            discard_cards(state, k, m)
    for k in tun.revealed:
        discard_cards(state, k, 1)
    state.complete_claim(tun.tid, tun.paid, extra, tun.stand_ins)


def apply_abandon(state: State) -> None:
    tun = state.tunnel
    state.tunnel = None
    return_payment(state, tun.paid)
    hand = state.hands[state.current]
    for k, m in enumerate(tun.stand_ins):
        hand[k] += m
    for k in tun.revealed:
        discard_cards(state, k, 1)
    state.count("tunnels-abandoned")
    state.end_turn()


def _parse_tunnel(game: Any, args: list[str], state: State | None) -> list:
    if args == ["abandon"]:
        return [AbandonTunnel()]
    if len(args) >= 2 and args[0] == "pay":
        return [PayTunnel(parse_payment(game, "+".join(args[1:])))]
    raise NotationError("write `tunnel pay PAYMENT` or `tunnel abandon`")


class Tunnels(Mechanic):
    """Tunnels as a mechanic (mechanic.py). Its slice: the tunnel claim waiting for its extra cards
    (`tunnel`, a PendingTunnel, or None). It takes over the payment of a claim on a tunnel (pay_claim) and
    owns the tunnel phase. Switched on by a board with a tunnel."""

    name = "tunnels"
    fields = ("tunnel",)
    verbs = {"tunnel": _parse_tunnel}
    usage = "tunnel pay PAYMENT | tunnel abandon"
    phases = {PH_TUNNEL: legal}
    handlers = {
        (PH_TUNNEL, PayTunnel): apply_pay,
        (PH_TUNNEL, AbandonTunnel): lambda s, a: apply_abandon(s),
    }

    def enabled(self, variant, board) -> bool:
        return any(r.tunnel for r in board.routes)

    def setup(self, game: Any) -> None:
        game.tunnel_cache = {}  # interned PayTunnel actions

    def new(self, state: State) -> None:
        state.tunnel = None

    def copy(self, src: State, dst: State) -> None:
        dst.tunnel = src.tunnel.copy() if src.tunnel is not None else None

    def key(self, state: State) -> tuple:
        return (state.tunnel.key() if state.tunnel else None,)

    def cards_held(self, state: State) -> int:
        tun = state.tunnel
        return 0 if tun is None else len(tun.revealed) + sum(tun.paid[1:]) + sum(tun.stand_ins)

    def write(self, state: State, data: dict[str, Any]) -> None:
        tun = state.tunnel
        if tun is None:
            return
        t = state.t
        kinds = t.kinds
        out = data["pending"]["tunnel"] = {
            "route": t.route_ids[t.t_route[tun.tid]],
            "track": t.t_track[tun.tid],
            "paid": payment_text(t.payment(t.payment_id(*tun.paid))),
            "revealed": [kinds[k] for k in tun.revealed],
            "extra": tun.extra,
        }
        if tun.stand_ins:
            out["stand_ins"] = {kinds[k]: m for k, m in enumerate(tun.stand_ins) if m}

    def read_cards(self, rd: Any, state: State) -> None:
        tunnel = rd.sf.pending.tunnel
        if tunnel is None:
            return
        t = rd.t
        at = ("pending", "tunnel")
        tid = rd.track(tunnel.route, tunnel.track, at)
        paid = rd.payment_counts(tunnel.paid, at + ("paid",))
        if paid is None:
            rd.error("one colour plus locomotives", at + ("paid",))
        color, nc, nl, nb, npass = paid
        for k, c in ((color, nc), (t.LOCO, nl), (t.BIG, nb), (t.PASS, npass)):
            if c:
                rd.placed[k] += c
        revealed = [rd.card(x, at + ("revealed", i)) for i, x in enumerate(tunnel.revealed)]
        aside = [0] * t.NC
        for name, m in tunnel.stand_ins.items():
            k = rd.card(name, at + ("stand_ins", name), m, key=True)
            if k >= t.NC:
                rd.error("stand-ins are coloured train cards", at + ("stand_ins", name), key=True)
            aside[k] += m
        state.tunnel = PendingTunnel(tid, paid, revealed, tunnel.extra, color if nc else -1, tuple(aside) if any(aside) else ())

    def read(self, rd: Any, state: State) -> None:
        phase = rd.sf.phase
        if phase == "tunnel" and state.tunnel is None:
            rd.error("phase tunnel needs pending.tunnel", ("phase",))
        if phase != "tunnel" and state.tunnel is not None:
            rd.error("pending.tunnel is only meaningful in phase tunnel", ("pending", "tunnel"))

    def observe(self, view: Any, obs: dict[str, Any]) -> None:
        tun = view.tunnel
        if tun is not None:
            t = view.game.t
            tid, revealed, extra = tun
            obs["tunnel"] = {
                "route": t.route_ids[t.t_route[tid]],
                "track": t.t_track[tid],
                "revealed": [t.kinds[k] for k in revealed],
                "extra": extra,
            }

    def pay_claim(self, state: State, tid: int, counts: tuple, action: Any) -> bool:
        if not state.t.t_tunnel[tid]:
            return False
        start(state, tid, counts)
        return True


TUNNELS = Tunnels()
