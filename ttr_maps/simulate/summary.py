"""summary.json: every figure of the report, computed from the game records alone.

The report (report.py) and `ttr-maps compare` read only this summary; the
tests recompute its numbers from records.jsonl. Rates carry Wilson score
intervals (95%) so a designer can tell a real difference from noise.
"""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from ..engine.game import Game

SUMMARY_FORMAT = "ttr-simulate-summary/1"
Z95 = 1.959963984540054
#: The score rows that are not bonuses: every other row of a score sheet (longest path, stations, goods, flags,
#: two paths, most routes ...) counts as a bonus.
NOT_BONUS = ("routes", "tickets_completed", "tickets_failed")
MIN_KEPT = 10  # a ticket judged easy or hard was kept at least this often


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def _r(x: float, nd: int = 4) -> float:
    return round(float(x), nd)


def _rate(successes: float, n: float) -> dict:
    lo, hi = wilson(successes, n)
    return {"n": n, "successes": _r(successes, 3), "rate": _r(successes / n if n else 0.0), "ci": [_r(lo), _r(hi)]}


def _stats(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    v = sorted(values)
    q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
    return {
        "n": len(v),
        "mean": _r(statistics.fmean(v), 3),
        "sd": _r(statistics.pstdev(v), 3) if len(v) > 1 else 0.0,
        "min": v[0],
        "q1": _r(q[0], 3),
        "median": _r(q[1], 3),
        "q3": _r(q[2], 3),
        "max": v[-1],
    }


def _histogram(values: list[float], bins: int = 20) -> dict:
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if hi == lo:
        return {"edges": [lo, lo + 1], "counts": [len(values)]}
    width = (hi - lo) / bins
    step = 10 ** math.floor(math.log10(width)) if width > 0 else 1
    integers = all(float(x).is_integer() for x in values)
    for m in ((1, 2, 5, 10) if integers else (1, 2, 2.5, 5, 10)):
        if width <= m * step:
            width = m * step
            break
    if integers:
        width = max(1, round(width))
    start = math.floor(lo / width) * width
    nb = int(math.floor((hi - start) / width)) + 1
    counts = [0] * nb
    for x in values:
        counts[min(nb - 1, int((x - start) // width))] += 1
    return {"edges": [_r(start + i * width, 6) for i in range(nb + 1)], "counts": counts}


def summarize(records: Iterable[dict], game: Game, meta: dict) -> dict:
    """Aggregate game records into the summary (see docs/simulate.md for every field)."""
    t = game.t
    n = game.num_players
    board = game.board
    variant = game.variant
    games = 0
    bots: dict[str, dict] = {}
    seat_wins = [0.0] * n
    turns: list[int] = []
    rounds: list[int] = []
    actions: list[int] = []
    ends: dict[str, int] = {}
    counters: dict[str, list[int]] = {}
    ticket_kept = [0] * len(t.tickets)
    ticket_done = [0] * len(t.tickets)
    ticket_returned = [0] * len(t.tickets)
    ticket_setup_kept = [0] * len(t.tickets)
    nr = len(t.route_ids)
    route_games = [0] * nr
    route_tracks = [0] * nr
    route_turns: list[list[int]] = [[] for _ in range(nr)]
    route_first: list[list[int]] = [[] for _ in range(nr)]
    route_blocked = [0] * nr
    place_touch = [0] * t.NP
    place_station = [0] * t.NP
    paid = [0] * t.NK
    face_up = [0] * t.NK
    blind = 0
    spaces_claimed = {c: 0 for c in list(t.colors) + ["gray"]}
    tie_breaks: dict[str, int] = {}

    for rec in records:
        games += 1
        winners = rec["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        first = rec.get("first_player", 0)
        for w in winners:
            seat_wins[(w - first) % n] += share  # by place in the turn order: 0 plays first
        if rec.get("tie_break"):
            tie_breaks[rec["tie_break"]] = tie_breaks.get(rec["tie_break"], 0) + 1
        turns.append(rec["turns"])
        rounds.append(rec["rounds"])
        actions.append(rec["actions"])
        ends[rec["end"]] = ends.get(rec["end"], 0) + 1
        for name, c in rec["counters"].items():
            counters.setdefault(name, []).append(c)
        for seat in rec["seats"]:
            b = bots.setdefault(seat["bot"], {"seats": 0, "wins": 0.0, "scores": [], "breakdown": {}, "kept": 0,
                                               "done": 0, "drawn": 0, "trail": [], "trains_left": [], "stations": 0})
            b["seats"] += 1
            if seat["seat"] in winners:
                b["wins"] += share
            b["scores"].append(seat["score"])
            for k, v in seat["breakdown"].items():
                b["breakdown"][k] = b["breakdown"].get(k, 0) + v
            b["kept"] += len(seat["tickets"])
            b["done"] += sum(1 for tk in seat["tickets"] if tk["completed"])
            b["drawn"] += seat["ticket_draws"]
            b["trail"].append(seat["longest_trail"])
            b["trains_left"].append(seat["trains_left"])
            b["stations"] += len(seat["stations"])
            for tk in seat["tickets"]:
                k = t.ticket_index[tk["ticket"]]
                ticket_kept[k] += 1
                ticket_setup_kept[k] += tk["setup"]
                ticket_done[k] += tk["completed"]
            for key in seat["tickets_returned"]:
                ticket_returned[t.ticket_index[key]] += 1
            for kind, c in seat["cards_paid"].items():
                paid[t.kind_index[kind]] += c
            for kind, c in seat["cards_face_up"].items():
                face_up[t.kind_index[kind]] += c
            blind += seat["cards_blind"]
            for x in seat["stations"]:
                place_station[t.place_index[x]] += 1
        seen_routes: set[int] = set()
        touched: set[int] = set()
        for turn, _p, rid, track, blocked in rec["claims"]:
            r = t.route_by_id[rid]
            route_tracks[r] += 1
            route_turns[r].append(turn)
            route_blocked[r] += blocked
            if r not in seen_routes:
                seen_routes.add(r)
                route_first[r].append(turn)
            tid = t.route_tids[r][track]
            c = t.t_color[tid]
            spaces_claimed["gray" if c < 0 else t.colors[c]] += t.t_len[tid]
            touched.update(t.route_ends[r])
        for r in seen_routes:
            route_games[r] += 1
        for x in touched:
            place_touch[x] += 1

    g = max(games, 1)
    # ---- bots and seats
    bot_out = {}
    for name, b in bots.items():
        seats = b["seats"]
        bd = {k: _r(v / seats, 3) for k, v in b["breakdown"].items()}
        tickets_net = bd.get("tickets_completed", 0) + bd.get("tickets_failed", 0)
        bonuses = sum(v for k, v in bd.items() if k not in NOT_BONUS)
        bot_out[name] = {
            "seats": seats,
            "win": _rate(b["wins"], seats),
            "score": _stats(b["scores"]),
            "score_histogram": _histogram(b["scores"]),
            "breakdown": bd,
            "points": {"routes": bd.get("routes", 0), "tickets": _r(tickets_net, 3), "bonuses": _r(bonuses, 3)},
            "tickets_kept": _r(b["kept"] / seats, 3),
            "tickets_completed": _rate(b["done"], b["kept"]) if b["kept"] else {"n": 0, "rate": 0.0, "ci": [0.0, 1.0], "successes": 0},
            "ticket_draws": _r(b["drawn"] / seats, 3),
            "longest_trail": _stats(b["trail"]),
            "trains_left": _stats(b["trains_left"]),
            "stations_built": _r(b["stations"] / seats, 3),
        }
    seat_out = [{"seat": s, "win": _rate(seat_wins[s], games)} for s in range(n)]

    # ---- tickets: judged against what the published boards give a ticket of the same value
    relation, diameter = _published_relation(game)
    tickets = []
    per_pile: dict[str, dict] = {}
    per_deck: dict[str, dict] = {}
    for k, tk in enumerate(t.tickets):
        pile = t.ticket_pile.get(k)
        if pile is None:
            continue  # not in this variant's piles
        kept = ticket_kept[k]
        done = ticket_done[k]
        entry = {
            "ticket": t.ticket_keys[k],
            "from": tk.from_,
            "to": tk.to,
            "points": tk.points,
            "pile": pile,
            "decks": list(tk.decks),
            "kept": kept,
            "kept_at_setup": ticket_setup_kept[k],
            "returned": ticket_returned[k],
            "completed": done,
            "completion": _rate(done, kept) if kept else None,
            "expected": _r(relation.rate(tk.points, diameter)) if diameter else None,
            "verdict": None,
        }
        if kept >= MIN_KEPT and entry["expected"] is not None:
            lo, hi = entry["completion"]["ci"]
            entry["verdict"] = "too easy" if lo > entry["expected"] else ("too hard" if hi < entry["expected"] else None)
        tickets.append(entry)
        for group, key in ((per_pile, pile), *((per_deck, d) for d in tk.decks)):
            agg = group.setdefault(key, {"tickets": 0, "kept": 0, "completed": 0, "returned": 0})
            agg["tickets"] += 1
            agg["kept"] += kept
            agg["completed"] += done
            agg["returned"] += ticket_returned[k]
    for group in (per_pile, per_deck):
        for agg in group.values():
            agg["completion"] = _rate(agg["completed"], agg["kept"]) if agg["kept"] else None

    # ---- routes and places
    routes = []
    for r, rid in enumerate(t.route_ids):
        route = board.routes[r]
        routes.append(
            {
                "route": rid,
                "from": route.from_,
                "to": route.to,
                "length": route.length,
                "tracks": list(route.tracks),
                "ferry": route.ferry,
                "tunnel": route.tunnel,
                "claimed": _rate(route_games[r], games),
                "tracks_claimed": _r(route_tracks[r] / g, 4),
                "first_claim_turn": _stats(route_first[r]) if route_first[r] else None,
                "blocking": _r(route_blocked[r] / g, 4),
            }
        )
    never = [x["route"] for x in routes if x["claimed"]["successes"] == 0]
    # Contested: claimed in most games, early, often on another player's ticket path.
    contested = sorted(
        (x for x in routes if x["claimed"]["rate"] > 0),
        key=lambda x: (-(x["blocking"] / (1 + (x["first_claim_turn"]["median"] if x["first_claim_turn"] else 0) / max(1, n * 5))), x["route"]),
    )[:15]
    places = [
        {
            "place": pid,
            "name": board.places[i].name,
            "kind": board.places[i].kind,
            "touched": _rate(place_touch[i], games),
            "stations": _r(place_station[i] / g, 4),
        }
        for i, pid in enumerate(t.place_ids)
    ]

    # ---- colours: demand (cards paid, face-up picks, spaces claimed) against supply (deck, board spaces)
    board_spaces = {c: 0 for c in list(t.colors) + ["gray"]}
    for tid in range(t.NT):
        c = t.t_color[tid]
        if c == -2:
            continue
        board_spaces["gray" if c < 0 else t.colors[c]] += t.t_len[tid]
    colours = []
    for k, kind in enumerate(t.kinds):
        if t.deck_counts[k] == 0 and paid[k] == 0:
            continue
        colours.append(
            {
                "kind": kind,
                "deck": t.deck_counts[k],
                "board_spaces": board_spaces.get(kind),
                "spaces_claimed": _r(spaces_claimed[kind] / g, 3) if kind in spaces_claimed else None,
                "paid": _r(paid[k] / g, 3),
                "face_up_taken": _r(face_up[k] / g, 3),
            }
        )
    colours.append({"kind": "gray", "deck": None, "board_spaces": board_spaces["gray"],
                    "spaces_claimed": _r(spaces_claimed["gray"] / g, 3), "paid": None, "face_up_taken": None})

    open_cases = {}
    from ..engine.game import OPEN_CASES

    for name in sorted(set(counters) | set(OPEN_CASES)):
        vals = counters.get(name, [])
        vals = vals + [0] * (games - len(vals))
        hit = sum(1 for v in vals if v)
        open_cases[name] = {
            "open_case": name in OPEN_CASES,
            "games": hit,
            "rate": _rate(hit, games) if games else None,
            "total": sum(vals),
            "per_game": _r(sum(vals) / g, 4),
        }

    return {
        "format": SUMMARY_FORMAT,
        "meta": dict(meta, games=games, players=n, variant_name=variant.name, board_title=board.meta.title),
        "bots": bot_out,
        "seats": seat_out,
        "length": {
            "turns": _stats(turns),
            "rounds": _stats(rounds),
            "actions": _stats(actions),
            "turns_histogram": _histogram(turns),
            "rounds_histogram": _histogram(rounds, bins=min(20, max(1, max(rounds, default=1) - min(rounds, default=0) + 1))),
        },
        "end": dict(sorted(ends.items())),
        "tie_breaks": dict(sorted(tie_breaks.items())),
        "tickets": tickets,
        "ticket_reference": {"diameter": diameter, "relation": {"a": relation.a, "b": relation.b}, "min_kept": MIN_KEPT},
        "piles": per_pile,
        "decks": per_deck,
        "routes": routes,
        "never_claimed": never,
        "contested": [x["route"] for x in contested],
        "places": places,
        "colours": colours,
        "cards_blind": _r(blind / g, 3),
        "open_cases": open_cases,
    }


def _published_relation(game: Game):
    """The published boards' completion curve (ttr_maps/tickets/completion.json: completion rate by ticket value /
    board diameter, measured on the bundled editions' simulated games) and this board's diameter in spaces."""
    from ..checks.context import Context
    from ..tickets.balance import published_relation

    return published_relation(), Context(game.board, game.variant).diameter_estimate
