"""Large boards (docs/limits.md): the planning bots work out distances only from the places they ask about
(tickets' ends), not all pairs of places (which grew with places squared and ran 20,000-place boards out of
memory); the commands that draw a board refuse one beyond their limit with a message, and simulate's report
leaves out its heat map and says so."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from ttr_maps import limits
from ttr_maps.bots.planning import board_data
from ttr_maps.cli.main import cli
from ttr_maps.engine.game import Game
from ttr_maps.limits import DRAWING, Limit
from ttr_maps.load import load_variant
from ttr_maps.simulate import report as sim_report
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


# ---- boards beyond what a command draws are refused up front (docs/limits.md#drawing)


def _patch_limit(monkeypatch: pytest.MonkeyPatch, places: int, routes: int) -> Limit:
    small = Limit(places=places, routes=routes, anchor=DRAWING.anchor)
    monkeypatch.setattr(limits, "DRAWING", small)
    monkeypatch.setattr(sim_report, "DRAWING", small)
    return small


def _assert_refused(result, file: Path, places: int, routes: int, limit: Limit) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    text = " ".join(result.output.split())
    assert f"{file}: the board has {places:,} places and {routes:,} routes" in text
    assert f"at most {limit.places:,} places and {limit.routes:,} routes" in text
    assert "Draw a region of it as a board of its own" in text
    assert "docs/limits.md#drawing" in text


def test_render_refuses_a_board_one_place_beyond_the_limit(tmp_path: Path) -> None:
    variant, n, routes = write_board(tmp_path, DRAWING.places + 1)
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(cli, ["render", str(variant), "-o", str(out)])
    _assert_refused(result, variant, n, routes, DRAWING)
    assert not out.exists()


@pytest.mark.parametrize("command", ["render-svg", "render-pdf", "render-cards", "print", "tickets-svg", "play", "studio"])
def test_drawing_commands_refuse_a_board_beyond_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    variant, n, routes = write_board(tmp_path, 41)
    limit = _patch_limit(monkeypatch, 40, 1000)
    out = tmp_path / "out"
    argv = {
        "render-svg": ["render", str(variant), "-o", f"{out}.svg"],
        "render-pdf": ["render", str(variant), "-o", f"{out}.pdf"],
        "render-cards": ["render", str(variant), "--cards", "tickets", "-o", f"{out}.svg"],
        "print": ["print", str(variant), "-o", f"{out}.pdf"],
        "tickets-svg": ["tickets", "score", str(variant), "--svg", f"{out}.svg"],
        "play": ["play", str(variant), "--no-open", "-o", str(tmp_path / "game.yaml")],
        "studio": ["studio", str(variant), "--no-open"],
    }[command]
    result = CliRunner().invoke(cli, argv)
    file = tmp_path / "board.yaml" if command == "tickets-svg" else variant
    _assert_refused(result, file, n, routes, limit)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.yaml", "variant.yaml"]  # nothing written


def test_the_routes_limit_counts_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variant, n, routes = write_board(tmp_path, 30)
    limit = _patch_limit(monkeypatch, 1000, routes - 1)
    result = CliRunner().invoke(cli, ["render", str(variant), "-o", str(tmp_path / "b.svg")])
    _assert_refused(result, variant, n, routes, limit)


def test_render_draws_a_board_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variant, n, routes = write_board(tmp_path, 40)
    _patch_limit(monkeypatch, n, routes)
    out = tmp_path / "b.svg"
    result = CliRunner().invoke(cli, ["render", str(variant), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("<")


@pytest.mark.parametrize("beyond", [False, True], ids=["at-the-limit", "beyond"])
def test_simulate_leaves_out_the_heat_map_beyond_the_limit_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                        beyond: bool) -> None:
    variant, n, routes = write_board(tmp_path, 40)
    limit = _patch_limit(monkeypatch, n - 1 if beyond else n, routes)
    out = tmp_path / "sim"
    result = CliRunner().invoke(cli, ["simulate", str(variant), "-n", "1", "--bots", "random", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = (out / "report.html").read_text(encoding="utf-8")
    note = f"the board has {n:,} places and {routes:,} routes, more than the {limit.text()} a report draws (docs/limits.md#drawing)"
    if beyond:
        assert "<div class='map'>" not in report
        assert f"No heat map: {note}" in report
        assert f"note: report.html has no heat map: {note}" in " ".join(result.output.split())
    else:
        assert "<div class='map'><svg" in report
        assert "heat map" not in result.output


def test_the_docs_explain_the_drawing_limit_with_its_figures() -> None:
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    assert "\n## Drawing\n" in text  # the anchor the messages link
    assert f"{DRAWING.places:,} places and {DRAWING.routes:,} routes" in text


@pytest.mark.parametrize("command", ["score", "suggest", "balance"])
def test_ticket_commands_refuse_a_board_beyond_their_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    variant, n, routes = write_board(tmp_path, 41)
    small = Limit(places=40, routes=1000, anchor="tickets")
    monkeypatch.setattr(limits, "TICKETS", small)
    argv = {"score": ["tickets", "score", str(variant)],
            "suggest": ["tickets", "suggest", str(variant), "-o", str(tmp_path / "deck.yaml")],
            "balance": ["tickets", "balance", str(variant)]}[command]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    file = tmp_path / "board.yaml" if command == "score" else variant
    assert f"{file}: the board has {n:,} places and {routes:,} routes" in text
    assert "works out decks for boards of at most 40 places and 1,000 routes" in text
    assert "docs/limits.md#tickets" in text and "Traceback" not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.yaml", "variant.yaml"]


def test_the_docs_explain_the_tickets_limit() -> None:
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    assert "\n## Tickets\n" in text
    assert f"{limits.TICKETS.places:,} places and {limits.TICKETS.routes:,} routes" in text
