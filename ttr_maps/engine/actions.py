"""The actions a player can take: small frozen, hashable values with a short text form.

An action names things the way the board does (route index, track index, place id,
card kind names), so the same action means the same thing in every state of a game.
A payment is a tuple of `(card kind, count)` pairs in the game's card order
(colours in the variant's order, then `locomotive`, `big-locomotive`,
`passenger`); zero counts are left out. `Game.parse_action` reads the text form
(docs/engine.md, "Action notation") and `Game.action_text` writes it with route ids.
"""

from __future__ import annotations

from dataclasses import dataclass

Payment = tuple[tuple[str, int], ...]

LOCOMOTIVE = "locomotive"
BIG_LOCOMOTIVE = "big-locomotive"
PASSENGER = "passenger"

# Short names accepted and written in payments: `2pink+1loco`.
KIND_ABBREVIATIONS = {"loco": LOCOMOTIVE, "locomotive": LOCOMOTIVE, "joker": LOCOMOTIVE, "wild": LOCOMOTIVE,
                      "big": BIG_LOCOMOTIVE, "big-locomotive": BIG_LOCOMOTIVE, "+4": BIG_LOCOMOTIVE,
                      "passenger": PASSENGER, "pass": PASSENGER}
KIND_SHORT = {LOCOMOTIVE: "loco", BIG_LOCOMOTIVE: "big", PASSENGER: "passenger"}


def payment_text(payment: Payment) -> str:
    """`2pink+1loco`; `0` for an empty payment."""
    if not payment:
        return "0"
    return "+".join(f"{n}{KIND_SHORT.get(kind, kind)}" for kind, n in payment)


def payment_size(payment: Payment) -> int:
    return sum(n for _, n in payment)


class Action:
    """Base of every action. `str(action)` is its text form (route given by index)."""

    __slots__ = ()

    def text(self, route_id: str | None = None) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    """Take the face-up train card in `slot` (0-based)."""

    slot: int

    def text(self, route_id: str | None = None) -> str:
        return f"draw faceup {self.slot}"


@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Take the top card of the train deck."""

    def text(self, route_id: str | None = None) -> str:
        return "draw blind"


@dataclass(frozen=True, slots=True)
class ClaimTrack(Action):
    """Claim one track of a route, paying `payment` (a tunnel may ask for more)."""

    route: int
    track: int
    payment: Payment
    stand_ins: int = 0  # cards of the route paid by stand-ins instead (docs/rules.md#stand-ins), given next

    def text(self, route_id: str | None = None) -> str:
        name = route_id if route_id is not None else f"#{self.route}"
        return f"claim {name} {self.track} {claim_payment_text(self)}"


def claim_payment_text(claim: ClaimTrack) -> str:
    """`3red+1loco`, and `+2standin` when two of the route's cards are paid by stand-ins."""
    text = payment_text(claim.payment)
    if claim.stand_ins:
        text = ("" if text == "0" else text + "+") + f"{claim.stand_ins}standin"
    return text


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw destination tickets; `mix` is how many from each pile of an announced mix (else empty)."""

    mix: tuple[int, ...] = ()

    def text(self, route_id: str | None = None) -> str:
        return "tickets" + "".join(f" {n}" for n in self.mix)


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep the offered tickets at these positions (0-based, ascending); the rest go back."""

    indices: tuple[int, ...]

    def text(self, route_id: str | None = None) -> str:
        return "keep" + "".join(f" {i}" for i in self.indices)


@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """Build a station in `place`, paying `payment`."""

    place: str
    payment: Payment

    def text(self, route_id: str | None = None) -> str:
        return f"station {self.place} {payment_text(self.payment)}"


@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """Pay the extra cards a tunnel asked for; the claim completes."""

    payment: Payment

    def text(self, route_id: str | None = None) -> str:
        return f"tunnel pay {payment_text(self.payment)}"


@dataclass(frozen=True, slots=True)
class AbandonTunnel(Action):
    """Refuse the tunnel's extra cost: the paid cards return to hand and the turn ends."""

    def text(self, route_id: str | None = None) -> str:
        return "tunnel abandon"


@dataclass(frozen=True, slots=True)
class PlacePassenger(Action):
    """After a claim: put one unplaced passenger on an end of the claimed route."""

    place: str

    def text(self, route_id: str | None = None) -> str:
        return f"passenger {self.place}"


@dataclass(frozen=True, slots=True)
class SkipPassenger(Action):
    """After a claim: place no passenger."""

    def text(self, route_id: str | None = None) -> str:
        return "passenger skip"


@dataclass(frozen=True, slots=True)
class MovePassenger(Action):
    """Ride a passenger along one route, `path` = (from, to), paying one passenger card for an opponent's route.

    The first ride starts the journey of the player's passenger standing on `from`;
    further rides continue it until `StopPassenger` (or until no ride is possible),
    when the passenger leaves the game. A journey is several actions so that the
    legal moves stay few and exact (a whole-path list would be exponential).
    """

    path: tuple[str, ...]
    payment: Payment = ()

    def text(self, route_id: str | None = None) -> str:
        return "move " + " ".join(self.path) + (f" {payment_text(self.payment)}" if self.payment else "")


@dataclass(frozen=True, slots=True)
class StopPassenger(Action):
    """End the moving passenger's journey here; it leaves the game and the turn ends."""

    def text(self, route_id: str | None = None) -> str:
        return "move stop"


@dataclass(frozen=True, slots=True)
class SetFlag(Action):
    """After claiming a flag-coloured route: set one paid card of `color` in front of you."""

    color: str

    def text(self, route_id: str | None = None) -> str:
        return f"flag {self.color}"


@dataclass(frozen=True, slots=True)
class SkipFlag(Action):
    """After claiming a flag-coloured route: discard every paid card."""

    def text(self, route_id: str | None = None) -> str:
        return "flag skip"


@dataclass(frozen=True, slots=True)
class GiveStandIns(Action):
    """Give stand-in cards for a claim: cards of one colour, the colours in the game's order (docs/rules.md#stand-ins)."""

    payment: Payment

    def text(self, route_id: str | None = None) -> str:
        return f"standin {payment_text(self.payment)}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Only legal when nothing else is (docs/rules.md#no-legal-action)."""

    def text(self, route_id: str | None = None) -> str:
        return "pass"


ACTION_TYPES: tuple[type[Action], ...] = (
    DrawFaceUp, DrawBlind, ClaimTrack, DrawTickets, KeepTickets, BuildStation, PayTunnel, AbandonTunnel,
    PlacePassenger, SkipPassenger, MovePassenger, StopPassenger, SetFlag, SkipFlag, Pass, GiveStandIns,
)
