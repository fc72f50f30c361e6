"""`ttr-maps print`: the board tiled at real size, cards on cut sheets, the rules, all in one PDF."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import MAPS, ROOT, assert_golden
from ttr_maps.cli.main import cli
from ttr_maps.load import load_variant
from ttr_maps.model.board import Board
from ttr_maps.render import PrintOptions, build_pdf, tile_board
from ttr_maps.render.pdf import PrintResult
from ttr_maps.render.text import pdf_safe

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

BUNDLED = sorted(MAPS.glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))


@functools.cache
def usa_pdf(opts: PrintOptions) -> PrintResult:
    """The USA game printed with `opts`, built once per test process for the tests that read the same PDF
    (a build lays the board out and draws every page: two seconds of CPU, half a minute under load)."""
    variant, board = load_variant(MAPS / "variants" / "usa.yaml")
    return build_pdf(board, variant, opts)


@functools.cache
def usa_plan_at_12mm():
    """The USA board laid out at 12 mm cars as print lays it out (half the size of the printed tests' 24 mm)."""
    from ttr_maps.render import plan_board
    from ttr_maps.render.plan import BoardOptions

    variant, board = load_variant(MAPS / "variants" / "usa.yaml")
    return plan_board(board, variant, BoardOptions(car_mm=12.0, pdf_text=True))


# The whole game at 24 mm cars (the default) on A4 and on Letter: the golden files' tiling, the pages, the sheets.
USA_A4 = PrintOptions(paper="a4", car_mm=24.0)
USA_LETTER = PrintOptions(paper="letter", car_mm=24.0)


def _page_count(pdf: bytes) -> int:
    return int(re.search(rb"/Count (\d+)", pdf).group(1))


def _page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """The sizes of the pages that state their own (those unlike the document's default)."""
    return [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)]


def _mm(pt: float) -> float:
    return pt / 72 * 25.4


def test_tiles_cover_the_board_with_equal_overlaps():
    t = tile_board(700, 450, "a4", margin=10, overlap=12)
    assert len(t.tiles) == t.rows * t.cols
    for tile in t.tiles:
        assert tile.w <= t.content_w + 1e-9 and tile.h <= t.content_h + 1e-9
    right = max(tile.x + tile.w for tile in t.tiles)
    bottom = max(tile.y + tile.h for tile in t.tiles)
    assert right == pytest.approx(700) and bottom == pytest.approx(450)
    by_pos = {(tile.row, tile.col): tile for tile in t.tiles}
    for (r, c), tile in by_pos.items():
        if (r, c + 1) in by_pos:
            assert tile.x + tile.w - by_pos[(r, c + 1)].x == pytest.approx(12)
        if (r + 1, c) in by_pos:
            assert tile.y + tile.h - by_pos[(r + 1, c)].y == pytest.approx(12)


def test_orientation_with_fewer_pages_wins_and_a_small_board_is_one_page():
    wide = tile_board(800, 180, "a4")
    assert wide.orientation == "landscape" and (wide.rows, wide.cols) == (1, 3)
    small = tile_board(150, 200, "a4")
    assert (small.rows, small.cols, small.orientation) == (1, 1, "portrait")
    assert len(tile_board(800, 500, "a3").tiles) < len(tile_board(800, 500, "a4").tiles)
    with pytest.raises(ValueError, match="unknown paper"):
        tile_board(100, 100, "a5")


def test_pdf_has_the_cover_the_tiles_the_card_sheets_and_the_rules(tmp_path):
    result = usa_pdf(USA_A4)
    pdf = result.pdf
    assert pdf.startswith(b"%PDF")
    assert _page_count(pdf) == sum(result.pages.values())
    assert result.pages["board"] == 1 + len(result.tiling.tiles)
    assert result.pages["tickets"] == 4  # 30 tickets, 9 poker cards a sheet
    assert result.pages["trains"] == 13  # 110 cards
    assert result.pages["summary"] == 1 and result.pages["rules"] == 1
    # The board tiles are landscape A4 pages, the rest portrait A4 (the document's default).
    assert result.tiling.orientation == "landscape"
    sizes = _page_sizes(pdf)
    assert [(round(_mm(w)), round(_mm(h))) for w, h in sizes] == [(210, 297)] + [(297, 210)] * len(result.tiling.tiles)
    # The board is printed at the asked scale: 24 mm cars, twice the board laid out (as print lays it out) at 12 mm.
    assert result.tiling.board_w == pytest.approx(usa_plan_at_12mm().width * 2, rel=0.02)


@pytest.mark.parametrize("opts", [USA_A4, USA_LETTER], ids=["a4", "letter"])
def test_usa_pages_and_tiling_are_the_golden_files(opts):
    """The pages of each part and where each board page's part of the board lies (tests/golden/usa-tiling-*.json)."""
    result = usa_pdf(opts)
    record = {"pages": result.pages, "tiling": result.tiling.as_dict()}
    assert_golden(f"usa-tiling-{opts.paper}-24mm.json", json.dumps(record, indent=1, sort_keys=True) + "\n")


def test_the_board_is_written_once_however_many_pages_show_it():
    """Each board page shows its part of one drawing of the board kept once in the PDF: a board printed on twelve
    pages makes a file not much bigger than the same board on one (each page adds its marks and labels). With the
    drawing written out on every page, the twelve pages of Three Harbours made 226 kB against 57 kB."""
    from ttr_maps.load.loader import load_board

    board = load_board(ROOT / "examples" / "three-harbours.yaml")
    one = build_pdf(board, None, PrintOptions(parts=("board",), car_mm=12))
    twelve = build_pdf(board, None, PrintOptions(parts=("board",), car_mm=48))
    assert (len(one.tiling.tiles), len(twelve.tiling.tiles)) == (1, 12)
    one_size, twelve_size = len(one.pdf), len(twelve.pdf)
    assert twelve_size < 1.5 * one_size


def test_pdf_is_the_same_bytes_for_the_same_input():
    variant, board = load_variant(MAPS / "variants" / "usa.yaml")  # loaded again: a fresh build of its own
    assert build_pdf(board, variant, USA_A4).pdf == usa_pdf(USA_A4).pdf


def test_card_size_and_paper_change_the_sheets():
    variant, board = load_variant(MAPS / "variants" / "usa.yaml")
    mini = build_pdf(board, variant, PrintOptions(parts=("tickets",), card_size="mini"))
    assert mini.pages == {"tickets": 2}  # 16 mini cards a sheet
    letter = build_pdf(board, variant, PrintOptions(parts=("rules",), paper="letter"))
    (w, h), = [(float(a), float(b)) for a, b in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", letter.pdf)] or [(612.0, 792.0)]
    assert (round(_mm(w), 1), round(_mm(h), 1)) == (215.9, 279.4)


@pytest.mark.parametrize("paper, size, per_sheet", [
    ("a4", "poker", 9), ("letter", "poker", 9), ("a4", "mini", 16), ("letter", "mini", 12), ("a3", "poker", 18),
])
def test_cards_per_sheet(paper, size, per_sheet):
    from ttr_maps.render.cards import CARD_SIZES
    from ttr_maps.render.pdf import CARD_MARGIN, PAPERS, card_grid

    grid = card_grid(paper, CARD_SIZES[size])
    assert grid.per_sheet == per_sheet
    cw, ch = CARD_SIZES[size]
    # The grid is centred and leaves at least the margin for the cut marks on every side.
    assert min(grid.x0, grid.y0) >= CARD_MARGIN - 1e-9
    assert abs(grid.page_w - (2 * grid.x0 + grid.cols * cw)) < 1e-6
    assert abs(grid.page_h - (2 * grid.y0 + grid.rows * ch)) < 1e-6
    assert sorted((grid.page_w, grid.page_h)) == sorted(PAPERS[paper])


def test_letter_sheets_hold_nine_poker_tickets():
    n = len(cards_for_tickets(usa_plan_at_12mm()))
    letter = usa_pdf(USA_LETTER)
    assert letter.pages["tickets"] == -(-n // 9)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("opts", [USA_A4, USA_LETTER], ids=["a4", "letter"])
def test_card_sheet_names_print_clear_of_the_paper_edge(tmp_path, opts):
    """Most printers leave 4-6 mm blank: each sheet's name sits at least 6 mm from every edge (on Letter,
    whose bottom margin is 7.7 mm, it goes up the left margin)."""
    result = usa_pdf(opts)
    pdf = tmp_path / "game.pdf"
    pdf.write_bytes(result.pdf)
    first = result.pages["board"] + 1  # the ticket sheets follow the board's pages
    last = first + result.pages["tickets"] - 1
    out = subprocess.run(["pdftotext", "-f", str(first), "-l", str(last), "-bbox", str(pdf), "-"],
                         capture_output=True, check=True).stdout.decode()
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S)
    assert len(pages) == result.pages["tickets"]
    edge = 6 / 25.4 * 72
    for width, height, body in pages:
        words = re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">sheet<', body)
        assert len(words) == 1
        x0, y0, x1, y1 = map(float, words[0])
        assert x0 >= edge and y0 >= edge and x1 <= float(width) - edge and y1 <= float(height) - edge


def cards_for_tickets(plan):
    """The ticket cards of the board `plan` lays out (one a ticket, whatever the board's size)."""
    from ttr_maps.render import card_context, cards_for

    return cards_for(card_context(plan, "poker"), parts=("tickets",))


def test_the_pdf_font_covers_latin_greek_and_cyrillic_and_marks_the_rest():
    assert pdf_safe("Montréal, Köln, Bucureşti, Łódź, Kraków, Zürich") == "Montréal, Köln, Bucureşti, Łódź, Kraków, Zürich"
    assert pdf_safe("Москва, Κρήτη") == "Москва, Κρήτη"
    assert pdf_safe("東京") == "??"
    # Every Windows-1252 letter is in the font (the fast path relies on it).
    from ttr_maps.render.text import _pdf_charset

    charset = _pdf_charset()
    assert charset is not None, "the font-source-sans-pro package is a dependency"
    cp1252 = [bytes([b]).decode("cp1252") for b in range(0x20, 0x100) if b not in (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D)]
    assert [c for c in cp1252 if ord(c) not in charset and c != "\xa0"] == []


INTL = {
    "format": "ttr-board/1",
    "meta": {"title": "Δοκιμή – Zürich"},
    "places": [{"id": "zurich", "name": "Zürich", "x": 0, "y": 0}, {"id": "moskva", "name": "Москва", "x": 100, "y": 0},
               {"id": "krakow", "name": "Kraków", "x": 100, "y": 100}, {"id": "athina", "name": "Αθήνα", "x": 0, "y": 100},
               {"id": "tokyo", "name": "東京", "x": 200, "y": 50}],
    "routes": [{"from": "zurich", "to": "moskva", "length": 3, "tracks": ["red"]},
               {"from": "moskva", "to": "krakow", "length": 3, "tracks": ["blue"]},
               {"from": "krakow", "to": "athina", "length": 3, "tracks": ["green"]},
               {"from": "athina", "to": "zurich", "length": 3, "tracks": ["gray"]},
               {"from": "krakow", "to": "tokyo", "length": 3, "tracks": ["black"]}],
    "tickets": [{"from": "zurich", "to": "krakow", "points": 5, "decks": ["main"]},
                {"from": "moskva", "to": "athina", "points": 6, "decks": ["main"]}],
}


def test_non_latin_names_print_as_themselves_and_other_scripts_are_warned(tmp_path):
    board = Board.model_validate(INTL)
    result = build_pdf(board, None, PrintOptions(parts=("board", "tickets"), every_copy=False))
    assert result.pdf.startswith(b"%PDF")
    assert b"SourceSansPro" in result.pdf  # the font is embedded
    assert len(result.warnings) == 1 and "東京" in result.warnings[0] and "(tokyo)" in result.warnings[0]
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    pdf = tmp_path / "intl.pdf"
    pdf.write_bytes(result.pdf)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8")
    for name in ("Zürich", "Москва", "Kraków", "Αθήνα", "Δοκιμή"):
        assert name in text
    assert "東京" not in text


def test_print_cli_warns_about_names_the_pdf_cannot_show(tmp_path):
    import yaml

    src = tmp_path / "intl.yaml"
    src.write_text(yaml.safe_dump(INTL, allow_unicode=True), encoding="utf-8")
    result = CliRunner().invoke(cli, ["print", str(src), "-o", str(tmp_path / "x.pdf"), "--parts", "tickets"])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "東京" in result.output and "(tokyo)" in result.output


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_prints(tmp_path, path):
    out = tmp_path / "game.pdf"
    result = CliRunner().invoke(cli, ["print", str(path), "-o", str(out), "--one-of-each"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")
    assert re.search(r"wrote .*game\.pdf: \d+ pages", result.output)
    assert "board:" in result.output


def test_print_cli_reports_bad_input_without_a_traceback(tmp_path):
    runner = CliRunner()
    usa_board = str(MAPS / "boards" / "usa.yaml")
    result = runner.invoke(cli, ["print", usa_board, "-o", str(tmp_path / "x.pdf"), "--parts", "rules"])
    assert result.exit_code == 1 and "need a variant" in result.output
    result = runner.invoke(cli, ["print", usa_board, "-o", str(tmp_path / "x.pdf"), "--parts", "board,cake"])
    assert result.exit_code == 2 and "cake" in result.output
    result = runner.invoke(cli, ["print", str(tmp_path / "none.yaml"), "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert not (tmp_path / "x.pdf").exists()


def test_board_only_print_lists_its_pages(tmp_path):
    out = tmp_path / "b.pdf"
    result = CliRunner().invoke(cli, ["print", str(MAPS / "variants" / "usa.yaml"), "-o", str(out), "--parts", "board", "--paper", "a3", "--car-mm", "20"])
    assert result.exit_code == 0, result.output
    assert "board 5" in result.output  # cover + 4 A3 pages
    assert "2 rows x 2 columns" in result.output


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_printed_pages_show_the_board_the_marks_and_the_cards(tmp_path):
    import numpy as np
    from PIL import Image

    result = usa_pdf(USA_A4)
    pdf = tmp_path / "g.pdf"
    pdf.write_bytes(result.pdf)
    # Every page renders (in small: at 72 dpi the 17 pages took 3 s of CPU); the two looked at are rendered at 72 dpi.
    subprocess.run(["pdftoppm", "-r", "10", "-png", str(pdf), str(tmp_path / "small")], check=True)
    assert len(list(tmp_path.glob("small-*.png"))) == sum(result.pages.values())
    sheet_page = len(result.tiling.tiles) + 2  # the cover, the board pages, then the first ticket sheet

    def page(n: int) -> Path:
        subprocess.run(["pdftoppm", "-r", "72", "-png", "-f", str(n), "-l", str(n), "-singlefile", str(pdf), str(tmp_path / f"p{n}")],
                       check=True)
        return tmp_path / f"p{n}.png"

    tile = np.asarray(Image.open(page(2)).convert("RGB")).astype(int)
    dpmm = 72 / 25.4
    h, w, _ = tile.shape
    px = lambda mm: int(mm * dpmm)  # noqa: E731
    # Inside the printed area: the board, many colours.
    inner = tile[px(12) : h - px(12), px(12) : w - px(12)].reshape(-1, 3)
    assert len(np.unique(inner, axis=0)) > 50
    # Above the printed area's left edge (10 mm in): white paper and one cut mark.
    margin = tile[px(1) : px(8), px(8) : px(12)].sum(axis=2)
    assert (margin < 600).any()
    assert (margin > 740).mean() > 0.7
    # A ticket sheet: nine cards, each with its brown frame.
    sheet = np.asarray(Image.open(page(sheet_page)).convert("RGB")).astype(int)
    frame = np.array([0x8C, 0x4A, 0x32])
    assert (np.abs(sheet - frame).max(axis=2) < 30).sum() > 2000


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_direct_drawing_prints_the_pages_fpdf2s_conversion_prints(tmp_path, monkeypatch):
    """print writes its own SVG drawings straight into the PDF (render/pdfdraw.py) instead of through fpdf2's SVG
    conversion: every page of a whole game (board, tickets, train and summary cards, rules) renders to the same
    pixels either way. benchmarks/print_pixels.py compares every bundled file at 100 dpi."""
    import numpy as np
    from PIL import Image

    from ttr_maps.render import pdfdraw

    variant, board = load_variant(ROOT / "examples" / "twin-crossings-rules.yaml")
    opts = PrintOptions(every_copy=False)
    direct = build_pdf(board, variant, opts).pdf
    monkeypatch.setattr(pdfdraw, "convert", lambda *a, **k: None)  # every drawing left to fpdf2
    fpdf2 = build_pdf(board, variant, opts).pdf
    assert direct != fpdf2

    def pages(name: str, pdf: bytes) -> list[np.ndarray]:
        (tmp_path / f"{name}.pdf").write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True)
        return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(tmp_path.glob(f"{name}-*.png"))]

    a, b = pages("fpdf2", fpdf2), pages("direct", direct)
    assert len(a) == len(b) > 5
    for number, (pa, pb) in enumerate(zip(a, b), 1):
        assert pa.shape == pb.shape and (pa == pb).all(), f"page {number} differs"


def _rules_pdf():
    from fpdf import FPDF

    from ttr_maps.render.pdf import _register_fonts

    pdf = FPDF(unit="mm", format="A4")
    _register_fonts(pdf)
    pdf.add_page()
    return pdf


def test_rules_never_leave_a_heading_at_a_page_foot_or_run_past_the_margin():
    from ttr_maps.render.pdf import RULES_MARGIN, _Para, rules_layout

    pdf = _rules_pdf()
    paras = []
    for i in range(12):
        paras.append(_Para(f"Heading {i}", 12, "B", h=7, keep_with_next=True))
        paras += [_Para("A rule that takes a line or two of text. " * 3, 10, indent=5, after=1, bullet=True) for _ in range(3)]
    lay = rules_layout(pdf, paras, 1.0)
    assert lay[-1][0] >= 1  # more than one page
    for p, (page, y, h), nxt in zip(paras, lay, lay[1:]):
        assert y + h <= pdf.h - RULES_MARGIN + 1e-6
        if p.keep_with_next:
            assert nxt[0] == page


def test_rules_shrink_a_little_rather_than_leave_an_orphan_page():
    from ttr_maps.render.pdf import _Para, rules_layout, rules_scale

    pdf = _rules_pdf()
    para = _Para("One rule, a full line of text that goes on and on to the right margin of the page.", 10, indent=5, after=1)
    # How many fit one page: those on the first page of a layout that takes two (a paragraph's place does not
    # depend on those after it; laying out 1, 2, 3, ... paragraphs until one went over took 2 s of CPU).
    lay = rules_layout(pdf, [para] * 200, 1.0)
    assert lay[-1][0] >= 1
    one_page = sum(page == 0 for page, _, _ in lay)
    assert rules_layout(pdf, [para] * one_page, 1.0)[-1][0] == 0
    paras = [para] * (one_page + 2)  # two lines on a second page
    assert rules_layout(pdf, paras, 1.0)[-1][0] == 1
    scale = rules_scale(pdf, paras)
    assert 0.85 <= scale < 1
    assert rules_layout(pdf, paras, scale)[-1][0] == 0
    # A second page that is well filled keeps the full size.
    assert rules_scale(pdf, [para] * int(one_page * 1.6)) == 1.0


LONG_TITLE = ("The Grand Trans-Continental Railway Adventure of the Northern Provinces and Their Many Rivers, "
              "Lakes, Mountains and Valleys, Collector's Extended Edition With Every Expansion Included")


def test_a_long_title_wraps_on_the_cover_and_is_shortened_on_the_board_pages(tmp_path):
    board = Board.model_validate({
        "format": "ttr-board/1",
        "meta": {"title": LONG_TITLE},
        "places": [{"id": "a", "name": "Alpha", "x": 0, "y": 0}, {"id": "b", "name": "Beta", "x": 100, "y": 0}],
        "routes": [{"from": "a", "to": "b", "length": 3, "tracks": ["red"]}],
    })
    result = build_pdf(board, None, PrintOptions(parts=("board",), car_mm=60))
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(result.pdf)
    for page in (1, 2):
        out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
                             capture_output=True, check=True).stdout.decode()
        width = float(re.search(r'<page width="([\d.]+)"', out)[1])
        words = [(float(a), float(b)) for a, b in re.findall(r'yMin="([\d.]+)" xMax="([\d.]+)"', out)]
        if page == 2:  # a board page: only its margin label (the board itself is clipped to the page)
            words = [w for w in words if w[0] < 28]
        assert words and max(x for _, x in words) <= width, f"page {page}: text runs off the page"
    page2 = subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, check=True).stdout.decode()
    assert "board page A1" in page2 and "..." in page2


def test_place_names_stay_readable_on_a_small_board():
    from ttr_maps.render.plan import MIN_LABEL_MM

    variant, board = load_variant(MAPS / "variants" / "usa.yaml")
    from ttr_maps.render import plan_board
    from ttr_maps.render.plan import BoardOptions

    plan = plan_board(board, variant, BoardOptions(car_mm=5))
    assert min(pp.label.size for pp in plan.places if pp.label) >= MIN_LABEL_MM
    result = CliRunner().invoke(cli, ["render", str(MAPS / "variants" / "usa.yaml"), "-o", "-", "--car-mm", "5"])
    assert result.exit_code == 0
    assert "note: at --car-mm 5" in result.output
