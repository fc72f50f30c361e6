"""State files and positions: the score sheet is never kept from mid-game, a hand-typed face-up row the rules
would redeal is redealt on load, the redeal loop is bounded with many wild cards and its tallies always load,
and `state legal --json` prints what its help and docs say."""

from __future__ import annotations

import copy
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


# ---------------------------------------------------------------------------------------------- file:line:col

def _positions():
    """Engine-written state files with most parts filled in: mid-game USA, Märklin (passengers, goods, a mix),
    Europe (stations) and Paris (flags)."""
    for name, n, steps in (("usa", 2, 60), ("marklin", 2, 80), ("europe", 3, 90), ("paris", 2, 40)):
        g = Game.from_file(MAPS / "variants" / f"{name}.yaml", n)
        s = g.new_initial_state(7)
        rng = random.Random(7)
        for _ in range(steps):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        yield name, s


_ODD_VALUES = [None, -1, 10**7, "purple", "boston-miami", "nowhere", "", [], {}, "3", True, 2.5, ["locomotive"], {"x": 1}]


def _mutate(data, rng):
    """One random change somewhere in the tree: a key or item dropped, a value replaced, an item doubled."""
    node, path = data, []
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        if not isinstance(node[key], (dict, list)) or not node[key]:
            break
        node = node[key]
    if not path:
        return
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    what = rng.random()
    if what < 0.25:
        del parent[key]
    elif what < 0.4 and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = rng.choice(_ODD_VALUES)


@pytest.mark.parametrize("per_file", [pytest.param(4, id="lean"), pytest.param(60, id="many", marks=pytest.mark.slow)])
def test_every_error_in_a_mutated_state_file_is_at_file_line_col(tmp_path, monkeypatch, per_file):
    """Seeded tree mutations of engine-written files: each one loads, or every problem is a diagnostic at
    path:line:col with a T or P code (never only a field name, never a traceback)."""
    from functools import lru_cache

    from ttr_maps.diagnostics import LoadError
    from ttr_maps.engine.statefile import StateFileError

    # each load reads the variant again; the variants are never mutated, so read each once
    monkeypatch.setattr(Game, "from_file", classmethod(lru_cache(maxsize=None)(Game.from_file.__func__)))

    rng = random.Random(20)
    refused = 0
    for name, s in _positions():
        path = tmp_path / f"{name}.yaml"
        good = yaml.safe_load(yaml.safe_dump(yaml.safe_load(dump_state(s, path))))  # keys sorted (by safe_dump), as before
        for i in range(per_file):
            data = copy.deepcopy(good)
            for _ in range(rng.randint(1, 3)):
                _mutate(data, rng)
            # libyaml's emitter: the same text as yaml.safe_dump (checked for all 240 files), 12 s of CPU less
            path.write_text(yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True), encoding="utf-8")
            try:
                load_state(path)
            except StateFileError as exc:
                refused += 1
                assert exc.diagnostics, f"{name} #{i}: {exc}"
                for d in exc.diagnostics:
                    assert d.path == str(path) and d.line >= 1 and d.col >= 1 and d.code[0] in "TP", d.as_text()
            except LoadError:  # only the variant's own file can give these; it is never mutated here
                raise AssertionError(f"{name} #{i}: the variant was reported for a state file problem")
    assert refused > per_file


def test_state_file_errors_point_at_the_line_at_fault(tmp_path):
    path = tmp_path / "s.yaml"
    text = textwrap.dedent(HAND_TYPED).format(variant=USA.resolve()).replace("hand: {red: 2}", "hand: {red: 2, purple: 1}")
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["state", "show", str(path)])
    assert r.exit_code == 1
    assert f"{path}:9:20: error T011 unknown card kind 'purple'" in r.output
    data = yaml.safe_load(text.replace(", purple: 1", ""))
    data["players"][0]["claims"] = [{"route": "boston-new-york", "track": 0}, {"route": "new-york-boston", "track": 1}]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    r = CliRunner().invoke(cli, ["state", "legal", str(path)])
    line = next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if "new-york-boston" in ln)
    assert f"{path}:{line}:" in r.output and "T014 one player never claims two tracks of new-york-boston" in r.output


def test_every_state_file_code_is_documented():
    import re

    from ttr_maps.engine.statefile import TCODES

    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (T\d{3}) \| ([a-z-]+) \|", docs, flags=re.M))
    assert rows == {code: name for code, (name, _) in TCODES.items()}
    source = "".join((ROOT / "ttr_maps" / "engine" / name).read_text(encoding="utf-8") for name in ("statefile.py", "statedict.py"))
    unused = [code for code in TCODES if source.count(f'"{code}"') < 2]
    assert unused == [], "every code is emitted somewhere besides its definition"
