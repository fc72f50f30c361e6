"""The studio's server over real HTTP: edits written into a copy of a bundled board, refusals, live state."""

from __future__ import annotations

import difflib
import json
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ttr_maps.load import load
from ttr_maps.studio import studio_app
from ttr_maps.web import run_in_thread

ROOT = Path(__file__).resolve().parent.parent
# A duplicate of Montmartre-Gare du Nord, appended: G011 (duplicate-route) points at it.
DUPLICATE = "  - {from: montmartre, to: gare-du-nord, length: 2, tracks: [red]}\n"


@pytest.fixture
def paris(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "maps/boards/paris.yaml", tmp_path / "paris-board.yaml")
    rules = (ROOT / "maps/variants/paris.yaml").read_text(encoding="utf-8").replace("board: ../boards/paris.yaml\n", "board: paris-board.yaml\n")
    assert "board: paris-board.yaml" in rules
    (tmp_path / "paris.yaml").write_text(rules, encoding="utf-8")
    return tmp_path


@pytest.fixture
def studio(paris: Path):
    app = studio_app(str(paris / "paris.yaml"))
    running = run_in_thread(app)
    wait(running, lambda s: s["findings_ready"])
    yield running
    running.stop()


def call(running, method: str, path: str, body: dict | None = None, token: bool = True) -> tuple[int, dict]:
    req = urllib.request.Request(f"http://127.0.0.1:{running.port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode())
    if token:
        req.add_header("X-TTR-Token", running.token)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def state(running) -> dict:
    return call(running, "GET", "/api/state")[1]


def wait(running, ready, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        s = state(running)
        if ready(s):
            return s
        assert time.monotonic() < deadline, f"the studio did not get there: {s['version']} {s['problems']}"
        time.sleep(0.05)


def edit(running, op: dict) -> tuple[int, dict]:
    """An edit from the page; returns once its text is on disk (a drag answers before it is written)."""
    status, answer = call(running, "POST", "/api/edit", {**op, "base": state(running)["sha"]})
    if status == 200:
        wait(running, lambda s: s["saved"])
    return status, answer


def diff(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def test_moving_a_place_writes_only_its_numbers(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    s = state(studio)
    louvre = next(p for p in s["drawing"]["places"] if p["id"] == "louvre")
    status, answer = edit(studio, {"op": "move_place", "index": louvre["index"], "at": [louvre["at"][0] + 20, louvre["at"][1] - 10]})
    assert status == 200, answer
    changed = diff(before, board.read_text(encoding="utf-8"))
    assert changed[0] == "-  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376}"
    assert len(changed) == 2 and changed[1].startswith("+  - {id: louvre, name: Louvre, lat: 48.8")
    moved = load(board).board.places[louvre["index"]]
    assert moved.lat > 48.8606 and moved.lon > 2.3376  # up and to the right on the drawing: north and east
    assert state(studio)["undo"] == 1


def test_moving_a_name_writes_its_offset_and_undo_takes_it_back(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    louvre = next(p for p in state(studio)["drawing"]["places"] if p["id"] == "louvre")
    x0, y0, x1, y1 = louvre["label"]
    want = [louvre["at"][0] + 12, louvre["at"][1] + 6]  # right of and below the marker, in drawing millimetres
    status, answer = edit(studio, {"op": "move_label", "index": louvre["index"], "at": want})
    assert status == 200, answer
    changed = diff(before, board.read_text(encoding="utf-8"))
    assert changed[0] == "-  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376}"
    assert len(changed) == 2 and changed[1].startswith("+  - {id: louvre, name: Louvre, lat: 48.8606, lon: 2.3376, label: {dx: ")
    label = load(board).board.places[louvre["index"]].label
    assert label is not None and label.dx > 0 and label.dy > 0  # kilometres east and south of the place
    s = wait(studio, lambda s: s["version"] and s["drawing"]["places"][louvre["index"]]["label"] != [x0, y0, x1, y1])
    box = s["drawing"]["places"][louvre["index"]]["label"]
    car = s["drawing"]["car"]
    assert abs((box[0] + box[2]) / 2 - want[0]) < car * 0.1 and abs((box[1] + box[3]) / 2 - want[1]) < car * 0.1
    status, answer = edit(studio, {"op": "undo"})
    assert status == 200 and board.read_text(encoding="utf-8") == before
    status, answer = edit(studio, {"op": "redo"})
    assert status == 200 and "label: {dx: " in board.read_text(encoding="utf-8")
    status, answer = edit(studio, {"op": "move_label", "index": louvre["index"], "at": None})  # back to render's choice
    assert status == 200 and board.read_text(encoding="utf-8") == before


def test_add_route_and_ticket_with_suggestions_then_undo_and_redo(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    status, suggestion = call(studio, "GET", "/api/suggest?from=saint-lazare&to=louvre")
    assert status == 200 and 1 <= suggestion["length"] <= 9 and suggestion["points"] >= 1
    status, answer = edit(studio, {"op": "add_route", "from": "saint-lazare", "to": "louvre", "tracks": ["blue"], "length": 5})
    assert status == 422 and "scoring" in answer["error"]  # the Paris rules score no 5-space route: checked through the variant
    status, answer = edit(studio, {"op": "add_route", "from": "saint-lazare", "to": "louvre", "tracks": ["blue"]})
    assert status == 200, answer
    routes = load(board).board.routes
    assert (routes[-1].from_, routes[-1].to, routes[-1].length, routes[-1].tracks) == ("saint-lazare", "louvre", suggestion["length"], ("blue",))
    status, answer = edit(studio, {"op": "add_ticket", "from": "montmartre", "to": "bercy"})
    assert status == 200, answer
    ticket = load(board).board.tickets[-1]
    after = board.read_text(encoding="utf-8")
    assert diff(before, after) == [
        f"+  - {{from: saint-lazare, to: louvre, length: {suggestion['length']}, tracks: [blue]}}",
        f"+  - {{from: montmartre, to: bercy, points: {ticket.points}, decks: [paris]}}",
    ]
    s = wait(studio, lambda s: s["findings_ready"])
    assert s["drawing"]["tickets"][-1]["spaces"] == ticket.points  # the suggested value is the shortest path
    assert edit(studio, {"op": "undo"})[0] == 200
    assert edit(studio, {"op": "undo"})[0] == 200
    assert board.read_text(encoding="utf-8") == before
    assert edit(studio, {"op": "redo"})[0] == 200
    assert len(load(board).board.routes) == len(routes)
    status, answer = edit(studio, {"op": "undo"})
    assert status == 200 and board.read_text(encoding="utf-8") == before


def test_bend_points_are_written_as_lat_lon_and_removed(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    r = state(studio)["drawing"]["routes"][1]
    mid = r["line"][len(r["line"]) // 2]
    assert edit(studio, {"op": "set_bend", "route": 1, "points": [[mid[0] + 5, mid[1]]]})[0] == 200
    bend = load(board).board.routes[1].bend
    assert len(bend) == 1 and 48.8 < bend[0][0] < 48.9 and 2.3 < bend[0][1] < 2.4
    s = state(studio)
    assert len(s["drawing"]["routes"][1]["bends"]) == 1
    assert edit(studio, {"op": "set_bend", "route": 1, "points": []})[0] == 200
    assert "bend" not in board.read_text(encoding="utf-8")


def test_an_edit_over_a_file_changed_on_disk_is_refused(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    base = state(studio)["sha"]
    board.write_text(board.read_text(encoding="utf-8").replace("name: Louvre", "name: Le Louvre"), encoding="utf-8")
    status, answer = call(studio, "POST", "/api/edit", {"op": "delete_route", "index": 0, "base": base})
    assert status == 409 and answer["stale"] and "changed on disk" in answer["error"]
    assert "name: Le Louvre" in board.read_text(encoding="utf-8")
    assert len(load(board).board.routes) == len(load(ROOT / "maps/boards/paris.yaml").board.routes)
    s = wait(studio, lambda s: any(p["name"] == "Le Louvre" for p in (s["drawing"] or {}).get("places", [])))
    assert s["sha"] != base


def test_an_edit_that_would_break_the_board_is_refused(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    before = board.read_text(encoding="utf-8")
    status, answer = edit(studio, {"op": "add_route", "from": "montmartre", "to": "louvre", "tracks": ["orange"]})
    assert status == 422 and "orange" in answer["error"] and answer["problems"]
    assert board.read_text(encoding="utf-8") == before
    status, answer = edit(studio, {"op": "delete_place", "index": 0})
    assert status == 409 and "used by" in answer["error"]


@pytest.mark.parametrize("op, why", [
    ({"op": "move_place", "index": 999, "at": [1, 2]}, "index"),
    ({"op": "move_place", "index": 0, "at": ["a", 2]}, "point"),
    ({"op": "add_route", "from": "montmartre", "to": "nowhere"}, "id of a place"),
    ({"op": "set_ticket", "index": 0, "points": 1000}, "points"),
    ({"op": "write_file", "path": "/etc/passwd"}, "unknown edit"),
])
def test_malformed_edits_are_400_with_a_message(studio, op: dict, why: str) -> None:
    status, answer = edit(studio, op)
    assert status == 400 and why in answer["error"]


def test_edits_need_the_token(studio, paris: Path) -> None:
    before = (paris / "paris-board.yaml").read_text(encoding="utf-8")
    status, answer = call(studio, "POST", "/api/edit", {"op": "delete_route", "index": 0, "base": state(studio)["sha"]}, token=False)
    assert status == 403
    assert (paris / "paris-board.yaml").read_text(encoding="utf-8") == before


def test_findings_point_at_their_route(paris: Path) -> None:
    board = paris / "paris-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("tickets:\n", DUPLICATE + "tickets:\n"), encoding="utf-8")
    running = run_in_thread(studio_app(str(paris / "paris.yaml")))
    try:
        s = wait(running, lambda s: s["findings_ready"])
        g011 = [f for f in s["findings"] if f["code"] == "G011"]
        last = len(s["drawing"]["routes"]) - 1
        assert g011 and g011[0]["route"] == last
        assert s["drawing"]["routes"][last]["from"] == "montmartre"
    finally:
        running.stop()


def test_a_broken_file_keeps_the_last_drawing_and_shows_why(studio, paris: Path) -> None:
    board = paris / "paris-board.yaml"
    good = state(studio)
    board.write_text(board.read_text(encoding="utf-8").replace("length: 2, tracks: [white, purple]}", "length: 2, tracks: [white, purple]"), encoding="utf-8")
    s = wait(studio, lambda s: not s["ok"])
    assert s["stale"] and s["drawing"]["svg"] == good["drawing"]["svg"]
    line = board.read_text(encoding="utf-8").splitlines().index("  - {from: montmartre, to: gare-du-nord, length: 2, tracks: [white, purple]") + 2
    assert any(p["code"] == "P006" and p["line"] == line and p["path"].endswith("paris-board.yaml") for p in s["problems"])
    status, answer = edit(studio, {"op": "move_place", "index": 0, "at": [10, 10]})
    assert status == 409 and "does not load" in answer["error"]
    board.unlink()  # deleted: the server goes on and says so
    wait(studio, lambda s: any(p["code"] == "V001" and "not found" in p["message"] for p in s["problems"]))
    shutil.copy(ROOT / "maps/boards/paris.yaml", board)
    wait(studio, lambda s: s["ok"] and not s["stale"])


def test_an_empty_file_is_started_from_the_page(tmp_path: Path) -> None:
    path = tmp_path / "harbour-towns.yaml"
    path.write_text("# my new board\n", encoding="utf-8")
    running = run_in_thread(studio_app(str(path)))
    try:
        s = wait(running, lambda s: s["version"] > 0)
        assert not s["ok"] and s["problems"][0]["code"] == "P005"
        assert call(running, "POST", "/api/edit", {"op": "start"})[0] == 200
        s = wait(running, lambda s: s["ok"])
        assert path.read_text(encoding="utf-8").startswith("# my new board\nformat: ttr-board/1\nmeta:\n  title: Harbour Towns\n")
        assert edit(running, {"op": "add_place", "name": "Second Town", "at": [s["drawing"]["places"][0]["at"][0] + 60, s["drawing"]["places"][0]["at"][1]]})[0] == 200
        places = load(path).board.places
        assert [p.id for p in places] == ["first", "second-town"] and places[1].x > 2 and places[1].y == 0
        assert call(running, "POST", "/api/edit", {"op": "start"})[0] == 409  # never over a board
    finally:
        running.stop()


def test_exports_use_the_render_and_print_code(studio) -> None:
    with urllib.request.urlopen(studio.url("/api/export/svg").split("?")[0], timeout=60) as resp:
        svg = resp.read().decode()
    assert svg == state(studio)["drawing"]["svg"] and svg.startswith("<?xml")


def test_the_walkthroughs_studio_board_validates(tmp_path: Path) -> None:
    """docs/walkthrough.md shows the file tools/studio_screenshots.py builds through the page; it must stay valid."""
    import re

    text = (ROOT / "docs/walkthrough.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", text, flags=re.S) if b.startswith("# Harbour Towns: built in the studio"))
    (tmp_path / "harbour-towns.yaml").write_text(block, encoding="utf-8")
    loaded = load(tmp_path / "harbour-towns.yaml")
    assert loaded.ok and len(loaded.board.routes) == 7 and len(loaded.board.tickets) == 4


def test_the_command_refuses_a_folder_and_a_missing_folder(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ttr_maps.cli.main import cli

    result = CliRunner().invoke(cli, ["studio", str(tmp_path / "nowhere" / "board.yaml"), "--no-open"])
    assert result.exit_code == 1 and "does not exist" in result.output
    result = CliRunner().invoke(cli, ["studio", str(tmp_path) + "/", "--no-open"])
    assert result.exit_code == 2 and "is a directory" in result.output
    result = CliRunner().invoke(cli, ["studio", "x.yaml", "--sim", str(tmp_path), "--no-open"])
    assert result.exit_code == 1 and "summary.json" in result.output


@pytest.mark.slow
def test_simulate_button_runs_games_with_progress_then_heat_map(studio, paris: Path) -> None:
    status, answer = call(studio, "POST", "/api/simulate", {"games": 3})
    assert status == 200 and answer["running"] and answer["games"] == 3
    assert call(studio, "POST", "/api/simulate", {"games": 3})[0] == 409  # one run at a time
    deadline = time.monotonic() + 300
    while (s := call(studio, "GET", "/api/simulate")[1])["running"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert s["error"] is None and s["done"] == 3 and set(s["summary"]) == {"expert", "route-focus", "ticket-hungry", "long-route"}
    folder = paris / "out" / "paris"
    assert Path(s["folder"]).resolve() == folder.resolve() and (folder / "report.html").exists()
    # The run's claim rates become the heat-map overlay of a studio opened with --sim.
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    rates = {r["route"]: r["claimed"]["rate"] for r in summary["routes"]}
    running = run_in_thread(studio_app(str(paris / "paris.yaml"), sim=str(folder)))
    try:
        routes = wait(running, lambda s: s["ok"])["drawing"]["routes"]
        assert [r["heat"] for r in routes] == [rates.get(r["id"], 0.0) for r in routes]
        assert any(r["heat"] > 0 for r in routes)
    finally:
        running.stop()


@pytest.mark.slow
def test_pdf_export_is_the_print_commands_pdf(studio) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{studio.port}/api/export/pdf", timeout=300) as resp:
        assert resp.headers["Content-Type"] == "application/pdf"
        assert 'filename="paris.pdf"' in resp.headers["Content-Disposition"]
        assert resp.read(5) == b"%PDF-"
