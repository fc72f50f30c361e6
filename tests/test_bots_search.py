"""The search bot: worlds sampled from a seat's view, decisions blind to hidden information, options."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.bots import make_bot
from ttr_maps.bots.search import _World
from ttr_maps.bots.view import StateView
from ttr_maps.engine.actions import DrawTickets
from ttr_maps.engine.game import PH_KEEP, PH_TURN, Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "maps" / "variants"


def _position(variant: str, players: int, turns: int, seed: int = 4):
    """A position after `turns` turns of experts."""
    game = Game.from_file(VARIANTS / f"{variant}.yaml", players)
    bots = [make_bot("expert", game, s, s) for s in range(players)]
    state = game.new_initial_state(seed)
    while (state.turns < turns or state.phase != PH_TURN) and not state.is_terminal():
        p = state.current
        view = StateView(state, p)
        state.apply(bots[p].act(view, state.legal_actions(False)))
        view.close()
    return game, state


def _hide_differently(game, state, seat: int, seed: int):
    """A copy of `state` that differs only in what `seat` cannot see: deck order, other hands and tickets, piles."""
    other = state.clone()
    rng = random.Random(seed)
    pool = list(other.deck)
    for p in range(game.num_players):
        if p != seat:
            pool += [k for k, n in enumerate(other.hands[p]) for _ in range(n)]
    rng.shuffle(pool)
    for p in range(game.num_players):
        if p != seat:
            size = sum(other.hands[p])
            other.hands[p] = [0] * game.t.NK
            for k in pool[:size]:
                other.hands[p][k] += 1
            pool = pool[size:]
    other.deck = pool
    for p in range(game.num_players):
        if p != seat and other.kept[p]:
            # Swap a ticket with the bottom of a pile (same counts everywhere).
            name = next(n for n, pile in other.piles.items() if pile)
            k = other.kept[p][0]
            other.kept[p][0], other.piles[name][0] = other.piles[name][0], k
    for pile in other.piles.values():
        rng.shuffle(pile)
    assert other.observation(seat) == state.observation(seat)
    assert other.deck != state.deck or other.hands != state.hands
    return other


@pytest.mark.parametrize("infer", [0.0, 10.0])
@pytest.mark.parametrize("variant,players,turns", [("usa", 2, 12), ("europe", 3, 20), ("marklin", 2, 16), ("paris", 2, 10)])
def test_sampled_worlds_show_the_seat_exactly_its_view(variant, players, turns, infer):
    """Every world the search deals looks, from the seat, exactly like the real position (its observation is equal),
    while the hidden parts vary from world to world; with the other seats' tickets dealt by their claims too."""
    game, state = _position(variant, players, turns)
    seat = state.current
    view = StateView(state, seat)
    world = _World(game, view, infer)
    assert world.ok
    rng = random.Random(1)
    decks = set()
    for _ in range(5):
        s = world.sample(rng)
        assert s.observation(seat) == state.observation(seat)
        assert s.card_total() == state.card_total()
        decks.add(tuple(s.deck))
    assert len(decks) > 1


@pytest.mark.parametrize("variant,players", [("usa", 2), ("europe", 2), ("europe", 3)])
def test_worlds_at_setup_show_the_seat_exactly_its_view(variant, players):
    """At the choice of starting tickets (every seat in turn, the ones before it having kept theirs), the worlds look
    from the seat exactly like the real position: the other seats are offered, or hold, what the setup deals."""
    game = Game.from_file(VARIANTS / f"{variant}.yaml", players)
    state = game.new_initial_state(5)
    rng = random.Random(1)
    for seat in range(players):
        assert state.in_setup and state.current == seat and state.phase == PH_KEEP
        view = StateView(state, seat)
        world = _World(game, view)
        assert world.ok and world.setup
        for _ in range(5):
            s = world.sample(rng)
            assert s.in_setup
            assert s.observation(seat) == state.observation(seat)
            assert s.card_total() == state.card_total()
        state.apply(make_bot("expert", game, seat, seat).act(view, state.legal_actions(False)))
        view.close()
    assert not state.in_setup


@pytest.mark.parametrize("turns", [0, 30])
def test_worlds_deal_each_seat_at_most_one_long_ticket_on_europe(turns):
    """Europe's long tickets are dealt only at setup, one to a seat: in the worlds another seat holds at most one
    (before, it was dealt from every unseen ticket left out of the piles, most of them the boxed long ones) and holds
    one in most worlds, as the expert keeps its long ticket about 70% of the time."""
    game, state = _position("europe", 2, turns)
    seat = state.current
    other = 1 - seat
    longs = set(game.t.pile_tickets["long"])
    view = StateView(state, seat)
    world = _World(game, view)
    rng = random.Random(3)
    held = []
    for _ in range(200):
        s = world.sample(rng)
        assert len(s.kept[other]) == len(state.kept[other])
        held.append(sum(1 for k in s.kept[other] if k in longs))
    view.close()
    assert max(held) == 1 and 0.5 < sum(held) / len(held) < 0.9


@pytest.mark.parametrize("variant,players,turns", [("usa", 2, 40), ("europe", 2, 40)])
def test_worlds_deal_the_other_seat_tickets_its_claims_serve(variant, players, turns):
    """Read from its public claims, the other seat's real tickets are dealt to it in the search's worlds far more
    often with search.infer=10 than when its tickets are dealt uniformly from those the seat has not seen (the
    default, search.infer=0)."""
    game, state = _position(variant, players, turns)
    seat = state.current
    other = 1 - seat
    real = set(state.kept[other])
    assert real
    view = StateView(state, seat)
    share = {}
    for infer in (0.0, 10.0):
        world = _World(game, view, infer)
        rng = random.Random(2)
        hits = dealt = 0
        for _ in range(200):
            s = world.sample(rng)
            assert len(s.kept[other]) == len(real)
            hits += sum(1 for k in s.kept[other] if k in real)
            dealt += len(s.kept[other])
        share[infer] = hits / dealt
    view.close()
    assert share[10.0] > 2 * share[0.0]


@pytest.mark.parametrize("variant,players", [("usa", 2), ("europe", 3)])
def test_search_decisions_do_not_change_with_hidden_information(variant, players):
    """Two positions that differ only in what the seat cannot see (deck order, other hands, other tickets, the piles'
    order) get the same decision from search bots with the same seed: at turns and at a choice of tickets."""
    game, state = _position(variant, players, 14)
    seat = state.current
    checked = 0
    for step in range(5):
        other = _hide_differently(game, state, seat, step)
        choices = []
        for s in (state, other):
            # `when=all`: every turn is searched; the default searches only where the expert would not draw.
            for options in ({"budget": "6", "when": "all"}, {"budget": "6"}, {"budget": "6", "when": "all", "steps": "200"},
                            {"budget": "6", "when": "all", "infer": "10"}):
                bot = make_bot("search", game, seat, 99, options)
                view = StateView(s, seat)
                choices.append(bot.act(view, s.legal_actions(False)))
                view.close()
                if "when" in options:
                    assert bot.stats["searched"] == 1 and bot.stats["playouts"] >= (2 if "steps" in options else 6)
        assert choices[:4] == choices[4:]
        checked += 1
        if state.phase == PH_TURN and step == 2:
            draw = next(a for a in state.legal_actions() if type(a) is DrawTickets)
            state.apply(draw)  # now a choice of tickets
            assert state.phase == PH_KEEP
        else:
            state.apply(choices[0])
        while not state.is_terminal() and not (state.current == seat and state.phase in (PH_TURN, PH_KEEP)):
            p = state.current
            view = StateView(state, p)
            state.apply(make_bot("expert", game, p, p).act(view, state.legal_actions(False)))
            view.close()
        if state.is_terminal():
            break
    assert checked >= 3


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_search_chooses_its_starting_tickets_blind_to_hidden_information(variant):
    """The starting tickets are searched (four choices, the expert's first) and, like every decision, do not change
    when what the seat cannot see changes: the deck order and the other seat's offer (swapped with the pile's)."""
    game = Game.from_file(VARIANTS / f"{variant}.yaml", 2)
    for seat in (0, 1):
        state = game.new_initial_state(11)
        if seat == 1:
            view = StateView(state, 0)
            state.apply(make_bot("expert", game, 0, 0).act(view, state.legal_actions(False)))
            view.close()
        other = state.clone()
        rng = random.Random(seat)
        rng.shuffle(other.deck)
        if seat == 0:
            pile_of = game.t.ticket_pile
            for i, k in enumerate(other.offers[1]):
                pile = other.piles[pile_of[k]]
                other.offers[1][i], pile[0] = pile[0], k
        assert other.observation(seat) == state.observation(seat) and other.deck != state.deck
        choices = []
        for s in (state, other):
            bot = make_bot("search", game, seat, 3, {"budget": "8", "setup_steps": "1500"})
            view = StateView(s, seat)
            choices.append(bot.act(view, s.legal_actions(False)))
            view.close()
            assert bot.stats["searched"] == 1 and bot.stats["playouts"] >= 4
        assert choices[0] == choices[1]


def test_search_plays_the_experts_card_draws_and_searches_its_claims():
    """By default the search spends its budget where the expert would claim: the expert's card draws are played
    as they are, without a playout; `search.when=all` searches them too."""
    game = Game.from_file(VARIANTS / "usa.yaml", 2)
    bots = [make_bot("expert", game, s, s) for s in range(2)]
    state = game.new_initial_state(3)
    kinds = {"draw": 0, "claim": 0}
    while state.turns < 40 and not state.is_terminal():
        p = state.current
        legal = state.legal_actions(False)
        if state.phase == PH_TURN and state.turns > 2:
            view = StateView(state, p)
            expert = make_bot("expert", game, p, 7).act(view, legal)
            view.close()
            is_draw = type(expert).__name__ in ("DrawBlind", "DrawFaceUp")
            for options in ({"budget": "6"}, {"budget": "6", "when": "all"}):
                bot = make_bot("search", game, p, 7, options)
                view = StateView(state, p)
                got = bot.act(view, legal)
                view.close()
                if is_draw and "when" not in options:
                    assert got == expert and bot.stats["searched"] == 0 and bot.stats["playouts"] == 0
                elif bot.stats["searched"]:
                    assert bot.stats["playouts"] >= 6
            kinds["draw" if is_draw else "claim"] += 1
        view = StateView(state, p)
        state.apply(bots[p].act(view, legal))
        view.close()
    assert kinds["draw"] >= 3 and kinds["claim"] >= 3


def test_search_options_are_checked():
    game = Game.from_file(VARIANTS / "usa.yaml", 2)
    assert make_bot("search", game, 0, 0, {"budget": "64"}).playouts == 64
    assert make_bot("search", game, 0, 0, {"budget": "0.25s"}).seconds == 0.25
    assert make_bot("search", game, 0, 0, {"candidates": "5"}).max_candidates == 5
    assert make_bot("search", game, 0, 0, {"when": "all"}).when == "all"
    assert make_bot("search", game, 0, 0, {"steps": "2500"}).max_steps == 2500
    assert make_bot("search", game, 0, 0, {"steps": "none"}).max_steps is None
    assert make_bot("search", game, 0, 0, {"setup_steps": "8000"}).setup_steps == 8000
    assert make_bot("search", game, 0, 0, {"setup_steps": "none"}).setup_steps is None
    assert make_bot("search", game, 0, 0, {"infer": "0"}).infer == 0
    assert make_bot("search", game, 0, 0, {"infer": "4.5"}).infer == 4.5
    for bad in ({"budget": "0"}, {"budget": "fast"}, {"budget": "-1s"}, {"candidates": "1"}, {"when": "draws"},
                {"steps": "-5"}, {"steps": "lots"}, {"setup_steps": "-1"}, {"setup_steps": "x"}, {"infer": "-1"}, {"infer": "much"}, {"infer": "nan"}):
        [(key, value)] = bad.items()
        with pytest.raises(ValueError, match=re.escape(f"search.{key}={value!r}: give ")):  # names the option as given
            make_bot("search", game, 0, 0, bad)
    with pytest.raises(ValueError, match="no option 'depth'"):
        make_bot("search", game, 0, 0, {"depth": "2"})
    with pytest.raises(ValueError, match="'expert' has no option"):
        make_bot("expert", game, 0, 0, {"budget": "2"})


@pytest.mark.parametrize("args,message", [
    (["--bot-option", "search.budget"], "write it as BOT.KEY=VALUE"),
    (["--bot-option", "searchbudget=3"], "write it as BOT.KEY=VALUE"),
    (["--bot-option", "seek.budget=3"], "unknown bot 'seek'"),
    (["--bots", "expert", "--bot-option", "search.budget=3"], "no search bot plays"),
    (["--bot-option", "search.budget=many"], "give playouts per decision"),
])
def test_simulate_refuses_bad_bot_options(tmp_path, args, message):
    from ttr_maps.cli.main import cli

    base = ["simulate", str(VARIANTS / "usa.yaml"), "-n", "2", "-p", "2", "-q", "-o", str(tmp_path / "out")]
    if "--bots" not in args:
        base += ["--bots", "search,expert"]
    res = CliRunner().invoke(cli, base + args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert not (tmp_path / "out" / "records.jsonl").exists()


@pytest.mark.slow
def test_search_stops_at_its_cap_of_playout_actions():
    """`search.steps` caps the playout actions a decision may spend, whatever the playout budget: the search stops
    before a world that would pass it (at least one world is played), and the same seed makes the same decision."""
    game, state = _position("europe", 4, 12)
    seat = state.current
    legal = state.legal_actions(False)
    spent = {}
    for steps in ("none", "1500", "1500"):
        # A budget of 16 playouts spends over twice the cap here (3,468 actions): enough to show the cap stopping it.
        bot = make_bot("search", game, seat, 5, {"budget": "16", "when": "all", "steps": steps})
        view = StateView(state, seat)
        choice = bot.act(view, legal)
        view.close()
        assert bot.stats["searched"] == 1
        spent.setdefault(steps, []).append((bot.stats["steps"], bot.stats["playouts"], choice))
    free_steps, free_playouts, _ = spent["none"][0]
    capped_steps, capped_playouts, _ = spent["1500"][0]
    assert free_steps > 1500 and capped_playouts < free_playouts
    assert capped_steps <= 1500 or capped_playouts <= 3  # one world only may pass the cap
    assert spent["1500"][0] == spent["1500"][1]


def test_simulate_search_gives_the_same_games_on_any_number_of_workers(tmp_path):
    """`simulate --bots search,expert` with a playout budget: the same records from one process and from two."""
    from ttr_maps.cli.main import cli

    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        res = CliRunner().invoke(cli, ["simulate", str(VARIANTS / "paris.yaml"), "-n", "4", "-p", "2", "--bots", "search,expert",
                                       "--bot-option", "search.budget=6", "--bot-option", "search.candidates=3",
                                       "-w", workers, "-q", "-o", str(out)])
        assert res.exit_code == 0, res.output
        outs.append((out / "records.jsonl").read_text(encoding="utf-8"))
    assert outs[0] == outs[1] and outs[0].count("\n") == 4
    assert '"search"' in outs[0]


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("europe", 3), ("marklin", 2), ("paris", 2)])
def test_search_plays_whole_games_legally(variant, players):
    """Stations, tunnels, passengers and flags: a search bot with a small budget finishes games the runner accepts."""
    from ttr_maps.simulate.runner import play_game

    game = Game.from_file(VARIANTS / f"{variant}.yaml", players)
    rec = play_game(game, ["search"] + ["expert"] * (players - 1), 5, 0, bot_options=(("search", "budget", "2"),))
    assert rec["end"] != "capped" and len(rec["seats"]) == players
