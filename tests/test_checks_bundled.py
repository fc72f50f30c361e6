"""The design checks on the bundled boards: no errors, and every warning is a documented fact.

The bundled boards transcribe the published boards' facts; where a check warns,
the published board really is that way (and the test says why), or the check
was wrong and was fixed.
"""

import functools

import pytest

from conftest import MAPS
from ttr_maps.checks import run_checks, settings_for
from ttr_maps.diagnostics import Severity
from ttr_maps.load import load

BUNDLED = sorted(MAPS.glob("*/*.yaml"))

# Two published tickets are priced above their shortest path (G006 tolerance is 1 point):
# - USA Seattle–New York is worth 22; its shortest path is 20 spaces.
# - Europe 1912 / Big Cities Paris–Roma is worth 10; its shortest path is 7 spaces,
#   all through the Alpine tunnels (Paris–Zürich–Venezia–Roma).
# They are transcribed as printed and accepted by name in maps/ttr-maps.toml, so a
# newcomer's first `ttr-maps validate usa` shows no warning; without it they warn.
SEATTLE_NEW_YORK = ("usa.yaml", "G006", "the ticket seattle–new-york is worth 22 points but its shortest path is 20 spaces")
PARIS_ROMA = ("europe.yaml", "G006", "the ticket paris–roma is worth 10 points but its shortest path is 7 spaces")
WARNINGS_WITHOUT_CONFIG = {
    "boards/usa.yaml": [SEATTLE_NEW_YORK],
    "variants/usa.yaml": [SEATTLE_NEW_YORK],
    "boards/europe.yaml": [PARIS_ROMA],
    "variants/europe-1912.yaml": [PARIS_ROMA],
    "variants/big-cities.yaml": [PARIS_ROMA],
    "variants/mega-europe.yaml": [PARIS_ROMA],
}


def rel(path):
    return f"{path.parent.name}/{path.name}"


@functools.cache
def drawn(path):
    """The file loaded, and its board laid out as the checks of the drawn board lay it out (`plan_board(board)`,
    handed to `run_checks(drawing=)` as the studio does): once per test process for the tests of one file.
    The layout is most of a check run's time, and each `run_checks` call lays the board out anew."""
    from ttr_maps.render.plan import plan_board

    loaded = load(path)
    return loaded, plan_board(loaded.board)


def warnings_of(diags):
    return [(d.path.rsplit("/", 1)[-1], d.code, d.message.split(" (")[0]) for d in diags if d.severity is Severity.WARNING]


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=rel)
def test_bundled_files_raise_no_check_errors_and_no_warnings(path):
    loaded, drawing = drawn(path)
    diags = run_checks(loaded, drawing=drawing)
    assert not [d.as_text() for d in diags if d.severity is Severity.ERROR]
    assert warnings_of(diags) == []


@pytest.mark.parametrize("path", [MAPS / p for p in WARNINGS_WITHOUT_CONFIG], ids=rel)
def test_the_accepted_published_tickets_warn_without_the_bundled_config(path):
    loaded = load(path)
    diags = run_checks(loaded, settings=settings_for(loaded, ["G006"], config=False))
    assert warnings_of(diags) == WARNINGS_WITHOUT_CONFIG[rel(path)]


def shortest_path_differences(board: str) -> list[tuple[str, int, int]]:
    loaded = load(MAPS / "boards" / f"{board}.yaml")
    settings = settings_for(loaded, ["G006"], config=False)
    settings.options["G006"] = {"tolerance": 0}
    out = []
    for d in run_checks(loaded, settings=settings):
        ends = d.message.split("the ticket ")[1].split(" is worth")[0]
        points = int(d.message.split("worth ")[1].split(" points")[0])
        spaces = int(d.message.split("path is ")[1].split(" spaces")[0])
        out.append((ends, points, spaces))
    return out


def test_published_usa_tickets_that_differ_from_the_shortest_path():
    assert shortest_path_differences("usa") == [
        ("las-vegas–miami", 21, 20),
        ("los-angeles–chicago", 16, 15),
        ("los-angeles–miami", 20, 19),
        ("los-angeles–new-york", 21, 20),
        ("sault-st-marie–oklahoma-city", 9, 8),
        ("seattle–new-york", 22, 20),
    ]


def test_published_europe_tickets_that_differ_from_the_shortest_path():
    # All but Paris–Roma differ by one point; Bucuresti–Erzurum is the only one worth less.
    assert shortest_path_differences("europe") == [
        ("bucuresti–erzurum", 7, 8),
        ("edinburgh–athina", 21, 20),
        ("essen–angora", 16, 15),
        ("london–angora", 20, 19),
        ("london–wien", 10, 9),
        ("paris–berlin", 7, 6),
        ("paris–roma", 10, 7),
        ("sochi–smyrna", 9, 8),
    ]


# Europe 40: Frankfurt-Paris's bend point (written where the router drew it anyway, south-east of Paris, so
# Marseille-Paris has room at Paris) makes its line 4.1 car lengths for 3 spaces.
@pytest.mark.parametrize("board,count", [("usa", 21), ("europe", 40), ("germany", 23), ("paris", 0)])
def test_real_coordinates_stretch_routes_so_the_board_turns_d005_off(board, count):
    """The boards turn D005 off in their own `checks:` (never maps/ttr-maps.toml for all of them): cities sit at
    their real coordinates, not at the published artwork's positions, so many straight lines do not match their
    published spaces."""
    loaded, drawing = drawn(MAPS / "boards" / f"{board}.yaml")
    settings = settings_for(loaded, ["D005"], config=False)
    settings.levels = []  # without the board's own `checks:`
    stretched = run_checks(loaded, settings=settings, drawing=drawing)
    assert len(stretched) == count
    assert run_checks(loaded, ["D005"], drawing=drawing) == []


def test_amsterdam_essen_is_three_published_spaces_over_a_short_real_distance():
    loaded, drawing = drawn(MAPS / "boards" / "europe.yaml")
    settings = settings_for(loaded, ["D005"], config=False)
    settings.levels = []
    messages = [d.message for d in run_checks(loaded, settings=settings, drawing=drawing)]
    assert any(m.startswith("route amsterdam–essen is drawn 0.9 car lengths for 3 space(s)") for m in messages)


def test_europe_choke_points_are_reported_as_information():
    diags = run_checks(load(MAPS / "boards" / "europe.yaml"), ["G015", "G016"])
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("G015", Severity.INFO, "route edinburgh–london is the only link to 1 place(s) (edinburgh); claiming it can cut them off"),
        ("G016", Severity.INFO, "every path between 2 parts of the board passes through 'london': 1 place(s) around edinburgh, 45 place(s) around amsterdam"),
        ("G016", Severity.INFO, "every path between 2 parts of the board passes through 'madrid': 2 place(s) around cadiz, 44 place(s) around amsterdam"),
    ]


def test_usa_base_game_places_on_no_ticket():
    diags = run_checks(load(MAPS / "variants" / "usa.yaml"), ["B005"])
    assert [d.message.split("'")[1] for d in diags] == ["charleston", "las-vegas", "omaha", "raleigh", "saint-louis", "washington"]


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=rel)
def test_the_renderer_places_every_bundled_label_clear_of_other_places(path):
    """D002 lays the board out as `ttr-maps render` does; on the bundled boards every label finds a free spot
    (an estimate of a big font under each marker used to flag labels on every board)."""
    loaded, drawing = drawn(path)
    assert run_checks(loaded, ["D002"], config=False, drawing=drawing) == []
