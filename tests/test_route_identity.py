"""Route identity: separate routes between the same two places (examples/twin-crossings: a tunnel and a
ferry between Kestrel and Marrow, two crossings from Fenwick into Norland) are told apart by their ids in
every command: validate, render, state new/legal/apply/show, score, simulate and its report."""

from __future__ import annotations

import json
import textwrap

import pytest
import yaml
from click.testing import CliRunner

from conftest import ROOT
from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.engine.notation import NotationError
from ttr_maps.engine.statefile import StateFileError, dump_state, load_state
from ttr_maps.load import load_board, load_variant
from ttr_maps.model.board import Board

EXAMPLES = ROOT / "examples"
RULES = EXAMPLES / "twin-crossings-rules.yaml"
BOARD = EXAMPLES / "twin-crossings.yaml"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_default_ids_are_readable_unique_and_number_only_repeated_pairs():
    _, board = load_variant(RULES)
    ids = [r.id for r in board.routes]
    assert ids[:2] == ["kestrel-marrow", "kestrel-marrow-2"]  # the tunnel, then the ferry
    assert "fenwick-north" in ids and "fenwick-south" in ids and "marrow-norland" in ids
    assert len(set(ids)) == len(ids)
    assert board.routes_named("marrow-kestrel") == (0, 1), "the reversed pair names both"
    assert board.routes_named("kestrel-marrow-2") == (1,)


def test_every_bundled_board_keeps_its_route_names():
    """Ids default to `from-to` where a pair is not repeated: the bundled boards' texts are unchanged."""
    for path in sorted((ROOT / "maps" / "boards").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        board = load_board(path)
        assert [r.id for r in board.routes] == [f"{r['from']}-{r['to']}" for r in data["routes"]], path.name


def test_an_explicit_id_is_kept_and_defaults_avoid_it():
    data = {"format": "ttr-board/1", "meta": {"title": "t"},
            "places": [{"id": "a", "name": "A", "x": 0, "y": 0}, {"id": "b", "name": "B", "x": 3, "y": 0}],
            "routes": [{"id": "a-b", "from": "b", "to": "a", "length": 2, "tracks": ["red"]},
                       {"from": "a", "to": "b", "length": 3, "tracks": ["gray"], "tunnel": True},
                       {"from": "a", "to": "b", "length": 4, "tracks": ["gray"], "ferry": 1}]}
    assert [r.id for r in Board.model_validate(data).routes] == ["a-b", "a-b-2", "a-b-3"]


def test_validate_and_render(tmp_path):
    r = run("validate", "--strict", RULES)
    assert r.exit_code == 0, r.output
    out = tmp_path / "board.svg"
    r = run("render", RULES, "-o", out)
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").count("<svg") >= 1


def test_heat_map_paints_each_of_two_routes_between_the_same_towns_by_its_own_rate():
    from ttr_maps.simulate.heatmap import NEVER, heat_map_svg

    variant, board = load_variant(RULES)
    rates = {r.id: 0.5 for r in board.routes}
    rates["kestrel-marrow"] = 0.0  # the 4-space tunnel never claimed, the 5-space ferry claimed
    svg = heat_map_svg(board, variant, rates, {})
    assert svg.count(f'fill="{NEVER}"') == 4


# ---------------------------------------------------------------------------------------------- state

STATE = """\
    format: ttr-state/1
    variant: {variant}
    seed: 1
    phase: turn
    current: 0
    cards:
      face_up: [red, blue, orange, yellow, black]
      deck_top: [orange, yellow, red]
    players:
      - hand: {{locomotive: 3, green: 5}}
      - {{}}
    """


@pytest.fixture
def state_file(tmp_path):
    path = tmp_path / "state.yaml"
    path.write_text(textwrap.dedent(STATE).format(variant=RULES.resolve()), encoding="utf-8")
    return path


def test_state_legal_lists_claims_of_each_route_and_apply_takes_them(state_file, tmp_path):
    r = run("state", "legal", state_file)
    assert r.exit_code == 0, r.output
    listed = r.output.splitlines()[1:]
    ferry = [x for x in listed if x.startswith("claim kestrel-marrow-2 ")]
    tunnel = [x for x in listed if x.startswith("claim kestrel-marrow ")]
    assert ferry and tunnel
    assert "claim kestrel-marrow-2 gray 4green+1loco" in ferry
    # every listed claim of either route is accepted, and lands on that route
    for text in ferry[:3] + tunnel[:3]:
        out = tmp_path / "next.yaml"
        r = run("state", "apply", state_file, text, "-o", out)
        assert r.exit_code == 0, (text, r.output)
        s = load_state(out)
        rid = text.split()[1]
        if rid == "kestrel-marrow":  # a tunnel: the cards turned up ask for more
            assert s.phase_name in ("tunnel", "turn")
            continue
        data = yaml.safe_load(out.read_text(encoding="utf-8"))
        assert data["players"][0]["claims"] == [{"route": rid, "track": 0}]
        assert data["history"] == [text]
        r = run("state", "show", out, "--json")
        assert r.exit_code == 0 and json.loads(r.output)["players"][0]["claims"] == [[rid, 0]]


def test_state_and_notation_refuse_an_ambiguous_pair_listing_the_choices(state_file, tmp_path):
    r = run("state", "apply", state_file, "claim marrow-kestrel 4green+1loco", "-o", tmp_path / "x.yaml")
    assert r.exit_code == 2
    assert "several routes join" in r.output and "kestrel-marrow (4 spaces, gray, tunnel)" in r.output
    assert "kestrel-marrow-2 (5 spaces, gray, ferry 1)" in r.output
    g = Game.from_file(RULES, 2)
    with pytest.raises(NotationError, match="several routes join kestrel and marrow"):
        g.parse_actions("claim marrow-kestrel 4green+1loco")
    data = yaml.safe_load(state_file.read_text(encoding="utf-8"))
    data["players"][1]["claims"] = [{"route": "marrow-kestrel"}]
    state_file.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(StateFileError, match="several routes join kestrel and marrow"):
        load_state(state_file)


def test_a_saved_game_with_claims_on_every_route_reloads(tmp_path):
    """Random games on the fan board: each claim is recorded on its own route and the saved file reloads
    to the same state (a claim on the second route between two towns broke reloading)."""
    import random

    g = Game.from_file(RULES, 3)
    claimed: set[str] = set()
    for seed in range(6):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        claimed |= {g.t.route_ids[g.t.t_route[tid]] for c in s.claims for tid in c}
        out = tmp_path / f"end{seed}.yaml"
        out.write_text(dump_state(s, out), encoding="utf-8")
        assert load_state(out) == s
    assert {"kestrel-marrow", "kestrel-marrow-2", "fenwick-north", "fenwick-south"} <= claimed


# ---------------------------------------------------------------------------------------------- score

POSITION = """\
    format: ttr-position/1
    variant: {variant}
    players:
      - name: Ann
        routes: [kestrel-marrow-2, fenwick-north]
        tickets: [kestrel-marrow]
      - name: Bob
        routes: [kestrel-marrow, fenwick-south]
        tickets: [dunmore-fenwick]
    """


def test_score_counts_each_route_of_a_pair_for_its_owner(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(POSITION).format(variant=RULES.resolve()), encoding="utf-8")
    r = run("score", path, "--format", "json")
    assert r.exit_code == 0, r.output
    players = json.loads(r.output)["players"]
    # Ann: the ferry, 5 spaces (10) + a crossing, 4 (7), ticket Kestrel-Marrow (4) done; Bob: the tunnel 4 (7) + 4 (7)
    assert players[0]["breakdown"]["routes"] == 17 and players[1]["breakdown"]["routes"] == 14
    assert players[0]["breakdown"]["tickets_completed"] == 4 and players[0]["trail_routes"] == ["kestrel-marrow-2"]


def test_score_refuses_an_ambiguous_pair_listing_the_choices(tmp_path):
    path = tmp_path / "game.yaml"
    text = textwrap.dedent(POSITION).format(variant=RULES.resolve()).replace("fenwick-south]", "norland-fenwick]")
    path.write_text(text, encoding="utf-8")
    r = run("score", path)
    assert r.exit_code == 1
    assert "Q012 several routes join fenwick and norland: fenwick-north (4 spaces, red); fenwick-south (4 spaces, blue)" in r.output
    assert f"{path}:8:30:" in r.output


# ---------------------------------------------------------------------------------------------- simulate

def test_simulate_summary_and_report_credit_each_route(tmp_path):
    out = tmp_path / "sim"
    r = run("simulate", RULES, "-n", "6", "-p", "2", "--bots", "random", "--seed", "3", "-o", out)
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    games_with = {}
    for rec in records:
        for rid in {c[2] for c in rec["claims"]}:
            games_with[rid] = games_with.get(rid, 0) + 1
    by_id = {x["route"]: x for x in summary["routes"]}
    assert set(by_id) == {r.id for r in Board.model_validate(yaml.safe_load(BOARD.read_text(encoding="utf-8"))).routes}
    for rid, x in by_id.items():
        assert x["claimed"]["successes"] == games_with.get(rid, 0), rid
    assert games_with.get("kestrel-marrow-2") and games_with.get("fenwick-south"), "the second route of a pair is credited"
    assert set(summary["never_claimed"]) == set(by_id) - set(games_with)
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "kestrel-marrow-2" in report
