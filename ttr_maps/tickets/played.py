"""Two decks played: how often the same bots complete their tickets, side by side.

The figures of one seeded simulator run of a variant (the deck it deals), from its
simulate summary: tickets kept and completed (with the 95% Wilson interval), the
spread of the tickets' completion rates, simulate's own "too easy" / "too hard"
verdicts, how many tickets `balance` would move (against the published curve),
ticket points and wins per bot, and game length. `benchmarks/bench_ticket_games.py`
plays the suggested USA deck against the published one with it (docs/tickets.md).
"""

from __future__ import annotations

import json
import statistics
from typing import Any, Callable

from .balance import MIN_KEPT, Relation, Round, judge, published_relation


def play(variant_path: str, games: int, seed: int, bots: tuple[str, ...], players: int = 4, workers: int = 1,
         progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play `games` games of the variant at `variant_path` (as `ttr-maps simulate`) and return its simulate summary."""
    from ..engine.game import Game
    from ..simulate.runner import GameSource, RunSpec, run_games
    from ..simulate.summary import summarize

    source = GameSource.from_file(variant_path, players)
    game = Game(source.variant, source.board, players)
    seats = tuple((list(bots) * players)[:players])
    records = (json.loads(line) for line in run_games(RunSpec(source, seats, games, seed), workers=workers, progress=progress))
    return summarize(records, game, {"seed": seed, "variant": variant_path})


def figures(summary: dict[str, Any], diameter: int, relation: Relation | None = None) -> dict[str, Any]:
    """The completion figures of one run (see the module docstring); per-ticket figures over the tickets kept
    at least balance.MIN_KEPT times (rarer ones say little). `relation`: the curve (default: the published one)."""
    kept = sum(t["kept"] for t in summary["tickets"])
    done = sum(t["completed"] for t in summary["tickets"])
    judged = [t for t in summary["tickets"] if t["kept"] >= MIN_KEPT]
    rates = sorted(t["completed"] / t["kept"] for t in judged)
    verdicts = judge(summary, diameter, relation or published_relation())
    gap = Round(0, 0, verdicts, {}, {}).gap
    from ..simulate.summary import _rate

    bots = summary["bots"]
    return {
        "games": summary["meta"]["games"],
        "tickets": len(summary["tickets"]),
        "kept": kept,
        "completion": _rate(done, kept) if kept else None,
        "judged": len(judged),
        "rate_lowest": round(rates[0], 4) if rates else None,
        "rate_median": round(statistics.median(rates), 4) if rates else None,
        "rate_highest": round(rates[-1], 4) if rates else None,
        "rate_sd": round(statistics.pstdev(rates), 4) if len(rates) > 1 else None,
        "too_easy": sum(t["verdict"] == "too easy" for t in summary["tickets"]),
        "too_hard": sum(t["verdict"] == "too hard" for t in summary["tickets"]),
        "out_of_line": sum(v.proposed is not None for v in verdicts),
        "gap": round(gap, 4),
        "ticket_points": {name: b["points"]["tickets"] for name, b in bots.items()},
        "wins": {name: b["win"]["rate"] for name, b in bots.items()},
        "turns": summary["length"]["turns"].get("mean"),
    }


def table(a: dict[str, Any], b: dict[str, Any], label_a: str, label_b: str) -> str:
    """The two runs' figures as a Markdown table (docs/tickets.md prints one)."""

    def pct(x: float | None) -> str:
        return "–" if x is None else f"{x:.1%}"

    def completion(f: dict[str, Any]) -> str:
        c = f["completion"]
        return "–" if c is None else f"{c['rate']:.1%} ({c['ci'][0]:.1%}-{c['ci'][1]:.1%})"

    def per_bot(f: dict[str, Any], key: str, fmt: Callable[[float], str]) -> str:
        return " / ".join(fmt(f[key][n]) if n in f[key] else "–" for n in names)

    names = list(dict.fromkeys([*a["wins"], *b["wins"]]))
    rows = [
        ("games", lambda f: f"{f['games']:,}"),
        ("tickets kept (all seats)", lambda f: f"{f['kept']:,}"),
        ("completed", completion),
        (f"completion per ticket (kept {MIN_KEPT}+ times): lowest / median / highest",
         lambda f: f"{pct(f['rate_lowest'])} / {pct(f['rate_median'])} / {pct(f['rate_highest'])}"),
        ("spread of the tickets' completion (sd)", lambda f: "–" if f["rate_sd"] is None else f"{f['rate_sd']:.3f}"),
        ("simulate's \"too easy\" / \"too hard\" tickets (interval wholly above / below the published curve)", lambda f: f"{f['too_easy']} / {f['too_hard']}"),
        ("tickets out of line with the published curve (balance's test)", lambda f: f"{f['out_of_line']} of {f['tickets']}"),
        ("mean gap to the curve (kept-weighted)", lambda f: f"{f['gap']:.3f}"),
        ("ticket points per seat: " + " / ".join(names), lambda f: per_bot(f, "ticket_points", lambda x: f"{x:.1f}")),
        ("wins: " + " / ".join(names), lambda f: per_bot(f, "wins", lambda x: f"{x:.1%}")),
        ("mean game length", lambda f: f"{f['turns']:.0f} turns"),
    ]
    out = [f"| | {label_a} | {label_b} |", "|---|---|---|"]
    out += [f"| {name} | {get(a)} | {get(b)} |" for name, get in rows]
    return "\n".join(out)
