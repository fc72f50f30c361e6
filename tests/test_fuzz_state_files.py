"""Fuzzed state files through `state show / legal / apply`: seeded text and tree mutations (tags, odd
scalars, dropped and swapped lines, truncation, aliases; deleted keys, wrong types, moved values) of
state files saved from random games of several variants. No traceback and no other exception, ever;
every problem is reported on the file (file:line:col, or a sentence naming it when it cannot be
opened at all) or is a usage error; an action the rules refuse says so. benchmarks/fuzz_files.py is
the long version."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fuzzing import Tally, judge, mutate_text, mutate_tree, dump

from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.engine.statefile import dump_state

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["usa", "europe", "marklin", "paris"]
CASES = 30


def base_states(folder: Path, rng: random.Random) -> list[tuple[Path, str]]:
    """State files of random games stopped at random points (setup, mid-game, pending tunnel..., over), saved in `folder`."""
    out = []
    for name in VARIANTS:
        game = Game.from_file(ROOT / "maps" / "variants" / f"{name}.yaml", rng.randint(2, 4))
        for stop in (0, rng.randint(5, 40), rng.choice([rng.randint(60, 200), 10_000])):
            state = game.new_initial_state(rng.randrange(2**32))
            for _ in range(stop):
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))
            legal = state.legal_actions()
            action = game.action_text(rng.choice(legal)) if legal else "pass"
            path = folder / f"{name}-{stop}.yaml"
            path.write_text(dump_state(state, path), encoding="utf-8")
            out.append((path, action))
    return out


def fuzz_state_files(folder: Path, seed: int, cases: int) -> Tally:
    rng = random.Random(seed)
    bases = base_states(folder, rng)
    runner = CliRunner()
    tally = Tally()
    for i in range(cases):
        base, action = rng.choice(bases)
        text = base.read_text(encoding="utf-8")
        if rng.random() < 0.5:
            text, how = mutate_text(text, rng), "text"
        else:
            text, how = dump(mutate_tree(yaml.safe_load(text), rng)), "tree"
        path = folder / f"case{i}.yaml"
        path.write_text(text, encoding="utf-8")
        args = rng.choice([["state", "show", str(path)], ["state", "legal", str(path)], ["state", "show", str(path), "--json"],
                           ["state", "apply", str(path), action, "-o", str(folder / "out.yaml")]])
        result = runner.invoke(cli, args)
        verdict = judge(result, str(path))
        if verdict.kind == "no-position" and "is illegal for player" in result.output:
            verdict.kind = "refused"  # the action, not the file
        tally.add(verdict, f"{how} {path.name} ({base.name}) {' '.join(args[:2])}")
    return tally


@pytest.fixture(scope="module")
def tally(tmp_path_factory) -> Tally:
    return fuzz_state_files(tmp_path_factory.mktemp("fuzz-state"), seed=20, cases=CASES)


def test_fuzzed_state_files_never_crash(tally: Tally) -> None:
    assert "crash" not in tally.counts, tally.examples["crash"]
    refused = tally.counts.get("diagnostic", 0) + tally.counts.get("no-position", 0)
    assert refused >= CASES // 2  # the mutations do reach the reader and the checks after it
    assert sum(tally.counts.values()) == CASES


def test_fuzzed_state_file_errors_name_the_line_and_column(tally: Tally) -> None:
    assert "no-position" not in tally.counts, tally.examples["no-position"]
