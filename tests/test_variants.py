"""The bundled variants play the published editions (docs/rules.md#the-bundled-editions).

Every variant file sets every knob explicitly, so a reader sees the whole rule
set in one place and a changed default in the model cannot silently change an
edition. The figures asserted here are the table of docs/rules.md#the-bundled-editions.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel

from conftest import MAPS, ROOT
from ttr_maps.cli.main import cli
from ttr_maps.load import load_variant
from ttr_maps.model import Board, Variant
from ttr_maps.model.variant import TicketDeal

VARIANTS = sorted(p.stem for p in (MAPS / "variants").glob("*.yaml"))
EUROPE = ["europe", "europe-1912", "mega-europe", "big-cities"]


def _load(name: str) -> tuple[Variant, Board]:
    return load_variant(MAPS / "variants" / f"{name}.yaml")


def _missing_keys(model: type[BaseModel], data: Any, where: str = "") -> list[str]:
    """Keys of `model` that `data` leaves to their defaults, recursively."""
    if not isinstance(data, dict):
        return []
    keys = {f.alias or name: f for name, f in model.model_fields.items()}
    optional: set[str] = set()
    if model is TicketDeal:
        # An edition deals either fixed piles or an announced mix; `count` belongs to the mix.
        optional = {"deal", "mix", "count"}
        if ("deal" in data) == ("mix" in data):
            return [f"{where}deal|mix"]
        if "mix" in data and "count" not in data:
            return [f"{where}count"]
    out = []
    for key, f in keys.items():
        if key not in data:
            if key not in optional:
                out.append(f"{where}{key}")
            continue
        inner = f.annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            out += _missing_keys(inner, data[key], f"{where}{key}.")
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_knob_is_set_explicitly(name: str) -> None:
    data = yaml.safe_load((MAPS / "variants" / f"{name}.yaml").read_text(encoding="utf-8"))
    assert _missing_keys(Variant, data) == [], f"{name}.yaml leaves these knobs to the model's defaults"


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_fits_its_board(name: str) -> None:
    variant, board = _load(name)
    assert set(variant.cards.colors) == set(board.colors), "one card colour per board colour"
    lengths = {r.length for r in board.routes}
    assert lengths <= set(variant.scoring.routes), f"no score for lengths {lengths - set(variant.scoring.routes)}"
    piles = {pile: board.tickets_in(decks) for pile, decks in variant.tickets.piles.items()}
    for pile, cards in piles.items():
        assert cards, f"pile {pile} is empty"
    # Setup for the most players must be possible from the piles.
    setup = variant.tickets.setup
    for deal in setup.deal:
        assert variant.players.max * deal.count <= len(piles[deal.pile]), f"not enough {deal.pile} tickets for setup"
    if setup.mix:
        assert variant.players.max * setup.count <= sum(len(piles[p]) for p in setup.mix)


# name: (trains, stations, hand, cards total, locomotives, scoring table, longest path bonus, all tracks from)
SECTION_7 = {
    "usa": (45, (), 4, 110, 14, {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}, 10, 4),
    "europe": (45, (1, 2, 3), 4, 110, 14, {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 8: 21}, 10, 4),
    "marklin": (45, (), 4, 118, 14, {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}, 0, 4),
    "paris": (15, (), 2, 46, 8, {1: 1, 2: 2, 3: 4, 4: 7}, 0, 3),
}


@pytest.mark.parametrize("name", sorted(SECTION_7))
def test_section_7_figures(name: str) -> None:
    trains, stations, hand, total, locos, table, longest, all_from = SECTION_7[name]
    v, _ = _load(name)
    assert v.trains == trains
    assert v.stations.costs == stations
    assert v.hand == hand
    assert v.cards.total == total
    assert v.cards.locomotives == locos
    assert v.scoring.routes == table
    assert v.scoring.bonuses.longest_path == longest
    assert v.parallel.all_tracks_from == all_from
    assert v.end.trains_at_most == 2
    assert (v.face_up.count, v.face_up.redeal_locomotives) == (5, 3)


def test_usa() -> None:
    v, b = _load("usa")
    assert len(b.tickets_in(v.tickets.piles["main"])) == 30
    assert [(d.pile, d.count) for d in v.tickets.setup.deal] == [("main", 3)]
    assert (v.tickets.setup.keep_min, v.tickets.setup.returned_default) == (2, "bottom")
    assert v.scoring.tie_breaks == ("most-tickets", "longest-path")
    assert v.players.min == 2 and v.players.max == 5


def test_europe_variants_differ_only_in_their_tickets() -> None:
    """All four are the Europe rules (docs/rules.md#europe: same board, same rules otherwise)."""
    dumps = []
    for name in EUROPE:
        v, _ = _load(name)
        dumps.append(v.model_dump(exclude={"name", "description", "tickets"}))
    assert all(d == dumps[0] for d in dumps)
    v, _ = _load("europe")
    assert v.stations.unused_points == 4
    assert v.scoring.tie_breaks == ("most-tickets", "fewest-stations", "longest-path-bonus")
    assert v.cards.colors == {c: 12 for c in ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")}


@pytest.mark.parametrize(
    ("name", "long", "regular"),
    [("europe", 6, 40), ("europe-1912", 6, 49), ("mega-europe", 12, 89)],
)
def test_europe_ticket_piles(name: str, long: int, regular: int) -> None:
    v, b = _load(name)
    t = v.tickets
    assert len(b.tickets_in(t.piles["long"])) == long
    assert len(b.tickets_in(t.piles["regular"])) == regular
    assert t.leftover_at_setup["long"] == "box", "undealt long tickets go back to the box"
    assert t.setup.returned_to("long") == "box"
    assert [(d.pile, d.count) for d in t.draw.deal] == [("regular", 3)]
    assert t.draw.keep_min == 1 and t.draw.returned_to("regular") == "bottom"


@pytest.mark.parametrize("name", ["europe", "europe-1912"])
def test_europe_and_1912_setup(name: str) -> None:
    t = _load(name)[0].tickets
    assert [(d.pile, d.count) for d in t.setup.deal] == [("long", 1), ("regular", 3)]
    assert t.setup.keep_min == 2 and t.setup.keep_max == {}
    assert t.setup.returned_to("regular") == "box"


def test_mega_europe_setup() -> None:
    t = _load("mega-europe")[0].tickets
    assert [(d.pile, d.count) for d in t.setup.deal] == [("long", 2), ("regular", 5)]
    assert t.setup.keep_max == {"long": 1}
    assert t.setup.keep_min == 3
    assert t.setup.returned_to("regular") == "shuffled-bottom"


def test_big_cities() -> None:
    v, b = _load("big-cities")
    t = v.tickets
    assert len(b.tickets_in(t.piles["main"])) == 45
    assert not any(b.decks[d].long for d in t.piles["main"])
    assert [(d.pile, d.count) for d in t.setup.deal] == [("main", 5)]
    assert t.setup.keep_min == 2 and t.setup.returned_to("main") == "shuffled-bottom"
    assert [(d.pile, d.count) for d in t.draw.deal] == [("main", 4)]
    assert t.draw.keep_min == 1


def test_marklin() -> None:
    v, b = _load("marklin")
    assert v.cards.colors == {c: 11 for c in b.colors}
    assert (v.cards.big_locomotives.count, v.cards.big_locomotives.min_length) == (6, 4)
    assert v.cards.passengers == 10 and v.face_up.redeal_passengers == 3
    assert v.passengers.count == 3
    t = v.tickets
    assert len(b.tickets_in(t.piles["short"])) == 23 and len(b.tickets_in(t.piles["long"])) == 23
    assert (t.setup.mix, t.setup.count, t.setup.keep_min) == (("short", "long"), 4, 2)
    assert t.setup.returned_default == "reshuffle"
    assert (t.draw.mix, t.draw.count, t.draw.keep_min) == (("short", "long"), 4, 1)
    assert t.draw.returned_default == "bottom"
    assert v.scoring.bonuses.most_tickets == 10 and v.scoring.bonuses.goods
    assert v.scoring.tie_breaks == ("most-tickets", "most-goods")
    assert b.goods, "Märklin scores goods, so the board must place them"


def test_paris() -> None:
    v, b = _load("paris")
    assert (v.players.min, v.players.max) == (2, 4)
    assert v.cards.colors == {"blue": 6, "red": 6, "yellow": 6, "green": 6, "purple": 6, "white": 8}
    assert v.cards.locomotive_name == "joker"
    t = v.tickets
    assert len(b.tickets_in(t.piles["main"])) == 20
    assert [(d.pile, d.count) for d in t.setup.deal] == [("main", 2)] and t.setup.keep_min == 1
    assert [(d.pile, d.count) for d in t.draw.deal] == [("main", 2)] and t.draw.keep_min == 1
    assert (set(v.flags.colors), v.flags.points) == ({"blue", "white", "red"}, 4)
    assert v.scoring.tie_breaks == ("most-tickets",)


# --- examples/: original fan boards that show the whole format ---

EXAMPLES = ROOT / "examples"


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_validates_clean(path) -> None:
    result = CliRunner().invoke(cli, ["validate", "--strict", str(path)])
    assert result.exit_code == 0, result.output
    assert "error" not in result.output and "warning" not in result.output


def test_vellmar_uses_every_part_of_the_format() -> None:
    variant, board = load_variant(EXAMPLES / "vellmar-rules.yaml")
    assert any(p.is_country for p in board.places)
    assert all(p.x is not None for p in board.places), "an x/y board"
    assert board.drawing.car_length
    routes = board.routes
    assert any(len(r.tracks) == 3 for r in routes) and any(len(r.tracks) == 2 for r in routes)
    assert any(r.ferry for r in routes) and any(r.tunnel for r in routes)
    assert any(r.ferry and r.tunnel for r in routes) and variant.ferry_tunnels
    assert any(r.bend for r in routes)
    assert {g.color for g in board.goods} == {"black", "red", "yellow", "white"}
    assert len(board.deck_names) >= 3 and any(info.long for info in board.decks.values())
    assert any(len(t.decks) > 1 for t in board.tickets), "a card in two decks"
    assert variant.tickets.add and variant.tickets.draw.mix and variant.tickets.setup.keep_max
    assert variant.stations.costs and variant.passengers.count and variant.flags.colors
    assert variant.cards.big_locomotives.count and variant.cards.passengers
    assert _missing_keys(Variant, yaml.safe_load((EXAMPLES / "vellmar-rules.yaml").read_text(encoding="utf-8"))) == []
