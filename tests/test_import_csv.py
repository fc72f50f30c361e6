"""`ttr-maps import csv`: a board drafted from CSV files, every problem at file:line, nothing half-written."""

import textwrap

from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.load import load

PLACES = """\
name,kind,x,y
Northport,city,0,0
Millford,city,4,1
Eastwick,city,8,0
Hillmark,country,9,5
"""
ROUTES = """\
from,to,length,color,tunnel,ferry
Northport,Millford,3,red,no,0
millford,Eastwick,3,blue,no,0
Millford,Eastwick,3,green,no,0
Eastwick,Hillmark,4,orange,yes,0
Millford,Hillmark,5,gray,no,1
"""
TICKETS = """\
from,to,points,decks
Northport,Eastwick,6,
Northport,Hillmark,10,main long
"""


def folder(tmp_path, **files):
    d = tmp_path / "region"
    d.mkdir()
    for name, text in {"places": PLACES, "routes": ROUTES, "tickets": TICKETS, **files}.items():
        if text is not None:
            (d / f"{name}.csv").write_text(textwrap.dedent(text), encoding="utf-8")
    return d


def run(d, out):
    return CliRunner().invoke(cli, ["import", "csv", str(d), "-o", str(out), "--title", "Practice"])


def test_a_board_is_drafted_that_loads(tmp_path):
    out = tmp_path / "board.yaml"
    result = run(folder(tmp_path), out)
    assert result.exit_code == 0, result.output
    assert "4 places, 4 routes, 2 tickets" in result.output
    loaded = load(out)
    assert loaded.ok and loaded.board is not None
    board = loaded.board
    assert board.meta.title == "Practice"
    double = next(r for r in board.routes if {r.from_, r.to} == {"millford", "eastwick"})
    assert list(double.tracks) == ["blue", "green"]  # two rows, one double route; a place named in any case
    assert next(r for r in board.routes if r.to == "hillmark" and r.from_ == "eastwick").tunnel
    assert next(r for r in board.routes if r.from_ == "millford" and r.to == "hillmark").ferry == 1
    assert [list(t.decks) for t in board.tickets] == [["main"], ["main", "long"]]
    assert out.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")


def test_a_missing_column_is_named_at_line_1_without_a_traceback(tmp_path):
    d = folder(tmp_path, routes="from,to,colour\nNorthport,Millford,red\n")
    out = tmp_path / "board.yaml"
    result = run(d, out)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"{d / 'routes.csv'}:1: missing column(s) 'length', 'color'; the columns are from, to, colour" in result.output
    assert not out.exists()


def test_bad_rows_are_reported_at_their_lines(tmp_path):
    d = folder(tmp_path, routes=ROUTES + "Northprt,Eastwick,x,red,no,0\n", tickets="from,to,points\nNorthport,Eastwick,six\n")
    out = tmp_path / "board.yaml"
    result = run(d, out)
    assert result.exit_code == 1
    assert f"{d / 'routes.csv'}:7: unknown place 'Northprt' (did you mean 'northport'?)" in result.output
    assert f"{d / 'routes.csv'}:7: length 'x' is not a whole number" in result.output
    assert f"{d / 'tickets.csv'}:2: points 'six' is not a whole number" in result.output
    assert "nothing was written" in result.output and not out.exists()


def test_an_existing_file_is_never_overwritten(tmp_path):
    out = tmp_path / "board.yaml"
    out.write_text("mine\n", encoding="utf-8")
    result = run(folder(tmp_path), out)
    assert result.exit_code == 1 and "already exists" in result.output
    assert out.read_text(encoding="utf-8") == "mine\n"
