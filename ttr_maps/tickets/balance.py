"""Ticket values tuned by play: `ttr-maps tickets balance`.

Each round plays games with the simulator (ttr_maps.simulate: seeded, local processes or a Dask
cluster), reads every ticket's completion rate with its 95% Wilson interval, and compares it with
what the published boards say a ticket of that value should get: `Relation`, a logistic curve of
completion against value / board diameter, fitted on the bundled editions' own simulated games
(completion.json). A ticket whose interval lies wholly above the curve is easier than its value
says (propose a lower value), wholly below harder (a higher one): the value at which the curve
meets its observed rate, at most `MAX_STEP` points away per round. With more rounds the proposed
values are played again (a new seed per round) and proposed anew.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Callable, Iterable

from ..model.board import Board, Ticket
from ..model.variant import Variant

#: A ticket's value moves at most this many points per round.
MAX_STEP = 3
#: A ticket is judged when it was kept at least this often in a round.
MIN_KEPT = 20
#: Completion rates used to place a value are clipped to this range (the curve is flat past it).
CLIP = (0.03, 0.97)


@dataclass(frozen=True)
class Relation:
    """Completion rate = 1 / (1 + exp(-(a + b * value / diameter)))."""

    a: float
    b: float

    def rate(self, value: float, diameter: float) -> float:
        return 1.0 / (1.0 + math.exp(-(self.a + self.b * value / diameter)))

    def value_for(self, rate: float, diameter: float) -> float:
        """The value a ticket completed at `rate` is worth by the curve (b < 0: harder, more points)."""
        r = min(max(rate, CLIP[0]), CLIP[1])
        return (math.log(r / (1 - r)) - self.a) / self.b * diameter


def fit(rows: Iterable[tuple[float, float, float]], steps: int = 50) -> Relation:
    """Maximum-likelihood logistic fit of completed-of-kept against x, by Newton's method.
    `rows`: (x, kept, completed) per ticket."""
    data = [(x, n, k) for x, n, k in rows if n > 0]
    a = b = 0.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for x, n, k in data:
            p = 1.0 / (1.0 + math.exp(-(a + b * x)))
            ga += k - n * p
            gb += (k - n * p) * x
            w = n * p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return Relation(round(a, 6), round(b, 6))


@cache
def completion_data() -> dict[str, Any]:
    """The stored relation (completion.json): the fit and how it was measured."""
    return json.loads(resources.files(__package__).joinpath("completion.json").read_text(encoding="utf-8"))


def published_relation() -> Relation:
    d = completion_data()["relation"]
    return Relation(d["a"], d["b"])


def rows_from_summary(summary: dict[str, Any], diameter: int) -> list[tuple[float, int, int]]:
    """(value / diameter, kept, completed) of each ticket of a simulate summary."""
    return [(t["points"] / diameter, t["kept"], t["completed"]) for t in summary["tickets"] if t["kept"]]


@dataclass
class Verdict:
    ticket: str  # the ticket key (from-to, as the simulator names it)
    from_: str
    to: str
    value: int
    kept: int
    completed: int
    rate: float
    ci: tuple[float, float]
    expected: float
    proposed: int | None  # None: in line

    def as_dict(self) -> dict[str, Any]:
        return {"ticket": self.ticket, "from": self.from_, "to": self.to, "value": self.value, "kept": self.kept,
                "completed": self.completed, "rate": round(self.rate, 4), "ci": [round(c, 4) for c in self.ci],
                "expected": round(self.expected, 4), "proposed": self.proposed}


@dataclass
class Round:
    seed: int
    games: int
    verdicts: list[Verdict]
    completion: dict[str, Any]  # all tickets: rate and interval
    bots: dict[str, Any]

    @property
    def changes(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.proposed is not None]

    @property
    def gap(self) -> float:
        """Mean distance between each judged ticket's rate and the curve's (kept-weighted)."""
        kept = sum(v.kept for v in self.verdicts)
        return sum(abs(v.rate - v.expected) * v.kept for v in self.verdicts) / kept if kept else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "games": self.games, "completion": self.completion, "gap": round(self.gap, 4),
                "judged": len(self.verdicts), "out_of_line": len(self.changes),
                "bots": self.bots, "tickets": [v.as_dict() for v in self.verdicts]}


def judge(summary: dict[str, Any], diameter: int, relation: Relation, min_kept: int = MIN_KEPT) -> list[Verdict]:
    """Every ticket kept at least `min_kept` times, with a proposed value when its interval misses the curve."""
    out = []
    for t in summary["tickets"]:
        comp = t.get("completion")
        if not comp or t["kept"] < min_kept:
            continue
        lo, hi = comp["ci"]
        expected = relation.rate(t["points"], diameter)
        proposed = None
        if lo > expected or hi < expected:
            fair = relation.value_for(comp["rate"], diameter)
            step = max(-MAX_STEP, min(MAX_STEP, round(fair) - t["points"]))
            new = max(1, min(99, t["points"] + step))
            proposed = new if new != t["points"] else None
        out.append(Verdict(t["ticket"], t["from"], t["to"], t["points"], t["kept"], t["completed"], comp["rate"],
                           (lo, hi), expected, proposed))
    return out


@dataclass
class Balance:
    relation: Relation
    rounds: list[Round] = field(default_factory=list)
    values: dict[str, int] = field(default_factory=dict)  # ticket key -> value after the last round's proposals

    def as_dict(self) -> dict[str, Any]:
        return {"relation": {"a": self.relation.a, "b": self.relation.b}, "rounds": [r.as_dict() for r in self.rounds],
                "values": self.values}


def with_values(variant: Variant, board: Board, values: dict[int, int]) -> tuple[Variant, Board]:
    """The variant and board with new points for tickets by their index in board.tickets + variant.tickets.add."""
    nb = len(board.tickets)

    def moved(tickets: tuple[Ticket, ...], offset: int) -> tuple[Ticket, ...]:
        return tuple(t.model_copy(update={"points": values[k + offset]}) if k + offset in values else t for k, t in enumerate(tickets))

    board2 = board.model_copy(update={"tickets": moved(board.tickets, 0)})
    add = moved(variant.tickets.add, nb)
    variant2 = variant.model_copy(update={"tickets": variant.tickets.model_copy(update={"add": add})})
    return variant2, board2


def balance(variant: Variant, board: Board, variant_path: str, *, games: int, players: int, bots: tuple[str, ...], seed: int,
            rounds: int = 1, workers: int = 1, scheduler: str | None = None, relation: Relation | None = None,
            yardstick: str = "published", min_kept: int = MIN_KEPT, progress: Callable[[int, int], None] | None = None) -> Balance:
    """Play `rounds` rounds of `games` games, proposing values after each (see the module docstring).

    `yardstick`: "published" judges against the published boards' curve; "own" against a curve fitted
    on this variant's first round, so only tickets out of line with the board's own trend move."""
    from ..engine.game import Game
    from ..simulate.runner import GameSource, RunSpec, run_games
    from ..simulate.summary import _rate, summarize
    from .paths import BoardPaths

    relation = relation or published_relation()
    diameter = BoardPaths(board).diameter or 1
    out = Balance(relation=relation)
    values: dict[int, int] = {}
    for r in range(rounds):
        v2, b2 = with_values(variant, board, values)
        game = Game(v2, b2, players)
        keys = game.t.ticket_keys
        spec = RunSpec(GameSource(v2, b2, players, variant_path), bots, games, seed + r)
        done = [0]

        def tick(n: int) -> None:
            done[0] += n
            if progress is not None:
                progress(r, done[0])

        records = (json.loads(line) for line in run_games(spec, workers=workers, scheduler=scheduler, progress=tick))
        summary = summarize(records, game, {"seed": seed + r})
        if yardstick == "own" and r == 0:
            relation = fit(rows_from_summary(summary, diameter))
            out.relation = relation
        verdicts = judge(summary, diameter, relation, min_kept)
        kept = sum(t["kept"] for t in summary["tickets"])
        completed = sum(t["completed"] for t in summary["tickets"])
        bots_out = {name: {"win": b["win"], "tickets_completed": b["tickets_completed"]} for name, b in summary["bots"].items()}
        out.rounds.append(Round(seed + r, summary["meta"]["games"], verdicts, _rate(completed, kept), bots_out))
        index = {k: i for i, k in enumerate(keys)}
        for v in verdicts:
            if v.proposed is not None:
                values[index[v.ticket]] = v.proposed
    final_game = Game(*with_values(variant, board, values), players)
    out.values = {final_game.t.ticket_keys[i]: p for i, p in sorted(values.items())}
    return out


def measure(summaries: list[str]) -> dict[str, Any]:
    """Fit the relation on simulate summaries of the bundled variants (each summary names its variant)."""
    from ..load import load_variant
    from .paths import BoardPaths

    rows: list[tuple[float, int, int]] = []
    runs = []
    for path in summaries:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
        meta = summary["meta"]
        _variant, board = load_variant(meta["variant"])
        diameter = BoardPaths(board).diameter
        mine = rows_from_summary(summary, diameter)
        rows += mine
        kept = sum(n for _, n, _ in mine)
        runs.append({"variant": meta["variant"], "games": meta["games"], "players": meta["players"], "seed": meta.get("seed"),
                     "bots": sorted(summary["bots"]), "diameter": diameter, "tickets": len(mine), "kept": kept,
                     "completed": sum(k for _, _, k in mine), "own_fit": fit(mine).__dict__})
    rel = fit(rows)
    return {
        "note": "Completion rate of a ticket = 1 / (1 + exp(-(a + b * value / diameter))), fitted by maximum likelihood on "
                "every ticket kept in `ttr-maps simulate VARIANT -n 1000 --seed 1` runs of the bundled variants below "
                "(the default bots, 4 players), then `python -m ttr_maps.tickets.balance SUMMARY.json ...`.",
        "relation": rel.__dict__,
        "runs": runs,
    }


if __name__ == "__main__":  # pragma: no cover - regenerates completion.json
    import sys

    sys.stdout.write(json.dumps(measure(sys.argv[1:]), indent=1) + "\n")
