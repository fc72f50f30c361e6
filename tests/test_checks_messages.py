"""What the checks say: findings whose suggested fix must actually fix the problem."""

import textwrap

import pytest

from ttr_maps.checks import run_checks
from ttr_maps.load import load


def check(tmp_path, code, body, variant=None):
    board = tmp_path / "board.yaml"
    board.write_text("format: ttr-board/1\nmeta: {title: t}\ndrawing: {car_length: 1}\n" + textwrap.dedent(body), encoding="utf-8")
    path = board
    if variant is not None:
        path = tmp_path / "variant.yaml"
        path.write_text("format: ttr-variant/1\nname: v\nboard: board.yaml\n" + textwrap.dedent(variant), encoding="utf-8")
    loaded = load(path)
    assert loaded.ok, [d.as_text() for d in loaded.diagnostics]
    return [d.message for d in run_checks(loaded, [code], config=False)]


# -- D005 route-stretched -------------------------------------------------

def test_d005_says_the_markers_overlap_instead_of_a_negative_length(tmp_path):
    messages = check(tmp_path, "D005", """\
        places:
          - {id: a, name: A, x: 0, y: 0}
          - {id: a2, name: A2, x: 0.3, y: 0}
        routes:
          - {from: a2, to: a, length: 1, tracks: [gray]}
        """)
    assert messages == [
        "route a2–a has no room to be drawn: the markers of a2 and a overlap (centres 0.30 car lengths apart, "
        "the markers need 0.70), leaving nothing for its 1 space(s); move a2 and a apart (about 1.7 car lengths between centres)"
    ]


@pytest.mark.parametrize("x,length,fix", [
    (24, 2, "move d and e closer (about 2.7 car lengths between centres)"),  # 23.3 car lengths: 9 spaces would be 159% longer
    (2.0, 4, "add a bend point, or move d and e apart (about 4.7 car lengths between centres)"),  # 1.3: 1 is 30% longer, 2 35% shorter
])
def test_d005_suggests_no_length_when_none_fits(tmp_path, x, length, fix):
    messages = check(tmp_path, "D005", f"""\
        places:
          - {{id: d, name: D, x: 0, y: 0}}
          - {{id: e, name: E, x: {x}, y: 0}}
        routes:
          - {{from: d, to: e, length: {length}, tracks: [gray]}}
        """)
    assert len(messages) == 1
    assert "change length" not in messages[0]
    assert messages[0].endswith(fix)


@pytest.mark.parametrize("x,length,suggested", [(8, 3, 7), (2.2, 4, 2), (11.5, 2, 9)])
def test_d005_suggests_only_a_length_that_fits(tmp_path, x, length, suggested):
    messages = check(tmp_path, "D005", f"""\
        places:
          - {{id: a, name: A, x: 0, y: 0}}
          - {{id: b, name: B, x: {x}, y: 0}}
        routes:
          - {{from: a, to: b, length: {length}, tracks: [red]}}
        """)
    assert len(messages) == 1 and messages[0].endswith(f", or change length to {suggested}")
    # ... and the suggestion silences the check.
    fixed = check(tmp_path, "D005", f"""\
        places:
          - {{id: a, name: A, x: 0, y: 0}}
          - {{id: b, name: B, x: {x}, y: 0}}
        routes:
          - {{from: a, to: b, length: {suggested}, tracks: [red]}}
        """)
    assert fixed == []


# -- G011 duplicate-route -------------------------------------------------

THREE_ENTRIES = """\
    places:
      - {id: a, name: A, x: 0, y: 0}
      - {id: b, name: B, x: 3, y: 0}
    routes:
      - {from: a, to: b, length: 2, tracks: [red]}
      - {from: b, to: a, length: 2, tracks: [blue]}
      - {from: a, to: b, length: 2, tracks: [green]}
    """


SEPARATE = ", or, if they are separate routes, give each an `id:`"


def test_g011_merges_every_entry_of_the_same_length(tmp_path):
    # It used to suggest [red, blue] for line 9 and [red, green] for line 10: either fix leaves a duplicate.
    assert check(tmp_path, "G011", THREE_ENTRIES) == [
        "another route already joins a and b (line 8); one player could claim both; "
        "write the entries at lines 8, 9 and 10 as one entry with tracks [red, blue, green]" + SEPARATE,
        "2 other routes already join a and b (lines 8 and 9); one player could claim all of them; "
        "write the entries at lines 8, 9 and 10 as one entry with tracks [red, blue, green]" + SEPARATE,
    ]


def test_g011_does_not_suggest_an_entry_with_more_than_three_tracks(tmp_path):
    messages = check(tmp_path, "G011", THREE_ENTRIES.replace("tracks: [green]", "tracks: [green, gray]"))
    assert all(m.endswith(
        "the entries at lines 8, 9 and 10 have 4 tracks together, more than the 3 one entry holds; "
        "remove tracks until they fit in one entry" + SEPARATE
    ) for m in messages) and len(messages) == 2


@pytest.mark.parametrize("change", ["length: 5, tracks: [green]", "length: 2, tracks: [green], ferry: 1",
                                    "length: 2, tracks: [green], tunnel: true"])
def test_g011_never_suggests_merging_entries_that_differ(tmp_path, change):
    """Merging a ferry, a tunnel or a longer route into a double route would change the board: those
    entries are separate routes, told apart by their ids, and never reported."""
    messages = check(tmp_path, "G011", THREE_ENTRIES.replace("length: 2, tracks: [green]", change))
    assert messages == ["another route already joins a and b (line 8); one player could claim both; "
                        "write the entries at lines 8 and 9 as one entry with tracks [red, blue]" + SEPARATE]


def test_g011_following_its_advice_silences_it(tmp_path):
    with_ids = THREE_ENTRIES.replace("- {from: a, to: b, length: 2, tracks: [red]}", "- {id: a-north, from: a, to: b, length: 2, tracks: [red]}")
    with_ids = with_ids.replace("- {from: b, to: a, length: 2, tracks: [blue]}", "- {id: a-mid, from: b, to: a, length: 2, tracks: [blue]}")
    with_ids = with_ids.replace("- {from: a, to: b, length: 2, tracks: [green]}", "- {id: a-south, from: a, to: b, length: 2, tracks: [green]}")
    assert check(tmp_path, "G011", with_ids) == []
    merged = THREE_ENTRIES.split("routes:")[0] + "routes:\n      - {from: a, to: b, length: 2, tracks: [red, blue, green]}\n"
    assert check(tmp_path, "G011", merged) == []


# -- G010 too-many-parallel-tracks -----------------------------------------

def parallel(tracks: str, *more: str) -> str:
    routes = "".join(f"  - {{from: b, to: a, length: 2, tracks: [{t}]}}\n" for t in more)
    return (
        "places:\n  - {id: a, name: A, x: 0, y: 0}\n  - {id: b, name: B, x: 3, y: 0}\n"
        f"routes:\n  - {{from: a, to: b, length: 2, tracks: [{tracks}]}}\n{routes}"
    )


def test_g010_without_a_variant_allows_three_tracks(tmp_path):
    assert check(tmp_path, "G010", parallel("red, blue, green")) == []
    assert check(tmp_path, "G010", parallel("red, blue, green", "gray")) == [
        "4 parallel tracks join a and b (at most 3, the most a readable bundle of cars holds); remove tracks, "
        "or set max_tracks under [checks.options.G010] in ttr-maps.toml if they are meant"
    ]


def test_g010_a_variant_for_few_players_never_opens_a_second_track(tmp_path):
    messages = check(tmp_path, "G010", parallel("red, blue"), "players: {min: 2, max: 3}\nparallel: {all_tracks_from: 4}\n")
    assert messages == [
        "2 parallel tracks join a and b (only 1 is ever open: the variant plays with 2-3 players and opens parallel "
        "tracks only from 4 players (parallel.all_tracks_from)); remove tracks, "
        "or set max_tracks under [checks.options.G010] in ttr-maps.toml if they are meant"
    ]


def test_g010_separate_routes_between_the_same_places_are_each_open(tmp_path):
    """The parallel-route rule closes tracks of one entry; a tunnel and a ferry between the same towns are
    two routes, each open with few players. The drawing limit still counts every track between them."""
    few = "players: {min: 2, max: 3}\nparallel: {all_tracks_from: 4}\n"
    separate = parallel("red").replace("tracks: [red]}", "tracks: [red], tunnel: true}") + "  - {from: b, to: a, length: 3, tracks: [blue]}\n"
    assert check(tmp_path, "G010", separate, few) == []
    four = separate + "  - {from: b, to: a, length: 4, tracks: [green, gray]}\n"
    assert check(tmp_path, "G010", four, few)[0].startswith("4 parallel tracks join a and b (at most 3, the most a readable bundle")


def test_g010_two_players_claim_at_most_two_tracks(tmp_path):
    variant = "players: {min: 2, max: 2}\nparallel: {all_tracks_from: 2}\n"
    assert check(tmp_path, "G010", parallel("red, blue"), variant) == []
    messages = check(tmp_path, "G010", parallel("red, blue, green"), variant)
    assert messages[0].startswith(
        "3 parallel tracks join a and b (at most 2 can ever be claimed: the variant plays with 2 players "
        "and one player never claims two tracks of a route)"
    )


@pytest.mark.parametrize("players", ["{min: 2, max: 5}", "{min: 4, max: 4}"])
def test_g010_published_rules_allow_triple_routes(tmp_path, players):
    assert check(tmp_path, "G010", parallel("red, blue, green"), f"players: {players}\nparallel: {{all_tracks_from: 4}}\n") == []


def test_g010_max_tracks_overrides_the_variant(tmp_path):
    (tmp_path / "ttr-maps.toml").write_text("[checks.options.G010]\nmax_tracks = 1\n", encoding="utf-8")
    board = tmp_path / "board.yaml"
    board.write_text("format: ttr-board/1\nmeta: {title: t}\n" + textwrap.dedent(parallel("red, blue")), encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("format: ttr-variant/1\nname: v\nboard: board.yaml\nplayers: {min: 2, max: 5}\n", encoding="utf-8")
    diags = run_checks(load(variant), ["G010"])
    assert [d.message.split(";")[0] for d in diags] == ["2 parallel tracks join a and b (at most 1 (max_tracks))"]
