"""Odd command-line input found by a fuzzing audit: each gets a message and an exit code, never a traceback."""

from __future__ import annotations

import pytest

from click.testing import CliRunner

from conftest import MAPS
from ttr_maps.cli.main import cli

USA = str(MAPS / "variants" / "usa.yaml")
PARIS = str(MAPS / "variants" / "paris.yaml")


def invoke(*args):
    res = CliRunner().invoke(cli, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def test_car_mm_nan_is_a_usage_error(tmp_path):
    for command in ("render", "print"):
        res = invoke(command, "--car-mm", "nan", "-o", str(tmp_path / "out"), USA)
        assert res.exit_code == 2 and "'nan' is not a number in the range 5<=x<=100" in res.output
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_default_bots_are_cut_to_the_seats(tmp_path):
    res = invoke("simulate", PARIS, "-n", "1", "-p", "2", "-q", "-o", str(tmp_path / "run"))
    assert res.exit_code == 0, res.output
    assert "expert" in res.output and "route-focus" in res.output and "long-route" not in res.output


@pytest.mark.slow
def test_a_malformed_scheduler_address_is_named(tmp_path):
    for address in ("notanaddress", "tcp://127.0.0.1:abc", "foo://x:1"):
        res = invoke("simulate", PARIS, "-n", "1", "-q", "-o", str(tmp_path / "run"), "--scheduler", address)
        assert res.exit_code == 1 and f"cannot use the Dask scheduler at {address}: not a scheduler address" in res.output
        assert not (tmp_path / "run").exists()


def test_names_too_long_for_the_file_system(tmp_path):
    long = "b" * 300 + ".yaml"
    res = invoke("state", "new", "-p", "2", long)
    assert res.exit_code == 1 and "not found" in res.output
    state = tmp_path / "state.yaml"
    res = invoke("state", "new", "-p", "2", PARIS, "-o", str(state))
    assert res.exit_code == 0, res.output
    text = state.read_text(encoding="utf-8")
    variant_line = next(line for line in text.splitlines() if line.startswith("variant:"))
    state.write_text(text.replace(variant_line, "variant: " + "a" * 300 + ".yaml"), encoding="utf-8")
    for sub in ("show", "legal"):
        res = invoke("state", sub, str(state))
        assert res.exit_code == 1 and "File name too long" in res.output


def test_empty_selections_and_names_are_usage_errors(tmp_path):
    res = invoke("validate", "--select", "", USA)
    assert res.exit_code == 2 and "give at least one check" in res.output
    res = invoke("render", "--ticket", "", "-o", str(tmp_path / "t.svg"), USA)
    assert res.exit_code == 2 and "--ticket needs the ticket's two place ids" in res.output
    for command, suffix in (("render", ".svg"), ("print", ".pdf")):
        res = invoke(command, "-o", "", USA)
        assert res.exit_code == 1 and f"-o needs a file name, e.g. -o board{suffix}" in res.output
    assert not (tmp_path / "t.svg").exists()


@pytest.mark.slow
def test_a_check_option_of_nan_or_infinity_is_c001(tmp_path):
    board = (MAPS / "boards" / "usa.yaml").read_text(encoding="utf-8")
    (tmp_path / "usa.yaml").write_text(board, encoding="utf-8")
    (tmp_path / "ttr-maps.toml").write_text("[checks.options.D004]\nclearance = nan\n[checks.options.B001]\ntolerance = inf\n",
                                            encoding="utf-8")
    res = invoke("validate", str(tmp_path / "usa.yaml"))
    assert res.exit_code == 1
    assert "ttr-maps.toml:2:1: error C001 D004 option 'clearance'" in res.output
    assert "ttr-maps.toml:4:1: error C001 B001 option 'tolerance'" in res.output


def test_state_commands_given_another_kind_of_file_say_which_and_what_to_do():
    for path, kind in ((MAPS / "boards" / "usa.yaml", "a board file (ttr-board/1)"),
                       (MAPS / "variants" / "usa.yaml", "a variant file (ttr-variant/1)"),
                       (MAPS.parent / "examples" / "positions" / "usa.yaml", "a position file (ttr-position/1)")):
        for sub in ("show", "legal"):
            res = invoke("state", sub, str(path))
            assert res.exit_code == 1 and f"this is {kind}, not a game state (ttr-state/1)" in res.output
            assert "ttr-maps state new" in res.output and len(res.output.splitlines()) == 1
