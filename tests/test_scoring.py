"""Final scoring: tickets, stations, countries, bonuses, tie-breaks (on small boards built here)."""

from __future__ import annotations

import pytest

from ttr_maps.engine.position import PlayerPosition, Position, all_tickets
from ttr_maps.engine.scoring import BREAKDOWN_KEYS, ScoringError, final_score
from ttr_maps.model import Board, Variant


def make_board(routes, tickets=(), countries=()):
    """A board from `(from, to, length)` routes (tracks: one gray each, or a list of colours as 4th item)."""
    names = sorted({p for r in routes for p in r[:2]} | {p for t in tickets for p in t[:2]})
    return Board.model_validate(
        {
            "format": "ttr-board/1",
            "meta": {"title": "test"},
            "places": [
                {"id": n, "name": n, "x": i, "y": 0, "kind": "country" if n in countries else "city"}
                for i, n in enumerate(names)
            ],
            "routes": [
                {"from": r[0], "to": r[1], "length": r[2], "tracks": list(r[3]) if len(r) > 3 else ["gray"]} for r in routes
            ],
            "tickets": [{"from": t[0], "to": t[1], "points": t[2], "decks": ["main"]} for t in tickets],
        }
    )


def make_variant(**rules):
    data = {"format": "ttr-variant/1", "name": "test", "board": "test.yaml"}
    data.update(rules)
    return Variant.model_validate(data)


USA_RULES = {"scoring": {"bonuses": {"longest_path": 10}, "tie_breaks": ["most-tickets", "longest-path"]}}
EUROPE_RULES = {
    "stations": {"costs": [1, 2, 3], "unused_points": 4},
    "scoring": {
        "routes": {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21},
        "bonuses": {"longest_path": 10},
        "tie_breaks": ["most-tickets", "fewest-stations", "longest-path"],
    },
}


class Game:
    """A board plus helpers to name routes and tickets by their ends."""

    def __init__(self, board, variant):
        self.board, self.variant = board, variant
        self.tickets = all_tickets(variant, board)

    def route(self, a, b, track=0):
        for i, r in enumerate(self.board.routes):
            if {r.from_, r.to} == {a, b}:
                return (i, track)
        raise KeyError((a, b))

    def ticket(self, a, b):
        return next(i for i, t in enumerate(self.tickets) if {t.from_, t.to} == {a, b})

    def player(self, name, routes=(), tickets=(), **kw):
        return PlayerPosition(
            claims=tuple(self.route(*r) for r in routes),
            tickets=tuple(self.ticket(*t) for t in tickets),
            name=name,
            **kw,
        )

    def score(self, *players):
        sheet = final_score(self.variant, self.board, Position(tuple(players)))
        for p in sheet.players:
            assert set(p.breakdown) == set(BREAKDOWN_KEYS)
            assert p.total == sum(p.breakdown.values())
        return sheet


# --- routes, tickets, longest path ----------------------------------------------


def test_routes_score_by_the_table_and_tickets_add_or_subtract():
    g = Game(make_board([("a", "b", 3), ("b", "c", 4), ("d", "e", 1)], [("a", "c", 9), ("a", "e", 5)]), make_variant())
    sheet = g.score(g.player("Ann", [("a", "b"), ("b", "c")], [("a", "c"), ("a", "e")]))
    ann = sheet.players[0]
    assert ann.breakdown["routes"] == 4 + 7
    assert ann.breakdown["tickets_completed"] == 9
    assert ann.breakdown["tickets_failed"] == -5
    assert ann.completed == (g.ticket("a", "c"),)
    assert ann.failed == (g.ticket("a", "e"),)


def test_route_points_scored_in_play_replace_the_table():
    g = Game(make_board([("a", "b", 3)]), make_variant())
    sheet = g.score(g.player("Ann", [("a", "b")], route_points=17))
    assert sheet.players[0].breakdown["routes"] == 17


def test_usa_longest_path_bonus_goes_to_the_rulebook_loop():
    g = Game(
        make_board(
            [
                ("new-york", "pittsburgh", 2),
                ("pittsburgh", "chicago", 3),
                ("chicago", "toronto", 4),
                ("toronto", "pittsburgh", 2),
                ("pittsburgh", "nashville", 4),
                ("chicago", "saint-louis", 2),
                ("seattle", "portland", 1),
                ("portland", "san-francisco", 5),
                ("san-francisco", "los-angeles", 3),
                ("los-angeles", "el-paso", 6),
            ]
        ),
        make_variant(**USA_RULES),
    )
    loop = g.player(
        "Loop",
        [("new-york", "pittsburgh"), ("pittsburgh", "chicago"), ("chicago", "toronto"), ("toronto", "pittsburgh"), ("pittsburgh", "nashville")],
    )
    line = g.player("Line", [("seattle", "portland"), ("portland", "san-francisco"), ("san-francisco", "los-angeles")])
    sheet = g.score(loop, line)
    assert sheet.players[0].longest_trail == 15
    assert sheet.players[1].longest_trail == 9
    assert sheet.players[0].breakdown["longest_path"] == 10
    assert sheet.players[1].breakdown["longest_path"] == 0


def test_longest_path_bonus_is_shared_by_a_tie():
    g = Game(make_board([("a", "b", 4), ("c", "d", 4), ("e", "f", 2)]), make_variant(**USA_RULES))
    sheet = g.score(g.player("A", [("a", "b")]), g.player("B", [("c", "d")]), g.player("C", [("e", "f")]))
    assert [p.breakdown["longest_path"] for p in sheet.players] == [10, 10, 0]


def test_no_longest_path_bonus_when_nobody_built_anything():
    g = Game(make_board([("a", "b", 4)]), make_variant(**USA_RULES))
    sheet = g.score(g.player("A"), g.player("B"))
    assert [p.breakdown["longest_path"] for p in sheet.players] == [0, 0]


# --- stations -------------------------------------------------------------------

STATION_BOARD = [("a", "b", 2), ("b", "c", 3), ("b", "d", 3), ("c", "e", 2), ("f", "g", 1)]


def test_station_borrowing_is_searched_jointly_not_greedily():
    # Alone, the station at b would borrow b-d (completes a-d, 8 points). But together with the station
    # at e (which can only borrow c-e), borrowing b-c completes a-e (10): +10-8 beats +8-10.
    g = Game(make_board(STATION_BOARD, [("a", "d", 8), ("a", "e", 10)]), make_variant(**EUROPE_RULES))
    ann = g.player("Ann", [("a", "b")], [("a", "d"), ("a", "e")], stations=("b", "e"))
    bob = g.player("Bob", [("b", "c"), ("b", "d"), ("c", "e")])
    sheet = g.score(ann, bob)
    a = sheet.players[0]
    assert a.breakdown["tickets_completed"] == 10
    assert a.breakdown["tickets_failed"] == -8
    borrowed = {b.place: g.board.routes[b.route].ends for b in a.borrowings}
    assert set(borrowed["b"]) == {"b", "c"}
    assert set(borrowed["e"]) == {"c", "e"}


def test_one_station_borrows_one_route_for_all_tickets():
    # The station at b touches b-c and b-d; it may use only one of them, the same for both tickets.
    g = Game(make_board(STATION_BOARD, [("a", "c", 5), ("a", "d", 6)]), make_variant(**EUROPE_RULES))
    ann = g.player("Ann", [("a", "b")], [("a", "c"), ("a", "d")], stations=("b",))
    bob = g.player("Bob", [("b", "c"), ("b", "d")])
    a = g.score(ann, bob).players[0]
    assert a.breakdown["tickets_completed"] == 6
    assert a.breakdown["tickets_failed"] == -5


def test_station_next_to_no_opponent_route_is_worth_nothing():
    g = Game(make_board(STATION_BOARD, [("a", "c", 5)]), make_variant(**EUROPE_RULES))
    ann = g.player("Ann", [("a", "b"), ("f", "g")], [("a", "c")], stations=("f",))
    bob = g.player("Bob", [("c", "e")])
    a = g.score(ann, bob).players[0]
    assert a.breakdown["tickets_failed"] == -5
    assert [(b.place, b.route) for b in a.borrowings] == [("f", None)]


def test_own_routes_are_not_borrowed_and_stations_never_lengthen_the_trail():
    g = Game(make_board(STATION_BOARD, [("a", "e", 5)]), make_variant(**EUROPE_RULES))
    ann = g.player("Ann", [("a", "b"), ("c", "e")], [("a", "e")], stations=("b",))
    bob = g.player("Bob", [("b", "c")])
    a = g.score(ann, bob).players[0]
    assert a.breakdown["tickets_completed"] == 5
    assert a.longest_trail == 2  # a-b and c-e stay apart for the longest path


def test_unused_stations_score_their_points():
    g = Game(make_board(STATION_BOARD), make_variant(**EUROPE_RULES))
    sheet = g.score(g.player("A", stations=("b",)), g.player("B"), g.player("C", stations=("a", "c", "d")))
    assert [p.breakdown["stations"] for p in sheet.players] == [8, 12, 0]


# --- countries ------------------------------------------------------------------

COUNTRY_BOARD = [("a", "xland", 3), ("b", "xland", 2), ("c", "b", 4), ("a", "d", 1), ("d", "yland", 2)]


def test_country_ticket_is_complete_by_any_border_route():
    g = Game(make_board(COUNTRY_BOARD, [("c", "xland", 9), ("a", "yland", 7)], countries={"xland", "yland"}), make_variant())
    ann = g.player("Ann", [("c", "b"), ("b", "xland")], [("c", "xland"), ("a", "yland")])
    a = g.score(ann).players[0]
    assert a.completed == (g.ticket("c", "xland"),)
    assert a.breakdown["tickets_failed"] == -7


def test_no_ticket_is_completed_through_a_country():
    g = Game(make_board(COUNTRY_BOARD, [("a", "b", 6), ("d", "xland", 4)], countries={"xland", "yland"}), make_variant())
    ann = g.player("Ann", [("a", "xland"), ("b", "xland"), ("a", "d")], [("a", "b"), ("d", "xland")])
    a = g.score(ann).players[0]
    assert a.completed == (g.ticket("d", "xland"),)
    assert a.failed == (g.ticket("a", "b"),)
    assert a.longest_trail == 4  # d-a-X (or X-a-d): the trail stops in X


def test_country_to_country_ticket():
    g = Game(make_board(COUNTRY_BOARD, [("xland", "yland", 12)], countries={"xland", "yland"}), make_variant())
    ann = g.player("Ann", [("a", "xland"), ("a", "d"), ("d", "yland")], [("xland", "yland")])
    assert g.score(ann).players[0].breakdown["tickets_completed"] == 12


# --- Märklin, Paris: most tickets, goods, flags ---------------------------------

MARKLIN_RULES = {
    "scoring": {
        "routes": {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18},
        "bonuses": {"most_tickets": 10, "goods": True},
        "tie_breaks": ["most-tickets", "most-goods"],
    }
}


def test_most_tickets_bonus_goes_to_everyone_tied():
    g = Game(make_board([("a", "b", 1), ("c", "d", 1)], [("a", "b", 3), ("c", "d", 4), ("a", "c", 2)]), make_variant(**MARKLIN_RULES))
    sheet = g.score(
        g.player("A", [("a", "b")], [("a", "b")]),
        g.player("B", [("c", "d")], [("c", "d")]),
        g.player("C", [], [("a", "c")]),
    )
    assert [p.breakdown["most_tickets"] for p in sheet.players] == [10, 10, 0]
    assert [p.breakdown["longest_path"] for p in sheet.players] == [0, 0, 0]


def test_goods_score_face_value_only_when_the_variant_says_so():
    board = make_board([("a", "b", 1)])
    marklin = Game(board, make_variant(**MARKLIN_RULES))
    assert marklin.score(marklin.player("A", goods=(7, 4, 2))).players[0].breakdown["goods"] == 13
    usa = Game(board, make_variant(**USA_RULES))
    assert usa.score(usa.player("A", goods=(7, 4, 2))).players[0].breakdown["goods"] == 0


def test_flag_sets_score_the_variant_points_each():
    g = Game(make_board([("a", "b", 1)]), make_variant(flags={"colors": ["blue", "white", "red"], "points": 4}))
    assert g.score(g.player("A", flag_sets=3)).players[0].breakdown["flags"] == 12


# --- winners and tie-breaks -----------------------------------------------------

TIE_BOARD = [("a", "b", 2), ("c", "d", 2), ("e", "f", 1), ("f", "g", 1), ("h", "i", 4), ("j", "k", 3), ("k", "l", 1)]


def tie_game(tie_breaks, **rules):
    rules = {**rules, "scoring": {**rules.get("scoring", {}), "tie_breaks": tie_breaks}}
    return Game(make_board(TIE_BOARD, [("a", "b", 1), ("c", "d", 1), ("e", "g", 2), ("h", "i", 2)]), make_variant(**rules))


def test_highest_total_wins_outright():
    g = tie_game(["most-tickets"])
    sheet = g.score(g.player("A", [("a", "b")]), g.player("B", [("h", "i")]))
    assert sheet.winners == (1,)
    assert sheet.tie_break_used is None


def test_tie_broken_by_most_tickets():
    g = tie_game(["most-tickets", "longest-path"])
    a = g.player("A", [("a", "b"), ("c", "d")], [("a", "b"), ("c", "d")])  # routes 2+2, tickets 1+1: 6, two tickets
    b = g.player("B", [("e", "f"), ("f", "g")], [("e", "g")], route_points=4)  # 4, ticket 2: 6, one ticket
    sheet = g.score(a, b)
    assert sheet.players[0].total == sheet.players[1].total == 6
    assert sheet.players[1].longest_trail == sheet.players[0].longest_trail == 2
    assert sheet.winners == (0,)
    assert sheet.tie_break_used == "most-tickets"


def test_tie_broken_by_longest_path():
    g = tie_game(["most-tickets", "longest-path"])
    a = g.player("A", [("a", "b")], route_points=7)  # trail 2
    b = g.player("B", [("j", "k"), ("k", "l")], route_points=7)  # trail 4
    sheet = g.score(a, b)
    assert sheet.players[0].total == sheet.players[1].total
    assert sheet.winners == (1,)
    assert sheet.tie_break_used == "longest-path"


def test_tie_broken_by_fewest_stations_before_longest_path():
    g = tie_game(["most-tickets", "fewest-stations", "longest-path"], stations={"costs": [1, 2, 3], "unused_points": 4})
    a = g.player("A", [("a", "b")], stations=("c",), route_points=8)  # 8 + 8 = 16, trail 2
    b = g.player("B", [("j", "k"), ("k", "l")], stations=("c", "d"), route_points=12)  # 12 + 4 = 16, trail 4
    sheet = g.score(a, b)
    assert sheet.players[0].total == sheet.players[1].total == 16
    assert sheet.winners == (0,)
    assert sheet.tie_break_used == "fewest-stations"


def test_longest_path_bonus_tie_break_wins_only_with_the_bonus():
    # Europe breaks the last tie by who received the European Express card, USA by the longer trail.
    # C holds the bonus (trail 4) but scores less; A (trail 3) and B (trail 2) tie on points.
    rules = {"scoring": {"bonuses": {"longest_path": 10}}}
    a = dict(routes=[("j", "k")], route_points=20)
    b = dict(routes=[("a", "b")], route_points=20)
    c = dict(routes=[("h", "i")], route_points=0)
    usa = tie_game(["most-tickets", "longest-path"], **rules)
    europe = tie_game(["most-tickets", "longest-path-bonus"], **rules)
    sheet = usa.score(usa.player("A", **a), usa.player("B", **b), usa.player("C", **c))
    assert sheet.players[2].breakdown["longest_path"] == 10 and sheet.players[0].total == sheet.players[1].total
    assert sheet.winners == (0,)
    sheet = europe.score(europe.player("A", **a), europe.player("B", **b), europe.player("C", **c))
    assert sheet.winners == (0, 1)
    # When one of the tied players holds the bonus, that player wins under either rule.
    a_bonus = dict(routes=[("j", "k"), ("k", "l"), ("e", "f"), ("f", "g")], route_points=20)
    b_more = dict(routes=[("a", "b")], route_points=30)
    sheet = europe.score(europe.player("A", **a_bonus), europe.player("B", **b_more))
    assert sheet.players[0].total == sheet.players[1].total and sheet.winners == (0,)
    assert sheet.tie_break_used == "longest-path-bonus"


def test_tie_broken_by_most_goods():
    g = tie_game(["most-tickets", "most-goods"], scoring={"bonuses": {"goods": True}})
    a = g.player("A", [("a", "b")], goods=(4, 2), route_points=4)  # 4 + 6 = 10
    b = g.player("B", [("h", "i")], goods=(3,), route_points=7)  # 7 + 3 = 10
    sheet = g.score(a, b)
    assert sheet.players[0].total == sheet.players[1].total == 10
    assert sheet.winners == (0,)
    assert sheet.tie_break_used == "most-goods"


def test_tie_break_order_is_the_variants():
    # A has the longer trail, B more goods: the order of the variant decides.
    a = dict(routes=[("j", "k"), ("k", "l")], goods=(1,), route_points=9)  # trail 4, 9 + 1
    b = dict(routes=[("a", "b")], goods=(3,), route_points=7)  # trail 2, 7 + 3
    for order, winner in ((["longest-path", "most-goods"], 0), (["most-goods", "longest-path"], 1)):
        g = tie_game(order, scoring={"bonuses": {"goods": True}})
        sheet = g.score(g.player("A", **a), g.player("B", **b))
        assert sheet.players[0].total == sheet.players[1].total == 10
        assert sheet.winners == (winner,), order


def test_tie_that_survives_every_tie_break_is_shared():
    g = tie_game(["most-tickets", "longest-path"])
    sheet = g.score(g.player("A", [("a", "b")]), g.player("B", [("c", "d")]), g.player("C", [("e", "f")]))
    assert sheet.winners == (0, 1)
    assert sheet.tie_break_used is None


def test_paris_tie_is_shared_after_tickets():
    g = tie_game(["most-tickets"])
    sheet = g.score(g.player("A", [("a", "b")]), g.player("B", [("j", "k"), ("k", "l")], route_points=2))
    assert sheet.winners == (0, 1)


# --- stations with a most-tickets bonus (fan variants) --------------------------


def test_borrowing_trades_points_for_the_most_tickets_bonus():
    # Ann's station at b borrows b-d (completes a-d, 8) or b-c (completes a-c and a-e, 2 each).
    rules = {**EUROPE_RULES, "scoring": {"bonuses": {"most_tickets": 10}, "tie_breaks": ["most-tickets"]}}
    g = Game(
        make_board(STATION_BOARD + [("f", "h", 1)], [("a", "d", 8), ("a", "c", 2), ("a", "e", 2), ("f", "g", 1), ("g", "h", 1)]),
        make_variant(**rules),
    )
    ann = g.player("Ann", [("a", "b"), ("c", "e")], [("a", "d"), ("a", "c"), ("a", "e")], stations=("b",))
    bob = g.player("Bob", [("b", "c"), ("b", "d"), ("f", "g"), ("f", "h")], [("f", "g"), ("g", "h")])
    a = g.score(ann, bob).players[0]
    # b-d: +8 -2 -2 = 4, one ticket (Bob has two: no bonus). b-c: -8 +2 +2 = -4, two tickets: +10 => 6.
    assert a.breakdown["tickets_completed"] + a.breakdown["tickets_failed"] == -4
    assert a.breakdown["most_tickets"] == 10


def test_bad_position_is_a_clear_error():
    g = Game(make_board([("a", "b", 1)]), make_variant())
    with pytest.raises(ScoringError, match="route index 5"):
        final_score(g.variant, g.board, Position((PlayerPosition(claims=((5, 0),)),)))
    with pytest.raises(ScoringError, match="two tracks"):
        final_score(g.variant, g.board, Position((PlayerPosition(claims=((0, 0), (0, 0))),)))


# --- station search against brute force -----------------------------------------


def brute_best_ticket_points(board, countries, tickets, me, opponent_routes):
    """Every combination of one opponent route (or none) per station, checked with networkx."""
    import itertools

    import networkx as nx

    def node(place, r):
        return (place, r) if place in countries else place

    options = [[None] + [r for r in opponent_routes if place in board.routes[r].ends] for place in me.stations]
    best = None
    for combo in itertools.product(*options):
        g = nx.Graph()
        for r in [r for r, _t in me.claims] + [r for r in combo if r is not None]:
            a, b = board.routes[r].ends
            g.add_edge(node(a, r), node(b, r))
        points = 0
        for i in me.tickets:
            t = tickets[i]
            xs = [n for n in g if n == t.from_ or (isinstance(n, tuple) and n[0] == t.from_)]
            ys = [n for n in g if n == t.to or (isinstance(n, tuple) and n[0] == t.to)]
            points += t.points if any(nx.has_path(g, x, y) for x in xs for y in ys) else -t.points
        best = points if best is None else max(best, points)
    return best


@pytest.mark.parametrize("seed", range(30))
def test_station_search_matches_brute_force(seed):
    import random

    rng = random.Random(seed)
    names = [f"p{i}" for i in range(rng.randint(4, 8))]
    countries = set(rng.sample(names, rng.randint(0, 2)))
    routes = set()
    for _ in range(rng.randint(5, 14)):
        a, b = rng.sample(names, 2)
        if not (a in countries and b in countries):
            routes.add(tuple(sorted((a, b))))
    routes = sorted(routes)
    tickets = {tuple(rng.sample(names, 2)) for _ in range(6)}
    board = make_board([(a, b, rng.randint(1, 4)) for a, b in routes], [(a, b, rng.randint(1, 12)) for a, b in sorted(tickets)], countries)
    variant = make_variant(**EUROPE_RULES)
    all_t = all_tickets(variant, board)
    order = list(range(len(routes)))
    rng.shuffle(order)
    cut = rng.randint(0, len(order))
    me = PlayerPosition(
        claims=tuple((r, 0) for r in order[:cut]),
        stations=tuple(rng.sample(names, rng.randint(1, 3))),
        tickets=tuple(range(len(all_t))),
    )
    other = PlayerPosition(claims=tuple((r, 0) for r in order[cut:]))
    sheet = final_score(variant, board, Position((me, other)))
    got = sheet.players[0].breakdown["tickets_completed"] + sheet.players[0].breakdown["tickets_failed"]
    assert got == brute_best_ticket_points(board, frozenset(countries), all_t, me, order[cut:])


@pytest.mark.parametrize("path", ["maps/variants/usa.yaml", "maps/variants/marklin.yaml", "examples/alpenrand-rules.yaml",
                                  "examples/twin-crossings-rules.yaml", "examples/vellmar-rules.yaml"])
def test_tickets_of_a_player_without_stations_are_those_the_station_search_finds(path):
    """A player who built no station is scored from its own network by numbered places (_own_option); the
    station search (_ticket_options), which handles any player, finds the same one outcome for it. Over the end
    states of seeded random games (each player's stations left out): countries, tickets with several destinations."""
    import dataclasses
    import random

    from conftest import ROOT

    from ttr_maps.engine.game import Game as EngineGame
    from ttr_maps.engine.scoring import _own_option, _ticket_options
    from ttr_maps.load import load_variant

    variant, _board = load_variant(ROOT / path)
    seen = 0
    for players in sorted({variant.players.min, variant.players.max}):
        game = EngineGame.from_file(ROOT / path, players)
        ix = game.board_index
        for i in range(6):
            rng = random.Random(i)
            state = game.new_initial_state(i)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            position = state.position()
            for seat, player in enumerate(position.players):
                player = dataclasses.replace(player, stations=())  # as if it had built none
                searched = _ticket_options(game.board, ix.countries, ix.tickets, player, position, seat)
                assert searched == [_own_option(ix, player)]
                seen += len(player.tickets)
    assert seen > 50
