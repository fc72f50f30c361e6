"""Large boards: the planning bots work out distances only from the places they ask about (tickets' ends),
not all pairs of places (which grew with places squared and ran 20,000-place boards out of memory)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import networkx as nx
import pytest

from ttr_maps.bots.planning import board_data
from ttr_maps.engine.game import Game
from ttr_maps.load import load_variant
from ttr_maps.simulate.runner import play_game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_sizes import VARIANT, board_yaml  # noqa: E402


def write_board(folder: Path, places: int, seed: int = 1) -> tuple[Path, int, int]:
    """A generated valid board of `places` places and its variant in `folder`: (variant path, places, routes)."""
    text, n, routes = board_yaml(places, random.Random(seed))
    (folder / "board.yaml").write_text(text, encoding="utf-8")
    (folder / "variant.yaml").write_text(VARIANT, encoding="utf-8")
    return folder / "variant.yaml", n, routes


@pytest.fixture(scope="module")
def board400(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_board(tmp_path_factory.mktemp("b400"), 400)[0]


def test_planning_bots_work_out_distances_only_from_ticket_ends(board400: Path) -> None:
    variant, board = load_variant(str(board400))
    game = Game(variant, board, 4)
    rec = play_game(game, ["expert", "route-focus", "ticket-hungry", "long-route"], seed=7, index=0)
    assert rec  # a game was played to the end
    bd = board_data(game)
    rows = bd.dist0._rows
    starts = {a for a, _ in bd.ticket_ends}
    assert rows and set(rows) <= starts, "distances from a place that starts no ticket"
    assert len(rows) < game.t.NP / 2
    # The rows are exact shortest distances by spaces (this board has no country).
    g = nx.Graph()
    for r, (u, v) in enumerate(game.t.route_ends):
        w = game.t.route_length[r]
        if not g.has_edge(u, v) or g.edges[u, v]["weight"] > w:
            g.add_edge(u, v, weight=w)
    a = next(iter(rows))
    expected = nx.single_source_dijkstra_path_length(g, a)
    assert {b: d for b, d in enumerate(rows[a]) if d != float("inf")} == expected
