"""The mechanics interface (ttr_maps/engine/mechanic.py): the list a Game builds from its variant, and a
mechanic defined only here, added through the list, with its own slice of the state and its hooks."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from ttr_maps.engine import mechanic
from ttr_maps.engine.actions import Action
from ttr_maps.engine.errors import R_TURN, IllegalAction
from ttr_maps.engine.game import Game, State
from ttr_maps.engine.mechanic import Mechanic
from ttr_maps.engine.notation import NotationError, usage
from ttr_maps.engine.position import PlayerPosition, Position
from ttr_maps.engine.scoring import ScoringError, final_score

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "maps" / "variants").glob("*.yaml")) + sorted((ROOT / "examples").glob("*-rules.yaml"))


def _expected(variant, board) -> tuple[str, ...]:
    """The mechanics a variant's own switches ask for, written from the variant file's fields."""
    names = []
    if variant.stations.costs:
        names.append("stations")
    if variant.flags.colors:
        names.append("flags")
    if variant.passengers.count > 0 or variant.scoring.bonuses.goods:
        names.append("passengers")
    if variant.stand_ins.ferry or variant.stand_ins.routes:
        names.append("stand-ins")
    if any(r.tunnel for r in board.routes):
        names.append("tunnels")
    b = variant.scoring.bonuses
    for name, on in (("longest-path", b.longest_path), ("most-tickets", b.most_tickets), ("two-paths", b.two_paths), ("most-routes", b.most_routes)):
        if on:
            names.append(name)
    return tuple(names)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_the_list_a_game_builds_follows_the_variant_switches(path):
    game = Game.from_file(path, 2)
    assert game.mechanic_names == _expected(game.variant, game.board)
    for name in ("stations", "flags", "passengers", "stand-ins", "tunnels", "longest-path", "most-tickets", "two-paths", "most-routes"):
        assert game.uses(name) == (name in _expected(game.variant, game.board))


class Tally(Mechanic):
    """A made-up mechanic: each claim puts a token on the claimer's tally; at the end of each turn the
    seat's turn count goes up; each token scores 1 at the end. The tally is public."""

    name = "tally"
    fields = ("tally", "tally_turns")
    calls: list[str]

    def __init__(self, variant_name: str):
        self.variant_name = variant_name
        self.calls = []

    def enabled(self, variant, board) -> bool:
        return variant.name == self.variant_name

    def new(self, state) -> None:
        state.tally = [0] * state.game.num_players
        state.tally_turns = [0] * state.game.num_players

    def copy(self, src, dst) -> None:
        dst.tally = src.tally[:]
        dst.tally_turns = src.tally_turns[:]

    def key(self, state) -> tuple:
        return (tuple(state.tally), tuple(state.tally_turns))

    def write(self, state, data) -> None:
        if any(state.tally) or any(state.tally_turns):
            data["mechanics"][self.name] = {"tokens": list(state.tally), "turns": list(state.tally_turns)}

    def read(self, rd, state) -> None:
        mine = rd.sf.mechanics.get(self.name)
        if mine is None:
            return
        if len(mine.get("tokens", [])) != len(state.tally):
            rd.error("one tally per seat", ("mechanics", self.name, "tokens"))
        state.tally = list(mine["tokens"])
        state.tally_turns = list(mine["turns"])

    def observe(self, view, obs) -> None:
        obs["tally"] = list(view._s.tally)

    def scoring_data(self, state, p):
        return state.tally[p]

    def after_claim(self, state, tid, paid) -> bool:
        self.calls.append("after_claim")
        state.tally[state.current] += 1
        return False

    def end_of_turn(self, state) -> None:
        self.calls.append("end_of_turn")
        state.tally_turns[state.current] += 1

    def final_scoring(self, variant, board, player) -> dict[str, int]:
        self.calls.append("final_scoring")
        return {"tally": dict(player.mechanics).get(self.name, 0)}


@pytest.fixture
def tally(monkeypatch):
    m = Tally("USA")
    monkeypatch.setattr(mechanic, "MECHANICS", mechanic.MECHANICS + [m])
    return m


def _play(game: Game, seed: int, until=None) -> State:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal() and (until is None or not until(state)):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_mechanic_added_through_the_list_keeps_its_slice_and_gets_its_hooks(tally):
    game = Game.from_file("usa", 3)
    assert game.mechanic_names == ("longest-path", "tally")
    state = _play(game, 5)
    claims = [len(c) for c in state.claims]
    assert sum(claims) > 0
    assert state.tally == claims  # one after_claim per claim, for the claimer
    assert sum(state.tally_turns) == state.turns  # one end_of_turn per turn played (setup included)
    sheet = state.score_sheet()
    assert "final_scoring" in tally.calls
    for p, pl in enumerate(sheet.players):
        assert pl.breakdown["tally"] == claims[p]
        assert pl.total == sum(pl.breakdown.values())
    # Without the mechanic the same game scores exactly the tally less.
    plain = final_score(game.variant, game.board, state.position())
    mechanic.MECHANICS.remove(tally)
    without = final_score(game.variant, game.board, state.position())
    assert [a.total - b.total for a, b in zip(plain.players, without.players)] == claims


def test_its_slice_is_copied_compared_and_round_trips_through_the_state_file(tally):
    game = Game.from_file("usa", 2)
    state = _play(game, 2, until=lambda s: sum(s.tally) >= 3)
    copy = state.clone()
    assert copy == state
    copy.tally[0] += 1
    assert copy != state and copy.tally != state.tally  # the copy is its own
    data = json.loads(json.dumps(state.to_dict()))
    assert data["mechanics"]["tally"]["tokens"] == state.tally
    back = State.from_dict(game, data)
    assert back == state and back.tally == state.tally and back.tally_turns == state.tally_turns
    assert state.observation(1)["tally"] == state.tally
    data["mechanics"]["tally"]["tokens"] = [1]
    with pytest.raises(ValueError, match=r"mechanics\.tally\.tokens: one tally per seat"):
        State.from_dict(game, data)


def test_a_variant_that_does_not_switch_it_on_runs_none_of_its_hooks(tally):
    game = Game.from_file("europe", 2)
    assert "tally" not in game.mechanic_names
    state = _play(game, 1)
    assert tally.calls == [] and state.tally == [0, 0]
    assert "mechanics" not in state.to_dict()  # an empty slice writes nothing: the file is as without it


class MostClaims(Mechanic):
    """A made-up bonus that compares players: `points` to every player tied for the most claimed routes
    (at least one), under the row `most_claims`; it notes each seat's count."""

    name = "most-claims"

    def __init__(self, variant_name: str, points: int = 7):
        self.variant_name = variant_name
        self.points = points

    def enabled(self, variant, board) -> bool:
        return variant.name == self.variant_name

    def final_scoring_table(self, table):
        counts = [len(p.claims) for p in table.position.players]
        for notes, c in zip(table.notes, counts):
            notes[self.name] = c
        return [{"most_claims": w} for w in mechanic.tied_for_most(counts, self.points)]


def _position(*claims_per_seat: int) -> Position:
    """Seats owning the given numbers of routes (distinct routes, in board order)."""
    players, r = [], 0
    for n in claims_per_seat:
        players.append(PlayerPosition(claims=tuple((r + i, 0) for i in range(n))))
        r += n
    return Position(tuple(players))


@pytest.mark.parametrize(
    "claims, won",
    [
        ((3, 1, 2), (7, 0, 0)),  # the most claims
        ((3, 1, 3), (7, 0, 7)),  # tied for the most: each scores the full points (docs/rules.md#final-scoring)
        ((2, 2, 2), (7, 7, 7)),
        ((0, 0, 0), (0, 0, 0)),  # "the most" needs at least one
    ],
)
def test_a_bonus_that_compares_players_scores_the_seats_tied_for_the_most(claims, won):
    game = Game.from_file("usa", 3)
    bonus = MostClaims("USA")
    plain = final_score(game.variant, game.board, _position(*claims), game.mechanics)
    sheet = final_score(game.variant, game.board, _position(*claims), game.mechanics + (bonus,))
    assert tuple(p.breakdown["most_claims"] for p in sheet.players) == won
    assert tuple(p.notes["most-claims"] for p in sheet.players) == claims
    for a, b, w in zip(sheet.players, plain.players, won):
        assert a.total == b.total + w == sum(a.breakdown.values())
        assert list(a.breakdown)[:-1] == list(b.breakdown)  # its row comes after the sheet's own
    assert "most_claims" not in plain.players[0].breakdown


def test_a_bonus_added_through_the_list_scores_games_of_its_variant_only(monkeypatch):
    bonus = MostClaims("USA", points=5)
    monkeypatch.setattr(mechanic, "MECHANICS", mechanic.MECHANICS + [bonus])
    usa = Game.from_file("usa", 4)
    assert usa.mechanic_names == ("longest-path", "most-claims")
    assert bonus not in usa.known_mechanics  # no slice: the state's loops never call it
    state = _play(usa, 3)
    counts = [len(c) for c in state.claims]
    sheet = state.score_sheet()
    assert [p.breakdown["most_claims"] for p in sheet.players] == [5 if c == max(counts) else 0 for c in counts]
    europe = _play(Game.from_file("europe", 2), 3)
    assert "most_claims" not in europe.score_sheet().players[0].breakdown


def test_a_bonus_must_give_one_row_per_seat():
    class Short(MostClaims):
        def final_scoring_table(self, table):
            return [{"most_claims": 1}]

    game = Game.from_file("usa", 2)
    with pytest.raises(ScoringError, match="mechanic most-claims: 1 rows of final scoring for 2 players"):
        final_score(game.variant, game.board, _position(1, 1), game.mechanics + (Short("USA"),))


@dataclass(frozen=True, slots=True)
class CashIn(Action):
    """The made-up mechanic's own action: turn the tally tokens in for points (a whole turn)."""

    def text(self, route_id: str | None = None) -> str:
        return "cash in"


def _cash_in(state, action) -> None:
    if not state.tally[state.current]:
        raise IllegalAction("no tally token to cash in", R_TURN)
    state.scores[state.current] += state.tally[state.current]
    state.tally[state.current] = 0
    state.end_turn()


def _parse_cash(game, args, state):
    if args == ["in"]:
        return [CashIn()]
    raise NotationError("write `cash in`")


class CashingTally(Tally):
    """Tally with an action of its own at the start of a turn: its class, its handler, its legal
    actions, its notation verb and usage, all here (mechanic.py), none in the engine's tables."""

    turn_actions = {CashIn: _cash_in}
    verbs = {"cash": _parse_cash}
    usage = "cash in"
    cash_in = CashIn()

    def turn_legal(self, state, out) -> None:
        if state.tally[state.current]:
            out.append(self.cash_in)


def test_a_mechanic_brings_its_own_action_with_its_notation(monkeypatch):
    m = CashingTally("USA")
    monkeypatch.setattr(mechanic, "MECHANICS", mechanic.MECHANICS + [m])
    game = Game.from_file("usa", 2)
    assert "cash in" in usage() and game.parse_actions("cash in") == [CashIn()]
    with pytest.raises(NotationError, match="write `cash in`"):
        game.parse_actions("cash out")
    rng = random.Random(4)
    state = game.new_initial_state(4)
    cashed = 0
    while not state.is_terminal() and cashed < 2:
        legal = state.legal_actions()
        if CashIn() in legal:
            p, tokens, score = state.current, state.tally[state.current], state.scores[state.current]
            state.apply(CashIn())
            assert state.tally[p] == 0 and state.scores[p] == score + tokens and state.current != p
            cashed += 1
        else:
            assert state.tally[state.current] == 0 or state.phase_name != "turn"
            state.apply(rng.choice(legal))
    assert cashed == 2
    # The history (notation text in the state file) reads back into the same game.
    data = json.loads(json.dumps(state.to_dict()))
    assert "cash in" in data["history"]
    assert State.from_dict(game, data) == state
    with pytest.raises(IllegalAction, match="no tally token"):
        blank = game.new_initial_state(4)
        while blank.phase_name != "turn" or blank.tally[blank.current]:
            blank.apply(blank.legal_actions()[0])
        blank.apply(CashIn())
