"""Planning bots that keep their plan after their own claim, against the same bots that rebuild it.

    python benchmarks/bench_replan.py --variant usa --players 2 --games 1000
    python benchmarks/bench_replan.py --variant marklin --players 4 --games 400 --bot expert

Since the planning bots drop a planned route from the plan when they claim it,
instead of searching the network again (`PlanningBot.replan_after_own_claim`,
False by default), their games differ from before wherever a rebuild would
have broken a tie between equally cheap paths, or found a cheaper network
through the route just claimed. This plays the bot as it is against the same
bot with `replan_after_own_claim = True` (named `BOT-replan` here only), seats
alternating by game index (simulate's rotation, its seeds), and prints each
side's share of the games won (a shared win counts 1/k; even is 50%) with a 95% Wilson interval, and its mean
score. One process (the old side is registered in this process only).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.bots import BOTS  # noqa: E402
from ttr_maps.simulate.runner import GameSource, RunSpec, run_games  # noqa: E402
from ttr_maps.simulate.summary import wilson  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--bot", default="expert", help="a planning bot (default expert)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cls = BOTS[args.bot]
    old = f"{args.bot}-replan"
    BOTS[old] = type(cls.__name__ + "Replan", (cls,), {"name": old, "replan_after_own_claim": True})
    bots = tuple(args.bot if s % 2 == 0 else old for s in range(args.players))
    source = GameSource.from_file(str(ROOT / "maps" / "variants" / f"{args.variant}.yaml"), args.players)
    t0 = time.process_time()
    wins = {args.bot: 0.0, old: 0.0}
    seats = {args.bot: 0, old: 0}
    scores: dict[str, list[int]] = {args.bot: [], old: []}
    for line in run_games(RunSpec(source, bots, args.games, args.seed)):
        rec = json.loads(line)
        winners = rec["winners"]
        for s in rec["seats"]:
            seats[s["bot"]] += 1
            scores[s["bot"]].append(s["score"])
            if s["seat"] in winners:
                wins[s["bot"]] += 1 / len(winners)
    out = {"variant": args.variant, "players": args.players, "games": args.games, "seed": args.seed,
           "cpu_s": round(time.process_time() - t0, 1), "sides": {}}
    for b in (args.bot, old):
        share = wins[b] / args.games  # wins of that side per game (either seat of it)
        lo, hi = wilson(wins[b], args.games)
        out["sides"][b] = {"seats_per_game": seats[b] / args.games, "win_share": round(share, 3),
                           "ci": [round(lo, 3), round(hi, 3)], "mean_score": round(statistics.mean(scores[b]), 2)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.variant} {args.players}p, {args.games} games, seed {args.seed}, {out['cpu_s']} s CPU")
    for b, v in out["sides"].items():
        print(f"  {b:<22} seats/game {v['seats_per_game']:.1f}  wins {v['win_share'] * 100:5.1f}% "
              f"({v['ci'][0] * 100:.1f}-{v['ci'][1] * 100:.1f}%)  mean score {v['mean_score']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
