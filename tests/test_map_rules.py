"""Scenario tests for more rules of published maps (issue 13, section 3), each written from the wording of
its section of docs/rules.md, on the tiny test board with one setting switched on: a face-up locomotive
that counts as one card, long routes and their points."""

from __future__ import annotations

import pytest
import yaml
from test_engine_published_rules import make, tiny_game
from test_engine_rules import TINY, do, hand, legal_texts

from conftest import MAPS
from ttr_maps.bots import make_bot
from ttr_maps.bots.view import StateView
from ttr_maps.engine.game import Game
from ttr_maps.diagnostics import LoadError
from ttr_maps.load import load_variant

BUNDLED = sorted((MAPS / "variants").glob("*.yaml"))


# ------------------------------------------------------------------ face-up locomotives
# docs/rules.md#face-up-locomotives: without the setting "a face-up locomotive counts as one card like any
# other: it may be taken as the first or the second card, and a first one does not end the draw".

ONE_CARD = {"cards": {"face_up_locomotive_costs_both_draws": False}}
# The tiny variant redeals at two face-up locomotives: one on show, another under it on the deck.
ROW = {"cards": {"face_up": ["locomotive", "red", "blue"], "deck_top": ["locomotive", "green", "red"]}}


def test_a_face_up_locomotive_as_first_card_leaves_a_second_card_to_take():
    s = make(tiny_game(**ONE_CARD), **ROW)
    do(s, "draw faceup 0")
    assert s.phase_name == "second-draw" and s.current_player() == 0
    assert "draw faceup 0" in legal_texts(s)  # the locomotive just turned up is a second card like any other
    do(s, "draw faceup 0")
    assert hand(s, 0) == {"locomotive": 2} and s.current_player() == 1


def test_a_face_up_locomotive_may_be_the_second_card():
    s = make(tiny_game(**ONE_CARD), **ROW)
    do(s, "draw blind", "draw faceup 0")
    assert hand(s, 0) == {"locomotive": 2} and s.current_player() == 1


def test_with_the_usual_rule_a_face_up_locomotive_is_the_whole_draw():
    s = make(tiny_game(), **ROW)
    do(s, "draw faceup 0")
    assert hand(s, 0) == {"locomotive": 1} and s.current_player() == 1


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_the_bundled_editions_keep_the_usual_rule(path):
    assert load_variant(path)[0].cards.face_up_locomotive_costs_both_draws is True


def test_the_printed_rules_say_which_rule_holds():
    from ttr_maps.render.rules import turn_actions

    one, usual = tiny_game(**ONE_CARD).variant, tiny_game().variant
    assert any("A face-up locomotive counts as one card" in line for line in turn_actions(one))
    assert any("A face-up locomotive is your whole draw" in line for line in turn_actions(usual))


def _bot_second_card(rules: dict) -> str:
    """The expert's second card with a face-up locomotive and a red card on show, for a ticket a-c
    (a-b red 1, b-c gray 2) and an empty hand."""
    g = tiny_game(**rules)
    s = make(g, seats={0: {"tickets": ["a-c"]}}, **ROW)
    do(s, "draw blind")
    bot = make_bot("expert", g, 0, 1)
    return g.action_text(bot.act(StateView(s, 0), s.legal_actions()))


def test_bots_take_a_face_up_locomotive_as_second_card_where_it_is_one_card():
    assert _bot_second_card(ONE_CARD) == "draw faceup 0"
    assert _bot_second_card({}) != "draw faceup 0"  # the usual rule: never a locomotive as the second card


# ------------------------------------------------------------------ route points
# docs/rules.md#route-points: "a variant whose board has longer routes writes their points in
# scoring.routes"; "a table that leaves out a length the board uses is an error (V003)".


def _write_long(tmp_path, table: dict, length: int = 10) -> object:
    board = yaml.safe_load(TINY.parent.parent.joinpath("boards", "tiny.yaml").read_text(encoding="utf-8"))
    board["routes"].append({"from": "a", "to": "c", "length": length, "tracks": ["red"]})
    (tmp_path / "long.yaml").write_text(yaml.safe_dump(board), encoding="utf-8")
    rules = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    rules["board"] = "long.yaml"
    rules["scoring"]["routes"] = table
    rules["trains"], rules["cards"]["colors"]["red"] = 12, 12
    path = tmp_path / "long-rules.yaml"
    path.write_text(yaml.safe_dump(rules), encoding="utf-8")
    return path


def test_a_ten_space_route_scores_what_the_table_gives(tmp_path):
    path = _write_long(tmp_path, {1: 1, 2: 2, 3: 4, 10: 31})
    g = Game.from_file(path, 2)
    s = make(g, seats={0: {"hand": {"red": 10}}})
    do(s, "claim a-c 10red")
    assert s.scores[0] == 31


def test_a_table_without_a_length_the_board_uses_is_v003(tmp_path):
    path = _write_long(tmp_path, {1: 1, 2: 2, 3: 4, 9: 27})
    with pytest.raises(LoadError) as info:
        load_variant(path)
    (d,) = [d for d in info.value.diagnostics if d.code == "V003"]
    assert "route length 10" in d.message and "a-c (length 10" in d.message and "10: <points>" in d.message


def test_routes_longer_than_twelve_are_refused(tmp_path):
    path = _write_long(tmp_path, {1: 1, 2: 2, 3: 4, 13: 40}, length=13)
    with pytest.raises(LoadError) as info:
        load_variant(path)
    assert {d.code for d in info.value.diagnostics} == {"S007"}


# ------------------------------------------------------------------ two separate paths
# docs/rules.md#two-paths: "points for each kept ticket whose start and one of its destinations the player's
# own routes join by two separate paths: two paths with no route in common; places may be shared".

# Two loops sharing place c (a-b-c and c-d-e), a country x behind d and e, a second route between a and b.
LOOPS = {
    "places": [
        {"id": "a", "name": "A", "x": 0, "y": 0}, {"id": "b", "name": "B", "x": 100, "y": -100},
        {"id": "c", "name": "C", "x": 200, "y": 0}, {"id": "d", "name": "D", "x": 300, "y": -100},
        {"id": "e", "name": "E", "x": 300, "y": 100}, {"id": "x", "name": "X", "kind": "country", "x": 400, "y": 0},
    ],
    "routes": [
        {"from": "a", "to": "b", "length": 1, "tracks": ["red"]},
        {"from": "b", "to": "c", "length": 2, "tracks": ["red", "blue"]},
        {"from": "a", "to": "c", "length": 3, "tracks": ["green"]},
        {"from": "c", "to": "d", "length": 1, "tracks": ["blue"]},
        {"from": "d", "to": "e", "length": 2, "tracks": ["gray"]},
        {"from": "c", "to": "e", "length": 3, "tracks": ["red"]},
        {"from": "d", "to": "x", "length": 1, "tracks": ["gray"]},
        {"from": "e", "to": "x", "length": 2, "tracks": ["gray"]},
        {"from": "a", "to": "b", "length": 1, "tracks": ["blue"]},
    ],
    "tickets": [
        {"from": "a", "to": "c", "points": 4, "decks": ["main"]},
        {"from": "a", "to": "e", "points": 7, "decks": ["main"]},
        {"from": "a", "to": "d", "points": 6, "decks": ["main"]},
        {"from": "c", "to": "x", "points": 5, "decks": ["main"]},
        {"from": "d", "to": "e", "points": 2, "decks": ["main"]},
        {"from": "a", "to": "b", "points": 1, "decks": ["main"]},
        {"from": "a", "to": "e", "points": 7, "or": [{"to": "b", "points": 2}], "decks": ["main"]},
    ],
    "goods": [],
}
TICKET = {"a-c": 0, "a-e": 1, "a-d": 2, "c-x": 3, "d-e": 4, "a-b": 5, "a-e|b": 6}


def loops_game(players: int = 2, **bonuses) -> Game:
    return tiny_game(players, board=LOOPS, scoring={"bonuses": bonuses})


def sheet(g: Game, *players: tuple[list[str], list[str]], stations: dict[int, tuple[str, ...]] | None = None):
    """Final score of hand-made holdings: per player (routes, tickets by TICKET name)."""
    from ttr_maps.engine.position import PlayerPosition, Position
    from ttr_maps.engine.scoring import final_score

    seats = tuple(
        PlayerPosition(claims=tuple((g.t.find_route(r), 0) for r in routes), tickets=tuple(TICKET[k] for k in tickets),
                       stations=(stations or {}).get(seat, ()))
        for seat, (routes, tickets) in enumerate(players)
    )
    return final_score(g.variant, g.board, Position(seats))


def two_paths(g: Game, routes: list[str], tickets: list[str], **kw) -> tuple[str, ...]:
    p = sheet(g, (routes, tickets), ([], []), **kw).players[0]
    names = {v: k for k, v in TICKET.items()}
    assert p.breakdown["two_paths"] == 3 * len(p.two_path_tickets)
    return tuple(names[i] for i in p.two_path_tickets)


def test_a_loop_through_both_places_is_two_separate_paths():
    g = loops_game(two_paths=3)
    assert two_paths(g, ["a-b", "b-c", "a-c"], ["a-c"]) == ("a-c",)
    assert two_paths(g, ["a-b", "b-c"], ["a-c"]) == ()  # one path only


def test_two_paths_may_share_a_place_but_not_a_route():
    g = loops_game(two_paths=3)
    figure_eight = ["a-b", "b-c", "a-c", "c-d", "d-e", "c-e"]
    assert two_paths(g, figure_eight, ["a-e"]) == ("a-e",)  # both paths go through c
    assert two_paths(g, ["a-b", "b-c", "a-c", "c-d"], ["a-d"]) == ()  # both would need c-d


def test_separate_routes_between_the_same_places_are_two_paths_a_double_route_is_one():
    g = loops_game(two_paths=3)
    assert two_paths(g, ["a-b", "a-b-2"], ["a-b"]) == ("a-b",)
    assert two_paths(g, ["a-b", "b-c"], ["a-b"]) == ()  # b-c is a double route: one player holds one track of it


def test_a_country_is_reached_by_two_border_routes_and_never_passed_through():
    g = loops_game(two_paths=3)
    assert two_paths(g, ["c-d", "c-e", "d-x", "e-x"], ["c-x"]) == ("c-x",)
    assert two_paths(g, ["c-d", "d-e", "d-x", "e-x"], ["c-x"]) == ()  # both paths need c-d
    assert two_paths(g, ["d-e", "d-x", "e-x"], ["d-e"]) == ()  # d-x-e would pass through the country


def test_borrowed_routes_and_failed_tickets_earn_nothing():
    g = tiny_game(board=LOOPS, scoring={"bonuses": {"two_paths": 3}}, stations={"costs": [1], "unused_points": 0})
    p = sheet(g, (["a-b", "b-c"], ["a-c", "a-d"]), (["a-c"], []), stations={0: ("a",)}).players[0]
    assert p.completed == (TICKET["a-c"],) and p.failed == (TICKET["a-d"],)  # a-c complete with the borrowed a-c
    assert p.two_path_tickets == () and p.breakdown["two_paths"] == 0


def test_a_ticket_with_several_destinations_counts_two_paths_to_any_one():
    g = loops_game(two_paths=3)
    p = sheet(g, (["a-b", "b-c", "a-c"], ["a-e|b"]), ([], [])).players[0]
    assert p.two_path_tickets == (TICKET["a-e|b"],) and p.breakdown["tickets_completed"] == 2


def test_each_such_ticket_scores_the_bonus_and_the_sheet_adds_up():
    g = loops_game(two_paths=3)
    p = sheet(g, (["a-b", "b-c", "a-c", "c-d", "d-e", "c-e"], ["a-c", "a-d", "c-x"]), ([], [])).players[0]
    assert p.two_path_tickets == (TICKET["a-c"], TICKET["a-d"])  # a-d: a-b-c-d and a-c-e-d; c-x is not reached
    assert p.failed == (TICKET["c-x"],)
    assert p.breakdown["two_paths"] == 6 and p.total == sum(p.breakdown.values())


# ------------------------------------------------------------------ most routes of a length
# docs/rules.md#most-routes-of-a-length: "every player tied for the most routes of exactly that length scores
# the points; nobody does when no one has such a route".


def test_the_player_with_most_routes_of_the_length_scores_it():
    g = loops_game(most_routes=[{"length": 2, "points": 5}, {"length": 3, "points": 8}])
    s = sheet(g, (["b-c", "d-e", "a-c"], []), (["e-x"], []))
    assert [p.breakdown["most_routes"] for p in s.players] == [5 + 8, 0]


def test_players_tied_for_most_routes_all_score_it():
    g = loops_game(3, most_routes=[{"length": 2, "points": 5}])
    s = sheet(g, (["b-c"], []), (["d-e"], []), (["a-b"], []))
    assert [p.breakdown["most_routes"] for p in s.players] == [5, 5, 0]


def test_nobody_scores_most_routes_of_a_length_nobody_claimed():
    g = loops_game(most_routes=[{"length": 3, "points": 8}])
    s = sheet(g, (["a-b"], []), (["d-e"], []))
    assert [p.breakdown["most_routes"] for p in s.players] == [0, 0]


def test_without_the_settings_the_sheet_has_no_such_rows():
    s = sheet(loops_game(), (["a-b"], []), ([], []))
    assert not {"two_paths", "most_routes"} & set(s.players[0].breakdown)


def test_a_length_given_twice_is_refused():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="gives a length twice"):
        loops_game(most_routes=[{"length": 2, "points": 5}, {"length": 2, "points": 3}])


def test_the_second_path_may_undo_part_of_the_first():
    from ttr_maps.engine.bonuses import separate_paths

    # The first path found is s-a-b-t; the two separate paths are s-a-d-t and s-c-b-t.
    edges = [("s", "a"), ("s", "c"), ("a", "b"), ("a", "d"), ("b", "t"), ("c", "b"), ("d", "t")]
    assert separate_paths(edges, {"s"}, {"t"}) == 2
    assert separate_paths(edges[:-1], {"s"}, {"t"}) == 1


def test_separate_paths_agree_with_a_maximum_flow():
    import random

    import networkx as nx

    from ttr_maps.engine.bonuses import separate_paths

    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(2, 6)
        edges = [tuple(rng.sample(range(n), 2)) for _ in range(rng.randint(0, 9))]
        g = nx.Graph()
        g.add_nodes_from(range(n))
        for a, b in edges:
            g.add_edge(a, b, capacity=g.edges[a, b]["capacity"] + 1 if g.has_edge(a, b) else 1)
        assert separate_paths(edges, {0}, {n - 1}) == min(2, nx.maximum_flow_value(g, 0, n - 1)), edges


def test_a_most_routes_bonus_for_a_length_the_board_lacks_is_v017_at_its_line(tmp_path):
    from ttr_maps.load import load

    text = TINY.read_text(encoding="utf-8").replace("board: ../boards/tiny.yaml", f"board: {TINY.parent.parent / 'boards' / 'tiny.yaml'}")
    text = text.replace("  bonuses: {longest_path: 0, most_tickets: 0, goods: true}",
                        "  bonuses:\n    goods: true\n    most_routes: [{length: 2, points: 4}, {length: 7, points: 9}]")
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    r = load(path)
    assert r.ok
    (d,) = [d for d in r.diagnostics if d.code == "V017"]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "most_routes" in s)
    assert (d.line, d.severity.value) == (line, "warning")
    assert "length 7" in d.message and "its lengths: 1, 2, 3" in d.message


# ------------------------------------------------------------------ the bots and the fan example


def test_bots_value_a_claim_by_the_bonuses_it_wins():
    g = loops_game(two_paths=3, most_routes=[{"length": 3, "points": 8}])
    s = make(g, seats={0: {"claims": [{"route": "a-b"}, {"route": "b-c"}], "tickets": ["a-c"]},
                       1: {"claims": [{"route": "c-e"}]}})
    bot = make_bot("expert", g, 0, 1)
    view = StateView(s, 0)
    bot.know.update(view)
    touched = bot.know.my_places()
    gain = {r: bot.bonus_gain(view, g.t.find_route(r), touched) for r in ("a-c", "c-d", "a-b-2")}
    # a-c closes the loop a-b-c (+3) and ties the 3-space routes with seat 1 (+8, and a share for the next one).
    assert gain["a-c"] == 3 + 8 + 0.25 * 8
    assert gain["c-d"] == 0  # touches the network at one end only, and is 1 space long
    assert gain["a-b-2"] == 0  # a second path between a and b, but no ticket a-b is kept


def test_bots_play_lakecrown_to_the_end_with_its_bonuses():
    from test_engine_published_rules import bot_records

    for rec in bot_records("lakecrown", 3):
        assert rec["end"] == "trains" and rec["counters"]["all-passed"] == 0
        for seat in rec["seats"]:
            assert {"two_paths", "most_routes"} <= set(seat["breakdown"])
            assert seat["score"] == sum(seat["breakdown"].values())


def test_printed_rules_explain_the_bonuses():
    from test_engine_published_rules import example

    from ttr_maps.render.rules import brief, sections

    g = example("lakecrown", 2)
    text = " ".join(line for _h, lines in sections(g.variant, g.board) for line in lines)
    assert "Each completed ticket whose places your own routes join by two separate paths" in text
    assert "Most routes of exactly 3 spaces scores +6" in text and "Most routes of exactly 7 spaces scores +10" in text
    assert "10: 32" in text and "50 trains" in text
    assert "Draw the first player at random; play then goes round the table." in text
    assert any("each ticket joined twice +4" in line and "most 7-space routes +10" in line for line in brief(g.variant, g.board))


def test_score_command_shows_the_bonus_rows_and_the_tickets_joined_twice(tmp_path):
    import json

    from click.testing import CliRunner
    from test_engine_published_rules import EXAMPLES

    from ttr_maps.cli.main import cli

    loop = ["shorebury-reedhaven", "reedhaven-mossport", "shorebury-ashcombe", "ashcombe-reedhaven",
            "reedhaven-brackenfield", "brackenfield-mossport"]  # two paths Shorebury-Mossport, both through Reedhaven
    position = {"format": "ttr-position/1", "variant": str(EXAMPLES / "lakecrown-rules.yaml"), "players": [
        {"name": "Ann", "routes": loop, "tickets": ["shorebury-mossport"]},
        {"name": "Bob", "routes": ["shorebury-pikeford", "lanterne-otterby"], "tickets": []},
    ]}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(position, sort_keys=False), encoding="utf-8")
    r = CliRunner().invoke(cli, ["score", str(path), "--format", "json"])
    assert r.exit_code == 0, r.output
    ann, bob = json.loads(r.output)["players"]
    assert ann["breakdown"] == {"routes": 24, "tickets_completed": 6, "tickets_failed": 0, "longest_path": 10, "most_tickets": 0,
                                "stations": 0, "goods": 0, "flags": 0, "two_paths": 4, "most_routes": 6}
    assert ann["two_paths"] == [{"from": "shorebury", "to": "mossport", "points": 6}] and bob["two_paths"] == []
    assert bob["breakdown"]["routes"] == 32 + 4 and bob["breakdown"]["most_routes"] == 0
    text = CliRunner().invoke(cli, ["score", str(path)]).output
    assert "two-paths bonus" in text and "most routes bonus" in text and "two paths: shorebury-mossport (6)" in text


# ------------------------------------------------------------------ the first player
# docs/rules.md#the-first-player: "`seat-0`, or `random`, a seat drawn from the game's seed (so a game replays
# from its seed, and the cards are dealt exactly as with `seat-0`). Play then goes on in seat order".


def _after_setup(state):
    """Keep every starting ticket offered, seat by seat, until the first turn."""
    while state.in_setup:
        do(state, "keep " + " ".join(str(i) for i in range(len(state.offers[state.current]))))
    return state


def test_the_first_player_plays_the_first_turn_then_play_goes_round():
    g = tiny_game(3)
    s = _after_setup(g.new_initial_state(5, first=2))
    assert s.current_player() == 2
    do(s, "draw blind", "draw blind")
    assert s.current_player() == 0  # after the last seat comes seat 0


def test_a_random_first_player_comes_from_the_seed_and_changes_no_card():
    plain = tiny_game(3)
    players = plain.variant.players.model_copy(update={"first": "random"})
    g = Game(plain.variant.model_copy(update={"players": players}), plain.board, 3)
    firsts = {seed: _after_setup(g.new_initial_state(seed)).current for seed in range(30)}
    assert set(firsts.values()) == {0, 1, 2}  # every seat starts some game
    assert all(_after_setup(g.new_initial_state(seed)).current == f for seed, f in firsts.items())  # replayable
    for seed in (1, 2, 3):
        a, b = g.new_initial_state(seed), plain.new_initial_state(seed)
        assert (a.hands, a.deck, a.face_up, a.offers) == (b.hands, b.deck, b.face_up, b.offers)


def test_the_bundled_editions_start_at_seat_0():
    for path in BUNDLED:
        assert load_variant(path)[0].players.first == "seat-0"


def test_state_new_takes_a_first_player_and_the_file_keeps_it(tmp_path):
    from click.testing import CliRunner

    from ttr_maps.cli.main import cli
    from ttr_maps.engine.statefile import load_state

    out = tmp_path / "game.yaml"
    r = CliRunner().invoke(cli, ["state", "new", str(TINY), "-p", "3", "-s", "4", "--first-player", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["first_player"] == 1
    s = load_state(out)
    assert s.in_setup and s.first == 1
    assert _after_setup(s).current_player() == 1
    for bad, words in (("3", "seat 3 does not exist with 3 players"), ("youngest", "give a seat number or one of: seat-0, random")):
        r = CliRunner().invoke(cli, ["state", "new", str(TINY), "-p", "3", "--first-player", bad])
        assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_a_state_file_naming_a_first_player_who_does_not_exist_is_t017():
    from ttr_maps.engine.statefile import StateFileError

    with pytest.raises(StateFileError) as info:
        make(tiny_game(2), first_player=2)
    assert info.value.code == "T017"


def test_simulate_counts_wins_by_turn_order():
    from test_engine_published_rules import bot_records, example

    from ttr_maps.simulate.summary import summarize

    records = bot_records("lakecrown", 2, games=4)
    assert all("first_player" in rec for rec in records)
    by_order = [0.0, 0.0]
    for rec in records:
        for w in rec["winners"]:
            by_order[(w - rec["first_player"]) % 2] += 1 / len(rec["winners"])
    summary = summarize(records, example("lakecrown", 2), {"bots": ["expert", "route-focus"], "seed": 11})
    assert [x["win"]["rate"] for x in summary["seats"]] == [pytest.approx(w / 4) for w in by_order]
    assert "first_player" not in bot_records("fjordland", 2, games=1)[0]  # seat 0 always first: as before
