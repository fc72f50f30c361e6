"""The record of one game (one JSON line of `records.jsonl`), collected while the game is played.

A record holds what a designer asks of a game: who sat where with which bot,
final scores with their breakdown, the winner(s), turns and rounds, each
player's tickets (kept, completed, returned), every claim and station with the
turn it was made on, the cards taken face up and paid, and the engine's
open-case counters. docs/simulate.md lists every field.
"""

from __future__ import annotations

import weakref
from itertools import repeat
from typing import TYPE_CHECKING

from ..boardgraph import spaces, tight_edges, weighted
from ..engine.actions import DrawBlind, DrawFaceUp, DrawTickets
from ..engine.events import Claimed, StationBuilt, TicketsKept

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game, State

RECORD_FORMAT = "ttr-simulate-record/1"

class TicketPaths:
    """For each ticket, the routes on some shortest path (by spaces) between its ends on the empty board,
    passing through no country: what "a claim blocked a ticket" is measured against.

    Worked out for a ticket the first time a record asks (a game keeps a few tickets), by the board graph's
    search from one end that stops at the other, then a walk back over the tight routes
    (`boardgraph.spaces`, `boardgraph.tight_edges`): memory and time follow the tickets kept, not the
    board's places squared (an all-pairs table ran a 20,000-place board out of memory).
    """

    def __init__(self, game: Game):
        t = game.t
        self.length = t.route_length
        self.country = t.is_country
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(t.NP)]  # (route, other end)
        for r, (a, b) in enumerate(t.route_ends):
            if a != b:
                self.adj[a].append((r, b))
                self.adj[b].append((r, a))
        self.wadj = weighted(self.adj, self.length)  # (other end, spaces)
        self.longest = max(self.length, default=0)
        self.ends = [(t.place_index[k.from_], t.place_index[k.to]) for k in t.tickets]
        self._known: dict[int, frozenset[int]] = {}

    def __getitem__(self, ticket: int) -> frozenset[int]:
        routes = self._known.get(ticket)
        if routes is None:
            routes = self._known[ticket] = self._routes(*self.ends[ticket])
        return routes

    def _routes(self, a: int, b: int) -> frozenset[int]:
        dist = spaces(self.wadj, self.country, a, {b}, longest=self.longest)
        return frozenset(r for r, _, _ in tight_edges(self.adj, self.country, self.length, dist, a, b))


_PATHS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ticket_route_sets(game: Game) -> TicketPaths:
    """The ticket paths of `game`, shared by every record of it (built once per Game)."""
    paths = _PATHS.get(game)
    if paths is None:
        paths = _PATHS[game] = TicketPaths(game)
    return paths


class GameRecorder:
    """Watches one game action by action and writes its record at the end: the cards drawn (`before` each
    `apply`) and what each action did, from the engine's events (`after` it).

    The runner counts a card draw itself (the most common action; a call less each): a face-up card's kind
    in `face_up[seat]`, a blind draw in `blind[seat]`, as `before` does."""

    def __init__(self, game: Game, state: State, bots: list[str], seed: int, index: int):
        self.game = game
        self.state = state
        self.bots = bots
        self.seed = seed
        self.index = index
        n = game.num_players
        t = game.t
        self.claims: list[list] = []
        self.stations: list[list] = []
        self.kept: list[list] = [[] for _ in range(n)]  # (ticket key, kept at setup, turn)
        self.returned: list[list[str]] = [[] for _ in range(n)]
        self.face_up = [[0] * t.NK for _ in range(n)]
        self.blind = [0] * n
        self.paid = [[0] * t.NK for _ in range(n)]
        self.ticket_draws = [0] * n
        self.capped = False
        self._turn = 0
        self.t = t
        self._loco, self._big, self._pass = t.LOCO, t.BIG, t.PASS
        self._shortest = ticket_route_sets(game)
        # Per seat: the routes on a shortest path of any ticket it kept (a claim of one blocks that seat).
        self._on_paths: list[set[int]] = [set().union(*(self._shortest[k] for k in state.kept[p])) for p in range(n)]
        self.events: list = []
        state.events = self.events  # the engine tells what each action did (ttr_maps/engine/events.py)

    def before(self, a: Action) -> None:
        s = self.state
        ty = type(a)
        # A card draw (most actions) only counts the card: it claims nothing and `after` skips it.
        if ty is DrawFaceUp:
            k = s.face_up[a.slot]
            if k >= 0:
                self.face_up[s.current][k] += 1
            return
        if ty is DrawBlind:
            self.blind[s.current] += 1
            return
        self._turn = s.turns
        if ty is DrawTickets and not s.in_setup:
            self.ticket_draws[s.current] += 1

    def after(self, a: Action) -> None:
        events = self.events
        if not events:
            return
        t = self.state.t
        for e in events:
            ty = type(e)
            if ty is Claimed:
                self._claimed(e)
            elif ty is TicketsKept:
                p = e.seat
                self.kept[p].extend((t.ticket_keys[k], e.setup, self._turn) for k in e.kept)
                self.returned[p].extend(t.ticket_keys[k] for k in e.returned)
                on_paths = self._on_paths[p]
                for k in e.kept:
                    on_paths.update(self._shortest[k])
            elif ty is StationBuilt:
                self.stations.append([self._turn, e.seat, t.place_ids[e.place]])
                self._add_paid(self.paid[e.seat], e.paid)
        events.clear()

    def _claimed(self, e: Claimed) -> None:
        t = self.t
        p, tid = e.seat, e.tid
        r = t.t_route[tid]
        on_paths = self._on_paths
        # The other seats with the route on a path of their tickets (sets' own test, no Python loop).
        blocked = sum(map(set.__contains__, on_paths, repeat(r)))
        if r in on_paths[p]:
            blocked -= 1
        self.claims.append([self._turn, p, t.route_ids[r], t.t_track[tid], blocked])
        paid = self.paid[p]
        color, nc, nl, nb, npass = e.paid  # _add_paid, inlined
        if nc:
            paid[color] += nc
        if nl:
            paid[self._loco] += nl
        if nb:
            paid[self._big] += nb
        if npass:
            paid[self._pass] += npass
        if e.extra:
            self._add_paid(paid, e.extra)
        if e.given:
            for k, m in enumerate(e.given):
                paid[k] += m

    def _add_paid(self, paid: list[int], counts: tuple) -> None:
        color, nc, nl, nb, npass = counts
        if nc:
            paid[color] += nc
        paid[self._loco] += nl
        paid[self._big] += nb
        paid[self._pass] += npass

    def record(self) -> dict:
        s = self.state
        t = s.t
        game = self.game
        n = game.num_players
        sheet = s.score_sheet() if s.is_terminal() else None
        kinds = t.kinds
        seats = []
        for p in range(n):
            pl = sheet.players[p] if sheet is not None else None
            completed = {t.ticket_keys[k] for k in pl.completed} if pl else set()
            seats.append(
                {
                    "seat": p,
                    "bot": self.bots[p],
                    "score": pl.total if pl else s.scores[p],
                    "breakdown": dict(pl.breakdown) if pl else {},
                    "winner": p in (sheet.winners if sheet else ()),
                    "trains_left": s.trains[p],
                    "tickets": [
                        {"ticket": key, "setup": setup, "turn": turn, "completed": key in completed}
                        for key, setup, turn in self.kept[p]
                    ],
                    "tickets_returned": self.returned[p],
                    "ticket_draws": self.ticket_draws[p],
                    "longest_trail": pl.longest_trail if pl else 0,
                    "stations": [t.place_ids[x] for x in s.stations[p]],
                    "journeys": s.passengers_moved[p],
                    "goods": list(s.goods_taken[p]),
                    "flag_sets": s.flag_sets[p],
                    "cards_face_up": {kinds[k]: c for k, c in enumerate(self.face_up[p]) if c},
                    "cards_blind": self.blind[p],
                    "cards_paid": {kinds[k]: c for k, c in enumerate(self.paid[p]) if c},
                }
            )
        if self.capped:
            end = "capped"
        elif s.counters.get("all-passed", 0):
            end = "all-passed"
        else:
            end = "trains"
        return {
            "format": RECORD_FORMAT,
            "game": self.index,
            "seed": self.seed,
            "players": n,
            "bots": list(self.bots),
            # The first player's seat, where the variant does not always start at seat 0 (players.first).
            **({"first_player": s.first} if game.variant.players.first != "seat-0" else {}),
            "winners": list(sheet.winners) if sheet else [],
            "tie_break": sheet.tie_break_used if sheet else None,
            "turns": s.turns,
            "rounds": -(-s.turns // n),
            "actions": len(s.history),
            "end": end,
            "seats": seats,
            "claims": self.claims,
            "stations": self.stations,
            "counters": dict(sorted(s.counters.items())),
        }
