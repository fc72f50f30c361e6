"""Fuzzed position files through `score`: seeded text and tree mutations (tags, odd scalars, dropped,
doubled and swapped lines, truncation, aliases; deleted keys, wrong types, moved values) of the
bundled positions of every edition. No traceback and no other exception; every problem is a
diagnostic at file:line:col (or a usage error). benchmarks/fuzz_files.py is the long version."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fuzzing import Tally, dump, judge, mutate_text, mutate_tree

from ttr_maps.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GOOD = sorted((ROOT / "tests" / "positions" / "good").glob("*.yaml"))
CASES = 60


def fuzz_position_files(folder: Path, seed: int, cases: int) -> Tally:
    rng = random.Random(seed)
    bases = [re.sub(r"(?m)^variant: .*/([a-z0-9-]+)\.yaml$", r"variant: \1", p.read_text(encoding="utf-8")) for p in GOOD]
    runner = CliRunner()
    tally = Tally()
    for i in range(cases):
        base = rng.choice(bases)
        if rng.random() < 0.5:
            text, how = mutate_text(base, rng), "text"
        else:
            text, how = dump(mutate_tree(yaml.safe_load(base), rng)), "tree"
        path = folder / f"case{i}.yaml"
        path.write_text(text, encoding="utf-8")
        as_json = rng.random() < 0.25
        result = runner.invoke(cli, ["score", str(path)] + (["--format", "json"] if as_json else []))
        verdict = judge(result, str(path))
        if as_json and verdict.kind == "no-position" and result.exit_code == 1:
            problems = json.loads(result.output)  # the same diagnostics, as JSON
            ok = problems and all(d["line"] >= 1 or d["code"] in ("P001", "P002", "P013")  # (whole-file problems sit at 0:0)
                                  for d in problems if d["severity"] == "error")
            verdict.kind = "diagnostic" if ok else "no-position"
        tally.add(verdict, f"{how} {path.name}{' json' if as_json else ''}")
    return tally


@pytest.fixture(scope="module")
def tally(tmp_path_factory) -> Tally:
    return fuzz_position_files(tmp_path_factory.mktemp("fuzz-position"), seed=20, cases=CASES)


def test_fuzzed_position_files_never_crash(tally: Tally) -> None:
    assert "crash" not in tally.counts, tally.examples["crash"]
    assert sum(tally.counts.values()) == CASES
    assert tally.counts.get("diagnostic", 0) >= CASES // 4


def test_fuzzed_position_file_errors_name_the_line_and_column(tally: Tally) -> None:
    assert "no-position" not in tally.counts, tally.examples["no-position"]
