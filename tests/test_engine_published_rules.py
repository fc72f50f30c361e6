"""Scenario tests for the rules of published maps beyond the seed editions, each written from the
wording of its section of docs/rules.md, on the tiny test board with one setting switched on."""

from __future__ import annotations

import math
from functools import lru_cache

from test_engine_rules import TINY, do, hand, legal_texts, merge, refused

from ttr_maps.engine import errors
from ttr_maps.engine.game import Game, State
from ttr_maps.engine.statefile import state_from_dict
from ttr_maps.load import load_variant
from ttr_maps.model.board import Board
from ttr_maps.model.variant import Variant


@lru_cache(maxsize=None)
def _tiny() -> tuple[Variant, Board]:
    return load_variant(TINY)


# The tiny variant without passengers (no decision after a claim) and with more cards of each colour.
PLAIN = {"passengers": {"count": 0}, "cards": {"colors": {"red": 8, "blue": 8, "green": 8}, "passengers": 0}}


def tiny_game(players: int = 2, board: dict | None = None, **rules) -> Game:
    """The tiny test variant (PLAIN) with `rules` merged into its settings (and `board` into its board)."""
    variant, b = _tiny()
    v = Variant.model_validate(merge(merge(variant.model_dump(by_alias=True), PLAIN), rules))
    if board:
        b = Board.model_validate(merge(b.model_dump(by_alias=True), board))
    return Game(v, b, players)


def make(game: Game, seats: dict[int, dict] | None = None, **fields) -> State:
    """A hand-made position on `game`: what is not given is empty, the rest shuffled (seed 1)."""
    data = {
        "format": "ttr-state/1",
        "variant": "unused",
        "seed": 1,
        "phase": "turn",
        "players": [dict((seats or {}).get(p, {})) for p in range(game.num_players)],
        "cards": {"face_up": ["red", "blue", "green"]},
    }
    return state_from_dict(game, merge(data, fields))


def claims_of(state: State, route: str) -> set[str]:
    return {t for t in legal_texts(state) if t.startswith(f"claim {route} ")}


# ------------------------------------------------------------------ locomotives only on some routes
# docs/rules.md#locomotives-only-on-some-routes: "locomotives pay only on the kinds of route named".


def test_locomotives_only_on_tunnels_pay_for_no_other_route():
    g = tiny_game(cards={"locomotives_only_on": ["tunnels"]})
    s = make(g, seats={0: {"hand": {"red": 1, "green": 2, "locomotive": 2}}})
    assert claims_of(s, "a-b") == {"claim a-b red 1red"}
    refused(s, "claim a-b 1loco", errors.R_LOCO_ONLY)
    assert claims_of(s, "a-d") == {"claim a-d green 2green+1loco", "claim a-d green 1green+2loco"}
    assert claims_of(s, "b-d") == set()  # a ferry needs a locomotive, which pays only on tunnels here
    refused(s, "claim b-d 1green+1loco", errors.R_LOCO_ONLY)


def test_locomotives_only_on_ferries_and_tunnels_pay_there():
    g = tiny_game(cards={"locomotives_only_on": ["ferries", "tunnels"]})
    s = make(g, seats={0: {"hand": {"blue": 1, "locomotive": 2}}})
    assert claims_of(s, "b-d") == {"claim b-d gray 1blue+1loco", "claim b-d gray 2loco"}
    assert claims_of(s, "c-d") == {"claim c-d blue 1blue"}
    do(s, "claim b-d 1blue+1loco")
    assert s.scores[0] == 2 and hand(s, 0) == {"locomotive": 1}


def test_a_tunnel_where_locomotives_do_not_pay_asks_its_extra_cards_in_colour():
    # Only ferries take locomotives: a turned-up locomotive still matches, but the extra card must be green.
    g = tiny_game(cards={"locomotives_only_on": ["ferries"]})
    s = make(g, seats={0: {"hand": {"green": 4, "locomotive": 2}}}, cards={"face_up": ["red", "blue", "red"], "deck_top": ["locomotive", "red", "blue"]})
    assert claims_of(s, "a-d") == {"claim a-d green 3green"}
    do(s, "claim a-d 3green")
    assert s.phase_name == "tunnel" and s.tunnel.extra == 1
    assert set(legal_texts(s)) == {"tunnel pay 1green", "tunnel abandon"}
    refused(s, "tunnel pay 1loco", errors.R_LOCO_ONLY)


def test_without_the_setting_locomotives_pay_everywhere():
    s = make(tiny_game(), seats={0: {"hand": {"locomotive": 1}}})
    assert claims_of(s, "a-b") == {"claim a-b red 1loco"}


# ------------------------------------------------------------------ the fan examples, played and printed

EXAMPLES = TINY.parent.parent.parent.parent / "examples"


@lru_cache(maxsize=None)
def example(name: str, players: int) -> Game:
    return Game.from_file(EXAMPLES / f"{name}-rules.yaml", players)


def bot_records(name: str, players: int, games: int = 2) -> list[dict]:
    from ttr_maps.simulate.runner import play_game

    bots = ["expert", "route-focus", "ticket-hungry", "long-route"][:players]
    return [play_game(example(name, players), bots, 11 + i, i) for i in range(games)]


def test_bots_play_fjordland_to_the_end_by_its_rules():
    """Bots claim routes where locomotives may not pay (legally: the engine refuses anything else) and
    finish the game by running out of trains, not by passing."""
    records = bot_records("fjordland", 2)
    for rec in records:
        assert rec["end"] == "trains" and rec["counters"]["all-passed"] == 0
        assert min(seat["trains_left"] for seat in rec["seats"]) <= 2
        assert all(seat["breakdown"]["routes"] >= 25 for seat in rec["seats"])
    # They pay ferries with stand-ins too, and the report counts it.
    assert sum(rec["counters"].get("claims-with-stand-ins", 0) for rec in records) >= 1


def test_printed_rules_say_where_locomotives_pay():
    from ttr_maps.render.rules import brief, sections

    g = example("fjordland", 2)
    text = " ".join(line for _h, lines in sections(g.variant, g.board) for line in lines)
    assert "Locomotives pay only on ferries and tunnels." in text
    assert "Locomotives pay only on ferries and tunnels." in brief(g.variant, g.board)
    assert "On a ferry, any 3 cards may stand in for each locomotive its marks need." in text
    assert "On Polar Camp-Farholm, any 4 cards may stand in for each card of the route." in text


# ------------------------------------------------------------------ stand-ins
# docs/rules.md#stand-ins: "on a ferry, N cards of any colours may stand in for each locomotive its marks
# need"; "on a named route, N cards of any colours may stand in for any one card of that route".

FERRY_3 = {"cards": {"locomotives_only_on": ["tunnels"]}, "stand_ins": {"ferry": 3}}


def test_three_cards_of_any_colours_stand_in_for_a_ferry_locomotive():
    s = make(tiny_game(**FERRY_3), seats={0: {"hand": {"red": 5}}})
    assert claims_of(s, "b-d") == {"claim b-d gray 1red+1standin"}  # no locomotive may pay: the mark needs stand-ins
    do(s, "claim b-d 1red+1standin")
    assert s.phase_name == "stand-ins" and hand(s, 0) == {"red": 5}  # nothing paid until every stand-in is given
    assert legal_texts(s) == ["standin 3red"]
    do(s, "standin 3red")
    assert hand(s, 0) == {"red": 1} and s.scores[0] == 2 and s.trains[0] == 4
    assert s.discard_total == 4 and s.current_player() == 1


def test_stand_ins_are_given_colour_by_colour_each_choice_once():
    s = make(tiny_game(**FERRY_3), seats={0: {"hand": {"red": 2, "blue": 2, "green": 1}}})
    do(s, "claim b-d 1red+1standin")
    # Left to give from: 1 red, 2 blue, 1 green; three are owed. Every choice of three is one path.
    assert legal_texts(s) == ["standin 1red", "standin 2blue"]
    refused(s, "standin 1green", errors.R_STAND_IN)  # green alone cannot make three
    paths = set()
    for first in legal_texts(s):
        s1 = s.clone()
        do(s1, first)
        stack = [(s1, [first])]
        while stack:
            st, path = stack.pop()
            if st.phase_name != "stand-ins":
                paths.add(tuple(path))
                continue
            for nxt in legal_texts(st):
                s2 = st.clone()
                do(s2, nxt)
                stack.append((s2, path + [nxt]))
    assert paths == {
        ("standin 1red", "standin 2blue"), ("standin 1red", "standin 1blue", "standin 1green"),
        ("standin 2blue", "standin 1green"),
    }
    do(s, "standin 2blue")
    refused(s, "standin 1red", errors.R_STAND_IN)  # red comes before blue: too late
    do(s, "standin 1green")
    assert hand(s, 0) == {"red": 1} and s.current_player() == 1


def test_with_locomotives_a_ferry_may_still_take_stand_ins():
    g = tiny_game(stand_ins={"ferry": 3})
    s = make(g, seats={0: {"hand": {"red": 4, "locomotive": 1}}})
    # The locomotive pays the mark, or the ordinary space while three cards stand in for the mark.
    assert claims_of(s, "b-d") == {"claim b-d gray 1red+1loco", "claim b-d gray 1red+1standin", "claim b-d gray 1loco+1standin"}
    refused(s, "claim b-d 2red", errors.R_FERRY)
    refused(s, "claim b-d 2standin", errors.R_STAND_IN)  # one mark: at most one stand-in


def test_four_cards_stand_in_for_any_card_of_a_named_route():
    g = tiny_game(stand_ins={"routes": {"b-c": 4}})
    s = make(g, seats={0: {"hand": {"red": 2, "blue": 3}}})
    assert claims_of(s, "b-c") == {
        "claim b-c gray.0 2red", "claim b-c gray.1 2red", "claim b-c gray.0 2blue", "claim b-c gray.1 2blue",
        "claim b-c gray.0 1red+1standin", "claim b-c gray.1 1red+1standin",
        "claim b-c gray.0 1blue+1standin", "claim b-c gray.1 1blue+1standin",
    }
    refused(s, "claim b-c 2standin", errors.R_STAND_IN)  # 8 cards would be needed, the hand has 5
    assert claims_of(s, "c-d") == {"claim c-d blue 1blue"}  # an unnamed route takes no stand-ins
    refused(s, "claim c-d 1standin", errors.R_STAND_IN)
    do(s, "claim b-c gray.0 1red+1standin")
    assert legal_texts(s) == ["standin 1red"]  # four owed: the last red and the three blue
    do(s, "standin 1red", "standin 3blue")
    assert hand(s, 0) == {} and s.scores[0] == 2


def test_a_tunnel_with_stand_ins_turns_up_its_cards_after_them_and_gives_all_back_if_abandoned():
    g = tiny_game(stand_ins={"routes": {"a-d": 2}})
    s = make(g, seats={0: {"hand": {"green": 2, "red": 2}}}, cards={"deck_top": ["green", "red", "blue"]})
    do(s, "claim a-d 2green+1standin", "standin 2red")
    assert s.phase_name == "tunnel" and s.tunnel.extra == 1  # the green turned up matches the route's own cards
    assert legal_texts(s) == ["tunnel abandon"]
    assert s.card_total() == s.t.deck_size
    do(s, "tunnel abandon")
    assert hand(s, 0) == {"green": 2, "red": 2} and s.current_player() == 1


def test_a_claim_waiting_for_stand_ins_is_saved_and_loaded():
    s = make(tiny_game(**FERRY_3), seats={0: {"hand": {"red": 2, "blue": 2, "green": 1}}})
    do(s, "claim b-d 1red+1standin", "standin 1red")
    data = s.to_dict() | {"variant": "tiny.yaml"}
    assert data["pending"]["stand_ins"] == {"route": "b-d", "track": 0, "paid": "1red", "count": 1, "given": {"red": 1}}
    again = State.from_dict(s.game, data)
    assert again == s and legal_texts(again) == legal_texts(s) == ["standin 2blue", "standin 1blue"]


def test_stand_in_notation_reads_and_writes():
    g = tiny_game(**FERRY_3)
    s = make(g, seats={0: {"hand": {"red": 2, "blue": 2}}})
    (a,) = g.parse_actions("claim b-d 1red+1standin", s)
    assert a.stand_ins == 1 and g.action_text(a) == "claim b-d gray 1red+1standin"
    assert [g.action_text(x) for x in g.parse_actions("standin 1red+2blue")] == ["standin 1red", "standin 2blue"]


# ------------------------------------------------------------------ separate routes as one double route
# docs/rules.md#parallel-routes: with `parallel.same_places_double`, separate routes between the same two
# places count as one double route: one player never claims two of them, and with fewer players than
# `all_tracks_from` claiming one closes the others.

TWIN_AB = {"routes": [*(_tiny()[1].model_dump(by_alias=True)["routes"]), {"from": "a", "to": "b", "length": 2, "tracks": ["blue"]}]}


def test_without_the_setting_separate_routes_are_unrelated():
    g = tiny_game(board=TWIN_AB)
    s = make(g, seats={0: {"hand": {"red": 1, "blue": 2}}, 1: {"hand": {"blue": 2}}})
    do(s, "claim a-b 1red", "draw blind", "draw blind")
    assert claims_of(s, "a-b-2") == {"claim a-b-2 blue 2blue"}  # the same player may take the other route too


def test_separate_routes_close_each_other_with_few_players():
    g = tiny_game(board=TWIN_AB, parallel={"same_places_double": True})
    s = make(g, seats={0: {"hand": {"red": 1}}, 1: {"hand": {"blue": 2}}})
    do(s, "claim a-b 1red")
    assert claims_of(s, "a-b-2") == set()
    refused(s, "claim a-b-2 2blue", errors.R_PARALLEL)


def test_separate_routes_never_both_to_one_player():
    g = tiny_game(board=TWIN_AB, parallel={"same_places_double": True, "all_tracks_from": 2})
    s = make(g, seats={0: {"hand": {"red": 1, "blue": 2}}, 1: {"hand": {"blue": 2}}})
    do(s, "claim a-b 1red")
    assert claims_of(s, "a-b-2") == {"claim a-b-2 blue 2blue"}  # open to the other player
    do(s, "draw blind", "draw blind")
    assert claims_of(s, "a-b-2") == set()
    err = refused(s, "claim a-b-2 2blue", errors.R_PARALLEL)
    assert "a-b" in err.reason and "count as one double route" in err.reason


def test_a_state_file_with_both_separate_routes_to_one_player_is_refused():
    import pytest

    from ttr_maps.engine.statefile import StateFileError

    g = tiny_game(board=TWIN_AB, parallel={"same_places_double": True, "all_tracks_from": 2})
    with pytest.raises(StateFileError, match="one player never claims two tracks"):
        make(g, seats={0: {"claims": [{"route": "a-b"}, {"route": "a-b-2"}]}})
    make(g, seats={0: {"claims": [{"route": "a-b"}]}, 1: {"claims": [{"route": "a-b-2"}]}})


def test_a_position_file_with_both_separate_routes_to_one_player_is_q016(tmp_path):
    import yaml

    from ttr_maps.engine.position_file import load_position

    board = _tiny()[1].model_dump(by_alias=True, exclude_none=True)
    board["routes"] = TWIN_AB["routes"]
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board), encoding="utf-8")
    rules = {"format": "ttr-variant/1", "name": "Twin", "board": "board.yaml", "cards": {"colors": {"red": 8, "blue": 8, "green": 8}},
             "scoring": {"routes": {1: 1, 2: 2, 3: 4}}, "parallel": {"same_places_double": True, "all_tracks_from": 2}}
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rules), encoding="utf-8")
    position = {"format": "ttr-position/1", "variant": "rules.yaml",
                "players": [{"name": "Ann", "routes": ["a-b", "a-b-2"]}, {"name": "Bob", "routes": ["c-d"]}]}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(position, sort_keys=False), encoding="utf-8")
    codes = [d.code for d in load_position(tmp_path / "game.yaml").diagnostics]
    assert codes == ["Q016"]
    position["players"][1]["routes"] = ["a-b-2"]
    position["players"][0]["routes"] = ["a-b"]
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(position, sort_keys=False), encoding="utf-8")
    assert [d.code for d in load_position(tmp_path / "game.yaml").diagnostics] == []


def test_bots_play_alpenrand_never_holding_both_routes_of_a_pair():
    g = example("alpenrand", 2)
    pairs = [grp for grp in g.t.route_parallel if len(grp) > 1]
    assert len(pairs) == 10  # five pairs, each seen from both routes
    for rec in bot_records("alpenrand", 2):
        assert rec["end"] == "trains" and rec["counters"]["all-passed"] == 0
        claimed = [c[2] for c in rec["claims"]]
        for grp in pairs:
            names = {g.t.route_ids[r] for r in grp}
            assert sum(1 for c in claimed if c in names) <= 1  # two players: the first claim closes the other


def test_printed_rules_say_separate_routes_count_as_double():
    from ttr_maps.render.rules import sections

    g = example("alpenrand", 2)
    text = " ".join(line for _h, lines in sections(g.variant, g.board) for line in lines)
    assert "Separate routes between the same two places count as one double route." in text
    assert "Locomotives pay only on tunnels." in text


# ------------------------------------------------------------------ tickets with several destinations
# docs/rules.md#tickets-with-several-destinations: "the best value among the destinations it reaches scores
# ... if it reaches none, the ticket loses the lowest of its values".

def several_destinations_board(**extra) -> dict:
    board = _tiny()[1].model_dump(by_alias=True, exclude_none=True)
    board["tickets"] = [{"from": "a", "to": "b", "points": 5, "or": [{"to": "c", "points": 8}, {"to": "x", "points": 3}], "decks": ["main"]}]
    board.update(extra)
    return board


def score_of(g: Game, claims: list[str], stations: tuple[str, ...] = (), others: list[str] = ()):
    from ttr_maps.engine.position import PlayerPosition, Position
    from ttr_maps.engine.scoring import final_score

    t = g.t

    def pos(names, tickets, st=()):
        return PlayerPosition(claims=tuple((t.find_route(n), 0) for n in names), tickets=tickets, stations=st)

    return final_score(g.variant, g.board, Position((pos(claims, (0,), stations), pos(others, ()))))


def test_the_best_destination_reached_scores_and_none_loses_the_lowest():
    g = tiny_game(board={"tickets": several_destinations_board()["tickets"]})
    cases = {
        (): (0, -3),  # nothing reached: the lowest value (3) is lost
        ("a-b",): (5, 0),
        ("a-b", "b-c"): (8, 0),  # b and c both reached: the best, 8, not 13
        ("a-d", "d-x"): (3, 0),  # the country, by its border route
    }
    for claims, (gained, lost) in cases.items():
        p = score_of(g, list(claims)).players[0]
        assert (p.breakdown["tickets_completed"], p.breakdown["tickets_failed"]) == (gained, lost), claims
        assert len(p.completed) == (1 if gained else 0)


def test_a_station_borrows_the_route_that_reaches_the_best_destination():
    g = tiny_game(board={"tickets": several_destinations_board()["tickets"]})
    # Player 0 owns a-b (5 points); a station at b may borrow the opponent's b-c to reach c (8 points).
    p = score_of(g, ["a-b"], stations=("b",), others=["b-c"]).players[0]
    assert p.breakdown["tickets_completed"] == 8
    assert [b.route for b in p.borrowings] == [g.t.find_route("b-c")]


def test_score_command_scores_a_ticket_with_several_destinations(tmp_path):
    import json

    import yaml
    from click.testing import CliRunner

    from ttr_maps.cli.main import cli

    position = {"format": "ttr-position/1", "variant": str(EXAMPLES / "alpenrand-rules.yaml"), "players": [
        {"name": "Ann", "routes": ["westmark-kaltenau", "kaltenau-steinhorn", "steinhorn-wolkenried", "wolkenried-eisenthal", "ostreich-eisenthal"],
         "tickets": ["westmark-nordland"]},
        {"name": "Bob", "routes": ["felsbach-grauwald"], "tickets": ["nordland-ostreich"]},
    ]}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(position, sort_keys=False), encoding="utf-8")
    r = CliRunner().invoke(cli, ["score", str(path), "--format", "json"])
    assert r.exit_code == 0, r.output
    players = json.loads(r.output)["players"]
    ann, bob = players[0]["breakdown"], players[1]["breakdown"]
    board = example("alpenrand", 2).board
    ann_ticket = next(t for t in board.tickets if t.id == "westmark-nordland")
    bob_ticket = next(t for t in board.tickets if t.id == "nordland-ostreich")
    assert ann["tickets_completed"] == dict(ann_ticket.destinations)["ostreich"]  # reached Ostreich, not Nordland or Südtal
    assert bob["tickets_failed"] == -bob_ticket.lowest  # no destination reached: the lowest value is lost


def test_ticket_card_lists_every_destination_with_its_points():
    from ttr_maps.render.cards import board_cards, render_card

    g = example("alpenrand", 2)
    ctx, cards = board_cards(g.board, g.variant)
    card = next(c for c in cards if c.ticket is not None and c.ticket.id == "westmark-nordland")
    svg = render_card(card, ctx)
    assert "to the best of" in svg
    for to, points in card.ticket.destinations:
        assert f">{g.board.place_by_id[to].name}<" in svg and f">{points}<" in svg
    assert len(card.ticket.destinations) == 3


def test_printed_rules_explain_several_destinations():
    from ttr_maps.render.rules import sections

    g = example("alpenrand", 2)
    text = " ".join(line for _h, lines in sections(g.variant, g.board) for line in lines)
    assert "A ticket with several destinations scores the best one your routes reach" in text


def test_an_unknown_destination_is_r002_at_its_line(tmp_path):
    import yaml

    from ttr_maps.load import load

    board = several_destinations_board()
    board["tickets"][0]["or"][1]["to"] = "atlantis"
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board, sort_keys=False), encoding="utf-8")
    diags = load(tmp_path / "board.yaml").diagnostics
    assert [(d.code, "'atlantis'" in d.message) for d in diags] == [("R002", True)]


# ------------------------------------------------------------------ entry points
# docs/rules.md#entry-points: "each route ends at one entry and is drawn to it, but for the rules the place
# is one place".

ENTRIES_BOARD = {
    "places": [
        {"id": "a", "name": "A", "x": 0, "y": 0}, {"id": "b", "name": "B", "x": 0, "y": 4},
        {"id": "land", "name": "Land", "kind": "country", "x": 8, "y": 2,
         "entries": [{"id": "north", "x": 4, "y": 0}, {"id": "south", "x": 4, "y": 4}]},
    ],
    "routes": [
        {"from": "a", "to": "land", "length": 3, "tracks": ["red"]},  # no entry named: the nearest, north
        {"from": "b", "to": "land", "to_entry": "north", "length": 4, "tracks": ["blue"]},  # named, though south is nearer
        {"from": "a", "to": "b", "length": 3, "tracks": ["green"]},
    ],
    "tickets": [{"from": "b", "to": "land", "points": 4, "decks": ["main"]}],
}


def entries_board():
    return Board.model_validate({"format": "ttr-board/1", "meta": {"title": "Entries"}, "colors": ["red", "blue", "green"],
                                 "drawing": {"car_length": 1.0}, **ENTRIES_BOARD})


def test_a_route_ends_at_its_named_entry_or_the_nearest_one():
    from ttr_maps.geometry import Layout

    layout = Layout(entries_board())
    routes = entries_board().routes
    assert layout.route_entries(routes[0]) == (None, "north")
    assert layout.route_entries(routes[1]) == (None, "north")
    assert layout.route_ends(routes[1]) == ((0, 4), (4, 0))
    assert layout.route_ends(routes[2]) == ((0, 0), (0, 4))


def test_the_drawn_route_runs_to_its_entry_and_each_entry_gets_a_marker():
    from ttr_maps.render.plan import plan_board

    plan = plan_board(entries_board())
    land = plan.place("land")
    assert len(land.entries) == 2
    north = land.entries[0]
    for rp in plan.routes:
        if "land" in rp.ends:
            end = rp.centerline[-1] if rp.ends[1] == "land" else rp.centerline[0]
            assert math.dist(end, north) < 1e-6  # both routes end at the north crossing, not at the country's point
    assert math.dist((land.x, land.y), north) > plan.car * 3


def test_a_ticket_to_a_place_with_entries_is_complete_at_any_entry():
    from ttr_maps.engine.position import PlayerPosition, Position
    from ttr_maps.engine.scoring import final_score

    g = example("alpenrand", 2)
    t = g.t
    ticket = t.ticket_index["lindenfels-nordland"]

    def completed(names):
        player = PlayerPosition(claims=tuple((t.find_route(n), 0) for n in names), tickets=(ticket,))
        return final_score(g.variant, g.board, Position((player, PlayerPosition(claims=())))).players[0].completed

    west = ["lindenfels-wolkenried", "grauwald-wolkenried", "nordland-grauwald-2"]  # into Nordland by the west crossing
    east = ["lindenfels-wolkenried", "seebruck-wolkenried", "nordland-seebruck"]  # and by the east one
    assert g.board.routes[t.find_route("nordland-grauwald-2")].from_entry == "west"
    assert g.board.routes[t.find_route("nordland-seebruck")].from_entry == "east"
    assert completed(west) == completed(east) == (ticket,)
    assert completed(west[:2]) == ()
