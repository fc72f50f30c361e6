"""`ttr-maps validate --fix` / `--diff`: safe fixes written back keeping the user's text."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ttr_maps.cli.main import cli

FAN = Path(__file__).resolve().parent / "fixtures" / "checks" / "D006" / "fail.yaml"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_fix_writes_the_bend_points_and_keeps_every_other_line(tmp_path):
    board = tmp_path / "fan.yaml"
    before = FAN.read_text(encoding="utf-8")
    board.write_text(before, encoding="utf-8")
    result = run("validate", "--fix", str(board), "--select", "D006")
    assert "fixed" in result.output and "D006 route hub–n1: bend: [[" in result.output, result.output
    after = board.read_text(encoding="utf-8")
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new)
    changed = [k for k, (a, b) in enumerate(zip(old, new)) if a != b]
    assert [old[k].split(", bend:")[0] for k in changed] == [new[k].split(", bend:")[0] for k in changed]
    assert all("# expect: D006@5" in new[k] for k in changed)  # the comment on a changed line stays
    # The two spokes it moved are drawn clear now: no finding at their lines (16 and 20) or naming them.
    left = run("validate", str(board), "--select", "D006").output
    assert "fan.yaml:16:" not in left and "fan.yaml:20:" not in left and "hub–n1" not in left and "hub–n5" not in left, left


def test_diff_shows_the_change_and_writes_nothing(tmp_path):
    board = tmp_path / "fan.yaml"
    board.write_text(FAN.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("validate", "--fix", "--diff", str(board), "--select", "D006")
    assert "+  - {from: hub, to: n1, length: 3, tracks: [red], bend: [[" in result.output
    assert "would fix" in result.output
    assert board.read_text(encoding="utf-8") == FAN.read_text(encoding="utf-8")


def test_ticket_values_are_fixed_only_when_asked(tmp_path):
    board = tmp_path / "b.yaml"
    board.write_text(
        "format: ttr-board/1\nmeta: {title: t}\ndrawing: {car_length: 1}\n"
        "places:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, x: 3.7, y: 0}\n"
        "routes:\n  - {from: a, to: b, length: 3, tracks: [red]}\n"
        "tickets:\n  # the only ticket\n  - {from: a, to: b, points: 9, decks: [main]}\n", encoding="utf-8")
    run("validate", "--fix", str(board))
    assert "points: 9" in board.read_text(encoding="utf-8")
    result = run("validate", "--fix", "G006", str(board))
    assert "fixed" in result.output and "points: 3" in result.output
    assert board.read_text(encoding="utf-8").endswith("  # the only ticket\n  - {from: a, to: b, points: 3, decks: [main]}\n")


def test_an_unfixable_code_is_a_usage_error():
    result = run("validate", "--fix", "D001", str(FAN))
    assert result.exit_code == 2 and "has no automatic fix" in result.output


TYPO_BOARD = (
    "format: ttr-board/1\nmeta: {title: t}\ndrawing: {car_length: 1}\n"
    "places:\n  - {id: boston, name: Boston, x: 0, y: 0}\n  - {id: albany, name: Albany, x: 3.7, y: 0}\n{extra}"
    "routes:\n  # the only route\n  - {from: bostn, to: albany, length: 3, tracks: [red]}  # keep me\n"
    "tickets:\n  - {from: boston, to: albany, points: 3, decks: [main]}\n"
)


def test_an_id_typo_with_one_close_place_is_fixed_and_the_rest_kept(tmp_path):
    board = tmp_path / "b.yaml"
    before = TYPO_BOARD.replace("{extra}", "")
    board.write_text(before, encoding="utf-8")
    shown = run("validate", "--fix", "--diff", str(board))
    assert "+  - {from: boston, to: albany" in shown.output and board.read_text(encoding="utf-8") == before
    result = run("validate", "--fix", str(board))
    assert "fixed" in result.output and "R002 line 9: 'bostn' -> 'boston'" in result.output, result.output
    assert result.exit_code == 0, result.output
    assert board.read_text(encoding="utf-8") == before.replace("from: bostn,", "from: boston,")  # comments and all else byte for byte


def test_an_id_typo_close_to_two_places_is_left_alone(tmp_path):
    board = tmp_path / "b.yaml"
    before = TYPO_BOARD.replace("{extra}", "  - {id: bostan, name: Bostan, x: 0, y: 3.7}\n")
    board.write_text(before, encoding="utf-8")
    result = run("validate", "--fix", str(board))
    assert result.exit_code == 1 and "R002" in result.output and "fixed" not in result.output
    assert board.read_text(encoding="utf-8") == before
