"""`validate` keeps the checks' findings of an unchanged file on disk (ttr_maps/checks/cache.py):
a second run prints exactly what a fresh run prints, without running a check or loading the
drawing libraries, and any change to the file, its settings or the cache itself is seen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.checks import CHECKS
from ttr_maps.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


BOARD = """\
format: ttr-board/1
meta: {title: Pier}
colors: [blue, yellow, orange, black, red, green]
drawing:
  car_length: 1
places:
  - {id: northport, name: Northport, x: 0, y: 0}
  - {id: millford, name: Millford, x: 4, y: 1}
  - {id: eastwick, name: Eastwick, x: 8, y: 0}
  - {id: southend, name: Southend, x: 4, y: 5}
  - {id: pier, name: Pier, x: 4, y: 0.3}
routes:
  - {from: northport, to: millford, length: 3, tracks: [red]}
  - {from: millford, to: eastwick, length: 3, tracks: [blue, green]}
  - {from: northport, to: southend, length: 6, tracks: [gray]}
  - {from: millford, to: southend, length: 3, tracks: [yellow]}
  - {from: southend, to: eastwick, length: 6, tracks: [black]}
  - {from: northport, to: pier, length: 4, tracks: [green]}
tickets:
  - {from: northport, to: eastwick, points: 6, decks: [main]}
  - {from: southend, to: northport, points: 6, decks: [main]}
"""


@pytest.fixture
def board(tmp_path, monkeypatch) -> Path:
    """A small board with findings of every family, one of them naming a second place's line (D001)."""
    monkeypatch.setenv("TTR_MAPS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TTR_MAPS_NO_CACHE", raising=False)
    path = tmp_path / "b" / "pier.yaml"
    path.parent.mkdir()
    path.write_text(BOARD, encoding="utf-8")
    return path


def validate(*args: str) -> str:
    result = CliRunner().invoke(cli, ["validate", *args])
    assert result.exit_code in (0, 1), result.output
    return result.output


def entries(board: Path) -> list[Path]:
    return sorted((board.parent.parent / "cache" / "findings").glob("*.json"))


def test_a_second_run_reuses_the_findings_and_prints_the_same(board, monkeypatch):
    fresh = validate(str(board), "--no-cache")
    assert all(code in fresh for code in ("D001", "G015", "B002")) and "(line 8)" in fresh
    assert not entries(board)  # --no-cache neither reads nor writes
    assert validate(str(board)) == fresh
    assert len(entries(board)) == 1

    def boom(*args, **kwargs):
        raise AssertionError("a check ran although its findings were cached")

    for code, check in list(CHECKS.items()):
        monkeypatch.setitem(CHECKS, code, replace(check, run=boom))
    assert validate(str(board)) == fresh


def test_a_moved_line_is_not_taken_from_the_cache(board):
    validate(str(board))
    board.write_text("# a comment line\n" + board.read_text(encoding="utf-8"), encoding="utf-8")
    shifted = validate(str(board))
    assert shifted == validate(str(board), "--no-cache")
    # Every position moved down one line, also the line a message names.
    assert "pier.yaml:12:5: warning D001" in shifted and "(line 9)" in shifted


def test_a_changed_option_or_selection_is_not_taken_from_the_cache(board):
    full = validate(str(board))
    (board.parent / "ttr-maps.toml").write_text("[checks.options.B002]\nmax_distance = 0.9\n", encoding="utf-8")
    relaxed = validate(str(board))
    assert relaxed == validate(str(board), "--no-cache")
    assert "B002" in full and "B002" not in relaxed
    assert validate(str(board), "--select", "G,B") == validate(str(board), "--select", "G,B", "--no-cache")


def test_a_broken_cache_entry_is_ignored(board):
    fresh = validate(str(board), "--no-cache")
    validate(str(board))
    (entry,) = entries(board)
    entry.write_text("{not json", encoding="utf-8")
    assert validate(str(board)) == fresh
    data = json.loads(entry.read_text(encoding="utf-8"))  # written again, whole
    assert data["format"] == 1 and "D001" in data["checks"]
    entry.write_text(json.dumps({"format": 1, "checks": {"D001": {"options": "wrong", "findings": 7}}}), encoding="utf-8")
    assert validate(str(board)) == fresh


def test_the_cache_can_be_turned_off(board, monkeypatch):
    monkeypatch.setenv("TTR_MAPS_NO_CACHE", "1")
    validate(str(board))
    assert not entries(board)


def test_an_unwritable_cache_folder_changes_nothing(board, monkeypatch, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("TTR_MAPS_CACHE_DIR", str(blocker))
    assert validate(str(board)) == validate(str(board), "--no-cache")


@pytest.mark.slow
def test_a_cached_validate_loads_no_drawing_library(board):
    """What makes `validate` of an unchanged board quick: numpy, shapely and the renderer stay unloaded
    (networkx on every run)."""
    code = (
        "import sys\n"
        "from ttr_maps.cli.main import cli\n"
        "try:\n"
        f"    cli(['validate', {str(board)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('networkx', 'numpy', 'shapely', 'ttr_maps.render.plan', 'jsonschema', 'fpdf', 'starlette', 'uvicorn')\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    env = dict(os.environ)

    def loaded() -> str:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
        return out.splitlines()[-1]

    first = loaded()
    assert "shapely" in first  # the first run lays the board out
    assert "networkx" not in first  # bridges and cut places need no graph library (ttr_maps/boardgraph.py)
    assert loaded() == "LOADED []"
