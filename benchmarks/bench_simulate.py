"""Speed and strength of the bots, through the same runner as `ttr-maps simulate`.

    python benchmarks/bench_simulate.py                      # speed (1,000 games) and strength (200 games per match-up)
    python benchmarks/bench_simulate.py --skip-strength --games 300
    python benchmarks/bench_simulate.py --skip-speed --strength-games 400 --variant maps/variants/europe.yaml
    python benchmarks/bench_simulate.py --skip-speed --seed 11                 # the strength table on a second seed

Speed: four-player USA games with the four planning bots, and with four random
bots, in one process (games/s per core, CPU time of the process) and on every
core (`--workers`, wall-clock time); beside it the engine's own random play
(benchmarks/bench_engine.py's loop, no bots, no records).

Strength: the expert against random and against each simple style, two
players, seats alternating; four players, two experts against two of each
simple style (seats rotating; the even share is 25% per seat); then the four
planning bots at one table. Win rates per seat with 95% Wilson intervals (a
shared win counts 1/k).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.simulate.runner import GameSource, RunSpec, run_games  # noqa: E402
from ttr_maps.simulate.summary import wilson  # noqa: E402

PLANNING = ("expert", "route-focus", "ticket-hungry", "long-route")
RANDOM4 = ("random",) * 4
SIMPLE = ("random", "route-focus", "ticket-hungry", "long-route")


def timed(spec: RunSpec, workers: int) -> tuple[float, float, list[str]]:
    cpu = time.process_time()
    wall = time.perf_counter()
    lines = list(run_games(spec, workers=workers))
    return time.perf_counter() - wall, time.process_time() - cpu, lines


def engine_random(path: Path, players: int, games: int) -> float:
    """Games/s of the engine alone playing uniformly random legal actions (bench_engine.py's loop)."""
    import random

    from ttr_maps.engine.game import Game

    game = Game.from_file(path, players)
    rng = random.Random(1)
    start = time.process_time()
    for i in range(games):
        state = game.new_initial_state(i)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        state.score_sheet()
    return games / (time.process_time() - start)


def speed(games: int, workers: int) -> dict:
    usa = ROOT / "maps" / "variants" / "usa.yaml"
    source = GameSource.from_file(str(usa), 4)
    out = {"games": games, "workers": workers}
    list(run_games(RunSpec(source, PLANNING, 20, 99)))  # warm-up (interned actions, board tables)
    for label, bots in (("planning", PLANNING), ("random", RANDOM4)):
        spec = RunSpec(source, bots, games, 1)
        wall1, cpu1, lines1 = timed(spec, 1)
        wallw, _, linesw = timed(spec, workers)
        assert lines1 == linesw, "records differ between 1 and several workers"
        turns = sum(json.loads(x)["turns"] for x in lines1) / games
        out[label] = {
            "per_core_games_per_s": round(games / cpu1, 1),
            "one_process_wall_games_per_s": round(games / wall1, 1),
            "all_cores_games_per_s": round(games / wallw, 1),
            "turns_per_game": round(turns, 1),
        }
    out["engine_random_games_per_s"] = round(engine_random(usa, 4, min(games, 500)), 1)
    return out


def win_rate(lines: list[str], bot: str) -> tuple[float, int]:
    wins = 0.0
    seats = 0
    for line in lines:
        r = json.loads(line)
        share = 1 / len(r["winners"]) if r["winners"] else 0
        for s in r["seats"]:
            if s["bot"] == bot:
                seats += 1
                wins += share if s["seat"] in r["winners"] else 0
    return wins, seats


def strength(variants: list[Path], games: int, workers: int, seed: int = 7) -> list[dict]:
    rows = []

    def row(path, players, match, bot, lines):
        w, n = win_rate(lines, bot)
        lo, hi = wilson(w, n)
        rows.append({"variant": path.stem, "players": players, "match": match, "bot": bot,
                     "win_rate": round(w / n, 3), "ci": [round(lo, 3), round(hi, 3)], "games": games, "seed": seed})

    for path in variants:
        for other in SIMPLE:
            spec = RunSpec(GameSource.from_file(str(path), 2), ("expert", other), games, seed)
            row(path, 2, f"expert vs {other}", "expert", list(run_games(spec, workers=workers)))
        four = GameSource.from_file(str(path), 4)
        for other in SIMPLE[1:]:
            spec = RunSpec(four, ("expert", other, "expert", other), games, seed)
            row(path, 4, f"2 experts vs 2 {other}", "expert", list(run_games(spec, workers=workers)))
        lines = list(run_games(RunSpec(four, PLANNING, games, seed), workers=workers))
        for bot in PLANNING:
            row(path, 4, f"{bot} (at a table of four planning bots)", bot, lines)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per speed measurement (default 1000)")
    ap.add_argument("--strength-games", type=int, default=200, help="games per match-up (default 200)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for the all-cores figure")
    ap.add_argument("--variant", type=Path, action="append", help="variants for the strength table (default USA and Europe)")
    ap.add_argument("--seed", type=int, default=7, help="run seed of the strength games (default 7)")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-strength", action="store_true")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    result: dict = {"python": platform.python_version(), "cpus": os.cpu_count()}
    if not args.skip_speed:
        result["speed"] = speed(args.games, args.workers)
    if not args.skip_strength:
        variants = args.variant or [ROOT / "maps" / "variants" / "usa.yaml", ROOT / "maps" / "variants" / "europe.yaml"]
        result["strength"] = strength(variants, args.strength_games, args.workers, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"Python {result['python']}, {result['cpus']} cores")
    if "speed" in result:
        s = result["speed"]
        print(f"\nSpeed: {s['games']} four-player USA games (records included); workers={s['workers']}")
        print(f"{'bots':<10}{'games/s per core':>18}{'games/s all cores':>19}{'turns/game':>12}")
        for label in ("planning", "random"):
            x = s[label]
            print(f"{label:<10}{x['per_core_games_per_s']:>18}{x['all_cores_games_per_s']:>19}{x['turns_per_game']:>12}")
        print(f"engine alone, random legal actions (bench_engine.py): {s['engine_random_games_per_s']} games/s per core")
    if "strength" in result:
        print(f"\nStrength: win rate per seat (95% Wilson interval), {args.strength_games} games per line, seed {args.seed}, seats rotating")
        for r in result["strength"]:
            who = r["match"]
            print(f"  {r['variant']:<8}{r['players']}p  {who:<52}{r['win_rate'] * 100:6.1f}%  ({r['ci'][0] * 100:.1f}-{r['ci'][1] * 100:.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
