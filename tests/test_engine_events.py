"""The events State.apply emits (ttr_maps/engine/events.py): what each action did, as the recorder reads it."""

import random
from pathlib import Path

from ttr_maps.engine.events import Claimed, StationBuilt, TicketsKept
from ttr_maps.engine.game import Game

MAPS = Path(__file__).resolve().parent.parent / "maps" / "variants"


def _play(variant: str, players: int, seed: int):
    game = Game.from_file(MAPS / variant, players)
    state = game.new_initial_state(seed)
    state.events = []
    rng = random.Random(seed)
    seen = {Claimed: 0, TicketsKept: 0, StationBuilt: 0}
    while not state.is_terminal():
        p = state.current
        claims, kept, stations = len(state.claims[p]), len(state.kept[p]), len(state.stations[p])
        offer, hand = list(state.offers[p]), state.hands[p][:]
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        events, state.events = state.events, []
        for e in events:
            seen[type(e)] += 1
            assert e.seat == p
            if type(e) is Claimed:
                assert state.claims[p][claims:] == [e.tid]
            elif type(e) is TicketsKept:
                assert state.kept[p][kept:] == list(e.kept)
                assert sorted(e.kept + e.returned) == sorted(offer)
            else:
                assert state.stations[p][stations:] == [e.place]
                assert sum(hand) - sum(state.hands[p]) >= e.paid[1] + e.paid[2]
        # a claim, a kept offer or a station never happens without its event
        assert len(state.claims[p]) - claims == sum(type(e) is Claimed for e in events)
        assert (len(state.kept[p]) > kept) <= any(type(e) is TicketsKept for e in events)
        assert len(state.stations[p]) - stations == sum(type(e) is StationBuilt for e in events)
    return seen


def test_every_claim_keep_and_station_is_told():
    seen = _play("europe.yaml", 3, 5)
    assert seen[Claimed] > 10 and seen[TicketsKept] >= 3 and seen[StationBuilt] >= 1


def test_tunnel_claims_tell_their_extra_cards():
    game = Game.from_file(MAPS / "europe.yaml", 2)
    rng = random.Random(2)
    extra = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        state.events = []
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        extra += sum(1 for e in state.events if type(e) is Claimed and e.extra)
    assert extra > 0


def test_nothing_is_collected_unless_asked_and_a_copy_collects_nothing():
    game = Game.from_file(MAPS / "usa.yaml", 2)
    state = game.new_initial_state(1)
    assert state.events is None
    state.events = []
    copy = state.clone()
    assert copy.events is None and copy == state
