"""What a bot sees: one seat's observation, in the engine's int-indexed terms.

A bot is handed a view and the list of legal actions, nothing else. A view
carries exactly what `State.observation(seat)` carries (no deck order, no other
hand, no other player's tickets or offers), with places, routes, tracks, card
kinds and tickets as the int indices of `game.t` (the engine's tables of the
board and variant, which are public) so that bots need not parse names on every
decision.

Two views with one surface:
- `ObservationView(game, obs)` is built from the observation dict itself: by
  construction it can know nothing more.
- `StateView(state, seat)` reads the same fields from the state's public parts
  when the bot asks (the engine's observe.SeatView, which also writes the
  observation dict: the observation is written once, in ttr_maps/engine/observe.py) (the observation dict costs more to build than a planning
  bot's whole decision, and most decisions read a few fields). It is for one
  decision: the runner closes it when the bot has answered, and a closed view
  holds no reference to the state and refuses every read. `tests/test_bots.py`
  checks that a StateView and the ObservationView of its dict answer alike (and
  the dict read back is written again unchanged, orders included) on many
  positions of every variant, that positions differing only
  in hidden information give a seat the same view, that a closed view leads to
  nothing of the state, and the runner's `observation="engine"` mode
  (ObservationView of the real dict) gives byte-identical game records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.observe import SeatObservation, SeatView
from ..engine.phases import (
    PH_FLAG as FLAG,
    PH_JOURNEY as JOURNEY,
    PH_KEEP as KEEP,
    PH_OVER as OVER,
    PH_PASSENGER as PASSENGER,
    PH_SECOND as SECOND,
    PH_SETUP_MIX as MIX,
    PH_TUNNEL as TUNNEL,
    PH_TURN as TURN,
    PHASE_NAMES as PHASES,
)

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["FLAG", "JOURNEY", "KEEP", "MIX", "OVER", "PASSENGER", "PHASES", "SECOND", "TUNNEL", "TURN",
           "ClosedView", "ObservationView", "StateView", "View", "ViewClosed"]

_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}

# The shared surface of every view (int-indexed; lists returned are copies the bot may keep).
View = SeatObservation


class StateView(SeatView):
    """One seat's observation read from the state's public fields when the bot asks (see the module docstring).

    Nothing is copied up front: a decision that reads three fields pays for three.
    The view is for one decision: the runner calls `close()` once the bot has
    answered, which drops the reference to the state and turns the view into a
    `ClosedView`, whose every read raises. A bot that keeps a view therefore
    keeps nothing of the game, and cannot watch it move on. Every read returns
    what `state.observation(seat)` carries (copies the bot may keep), never a
    hidden part (the deck's order, other hands, other players' tickets or offers).
    """

    __slots__ = ()

    def close(self) -> None:
        """End the decision: forget the state; every later read raises."""
        self._s = None
        self.trains = self._hand_copy = None  # (they read the state's lists)
        self.__class__ = ClosedView


def _closed(*args, **kwargs):
    raise ViewClosed("a view is for the one decision it was given for; read what you need during that decision")


class ViewClosed(RuntimeError):
    """A bot read a view after the decision it was made for."""


class ClosedView(StateView):
    """A StateView after its decision: it holds no state, and every read raises ViewClosed."""

    __slots__ = ()


for _name in ("phase", "turn", "final_round", "current_player", "hand", "tickets", "offered", "face_up", "deck",
              "discards", "ticket_piles", "passengers", "goods", "tunnel", "journey"):
    setattr(ClosedView, _name, property(_closed))
for _name in ("claims", "claims_from", "claim_count", "claim_counts", "trains", "cards", "ticket_count", "offered_count", "stations", "stations_left",
              "score", "passengers_unplaced", "passengers_moved", "goods_taken", "flag_cards", "flag_sets"):
    setattr(ClosedView, _name, _closed)
ClosedView.close = lambda self: None  # type: ignore[method-assign]


class ObservationView(View):
    """A view built from `state.observation(seat)` (a dict of names), converted to int indices once."""

    def __init__(self, game: Game, obs: dict[str, Any]):
        t = game.t
        self.game = game
        self.seat = obs["seat"]
        self.num_players = len(obs["players"])
        self._phase = _PHASE_INDEX[obs["phase"]]
        self._turn = obs["turn"]
        self._final = obs["final_round"]
        self._current = obs["current_player"]
        hand = [0] * t.NK
        for kind, n in obs["hand"].items():
            hand[t.kind_index[kind]] = n
        self._hand = hand
        self._tickets = [t.ticket_index[k] for k in obs["tickets"]]
        self._offered = [t.ticket_index[k] for k in obs["offered"]]
        self._face_up = [t.kind_index[k] if k is not None else -1 for k in obs["face_up"]]
        self._deck = obs["deck"]
        self._discards = obs["discards"]
        self._piles = dict(obs["ticket_piles"])
        self._passengers = {t.place_index[x]: p for x, p in obs["passengers"].items()}
        self._goods = {t.place_index[x]: list(v) for x, v in obs["goods"].items()}
        tun = obs.get("tunnel")
        self._tunnel = None
        if tun is not None:
            tid = t.route_tids[t.route_by_id[tun["route"]]][tun["track"]]
            self._tunnel = (tid, [t.kind_index[k] for k in tun["revealed"]], tun["extra"])
        j = obs.get("journey")
        self._journey = None if j is None else (t.place_index[j["start"]], t.place_index[j["at"]])
        self._players = []
        for pl in obs["players"]:
            self._players.append(
                {
                    "cards": pl["cards"],
                    "tickets": pl["tickets"],
                    "offered": pl["offered"],
                    "trains": pl["trains"],
                    "stations_left": pl["stations_left"],
                    "score": pl["score"],
                    "claims": [t.route_tids[t.route_by_id[rid]][k] for rid, k in pl["claims"]],
                    "stations": [t.place_index[x] for x in pl["stations"]],
                    "passengers_unplaced": pl["passengers_unplaced"],
                    "passengers_moved": pl["passengers_moved"],
                    "goods": list(pl["goods"]),
                    "flag_cards": [t.kind_index[c] for c in pl["flag_cards"]],
                    "flag_sets": pl["flag_sets"],
                }
            )

    phase = property(lambda self: self._phase)
    turn = property(lambda self: self._turn)
    final_round = property(lambda self: self._final)
    current_player = property(lambda self: self._current)
    hand = property(lambda self: self._hand[:])
    tickets = property(lambda self: self._tickets[:])
    offered = property(lambda self: self._offered[:])
    face_up = property(lambda self: self._face_up[:])
    deck = property(lambda self: self._deck)
    discards = property(lambda self: self._discards)
    ticket_piles = property(lambda self: dict(self._piles))
    passengers = property(lambda self: dict(self._passengers))
    goods = property(lambda self: {k: v[:] for k, v in self._goods.items()})
    tunnel = property(lambda self: None if self._tunnel is None else (self._tunnel[0], self._tunnel[1][:], self._tunnel[2]))
    journey = property(lambda self: self._journey)

    def claims(self, p: int) -> list[int]:
        return self._players[p]["claims"][:]

    def claims_from(self, p: int, i: int) -> list[int]:
        return self._players[p]["claims"][i:]

    def claim_count(self, p: int) -> int:
        return len(self._players[p]["claims"])

    def trains(self, p: int) -> int:
        return self._players[p]["trains"]

    def cards(self, p: int) -> int:
        return self._players[p]["cards"]

    def ticket_count(self, p: int) -> int:
        return self._players[p]["tickets"]

    def offered_count(self, p: int) -> int:
        return self._players[p]["offered"]

    def stations(self, p: int) -> list[int]:
        return self._players[p]["stations"][:]

    def stations_left(self, p: int) -> int:
        return self._players[p]["stations_left"]

    def score(self, p: int) -> int:
        return self._players[p]["score"]

    def passengers_unplaced(self, p: int) -> int:
        return self._players[p]["passengers_unplaced"]

    def passengers_moved(self, p: int) -> int:
        return self._players[p]["passengers_moved"]

    def goods_taken(self, p: int) -> list[int]:
        return self._players[p]["goods"][:]

    def flag_cards(self, p: int) -> list[int]:
        return self._players[p]["flag_cards"][:]

    def flag_sets(self, p: int) -> int:
        return self._players[p]["flag_sets"]
