"""Action strings: every action `state legal` lists reads back as the same action, in random positions
of every bundled variant; and seeded mutations of those texts (tokens dropped, doubled, swapped or
replaced, numbers negative, huge or in other scripts, odd characters) are either read, refused as
notation (NotationError: a usage error, exit 2) or refused by the rules (IllegalAction: exit 1),
never another exception, in the engine and through `state apply`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzing import judge, mutate_action

from ttr_maps.bundled import names
from ttr_maps.cli.main import cli
from ttr_maps.engine.errors import IllegalAction
from ttr_maps.engine.game import Game
from ttr_maps.engine.notation import NotationError
from ttr_maps.engine.statefile import dump_state

VARIANTS = sorted(names("variants").items())


def positions(path: Path, rng: random.Random, stops: int):
    """`stops` random positions (not over) of one random game of the variant at `path`, in order."""
    variant_players = Game.from_file(path, 2).variant.players
    game = Game.from_file(path, rng.randint(variant_players.min, variant_players.max))
    seed = rng.randrange(2**32)
    state, moves = game.new_initial_state(seed), []
    while not state.is_terminal():
        moves.append(rng.choice(state.legal_actions()))
        state.apply(moves[-1])
    at = set(rng.sample(range(len(moves)), min(stops, len(moves))))
    state = game.new_initial_state(seed)
    for i, a in enumerate(moves):
        if i in at:
            yield game, state
        state.apply(a)


def fuzz_actions(path: Path, rng: random.Random, stops: int, per_position: int) -> dict[str, int]:
    """Round-trip every listed action and try `per_position` mutated texts at `stops` random positions of a
    random game of the variant at `path`; the outcomes counted: read, notation (refused), illegal (refused)."""
    counts = {"listed": 0, "read": 0, "notation": 0, "illegal": 0}
    for game, state in positions(path, rng, stops):
        legal = state.legal_actions()
        for a in legal:
            text = game.action_text(a)
            assert game.parse_actions(text, state) == [a], text
        counts["listed"] += len(legal)
        for _ in range(per_position):
            text = mutate_action(game.action_text(rng.choice(legal)), rng)
            try:
                parsed = game.parse_actions(text, state)
            except NotationError:
                counts["notation"] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - the point of the test
                raise AssertionError(f"{game.variant.name}: {text!r} raised {type(exc).__name__}: {exc}") from exc
            trial = state.clone()
            try:
                for a in parsed:
                    trial.apply(a)
                counts["read"] += 1
            except IllegalAction:
                counts["illegal"] += 1
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"{game.variant.name}: {text!r} -> {parsed} raised {type(exc).__name__}: {exc}") from exc
    return counts


@pytest.mark.parametrize("name, path", VARIANTS, ids=[n for n, _ in VARIANTS])
def test_listed_actions_read_back_and_mutated_ones_never_crash(name: str, path: Path) -> None:
    counts = fuzz_actions(path, random.Random(f"actions-{name}"), stops=6, per_position=25)
    assert counts["listed"] and counts["notation"] and counts["illegal"] and counts["read"]  # every outcome reached


def test_mutated_actions_through_state_apply(tmp_path: Path) -> None:
    rng = random.Random(3)
    runner = CliRunner()
    seen = set()
    for name in ("usa", "europe", "marklin", "paris"):
        game, state = next(positions(names("variants")[name], rng, 1))
        path = tmp_path / f"state-{name}.yaml"  # (a state named usa.yaml holding `variant: usa` is read as its own variant: bundled.resolve's NAME.yaml lookup)
        path.write_text(dump_state(state, path), encoding="utf-8")
        for _ in range(3):
            text = mutate_action(game.action_text(rng.choice(state.legal_actions())), rng)
            result = runner.invoke(cli, ["state", "apply", str(path), text, "-o", str(tmp_path / "out.yaml")])
            verdict = judge(result, str(path))
            assert verdict.kind != "crash", (text, verdict.detail)
            assert result.exit_code in (0, 1, 2), (text, result.output)
            if result.exit_code == 1:
                assert "is illegal for player" in result.output, (text, result.output)
            seen.add(result.exit_code)
    assert 2 in seen
