"""Choosing checks like a linter: --select/--ignore, a file's `checks:`, `ttr-maps.toml`; exit codes and reporters."""

import json
import textwrap

import pytest
from click.testing import CliRunner

from ttr_maps.checks import CHECKS, run_checks
from ttr_maps.cli.main import cli
from ttr_maps.load import load

BOARD = """\
format: ttr-board/1
meta: {title: config test}
drawing: {car_length: 1}
places:
  - {id: a, name: A, x: 0, y: 0}
  - {id: b, name: B, x: 4, y: 0}
  - {id: c, name: C, x: 9, y: 0}
  - {id: lonely, name: Lonely, x: 4, y: 6}
routes:
  - {from: a, to: b, length: 3, tracks: [red]}
  - {from: b, to: c, length: 4, tracks: [blue]}
tickets:
  - {from: a, to: c, points: 10, decks: [main]}
  - {from: a, to: b, points: 3, decks: [main]}
"""
# Raises G002 (lonely, line 8) and G006 (a-c is worth 10 for 7 spaces, line 13), both warnings,
# and some information (bridges, the route mix) that these tests leave out.
WATCHED = {"G002", "G006", "G012", "C001", "R002"}


def write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def codes(path, *args):
    result = CliRunner().invoke(cli, ["validate", "--format", "json", str(path), *args])
    assert "Traceback" not in result.output
    return result.exit_code, [(d["code"], d["severity"], d["line"], d["col"]) for d in json.loads(result.output) if d["code"] in WATCHED]


@pytest.fixture
def board(tmp_path):
    return write(tmp_path / "maps", "board.yaml", BOARD)


def test_defaults(board):
    assert codes(board) == (0, [("G002", "warning", 8, 5), ("G006", "warning", 13, 30)])


def test_warnings_fail_only_with_strict(board):
    assert codes(board, "--strict")[0] == 1


def test_select_by_prefix_and_ignore_by_name(board):
    assert codes(board, "--select", "G") == (0, [("G002", "warning", 8, 5), ("G006", "warning", 13, 30)])
    assert codes(board, "--select", "G006") == (0, [("G006", "warning", 13, 30)])
    assert codes(board, "--ignore", "ticket-value-mismatch,D") == (0, [("G002", "warning", 8, 5)])
    assert codes(board, "--select", "g00", "--ignore", "G002") == (0, [("G006", "warning", 13, 30)])


def test_unknown_selector_is_a_usage_error(board):
    result = CliRunner().invoke(cli, ["validate", str(board), "--ignore", "G999"])
    assert result.exit_code == 2
    assert "unknown check 'G999'" in result.output


def test_board_checks_mapping_sets_severity_and_off(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD + "checks: {G006: error, G002: off}\n")
    assert codes(path) == (1, [("G006", "error", 13, 30)])


def test_most_specific_key_wins_within_a_file(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD + "checks: {G: info, G006: error}\n")
    assert codes(path) == (1, [("G002", "info", 8, 5), ("G006", "error", 13, 30)])


def test_variant_settings_override_the_board(tmp_path):
    write(tmp_path, "b.yaml", BOARD + "checks: {G006: error}\n")
    variant = write(tmp_path, "v.yaml", "format: ttr-variant/1\nname: v\nboard: b.yaml\ncards: {colors: {red: 12, blue: 12}}\nchecks: {G006: info, G008: off}\n")
    exit_code, found = codes(variant)
    assert exit_code == 0
    assert ("G006", "info", 13, 30) in found


def test_bad_settings_in_a_file_are_reported_where_they_are(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD + "checks:\n  G06: off\n  G002: loud\n")
    exit_code, found = codes(path)
    assert exit_code == 1
    assert ("C001", "error", 16, 3) in found  # the unknown key
    assert ("C001", "error", 17, 9) in found  # the bad value
    assert ("G002", "warning", 8, 5) in found  # a bad setting is ignored, not applied


BAD_SETTINGS = "checks:\n  G06: off\n  G002: loud\n"


@pytest.mark.parametrize("how", [["--ignore", "C001"], ["--ignore", "invalid-check-setting"], ["--ignore", "C"]])
def test_bad_settings_can_be_ignored_on_the_command_line(tmp_path, how):
    path = write(tmp_path, "b.yaml", BOARD + BAD_SETTINGS)
    assert [c for c, *_ in codes(path, *how)[1]] == ["G002", "G006"]


def test_bad_settings_can_be_turned_off_or_down_in_the_config_and_the_file(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD + BAD_SETTINGS)
    write(tmp_path, "ttr-maps.toml", '[checks]\nC001 = "warning"\n')
    assert ("C001", "warning", 16, 3) in codes(path)[1]
    write(tmp_path, "ttr-maps.toml", '[checks]\nC001 = "off"\n')
    assert "C001" not in [c for c, *_ in codes(path)[1]]
    path = write(tmp_path, "b.yaml", BOARD + BAD_SETTINGS + "  C001: info\n")
    assert ("C001", "info", 16, 3) in codes(path)[1]


def test_select_does_not_hide_bad_settings(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD + BAD_SETTINGS)
    assert sorted(c for c, *_ in codes(path, "--select", "G006")[1]) == ["C001", "C001", "G006"]


def test_g006_accepts_tickets_named_in_the_config(tmp_path, board):
    """A ticket kept at its value on purpose (a published one) is named once; the others are still checked."""
    write(tmp_path, "ttr-maps.toml", '[checks.options.G006]\naccept = ["c-a"]\n')
    assert codes(board) == (0, [("G002", "warning", 8, 5)])
    write(tmp_path, "ttr-maps.toml", '[checks.options.G006]\naccept = ["a-b"]\n')
    assert codes(board) == (0, [("G002", "warning", 8, 5), ("G006", "warning", 13, 30)])


def test_config_file_is_found_from_the_folder_upwards(tmp_path, board):
    write(tmp_path, "ttr-maps.toml", """\
        [checks]
        ignore = ["G002"]
        G006 = "error"

        [checks.options.G006]
        tolerance = 3
        """)
    assert codes(board) == (0, [])
    write(tmp_path, "ttr-maps.toml", '[checks]\nG006 = "error"\n')
    assert codes(board) == (1, [("G002", "warning", 8, 5), ("G006", "error", 13, 30)])


def test_nearest_config_file_wins(tmp_path, board):
    write(tmp_path, "ttr-maps.toml", '[checks]\nG006 = "error"\n')
    write(board.parent, "ttr-maps.toml", '[checks]\nG006 = "info"\n')
    assert ("G006", "info", 13, 30) in codes(board)[1]


def test_command_line_select_replaces_the_config_select(tmp_path, board):
    write(tmp_path, "ttr-maps.toml", '[checks]\nselect = ["G002"]\n')
    assert codes(board) == (0, [("G002", "warning", 8, 5)])
    assert codes(board, "--select", "G006") == (0, [("G006", "warning", 13, 30)])


def test_file_settings_override_the_config_file(tmp_path):
    write(tmp_path, "ttr-maps.toml", '[checks]\nG006 = "error"\n')
    path = write(tmp_path, "b.yaml", BOARD + "checks: {G006: warning}\n")
    assert codes(path) == (0, [("G002", "warning", 8, 5), ("G006", "warning", 13, 30)])


@pytest.mark.parametrize(
    "toml, line, col, message",
    [
        ('[checks]\nG006 = "loud"\n', 2, 1, "'loud' is not a check setting"),
        ('[checks]\nselect = ["G", "Q1"]\n', 2, 1, "unknown check 'Q1'"),
        ('[checks]\nselekt = ["G"]\n', 2, 1, "unknown key 'selekt' in [checks] (did you mean 'select'?)"),
        ("[checks.options.G006]\ntolerence = 2\n", 2, 1, "G006 has no option 'tolerence' (did you mean 'tolerance'?)"),
        ('[checks.options.G006]\ntolerance = "two"\n', 2, 1, "G006 option 'tolerance' must be a non-negative int like 1"),
        ("[checks]\nG006 = \n", 2, 8, "TOML syntax error"),
        ("checks = 3\n", 1, 1, "`checks` must be a table"),
    ],
)
def test_bad_config_file_is_reported_at_its_line(tmp_path, board, toml, line, col, message):
    config = write(tmp_path, "ttr-maps.toml", toml)
    result = CliRunner().invoke(cli, ["validate", str(board)])
    assert result.exit_code == 1
    assert f"{config}:{line}:{col}: error C001 {message}" in result.output
    assert "Traceback" not in result.output


def test_checks_run_only_on_files_that_load_clean(tmp_path):
    path = write(tmp_path, "b.yaml", BOARD.replace("to: c, length: 4", "to: nowhere, length: 4"))
    exit_code, found = codes(path)
    assert exit_code == 1
    assert [c for c, *_ in found] == ["R002"]


def test_variant_checks_run_with_the_variant_only(tmp_path):
    write(tmp_path, "b.yaml", BOARD.replace("tracks: [blue]", "tracks: [orange]"))
    variant = write(tmp_path, "v.yaml", "format: ttr-variant/1\nname: v\nboard: b.yaml\ncards: {colors: {red: 12, blue: 12}}\n")
    assert "G012" not in [c for c, *_ in codes(tmp_path / "b.yaml")[1]]
    exit_code, found = codes(variant, "--select", "G012")
    assert (exit_code, found) == (1, [("G012", "error", 4, 17)])


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_findings_go_through_every_reporter(board, fmt):
    result = CliRunner().invoke(cli, ["validate", "--format", fmt, str(board), "--select", "G006"])
    assert result.exit_code == 0
    if fmt == "text":
        assert f"{board}:13:30: warning G006 the ticket a–c is worth 10 points but its shortest path is 7 spaces" in result.output
    elif fmt == "json":
        (d,) = json.loads(result.output)
        assert (d["code"], d["name"], d["line"], d["col"]) == ("G006", "ticket-value-mismatch", 13, 30)
    elif fmt == "github":
        assert result.output.startswith(f"::warning file={board},line=13,col=30,")
    else:
        run = json.loads(result.output)["runs"][0]
        assert [r["ruleId"] for r in run["results"]] == ["G006"]
        assert run["results"][0]["level"] == "warning"


def test_library_call_without_config(tmp_path, board):
    write(tmp_path, "ttr-maps.toml", '[checks]\nG006 = "off"\n')
    loaded = load(board)
    assert {d.code for d in run_checks(loaded)} & WATCHED == {"G002"}
    assert {d.code for d in run_checks(loaded, config=False)} & WATCHED == {"G002", "G006"}


def test_tickets_a_variant_adds_are_checked_in_the_variant_file(tmp_path):
    write(tmp_path, "b.yaml", BOARD)
    variant = write(tmp_path, "v.yaml", """\
        format: ttr-variant/1
        name: bonus cards
        board: b.yaml
        cards: {colors: {red: 12, blue: 12}}
        players: {min: 2, max: 2}
        tickets:
          setup: {deal: [{pile: main, count: 1}], keep_min: 1}
          add:
            - {from: c, to: a, points: 2, decks: [main]}
        """)
    result = CliRunner().invoke(cli, ["validate", "--format", "json", str(variant), "--select", "G006,G007"])
    found = sorted((d["path"].rsplit("/", 1)[-1], d["code"], d["line"], d["col"]) for d in json.loads(result.output))
    assert found == [("b.yaml", "G006", 13, 30), ("v.yaml", "G006", 9, 32), ("v.yaml", "G007", 9, 7)]


def test_sarif_describes_check_rules(board):
    result = CliRunner().invoke(cli, ["validate", "--format", "sarif", str(board), "--select", "G006"])
    (rule,) = json.loads(result.output)["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "G006" and rule["name"] == "ticket-value-mismatch"
    assert rule["shortDescription"] == {"text": CHECKS["G006"].summary}
    assert rule["help"]["markdown"] == CHECKS["G006"].doc  # code-scanning UIs show it beside the finding
