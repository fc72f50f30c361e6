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
- `StateView(state, seat)` copies the same fields from the state's public
  parts and keeps no reference to the state (the observation dict costs more
  to build than a planning bot's whole decision). `tests/test_bots.py` checks
  `StateView(...).to_observation() == state.observation(seat)` (orders
  included) on many positions of every variant, that nothing a view refers to
  leads to hidden information, and the runner's `observation="engine"` mode
  (ObservationView of the real dict) gives byte-identical game records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game, State

# Phases, as in ttr_maps.engine.game.PHASE_NAMES.
PHASES = ("turn", "second-draw", "keep-tickets", "announce-mix", "tunnel", "flag", "place-passenger", "journey", "over")
TURN, SECOND, KEEP, MIX, TUNNEL, FLAG, PASSENGER, JOURNEY, OVER = range(9)
_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}


class View:
    """The shared surface. Lists returned are copies the bot may keep."""

    __slots__ = ()

    game: Game
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
    def claim_count(self, p: int) -> int: ...
    def trains(self, p: int) -> int: ...
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
        """The view written back as the engine's observation dict (for the equivalence tests)."""
        t = self.game.t
        players = []
        for p in range(self.num_players):
            players.append(
                {
                    "cards": self.cards(p),
                    "tickets": self.ticket_count(p),
                    "offered": self.offered_count(p),
                    "trains": self.trains(p),
                    "stations_left": self.stations_left(p),
                    "score": self.score(p),
                    "claims": [[t.route_ids[t.t_route[tid]], t.t_track[tid]] for tid in self.claims(p)],
                    "stations": [t.place_ids[x] for x in self.stations(p)],
                    "passengers_unplaced": self.passengers_unplaced(p),
                    "passengers_moved": self.passengers_moved(p),
                    "goods": self.goods_taken(p),
                    "flag_cards": [t.kinds[c] for c in self.flag_cards(p)],
                    "flag_sets": self.flag_sets(p),
                }
            )
        obs: dict[str, Any] = {
            "seat": self.seat,
            "current_player": self.current_player,
            "phase": PHASES[self.phase],
            "turn": self.turn,
            "final_round": self.final_round,
            "hand": {t.kinds[k]: n for k, n in enumerate(self.hand) if n},
            "tickets": [t.ticket_keys[k] for k in self.tickets],
            "offered": [t.ticket_keys[k] for k in self.offered],
            "face_up": [t.kinds[k] if k >= 0 else None for k in self.face_up],
            "deck": self.deck,
            "discards": self.discards,
            "ticket_piles": self.ticket_piles,
            "passengers": {t.place_ids[x]: p for x, p in self.passengers.items()},
            "goods": {t.place_ids[x]: v for x, v in self.goods.items()},
            "players": players,
        }
        tun = self.tunnel
        if tun is not None:
            tid, revealed, extra = tun
            obs["tunnel"] = {
                "route": t.route_ids[t.t_route[tid]],
                "track": t.t_track[tid],
                "revealed": [t.kinds[k] for k in revealed],
                "extra": extra,
            }
        j = self.journey
        if j is not None:
            obs["journey"] = {"start": t.place_ids[j[0]], "at": t.place_ids[j[1]]}
        return obs


class StateView(View):
    """One seat's observation copied from the state's public fields (see the module docstring).

    The view keeps no reference to the state: every field is copied when the
    view is made (small int lists, far cheaper than the observation dict), so
    nothing hidden (the deck's order, other hands, other players' tickets or
    offers) can be reached from it. `tests/test_bots.py` walks everything a view
    refers to and checks that.
    """

    __slots__ = (
        "game", "seat", "num_players", "_phase", "_turn", "_final", "_current", "_hand", "_tickets", "_offered",
        "_face_up", "_deck", "_discards", "_piles", "_passengers", "_goods", "_tunnel", "_journey", "_claims",
        "_trains", "_cards", "_ticket_counts", "_offered_counts", "_stations", "_stations_total", "_scores",
        "_unplaced", "_moved", "_goods_taken", "_flag_cards", "_flag_sets",
    )

    def __init__(self, state: State, seat: int):
        s = state
        self.game = s.game
        self.seat = seat
        self.num_players = s.game.num_players
        self._phase = s.phase
        self._turn = s.turns
        self._final = s.final_left > 0
        self._current = s.current_player()
        self._hand = tuple(s.hands[seat])
        self._tickets = tuple(s.kept[seat])
        self._offered = tuple(s.offers[seat])
        self._face_up = tuple(s.face_up)
        self._deck = len(s.deck)
        self._discards = s.discard_total
        self._piles = {name: len(cards) for name, cards in s.piles.items()}
        # Sorted by place, as in the observation (a bot iterating them sees the same order either way).
        self._passengers = tuple(sorted(s.passenger_at.items())) if s.passenger_at else ()
        if s.goods_at:
            goods = s.goods
            self._goods = tuple((place, tuple(v for i in stacks for v in reversed(goods[i]))) for place, stacks in s.goods_at.items())
        else:
            self._goods = ()
        tun = s.tunnel
        self._tunnel = None if tun is None else (tun.tid, tuple(tun.revealed), tun.extra)
        j = s.journey
        self._journey = None if j is None else (j.start, j.at)
        self._claims = tuple(tuple(c) for c in s.claims)
        self._trains = tuple(s.trains)
        self._cards = tuple(map(sum, s.hands))
        self._ticket_counts = tuple(map(len, s.kept))
        self._offered_counts = tuple(map(len, s.offers))
        self._stations = tuple(tuple(x) for x in s.stations) if s.t.station_costs else ()
        self._stations_total = len(s.t.station_costs)
        self._scores = tuple(s.scores)
        self._unplaced = tuple(s.passengers_unplaced)
        self._moved = tuple(s.passengers_moved)
        self._goods_taken = tuple(tuple(g) for g in s.goods_taken)
        self._flag_cards = tuple(tuple(f) for f in s.flag_cards)
        self._flag_sets = tuple(s.flag_sets)

    phase = property(lambda self: self._phase)
    turn = property(lambda self: self._turn)
    final_round = property(lambda self: self._final)
    current_player = property(lambda self: self._current)
    hand = property(lambda self: list(self._hand))
    tickets = property(lambda self: list(self._tickets))
    offered = property(lambda self: list(self._offered))
    face_up = property(lambda self: list(self._face_up))
    deck = property(lambda self: self._deck)
    discards = property(lambda self: self._discards)
    ticket_piles = property(lambda self: dict(self._piles))
    passengers = property(lambda self: dict(self._passengers))
    goods = property(lambda self: {place: list(v) for place, v in self._goods})
    tunnel = property(lambda self: None if self._tunnel is None else (self._tunnel[0], list(self._tunnel[1]), self._tunnel[2]))
    journey = property(lambda self: self._journey)

    def claims(self, p: int) -> list[int]:
        return list(self._claims[p])

    def claim_count(self, p: int) -> int:
        return len(self._claims[p])

    def trains(self, p: int) -> int:
        return self._trains[p]

    def cards(self, p: int) -> int:
        return self._cards[p]

    def ticket_count(self, p: int) -> int:
        return self._ticket_counts[p]

    def offered_count(self, p: int) -> int:
        return self._offered_counts[p]

    def stations(self, p: int) -> list[int]:
        return list(self._stations[p]) if self._stations else []

    def stations_left(self, p: int) -> int:
        return self._stations_total - (len(self._stations[p]) if self._stations else 0)

    def score(self, p: int) -> int:
        return self._scores[p]

    def passengers_unplaced(self, p: int) -> int:
        return self._unplaced[p]

    def passengers_moved(self, p: int) -> int:
        return self._moved[p]

    def goods_taken(self, p: int) -> list[int]:
        return list(self._goods_taken[p])

    def flag_cards(self, p: int) -> list[int]:
        return list(self._flag_cards[p])

    def flag_sets(self, p: int) -> int:
        return self._flag_sets[p]


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
