"""Board statistics: what a designer looks at to judge a board's size and balance.

`board_stats` counts places, tracks, spaces, colours, lengths, ferries, tunnels,
tickets per deck and the shortest path of every ticket (in spaces, never passing
through a country). `variant_stats` adds what depends on the rules: cards per
colour against the spaces to claim, and trains in play against the board.
Both return plain JSON-ready dicts; `render_text` prints them as tables.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .boardgraph import PlaceGraph
from .model.board import GRAY, Board, Ticket
from .model.variant import Variant


def ticket_paths(graph: PlaceGraph, tickets: list[Ticket] | tuple[Ticket, ...]) -> list[int | None]:
    """The shortest path of each ticket in spaces, never passing through a country (None when its ends
    are not connected).

    Paths are symmetric, so tickets are grouped under whichever end most tickets
    share, and one search per group (stopping once its targets are settled) serves them all.
    """
    index = graph.index
    ends = Counter(end for t in tickets for end in {t.from_, t.to})
    groups: dict[str, set[int]] = {}
    for t in tickets:
        a, b = (t.from_, t.to) if ends[t.from_] >= ends[t.to] else (t.to, t.from_)
        if b in index:
            groups.setdefault(a, set()).add(index[b])
    found = {a: graph.spaces_from(index[a], set(targets)) for a, targets in groups.items() if a in index}
    out: list[int | None] = []
    for t in tickets:
        a, b = (t.from_, t.to) if ends[t.from_] >= ends[t.to] else (t.to, t.from_)
        dist = found.get(a)
        out.append(dist[index[b]] if dist is not None and b in index else None)
    return out


def _sorted_by_key(counter: Counter) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter, key=lambda k: (isinstance(k, str), k))}


def _colors_in_order(board: Board, *counters: Counter) -> list[str]:
    """The board's colours in their declared order, then gray, then any others seen."""
    order = list(board.colors) + [GRAY]
    seen = set().union(*counters)
    return [c for c in order if c in seen] + sorted(seen - set(order))


def _decks_in_order(board: Board) -> list[str]:
    """Decks described under `decks:` in their order, then any others in order of first use."""
    used = board.deck_names
    return [d for d in board.decks if d in used] + [d for d in used if d not in board.decks]


def _ticket_row(t: Ticket, spaces: int | None) -> dict[str, Any]:
    return {"from": t.from_, "to": t.to, "decks": list(t.decks), "value": t.points, "shortest_path": spaces}


def board_stats(board: Board, added: tuple[Ticket, ...] | list[Ticket] = ()) -> dict[str, Any]:
    """The board's figures as a JSON-ready dict (keys documented in docs/walkthrough.md).

    `added`: tickets a variant adds (`tickets.add`); they count in `tickets_by_deck` and are
    listed under `tickets`, after the board's, like any other ticket.
    """
    added = list(added)
    all_tickets = list(board.tickets) + added
    graph = PlaceGraph(board)
    spaces_by_color: Counter = Counter()
    tracks_by_color: Counter = Counter()
    tracks_by_length: Counter = Counter()
    parallel: Counter = Counter()
    ferries = ferry_locomotives = tunnels = 0
    for r in board.routes:
        n = len(r.tracks)
        if n > 1:
            parallel[n] += 1
        for color in r.tracks:
            spaces_by_color[color] += r.length
            tracks_by_color[color] += 1
            tracks_by_length[r.length] += 1
        if r.ferry:
            ferries += n
            ferry_locomotives += n * r.ferry
        if r.tunnel:
            tunnels += n
    colors = _colors_in_order(board, spaces_by_color)
    decks: dict[str, dict[str, int]] = {}
    order = _decks_in_order(board)
    order += [d for d in dict.fromkeys(d for t in added for d in t.decks) if d not in order]
    for deck in order:
        cards = [t for t in all_tickets if deck in t.decks]
        decks[deck] = {"count": len(cards), "points": sum(t.points for t in cards)}
    countries = sum(1 for p in board.places if p.is_country)
    return {
        "places": len(board.places),
        "cities": len(board.places) - countries,
        "countries": countries,
        "tracks": sum(tracks_by_color.values()),
        "routes": len({frozenset(r.ends) for r in board.routes}),
        "parallel": {"2": parallel[2], "3": parallel[3]},
        "spaces": sum(spaces_by_color.values()),
        "spaces_by_color": {c: spaces_by_color[c] for c in colors},
        "tracks_by_color": {c: tracks_by_color[c] for c in colors},
        "tracks_by_length": _sorted_by_key(tracks_by_length),
        "ferries": ferries,
        "ferry_locomotives": ferry_locomotives,
        "tunnels": tunnels,
        "tickets_by_deck": decks,
        "degree": {p.id: len(graph.adj[graph.index[p.id]]) for p in board.places},
        "tickets": [_ticket_row(t, n) for t, n in zip(all_tickets, ticket_paths(graph, all_tickets))],
    }


def variant_stats(variant: Variant, board: Board, figures: dict[str, Any] | None = None) -> dict[str, Any]:
    """Figures that depend on the rules: cards against spaces, trains against the board, ticket piles."""
    figures = figures or board_stats(board)
    spaces = figures["spaces_by_color"]
    tracks = figures["tracks_by_color"]
    by_color = {}
    for color, cards in variant.cards.colors.items():
        s = spaces.get(color, 0)
        by_color[color] = {
            "cards": cards,
            "spaces": s,
            "tracks": tracks.get(color, 0),
            "cards_per_space": round(cards / s, 3) if s else None,
        }
    total_spaces = figures["spaces"]
    by_players = {}
    for n in range(variant.players.min, variant.players.max + 1):
        trains = n * variant.trains
        by_players[str(n)] = {
            "trains": trains,
            "share_of_spaces": round(trains / total_spaces, 3) if total_spaces else None,
        }
    extra = list(variant.tickets.add)
    piles_src = dict(variant.tickets.piles) or {"main": tuple(board.deck_names) + tuple(d for t in extra for d in t.decks)}
    piles = {}
    for pile, decks in piles_src.items():
        wanted = set(decks)
        cards = board.tickets_in(decks) + [t for t in extra if wanted.intersection(t.decks)]
        piles[pile] = {"count": len(cards), "points": sum(t.points for t in cards)}
    return {
        "name": variant.name,
        "players": {"min": variant.players.min, "max": variant.players.max},
        "cards": {
            "total": variant.cards.total,
            "wild_name": variant.cards.locomotive_name,
            "locomotives": variant.cards.locomotives,
            "gray_spaces": spaces.get(GRAY, 0),
            "by_color": by_color,
        },
        "trains": {"per_player": variant.trains, "board_spaces": total_spaces, "by_players": by_players},
        "ticket_piles": piles,
    }


def stats(board: Board, variant: Variant | None = None) -> dict[str, Any]:
    """All figures for `board`, plus a `variant` section when a variant is given."""
    figures = board_stats(board, variant.tickets.add if variant is not None else ())
    if variant is not None:
        figures["variant"] = variant_stats(variant, board, figures)
    return figures


# --- text output ---


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _table(headers: list[str], rows: list[list[Any]], right: set[int] | None = None) -> list[str]:
    """A plain-text table: columns padded, numbers (and columns in `right`) aligned right."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = {i for i in range(len(headers)) if rows and all(isinstance(r[i], (int, float)) or r[i] is None for r in rows)}
    numeric |= right or set()

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if i in numeric else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells]


def render_text(board: Board, figures: dict[str, Any]) -> str:
    """The figures as readable tables, with place names instead of ids."""
    names = {p.id: p.name for p in board.places}
    f = figures
    out = [
        f"{board.meta.title}",
        f"places: {f['places']} ({_n(f['cities'], 'city', 'cities')}, {_n(f['countries'], 'country', 'countries')})",
        f"routes: {f['routes']} ({f['tracks']} tracks; {f['parallel']['2']} double, {f['parallel']['3']} triple), "
        f"{f['spaces']} spaces",
        f"ferries: {_n(f['ferries'], 'track')} needing {_n(f['ferry_locomotives'], 'locomotive')}; "
        f"tunnels: {_n(f['tunnels'], 'track')}",
        "",
    ]
    out += _table(
        ["colour", "tracks", "spaces"],
        [[c, f["tracks_by_color"][c], f["spaces_by_color"][c]] for c in f["spaces_by_color"]],
    )
    out.append("")
    out += _table(["length", "tracks"], [[int(k), v] for k, v in f["tracks_by_length"].items()])
    if f["tickets_by_deck"]:
        out.append("")
        out += _table(["deck", "tickets", "points"], [[d, v["count"], v["points"]] for d, v in f["tickets_by_deck"].items()])
    out.append("")
    degree = sorted(f["degree"].items(), key=lambda kv: (-kv[1], names[kv[0]]))
    out += _table(["place", "degree"], [[names[p], d] for p, d in degree])
    if f["tickets"]:
        out.append("")
        rows = [
            [f"{names[t['from']]} - {names[t['to']]}", " ".join(t["decks"]), t["value"], t["shortest_path"]]
            for t in f["tickets"]
        ]
        out += _table(["ticket", "decks", "value", "shortest path"], rows)
    v = f.get("variant")
    if v:
        low, high = v["players"]["min"], v["players"]["max"]
        out += ["", f"variant: {v['name']} ({low if low == high else f'{low}-{high}'} players)"]
        cards = v["cards"]
        out.append(f"cards: {cards['total']} ({cards['locomotives']} wild: {cards['wild_name']}); gray spaces: {cards['gray_spaces']}")
        out.append("")
        out += _table(
            ["colour", "cards", "tracks", "spaces", "cards/space"],
            [[c, x["cards"], x["tracks"], x["spaces"], x["cards_per_space"]] for c, x in cards["by_color"].items()],
        )
        out.append("")
        trains = v["trains"]
        out.append(f"trains: {trains['per_player']} per player; the board has {trains['board_spaces']} spaces")
        out += _table(
            ["players", "trains", "share of spaces"],
            [[int(n), x["trains"], x["share_of_spaces"]] for n, x in trains["by_players"].items()],
        )
        out.append("")
        out += _table(["pile", "tickets", "points"], [[p, x["count"], x["points"]] for p, x in v["ticket_piles"].items()])
    return "\n".join(out)
