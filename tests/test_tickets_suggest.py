"""`ttr-maps tickets suggest`: shaped like the published decks, deterministic for a seed, options obeyed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.load import load_board
from ttr_maps.tickets.figures import LONG_REACH, deck_figures
from ttr_maps.tickets.paths import BoardPaths
from ttr_maps.tickets.published import ranges
from ttr_maps.tickets.suggest import Options, SuggestError, suggest, targets

SQUARE = Path(__file__).parent / "fixtures" / "tickets" / "square.yaml"


def _pairs(tickets) -> list[tuple[str, str, int]]:
    return [(t.from_, t.to, t.points) for t in tickets]


def test_targets_hold_the_asked_number_of_long_tickets() -> None:
    got = targets(30, 6)
    assert len(got) == 30 and got == sorted(got, reverse=True)
    assert sum(r >= LONG_REACH for r in got) == 6
    # by default the published decks' median share: 7 of 30 (0.23 of the USA, 0.13-0.29 over the decks)
    assert 4 <= sum(r >= LONG_REACH for r in targets(30, None)) <= 9


def test_square_deck_uses_every_place_with_shortest_path_values() -> None:
    board = load_board(SQUARE)
    paths = BoardPaths(board)
    deck = suggest(board, Options(count=3, long=1, seed=0), paths).tickets
    assert len(deck) == 3
    # 3 tickets have 6 ends for the 6 places: each place ends exactly one ticket
    assert sorted(p for t in deck for p in (t.from_, t.to)) == ["a", "b", "c", "d", "e", "x"]
    assert all(t.points == paths.distance(t.from_, t.to) for t in deck)
    assert len({frozenset((t.from_, t.to)) for t in deck}) == 3
    assert deck_figures(paths, deck).duplicates() == []


def test_same_seed_same_deck_and_options_obeyed() -> None:
    board = load_board(SQUARE)
    one = _pairs(suggest(board, Options(count=4, seed=3)).tickets)
    assert one == _pairs(suggest(board, Options(count=4, seed=3)).tickets)
    avoided = suggest(board, Options(count=3, avoid=("e",), values=(2, 3), seed=1)).tickets
    assert all("e" not in (t.from_, t.to) and 2 <= t.points <= 3 for t in avoided)
    with pytest.raises(SuggestError, match="no place 'q'"):
        suggest(board, Options(count=3, favour=("q",)))
    with pytest.raises(SuggestError, match="fewer than the 40 tickets"):
        suggest(board, Options(count=40))


@pytest.mark.slow
def test_a_suggested_usa_deck_scores_within_the_published_ranges() -> None:
    root = Path(__file__).parent.parent
    board = load_board(root / "maps" / "boards" / "usa.yaml")
    paths = BoardPaths(board)
    deck = suggest(board, Options(count=30, seed=0), paths).tickets
    shape = deck_figures(paths, deck).shape()
    # the measures the issue names: length spread, value distribution, long share, coverage and evenness, overlap
    named = {"reach_median", "reach_spread", "long_share", "value_cv", "place_coverage", "place_cv",
             "route_coverage", "route_cv", "overlap_pairs"}
    assert named <= set(shape) == set(ranges())
    outside = {k: (v, ranges()[k]) for k, v in shape.items() if not ranges()[k][0] <= v <= ranges()[k][1]}
    assert outside == {}
    assert shape["place_coverage"] == 1.0  # every city ends a ticket
    assert deck_figures(paths, deck).duplicates() == []
    # the deck docs/tickets.md shows and bench_ticket_games.py plays is this one
    example = yaml.safe_load((root / "examples" / "decks" / "usa-suggested.yaml").read_text(encoding="utf-8"))
    assert [(t["from"], t["to"], t["points"]) for t in example["tickets"]] == _pairs(deck)


def test_cli_writes_a_deck_file_that_loads_and_refuses_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "deck.yaml"
    result = runner.invoke(cli, ["tickets", "suggest", str(SQUARE), "-n", "3", "--seed", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["format"] == "ttr-deck/1" and len(data["tickets"]) == 3
    assert (tmp_path / data["board"]).resolve() == SQUARE.resolve()
    again = runner.invoke(cli, ["tickets", "suggest", str(SQUARE), "-n", "3", "--seed", "2"])
    printed = [ln for ln in again.output.splitlines() if not ln.startswith("board:")]
    assert printed == [ln for ln in out.read_text(encoding="utf-8").splitlines() if not ln.startswith("board:")]
    assert runner.invoke(cli, ["validate", str(out)]).exit_code == 0

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: ttr-board/1\nmeta: {title: x}\nplaces:\n  - {id: a, name: A, x: 0}\n", encoding="utf-8")
    result = runner.invoke(cli, ["tickets", "suggest", str(bad)])
    assert result.exit_code == 1 and f"{bad}:4:5: error" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["tickets", "suggest", str(SQUARE), "--avoid", "zz"])
    assert result.exit_code == 1 and "--avoid: no place 'zz'" in result.output
    result = runner.invoke(cli, ["tickets", "suggest", str(SQUARE), "--favour", "A"])  # a name, not the id
    assert result.exit_code == 1 and "--favour: no place 'A' (did you mean 'a'?)" in result.output
    result = runner.invoke(cli, ["tickets", "suggest", str(SQUARE), "--values", "9-2"])
    assert result.exit_code == 2 and "not a range of values" in result.output


def test_a_favoured_place_ends_twice_the_average_and_more_than_without() -> None:
    """--favour: the place ends at least twice the average tickets per place (Gare du Nord, 12 tickets on Paris:
    24 ends over 19 places, so 3), never fewer than it would unfavoured; the rest of the options still hold."""
    from ttr_maps.tickets.suggest import favour_target

    root = Path(__file__).parent.parent
    board = load_board(root / "maps" / "boards" / "paris.yaml")
    paths = BoardPaths(board)

    def ends(deck, place: str) -> int:
        return sum(place in (t.from_, t.to) for t in deck)

    base = Options(count=12, long=2, values=(3, 15), avoid=("montmartre",), seed=4)
    plain = suggest(board, base, paths).tickets
    assert favour_target(12, 19) == 3
    for favour in (("gare-du-nord",), ("gare-du-nord", "opera")):
        deck = suggest(board, Options(**{**base.__dict__, "favour": favour}), paths).tickets
        for place in favour:
            assert ends(deck, place) >= max(3, ends(plain, place)), (place, _pairs(deck))
        assert len(deck) == 12 and ends(deck, "montmartre") == 0 and all(3 <= t.points <= 15 for t in deck)
        assert deck_figures(paths, deck).duplicates() == []
