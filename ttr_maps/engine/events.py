"""What an action did, as the engine tells it: the events `State.apply` emits for whoever asks.

Set `state.events` to a list and every action appends what it did (a claim made with everything it
cost, tickets kept and returned, a station built); left None (the default, and on every clone), nothing
is collected and nothing costs. simulate's game recorder (ttr_maps/simulate/records.py) reads these
instead of comparing the state before and after each action. Places, tracks, card kinds and tickets are
the int indices of `game.t`; a payment is the engine's counts (colour, coloured cards, locomotives,
+4 locomotives, passenger cards).
"""

from __future__ import annotations

from typing import NamedTuple


class Claimed(NamedTuple):
    """A claim made: `seat` holds track `tid` now. It cost `paid` (the route's payment), a tunnel's `extra`
    payment (() if none) and the stand-in cards `given`, per card kind (() if none)."""

    seat: int
    tid: int
    paid: tuple
    extra: tuple = ()
    given: tuple | list = ()


class TicketsKept(NamedTuple):
    """`seat` kept `kept` of its offered tickets and returned `returned` (in the offer's order); `setup`:
    during the setup round."""

    seat: int
    kept: tuple
    returned: tuple
    setup: bool


class StationBuilt(NamedTuple):
    """`seat` built a station at `place`, paying `paid`."""

    seat: int
    place: int
    paid: tuple
