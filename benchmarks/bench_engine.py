"""Speed of the reference engine: complete games of uniformly random legal actions.

    python benchmarks/bench_engine.py                 # USA and Europe at 2 and 4 players
    python benchmarks/bench_engine.py --games 500 --variant maps/variants/marklin.yaml --players 3

Reports games/s and µs/action per configuration, with and without final scoring
(scoring.final_score at the end of each game). Each configuration is warmed up
first (the engine interns actions and payments on first sight); then the best of
`--repeat` timed runs is reported. One process, one core; times are the
process's CPU time (time.process_time), so other load on a shared machine
inflates them less than wall-clock time would.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.engine.game import Game  # noqa: E402

DEFAULT = [("usa", 2), ("usa", 4), ("europe", 2), ("europe", 4)]


def play(game: Game, games: int, seed: int, score: bool) -> tuple[float, int]:
    """Seconds and actions for `games` random games."""
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for i in range(games):
        state = game.new_initial_state(seed * 1_000_003 + i)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        if score:
            state.score_sheet()
    return time.process_time() - start, actions


def bench(path: Path, players: int, games: int, repeat: int) -> dict:
    game = Game.from_file(path, players)
    play(game, max(20, games // 5), 999, False)  # warm-up
    out = {"variant": game.variant.name, "players": players, "games": games}
    for score in (False, True):
        best = None
        for r in range(repeat):
            seconds, actions = play(game, games, r + 1, score)
            if best is None or seconds < best[0]:
                best = (seconds, actions)
        seconds, actions = best
        tag = "with_scoring" if score else "engine"
        out[tag] = {
            "games_per_s": round(games / seconds, 1),
            "us_per_action": round(seconds / actions * 1e6, 2),
            "actions_per_game": round(actions / games, 1),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", type=Path, action="append", help="variant file (repeatable); default USA and Europe")
    ap.add_argument("--players", type=int, action="append", help="player count (repeatable); default 2 and 4")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    if args.variant:
        configs = [(v, n) for v in args.variant for n in (args.players or [2, 4])]
    else:
        configs = [(ROOT / "maps" / "variants" / f"{name}.yaml", n) for name, n in DEFAULT]
    results = [bench(Path(v), n, args.games, args.repeat) for v, n in configs]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.games} games per run, best of {args.repeat}")
    print(f"{'variant':<14}{'players':>8}{'games/s':>10}{'us/action':>11}{'actions/game':>14}{'games/s incl. scoring':>24}")
    for r in results:
        e, s = r["engine"], r["with_scoring"]
        print(f"{r['variant']:<14}{r['players']:>8}{e['games_per_s']:>10}{e['us_per_action']:>11}{e['actions_per_game']:>14}{s['games_per_s']:>24}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
