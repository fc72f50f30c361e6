"""`ttr-maps score`: the table, JSON, and bad files as diagnostics with exit 1 (never a traceback)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import ROOT
from ttr_maps.cli.main import cli
from ttr_maps.engine.position_file import load_position
from ttr_maps.engine.scoring import final_score

EXAMPLE = "examples/positions/usa.yaml"


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args):
    return CliRunner().invoke(cli, ["score", *args])


def test_text_table_shows_each_players_breakdown_and_the_winner():
    loaded = load_position(EXAMPLE)
    sheet = final_score(loaded.variant, loaded.board, loaded.position)
    result = run(EXAMPLE)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if all(p.name in line for p in sheet.players))
    assert header.split() == [p.name for p in sheet.players]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1:] == [str(p.total) for p in sheet.players]
    routes = next(line for line in lines if line.startswith("routes"))
    assert routes.split()[1:] == [str(p.breakdown["routes"]) for p in sheet.players]
    assert any(line.startswith("longest path bonus") for line in lines)
    assert not any(line.startswith(("goods", "French flags", "stations")) for line in lines)  # not USA rules
    (winner,) = sheet.winners
    assert f"Winner: {sheet.players[winner].name} with {sheet.players[winner].total} points" in result.output


def test_json_has_the_same_numbers():
    loaded = load_position(EXAMPLE)
    sheet = final_score(loaded.variant, loaded.board, loaded.position)
    result = run(EXAMPLE, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [p["total"] for p in data["players"]] == [p.total for p in sheet.players]
    assert [p["breakdown"] for p in data["players"]] == [p.breakdown for p in sheet.players]
    assert data["winners"] == [sheet.players[i].name for i in sheet.winners]
    for p in data["players"]:
        assert p["total"] == sum(p["breakdown"].values())


def test_stations_are_shown_with_what_they_borrow():
    result = run("tests/positions/good/europe.yaml")
    assert result.exit_code == 0, result.output
    assert "stations not built" in result.output
    assert "station in pamplona: borrows marseille-pamplona" in result.output
    assert "station in lisboa: borrows nothing" in result.output


def test_a_shared_win_is_reported(tmp_path):
    (tmp_path / "tie.yaml").write_text(
        "format: ttr-position/1\n"
        f"variant: {ROOT / 'maps' / 'variants' / 'paris.yaml'}\n"
        "players:\n"
        "  - {name: Ann, routes: [louvre-saint-germain]}\n"
        "  - {name: Bob, routes: [saint-germain-luxembourg]}\n",
        encoding="utf-8",
    )
    result = run(str(tmp_path / "tie.yaml"))
    assert result.exit_code == 0, result.output
    assert "Shared win: Ann, Bob with 1 points each" in result.output


def test_bad_file_gives_positioned_diagnostics_and_exit_1():
    result = CliRunner().invoke(cli, ["score", "tests/positions/bad/q013-track-color-needed.yaml"])
    assert result.exit_code == 1
    assert "tests/positions/bad/q013-track-color-needed.yaml:5:14: error Q013" in result.output
    assert "Traceback" not in result.output


def test_bad_file_as_json():
    result = run("tests/positions/bad/q011-unknown-route.yaml", "--format", "json")
    assert result.exit_code == 1
    codes = [d["code"] for d in json.loads(result.output)]
    assert codes == ["Q011", "Q011"]


@pytest.mark.parametrize("target, code", [("no/such/game.yaml", "P001"), ("tests", "P002"), ("maps/variants/usa.yaml", "Q003")])
def test_wrong_files_are_exit_1(target, code):
    result = run(target)
    assert result.exit_code == 1
    assert f" {code} " in result.output
    assert "Traceback" not in result.output


def test_warnings_do_not_stop_scoring():
    result = run("tests/positions/bad/q060-player-count.yaml")
    assert result.exit_code == 0
    assert "warning Q060" in result.output
    assert "Winner: Ann" in result.output


def test_help_names_the_command():
    result = CliRunner().invoke(cli, ["--help"])
    assert "score" in result.output
    assert run("--help").exit_code == 0


def test_a_network_too_large_for_an_exact_longest_path_is_refused_not_searched_for_hours(tmp_path):
    """A fan variant with 999 trains on an 8x8 grid of one-space routes: 49 independent loops. The exact
    search would take centuries; score says why it stops, at once, exit 1."""
    import time

    import yaml

    n = 8
    places = [{"id": f"p{i}-{j}", "name": f"P{i}{j}", "x": i, "y": j} for i in range(n) for j in range(n)]
    routes = [{"from": f"p{i}-{j}", "to": f"p{i + di}-{j + dj}", "length": 1, "tracks": ["red"]}
              for i in range(n) for j in range(n) for di, dj in ((1, 0), (0, 1)) if i + di < n and j + dj < n]
    (tmp_path / "grid.yaml").write_text(yaml.safe_dump({
        "format": "ttr-board/1", "meta": {"title": "Grid"}, "colors": ["red"], "drawing": {"car_length": 1.0},
        "places": places, "routes": routes}), encoding="utf-8")
    (tmp_path / "rules.yaml").write_text(
        "format: ttr-variant/1\nname: Grid\nboard: grid.yaml\ntrains: 999\ncards: {colors: {red: 500}}\n", encoding="utf-8")
    (tmp_path / "pos.yaml").write_text(yaml.safe_dump({
        "format": "ttr-position/1", "variant": "rules.yaml",
        "players": [{"name": "A", "routes": [f"{r['from']}-{r['to']}" for r in routes]}, {"name": "B", "routes": []}]}),
        encoding="utf-8")
    start = time.perf_counter()
    result = run(str(tmp_path / "pos.yaml"))
    assert time.perf_counter() - start < 60
    assert result.exit_code == 1, result.output
    assert "A: the longest continuous path of a network of 112 routes with 49 independent loops is too large" in result.output


@pytest.mark.slow
def test_too_many_station_borrowings_are_refused_with_the_reason(tmp_path):
    """A fan Europe with nine free stations, all built next to an opponent's dense network: the borrowing
    search is refused past its limit with the stations and their choices named, exit 1."""
    import yaml

    variant = yaml.safe_load((ROOT / "maps" / "variants" / "europe.yaml").read_text(encoding="utf-8"))
    variant["board"] = str(ROOT / "maps" / "boards" / "europe.yaml")
    variant["trains"] = 999
    variant["stations"] = {"costs": [0] * 9, "unused_points": 4}
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(variant), encoding="utf-8")
    board = yaml.safe_load((ROOT / "maps" / "boards" / "europe.yaml").read_text(encoding="utf-8"))
    routes = [f"{r['from']}-{r['to']} {r['tracks'][0]}" for r in board["routes"]]
    tickets = sorted({f"{t['from']}-{t['to']}" for t in board["tickets"] if {"europe-regular", "europe-long"} & set(t["decks"])})
    hubs = ["paris", "frankfurt", "kyiv", "constantinople", "marseille", "pamplona", "berlin", "warszawa", "wien"]
    (tmp_path / "pos.yaml").write_text(yaml.safe_dump({
        "format": "ttr-position/1", "variant": "rules.yaml",
        "players": [{"name": "A", "routes": [], "stations": hubs, "tickets": tickets[:40]},
                    {"name": "B", "routes": routes}]}), encoding="utf-8")
    result = run(str(tmp_path / "pos.yaml"))
    assert result.exit_code == 1, result.output
    assert "A: 9 stations with" in result.output and "too many borrowings to try exactly" in result.output


def _played_state_file(tmp_path, finish: bool):
    """A game of the tiny test variant played by random legal moves (to its end, or 10 actions), saved as a state file."""
    import random

    from ttr_maps.engine.game import Game
    from ttr_maps.engine.statefile import dump_state

    game = Game.from_file(ROOT / "tests/scenarios/variants/tiny.yaml", 2)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal() and (finish or len(state.history) < 10):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.yaml"
    path.write_text(dump_state(state, path), encoding="utf-8")
    return state, path


def test_a_finished_state_file_scores_as_the_engine_scored_the_game(tmp_path):
    state, path = _played_state_file(tmp_path, finish=True)
    sheet = state.score_sheet()
    result = run(str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [p["total"] for p in data["players"]] == [p.total for p in sheet.players]
    assert [p["breakdown"] for p in data["players"]] == [p.breakdown for p in sheet.players]
    assert data["winners"] == [sheet.players[i].name for i in sheet.winners]
    text = run(str(path))
    assert text.exit_code == 0, text.output
    total = next(line for line in text.output.splitlines() if line.startswith("total"))
    assert total.split()[1:] == [str(p.total) for p in sheet.players]


def test_a_state_file_of_a_game_still_going_or_broken_is_refused_with_exit_1(tmp_path):
    _state, path = _played_state_file(tmp_path, finish=False)
    result = run(str(path))
    assert result.exit_code == 1 and "not over" in result.output and "ttr-maps play" in result.output
    path.write_text(path.read_text(encoding="utf-8").replace("players:", "players: 7\nplayerz:", 1), encoding="utf-8")
    result = run(str(path))
    assert result.exit_code == 1 and f"{path.name}:" in result.output and "Traceback" not in result.output
