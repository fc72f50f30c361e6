"""What one seat may see: its own hand and tickets, and everything public. Written once, here.

`SeatObservation` is the observation's surface in the engine's int-indexed terms (places, routes, tracks,
card kinds and tickets as indices of `game.t`), and its `to_observation()` writes the plain dict with
names (JSON-ready) that `State.observation(seat)` returns. `SeatView` reads that surface from the
state's public parts when asked (nothing is copied up front). The bots' views (bots/view.py) are these:
a bot's `StateView` is a SeatView it may not keep, and its `ObservationView` reads the same surface back
from the dict.
"""

from __future__ import annotations

from operator import attrgetter, methodcaller
from typing import TYPE_CHECKING, Any

from .phases import PHASE_NAMES

if TYPE_CHECKING:
    from .state import State


def observation(state: State, seat: int) -> dict[str, Any]:
    """A plain dict (JSON-ready) of what `seat` knows. Hidden: deck order, others' hands and tickets, offers."""
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}")
    return SeatView(state, seat).to_observation()


class SeatObservation:
    """The observation's surface, int-indexed. Lists returned are copies the caller may keep."""

    __slots__ = ()

    game: Any  # the Game
    seat: int
    num_players: int

    # Subclasses implement these.
    @property
    def phase(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def final_round(self) -> bool: ...
    @property
    def current_player(self) -> int: ...
    @property
    def hand(self) -> list[int]: ...
    @property
    def tickets(self) -> list[int]: ...
    @property
    def offered(self) -> list[int]: ...
    @property
    def face_up(self) -> list[int]: ...
    @property
    def deck(self) -> int: ...
    @property
    def discards(self) -> int: ...
    @property
    def ticket_piles(self) -> dict[str, int]: ...
    @property
    def passengers(self) -> dict[int, int]: ...
    @property
    def goods(self) -> dict[int, list[int]]: ...
    @property
    def tunnel(self) -> tuple[int, list[int], int] | None: ...
    @property
    def journey(self) -> tuple[int, int] | None: ...
    def claims(self, p: int) -> list[int]: ...

    def claims_from(self, p: int, i: int) -> list[int]:
        """claims(p)[i:]: the seat's claims after its first i (a bot that kept count reads only the new ones)."""
        return self.claims(p)[i:]

    def claim_count(self, p: int) -> int: ...
    def trains(self, p: int) -> int: ...

    def claim_counts(self) -> list[int]:
        """claim_count of every seat, by seat, in one call."""
        return [self.claim_count(p) for p in range(self.num_players)]

    def cards(self, p: int) -> int: ...
    def ticket_count(self, p: int) -> int: ...
    def offered_count(self, p: int) -> int: ...
    def stations(self, p: int) -> list[int]: ...
    def stations_left(self, p: int) -> int: ...
    def score(self, p: int) -> int: ...
    def passengers_unplaced(self, p: int) -> int: ...
    def passengers_moved(self, p: int) -> int: ...
    def goods_taken(self, p: int) -> list[int]: ...
    def flag_cards(self, p: int) -> list[int]: ...
    def flag_sets(self, p: int) -> int: ...

    def to_observation(self) -> dict[str, Any]:
        """The observation as a plain dict with names: what `State.observation(seat)` returns."""
        t = self.game.t
        players = []
        for p in range(self.num_players):
            players.append(
                {
                    "cards": self.cards(p),
                    "tickets": self.ticket_count(p),
                    "offered": self.offered_count(p),
                    "trains": self.trains(p),
                    "score": self.score(p),
                    "claims": [[t.route_ids[t.t_route[tid]], t.t_track[tid]] for tid in self.claims(p)],
                }
            )
        obs: dict[str, Any] = {
            "seat": self.seat,
            "current_player": self.current_player,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "final_round": self.final_round,
            "hand": {t.kinds[k]: n for k, n in enumerate(self.hand) if n},
            "tickets": [t.ticket_keys[k] for k in self.tickets],
            "offered": [t.ticket_keys[k] for k in self.offered],
            "face_up": [t.kinds[k] if k >= 0 else None for k in self.face_up],
            "deck": self.deck,
            "discards": self.discards,
            "ticket_piles": self.ticket_piles,
            "players": players,
        }
        for m in self.game.known_mechanics:  # each mechanic's part (mechanic.py)
            m.observe(self, obs)
        return obs


class SeatView(SeatObservation):
    """One seat's observation read from the state's public fields when asked.

    Nothing is copied up front: a reader that needs three fields pays for three. Every read returns what
    the observation carries (copies the caller may keep), never a hidden part (the deck's order, other
    hands, other players' tickets or offers).
    """

    __slots__ = ("game", "seat", "num_players", "_s", "trains", "_hand_copy")

    def __init__(self, state: State, seat: int):
        self._s = state
        self.game = state.game
        self.seat = seat
        self.num_players = state.game.num_players
        # The two reads a planning bot makes most (several times a decision) are C calls, without a Python frame:
        # `trains(p)` is the state's trains-left list's own getter, `hand` the seat's hand list's own `copy`. The
        # state keeps these lists for its whole life (a clone has its own).
        self.trains = state.trains.__getitem__
        self._hand_copy = state.hands[seat].copy

    # A plain field of the state is read by a C getter (attrgetter): no Python call per read (a bot reads the
    # turn and phase several times a decision).
    phase = property(attrgetter("_s.phase"))
    turn = property(attrgetter("_s.turns"))
    final_round = property(lambda self: self._s.final_left > 0)
    current_player = property(lambda self: self._s.current_player())
    hand = property(methodcaller("_hand_copy"))
    tickets = property(lambda self: self._s.kept[self.seat][:])
    offered = property(lambda self: self._s.offers[self.seat][:])
    face_up = property(lambda self: self._s.face_up[:])
    deck = property(lambda self: len(self._s.deck))
    discards = property(attrgetter("_s.discard_total"))
    ticket_piles = property(lambda self: {name: len(cards) for name, cards in self._s.piles.items()})
    # Sorted by place, as in the observation (a bot iterating them sees the same order either way).
    passengers = property(lambda self: dict(sorted(self._s.passenger_at.items())))

    @property
    def goods(self) -> dict[int, list[int]]:
        s = self._s
        goods = s.goods
        return {place: [v for i in stacks for v in reversed(goods[i])] for place, stacks in s.goods_at.items()}

    @property
    def tunnel(self) -> tuple[int, list[int], int] | None:
        tun = self._s.tunnel
        return None if tun is None else (tun.tid, list(tun.revealed), tun.extra)

    @property
    def journey(self) -> tuple[int, int] | None:
        j = self._s.journey
        return None if j is None else (j.start, j.at)

    def claims(self, p: int) -> list[int]:
        return self._s.claims[p][:]

    def claims_from(self, p: int, i: int) -> list[int]:
        return self._s.claims[p][i:]  # (one copy of the new claims, not the whole list first)

    def claim_count(self, p: int) -> int:
        return len(self._s.claims[p])

    def claim_counts(self) -> list[int]:
        return list(map(len, self._s.claims))

    def cards(self, p: int) -> int:
        return sum(self._s.hands[p])

    def ticket_count(self, p: int) -> int:
        return len(self._s.kept[p])

    def offered_count(self, p: int) -> int:
        return len(self._s.offers[p])

    def stations(self, p: int) -> list[int]:
        s = self._s
        return s.stations[p][:] if s.t.station_costs else []

    def stations_left(self, p: int) -> int:
        s = self._s
        return len(s.t.station_costs) - (len(s.stations[p]) if s.t.station_costs else 0)

    def score(self, p: int) -> int:
        return self._s.scores[p]

    def passengers_unplaced(self, p: int) -> int:
        return self._s.passengers_unplaced[p]

    def passengers_moved(self, p: int) -> int:
        return self._s.passengers_moved[p]

    def goods_taken(self, p: int) -> list[int]:
        return self._s.goods_taken[p][:]

    def flag_cards(self, p: int) -> list[int]:
        return self._s.flag_cards[p][:]

    def flag_sets(self, p: int) -> int:
        return self._s.flag_sets[p]
