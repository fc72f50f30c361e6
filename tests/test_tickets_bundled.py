"""Every `ttr-maps tickets` command runs clean on every bundled board and variant (few games, small decks)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.load import load

MAPS = Path(__file__).parent.parent / "maps"
BOARDS = sorted((MAPS / "boards").glob("*.yaml"))
VARIANTS = sorted((MAPS / "variants").glob("*.yaml"))


def _run(*args: str):
    result = CliRunner().invoke(cli, ["tickets", *args])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "error" not in result.output.lower()
    return result


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.stem}"


@pytest.mark.parametrize("path", BOARDS + VARIANTS, ids=_id)
def test_score_every_bundled_deck(path: Path, tmp_path: Path) -> None:
    svg = tmp_path / "load.svg"
    picture = ["--svg", str(svg)] if path in BOARDS else []  # a variant draws its board: once is enough
    data = json.loads(_run("score", str(path), "--format", "json", *picture).output)
    assert data["tickets"] > 0 and data["route_load"] and set(data["shape"]) >= {"reach_median", "overlap_pairs"}
    if picture:
        assert ET.parse(svg).getroot().tag.endswith("svg")


@pytest.mark.parametrize("path", VARIANTS, ids=_id)
def test_compare_every_bundled_variant_with_its_board(path: Path) -> None:
    board = load(path).board_path
    text = _run("compare", str(path), board).output
    assert text.splitlines()[1].startswith("B: ") and "findings A:" in text and "findings B:" in text


@pytest.mark.parametrize("path", BOARDS, ids=_id)
def test_suggest_a_deck_that_loads_scores_and_compares(path: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    _run("suggest", str(path), "-n", "8", "--seed", "0", "-o", str(deck))
    loaded = load(deck)
    assert loaded.ok and loaded.kind == "deck" and len(loaded.deck.tickets) == 8
    assert json.loads(_run("score", str(deck), "--format", "json").output)["tickets"] == 8
    assert "tickets" in _run("compare", str(deck)).output  # against the board's first deck


@pytest.mark.parametrize("path", VARIANTS, ids=_id)
def test_balance_plays_every_bundled_variant(path: Path) -> None:
    data = json.loads(_run("balance", str(path), "-n", "1", "--quiet", "--format", "json").output.split("\nnothing written")[0])
    assert data["rounds"][0]["games"] == 1 and data["rounds"][0]["completion"]["n"] > 0
