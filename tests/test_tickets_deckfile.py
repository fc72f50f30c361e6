"""Decks as files (`ttr-deck/1`): a variant names them under tickets.deck_files; problems point into the right file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.load import load, load_variant

SQUARE = Path(__file__).parent / "fixtures" / "tickets" / "square.yaml"

DECK = """format: ttr-deck/1
name: Trial
board: square.yaml
tickets:
  - {from: b, to: e, points: 3, decks: [trial]}
  - {from: d, to: b, points: 3, decks: [trial]}
"""

VARIANT = """format: ttr-variant/1
name: Square trial
board: square.yaml
players: {min: 2, max: 2}
tickets:
  piles: {main: [trial]}
  deck_files: [FILES]
  setup: {deal: [{pile: main, count: 1}], keep_min: 1}
  draw: {deal: [{pile: main, count: 1}], keep_min: 1}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "square.yaml").write_text(SQUARE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "trial.yaml").write_text(DECK, encoding="utf-8")
    return tmp_path


def _variant(folder: Path, files: str) -> Path:
    path = folder / "v.yaml"
    path.write_text(VARIANT.replace("FILES", files), encoding="utf-8")
    return path


def test_a_variant_deals_the_tickets_of_its_deck_file(folder: Path) -> None:
    variant, board = load_variant(_variant(folder, "trial.yaml"))
    assert [(t.from_, t.to) for t in variant.tickets.add] == [("b", "e"), ("d", "b")]
    game = Game(variant, board, 2)
    state = game.new_initial_state(1)
    dealt = {game.t.tickets[k].from_ for p in range(2) for k in state.offers[p]}
    assert dealt == {"b", "d"}  # the pile holds only the deck file's two tickets, one dealt to each player


def test_a_deck_file_alone_is_checked_against_the_board_it_names(folder: Path) -> None:
    assert load(folder / "trial.yaml").diagnostics == []
    (folder / "trial.yaml").write_text(DECK.replace("to: e", "to: q"), encoding="utf-8")
    d = load(folder / "trial.yaml").diagnostics
    assert [(x.code, x.line, x.col) for x in d] == [("R002", 5, 19)]
    assert "unknown place 'q'" in d[0].message


def test_deck_file_problems_point_at_the_file_and_exit_1(folder: Path) -> None:
    (folder / "trial.yaml").write_text(DECK.replace("to: e", "to: q"), encoding="utf-8")
    path = _variant(folder, "trial.yaml, missing.yaml, square.yaml")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{folder / 'trial.yaml'}:5:19: error R002 unknown place 'q'" in lines[0]
    assert any(line.startswith(f"{path}:7:28: error V014 deck file 'missing.yaml' not found") for line in lines)
    assert any(line.startswith(f"{path}:7:42: error V015 'square.yaml' cannot be used as a deck file: it is a board") for line in lines)
    assert "Traceback" not in result.output


def test_deck_files_are_written_only_where_they_replace_nothing_of_value(folder: Path) -> None:
    runner = CliRunner()
    board = folder / "square.yaml"
    before = board.read_text(encoding="utf-8")

    def suggest(*args: str):
        return runner.invoke(cli, ["tickets", "suggest", str(board), "-n", "3", *args])

    # the board itself, a variant's board, a file that is not a deck: refused before any work, left as they were
    for out, why in ((board, "is the file this command reads"), (folder / "v.yaml", "exists and is a variant file")):
        if out.name == "v.yaml":
            _variant(folder, "trial.yaml")
        result = suggest("-o", str(out))
        assert result.exit_code == 1 and why in result.output, result.output
    assert board.read_text(encoding="utf-8") == before
    result = runner.invoke(cli, ["tickets", "suggest", str(folder / "v.yaml"), "-n", "3", "-o", str(board)])
    assert result.exit_code == 1 and "is the file this command reads" in result.output
    result = runner.invoke(cli, ["tickets", "score", str(board), "--svg", str(board)])
    assert result.exit_code == 1 and board.read_text(encoding="utf-8") == before
    # a deck file is replaced (atomically: no temporary file left beside it)
    result = suggest("-o", str(folder / "trial.yaml"), "--seed", "3")
    assert result.exit_code == 0, result.output
    assert load(folder / "trial.yaml").ok and "suggested" in (folder / "trial.yaml").read_text(encoding="utf-8")
    assert sorted(p.name for p in folder.iterdir()) == ["square.yaml", "trial.yaml", "v.yaml"]


def test_a_deck_that_would_not_load_is_not_written(folder: Path) -> None:
    from ttr_maps.tickets.deck import DeckError, write_deck

    out = folder / "trial.yaml"
    with pytest.raises(DeckError) as e:
        write_deck(out, DECK.replace("to: e", "to: q").replace("Trial", "Broken"))
    assert f"{out}:5:19: error R002 unknown place 'q'" in str(e.value) and "not written" in str(e.value)
    assert out.read_text(encoding="utf-8") == DECK
