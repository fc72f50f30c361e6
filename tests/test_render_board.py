"""The SVG board: every bundled file renders, routes keep their car size, and untrusted text stays text."""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from conftest import MAPS, ROOT
from ttr_maps.cli.main import cli
from ttr_maps.load import load, load_variant
from ttr_maps.model.board import Board
from ttr_maps.render import BoardOptions, plan_board, render_board
from ttr_maps.render.palette import Palette

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"
BUNDLED = sorted(MAPS.glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))


@functools.cache
def drawn(path):
    """A bundled file loaded, laid out with the default options (`plan_board`) and drawn (`draw_board`, which with
    the layout is `render_board`), once per test process for the tests that read the same drawing: a layout of a
    bundled board is a second or two of CPU."""
    from ttr_maps.render.board import draw_board

    loaded = load(path)
    plan = plan_board(loaded.board, loaded.variant)
    return loaded, plan, draw_board(plan)


USA = MAPS / "variants" / "usa.yaml"


def _board(**extra) -> Board:
    data = {
        "format": "ttr-board/1",
        "meta": {"title": "Test"},
        "places": [
            {"id": "a", "name": "Alpha", "x": 0, "y": 0},
            {"id": "b", "name": "Beta", "x": 100, "y": 0},
            {"id": "c", "name": "Gamma", "x": 0, "y": 100},
            {"id": "d", "name": "Delta", "x": 100, "y": 100},
        ],
        "drawing": {"car_length": 20},
        "routes": [
            {"from": "a", "to": "b", "length": 4, "tracks": ["red"]},
            {"from": "a", "to": "c", "length": 4, "tracks": ["blue"]},
            {"from": "b", "to": "d", "length": 4, "tracks": ["green"]},
            {"from": "c", "to": "d", "length": 4, "tracks": ["gray"]},
        ],
    }
    data.update(extra)
    return Board.model_validate(data)


def _route(plan, a, b):
    return next(rp for rp in plan.routes if set(rp.ends) == {a, b})


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_renders_a_well_formed_board(path):
    loaded, _plan, svg = drawn(path)
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    texts = {t.text for t in root.iter(f"{SVG}text")}
    for place in loaded.board.places:
        name = place.name.upper() if place.is_country else place.name
        assert name in texts, f"no label for {place.id}"
    routes = root.find(f".//{SVG}g[@id='routes']")
    spaces = [r for g in routes.iter(f"{SVG}g") if g.get("id", "").startswith("route-") for r in g.findall(f"{SVG}rect")]
    assert len(spaces) == sum(r.length * len(r.tracks) for r in loaded.board.routes)


def test_same_board_gives_the_same_bytes():
    variant, board = load_variant(USA)  # loaded again: a render of its own, against the one loaded before
    assert render_board(board, variant) == drawn(USA)[2]


def test_numbers_are_rounded_to_two_decimals():
    svg = drawn(USA)[2]
    assert not re.search(r"\d\.\d{3,}", svg)


def test_every_space_has_the_same_size_whatever_the_route_length_on_the_board():
    board = _board(routes=[
        {"from": "a", "to": "b", "length": 8, "tracks": ["red"]},  # too short a line: arc
        {"from": "a", "to": "c", "length": 1, "tracks": ["blue"]},  # too long: stretched
        {"from": "b", "to": "d", "length": 4, "tracks": ["green"]},
    ])
    svg = render_board(board)
    root = ET.fromstring(svg)
    routes = root.find(f".//{SVG}g[@id='routes']")
    sizes = {(r.get("width"), r.get("height")) for g in routes.iter(f"{SVG}g") if g.get("id", "").startswith("route-")
             for r in g.findall(f"{SVG}rect")}
    assert len(sizes) == 1


def test_a_route_too_long_for_its_straight_line_becomes_an_arc_whose_spaces_do_not_overlap():
    board = _board(routes=[{"from": "a", "to": "b", "length": 8, "tracks": ["red"]}])
    plan = plan_board(board)
    rp = _route(plan, "a", "b")
    assert rp.shape == "arc"
    spaces = rp.tracks[0].spaces
    gaps = [math.dist((s.x, s.y), (t.x, t.y)) for s, t in zip(spaces, spaces[1:])]
    assert min(gaps) >= plan.space_length
    assert max(abs(s.y - plan.place("a").y) for s in spaces) > plan.car  # it bulges out of the straight line


def test_a_route_too_short_for_its_line_is_stretched_with_even_gaps():
    board = _board(routes=[{"from": "a", "to": "b", "length": 2, "tracks": ["red"]}])
    plan = plan_board(board)
    rp = _route(plan, "a", "b")
    assert rp.shape == "straight"
    s = rp.tracks[0].spaces
    assert math.dist((s[0].x, s[0].y), (s[1].x, s[1].y)) > plan.car * 1.5
    assert all(abs(sp.y - plan.place("a").y) < 0.01 for sp in s)


def test_a_route_follows_its_bend_points():
    board = _board(routes=[{"from": "a", "to": "b", "length": 6, "tracks": ["red"], "bend": [[50, -40]]}])
    plan = plan_board(board)
    rp = _route(plan, "a", "b")
    assert rp.shape == "bend"
    # The bend point (50, -40) in board units, in the plan's millimetres:
    scale = plan.scale
    bx = plan.place("a").x + 50 * scale
    by = plan.place("a").y - 40 * scale
    assert min(math.dist(p, (bx, by)) for p in rp.centerline) < 0.5


def test_parallel_tracks_sit_side_by_side_evenly_offset():
    board = _board(routes=[{"from": "a", "to": "b", "length": 4, "tracks": ["red", "blue", "gray"]}])
    plan = plan_board(board)
    tracks = _route(plan, "a", "b").tracks
    step = plan.space_width + plan.track_gap
    for i in range(4):
        ys = [t.spaces[i].y for t in tracks]
        assert ys[1] - ys[0] == pytest.approx(step, abs=0.01)
        assert ys[2] - ys[1] == pytest.approx(step, abs=0.01)
        assert len({round(t.spaces[i].x, 3) for t in tracks}) == 1


def test_ferries_show_a_locomotive_on_the_required_spaces_and_tunnels_a_dashed_outline():
    board = _board(routes=[
        {"from": "a", "to": "b", "length": 4, "tracks": ["gray", "gray"], "ferry": 2},
        {"from": "c", "to": "d", "length": 3, "tracks": ["red"], "tunnel": True},
    ])
    plan = plan_board(board)
    ferry = _route(plan, "a", "b")
    assert [sum(s.loco for s in t.spaces) for t in ferry.tracks] == [2, 2]
    assert all(s.tunnel for s in _route(plan, "c", "d").tracks[0].spaces)
    svg = render_board(board)
    group = ET.fromstring(svg).find(f".//{SVG}g[@id='route-c-d']")
    assert all(r.get("stroke-dasharray") for r in group.findall(f"{SVG}rect"))
    loco_paths = ET.fromstring(svg).find(f".//{SVG}g[@id='route-a-b']").findall(f"{SVG}path")
    assert len(loco_paths) == 2 * 2 * 2  # locomotive + its window, on 2 spaces of 2 tracks


def test_gray_is_distinct_from_every_colour_and_from_the_background():
    from ttr_maps.render.palette import LAND, SEA

    board = _board()
    pal = Palette(board.colors)
    gray = pal["gray"].fill
    assert gray not in {sw.fill for sw in pal.swatches()} | {LAND, SEA}


def test_colourblind_letters_are_unique_and_printed_on_spaces():
    loaded, _plan, plain = drawn(USA)  # the default: colorblind=False
    board, variant = loaded.board, loaded.variant
    assert BoardOptions().colorblind is False
    pal = Palette(board.colors)
    letters = [sw.letter for sw in pal.swatches()]
    assert len(set(letters)) == len(letters) and all(letters)
    helped = render_board(board, variant, BoardOptions(colorblind=True))
    route_texts = lambda svg: [t.text for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id", "").startswith("route-") for t in g.iter(f"{SVG}text")]  # noqa: E731
    assert route_texts(plain) == []
    assert set(route_texts(helped)) == set(letters)


def test_labels_of_the_bundled_variants_never_overlap():
    for name in ("usa", "europe", "marklin"):
        plan = drawn(MAPS / "variants" / f"{name}.yaml")[1]
        boxes = [pp.label.box for pp in plan.places]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), name


def test_board_has_title_goods_big_cities_countries_legends_and_score_track():
    loaded, _plan, svg = drawn(MAPS / "variants" / "marklin.yaml")
    board, variant = loaded.board, loaded.variant
    root = ET.fromstring(svg)
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"legend-title", "legend-key", "legend-scoring", "goods", "places", "labels", "land"} <= ids
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert board.meta.title in texts
    assert "Route scoring" in texts and "18" in texts  # Märklin's 7 → 18
    assert [str(n) for n in range(100)] == [t for t in texts if t.isdigit()][:100]  # the score track, in order
    no_track = ET.fromstring(render_board(board, variant, BoardOptions(score_track=False, legend=False)))
    ids = {g.get("id") for g in no_track.iter(f"{SVG}g")}
    assert "legend-key" not in ids and "legend-scoring" not in ids


HOSTILE_NAME = '<script>alert("x")</script> & \'quotes\' "double" \x07bell'


def test_a_hostile_board_renders_as_inert_text():
    board = _board(
        meta={"title": 'Evil <script src="http://evil.example/x.js"></script> & co'},
        places=[
            {"id": "a", "name": HOSTILE_NAME, "x": 0, "y": 0},
            {"id": "b", "name": "<img src=x onerror=alert(1)>", "x": 100, "y": 0},
            {"id": "c", "name": "]]><!-- -->", "x": 0, "y": 100},
            {"id": "d", "name": "javascript:alert(1)", "x": 100, "y": 100},
        ],
    )
    svg = render_board(board)
    root = ET.fromstring(svg.encode("utf-8"))  # well-formed XML despite the names
    tags = {el.tag.replace(SVG, "") for el in root.iter()}
    assert not tags & {"script", "image", "foreignObject", "a", "use", "style", "iframe"}
    assert "<script" not in svg and "<img" not in svg
    assert "href" not in svg and "url(" not in svg
    assert not re.search(r"https?://(?!www\.w3\.org/)", svg.replace("http://evil.example/x.js", ""))
    for el in root.iter():
        assert not any(k.lower().startswith("on") for k in el.attrib)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert '<script>alert("x")</script> & \'quotes\' "double" bell' in texts  # shown, escaped, control char dropped
    assert "&lt;script&gt;" in svg


def test_render_cli_writes_svg_atomically_and_reports_bad_input(tmp_path):
    out = tmp_path / "out" / "board.svg"
    out.parent.mkdir()  # a missing folder is refused (tests/test_render_output.py)
    result = CliRunner().invoke(cli, ["render", str(MAPS / "boards" / "usa.yaml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<?xml")
    assert not list(out.parent.glob(".*tmp"))

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: ttr-board/1\nmeta: {title: x}\nplaces: []\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["render", str(bad), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"{bad}:" in result.output
    assert not (tmp_path / "x.svg").exists()

    result = CliRunner().invoke(cli, ["render", str(tmp_path / "missing.yaml"), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_render_cli_options_change_the_drawing(tmp_path):
    usa = str(MAPS / "variants" / "usa.yaml")
    runner = CliRunner()
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert runner.invoke(cli, ["render", usa, "-o", str(a), "--car-mm", "20"]).exit_code == 0
    assert runner.invoke(cli, ["render", usa, "-o", str(b), "--car-mm", "30", "--no-score-track"]).exit_code == 0
    width = lambda p: float(ET.parse(p).getroot().get("width").removesuffix("mm"))  # noqa: E731
    assert width(b) > width(a) * 1.3
    result = runner.invoke(cli, ["render", usa, "-o", str(a), "--car-mm", "0"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    result = runner.invoke(cli, ["render", usa, "-o", "-"])
    assert result.exit_code == 0 and result.output.startswith("<?xml")


def test_layout_text_widths_are_the_pdf_standard_fonts_widths():
    """Label sizes in the SVG and the PDF agree because both measure with Helvetica's metrics;
    the copy the layout uses (so that validate need not import fpdf2) equals fpdf2's."""
    from fpdf.fonts import CORE_FONTS_CHARWIDTHS

    from ttr_maps.render.metrics import HELVETICA, HELVETICA_BOLD

    assert {chr(i): w for i, w in enumerate(HELVETICA)} == CORE_FONTS_CHARWIDTHS["helvetica"]
    assert {chr(i): w for i, w in enumerate(HELVETICA_BOLD)} == CORE_FONTS_CHARWIDTHS["helveticaB"]


def test_a_name_pushed_away_from_its_marker_gets_a_leader_line_and_a_near_one_does_not():
    from ttr_maps.render.board import LEADER_GAP

    _loaded, plan, svg = drawn(USA)  # BoardOptions(), the default

    def gap(pp):
        x0, y0, x1, y1 = pp.label.box
        return math.hypot(min(max(pp.x, x0), x1) - pp.x, min(max(pp.y, y0), y1) - pp.y) - pp.radius

    far = [pp for pp in plan.places if gap(pp) > plan.car * LEADER_GAP]
    assert far and len(far) < len(plan.places) / 2  # some names were pushed out (USA's north-east), most were not
    svg = ET.fromstring(svg)  # draw_board(plan)
    ns = {"s": "http://www.w3.org/2000/svg"}
    labels = svg.find(".//s:g[@id='labels']", ns)
    lines = labels.findall("s:line", ns)
    assert len(lines) == len(far)
    for pp, line in zip(far, lines):
        # From the marker's rim to the name plate.
        x1, y1 = float(line.get("x1")), float(line.get("y1"))
        assert math.hypot(x1 - pp.x, y1 - pp.y) == pytest.approx(pp.radius, abs=0.02)
        x0, y0, bx1, by1 = pp.label.box
        x2, y2 = float(line.get("x2")), float(line.get("y2"))
        assert x0 - 0.02 <= x2 <= bx1 + 0.02 and y0 - 0.02 <= y2 <= by1 + 0.02


def test_the_drawing_checks_layout_places_routes_and_names_as_render_does():
    # The checks lay the board out without land, legend or rails (plan_board(decor=False)); what they read must be
    # exactly what render draws.
    variant, board = load_variant(MAPS / "variants" / "europe.yaml")
    full = plan_board(board, variant, BoardOptions())
    lean = plan_board(board, decor=False)
    assert lean.land == [] and lean.blocks == {} and lean.cells == []
    assert all(not t.rail for rp in lean.routes for t in rp.tracks)
    assert [(rp.ends, rp.shape, rp.centerline) for rp in lean.routes] == [(rp.ends, rp.shape, rp.centerline) for rp in full.routes]
    spaces = [[(s.x, s.y, s.angle) for t in rp.tracks for s in t.spaces] for rp in full.routes]
    assert [[(s.x, s.y, s.angle) for t in rp.tracks for s in t.spaces] for rp in lean.routes] == spaces
    assert [pp.label.box for pp in lean.places] == [pp.label.box for pp in full.places]
    assert (lean.scale, lean.origin) == (full.scale, full.origin)


def test_render_board_draws_the_document_plan_then_draw_does():
    # render_board draws the cars, markers and names while the land shape is worked out in a thread of its own.
    from ttr_maps.render.board import draw_board

    loaded = load(USA)
    for opts in (BoardOptions(), BoardOptions(car_mm=12, colorblind=True, shadows=False)):
        assert render_board(loaded.board, loaded.variant, opts) == draw_board(plan_board(loaded.board, loaded.variant, opts))


def test_a_failure_while_the_land_is_worked_out_reaches_the_caller(monkeypatch):
    import ttr_maps.render.plan as plan_module

    def broken(*_args):
        raise MemoryError("no room for the land")

    monkeypatch.setattr(plan_module, "_land", broken)
    with pytest.raises(MemoryError, match="no room for the land"):
        render_board(_board())
