"""Scenario tests for the rules of published maps beyond the seed editions, each written from the
wording of its section of docs/rules.md, on the tiny test board with one setting switched on."""

from __future__ import annotations

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


def tiny_game(players: int = 2, board: dict | None = None, **rules) -> Game:
    """The tiny test variant with `rules` merged into its settings (and `board` into its board)."""
    variant, b = _tiny()
    v = Variant.model_validate(merge(variant.model_dump(by_alias=True), rules))
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
    for rec in bot_records("fjordland", 2):
        assert rec["end"] == "trains" and rec["counters"]["all-passed"] == 0
        assert min(seat["trains_left"] for seat in rec["seats"]) <= 2
        assert all(seat["breakdown"]["routes"] >= 25 for seat in rec["seats"])


def test_printed_rules_say_where_locomotives_pay():
    from ttr_maps.render.rules import brief, sections

    g = example("fjordland", 2)
    text = " ".join(line for _h, lines in sections(g.variant, g.board) for line in lines)
    assert "Locomotives pay only on ferries and tunnels." in text
    assert "Locomotives pay only on ferries and tunnels." in brief(g.variant, g.board)
