"""yamledit: changes written into a user's YAML keep every untouched line byte for byte,
and nothing is written over a file changed on disk or with a change that would not load."""

from __future__ import annotations

import difflib
import os
import random
import shutil
from pathlib import Path

import pytest

from ttr_maps.load import load
from ttr_maps.yamledit import FileChanged, NotEditable, WouldBreak, YamlFile, merge_lines

ROOT = Path(__file__).resolve().parent.parent

# A board written the way people write: comments everywhere, flow and block style, quotes,
# odd spacing ruamel.yaml would normalise, a folded description, blank lines.
BOARD = """\
# my board  -- hand written
format: ttr-board/1
meta:
  title: 'Quoted: title'   # a comment after a value
  author: "Someone"
  description: >-
    Two lines of
    folded text.
drawing:
  car_length: 1

places:
  # the west
  - {id: a, name: "Aville", x: 0, y: 0}
  - {id: b,   name: Bton, x: 4, y: 0}   # spaced oddly
  - id: c
    name: 'Cpoint'
    x: 8
    y: 1.50
routes:
  - {from: a, to: b, length: 4, tracks: [red]}
  # a comment between routes
  - {from: b, to: c, length: 4, tracks: [blue, green]}
  -   {from: a, to: c, length: 8, tracks: [gray], ferry: 1}
tickets:
  - {from: a, to: c, points: 8, decks: [main]}
"""


def _changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    gone, added = [], []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith("-") and not line.startswith("---"):
            gone.append(line[1:])
        elif line.startswith("+") and not line.startswith("+++"):
            added.append(line[1:])
    return gone, added


@pytest.fixture
def board(tmp_path: Path) -> Path:
    p = tmp_path / "board.yaml"
    p.write_text(BOARD, encoding="utf-8")
    assert load(p).ok, [d.as_text() for d in load(p).diagnostics]
    return p


def test_setting_a_flow_value_changes_only_that_line(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("places", 1, "x"), 5.5)
    doc.save()
    after = board.read_text(encoding="utf-8")
    gone, added = _changed_lines(BOARD, after)
    assert gone == ["  - {id: b,   name: Bton, x: 4, y: 0}   # spaced oddly"]
    assert len(added) == 1 and "x: 5.5" in added[0] and "y: 0" in added[0] and "# spaced oddly" in added[0]
    assert load(board).board.places[1].x == 5.5


def test_setting_a_block_value_keeps_the_rest_of_the_item(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("places", 2, "y"), 2.25)
    doc.save()
    gone, added = _changed_lines(BOARD, board.read_text(encoding="utf-8"))
    assert (gone, added) == (["    y: 1.50"], ["    y: 2.25"])


def test_inserting_into_a_flow_list_writes_flow_style(board: Path) -> None:
    doc = YamlFile.read(board)
    index = doc.append(("routes",), {"from": "b", "to": "a", "length": 4, "tracks": ["yellow"]})
    assert index == 3
    doc.save()
    gone, added = _changed_lines(BOARD, board.read_text(encoding="utf-8"))
    assert gone == []
    assert added == ["  - {from: b, to: a, length: 4, tracks: [yellow]}"]
    assert len(load(board).board.routes) == 4


def test_adding_a_key_to_a_flow_mapping_and_deleting_an_item(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("routes", 0, "bend"), [[2, 1]])
    doc.delete(("tickets", 0))
    doc.append(("tickets",), {"from": "a", "to": "b", "points": 4, "decks": ["main"]})
    doc.save()
    text = board.read_text(encoding="utf-8")
    gone, added = _changed_lines(BOARD, text)
    assert "  - {from: a, to: b, length: 4, tracks: [red], bend: [[2, 1]]}" in added
    assert "  - {from: a, to: c, points: 8, decks: [main]}" in gone and "  - {from: a, to: b, points: 4, decks: [main]}" in added
    # The odd lines ruamel.yaml would have re-spaced are untouched.
    assert "  -   {from: a, to: c, length: 8, tracks: [gray], ferry: 1}\n" in text
    assert "  title: 'Quoted: title'   # a comment after a value\n" in text


def test_file_changed_on_disk_is_not_overwritten(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("places", 0, "x"), 1)
    board.write_text(BOARD.replace("Aville", "Aford"), encoding="utf-8")
    with pytest.raises(FileChanged, match="changed on disk"):
        doc.save()
    assert "Aford" in board.read_text(encoding="utf-8")


def test_a_change_that_would_not_load_is_refused(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("routes", 0, "to"), "nowhere")
    with pytest.raises(WouldBreak) as info:
        doc.save()
    assert info.value.diagnostics and "nowhere" in str(info.value)
    assert str(board) in str(info.value)
    assert board.read_text(encoding="utf-8") == BOARD


def test_errors_the_file_already_had_do_not_block_a_change(tmp_path: Path) -> None:
    p = tmp_path / "board.yaml"
    p.write_text(BOARD.replace("to: c, points: 8", "to: zz, points: 8"), encoding="utf-8")
    assert not load(p).ok
    doc = YamlFile.read(p)
    doc.set(("places", 0, "x"), -1)
    doc.save()
    assert load(p).diagnostics and "x: -1" in p.read_text(encoding="utf-8")


def test_check_loads_the_variant_that_names_the_board(tmp_path: Path) -> None:
    for name in ("three-harbours.yaml", "three-harbours-rules.yaml"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    board, rules = tmp_path / "three-harbours.yaml", tmp_path / "three-harbours-rules.yaml"
    doc = YamlFile.read(board)
    for i in range(len(doc.get(("tickets",)))):
        doc.set(("tickets", i, "decks"), ["spare"])
    before = board.read_bytes()
    doc.validate(doc.render())  # the board alone is fine with its tickets in another deck
    with pytest.raises(WouldBreak, match="R005"):
        doc.save(check=rules)  # but the variant's pile names deck 'main'
    assert board.read_bytes() == before


def test_write_is_atomic_and_keeps_the_mode(board: Path) -> None:
    os.chmod(board, 0o640)
    doc = YamlFile.read(board)
    doc.set(("meta", "author"), "Someone else")
    doc.save()
    assert oct(os.stat(board).st_mode & 0o777) == oct(0o640)
    assert [p.name for p in board.parent.iterdir()] == ["board.yaml"]  # no temporary file left
    assert "  author: \"Someone else\"\n" in board.read_text(encoding="utf-8") or "  author: Someone else\n" in board.read_text(encoding="utf-8")


def test_saving_twice_follows_the_first_save(board: Path) -> None:
    doc = YamlFile.read(board)
    doc.set(("places", 0, "x"), 1)
    doc.save()
    doc.set(("places", 0, "y"), 2)
    doc.save()
    gone, added = _changed_lines(BOARD, board.read_text(encoding="utf-8"))
    assert gone == ['  - {id: a, name: "Aville", x: 0, y: 0}'] and added == ['  - {id: a, name: "Aville", x: 1, y: 2}']


def test_json_and_unparsable_files_are_not_edited(tmp_path: Path) -> None:
    j = tmp_path / "b.json"
    j.write_text('{"format": "ttr-board/1"}', encoding="utf-8")
    with pytest.raises(NotEditable, match="JSON"):
        YamlFile.read(j)
    y = tmp_path / "b.yaml"
    y.write_text("format: ttr-board/1\nplaces: [\n", encoding="utf-8")
    with pytest.raises(NotEditable, match=r"b\.yaml.*does not parse"):
        YamlFile.read(y)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["maps/boards/europe.yaml", "examples/vellmar.yaml", "maps/boards/usa.yaml"])
def test_moving_places_on_bundled_boards_changes_only_their_lines(tmp_path: Path, name: str) -> None:
    p = tmp_path / Path(name).name
    shutil.copy(ROOT / name, p)
    before = p.read_text(encoding="utf-8")
    doc = YamlFile.read(p)
    places = doc.get(("places",))
    rng = random.Random(7)
    moved = rng.sample(range(len(places)), 3)
    for i in moved:
        keys = ("x", "y") if "x" in places[i] else ("lat", "lon")
        for k in keys:
            doc.set(("places", i, k), round(float(places[i][k]) + rng.uniform(-0.5, 0.5), 2))
    new = doc.render()
    doc.validate(new)
    gone, added = _changed_lines(before, new)
    assert len(gone) == len(added) == 3
    assert all(any(f"id: {places[i]['id']}," in line for line in gone) for i in moved)


def test_merge_keeps_lines_the_reformatted_copy_changed() -> None:
    original = "a:   1\nb: [x,y]\nc: 3\n"
    base = "a: 1\nb: [x, y]\nc: 3\n"
    changed = "a: 1\nb: [x, y]\nc: 4\n"
    assert merge_lines(original, base, changed) == "a:   1\nb: [x,y]\nc: 4\n"
    assert merge_lines(original, base, "a: 1\nb: [x, y]\nc: 3\nd: 5\n") == "a:   1\nb: [x,y]\nc: 3\nd: 5\n"
    assert merge_lines(original, base, "a: 1\nc: 3\n") == "a:   1\nc: 3\n"
