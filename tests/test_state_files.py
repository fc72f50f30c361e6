"""State files and positions: the score sheet is never kept from mid-game, a hand-typed face-up row the rules
would redeal is redealt on load, the redeal loop is bounded with many wild cards and its tallies always load,
and `state legal --json` prints what its help and docs say."""

from __future__ import annotations

import json
import random
import textwrap

import pytest
import yaml
from click.testing import CliRunner

from conftest import MAPS, ROOT
from ttr_maps.cli.main import cli
from ttr_maps.engine import cards
from ttr_maps.engine.actions import DrawBlind, DrawFaceUp
from ttr_maps.engine.game import Game
from ttr_maps.engine.scoring import final_score
from ttr_maps.engine.statefile import dump_state, load_state, parse_state_file, state_to_dict

USA = MAPS / "variants" / "usa.yaml"


def test_a_mid_game_score_sheet_is_not_kept_for_the_end():
    g = Game.from_file(USA, 2)
    s = g.new_initial_state(4)
    rng = random.Random(4)
    asked = 0
    while not s.is_terminal():
        if len(s.history) % 40 == 39:
            s.score_sheet()  # mid-game: a sheet of a position that will change
            asked += 1
        s.apply(rng.choice(s.legal_actions()))
    fresh = final_score(g.variant, g.board, s.position())
    assert asked and s.returns() == [p.total for p in fresh.players]
    assert s.winners() == tuple(fresh.winners)
    assert s.score_sheet() is s.score_sheet(), "the final sheet is kept"


HAND_TYPED = """\
    format: ttr-state/1
    variant: {variant}
    seed: 5
    phase: turn
    current: 0
    cards:
      face_up: [locomotive, locomotive, locomotive, red, blue]
    players:
      - hand: {{red: 2}}
      - {{}}
    """


def test_a_hand_typed_row_of_three_locomotives_is_redealt_on_load(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(HAND_TYPED).format(variant=USA.resolve()), encoding="utf-8")
    s = load_state(path)
    assert s.face_up.count(s.t.LOCO) < 3 and s.counters["face-up-redeals"] >= 1
    r = CliRunner().invoke(cli, ["state", "legal", str(path)])
    assert r.exit_code == 0 and r.output.count("draw faceup") == 5
    # the same row marked as left by a stopped redeal loop stays as it is (an engine-written file)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["cards"]["face_up_stopped"] = True
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    s = load_state(path)
    assert s.face_up.count(s.t.LOCO) == 3 and s.row_stopped
    assert load_state(_saved(s, tmp_path)) == s


def _saved(state, tmp_path):
    out = tmp_path / "saved.yaml"
    out.write_text(dump_state(state, out), encoding="utf-8")
    return out


@pytest.fixture
def jokers(tmp_path):
    """Paris with 200 jokers (38 coloured cards): a valid fan variant whose face-up row nearly always
    shows three jokers."""
    text = (MAPS / "variants" / "paris.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    data["board"] = str((MAPS / "variants" / data["board"]).resolve())
    data["cards"]["locomotives"] = 200
    path = tmp_path / "paris-200.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_many_wild_cards_keep_the_redeal_loop_bounded_and_the_files_loadable(jokers, tmp_path):
    g = Game.from_file(jokers, 2)
    checks = []
    original = cards.check_face_up

    def counted(state):
        before = state.counters.get("face-up-redeals", 0)
        original(state)
        checks.append(state.counters.get("face-up-redeals", 0) - before)

    for seed in range(3):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        cards.check_face_up = counted
        try:
            for _ in range(90):  # players mostly draw: the coloured cards go to the hands
                legal = s.legal_actions()
                draws = [a for a in legal if type(a) is DrawFaceUp and s.face_up[a.slot] != s.t.LOCO]
                draws = draws or [a for a in legal if type(a) in (DrawBlind, DrawFaceUp)]
                s.apply(rng.choice(draws or legal))
        finally:
            cards.check_face_up = original
        assert load_state(_saved(s, tmp_path)) == s
    assert max(checks) <= 13_809, "one loop never makes more redeals than its limit"
    assert sum(1 for c in checks if c) > 10
    # tallies have no cap a game could reach
    data = state_to_dict(s)
    data["counters"]["face-up-redeals"] = 150_000
    assert parse_state_file(data).counters["face-up-redeals"] == 150_000


def test_a_row_a_redeal_could_hardly_ever_change_is_left_at_once(jokers, tmp_path):
    g = Game.from_file(jokers, 2)
    s = g.new_initial_state(1)
    # outside the hands: 155 jokers and 3 coloured cards; a row without a redeal needs all three
    t = s.t
    s.discard, s.discard_total = [0] * t.NK, 0
    s.face_up = [t.LOCO] * 5
    s.deck = [t.LOCO] * 150 + [0, 1, 2]
    assert 0 < cards.settle_chance(s) < cards.LEAST_CHANCE
    assert cards.redeal_limit(s) == 0
    before = dict(s.counters)
    cards.check_face_up(s)
    assert s.counters["redeal-loop-stopped"] == before["redeal-loop-stopped"] + 1
    assert s.counters.get("face-up-redeals", 0) == before.get("face-up-redeals", 0)


def test_state_legal_json_is_the_object_its_help_and_docs_describe(tmp_path):
    path = tmp_path / "s.yaml"
    runner = CliRunner()
    assert runner.invoke(cli, ["state", "new", str(USA), "-p", "2", "--seed", "1", "-o", str(path)]).exit_code == 0
    r = runner.invoke(cli, ["state", "legal", str(path), "--json"])
    data = json.loads(r.output)
    assert set(data) == {"player", "phase", "actions"} and data["player"] == 0 and data["phase"] == "keep-tickets"
    assert data["actions"] == ["keep 0 1", "keep 0 2", "keep 1 2", "keep 0 1 2"]
    help_text = " ".join(runner.invoke(cli, ["state", "legal", "--help"]).output.split())
    assert '{"player": seat (-1 once over), "phase": name, "actions": [notation, ...]}' in help_text
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert '`{"player": 2, "phase": "turn", "actions": ["draw blind", "draw faceup 0", ...]}`' in docs
