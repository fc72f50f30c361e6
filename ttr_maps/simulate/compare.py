"""Two simulation summaries side by side: what a change to a board (or its rules) did.

Differences are B - A. Rates are compared with a two-proportion z-test, means
with Welch's test (normal approximation: simulations have many games). Each table
is a family of comparisons: its p-values are adjusted with Holm's step-down method
(which keeps the chance of any false mark in the table under 0.05), and a difference
is marked significant when its adjusted p is under 0.05. Without it, comparing 90
routes marks four or five by chance alone.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError, model_validator

ALPHA = 0.05


# The parts of a summary.json that a comparison reads, so a damaged or hand-edited file is refused with
# the field at fault instead of failing half-way (summary.py writes them; other fields pass through).
class _Part(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Rate(_Part):
    n: int = Field(ge=0)
    successes: FiniteFloat = Field(ge=0)
    rate: FiniteFloat | None

    @model_validator(mode="after")
    def _at_most_n(self) -> _Rate:
        if self.successes > self.n:
            raise ValueError(f"successes ({self.successes}) exceed n ({self.n})")
        return self


class _Mean(_Part):
    n: int = Field(ge=0)
    mean: FiniteFloat | None = None
    sd: FiniteFloat | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _given_when_counted(self) -> _Mean:
        if self.n and (self.mean is None or self.sd is None):
            raise ValueError(f"mean and sd are needed when n is {self.n}")
        return self


class _Meta(_Part):
    variant_name: str
    games: int = Field(ge=0)
    players: int = Field(ge=1)
    bots: list[str]


class _Bot(_Part):
    win: _Rate | None
    score: _Mean


class _Seat(_Part):
    win: _Rate | None


class _Length(_Part):
    turns: _Mean
    rounds: _Mean


class _Ticket(_Part):
    ticket: str
    completion: _Rate | None  # None: never kept


class _Pile(_Part):
    completion: _Rate | None


class _Route(_Part):
    route: str
    claimed: _Rate | None


class _Summary(_Part):
    meta: _Meta
    bots: dict[str, _Bot]
    seats: list[_Seat]
    length: _Length
    tickets: list[_Ticket]
    piles: dict[str, _Pile]
    routes: list[_Route]
    never_claimed: list[str]


def summary_problem(data: dict) -> str | None:
    """What makes `data` unusable for a comparison ("field.path: problem"), or None when it is fine."""
    try:
        _Summary.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(top level)"
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        return f"{where}: {err['msg']}{more}"
    return None


def _p_normal(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportions(x1: float, n1: float, x2: float, n2: float) -> float | None:
    """p-value of the difference between x1/n1 and x2/n2 (pooled z-test); None when undefined."""
    if n1 <= 0 or n2 <= 0:
        return None
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return _p_normal((x2 / n2 - x1 / n1) / se)


def welch(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> float | None:
    if n1 < 2 or n2 < 2:
        return None
    se = math.sqrt(s1 * s1 / n1 + s2 * s2 / n2)
    if se == 0:
        return 1.0 if m1 == m2 else 0.0
    return _p_normal((m2 - m1) / se)


def _rate_row(key: str, a: dict | None, b: dict | None) -> dict:
    ra = a["rate"] if a else None
    rb = b["rate"] if b else None
    p = two_proportions(a["successes"], a["n"], b["successes"], b["n"]) if a and b else None
    return {
        "key": key,
        "a": ra,
        "b": rb,
        "diff": None if ra is None or rb is None else round(rb - ra, 4),
        "p": None if p is None else round(p, 4),
        "significant": p is not None and p < ALPHA,
    }


def _mean_row(key: str, a: dict, b: dict) -> dict:
    if not a.get("n") or not b.get("n"):
        return {"key": key, "a": a.get("mean"), "b": b.get("mean"), "diff": None, "p": None, "significant": False}
    p = welch(a["mean"], a["sd"], a["n"], b["mean"], b["sd"], b["n"])
    return {
        "key": key,
        "a": a["mean"],
        "b": b["mean"],
        "diff": round(b["mean"] - a["mean"], 3),
        "p": None if p is None else round(p, 4),
        "significant": p is not None and p < ALPHA,
    }


def holm(rows: list[dict]) -> list[dict]:
    """Add each row's Holm-adjusted p (`p_holm`) within `rows` and mark `significant` by it."""
    tested = sorted((r for r in rows if r["p"] is not None), key=lambda r: r["p"])
    m = len(tested)
    running = 0.0
    for i, r in enumerate(tested):
        running = max(running, min(1.0, (m - i) * r["p"]))
        r["p_holm"] = round(running, 4)
        r["significant"] = running < ALPHA
    for r in rows:
        if r["p"] is None:
            r["p_holm"] = None
            r["significant"] = False
    return rows


def compare(a: dict, b: dict) -> dict:
    """The comparison of two summaries (summary.json dicts)."""
    out: dict = {"a": a["meta"], "b": b["meta"], "notes": []}
    if a["meta"]["players"] != b["meta"]["players"]:
        out["notes"].append(f"player counts differ: {a['meta']['players']} vs {b['meta']['players']}")
    if a["meta"]["bots"] != b["meta"]["bots"]:
        out["notes"].append("the bots differ: win rates compare different line-ups")
    bots = [k for k in a["bots"] if k in b["bots"]]
    out["win_rate"] = [_rate_row(k, a["bots"][k]["win"], b["bots"][k]["win"]) for k in bots]
    out["score"] = [_mean_row(k, a["bots"][k]["score"], b["bots"][k]["score"]) for k in bots]
    seats = min(len(a["seats"]), len(b["seats"]))
    out["seat_win_rate"] = [_rate_row(f"seat {i + 1}", a["seats"][i]["win"], b["seats"][i]["win"]) for i in range(seats)]
    out["length"] = [_mean_row(k, a["length"][k], b["length"][k]) for k in ("turns", "rounds")]
    ta = {t["ticket"]: t for t in a["tickets"]}
    tb = {t["ticket"]: t for t in b["tickets"]}
    out["tickets"] = [_rate_row(k, ta[k]["completion"], tb[k]["completion"]) for k in ta if k in tb]
    out["tickets_only_a"] = [k for k in ta if k not in tb]
    out["tickets_only_b"] = [k for k in tb if k not in ta]
    out["piles"] = [_rate_row(k, a["piles"][k]["completion"], b["piles"][k]["completion"]) for k in a["piles"] if k in b["piles"]]
    ra = {r["route"]: r for r in a["routes"]}
    rb = {r["route"]: r for r in b["routes"]}
    out["routes"] = [_rate_row(k, ra[k]["claimed"], rb[k]["claimed"]) for k in ra if k in rb]
    out["routes_only_a"] = [k for k in ra if k not in rb]
    out["routes_only_b"] = [k for k in rb if k not in ra]
    out["never_claimed"] = {"a": a["never_claimed"], "b": b["never_claimed"]}
    for key in ("win_rate", "score", "seat_win_rate", "length", "tickets", "piles", "routes"):
        holm(out[key])
    out["correction"] = "Holm, per table, family-wise 0.05"
    return out


def _fmt(x, pct: bool) -> str:
    if x is None:
        return "-"
    return f"{x * 100:6.1f}%" if pct else f"{x:7.2f}"


def _table(title: str, rows: list[dict], pct: bool, only_significant: bool = False, limit: int | None = None) -> list[str]:
    shown = [r for r in rows if r["significant"]] if only_significant else rows
    shown = sorted(shown, key=lambda r: -abs(r["diff"] or 0)) if only_significant else shown
    if limit is not None:
        shown = shown[:limit]
    lines = [title]
    if not shown:
        lines.append("  (no significant differences)" if only_significant else "  (none)")
        return lines
    width = max(len(r["key"]) for r in shown)
    lines.append(f"  {'':<{width}}  {'A':>8}  {'B':>8}  {'B-A':>8}  {'p':>7}  {'p Holm':>7}")
    for r in shown:
        diff = "-" if r["diff"] is None else (f"{r['diff'] * 100:+7.1f}%" if pct else f"{r['diff']:+8.2f}")
        p = "-" if r["p"] is None else f"{r['p']:.4f}"
        ph = "-" if r.get("p_holm") is None else f"{r['p_holm']:.4f}"
        mark = " *" if r["significant"] else ""
        lines.append(f"  {r['key']:<{width}}  {_fmt(r['a'], pct):>8}  {_fmt(r['b'], pct):>8}  {diff:>8}  {p:>7}  {ph:>7}{mark}")
    return lines


def render_text(c: dict, name_a: str, name_b: str, show_all: bool = False) -> str:
    a, b = c["a"], c["b"]
    lines = [
        f"A: {name_a}  ({a['variant_name']}, {a['games']} games, {a['players']} players, bots {','.join(a['bots'])})",
        f"B: {name_b}  ({b['variant_name']}, {b['games']} games, {b['players']} players, bots {','.join(b['bots'])})",
    ]
    lines += [f"note: {x}" for x in c["notes"]]
    lines.append("")
    lines += _table("Win rate per bot", c["win_rate"], True)
    lines += _table("Mean score per bot", c["score"], False)
    lines += _table("Win rate per seat", c["seat_win_rate"], True)
    lines += _table("Game length", c["length"], False)
    lines += _table("Ticket completion per pile", c["piles"], True)
    lines += _table("Ticket completion" + ("" if show_all else ": significant differences, largest first"), c["tickets"], True, not show_all)
    lines += _table("Route claim rate" + ("" if show_all else ": significant differences, largest first"), c["routes"], True, not show_all)
    for label, key in (("Routes only in A", "routes_only_a"), ("Routes only in B", "routes_only_b"),
                       ("Tickets only in A", "tickets_only_a"), ("Tickets only in B", "tickets_only_b")):
        if c[key]:
            lines.append(f"{label}: {', '.join(c[key])}")
    na, nb = c["never_claimed"]["a"], c["never_claimed"]["b"]
    lines.append(f"Never claimed: A {len(na)}, B {len(nb)}" + (f" (newly never claimed in B: {', '.join(x for x in nb if x not in na)})" if any(x not in na for x in nb) else ""))
    lines.append("* significant: p < 0.05 after Holm's correction for the comparisons in its table (p Holm; two-proportion z-test")
    lines.append("  for rates, Welch's test for means), so a table of many routes or tickets marks few by chance; B-A is B minus A.")
    return "\n".join(lines)
