"""What `tickets score` and `tickets compare` print: the figures as tables and plain-language findings."""

from __future__ import annotations

from typing import Any

from ..checks.graph.ticket_value_mismatch import OPTIONS as G006_OPTIONS
from ..model.board import Board
from .figures import BOTTLENECK, OVERUSED, REACH_BANDS, SHAPE, DeckFigures, reach_band
from .published import published, ranges

#: A ticket's value may differ from its shortest path by this many points before a finding says so (as G006).
TOLERANCE = G006_OPTIONS["tolerance"]
SHOWN = 8  # rows of the longer lists


def _names(board: Board) -> dict[str, str]:
    return {p.id: p.name for p in board.places}


def published_reach_bands() -> dict[str, tuple[float, float]]:
    """Per reach band, the lowest and highest share of tickets over the published decks that set the ranges."""
    data = published()
    out: dict[str, list[float]] = {reach_band(b): [] for b in REACH_BANDS}
    for name, d in data["decks"].items():
        if name in data["special"]:
            continue
        for key in out:
            out[key].append(sum(1 for r in d["reach"] if reach_band(r) == key) / len(d["reach"]))
    return {k: (round(min(v), 3), round(max(v), 3)) for k, v in out.items()}


def findings(fig: DeckFigures) -> list[str]:
    """Plain-language findings a designer can act on, most important first."""
    names = _names(fig.paths.board)
    out: list[str] = []
    for a, b, kind in fig.duplicates():
        ta, tb = fig.tickets[a].ticket, fig.tickets[b].ticket
        what = "the same ticket as" if kind == "duplicate" else "nearly the same ticket as"
        out.append(f"{names[ta.from_]}–{names[ta.to]} is {what} {names[tb.from_]}–{names[tb.to]}")
    for t in fig.tickets:
        if t.path is None:
            out.append(f"{names[t.ticket.from_]}–{names[t.ticket.to]} cannot be completed: no path joins its ends without passing a country")
    avg = fig.average_uses
    for place, n in fig.overused_places():
        out.append(f"{names[place]} is in {n} tickets, {n / avg:.1f}x the average ({avg:.1f})")
    for e, load in fig.bottlenecks():
        edge = fig.paths.edges[e]
        out.append(f"route {names[edge.a]}–{names[edge.b]} carries {round(load, 1):g} tickets' shortest paths "
                   f"({load / fig.mean_load:.1f}x the mean of the routes in use)")
    unused = fig.unused_places()
    if unused:
        shown = ", ".join(names[p] for p in unused[:SHOWN]) + (f" and {len(unused) - SHOWN} more" if len(unused) > SHOWN else "")
        out.append(f"{len(unused)} of {len(fig.paths.places)} places end no ticket: {shown}")
    hist = fig.value_histogram()
    lo = min((t.ticket.points for t in fig.tickets), default=0)
    for key, count in hist.items():
        if count == 0 and int(key.split("-")[0]) > lo:
            out.append(f"the deck has no ticket worth {key}")
    off = [t for t in fig.tickets if t.path is not None and abs(t.ticket.points - t.path) > TOLERANCE]
    for t in off[:SHOWN]:
        out.append(f"{names[t.ticket.from_]}–{names[t.ticket.to]} is worth {t.ticket.points} for a shortest path of {t.path} spaces")
    if len(off) > SHOWN:
        out.append(f"{len(off) - SHOWN} more tickets' values differ from their shortest paths by more than {TOLERANCE}")
    shape = fig.shape()
    for key, (rlo, rhi) in ranges().items():
        v = shape[key]
        if v < rlo or v > rhi:
            side = "below" if v < rlo else "above"
            out.append(f"{SHAPE[key]}: {v:g}, {side} the published decks' {rlo:g}-{rhi:g}")
    return out


def score_dict(fig: DeckFigures, label: str) -> dict[str, Any]:
    out = {"deck": label, "board": fig.paths.board.meta.title, **fig.as_dict()}
    out["published"] = {"ranges": {k: list(v) for k, v in ranges().items()},
                        "reach_histogram": {k: list(v) for k, v in published_reach_bands().items()}}
    out["findings"] = findings(fig)
    return out


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(vals: list[str]) -> str:
        return "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(vals, widths))).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells]


def score_text(fig: DeckFigures, label: str) -> str:
    names = _names(fig.paths.board)
    d = fig.as_dict()
    out = [f"{label}: {d['tickets']} tickets on {fig.paths.board.meta.title} "
           f"({d['places']} places, {d['routes']} routes, diameter {d['diameter']} spaces)", ""]
    shape = d["shape"]
    out += _table(["figure", "this deck", "published"],
                  [[SHAPE[k], f"{shape[k]:g}", f"{lo:g}-{hi:g}"] for k, (lo, hi) in ranges().items()])
    out.append("")
    bands = published_reach_bands()
    reach = d["reach_histogram"]
    out += _table(["reach (share of diameter)", "this deck", "published"],
                  [[k, f"{reach[k]:.0%}", f"{lo:.0%}-{hi:.0%}"] for k, (lo, hi) in bands.items()])
    out.append("")
    out += _table(["value", "tickets", ""], [[k, v, "#" * v] for k, v in d["values"]["histogram"].items()])
    out.append("")
    uses = sorted(((n, p) for p, n in d["place_uses"].items() if n), key=lambda np: (-np[0], names[np[1]]))
    out.append(f"tickets per place (average {d['average_uses']:g}): "
               + ", ".join(f"{names[p]} {n}" for n, p in uses[:12]) + (" …" if len(uses) > 12 else ""))
    if d["unused_places"]:
        out.append(f"never used: {', '.join(names[p] for p in d['unused_places'])}")
    out.append("")
    rows = [[f"{names[r['from']]}–{names[r['to']]}", f"{round(r['load'], 2):g}", r["sure"]] for r in d["route_load"][:SHOWN]]
    out.append(f"route load: tickets whose shortest paths use the route (shared when paths tie; mean {d['mean_load']:g})")
    out += _table(["route", "load", "on every shortest path"], rows)
    if d["overlaps"]:
        out += ["", f"ticket pairs sharing half their routes or more: {len(d['overlaps'])}"]
        out += [f"  {_pair(names, o['a'])} / {_pair(names, o['b'])}: {o['shared']:.0%}" for o in d["overlaps"][:SHOWN]]
    # Tickets by name, as everywhere in this text; a ticket no path reaches is neither equal nor off.
    diffs = [(t.ticket, t.ticket.points - t.path) for t in fig.tickets if t.path is not None]
    off = [(t, diff) for t, diff in diffs if diff]
    no_path = len(fig.tickets) - len(diffs)
    out += ["", f"value vs shortest path: {len(diffs) - len(off)} equal, {len(off)} differ"
            + (": " + ", ".join(f"{names[t.from_]}–{names[t.to]} {diff:+d}" for t, diff in off[:SHOWN]) if off else "")
            + (" …" if len(off) > SHOWN else "") + (f"; {no_path} with no path" if no_path else "")]
    found = findings(fig)
    out += ["", "findings:" if found else "findings: none (every figure within the published decks' ranges)"]
    out += [f"- {f}" for f in found]
    return "\n".join(out)


def compare_dict(a: DeckFigures, b: DeckFigures, label_a: str, label_b: str) -> dict[str, Any]:
    return {"a": score_dict(a, label_a), "b": score_dict(b, label_b)}


def compare_text(a: DeckFigures, b: DeckFigures, label_a: str, label_b: str) -> str:
    da, db = a.as_dict(), b.as_dict()
    out = [f"A: {label_a}: {da['tickets']} tickets on {a.paths.board.meta.title}",
           f"B: {label_b}: {db['tickets']} tickets on {b.paths.board.meta.title}", ""]
    rows = [[SHAPE[k], f"{da['shape'][k]:g}", f"{db['shape'][k]:g}", f"{lo:g}-{hi:g}"] for k, (lo, hi) in ranges().items()]
    rows += [
        ["tickets", da["tickets"], db["tickets"], ""],
        ["values (lowest-highest)", f"{da['values']['min']}-{da['values']['max']}", f"{db['values']['min']}-{db['values']['max']}", ""],
        ["places never used", len(da["unused_places"]), len(db["unused_places"]), ""],
        [f"places overused ({OVERUSED:g}x average)", len(da["overused_places"]), len(db["overused_places"]), ""],
        [f"bottleneck routes ({BOTTLENECK:g}x mean load)", len(da["bottlenecks"]), len(db["bottlenecks"]), ""],
        ["heaviest route load", _top(da), _top(db), ""],
        ["duplicate or near pairs", len(da["duplicates"]), len(db["duplicates"]), ""],
    ]
    out += _table(["figure", "A", "B", "published"], rows)
    out.append("")
    keys = list(dict.fromkeys(list(da["values"]["histogram"]) + list(db["values"]["histogram"])))
    keys.sort(key=lambda k: int(k.split("-")[0]))
    out += _table(["value", "A", "B"], [[k, da["values"]["histogram"].get(k, 0), db["values"]["histogram"].get(k, 0)] for k in keys])
    for tag, fig in (("A", a), ("B", b)):
        found = findings(fig)
        out += ["", f"findings {tag}:" + ("" if found else " none")] + [f"- {f}" for f in found]
    return "\n".join(out)


def _pair(names: dict[str, str], ticket: str) -> str:
    a, b = ticket.split("–")
    return f"{names.get(a, a)}–{names.get(b, b)}"


def _top(d: dict[str, Any]) -> str:
    return f"{d['route_load'][0]['load']:g}" if d["route_load"] else "0"



