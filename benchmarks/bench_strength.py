"""A bot as it is against the same bot at an older commit, in the same games: is a change of its decisions weaker?

    python benchmarks/bench_strength.py --base main --bot expert
    python benchmarks/bench_strength.py --base 3f60fca --bot expert --bot route-focus --variant usa \\
        --variant europe --players 2 --players 4 --games 1000

A change that makes the bots faster by deciding differently (issue 18 allows it "with win rates
showing the bots are no weaker") is checked here. The bots of `--base` are loaded from a checkout
of that commit beside this tree's, into the same process, under the package name
`ttr_maps_base`; they play on this tree's engine and views (so a base whose bots need another
engine API is refused by name). Each configuration plays `--games` games of simulate's runner
with the new bot (`B`) and the old one (`B@base`) in alternate seats, in mirrored pairs: each
deal (simulate's game seed) is played twice, the sides' seats swapped, so the cards favour
neither side; simulate's rotation moves the table one seat a game. Seeds are simulate's
(`--seed`), so a run is replayable.

Per configuration it prints the new side's share of the games won (a shared win counts 1/k for
each winner; even is 50%) with its 95% Wilson interval, the mean score margin per game (the
new side's mean score less the old side's, averaged over a deal's two games, with a 95% normal
interval over the deals), and a verdict: `weaker`
when the win share's interval lies wholly below 50%, `stronger` wholly above, `even` otherwise.
Exit status 1 if any configuration is `weaker` (and 2 on bad arguments).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.abc
import json
import math
import re
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_interleaved import _base_tree, _drop_tree  # noqa: E402

from ttr_maps.bots import BOTS  # noqa: E402
from ttr_maps.simulate.runner import GameSource, RunSpec, run_games  # noqa: E402
from ttr_maps.simulate.summary import Z95, wilson  # noqa: E402

BASE = "ttr_maps_base"
# The old bots see the game through these, as the runner hands them over: they are this tree's.
SHARED_BOT_MODULES = ("view",)
_RELATIVE = re.compile(r"^\s*from\s+\.\.([\w.]+)\s+import", re.M)


class _Refuse(importlib.abc.MetaPathFinder):
    """Keeps the old package to its bots: any other module of it is this tree's (aliased) or an error."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith(BASE + ".") and not fullname.startswith(BASE + ".bots"):
            raise ImportError(f"the base's bots import {fullname[len(BASE) + 1:]!r}, which this tree does not "
                              "have under that name: the engine API the bots use changed; pick a --base "
                              "after that change")
        return None


def load_base_bots(tree: Path) -> dict[str, type]:
    """The bot classes of the checkout `tree`, on this tree's engine: name -> class."""
    bots_dir = tree / "ttr_maps" / "bots"
    if not bots_dir.is_dir():
        raise SystemExit(f"{tree}: no ttr_maps/bots there")
    wanted = set()
    for f in bots_dir.glob("*.py"):
        wanted.update(_RELATIVE.findall(f.read_text(encoding="utf-8")))
    for name in sorted(wanted):
        try:
            importlib.import_module("ttr_maps." + name)
        except ImportError as e:
            raise SystemExit(f"the base's bots import ttr_maps.{name}, which this tree cannot import ({e}): "
                             "the engine API the bots use changed; pick a --base after that change") from None
    for name in SHARED_BOT_MODULES:
        importlib.import_module("ttr_maps.bots." + name)
    pkg = types.ModuleType(BASE)
    pkg.__path__ = [str(tree / "ttr_maps")]
    sys.modules[BASE] = pkg
    for name, mod in list(sys.modules.items()):
        if name.startswith("ttr_maps.") and not name.startswith("ttr_maps.bots"):
            sys.modules[BASE + name[len("ttr_maps"):]] = mod
    for name in SHARED_BOT_MODULES:
        sys.modules[f"{BASE}.bots.{name}"] = sys.modules["ttr_maps.bots." + name]
    sys.meta_path.insert(0, _Refuse())
    old = importlib.import_module(BASE + ".bots")
    return dict(old.BOTS)


def margin_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def _sides(rec: dict, bot: str) -> tuple[float, float]:
    """(the new side's share of this game's win, its mean score less the old side's)."""
    winners = rec["winners"]
    new_scores, old_scores = [], []
    won = 0.0
    for s in rec["seats"]:
        if s["bot"] == bot:
            new_scores.append(s["score"])
            if s["seat"] in winners:
                won += 1 / len(winners)
        else:
            old_scores.append(s["score"])
    return won, statistics.fmean(new_scores) - statistics.fmean(old_scores)


def play(variant: str, players: int, bot: str, games: int, seed: int) -> dict:
    """`games` games in mirrored pairs: each deal (simulate's seed for that game) played twice, the sides'
    seats swapped, so a deal's luck favours neither side; the margin's interval is over the deals."""
    old = f"{bot}@base"
    first = tuple(bot if s % 2 == 0 else old for s in range(players))
    second = tuple(old if s % 2 == 0 else bot for s in range(players))
    deals = (games + 1) // 2
    source = GameSource.from_file(str(ROOT / "maps" / "variants" / f"{variant}.yaml"), players)
    t0 = time.process_time()
    wins = 0.0
    margins = []
    for a, b in zip(run_games(RunSpec(source, first, deals, seed)), run_games(RunSpec(source, second, deals, seed))):
        wa, ma = _sides(json.loads(a), bot)
        wb, mb = _sides(json.loads(b), bot)
        wins += wa + wb
        margins.append((ma + mb) / 2)
    n = 2 * deals
    lo, hi = wilson(wins, n)
    m, mlo, mhi = margin_interval(margins)
    verdict = "weaker" if hi < 0.5 else "stronger" if lo > 0.5 else "even"
    return {"variant": variant, "players": players, "bot": bot, "games": n, "seed": seed,
            "win_share": round(wins / n, 4), "ci": [round(lo, 4), round(hi, 4)],
            "margin": round(m, 2), "margin_ci": [round(mlo, 2), round(mhi, 2)], "verdict": verdict,
            "cpu_s": round(time.process_time() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the commit whose bots are the old side (e.g. main)")
    ap.add_argument("--bot", action="append", help="repeatable (default expert)")
    ap.add_argument("--variant", action="append", help="a bundled variant's name, repeatable (default usa, europe)")
    ap.add_argument("--players", type=int, action="append", help="repeatable (default 2 and 4)")
    ap.add_argument("--games", type=int, default=1000, help="games per configuration (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object per configuration")
    args = ap.parse_args(argv)
    bots = args.bot or ["expert"]
    variants = args.variant or ["usa", "europe"]
    counts = args.players or [2, 4]
    for v in variants:
        if not (ROOT / "maps" / "variants" / f"{v}.yaml").is_file():
            ap.error(f"--variant {v}: no maps/variants/{v}.yaml")
    for b in bots:
        if b not in BOTS:
            ap.error(f"--bot {b}: unknown bot; known: {', '.join(BOTS)}")
    if args.games < 1:
        ap.error("--games must be at least 1")
    tree, commit = _base_tree(args.base)
    try:
        old = load_base_bots(tree)
        for b in bots:
            if b not in old:
                raise SystemExit(f"--bot {b}: the base {commit[:9]} has no such bot")
            cls = old[b]
            BOTS[f"{b}@base"] = type(cls.__name__ + "Base", (cls,), {"name": f"{b}@base"})
        weaker = False
        if not args.json:
            print(f"new (this tree) against base {commit[:9]}: each deal played twice, seats swapped, seed {args.seed}")
            print(f"{'bot':<14}{'variant':<9}{'players':>7}{'games':>7}  {'new wins (95%)':<22}"
                  f"{'score margin (95%)':<26}verdict")
        for b in bots:
            for v in variants:
                for n in counts:
                    r = play(v, n, b, args.games, args.seed)
                    weaker |= r["verdict"] == "weaker"
                    if args.json:
                        print(json.dumps(r), flush=True)
                        continue
                    win = f"{r['win_share'] * 100:.1f}% ({r['ci'][0] * 100:.1f}-{r['ci'][1] * 100:.1f})"
                    mar = f"{r['margin']:+.2f} ({r['margin_ci'][0]:+.2f} to {r['margin_ci'][1]:+.2f})"
                    print(f"{b:<14}{v:<9}{n:>7}{r['games']:>7}  {win:<22}{mar:<26}{r['verdict']}", flush=True)
    finally:
        _drop_tree(tree)
    return 1 if weaker else 0


if __name__ == "__main__":
    raise SystemExit(main())
