"""report.html: one self-contained page (inline SVG, inline CSS, no script, no external reference) built from summary.json."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..limits import DOCS, DRAWING, size
from ..scorerows import ALWAYS, SCORE_ROWS, variant_rows
from . import plots
from .heatmap import NEVER, gradient_css, heat, heat_map_svg

if TYPE_CHECKING:
    from ..model.board import Board
    from ..model.variant import Variant

CSS = """
body{font-family:Helvetica,Arial,sans-serif;color:#222;margin:0;background:#f6f4ef}
main{max-width:1180px;margin:0 auto;padding:18px 28px 60px;background:#fff}
h1{font-size:26px;margin:8px 0 2px}h2{font-size:20px;border-bottom:2px solid #d9b865;padding-bottom:4px;margin-top:34px}
h3{font-size:15px;margin:18px 0 6px}.sub{color:#666;margin:0 0 12px}
.grid{display:flex;flex-wrap:wrap;gap:18px 36px;align-items:flex-start}
.card{flex:1 1 520px;min-width:0}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
th{background:#faf6ea}td.num{text-align:right;font-variant-numeric:tabular-nums}
.easy{color:#1a7f37;font-weight:bold}.hard{color:#c62828;font-weight:bold}
.findings li{margin:4px 0}.note{color:#666;font-size:12px}
.legend{display:inline-block;width:220px;height:12px;vertical-align:middle;border:1px solid #999}
.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;border:1px solid #555;margin-right:4px}
.map svg{width:100%;height:auto;border:1px solid #ccc}
.scroll{max-height:520px;overflow:auto;border:1px solid #eee}
.bar{display:inline-block;height:9px;background:#4e79a7;vertical-align:middle}
"""


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:.1f}%"


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def _ci(rate: dict | None) -> str:
    if not rate:
        return "–"
    return f"{_pct(rate['rate'])} <span class='note'>({_pct(rate['ci'][0])}–{_pct(rate['ci'][1])})</span>"


def score_columns(bots: dict, variant: Variant | None = None) -> list[tuple[str, str]]:
    """The score rows this variant has (routes and tickets always; a bonus only where the variant sets it),
    as (key, plain name); without the variant, the rows any bot scored points in."""
    if variant is not None:
        rows = variant_rows(variant)
    else:
        used = {k: any(b["breakdown"].get(k, 0) for b in bots.values()) for k, _ in SCORE_ROWS}
        rows = [(k, label) for k, label in SCORE_ROWS if k in ALWAYS or used[k]]
    known = {k for k, _ in SCORE_ROWS}
    # a row a newer engine scores that this list does not know yet: shown under its own name
    rows += [(k, k.replace("_", " ")) for k in sorted({k for b in bots.values() for k in b["breakdown"]} - known)]
    return rows


def bot_sentence(name: str) -> str:
    """What a bot does, in a sentence (its registry description)."""
    from ..bots import BOTS

    cls = BOTS.get(name.split(":")[0])
    return f"{cls.description[0].upper()}{cls.description[1:]}." if cls is not None and cls.description else "A bot not in this ttr-maps' registry."


def _ticket_name(t: dict) -> str:
    return f"{t['from']}–{t['to']} ({t['points']} points)"


def findings(s: dict) -> list[str]:
    """A few sentences a designer reads first: the board (game length, the turn order, the routes and
    tickets that stand out, what went wrong), then the bots (HTML)."""
    return board_findings(s) + bot_findings(s)


def board_findings(s: dict) -> list[str]:
    """The sentences about the board: game length, the turn order, routes and tickets that stand out, what went wrong (HTML)."""
    out = []
    meta = s["meta"]
    n = meta["players"]
    L = s["length"]
    ends = s["end"]
    if L["turns"].get("n"):
        how = ", ".join(f"{v} by {k}" for k, v in ends.items() if v)
        out.append(f"A game lasts {L['turns']['mean']:.0f} turns on average ({L['rounds']['mean']:.1f} rounds; "
                   f"middle half {L['turns']['q1']:.0f}–{L['turns']['q3']:.0f} turns)" + (f"; games ended {escape(how)}." if how else "."))
    seats = s["seats"]
    if seats:
        fair = 1 / n
        skew = [x for x in seats if x["win"]["ci"][0] > fair or x["win"]["ci"][1] < fair]
        if skew:
            parts = ", ".join(f"{_ordinal(x['seat'] + 1)} player {_pct(x['win']['rate'])}" for x in skew)
            out.append(f"Turn order matters: {parts} (outside the 95% interval around an even {_pct(fair)}).")
        else:
            out.append(f"The seats are balanced: no place in the turn order wins significantly more or less than an even {_pct(fair)}.")
    routes = {r["route"]: r for r in s["routes"]}
    always = sorted((r for r in s["routes"] if r["claimed"]["rate"] >= 0.9), key=lambda r: (-r["claimed"]["rate"], r["route"]))
    if always:
        out.append(f"{len(always)} route(s) claimed in at least 90% of games: " +
                   escape(", ".join(f"{r['from']}–{r['to']} {_pct(r['claimed']['rate'])}" for r in always[:5])) + (", …" if len(always) > 5 else "") + ".")
    contested = [routes[rid] for rid in s["contested"][:3] if rid in routes]
    if contested:
        out.append("Most contested (claimed early, on other players' tickets): " +
                   escape(", ".join(f"{r['from']}–{r['to']}" for r in contested)) + ".")
    if s["never_claimed"]:
        out.append(f"{len(s['never_claimed'])} route(s) were never claimed: {escape(', '.join(s['never_claimed'][:8]))}{'…' if len(s['never_claimed']) > 8 else ''}.")
    else:
        out.append("Every route was claimed in at least one game.")
    easy = sorted((t for t in s["tickets"] if t["verdict"] == "too easy"), key=lambda t: t["expected"] - t["completion"]["rate"])
    hard = sorted((t for t in s["tickets"] if t["verdict"] == "too hard"), key=lambda t: t["completion"]["rate"] - t["expected"])
    ref = s.get("ticket_reference") or {}
    judged = sum(1 for t in s["tickets"] if t["kept"] >= ref.get("min_kept", 10) and t.get("expected") is not None)
    if judged:
        def some(group: list[dict]) -> str:
            return escape(", ".join(f"{_ticket_name(t)} {_pct(t['completion']['rate'])} vs {_pct(t['expected'])}" for t in group[:3])) + (", …" if len(group) > 3 else "")

        sentence = (f"Tickets against the published boards (what they complete of a ticket worth as much on a board this size): "
                    f"of {judged} kept at least {ref.get('min_kept', 10)} times, {len(easy)} are completed more often than their points say")
        sentence += f" ({some(easy)})" if easy else ""
        sentence += f" and {len(hard)} less often" + (f" ({some(hard)})" if hard else "") + "."
        out.append(sentence)
    cases = [f"{name} in {c['games']} game(s)" for name, c in s["open_cases"].items() if c["open_case"] and c["games"]]
    out.append("Situations the rulebooks do not settle: " + (", ".join(cases) if cases else "none occurred") + ".")
    if ends.get("capped"):
        out.append(f"<span class='hard'>{ends['capped']} game(s) hit the action cap and were stopped.</span>")
    return out


def bot_findings(s: dict) -> list[str]:
    """The sentence about the bots: which wins most, and what that says (HTML)."""
    out = []
    n = s["meta"]["players"]
    bots = s["bots"]
    if len(bots) > 1:
        best = max(bots.items(), key=lambda kv: kv[1]["win"]["rate"])
        out.append(f"Of the bots, <b>{escape(best[0])}</b> wins most: {_pct(best[1]['win']['rate'])} of its seats "
                   f"(95% interval {_pct(best[1]['win']['ci'][0])}–{_pct(best[1]['win']['ci'][1])}; an even share is {_pct(1 / n)}); "
                   f"the bots play differently well, so this says which way of playing pays on this board, not that it is unfair.")
    return out


def build_report(summary: dict, board: Board | None = None, variant: Variant | None = None) -> str:
    s = summary
    meta = s["meta"]
    n = meta["players"]
    h: list[str] = []
    title = f"Simulation: {meta['variant_name']}"
    h.append(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title><style>{CSS}</style></head><body><main>")
    h.append(f"<h1>{escape(title)}</h1>")
    h.append(f"<p class='sub'>{meta['games']} games, {n} players, bots {escape(', '.join(meta['bots']))} (seats rotate each game), "
             f"seed {meta['seed']}. Board: {escape(meta['board_title'])}. Variant file: <code>{escape(str(meta.get('variant', '')))}</code>. "
             f"ttr-maps {escape(str(meta.get('version', '')))}.</p>")
    h.append("<h2>What stands out</h2><ul class='findings'>" + "".join(f"<li>{x}</li>" for x in findings(s)) + "</ul>")

    # ---- the board
    h.append("<h2>The board: what gets claimed</h2>")
    route_rate = {r["route"]: r["claimed"]["rate"] for r in s["routes"]}
    place_rate = {p["place"]: p["touched"]["rate"] for p in s["places"]}
    if board is not None and not DRAWING.allows(board):
        h.append(f"<p class='note'>No heat map: the board has {size(board)}, more than the {DRAWING.text()} a report draws "
                 f"({DOCS}#{DRAWING.anchor}). The tables below give the routes' and places' figures.</p>")
    elif board is not None:
        h.append("<div class='map'>" + _strip_xml(heat_map_svg(board, variant, route_rate, place_rate)) + "</div>")
        h.append(f"<p class='note'>Routes: share of games in which the route was claimed <span class='legend' style='background:{gradient_css()}'></span> 0% → 100%; "
                 f"<span class='sw' style='background:{NEVER}'></span>never claimed (dashed). Rings around places: share of games in which a claimed route reached the place.</p>")
    h.append("<div class='grid'><div class='card'><h3>Most and least claimed routes</h3>")
    by_rate = sorted(s["routes"], key=lambda r: (-r["claimed"]["rate"], r["route"]))
    h.append(_route_table(by_rate[:10] + ([None] if len(by_rate) > 20 else []) + by_rate[-10:] if len(by_rate) > 20 else by_rate))
    h.append("</div><div class='card'><h3>Contested routes</h3><p class='note'>Claimed early and on the shortest path of tickets other players held "
             "(blocking: other players per game whose kept tickets ran through the route when it was claimed).</p>")
    contested = [next(r for r in s["routes"] if r["route"] == rid) for rid in s["contested"]]
    h.append(_route_table(contested, blocking=True))
    h.append("</div></div>")
    if s["never_claimed"]:
        h.append("<h3>Never claimed</h3><p>" + escape(", ".join(s["never_claimed"])) + "</p>")
    places = sorted(s["places"], key=lambda p: (-p["touched"]["rate"], p["place"]))
    h.append("<h3>Places reached</h3><p class='note'>" + " · ".join(
        f"{escape(p['name'])} {_pct(p['touched']['rate'])}" + (f" ({p['stations']:.2f} stations/game)" if p["stations"] else "") for p in places) + "</p>")

    # ---- length
    L = s["length"]
    h.append("<h2>Game length</h2><div class='grid'>")
    h.append("<div class='card'>" + plots.histogram(L["turns_histogram"], "Turns per game", xlabel="turns (all players)") + "</div>")
    h.append("<div class='card'>" + plots.histogram(L["rounds_histogram"], "Rounds per game", xlabel="rounds", color="#59a14f") + "</div>")
    h.append("</div>")
    ends = ", ".join(f"{escape(k)}: {v}" for k, v in s["end"].items())
    h.append(f"<p class='note'>How games ended: {ends} (trains: a player's trains ran low; all-passed: nobody could act; capped: stopped by the action cap). "
             f"Mean actions per game {L['actions'].get('mean', 0):.0f}.</p>")

    # ---- tickets
    h.append("<h2>Tickets</h2>")
    h.append("<div class='grid'>")
    for label, group in (("pile", s["piles"]), ("deck", s["decks"])):
        items = [(k, v["completion"]["rate"], *v["completion"]["ci"]) for k, v in group.items() if v["completion"]]
        if items:
            h.append("<div class='card'>" + plots.rate_bars(items, f"Completion rate per {label}", colors=["#f28e2b"] * len(items)) + "</div>")
    h.append("</div>")
    ref = s.get("ticket_reference") or {}
    h.append("<p class='note'>Completion = kept tickets that were completed. Expected = what the published boards complete of a ticket "
             f"worth as many points on a board {ref.get('diameter', '?')} spaces across (a curve fitted on the bundled editions' own simulated games, "
             "4 players, the default bots: ttr_maps/tickets/completion.json). <span class='easy'>too easy</span>: the ticket's 95% interval lies "
             "wholly above that, so it is worth fewer points; <span class='hard'>too hard</span>: wholly below, worth more "
             f"(judged only for tickets kept at least {ref.get('min_kept', 10)} times). "
             "Kept at setup and later are counted together; returned = offered but not kept.</p>")
    rows = sorted(s["tickets"], key=lambda t: (t["completion"]["rate"] if t["completion"] else 2, t["ticket"]))
    h.append("<div class='scroll'><table><tr><th>ticket</th><th>points</th><th>pile</th><th>kept</th><th>returned</th><th>completed</th><th></th>"
             "<th>expected</th><th>verdict</th></tr>")
    for t in rows:
        comp = t["completion"]
        bar = f"<span class='bar' style='width:{comp['rate'] * 80:.0f}px'></span>" if comp else ""
        verdict = t["verdict"] or ""
        cls = "easy" if verdict == "too easy" else ("hard" if verdict == "too hard" else "")
        h.append(f"<tr><td>{escape(t['from'])} – {escape(t['to'])}</td><td class='num'>{t['points']}</td><td>{escape(t['pile'])}</td>"
                 f"<td class='num'>{t['kept']}</td><td class='num'>{t['returned']}</td><td class='num'>{_ci(comp)}</td><td>{bar}</td>"
                 f"<td class='num'>{_pct(t.get('expected'))}</td><td class='{cls}'>{verdict}</td></tr>")
    h.append("</table></div>")

    # ---- winning
    bots = s["bots"]
    names = list(bots)
    h.append("<h2>Who wins</h2><div class='grid'>")
    items = [(b, bots[b]["win"]["rate"], *bots[b]["win"]["ci"]) for b in names]
    h.append("<div class='card'>" + plots.rate_bars(items, "Win rate per bot (95% Wilson interval)", reference=1 / n) + "</div>")
    items = [(f"{_ordinal(x['seat'] + 1)} player", x["win"]["rate"], *x["win"]["ci"]) for x in s["seats"]]
    rule = variant.players.first if variant is not None else "seat-0"
    first = "seat 1 plays first" if rule == "seat-0" else "the first player is drawn each game"
    h.append("<div class='card'>" + plots.rate_bars(items, f"Win rate by turn order ({first})", reference=1 / n,
                                                    colors=["#76b7b2"] * len(items)) + "</div>")
    h.append("</div><p class='note'>A shared win counts 1/k for each of the k winners. The dashed line is an even share. "
             "Each bot's rate is over the seats it played.</p>")
    h.append("<h3>The bots</h3><ul class='findings'>" + "".join(f"<li><b>{escape(b)}</b>: {escape(bot_sentence(b))}</li>" for b in names) + "</ul>")

    # ---- scores
    h.append("<h2>Scores</h2><div class='grid'>")
    h.append("<div class='card'>" + plots.box_plots([(b, bots[b]["score"]) for b in names], "Final score per bot (box: middle half, line: median, dot: mean)") + "</div>")
    series = [
        ("routes", [bots[b]["points"]["routes"] for b in names], "#4e79a7"),
        ("tickets (net)", [bots[b]["points"]["tickets"] for b in names], "#f28e2b"),
        ("bonuses", [bots[b]["points"]["bonuses"] for b in names], "#59a14f"),
    ]
    h.append("<div class='card'>" + plots.grouped_bars(names, series, "Where the points come from (mean per game)", width=520, ylabel="points") + "</div>")
    h.append("</div>")
    columns = score_columns(bots, variant)
    h.append("<table><tr><th>bot</th><th>seats</th>" + "".join(f"<th>{escape(label)}</th>" for _, label in columns) +
             "<th>tickets kept</th><th>completed</th><th>ticket draws</th><th>trains left</th></tr>")
    for b in names:
        x = bots[b]
        h.append(f"<tr><td>{escape(b)}</td><td class='num'>{x['seats']}</td>" +
                 "".join(f"<td class='num'>{x['breakdown'].get(k, 0):.1f}</td>" for k, _ in columns) +
                 f"<td class='num'>{x['tickets_kept']:.2f}</td><td class='num'>{_ci(x['tickets_completed'])}</td>"
                 f"<td class='num'>{x['ticket_draws']:.2f}</td><td class='num'>{x['trains_left'].get('mean', 0):.1f}</td></tr>")
    h.append("</table><p class='note'>Mean points per game from each row of the score sheet (only the rows this variant scores), "
             "then tickets kept per game, the share of them completed, ticket draws per game and trains left at the end.</p>")

    # ---- colours
    h.append("<h2>Colour demand and supply</h2>")
    cols = [c for c in s["colours"]]
    cats = [c["kind"] for c in cols]
    series = [
        ("cards in the deck", [c["deck"] for c in cols], "#bab0ac"),
        ("spaces on the board", [c["board_spaces"] for c in cols], "#76b7b2"),
        ("spaces claimed / game", [c["spaces_claimed"] for c in cols], "#4e79a7"),
        ("cards paid / game", [c["paid"] for c in cols], "#e15759"),
        ("taken face up / game", [c["face_up_taken"] for c in cols], "#edc948"),
    ]
    h.append(plots.grouped_bars(cats, series, "Per card colour", width=1100, height=260,
                                swatches={c: plots.CARD_FILL.get(c, "#ccc") for c in cats}))
    h.append(f"<p class='note'>Supply: cards of each colour in the deck and spaces of that colour on the board (gray spaces take any one colour). "
             f"Demand: spaces claimed, cards paid (claims, tunnels' extra cards, stations) and cards taken from the face-up row, per game. "
             f"Blind draws per game: {s['cards_blind']:.1f}.</p>")

    # ---- open cases
    h.append("<h2>Situations the rulebooks do not settle</h2><table><tr><th>counter</th><th>kind</th><th>games where it happened</th><th>times per game</th></tr>")
    for name, c in s["open_cases"].items():
        kind = "open case" if c["open_case"] else "other event"
        h.append(f"<tr><td>{escape(name)}</td><td>{kind}</td><td class='num'>{c['games']} ({_ci(c['rate'])})</td><td class='num'>{c['per_game']:.3f}</td></tr>")
    h.append("</table><p class='note'>How the engine settles each case: docs/rules.md#open-cases.</p>")
    h.append("<p class='note'>Made by <code>ttr-maps simulate</code>; the numbers are in summary.json beside this file and each game in records.jsonl (docs/simulate.md).</p>")
    h.append("</main></body></html>")
    return "".join(h)


def _route_table(routes: list, blocking: bool = False) -> str:
    out = ["<table><tr><th>route</th><th>length</th><th>claimed</th><th>first claim (median turn)</th>" + ("<th>blocking</th>" if blocking else "") + "</tr>"]
    for r in routes:
        if r is None:
            out.append("<tr><td colspan='5'>…</td></tr>")
            continue
        first = r["first_claim_turn"]["median"] if r["first_claim_turn"] else None
        sw = f"<span class='sw' style='background:{heat(r['claimed']['rate']) if r['claimed']['rate'] > 0 else NEVER}'></span>"
        # a route that shares its places with another (a tunnel and a ferry) is told apart by its id
        name = f"{r['from']} – {r['to']}" + ("" if r["route"] == f"{r['from']}-{r['to']}" else f" ({r['route']})")
        out.append(f"<tr><td>{sw}{escape(name)}</td><td class='num'>{r['length']}</td><td class='num'>{_ci(r['claimed'])}</td>"
                   f"<td class='num'>{'' if first is None else f'{first:.0f}'}</td>" + (f"<td class='num'>{r['blocking']:.2f}</td>" if blocking else "") + "</tr>")
    out.append("</table>")
    return "".join(out)


def _strip_xml(svg: str) -> str:
    """An SVG document made inline: no XML declaration, sized by CSS."""
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    return svg
