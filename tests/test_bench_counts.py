"""benchmarks/bench_counts.py reads cachegrind's summary into counts a game; a summary without the cache or
branch lines (cachegrind run without --cache-sim/--branch-sim) is refused by name, not read as zero."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_counts import estimate, parse_summary  # noqa: E402

# The summary as valgrind 3.19's cachegrind prints it with --cache-sim=yes --branch-sim=yes.
SUMMARY = """\
==10982== I   refs:      2,884,271,669
==10982== I1  misses:       33,421,122
==10982== LLi misses:           26,514
==10982== I1  miss rate:          1.16%
==10982== D   refs:      1,347,901,383  (906,752,994 rd   + 441,148,389 wr)
==10982== D1  misses:       27,867,781  ( 23,848,405 rd   +   4,019,376 wr)
==10982== LLd misses:          509,422  (     80,945 rd   +     428,477 wr)
==10982== D1  miss rate:           2.1% (        2.6%     +         0.9%  )
==10982== Branches:        471,088,064  (402,000,981 cond +  69,087,083 ind)
==10982== Mispredicts:      52,283,893  ( 28,720,749 cond +  23,563,144 ind)
==10982== Mispred rate:           11.1% (        7.1%     +        34.1%   )
"""


def test_summary_counts_are_the_totals_not_the_breakdowns():
    c = parse_summary("some program output\n" + SUMMARY)
    assert c == {"instructions": 2_884_271_669, "i1_misses": 33_421_122, "d1_misses": 27_867_781,
                 "mispredicts": 52_283_893}


def test_a_summary_without_branch_simulation_is_refused_by_name():
    no_branches = "".join(line + "\n" for line in SUMMARY.splitlines() if "Mispred" not in line and "Branches" not in line)
    with pytest.raises(ValueError, match="Mispredicts.*--branch-sim=yes"):
        parse_summary(no_branches)


def test_the_estimate_weighs_each_count():
    c = {"instructions": 400, "i1_misses": 3, "d1_misses": 2, "mispredicts": 1}
    assert estimate(c, (0.25, 10, 15)) == 100 + 50 + 15


def test_counts_of_a_tree_edited_while_counted_are_refused(tmp_path, monkeypatch):
    # Two helpers once read counts off a tree they edited (or rebased) between the two runs: the difference
    # then counted other code, or compiling it, as games. Here the "edit" happens during the first run.
    import bench_counts

    src = tmp_path / "ttr_maps" / "engine"
    src.mkdir(parents=True)
    (src / "state.py").write_text("X = 1\n", encoding="utf-8")
    runs = []

    def fake_count(tree, workload, games):
        runs.append(games)
        if len(runs) == 1:
            (src / "state.py").write_text("X = 2\n", encoding="utf-8")
        return {k: 1000 * games for k in bench_counts.COUNTS}

    monkeypatch.setattr(bench_counts, "count", fake_count)
    with pytest.raises(SystemExit, match="sources changed while planning-usa4 was counted"):
        bench_counts.per_game(tmp_path, "planning-usa4", 10)
    runs.clear()
    got = bench_counts.per_game(tmp_path, "planning-usa4", 10)  # left alone now: (10 - 2 games) / 8
    assert got == {k: 1000.0 for k in bench_counts.COUNTS}


def test_this_tree_is_counted_as_a_copy_at_a_path_as_long_as_the_base_checkouts(tmp_path):
    # The same code counted at paths of different lengths read up to 1.5% apart, as much as the changes measured.
    import bench_counts

    source = tmp_path / "my-worktree-with-a-long-name"
    (source / "ttr_maps" / "__pycache__").mkdir(parents=True)
    (source / "ttr_maps" / "state.py").write_text("X = 1\n", encoding="utf-8")
    (source / "ttr_maps" / "__pycache__" / "state.cpython-311.pyc").write_bytes(b"old")
    (source / "maps" / "variants").mkdir(parents=True)
    (source / "maps" / "variants" / "usa.yaml").write_text("name: usa\n", encoding="utf-8")
    base = tmp_path / "ttr-bench-base-x1y2z3" / "tree"
    base.mkdir(parents=True)
    this = bench_counts.copy_beside(base, source)
    assert this.parent == base.parent and len(str(this)) == len(str(base))
    assert (this / "ttr_maps" / "state.py").read_text(encoding="utf-8") == "X = 1\n"
    assert (this / "maps" / "variants" / "usa.yaml").is_file()
    assert not (this / "ttr_maps" / "__pycache__").exists()  # compiled files of another path are not taken along
    (source / "ttr_maps" / "state.py").write_text("X = 2\n", encoding="utf-8")  # an edit after the copy is not counted
    assert (this / "ttr_maps" / "state.py").read_text(encoding="utf-8") == "X = 1\n"
