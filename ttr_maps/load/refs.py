"""Cross-reference checks (R codes): ids that must exist, be unique or agree between board and variant.

They read the parsed data, not the models, so they also run when a file has schema
errors and every problem of a file is reported in one run. Values of the wrong
shape are skipped here: the schema check reports them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from ..diagnostics import Diagnostic, Severity, did_you_mean
from ..model.board import DEFAULT_COLORS, GRAY, default_route_ids
from ..model.variant import Cards
from .source import PathT, Source

DEFAULT_PILE = "main"


class _Out:
    """Adds R diagnostics, skipping nodes that already carry an error (one problem per spot)."""

    def __init__(self, src: Source, out: list[Diagnostic]):
        self.src = src
        self.out = out
        self.taken = {(d.line, d.col) for d in out if d.path == src.path and d.severity is Severity.ERROR}

    def __call__(
        self, loc: PathT, code: str, message: str | Callable[[], str], severity: Severity = Severity.ERROR, *, key: bool = False
    ) -> None:
        """Add a diagnostic; `message` may be a function, so a flood of problems costs no suggestions."""
        if self.src.full:
            self.src.omitted += 1
            return
        d = self.src.diag(loc, code, message if isinstance(message, str) else message(), severity, key=key)
        if (d.line, d.col) in self.taken and loc in self.src.value_pos:
            return
        self.src.report(self.out, d)


def _get(data: Any, *keys: Any) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _items(data: Any, key: str) -> Iterator[tuple[int, dict]]:
    seq = _get(data, key)
    if isinstance(seq, list):
        for i, item in enumerate(seq):
            if isinstance(item, dict):
                yield i, item


def _strings(seq: Any) -> Iterator[tuple[int, str]]:
    if isinstance(seq, list):
        for i, item in enumerate(seq):
            if isinstance(item, str):
                yield i, item


def _deck_names(seq: Any) -> set[str]:
    """A ticket's decks; a number (`1910`, a schema error) still counts, so no follow-on error appears."""
    if not isinstance(seq, list):
        return set()
    return {str(d) for d in seq if isinstance(d, (str, int)) and not isinstance(d, bool)}


def _ticket_ends(ticket: dict) -> Iterator[tuple[tuple, Any]]:
    """(path inside the ticket, place id) of its start, its destination and its other destinations (`or`)."""
    yield ("from",), ticket.get("from")
    yield ("to",), ticket.get("to")
    for j, dest in _items(ticket, "or"):
        yield ("or", j, "to"), dest.get("to")


def _keys(mapping: Any) -> list[str]:
    return [str(k) for k in mapping] if isinstance(mapping, dict) else []


def board_colors(data: Any) -> list[str]:
    """The board's card colours as written (the default set when `colors` is left out)."""
    colors = _get(data, "colors")
    if colors is None:
        return list(DEFAULT_COLORS)
    return [c for _, c in _strings(colors)]


def place_ids(data: Any) -> list[str]:
    return [p["id"] for _, p in _items(data, "places") if isinstance(p.get("id"), str)]


def board_decks(data: Any) -> set[str]:
    """Decks the board has: those its tickets belong to and those described under `decks`."""
    decks = set(_keys(_get(data, "decks")))
    for _, ticket in _items(data, "tickets"):
        decks.update(_deck_names(ticket.get("decks")))
    return decks


def _choices(names: Any) -> str:
    names = sorted(set(names))
    return ", ".join(names) if names else "(none)"


def check_board(src: Source, out: list[Diagnostic]) -> None:
    """Place ids unique and known, route colours known, described decks used."""
    emit = _Out(src, out)
    data = src.data
    ids: dict[str, int] = {}
    for i, place in _items(data, "places"):
        pid = place.get("id")
        if not isinstance(pid, str):
            continue
        if pid in ids:
            first = src.pos(("places", ids[pid], "id"))[0]
            emit(("places", i, "id"), "R001", f"duplicate place id '{pid}' (first at line {first}); give each place its own id")
        else:
            ids[pid] = i

    def place_ref(loc: PathT, pid: Any) -> None:
        if isinstance(pid, str) and pid not in ids:
            emit(loc, "R002", lambda: f"unknown place '{pid}'{did_you_mean(pid, ids)}; declare it under places")

    colors = board_colors(data)
    first_color: dict[str, int] = {}
    for j, color in _strings(_get(data, "colors")):
        if color == GRAY:
            emit(("colors", j), "R003", "'gray' is implicit (a gray track takes any one colour); remove it from colors")
        elif color in first_color:
            first = src.pos(("colors", first_color[color]))
            emit(
                ("colors", j),
                "R009",
                f"colour '{color}' is listed twice in colors (first at line {first[0]}, column {first[1]}); remove this one",
            )
        else:
            first_color[color] = j
    known_colors = set(colors) | {GRAY}
    entries = _entries(src, data, emit)
    for i, route in _items(data, "routes"):
        place_ref(("routes", i, "from"), route.get("from"))
        place_ref(("routes", i, "to"), route.get("to"))
        for end, key in (("from", "from_entry"), ("to", "to_entry")):
            name, pid = route.get(key), route.get(end)
            if isinstance(name, str) and isinstance(pid, str) and pid in ids and name not in entries.get(pid, ()):
                have = entries.get(pid, [])
                emit(("routes", i, key), "R014", lambda name=name, pid=pid, have=have: (
                    f"'{pid}' has no entry '{name}'{did_you_mean(name, have)}; "
                    + (f"its entries are {', '.join(have)}" if have else "give the place `entries` first, or remove the key")))
        for j, color in _strings(route.get("tracks")):
            if color not in known_colors:
                emit(
                    ("routes", i, "tracks", j),
                    "R004",
                    f"unknown colour '{color}'{did_you_mean(color, known_colors)}; the board's colours are {', '.join(c for c in colors if c != GRAY)} and gray",
                )
    _route_ids(src, data, emit)
    _mixed_positions(src, data, emit)
    geographic = any("lat" in place or "lon" in place for _, place in _items(data, "places"))
    if geographic:
        for i, route in _items(data, "routes"):
            for j, point in enumerate(route.get("bend") or ()):
                if not (isinstance(point, list) and len(point) == 2 and all(isinstance(v, (int, float)) for v in point)):
                    continue  # the schema check reports its shape
                lat, lon = point
                if not (-85 <= lat <= 85 and -180 <= lon <= 180):
                    emit(
                        ("routes", i, "bend", j),
                        "R008",
                        f"bend point [{lat}, {lon}] is not a [lat, lon]: this board places by lat/lon, so bend points are "
                        "[lat, lon] too (lat -85..85, lon -180..180)",
                    )
    for i, ticket in _items(data, "tickets"):
        for end, pid in _ticket_ends(ticket):
            place_ref(("tickets", i) + end, pid)
    for i, goods in _items(data, "goods"):
        place_ref(("goods", i, "place"), goods.get("place"))
    used: set[str] = set()
    for _, ticket in _items(data, "tickets"):
        used.update(_deck_names(ticket.get("decks")))
    for name in _keys(_get(data, "decks")):
        if name not in used:
            emit(
                ("decks", _raw_key(_get(data, "decks"), name)),
                "R007",
                f"deck '{name}' is described but no ticket belongs to it{did_you_mean(name, used)}; add it to some tickets' decks or remove it",
                Severity.WARNING,
                key=True,
            )


def _route_ids(src: Source, data: Any, emit: _Out) -> None:
    """R012: a route's own `id` is another route's id (its own, or the default `from-to` it would have)."""
    items = list(_items(data, "routes"))
    ids = default_route_ids([(r.get("from"), r.get("to"), r.get("id")) for _, r in items])
    first: dict[str, int] = {}
    for (i, route), rid in zip(items, ids):
        if rid is None:
            continue
        if rid in first:
            line = src.pos(("routes", first[rid]))[0]
            emit(("routes", i, "id"), "R012", f"route id '{rid}' is taken by the route at line {line}; give each route its own id")
        else:
            first[rid] = i


def _entries(src: Source, data: Any, emit: _Out) -> dict[str, list[str]]:
    """Each place's entry ids (docs/rules.md#entry-points); R014 for one named twice in a place, R010 for one
    placed by the other kind of position than its place."""
    out: dict[str, list[str]] = {}
    for i, place in _items(data, "places"):
        pid = place.get("id")
        geo = "lat" in place or "lon" in place
        names: list[str] = []
        for j, entry in _items(place, "entries"):
            eid = entry.get("id")
            if isinstance(eid, str):
                if eid in names:
                    emit(("places", i, "entries", j, "id"), "R014", f"entry '{eid}' is listed twice in '{pid}'; give each entry its own id")
                else:
                    names.append(eid)
            egeo, exy = "lat" in entry or "lon" in entry, "x" in entry or "y" in entry
            if egeo != exy and egeo != geo:
                kind, other = ("lat/lon", "x/y") if egeo else ("x/y", "lat/lon")
                emit(("places", i, "entries", j), "R010", f"entry '{eid}' of '{pid}' is placed by {kind}, but its place by {other}; use {other}")
        if isinstance(pid, str):
            out[pid] = names
    return out


def _mixed_positions(src: Source, data: Any, emit: _Out) -> None:
    """All places by lat/lon or all by x/y: the two kinds of position cannot be drawn on one board.
    The kind most places use (on a tie, the first place's) decides; each place of the other is reported."""
    kinds: dict[str, list[int]] = {"lat/lon": [], "x/y": []}
    for i, place in _items(data, "places"):
        geo, xy = "lat" in place or "lon" in place, "x" in place or "y" in place
        if geo != xy:  # a place with both or neither is a schema problem
            kinds["lat/lon" if geo else "x/y"].append(i)
    if not kinds["lat/lon"] or not kinds["x/y"]:
        return
    geo_first = kinds["lat/lon"][0] < kinds["x/y"][0]
    main = "lat/lon" if (len(kinds["lat/lon"]), geo_first) > (len(kinds["x/y"]), not geo_first) else "x/y"
    other = "x/y" if main == "lat/lon" else "lat/lon"
    places = _get(data, "places")
    example = places[kinds[main][0]].get("id")
    line = src.pos(("places", kinds[main][0]))[0]
    for i in kinds[other]:
        pid = places[i].get("id")
        emit(
            ("places", i),
            "R010",
            f"place '{pid}' is placed by {other}, but the board's other places use {main} (e.g. '{example}', line {line}); "
            f"the two cannot be drawn on one board, so give every place {main}",
        )


def _raw_key(mapping: dict, text: str) -> Any:
    return next((k for k in mapping if str(k) == text), text)


def check_variant(src: Source, board: Source, out: list[Diagnostic], deck_files: Sequence[Source] = ()) -> None:
    """Decks, piles, colours and places a variant names must exist on its board (or in the variant or its deck files)."""
    emit = _Out(src, out)
    data, board_data = src.data, board.data
    if not isinstance(data, dict) or not isinstance(board_data, dict):
        return
    tickets = _get(data, "tickets")
    added = list(_items(tickets, "add"))
    decks = board_decks(board_data)
    for _, ticket in added + [t for f in deck_files for t in _items(f.data, "tickets")]:
        decks.update(_deck_names(ticket.get("decks")))

    piles_data = _get(tickets, "piles")
    piles = _keys(piles_data) if isinstance(piles_data, dict) and piles_data else [DEFAULT_PILE]
    if isinstance(piles_data, dict):
        for pile, pile_decks in piles_data.items():
            for j, deck in _strings(pile_decks):
                if deck not in decks:
                    emit(
                        ("tickets", "piles", pile, j),
                        "R005",
                        f"unknown deck '{deck}'{did_you_mean(deck, decks)}; the board's decks are {_choices(decks)}",
                    )

    def pile_ref(loc: PathT, pile: Any, *, key: bool = False) -> None:
        if isinstance(pile, str) and pile not in piles:
            emit(loc, "R006", f"unknown pile '{pile}'{did_you_mean(pile, piles)}; the piles are {_choices(piles)} (declared under tickets.piles)", key=key)

    for section in ("setup", "draw"):
        deal = _get(tickets, section)
        if deal is None:
            if DEFAULT_PILE not in piles:
                emit(
                    ("tickets",),
                    "R006",
                    f"tickets.{section} is left out, so it deals from pile '{DEFAULT_PILE}', which tickets.piles does not declare; add tickets.{section}",
                )
            continue
        for j, d in _items(deal, "deal"):
            pile_ref(("tickets", section, "deal", j, "pile"), d.get("pile"))
        for j, pile in _strings(_get(deal, "mix")):
            pile_ref(("tickets", section, "mix", j), pile)
        for key in ("keep_max", "returned"):
            mapping = _get(deal, key)
            if isinstance(mapping, dict):
                for pile in mapping:
                    pile_ref(("tickets", section, key, pile), str(pile), key=True)
    leftover = _get(tickets, "leftover_at_setup")
    if isinstance(leftover, dict):
        for pile in leftover:
            pile_ref(("tickets", "leftover_at_setup", pile), str(pile), key=True)

    colors = board_colors(board_data)
    card_colors = _get(data, "cards", "colors")
    if card_colors is None:
        defaults = list(Cards.model_fields["colors"].get_default(call_default_factory=True))
        strange = [c for c in defaults if c not in colors]
        if strange:
            emit(
                ("cards",),
                "R004",
                f"cards.colors is left out, so the variant uses the default colours, and the board lacks {', '.join(strange)}; "
                f"list the board's colours ({', '.join(colors)}) under cards.colors",
            )
    elif isinstance(card_colors, dict):
        for color in card_colors:
            if str(color) not in colors:
                emit(
                    ("cards", "colors", color),
                    "R004",
                    f"colour '{color}' is not one of the board's colours{did_you_mean(str(color), colors)}; the board's colours are {', '.join(colors)}",
                    key=True,
                )
    for j, color in _strings(_get(data, "flags", "colors")):
        if color not in colors:
            emit(("flags", "colors", j), "R004", f"colour '{color}' is not one of the board's colours{did_you_mean(color, colors)}; use one of {', '.join(colors)}")
    route_names = [r for r in default_route_ids([(r.get("from"), r.get("to"), r.get("id")) for _, r in _items(board_data, "routes")]) if r]
    stand_in_routes = _get(data, "stand_ins", "routes")
    if isinstance(stand_in_routes, dict):
        for name in stand_in_routes:
            if str(name) not in route_names:
                emit(
                    ("stand_ins", "routes", name),
                    "R013",
                    f"unknown route '{name}'{did_you_mean(str(name), route_names)}; name a route by its id (`from-to` unless the board gives one)",
                    key=True,
                )
    ids = set(place_ids(board_data))
    for i, ticket in added:
        for end, pid in _ticket_ends(ticket):
            if isinstance(pid, str) and pid not in ids:
                emit(("tickets", "add", i) + end, "R002", f"unknown place '{pid}'{did_you_mean(pid, ids)}; use the id of a place on the board")


def check_deck(src: Source, board: Source, out: list[Diagnostic]) -> None:
    """The places a deck file's tickets name must be on the board."""
    ids = set(place_ids(board.data))
    emit = _Out(src, out)
    for i, ticket in _items(src.data, "tickets"):
        for end, pid in _ticket_ends(ticket):
            if isinstance(pid, str) and pid not in ids:
                emit(("tickets", i) + end, "R002", f"unknown place '{pid}'{did_you_mean(pid, ids)}; use the id of a place on the board {board.path}")
