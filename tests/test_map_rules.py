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
