"""The studio's quick layout of an edit (studio/quick.py) and the steps that follow it to `render`'s own layout."""

from __future__ import annotations

import math
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from ttr_maps.checks import run_checks
from ttr_maps.load import load
from ttr_maps.render import BoardOptions, plan_board
from ttr_maps.render.board import draw_board
from ttr_maps.studio.edits import apply
from ttr_maps.studio.quick import quick_plan, rebind, same_drawing
from ttr_maps.studio.session import Cancelled, Session, file_sha

ROOT = Path(__file__).resolve().parent.parent


def _copy(tmp_path: Path, variant: str) -> tuple[Path, Path]:
    loaded = load(ROOT / "maps/variants" / variant)
    board = tmp_path / "board.yaml"
    shutil.copy(loaded.board_path, board)
    text = re.sub(r"(?m)^board: .*$", "board: board.yaml", (ROOT / "maps/variants" / variant).read_text(encoding="utf-8"))
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "rules.yaml", board


def _moved(text: str, pid: str, dlat: float) -> str:
    out, n = re.subn(r"(\{id: " + pid + r", name: [^,]+, lat: )(-?[0-9.]+)", lambda m: m.group(1) + f"{float(m.group(2)) + dlat:.4f}", text, count=1)
    assert n == 1
    return out


def _spaces(rp) -> list[tuple[float, float]]:
    return [(round(s.x, 6), round(s.y, 6)) for t in rp.tracks for s in t.spaces]


def test_a_moved_place_is_laid_out_again_with_its_routes_and_the_rest_is_kept(tmp_path: Path) -> None:
    rules, board = _copy(tmp_path, "paris.yaml")
    old_loaded = load(rules)
    old = plan_board(old_loaded.board, old_loaded.variant, BoardOptions())
    new_loaded = load(rules, {str(board): _moved(board.read_text(encoding="utf-8"), "louvre", 0.004)})
    quick = quick_plan(old, new_loaded.board, new_loaded.variant)
    assert quick is not None
    exact = plan_board(new_loaded.board, new_loaded.variant, BoardOptions())
    where = {pp.place.id: (pp.x, pp.y) for pp in quick.places}
    # The moved marker is where render puts it (up to the car size render re-fits from the routes' lengths).
    ex = {pp.place.id: (pp.x, pp.y) for pp in exact.places}
    dx = where["louvre"][0] - dict((pp.place.id, (pp.x, pp.y)) for pp in old.places)["louvre"][0]
    dy = where["louvre"][1] - dict((pp.place.id, (pp.x, pp.y)) for pp in old.places)["louvre"][1]
    assert math.hypot(dx, dy) > 1  # it moved on the drawing (millimetres)
    assert abs(where["louvre"][1] - ex["louvre"][1]) < 0.05 * old.car * 10
    # Routes not ending at it keep their spaces exactly; those ending at it start or end at its new place.
    by_ends = {rp.ends: rp for rp in old.routes}
    for rp in quick.routes:
        if "louvre" in rp.ends:
            first, last = rp.centerline[0], rp.centerline[-1]
            assert min(math.dist(first, where["louvre"]), math.dist(last, where["louvre"])) < 1e-6
        else:
            assert _spaces(rp) == _spaces(by_ends[rp.ends])
    # Every route of the new board is drawn, bound to the new board's own route objects.
    drawn = {id(t.route) for rp in quick.routes for t in rp.tracks}
    assert drawn == {id(r) for r in new_loaded.board.routes}
    assert "Louvre" in draw_board(quick)


def test_an_edit_that_changes_nothing_drawn_keeps_the_exact_drawing(tmp_path: Path) -> None:
    rules, board = _copy(tmp_path, "paris.yaml")
    old_loaded = load(rules)
    old = plan_board(old_loaded.board, old_loaded.variant, BoardOptions())
    text = board.read_text(encoding="utf-8")
    ticket = re.search(r"(?m)^  - \{from: [^}]*points: (\d+)", text)
    assert ticket
    changed = text[: ticket.start(1)] + str(int(ticket.group(1)) + 1) + text[ticket.end(1):]
    new_loaded = load(rules, {str(board): changed})
    assert same_drawing(old, new_loaded.board, new_loaded.variant)
    kept = rebind(old, new_loaded.board, new_loaded.variant)
    assert draw_board(kept) == draw_board(plan_board(new_loaded.board, new_loaded.variant, BoardOptions()))
    moved = load(rules, {str(board): _moved(text, "louvre", 0.004)})
    assert not same_drawing(old, moved.board, moved.variant)


def test_what_the_quick_layout_cannot_follow_is_laid_out_whole(tmp_path: Path) -> None:
    rules, board = _copy(tmp_path, "paris.yaml")
    old_loaded = load(rules)
    old = plan_board(old_loaded.board, old_loaded.variant, BoardOptions())
    text = board.read_text(encoding="utf-8")
    retitled = re.sub(r"(?m)^  title: .*$", "  title: Another title", text, count=1)
    assert retitled != text
    other = load(rules, {str(board): retitled})
    assert quick_plan(old, other.board, other.variant) is None  # the title block is sized by its text


@pytest.mark.parametrize("variant", ["paris.yaml", "usa.yaml"])
def test_the_checks_read_the_studios_layout_and_find_the_same(variant: str) -> None:
    loaded = load(ROOT / "maps/variants" / variant)
    plan = plan_board(loaded.board, loaded.variant, BoardOptions())
    assert run_checks(loaded, drawing=plan) == run_checks(loaded)


def test_an_edit_shows_the_quick_layout_then_renders_and_findings(tmp_path: Path) -> None:
    rules, board = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    session.refresh()
    published = []
    session.on_change = lambda v: published.append((v, session.snapshot))
    session.close()  # no background thread: its steps are taken below, in order
    place = next(p for p in session.snapshot.drawing.data["places"] if p["id"] == "louvre")
    apply(session, {"op": "move_place", "index": place["index"], "at": [place["at"][0] + 8, place["at"][1] - 4],
                    "base": session.snapshot.sha})
    session.wait_written()
    session._finish(session.snapshot, session.snapshot.drawing.loaded)  # what the background thread does
    steps = [s for _, s in published]
    assert not steps[0].drawing.exact and not steps[0].findings_ready  # the quick layout first
    assert steps[1].drawing.exact and not steps[1].findings_ready  # then render's own layout
    assert steps[-1].drawing.exact and steps[-1].findings_ready
    final = load(rules)
    assert steps[-1].drawing.svg == draw_board(plan_board(final.board, final.variant, BoardOptions()))
    fresh = Session(str(rules))
    fresh.refresh()
    assert steps[-1].findings == fresh.snapshot.findings
    fresh.close()


def test_a_burst_of_saves_is_laid_out_and_checked_once(tmp_path: Path, monkeypatch) -> None:
    import time

    import ttr_maps.studio.session as session_module

    # The burst must not settle on its own however slow the machine is (a loaded CI machine took more
    # than 2 s between two saves): a long SETTLE, then the test lets it settle by waking the worker.
    monkeypatch.setattr(session_module, "SETTLE", 600.0)
    rules, board = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    session.refresh()
    finished = []
    real = session._finish
    session._finish = lambda snap, loaded: (finished.append(snap.version), real(snap, loaded))  # type: ignore[method-assign]
    text = board.read_text(encoding="utf-8")
    for k in range(4):
        board.write_text(_moved(text, "louvre", 0.001 * (k + 1)), encoding="utf-8")
        assert session.refresh(later=True)
    last = session.snapshot.version
    monkeypatch.setattr(session_module, "SETTLE", 0.05)
    with session._queue:
        session._queue.notify()  # no newer drawing came: the worker's wait ends and the burst has settled
    deadline = time.monotonic() + 120
    while not session.snapshot.findings_ready:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    session.close()
    assert finished == [last]  # only the last drawing went on to render's layout and the checks
    assert session.snapshot.drawing.exact


def test_a_failing_quick_layout_falls_back_to_the_whole_layout_and_says_so(tmp_path: Path, monkeypatch, caplog) -> None:
    import ttr_maps.studio.quick as quick

    def broken(*args, **kwargs):
        raise ValueError("renderer changed")

    monkeypatch.setattr(quick, "quick_plan", broken)
    rules, board = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    session.refresh()
    session.close()
    board.write_text(_moved(board.read_text(encoding="utf-8"), "louvre", 0.003), encoding="utf-8")
    with caplog.at_level("WARNING", logger="ttr_maps.studio"):
        assert session.refresh(later=True)
    final = load(rules)
    assert session.snapshot.drawing.exact
    assert session.snapshot.drawing.svg == draw_board(plan_board(final.board, final.variant, BoardOptions()))
    assert "quick layout failed (ValueError: renderer changed)" in caplog.text


def _held_writes(monkeypatch) -> threading.Event:
    """Hold every YamlFile.prepare (the text of an edit made for writing) until the returned event is set (a slow dump)."""

    from ttr_maps import yamledit

    release = threading.Event()
    real = yamledit.YamlFile.prepare

    def held(self, *args, **kwargs):
        assert release.wait(60)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(yamledit.YamlFile, "prepare", held)
    return release


def test_a_drag_is_drawn_before_it_is_written_and_the_next_edit_waits_for_the_write(tmp_path: Path, monkeypatch) -> None:

    rules, board = _copy(tmp_path, "paris.yaml")
    before = board.read_text(encoding="utf-8")
    session = Session(str(rules))
    session.refresh()
    session.close()
    release = _held_writes(monkeypatch)
    place = next(p for p in session.snapshot.drawing.data["places"] if p["id"] == "louvre")
    first = {"op": "move_place", "index": place["index"], "at": [place["at"][0] + 8, place["at"][1] - 4], "base": session.snapshot.sha}
    apply(session, first)  # answers with the new drawing while the write is held
    drawn = session.snapshot
    moved = next(p for p in drawn.drawing.data["places"] if p["id"] == "louvre")
    assert math.dist(moved["at"], first["at"]) < 0.5 and not drawn.drawing.exact
    assert board.read_text(encoding="utf-8") == before and session.state()["saved"] is False
    second = {"op": "move_place", "index": place["index"], "at": [place["at"][0] - 8, place["at"][1]], "base": drawn.sha}
    done = threading.Event()
    threading.Thread(target=lambda: (apply(session, second), done.set()), daemon=True).start()
    assert not done.wait(0.5)  # the next edit waits for the write of the first
    release.set()
    assert done.wait(60)
    session.wait_written()
    assert session.state()["saved"] is True and len(session.undo) == 2
    final = load(rules).board.places[place["index"]]
    first_written = load(rules, {str(board): session.undo[0][1]}).board.places[place["index"]]
    assert final.lon < first_written.lon  # both written, in order: the second drag went west of the first
    assert file_sha(str(board)) == session.resolve(session.snapshot.sha)


def test_a_drag_whose_file_changed_on_disk_before_its_write_is_not_written_and_the_page_says_so(tmp_path: Path, monkeypatch) -> None:
    rules, board = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    session.refresh()
    session.close()
    release = _held_writes(monkeypatch)
    place = next(p for p in session.snapshot.drawing.data["places"] if p["id"] == "louvre")
    apply(session, {"op": "move_place", "index": place["index"], "at": [place["at"][0] + 8, place["at"][1]], "base": session.snapshot.sha})
    hand = board.read_text(encoding="utf-8").replace("name: Louvre", "name: Le Louvre")
    board.write_text(hand, encoding="utf-8")  # saved in an editor before the drag was written
    release.set()
    session.wait_written()
    assert board.read_text(encoding="utf-8") == hand  # never written over
    snap = session.snapshot
    assert "not written" in snap.message and "changed on disk" in snap.message
    assert snap.sha == file_sha(str(board)) and snap.drawing.loaded.board.places[place["index"]].name == "Le Louvre"
    assert not session.undo


def test_an_edit_stops_the_exact_layout_of_the_drawing_before_it(tmp_path: Path, monkeypatch) -> None:
    import time

    import ttr_maps.render as render

    rules, board = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    session.refresh()
    real = render.plan_board
    slow = {"started": threading.Event(), "finished": False, "calls": 0}

    def plan_board(*args, **kwargs):
        slow["calls"] += 1
        if slow["calls"] == 1:  # the first exact layout takes long (a big board, a busy machine)
            slow["started"].set()
            for _ in range(2000):
                time.sleep(0.01)
            slow["finished"] = True
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "plan_board", plan_board)
    board.write_text(_moved(board.read_text(encoding="utf-8"), "louvre", 0.002), encoding="utf-8")  # saved in an editor
    assert session.refresh(later=True)
    assert slow["started"].wait(60)
    place = next(p for p in session.snapshot.drawing.data["places"] if p["id"] == "opera")
    t = time.monotonic()
    apply(session, {"op": "move_place", "index": place["index"], "at": [place["at"][0] + 6, place["at"][1]], "base": session.snapshot.sha})
    deadline = time.monotonic() + 60
    while not (session.snapshot.findings_ready and session.snapshot.drawing.exact):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    session.close()
    assert not slow["finished"] and time.monotonic() - t < 20  # the old layout was stopped, not waited for
    assert slow["calls"] == 2  # the edit's own exact layout followed
    final = load(rules)
    assert session.snapshot.drawing.svg == draw_board(real(final.board, final.variant, BoardOptions()))


def test_a_cancel_that_python_drops_still_stops_the_background_step(tmp_path: Path) -> None:
    """An edit stops the background step (render's layout, the checks) by raising Cancelled in its thread; where
    that lands inside a weakref callback or a __del__, Python prints it and drops it. The step must still end as
    cancelled once it returns, not hand back its old result (the CI run of 2026-11-27 printed such a drop)."""
    rules, _ = _copy(tmp_path, "paris.yaml")
    session = Session(str(rules))
    started = threading.Event()
    seen: dict[str, object] = {"dropped": False}

    def step() -> str:
        started.set()
        deadline = time.monotonic() + 10
        while not seen["dropped"] and time.monotonic() < deadline:
            try:  # (stands for the callback that drops the exception)
                time.sleep(0.001)
            except Cancelled:
                seen["dropped"] = True
        return "the old drawing's result"

    def work() -> None:
        try:
            seen["result"] = session._cancellable(step)
        except Cancelled:
            seen["result"] = "cancelled"

    worker = threading.Thread(target=work)
    session._worker = worker  # the background thread, as Session._later makes it
    worker.start()
    assert started.wait(10)
    assert session.cancel_background()
    worker.join(10)
    assert seen["dropped"] is True
    assert seen["result"] == "cancelled"
    assert not session.cancel_background()  # nothing under way any more
