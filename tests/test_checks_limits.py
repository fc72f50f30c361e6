"""Bounded cost on pathological boards: each check lists at most `max_findings` findings and sums up
the rest; the pairwise drawing checks stop after a budget of candidate pairs.

Not timed: the tests assert the caps and the summary findings that keep a pile of
thousands of places on one point from taking minutes and gigabytes.
"""

import pytest

from ttr_maps.checks import context as context_module
from ttr_maps.checks import run_checks
from ttr_maps.checks.base import MAX_FINDINGS
from ttr_maps.load import load


def pile(tmp_path, n, config=None):
    """n places on one point, joined in a chain."""
    lines = ["format: ttr-board/1", "meta: {title: pile}", "drawing: {car_length: 1}", "places:"]
    lines += [f"  - {{id: p{i}, name: P{i}, x: 0, y: 0}}" for i in range(n)]
    lines.append("routes:")
    lines += [f"  - {{from: p{i}, to: p{i + 1}, length: 1, tracks: [red]}}" for i in range(n - 1)]
    path = tmp_path / "pile.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if config is not None:
        (tmp_path / "ttr-maps.toml").write_text(config, encoding="utf-8")
    return load(path)


@pytest.mark.slow
@pytest.mark.parametrize("code,name", [("D001", "markers-overlap"), ("D003", "routes-cross"), ("D004", "route-over-place")])
def test_pairwise_drawing_checks_list_the_first_findings_and_count_the_rest(tmp_path, code, name):
    loaded = pile(tmp_path, 300)
    diags = run_checks(loaded, [code], config=False)
    assert len(diags) == MAX_FINDINGS + 1
    summary = diags[-1]
    assert summary.code == code and summary.name == name
    assert f"more {name} findings from here on are not listed (only the first {MAX_FINDINGS} are)" in summary.message
    assert "stopped early" not in summary.message
    # One finding per place or route at fault, each at its own line: nothing collapses.
    assert len({(d.line, d.col) for d in diags}) == len(diags)


def test_markers_overlap_counts_exactly_and_names_the_first_few(tmp_path):
    diags = run_checks(pile(tmp_path, 300), ["D001"], config=False)
    # p1..p299 each overlap every earlier place: 299 findings, 50 listed.
    assert diags[-1].message.startswith(f"{299 - MAX_FINDINGS:,} more markers-overlap findings")
    assert "overlaps the markers of 'p0' (line 5), 'p1' (line 6), 'p2' (line 7) and 3 more" in diags[5].message


def test_the_pair_budget_stops_a_check_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(context_module, "PAIR_BUDGET", 1000)
    monkeypatch.setattr(context_module, "CHUNK_PAIRS", 500)
    diags = run_checks(pile(tmp_path, 300), ["D001"], config=False)
    assert len(diags) == MAX_FINDINGS + 1
    assert diags[-1].message.startswith("at least ")
    assert "the check stopped early" in diags[-1].message


def test_every_check_is_capped_not_only_the_drawing_ones(tmp_path):
    # A chain: every route is a bridge (G015).
    diags = run_checks(pile(tmp_path, 120), ["G015"], config=False)
    assert len(diags) == MAX_FINDINGS + 1
    assert diags[-1].message.startswith(f"{119 - MAX_FINDINGS} more bridge-route findings")


def test_max_findings_in_the_config(tmp_path):
    diags = run_checks(pile(tmp_path, 40, "[checks]\nmax_findings = 5\n"), ["D001"])
    assert len(diags) == 6 and diags[-1].message.startswith("34 more markers-overlap findings")
    diags = run_checks(pile(tmp_path, 40, "[checks]\nmax_findings = 0\n"), ["D001"])
    assert len(diags) == 39 and not any("not listed" in d.message for d in diags)


def test_a_bad_max_findings_is_a_setting_error(tmp_path):
    diags = run_checks(pile(tmp_path, 3, "[checks]\nmax_findings = -1\n"), ["D001"])
    assert [(d.code, d.line) for d in diags if d.code == "C001"] == [("C001", 2)]


def test_label_collision_does_not_lay_out_a_pile_of_places(tmp_path):
    diags = run_checks(pile(tmp_path, 60), ["D002"], config=False)
    assert [d.message.split(":")[0] for d in diags] == ["labels not checked"]
    assert "pairs of place markers overlap (D001)" in diags[0].message
    assert (diags[0].line, diags[0].col) == (4, 1)


def test_label_collision_does_not_lay_out_a_board_bigger_than_max_places(tmp_path):
    loaded = pile(tmp_path, 20, "[checks.options.D002]\nmax_places = 10\n")
    diags = run_checks(loaded, ["D002"])
    assert len(diags) == 1 and "D002 does it for at most 10 (option max_places)" in diags[0].message
