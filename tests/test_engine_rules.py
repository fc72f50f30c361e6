"""Scenario tests: one or more for every rule of docs/rules.md the engine plays.

Each sets up a position (a state file in tests/scenarios/ or a small dict in the
`ttr-state/1` format), applies actions, and checks what is legal, what happens
and the score.
"""

from __future__ import annotations

import copy
from functools import lru_cache

import pytest

from conftest import MAPS, ROOT
from ttr_maps.engine import errors
from ttr_maps.engine.actions import (
    ClaimTrack,
    DrawBlind,
    Pass,
)
from ttr_maps.engine.errors import IllegalAction
from ttr_maps.engine.game import Game, State
from ttr_maps.engine.statefile import load_state, state_from_dict

SCENARIOS = ROOT / "tests" / "scenarios"
TINY = SCENARIOS / "variants" / "tiny.yaml"


@lru_cache(maxsize=None)
def game(variant: str, players: int) -> Game:
    path = TINY if variant == "tiny" else MAPS / "variants" / f"{variant}.yaml"
    return Game.from_file(path, players)


FACE_UP = {"paris": ["red", "blue", "green", "yellow", "purple"], "tiny": ["red", "blue", "green"]}


def merge(base: dict, extra: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def make(variant: str = "usa", players: int = 2, seats: dict[int, dict] | None = None, **fields) -> State:
    """A hand-made position: what is not given is empty, the deck and piles are the rest, shuffled (seed 1)."""
    g = game(variant, players)
    data = {
        "format": "ttr-state/1",
        "variant": "unused",
        "seed": 1,
        "phase": "turn",
        "players": [dict((seats or {}).get(p, {})) for p in range(players)],
        "cards": {"face_up": FACE_UP.get(variant, ["red", "blue", "green", "yellow", "black"])},
    }
    return state_from_dict(g, merge(data, fields))


def legal_texts(state: State) -> list[str]:
    return [state.game.action_text(a) for a in state.legal_actions()]


def claim(state: State, route: str, payment: str, track: str | None = None) -> ClaimTrack:
    text = f"claim {route} {track + ' ' if track else ''}{payment}"
    (action,) = state.game.parse_actions(text, state)
    return action


def do(state: State, *texts: str) -> State:
    for text in texts:
        for a in state.game.parse_actions(text, state):
            state.apply(a)
    return state


def refused(state: State, text: str, rule: str) -> IllegalAction:
    before = state.clone()
    (a,) = state.game.parse_actions(text, state)
    assert a not in state.legal_actions()
    with pytest.raises(IllegalAction) as info:
        state.apply(a)
    assert info.value.rule == rule, info.value
    assert state == before, "a refused action changed the state"
    return info.value


def hand(state: State, seat: int) -> dict[str, int]:
    t = state.t
    return {t.kinds[k]: n for k, n in enumerate(state.hands[seat]) if n}


def face_up(state: State) -> list[str | None]:
    return [state.t.kinds[k] if k >= 0 else None for k in state.face_up]


# ---------------------------------------------------------------------------------------------- drawing cards

def test_scenario_file_face_up_locomotive_is_the_whole_draw():
    s = load_state(SCENARIOS / "usa-face-up-locomotive.yaml")
    assert face_up(s)[0] == "locomotive"
    do(s, "draw faceup 0")
    assert hand(s, 0) == {"red": 2, "locomotive": 1}
    assert s.current_player() == 1 and s.phase_name == "turn"
    assert face_up(s)[0] == "white"  # replaced from the deck top


def test_face_up_locomotive_never_the_second_card_even_a_fresh_replacement():
    s = load_state(SCENARIOS / "usa-face-up-locomotive.yaml")
    do(s, "draw faceup 1")  # red, replaced by the white card from the deck
    assert s.phase_name == "second-draw"
    assert "draw faceup 0" not in legal_texts(s)  # the face-up locomotive
    refused(s, "draw faceup 0", errors.R_FACE_UP_LOCO)
    s2 = make(cards={"face_up": ["red", "blue", "green", "yellow", "black"], "deck_top": ["locomotive", "white"]})
    do(s2, "draw faceup 0")
    assert face_up(s2)[0] == "locomotive"
    refused(s2, "draw faceup 0", errors.R_FACE_UP_LOCO)
    do(s2, "draw faceup 1")
    assert hand(s2, 0) == {"red": 1, "blue": 1} and s2.current_player() == 1


def test_blind_locomotive_does_not_end_the_draw():
    s = make(cards={"deck_top": ["locomotive", "locomotive", "red"]})
    do(s, "draw blind")
    assert s.phase_name == "second-draw" and s.current_player() == 0
    do(s, "draw blind")
    assert hand(s, 0) == {"locomotive": 2} and s.current_player() == 1


def test_face_up_locomotive_as_first_card_also_after_a_blind_one_is_refused():
    s = make(cards={"face_up": ["locomotive", "red", "blue", "green", "yellow"], "deck_top": ["black"]})
    do(s, "draw blind")
    refused(s, "draw faceup 0", errors.R_FACE_UP_LOCO)


def test_three_face_up_locomotives_force_a_redeal():
    s = make(
        cards={
            "face_up": ["locomotive", "locomotive", "red", "blue", "green"],
            "deck_top": ["locomotive", "white", "black", "orange", "pink", "yellow", "red"],
        }
    )
    do(s, "draw faceup 2")  # red out, a third locomotive in: redeal
    assert face_up(s) == ["white", "black", "orange", "pink", "yellow"]
    assert s.discard[s.t.LOCO] == 3 and s.discard_total == 5
    assert s.counters["face-up-redeals"] == 1
    assert s.phase_name == "second-draw"


def test_redeal_loop_stops_when_no_redeal_can_change_the_row():
    # Every coloured card is in the hands except the two face up: a redeal could only show locomotives again.
    seats = {0: {"hand": {c: 12 for c in ("pink", "white", "yellow", "orange", "black")} | {"red": 11, "green": 11}},
             1: {"hand": {"blue": 11}}}
    s = make(seats=seats, cards={"face_up": ["locomotive", "locomotive", "red", "blue", "green"]})
    assert s.deck.count(s.t.LOCO) == len(s.deck) == 12
    do(s, "draw faceup 2")
    assert face_up(s) == ["locomotive", "locomotive", "locomotive", "blue", "green"]
    assert s.counters["redeal-loop-stopped"] == 1
    assert s.counters.get("face-up-redeals", 0) == 0
    # Open case answered: the row stays, and a locomotive from it is still the whole draw for the next player.
    do(s, "draw blind")  # second card, deck is all locomotives
    assert s.current_player() == 1


def test_stopped_redeal_loop_is_taken_up_again_once_a_redeal_could_change_the_row():
    """docs/rules.md#the-face-up-row (checked at setup and whenever the row changes) and #the-redeal-loop:
    a row left face up because no redeal could change it is redealt as soon as one could, e.g. after a claim
    puts coloured cards in the discards, not only when someone next takes a face-up card."""
    seats = {0: {"hand": {c: 12 for c in ("pink", "white", "yellow", "orange", "black")} | {"red": 11, "green": 11}},
             1: {"hand": {"blue": 11}}}
    s = make(seats=seats, cards={"face_up": ["locomotive", "locomotive", "red", "blue", "green"]})
    do(s, "draw faceup 2", "draw blind")
    assert face_up(s) == ["locomotive", "locomotive", "locomotive", "blue", "green"]
    assert s.counters["redeal-loop-stopped"] == 1 and s.counters.get("face-up-redeals", 0) == 0
    do(s, "claim atlanta-miami blue 5blue")  # 5 blue cards to the discards: a redeal can now show 2 locomotives
    assert s.counters["face-up-redeals"] >= 1
    assert sum(1 for k in s.face_up if k == s.t.LOCO) < 3
    assert s.counters["redeal-loop-stopped"] == 1, "the stop is counted once"


def test_redeal_happens_when_a_redeal_could_change_the_row():
    seats = {0: {"hand": {c: 12 for c in ("pink", "white", "yellow", "orange", "black")} | {"red": 10, "green": 11}},
             1: {"hand": {"blue": 11}}}
    s = make(seats=seats, cards={"face_up": ["locomotive", "locomotive", "red", "blue", "green"], "deck_top": ["locomotive"]})
    do(s, "draw faceup 2")  # pool: 11 locomotives + red + blue + green: 3 coloured cards, a row of 2 locos is possible
    assert s.counters["face-up-redeals"] >= 1
    assert s.counters["redeal-loop-stopped"] == 0
    assert sum(1 for k in s.face_up if k == s.t.LOCO) < 3


def test_empty_deck_reshuffles_the_discards_and_no_blind_draw_without_cards():
    seats = {0: {"hand": {"blue": 11, "red": 11}},
             1: {"hand": {"pink": 12, "white": 12, "orange": 12, "black": 11, "yellow": 11, "green": 11, "locomotive": 14}}}
    s = make(seats=seats, cards={"deck": []})
    assert s.deck == [] and s.discard_total == 0
    assert "draw blind" not in legal_texts(s)
    refused(s, "draw blind", errors.R_DRAW)
    do(s, "claim atlanta-miami blue 5blue")  # the paid cards are the only discards
    assert "draw blind" in legal_texts(s)
    do(s, "draw blind")
    assert s.counters["reshuffles"] == 1 and len(s.deck) == 4 and s.discard_total == 0
    assert hand(s, 1)["blue"] == 1


def test_second_draw_impossible_ends_the_draw_with_one_card():
    # All cards in hands except the face-up row: red and two locomotives; deck and discards empty.
    seats = {0: {"hand": {c: 12 for c in ("pink", "white", "blue", "yellow", "orange", "black", "green")} | {"red": 11}},
             1: {"hand": {"locomotive": 12}}}
    s = make(seats=seats, cards={"deck": [], "face_up": ["red", "locomotive", "locomotive", None, None]})
    assert legal_texts(s)[:3] == ["draw faceup 0", "draw faceup 1", "draw faceup 2"]
    do(s, "draw faceup 0")
    assert s.current_player() == 1, "the draw ended with one card"
    assert s.counters["second-draw-impossible"] == 1
    assert face_up(s) == [None, "locomotive", "locomotive", None, None]


def test_pass_only_when_nothing_is_legal_and_all_passing_ends_the_game():
    # Tiny board: every route claimed, no cards to draw (all in hands), no tickets left.
    seats = {
        0: {"hand": {"red": 4, "blue": 4, "green": 4, "locomotive": 4, "passenger": 2}, "claims": [{"route": "a-b"}, {"route": "b-c", "track": 0}, {"route": "a-d"}],
            "stations": ["a", "b"], "tickets": ["a-c", "b-d"], "passengers_unplaced": 0},
        1: {"claims": [{"route": "c-d"}, {"route": "d-x"}, {"route": "b-d"}], "tickets": ["a-x", "c-d"], "stations": ["c", "d"], "passengers_unplaced": 0},
    }
    s = make("tiny", seats=seats, cards={"deck": [], "face_up": [None, None, None]})
    assert s.legal_actions() == [Pass()]
    s.apply(Pass())
    assert s.current_player() == 1 and s.counters["pass"] == 1
    s.apply(Pass())
    assert s.is_terminal() and s.counters["all-passed"] == 1
    sheet = s.score_sheet()
    assert [p.total for p in sheet.players] == s.returns()


def test_pass_refused_when_something_else_is_legal():
    s = make()
    refused(s, "pass", errors.R_PASS)


# ---------------------------------------------------------------------------------------------- claiming

def test_claim_pays_one_colour_with_locomotives_and_scores_the_table():
    s = make(seats={0: {"hand": {"blue": 3, "locomotive": 2, "red": 4}}})
    texts = legal_texts(s)
    assert {t for t in texts if t.startswith("claim atlanta-miami")} == {
        "claim atlanta-miami blue 3blue+2loco",
    }
    refused(s, "claim atlanta-miami blue 3red+2loco", errors.R_CLAIM)
    refused(s, "claim atlanta-miami blue 5blue", errors.R_CLAIM)  # not held
    do(s, "claim atlanta-miami 3blue+2loco")
    assert s.scores[0] == 10 and s.trains[0] == 40
    assert hand(s, 0) == {"red": 4}
    assert s.discard_total == 5


def test_gray_route_takes_any_single_colour():
    s = make(seats={0: {"hand": {"red": 1, "blue": 2, "locomotive": 1}}})
    got = {t for t in legal_texts(s) if t.startswith("claim atlanta-charleston")}
    assert got == {"claim atlanta-charleston gray 1red+1loco", "claim atlanta-charleston gray 2blue",
                   "claim atlanta-charleston gray 1blue+1loco"}
    refused(s, "claim atlanta-charleston 1red+1blue", errors.R_CLAIM)


def test_malformed_payments_are_refused_saying_what_is_wrong():
    """docs/rules.md#claiming-a-route (all of one colour; locomotives replace any card): the refusal says why, not a generic text."""
    s = make(seats={0: {"hand": {"red": 1, "blue": 2, "locomotive": 1}}})
    assert "mixes" in refused(s, "claim atlanta-charleston 1red+1blue", errors.R_CLAIM).reason
    assert "more than any payment needs" in refused(s, "claim atlanta-charleston 99red", errors.R_CLAIM).reason
    assert "has 2 spaces but the payment has 3" in refused(s, "claim atlanta-charleston 3red", errors.R_CLAIM).reason


def test_claim_needs_enough_trains():
    s = make(seats={0: {"hand": {"blue": 5}, "trains": 4}})
    assert not any(t.startswith("claim atlanta-miami") for t in legal_texts(s))
    refused(s, "claim atlanta-miami 5blue", errors.R_TRAINS)


def test_one_route_per_turn_then_the_next_player():
    s = make(seats={0: {"hand": {"red": 4}}})
    do(s, "claim boston-new-york red 2red")
    assert s.current_player() == 1


def test_double_route_two_or_three_players_closes_the_other_track():
    for players in (2, 3):
        s = make(players=players, seats={0: {"hand": {"red": 2}}, 1: {"hand": {"yellow": 2}}})
        do(s, "claim boston-new-york red 2red")
        assert not any(t.startswith("claim boston-new-york") for t in legal_texts(s))
        refused(s, "claim boston-new-york yellow 2yellow", errors.R_PARALLEL)


def test_double_route_four_players_other_track_open_to_others_not_to_the_same_player():
    s = make(players=4, seats={0: {"hand": {"red": 2, "yellow": 4}}, 1: {"hand": {"yellow": 2}}})
    do(s, "claim boston-new-york red 2red")
    assert "claim boston-new-york yellow 2yellow" in legal_texts(s)
    do(s, "draw blind", "draw blind", "draw blind", "draw blind", "draw blind", "draw blind")  # seats 1-3
    assert s.current_player() == 0
    refused(s, "claim boston-new-york yellow 2yellow", errors.R_PARALLEL)


# ---------------------------------------------------------------------------------------------- tickets

def test_usa_setup_deals_three_keep_two_and_returns_under_the_deck():
    s = game("usa", 2).new_initial_state(3)
    assert s.phase_name == "keep-tickets" and [len(o) for o in s.offers] == [3, 3]
    assert set(legal_texts(s)) == {"keep 0 1", "keep 0 2", "keep 1 2", "keep 0 1 2"}
    refused(s, "keep 1", errors.R_KEEP)
    returned = s.offers[0][2]
    do(s, "keep 0 1")
    assert s.piles["main"][0] == returned  # the bottom of the pile
    do(s, "keep 0 1 2")
    assert s.phase_name == "turn" and s.current_player() == 0 and not s.in_setup
    assert len(s.piles["main"]) == 30 - 5


def test_draw_tickets_three_keep_one_rest_under_the_deck_in_order():
    s = make(tickets={"pile_tops": {"main": ["boston-miami", "dallas-new-york", "denver-el-paso"]}})
    do(s, "tickets")
    assert s.phase_name == "keep-tickets"
    assert [s.t.ticket_keys[k] for k in s.offers[0]] == ["boston-miami", "dallas-new-york", "denver-el-paso"]
    refused(s, "keep", errors.R_KEEP)
    do(s, "keep 1")
    assert [s.t.ticket_keys[k] for k in s.kept[0]] == ["dallas-new-york"]
    bottom = [s.t.ticket_keys[k] for k in s.piles["main"][:2]]
    assert bottom == ["denver-el-paso", "boston-miami"]  # boston-miami went under first
    assert s.current_player() == 1


def test_draw_tickets_takes_what_is_left_and_is_unavailable_when_empty():
    t = game("usa", 2).t
    keys = [t.ticket_keys[k] for k in t.pile_tickets["main"]]
    assert len(keys) == 30
    s = make(seats={0: {"tickets": keys[:29]}}, tickets={"piles": {"main": [keys[29]]}})
    do(s, "tickets")
    assert len(s.offers[0]) == 1
    assert legal_texts(s) == ["keep 0"]
    do(s, "keep 0")
    assert "tickets" not in legal_texts(s)
    refused(s, "tickets", errors.R_TICKETS)


# ---------------------------------------------------------------------------------------------- end of game

def test_end_trigger_gives_everyone_one_final_turn():
    s = make(players=3, seats={0: {"hand": {"red": 2}, "trains": 4}})
    do(s, "claim boston-new-york red 2red")
    assert s.trains[0] == 2 and s.final_left == 3 and not s.is_terminal()
    do(s, "draw blind", "draw blind")  # seat 1
    do(s, "draw blind", "draw blind")  # seat 2
    assert not s.is_terminal() and s.current_player() == 0
    do(s, "draw blind", "draw blind")  # seat 0's final turn
    assert s.is_terminal() and s.current_player() == -1
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        s.apply(DrawBlind())
    assert info.value.rule == errors.R_OVER
    sheet = s.score_sheet()
    for p in sheet.players:
        assert p.total == sum(p.breakdown.values())
    assert sheet.players[0].breakdown["routes"] == 2


def test_tie_broken_by_most_completed_tickets():
    # Tiny board, final turn: seat 0 has 2 route points and no ticket, seat 1 completes c-d (1) with 1 route point.
    seats = {
        0: {"claims": [{"route": "b-c", "track": 0}], "tickets": [], "stations": ["a", "b"]},
        1: {"claims": [{"route": "c-d"}], "tickets": ["c-d"], "stations": ["c", "d"], "hand": {"red": 1}},
    }
    s = make("tiny", seats=seats, current=1, final_turns_left=1)
    do(s, "draw blind", "draw blind")
    assert s.is_terminal()
    sheet = s.score_sheet()
    assert s.returns() == [2, 2]
    assert sheet.winners == (1,) and sheet.tie_break_used == "most-tickets"


def test_tie_broken_by_fewest_stations_then_shared():
    # Equal totals, equal tickets: fewer stations built wins (scores set by hand: live route points).
    seats = {
        0: {"claims": [{"route": "b-c", "track": 0}], "stations": ["a"], "score": 5},
        1: {"claims": [{"route": "c-d"}], "stations": [], "score": 1, "hand": {"red": 1}},
    }
    s = make("tiny", seats=seats, current=1, final_turns_left=1)
    do(s, "draw blind", "draw blind")
    sheet = s.score_sheet()
    assert s.returns() == [5 + 4, 1 + 8]
    assert sheet.winners == (1,) and sheet.tie_break_used == "fewest-stations"
    # Same stations too: the tie is shared.
    seats = {
        0: {"claims": [{"route": "b-c", "track": 0}], "stations": ["a"]},
        1: {"claims": [{"route": "c-d"}, {"route": "d-x"}], "stations": ["c"], "hand": {"red": 1}},
    }
    s = make("tiny", seats=seats, current=1, final_turns_left=1)
    do(s, "draw blind", "draw blind")
    assert s.returns() == [6, 6] and s.winners() == (0, 1)


# ---------------------------------------------------------------------------------------------- Europe

def test_ferry_needs_its_locomotives():
    s = make("europe", seats={0: {"hand": {"red": 4, "locomotive": 1}}})
    got = {t for t in legal_texts(s) if t.startswith("claim athina-brindisi")}
    assert got == {"claim athina-brindisi gray 3red+1loco"}
    refused(s, "claim athina-brindisi 4red", errors.R_FERRY)
    assert not any(t.startswith("claim amsterdam-london") for t in legal_texts(s))  # 2 locomotives needed
    s2 = make("europe", seats={0: {"hand": {"red": 4, "locomotive": 2}}})
    got = {t for t in legal_texts(s2) if t.startswith("claim athina-brindisi")}
    assert got == {"claim athina-brindisi gray 3red+1loco", "claim athina-brindisi gray 2red+2loco"}
    assert {t for t in legal_texts(s2) if t.startswith("claim amsterdam-london")} == {"claim amsterdam-london gray 2loco"}


def test_scenario_file_tunnel_matching_cards_cost_extra():
    s = load_state(SCENARIOS / "europe-tunnel.yaml")
    do(s, "claim angora-smyrna orange 3orange")
    assert s.phase_name == "tunnel" and s.tunnel.extra == 2  # orange and a locomotive turned up
    assert set(legal_texts(s)) == {"tunnel pay 1orange+1loco", "tunnel pay 2loco", "tunnel abandon"}
    refused(s, "tunnel pay 2red", errors.R_TUNNEL)
    refused(s, "tunnel pay 1orange", errors.R_TUNNEL)
    do(s, "tunnel pay 1orange+1loco")
    assert s.owner[s.t.route_tids[s.t.route_by_id["angora-smyrna"]][0]] == 0
    assert s.scores[0] == 4 and s.trains[0] == 42
    assert hand(s, 0) == {"locomotive": 1}
    assert s.discard_total == 5 + 3  # the paid cards and the turned-up ones
    assert s.current_player() == 1


def test_tunnel_abandoned_returns_the_cards():
    s = load_state(SCENARIOS / "europe-tunnel.yaml")
    do(s, "claim angora-smyrna orange 3orange", "tunnel abandon")
    assert hand(s, 0) == {"orange": 4, "locomotive": 2}
    assert s.discard_total == 3 and s.current_player() == 1
    assert s.owner[s.t.route_tids[s.t.route_by_id["angora-smyrna"]][0]] == -1
    assert s.counters["tunnels-abandoned"] == 1


def test_tunnel_paid_with_locomotives_only_counts_only_locomotives():
    s = make("europe", seats={0: {"hand": {"locomotive": 5}}}, cards={"deck_top": ["orange", "locomotive", "red"]})
    do(s, "claim angora-smyrna orange 3loco")
    assert s.tunnel.extra == 1
    assert set(legal_texts(s)) == {"tunnel pay 1loco", "tunnel abandon"}


def test_tunnel_without_match_is_claimed_at_once():
    s = make("europe", seats={0: {"hand": {"orange": 3}}}, cards={"deck_top": ["red", "blue", "green"]})
    do(s, "claim angora-smyrna orange 3orange")
    assert s.phase_name == "turn" and s.current_player() == 1 and s.scores[0] == 4


def test_tunnel_short_deck_turns_up_what_there_is():
    # Only one card left in deck + discards: it is turned up; with none, the tunnel costs nothing more.
    row = ["pink", "white", "blue", "yellow", "black"]
    seats = {0: {"hand": {"orange": 12, "locomotive": 13}}, 1: {"hand": {c: 11 for c in row} | {"red": 12, "green": 12}}}
    s = make("europe", seats=seats, cards={"face_up": row})
    assert len(s.deck) == 1 and s.t.kinds[s.deck[0]] == "locomotive"
    do(s, "claim angora-smyrna orange 3orange")
    assert s.counters["tunnel-short-reveal"] == 1 and s.tunnel.extra == 1
    do(s, "tunnel pay 1orange")
    seats[0]["hand"]["locomotive"] = 14
    s2 = make("europe", seats=seats, cards={"face_up": row})
    assert s2.deck == [] and s2.discard_total == 0
    do(s2, "claim angora-smyrna orange 3orange")
    assert s2.phase_name == "turn" and s2.scores[0] == 4 and s2.counters["tunnel-short-reveal"] == 1


def test_stations_cost_one_two_three_cards_one_per_city():
    s = make("europe", players=2, seats={0: {"hand": {"red": 6, "blue": 1, "locomotive": 1}}, 1: {"hand": {"red": 6}}},
             cards={"face_up": ["white", "blue", "green", "yellow", "black"]})
    got = {t for t in legal_texts(s) if t.startswith("station wien")}
    assert got == {"station wien 1red", "station wien 1blue", "station wien 1loco"}
    do(s, "station wien 1loco")
    assert [s.t.place_ids[x] for x in s.stations[0]] == ["wien"]
    refused(s, "station wien 1red", errors.R_STATION)  # seat 1: already a station there
    do(s, "station berlin 1red")
    refused(s, "station paris 1red", errors.R_STATION)  # the second station costs 2
    refused(s, "station paris 1red+1blue", errors.R_STATION)  # of one colour
    assert {t for t in legal_texts(s) if t.startswith("station paris")} == {"station paris 2red"}
    do(s, "station paris 2red")
    do(s, "draw blind", "draw blind")
    assert {t for t in legal_texts(s) if t.startswith("station madrid")} == {"station madrid 3red"}
    do(s, "station madrid 3red")
    do(s, "draw blind", "draw blind")
    assert not any(t.startswith("station") for t in legal_texts(s))  # all three built
    refused(s, "station lisboa 1red", errors.R_STATION)
    assert len(s.stations[0]) == 3


def test_europe_setup_one_long_three_regular_keep_two_rest_to_the_box():
    s = game("europe", 2).new_initial_state(11)
    t = s.t
    for seat in (0, 1):
        piles = [t.ticket_pile[k] for k in s.offers[seat]]
        assert piles == ["long", "regular", "regular", "regular"]
    assert "keep 0" not in legal_texts(s) and "keep 0 1" in legal_texts(s)
    do(s, "keep 0 1", "keep 2 3")
    assert not s.in_setup
    assert len(s.boxed) == 2 + 2 + (6 - 2)  # returned tickets and undealt long tickets
    assert s.piles["long"] == [] and len(s.piles["regular"]) == 40 - 6
    do(s, "tickets")
    assert [t.ticket_pile[k] for k in s.offers[0]] == ["regular"] * 3


def test_mega_europe_keep_at_most_one_long_then_three_in_all():
    """The rulebook: 2 long tickets, keep 1 or none; then 5 regular, keep >= 3 (>= 2 with a long one)."""
    s = game("mega-europe", 2).new_initial_state(5)
    t = s.t
    assert [[t.ticket_pile[k] for k in o] for o in s.offers] == [["long", "long"], ["long", "long"]]
    assert set(legal_texts(s)) == {"keep", "keep 0", "keep 1"}
    refused(s, "keep 0 1", errors.R_KEEP)
    do(s, "keep 1", "keep")  # seat 0 keeps one long ticket, seat 1 none
    assert s.in_setup and [[t.ticket_pile[k] for k in o] for o in s.offers] == [["regular"] * 5] * 2
    assert min(len(a.indices) for a in s.legal_actions()) == 2  # seat 0 kept a long one
    refused(s, "keep 0", errors.R_KEEP)
    do(s, "keep 0 1")
    assert min(len(a.indices) for a in s.legal_actions()) == 3  # seat 1 kept none
    refused(s, "keep 0 1", errors.R_KEEP)
    do(s, "keep 0 1 2")
    assert not s.in_setup and [len(k) for k in s.kept] == [3, 3]
    # unkept regular tickets were shuffled under the regular pile; long ones went to the box
    assert len(s.piles["regular"]) == 89 - 10 + 3 + 2
    assert len(s.boxed) == (12 - 4) + 1 + 2  # undealt long tickets and the returned long ones
    assert s.piles["long"] == []


def test_big_cities_draws_four_and_shuffles_setup_returns_under():
    s = game("big-cities", 2).new_initial_state(8)
    assert [len(o) for o in s.offers] == [5, 5]
    returned = {s.offers[0][k] for k in (2, 3, 4)} | {s.offers[1][k] for k in (3, 4)}
    do(s, "keep 0 1", "keep 0 1 2")
    assert set(s.piles["main"][:5]) == returned  # under the deck
    do(s, "tickets")
    assert len(s.offers[0]) == 4


# ---------------------------------------------------------------------------------------------- Märklin

def test_marklin_face_up_locomotive_counts_as_two_big_locomotive_as_one():
    s = make("marklin", cards={"face_up": ["big-locomotive", "big-locomotive", "red", "locomotive", "blue"], "deck_top": ["green", "white"]})
    do(s, "draw faceup 0")
    assert s.phase_name == "second-draw"
    assert "draw faceup 1" in legal_texts(s) and "draw faceup 3" not in legal_texts(s)
    do(s, "draw faceup 1")
    assert hand(s, 0) == {"big-locomotive": 2}
    do(s, "draw faceup 3")
    assert s.current_player() == 0 and hand(s, 1) == {"locomotive": 1}


def test_big_locomotive_is_wild_only_on_routes_of_four_or_more():
    s = make("marklin", seats={0: {"hand": {"orange": 2, "red": 2, "big-locomotive": 2}}})
    texts = legal_texts(s)
    assert "claim berlin-leipzig orange 2orange+2big" in texts  # length 4
    assert not any(t.startswith("claim berlin-magdeburg") for t in texts)  # red, length 3
    refused(s, "claim berlin-magdeburg red 2red+1big", errors.R_BIG_LOCO)


def test_passenger_cards_never_pay_for_a_route():
    s = make("marklin", seats={0: {"hand": {"passenger": 5, "red": 2}}})
    assert not any("passenger" in t for t in legal_texts(s) if t.startswith("claim"))
    refused(s, "claim berlin-magdeburg red 2red+1passenger", errors.R_CLAIM)


def test_three_face_up_passenger_cards_force_a_redeal():
    s = make("marklin", cards={"face_up": ["passenger", "passenger", "red", "blue", "green"],
                               "deck_top": ["passenger", "white", "black", "orange", "pink", "yellow"]})
    do(s, "draw faceup 2")
    assert face_up(s) == ["white", "black", "orange", "pink", "yellow"]


def test_triple_route_two_players_one_track_only():
    s = make("marklin", players=3, seats={0: {"hand": {"red": 1}}, 1: {"hand": {"blue": 1}}})
    do(s, "claim dortmund-dusseldorf gray.0 1red", "passenger skip")
    assert not any(t.startswith("claim dortmund-dusseldorf") for t in legal_texts(s))
    s4 = make("marklin", players=4, seats={0: {"hand": {"red": 1}}, 1: {"hand": {"blue": 1}}})
    do(s4, "claim dortmund-dusseldorf gray.0 1red", "passenger skip")
    assert {t for t in legal_texts(s4) if t.startswith("claim dortmund-dusseldorf")} == {
        "claim dortmund-dusseldorf gray.1 1blue", "claim dortmund-dusseldorf gray.2 1blue"}


def test_scenario_file_passenger_placed_after_a_claim_then_moved_collecting_goods():
    s = load_state(SCENARIOS / "marklin-passenger.yaml")
    do(s, "claim berlin-magdeburg red 3red")
    assert s.phase_name == "place-passenger"
    assert set(legal_texts(s)) == {"passenger berlin", "passenger magdeburg", "passenger skip"}
    do(s, "passenger berlin")
    assert s.passenger_at[s.t.place_index["berlin"]] == 0 and s.passengers_unplaced[0] == 2
    do(s, "draw blind", "draw blind")  # seat 1
    moves = [t for t in legal_texts(s) if t.startswith("move")]
    # own route to magdeburg is free; seat 1's berlin-hamburg costs a passenger card
    assert set(moves) == {"move berlin magdeburg", "move berlin hamburg 1passenger"}
    refused(s, "move berlin hamburg 0", errors.R_PASSENGER)
    do(s, "move berlin hamburg 1passenger")
    assert s.phase_name == "journey"
    assert s.goods_taken[0] == [4]  # hamburg's red stack
    assert hand(s, 0).get("passenger", 0) == 0
    assert legal_texts(s) == ["move hamburg bremen", "move stop"]  # not back along berlin-hamburg
    refused(s, "move hamburg berlin 1passenger", errors.R_PASSENGER)
    do(s, "move stop")
    assert s.passengers_moved[0] == 1 and s.current_player() == 1
    assert s.t.place_index["berlin"] not in s.passenger_at


def test_passenger_journey_takes_one_token_per_place_never_at_the_start():
    s = load_state(SCENARIOS / "marklin-passenger.yaml")
    do(s, "claim berlin-magdeburg red 3red", "passenger magdeburg", "draw blind", "draw blind")
    do(s, "move magdeburg berlin", "move berlin hamburg 1passenger", "move hamburg bremen")
    assert s.goods_taken[0] == [7, 4] + ([s.goods_taken[0][2]] if len(s.goods_taken[0]) > 2 else [])
    assert s.phase_name == "turn" and s.current_player() == 1  # no ride left from bremen: the journey ended
    assert s.passengers_moved[0] == 1


def test_passengers_never_go_into_a_country():
    s = make("marklin", seats={0: {"hand": {"green": 5}}})
    do(s, "claim bremerhaven-danemark 5green")
    assert set(legal_texts(s)) == {"passenger bremerhaven", "passenger skip"}
    refused(s, "passenger danemark", errors.R_PASSENGER)
    do(s, "passenger bremerhaven", "draw blind", "draw blind")
    assert not any(t.startswith("move") for t in legal_texts(s))  # the only route leads into Denmark


@pytest.mark.parametrize("twins", [False, True])
def test_first_rides_listed_are_every_ride_from_the_players_passengers(twins):
    """Through seeded random Märklin games, each main turn lists, as its `move` actions, the rides the current
    player's passengers may take (passengers in place order, the rides of each in the board's order, one per
    destination and cost: own routes free, an opponent's for a passenger card held), as passengers._rides
    gives them. `twins`: the listing's check for two routes to one place switched on everywhere."""
    import random

    from ttr_maps.engine import passengers
    from ttr_maps.engine.actions import MovePassenger

    g = Game.from_file(MAPS / "variants" / "marklin.yaml", 4)
    if twins:
        g.ride_ways = [(ways, True) for ways, _ in g.ride_ways]
    rng = random.Random(5)
    listed = paid = 0
    for seed in range(6):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.phase_name == "turn":
                want = []
                for place in sorted(x for x, q in s.passenger_at.items() if q == s.current):
                    seen = set()
                    for _r, dest, cost in passengers._rides(s, place, None):
                        if (dest, cost) not in seen:
                            seen.add((dest, cost))
                            want.append((s.t.place_ids[place], s.t.place_ids[dest], cost))
                got = [(a.path[0], a.path[1], len(a.payment)) for a in legal if type(a) is MovePassenger]
                assert got == want
                listed += len(want)
                paid += sum(cost for *_, cost in want)
            s.apply(rng.choice(legal))
    assert listed > 100 and paid > 20


def test_ticket_mixes_listed_follow_the_piles():
    """Through seeded random Märklin games (one Game, so lists kept from earlier games are read again), each main
    turn lists one ticket draw per mix the piles allow (tickets.mixes), in its order, and nothing else once the
    piles are empty; the games must see the piles at many sizes, empty ones too."""
    import random

    from ttr_maps.engine import tickets
    from ttr_maps.engine.actions import DrawTickets

    g = game("marklin", 4)
    rng = random.Random(3)
    sizes = set()
    for seed in range(4):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.phase_name == "turn":
                want = tickets.mixes(s, g.draw_deal)
                assert [a.mix for a in legal if type(a) is DrawTickets] == want
                sizes.add(tuple(len(s.piles[p]) for p in g.draw_piles))
            s.apply(rng.choice(legal))
    assert len(sizes) > 20 and (0, 0) in sizes


def test_marklin_ticket_mix_in_play_and_at_setup():
    s = game("marklin", 2).new_initial_state(4)
    assert s.phase_name == "announce-mix"
    texts = legal_texts(s)
    assert texts == ["tickets 0 4", "tickets 1 3", "tickets 2 2", "tickets 3 1", "tickets 4 0"]
    refused(s, "tickets 2 1", errors.R_TICKETS)
    do(s, "tickets 1 3")
    assert [s.t.ticket_pile[k] for k in s.offers[0]] == ["short", "long", "long", "long"]
    assert "keep 0" not in legal_texts(s)
    do(s, "keep 0 1", "tickets 4 0", "keep 2 3")
    assert not s.in_setup
    assert len(s.piles["short"]) == 23 - 3 and len(s.piles["long"]) == 23 - 1  # returned ones reshuffled in
    do(s, "tickets 2 2")
    assert len(s.offers[0]) == 4
    do(s, "keep 0")
    assert len(s.kept[0]) == 3


# ---------------------------------------------------------------------------------------------- Paris

def test_scenario_file_french_flag_scores_at_the_end_of_the_turn():
    s = load_state(SCENARIOS / "paris-flags.yaml")
    assert [s.t.kinds[c] for c in s.flag_cards[0]] == ["white", "red"]
    do(s, "claim opera-louvre blue 1blue+1joker")
    assert s.phase_name == "flag"
    assert legal_texts(s) == ["flag blue", "flag skip"]
    refused(s, "flag red", errors.R_FLAG)
    do(s, "flag blue")
    assert s.flag_sets[0] == 1 and s.flag_cards[0] == []
    assert s.scores[0] == 2 + 4
    assert s.current_player() == 1


def test_no_flag_choice_with_that_colour_already_in_front_or_only_jokers():
    s = load_state(SCENARIOS / "paris-flags.yaml")
    do(s, "claim invalides-montparnasse red 3red")
    assert s.phase_name == "turn" and s.current_player() == 1  # a red card is already in front
    s2 = make("paris", seats={0: {"hand": {"joker": 2}}})
    do(s2, "claim opera-louvre blue 2joker")
    assert s2.current_player() == 1


def test_flag_skip_discards_the_paid_cards():
    s = make("paris", seats={0: {"hand": {"blue": 2}}})
    do(s, "claim opera-louvre blue 2blue", "flag skip")
    assert s.flag_cards[0] == [] and s.discard_total == 2


def test_paris_two_players_one_track_of_a_double_three_players_both():
    s = make("paris", players=2, seats={0: {"hand": {"white": 2}}, 1: {"hand": {"purple": 2}}})
    do(s, "claim montmartre-gare-du-nord white 2white", "flag skip")
    assert not any(t.startswith("claim montmartre-gare-du-nord") for t in legal_texts(s))
    s3 = make("paris", players=3, seats={0: {"hand": {"white": 2}}, 1: {"hand": {"purple": 2}}})
    do(s3, "claim montmartre-gare-du-nord white 2white", "flag skip")
    assert "claim montmartre-gare-du-nord purple 2purple" in legal_texts(s3)


def test_paris_draw_two_keep_one_and_the_last_ticket_must_be_kept():
    s = make("paris")
    do(s, "tickets")
    assert len(s.offers[0]) == 2 and set(legal_texts(s)) == {"keep 0", "keep 1", "keep 0 1"}


# ---------------------------------------------------------------------------------------------- any board

def test_tiny_board_country_ticket_and_goods_scored_at_the_end():
    seats = {
        0: {"claims": [{"route": "a-b"}, {"route": "b-d"}, {"route": "d-x"}], "tickets": ["a-x"], "goods": [3]},
        1: {"hand": {"red": 1}},
    }
    s = make("tiny", seats=seats, current=1, final_turns_left=1, goods={"b": [[2, 1]], "c": [[2]]})
    do(s, "draw blind", "draw blind")
    sheet = s.score_sheet()
    b = sheet.players[0].breakdown
    assert b["tickets_completed"] == 4 and b["goods"] == 3 and b["routes"] == 1 + 2 + 1
    assert sheet.players[0].total == sum(b.values())


def test_setup_with_too_few_tickets_deals_what_is_left():
    s = game("tiny", 3).new_initial_state(2)
    assert [len(o) for o in s.offers] == [2, 2, 0]
    do(s, "keep 0", "keep 0 1")
    assert not s.in_setup and s.phase_name == "turn"


def test_longest_path_bonus_at_the_end():
    # USA, seat 0's last turn: its trail Vancouver-Seattle-Portland-San Francisco (7 trains) beats seat 1's 4.
    seats = {
        0: {"claims": [{"route": "seattle-vancouver"}, {"route": "portland-seattle"}, {"route": "portland-san-francisco"}],
            "hand": {"red": 1}},
        1: {"claims": [{"route": "calgary-helena"}]},
    }
    s = make(seats=seats, final_turns_left=1)
    do(s, "draw blind", "draw blind")
    sheet = s.score_sheet()
    assert [p.breakdown["longest_path"] for p in sheet.players] == [10, 0]
    assert [p.longest_trail for p in sheet.players] == [7, 4]


def test_marklin_most_tickets_bonus_and_goods_at_the_end():
    # Seat 0 completes Bremerhaven-Schwerin and holds goods; seat 1 completes nothing.
    seats = {
        0: {"claims": [{"route": "bremerhaven-hamburg"}, {"route": "hamburg-schwerin"}], "tickets": ["bremerhaven-schwerin"],
            "goods": [4, 2], "hand": {"red": 1}},
        1: {"tickets": ["bremen-magdeburg"]},
    }
    s = make("marklin", seats=seats, final_turns_left=1, goods={"hamburg": [[3, 2]], "bremerhaven": []})
    do(s, "draw blind", "draw blind")
    b0, b1 = (p.breakdown for p in s.score_sheet().players)
    assert b0["most_tickets"] == 10 and b1["most_tickets"] == 0
    assert b0["goods"] == 6 and b0["tickets_completed"] == 5 and b1["tickets_failed"] == -7
    assert b0["longest_path"] == 0  # no longest-path bonus in Märklin
