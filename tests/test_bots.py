"""Bots: every bot plays every bundled variant legally to the end; bots see only their seat's observation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import player_range
from ttr_maps.bots import BOTS, bot_names, make_bot
from ttr_maps.bots.view import ObservationView, StateView
from ttr_maps.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml"))
PLANNING = ["expert", "route-focus", "ticket-hungry", "long-route"]


def _games():
    cache = {}

    def get(path, n):
        key = (path, n)
        if key not in cache:
            cache[key] = Game.from_file(path, n)
        return cache[key]

    return get


GAME = _games()


def play(game: Game, names: list[str], seed: int, check=None):
    bots = [make_bot(name, game, s, seed * 7 + s) for s, name in enumerate(names)]
    state = game.new_initial_state(seed)
    steps = 0
    while not state.is_terminal():
        p = state.current
        legal = state.legal_actions()
        view = StateView(state, p)
        a = bots[p].act(view, legal)
        assert a in legal, f"{names[p]} chose an illegal action {a!r} in phase {state.phase_name}"
        if check:
            check(state, p, view)
        state.apply(a)
        steps += 1
        assert steps < 20_000, "the game did not finish"
    return state


def test_registry_names_every_bot():
    assert bot_names() == ["random", "route-focus", "ticket-hungry", "long-route", "expert", "search"]
    for name, cls in BOTS.items():
        assert cls.name == name and cls.description


def test_unknown_bot_is_a_clear_error():
    game = GAME(VARIANTS[0], 2)
    with pytest.raises(KeyError, match="unknown bot 'nobody'; known bots: random"):
        make_bot("nobody", game, 0, 1)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_every_bot_finishes_every_variant_legally(variant):
    """Each bundled variant: the four planning bots, and the expert against random, each play a whole game legally."""
    game4 = GAME(variant, 4)
    state = play(game4, PLANNING, seed=11)
    assert state.is_terminal()
    assert state.counters.get("all-passed", 0) == 0  # the bots ended the game by trains, not by getting stuck
    assert len(state.score_sheet().players) == 4
    game2 = GAME(variant, 2)
    state = play(game2, ["expert", "random"], seed=5)
    assert state.is_terminal()


def _player_counts(variant):
    fewest, most = player_range(variant)
    return sorted({max(2, fewest), most})  # two players (or the fewest allowed) and the most


# The search bot plays whole games for each decision: tests/test_bots_search.py plays it on every kind of board.
LEGALITY = [(v, bot, n) for v in VARIANTS for bot in BOTS if bot != "search" for n in _player_counts(v)]


@pytest.mark.slow
@pytest.mark.parametrize("variant, bot, players", LEGALITY, ids=lambda x: x.stem if isinstance(x, Path) else str(x))
def test_each_bot_plays_only_legal_actions_at_two_and_most_players(variant, bot, players):
    """Every bundled variant, every bot in every seat, at 2 and at the most players: two seeded games each;
    every action chosen is in the engine's legal list and every game ends."""
    game = GAME(variant, players)
    for seed in (1, 2):
        state = play(game, [bot] * players, seed)
        assert state.is_terminal()
        assert state.score_sheet() is not None


def test_bots_are_deterministic_given_their_seeds():
    game = GAME(ROOT / "maps" / "variants" / "europe.yaml", 3)
    a = play(game, ["expert", "random", "long-route"], seed=3)
    b = play(game, ["expert", "random", "long-route"], seed=3)
    assert a.history == b.history


def test_a_bots_generator_is_its_seeds_whenever_first_asked_for():
    """A bot's generator is made when first asked for (planning bots never draw): the numbers of Random(seed),
    whatever the bot did before, and the same generator on every later ask."""
    game = GAME(ROOT / "maps" / "variants" / "usa.yaml", 2)
    for name in bot_names():
        bot = make_bot(name, game, 1, 12345)
        assert bot._rng is None  # (none made with the bot)
        want = random.Random(12345)
        assert [bot.rng.random() for _ in range(5)] == [want.random() for _ in range(5)]
        assert bot.rng is bot.rng and bot.rng.getstate() == want.getstate()
    for names in (PLANNING[:2], PLANNING[2:]):  # planning bots play a game without one
        bots = [make_bot(name, game, s, 5) for s, name in enumerate(names)]
        state = game.new_initial_state(2)
        while not state.is_terminal():
            state.apply(bots[state.current].act(StateView(state, state.current), state.legal_actions()))
        assert all(b._rng is None for b in bots)


@pytest.mark.parametrize("variant", ["usa", "europe", "marklin"])
def test_long_ticket_piles_kept_per_board_are_the_variants(variant):
    """The ticket piles with a long deck, worked out by a game's first planning bot and kept per board: every
    later bot of every style holds the same set, the piles whose decks are long."""
    game = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", 3)
    want = {pile for pile, decks in game.variant.tickets.piles.items()
            if any(game.board.decks.get(d) is not None and game.board.decks[d].long for d in decks)}
    assert want or variant == "usa"  # (USA has one pile, not long; Europe and Märklin a long one)
    for seed in range(2):
        for s, name in enumerate(PLANNING[:3]):
            assert make_bot(name, game, s, seed).long_piles == want


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda p: p.stem)
def test_state_view_shows_exactly_the_observation(variant):
    """The fast view (which writes state.observation(seat)) and the view read back from that dict answer
    alike, for every seat, in positions of a whole game; the dict read back is written again unchanged."""
    game = GAME(variant, 3)
    rng = random.Random(variant.stem)
    seen = [0]

    def check(state, p, view):
        if rng.random() < 0.15:
            for seat in range(game.num_players):
                obs = state.observation(seat)
                # JSON text, not dict equality: the two views must also list things (passengers...) in the same order.
                want = json.dumps(obs)
                assert _reads(StateView(state, seat)) == _reads(ObservationView(game, obs))
                assert json.dumps(ObservationView(game, obs).to_observation()) == want
            seen[0] += 1

    play(game, ["expert", "random", "route-focus"], seed=2, check=check)
    assert seen[0] > 5


def _reachable(root, stop):
    """Every object reachable from `root` through instance attributes and containers (not classes or modules)."""
    seen = {}
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or o is stop:
            continue
        seen[id(o)] = o
        if isinstance(o, (str, int, float, bool, type(None))):
            continue
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend(o)
        else:
            for name in getattr(type(o), "__slots__", ()):
                if hasattr(o, name):
                    stack.append(getattr(o, name))
            stack.extend(getattr(o, "__dict__", {}).values())
    return list(seen.values())


def _reads(view):
    """Everything a view answers, seat by seat (its whole public surface)."""
    out = {name: getattr(view, name) for name in ("phase", "turn", "final_round", "current_player", "hand", "tickets",
                                                   "offered", "face_up", "deck", "discards", "ticket_piles", "passengers",
                                                   "goods", "tunnel", "journey")}
    for name in ("claims", "claim_count", "trains", "cards", "ticket_count", "offered_count", "stations", "stations_left",
                 "score", "passengers_unplaced", "passengers_moved", "goods_taken", "flag_cards", "flag_sets"):
        out[name] = [getattr(view, name)(p) for p in range(view.num_players)]
    out["claim_counts"] = view.claim_counts()
    # The claims after the first i, past the end too (Knowledge.update reads only the new ones): claims(p)[i:].
    out["claims_from"] = [[view.claims_from(p, i) for i in range(len(out["claims"][p]) + 2)] for p in range(view.num_players)]
    assert out["claims_from"] == [[c[i:] for i in range(len(c) + 2)] for c in out["claims"]]
    return out


def _mid_game(variant: str, players: int, turns: int):
    game = GAME(ROOT / "maps" / "variants" / variant, players)
    bots = [make_bot("expert", game, s, s) for s in range(players)]
    state = game.new_initial_state(4)
    while state.turns < turns and not state.is_terminal():
        p = state.current
        state.apply(bots[p].act(StateView(state, p), state.legal_actions()))
    return game, state


@pytest.mark.parametrize("variant", ["usa.yaml", "europe.yaml", "marklin.yaml"])
def test_closed_views_lead_to_no_hidden_information(variant):
    """A view is for one decision: once closed (the runner closes it when the bot has answered) it holds no reference
    to the state nor to any hidden part of it (deck, other hands, tickets, offers), and every read raises."""
    from ttr_maps.bots.view import ViewClosed

    game, state = _mid_game(variant, 3, 12)
    seat = state.current
    view = StateView(state, seat)
    kept = _reads(view)  # what the bot read during its decision is its own copy
    view.close()
    hidden = [state, state.deck, state.hands, state.kept, state.offers, state.piles, state.rng, state.discard]
    hidden += [state.hands[p] for p in range(3) if p != seat] + [state.kept[p] for p in range(3) if p != seat]
    hidden += [state.offers[p] for p in range(3) if p != seat] + list(state.piles.values())
    for root in (view, kept):
        reached = _reachable(root, stop=game)  # the Game is the public rules and board
        assert not any(any(x is h for h in hidden) for x in reached)
        assert not any(type(x).__name__ == "State" for x in reached)
    assert not hasattr(view, "__dict__")
    for read in (lambda: view.hand, lambda: view.trains(0), lambda: view.phase, lambda: view.claims(seat),
                 lambda: view.claims_from(seat, 0), lambda: view.claim_counts(), lambda: view.turn):
        with pytest.raises(ViewClosed):
            read()
    view.close()  # closing twice is harmless


@pytest.mark.parametrize("variant", ["usa.yaml", "europe.yaml", "marklin.yaml", "paris.yaml"])
def test_views_do_not_change_with_hidden_information(variant):
    """Two positions that differ only in what a seat cannot see give that seat identical views."""
    game, state = _mid_game(variant, 3, 10)
    seat = state.current
    other = state.clone()
    rng = random.Random(1)
    rng.shuffle(other.deck)
    for p in range(3):
        if p == seat:
            continue
        hand = other.hands[p]
        total = sum(hand)
        hand[:] = [0] * len(hand)
        for _ in range(total):  # another hand of the same size
            hand[rng.randrange(game.t.NC)] += 1
        other.kept[p] = [(k + 1) % len(game.t.tickets) for k in other.kept[p]]  # other tickets, as many
    for pile in other.piles.values():
        rng.shuffle(pile)
    assert other.hands != state.hands or other.deck != state.deck
    assert other.observation(seat) == state.observation(seat)
    assert _reads(StateView(other, seat)) == _reads(StateView(state, seat))


def test_expert_beats_random():
    """The strongest bot wins nearly every game against random (a quick check; benchmarks/bench_simulate.py measures more)."""
    game = GAME(ROOT / "maps" / "variants" / "usa.yaml", 2)
    wins = 0
    for seed in range(10):
        names = ["expert", "random"] if seed % 2 == 0 else ["random", "expert"]
        state = play(game, names, seed)
        wins += names.index("expert") in state.winners()
    assert wins >= 9


@pytest.mark.slow
def test_expert_plays_for_french_flags():
    """Paris: the expert aims for flag colours (and pays them with a card of the colour), so it completes more flags
    than route-focus, which only sets a flag card when one happens to come."""
    game = GAME(ROOT / "maps" / "variants" / "paris.yaml", 2)
    sets = {"expert": 0, "route-focus": 0}
    for seed in range(40):
        names = ["expert", "route-focus"] if seed % 2 == 0 else ["route-focus", "expert"]
        state = play(game, names, seed)
        for p, name in enumerate(names):
            sets[name] += state.flag_sets[p]
    assert sets["expert"] > sets["route-focus"], sets


def test_expert_claims_tunnels_it_can_pay_the_extra_cards_of():
    """Europe: the expert keeps a spare card for a tunnel's extra cost after the payment it makes (planned routes and
    fillers alike), so it gives up far fewer of the tunnels that ask for extra cards than the expert that counted the
    spare before its payment and not at all for fillers (careful_tunnels=False)."""
    from ttr_maps.bots.expert import ExpertBot
    from ttr_maps.engine.actions import AbandonTunnel, PayTunnel

    game = GAME(ROOT / "maps" / "variants" / "europe.yaml", 2)
    outcome = {}
    for careful in (True, False):
        paid = given_up = 0
        for seed in range(12):
            bots = [make_bot("expert", game, s, s + 10 * seed) for s in range(2)]
            for b in bots:
                assert isinstance(b, ExpertBot)
                b.careful_tunnels = careful
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                p = state.current
                view = StateView(state, p)
                a = bots[p].act(view, state.legal_actions(False))
                view.close()
                paid += type(a) is PayTunnel
                given_up += type(a) is AbandonTunnel
                state.apply(a)
        outcome[careful] = (paid, given_up)
    (paid, given_up), (paid_old, given_up_old) = outcome[True], outcome[False]
    assert given_up_old > paid_old  # the old expert gave up most of them
    assert given_up < paid and given_up * 2 < given_up_old, outcome
