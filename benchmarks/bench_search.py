"""The search bot against the expert: win rate (95% Wilson interval) and time per move, at stated budgets.

    python benchmarks/bench_search.py --variant usa --players 2 --games 200 --budget 64 --workers 2
    python benchmarks/bench_search.py --variant europe --players 4 --games 100 --budget 32 --json
    python benchmarks/bench_search.py ... --log run.jsonl      (each game as it ends; --summarize run.jsonl
                                                               prints the summary of the games logged so far)
    python benchmarks/bench_search.py ... --first 50 --games 50 --log b.jsonl   (games 50-99 of the same deal,
                                                               e.g. in a second process; --summarize a.jsonl
                                                               b.jsonl sums the logs, each game index once)

One search bot and the expert in every other seat; the search bot's seat
rotates with the game index (game i: seat i mod players), and the games are
dealt from the run seed as `ttr-maps simulate` deals them, so a line is
reproducible from its seed (budgets in playouts; a budget in seconds is not).
The even share is 1/players; a shared win counts 1/k; wins are also given per seat
of the search bot (at two players: moving first or second). Time per move is the
CPU time of the search bot's decisions (time.process_time in the process
playing the game): the mean over all its decisions, over the decisions it
searched (turns and mid-game ticket choices), and the slowest one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.bots.search import DEFAULT_INFER  # noqa: E402
from ttr_maps.simulate.summary import wilson  # noqa: E402


def play(args: tuple[str, int, int, int, str, str, str, str, str, str]) -> dict:
    """One game: the search bot in seat `index % players`, experts elsewhere."""
    variant, players, run_seed, index, budget, candidates, when, steps, infer, setup_steps = args
    from ttr_maps.bots import make_bot
    from ttr_maps.bots.view import StateView
    from ttr_maps.engine.game import Game
    from ttr_maps.simulate.runner import bot_seed, game_seed

    game = _GAMES.get((variant, players))
    if game is None:
        game = _GAMES[(variant, players)] = Game.from_file(ROOT / "maps" / "variants" / f"{variant}.yaml", players)
    seed = game_seed(run_seed, index)
    me = index % players
    bots = [make_bot("search", game, s, bot_seed(seed, s), {"budget": budget, "candidates": candidates, "when": when, "steps": steps, "infer": infer,
                                                            "setup_steps": setup_steps}) if s == me
            else make_bot("expert", game, s, bot_seed(seed, s)) for s in range(players)]
    state = game.new_initial_state(seed)
    times: list[float] = []
    searched_times: list[float] = []
    while not state.is_terminal():
        p = state.current
        legal = state.legal_actions(not bots[p].route_level)
        view = StateView(state, p)
        if p == me:
            before = bots[p].stats["searched"]
            t = time.process_time()
            a = bots[p].act(view, legal)
            dt = time.process_time() - t
            times.append(dt)
            if bots[p].stats["searched"] > before:
                searched_times.append(dt)
        else:
            a = bots[p].act(view, legal)
        view.close()
        state.apply(a)
    scores = state.returns()
    return {"index": index, "seat": me, "winners": list(state.winners()), "scores": scores, "times": times,
            "searched_times": searched_times, "stats": bots[me].stats}


_GAMES: dict = {}


def _ranges(indices: list[int]) -> str:
    """Game indices as runs: 0-39, 50-71."""
    out: list[str] = []
    for i in sorted(indices):
        if out and int(out[-1].split("-")[-1]) == i - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{i}"
        else:
            out.append(str(i))
    return ", ".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="usa", help="bundled variant name (default usa)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--budget", default="64", help="search.budget: playouts per decision, or seconds with 's'")
    ap.add_argument("--candidates", default="3", help="search.candidates (default 3)")
    ap.add_argument("--when", default="claims", help="search.when (default claims)")
    ap.add_argument("--steps", default="3000", help="search.steps: playout actions a decision at most (default 3000, none: no cap)")
    ap.add_argument("--setup-steps", default="5000",
                    help="search.setup_steps: playout actions for the starting tickets at most (default 5000, none: no cap)")
    ap.add_argument("--infer", default=None,
                    help=f"search.infer: how strongly worlds give the other seats tickets their claims serve (default "
                         f"the bot's, {DEFAULT_INFER:g}; 0: dealt uniformly, as before it existed)")
    ap.add_argument("--log", type=Path, help="append each game's result to this file as it ends (JSON lines)")
    ap.add_argument("--summarize", type=Path, nargs="+",
                    help="print the summary of the games in these logs (each game index once), play none")
    ap.add_argument("--first", type=int, default=0, help="index of the first game to play (default 0)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    start = time.perf_counter()
    if args.summarize:
        by_index: dict[int, dict] = {}
        runs = set()
        for path in args.summarize:
            if not path.is_file():
                print(f"{path}: no such log (give the files written by --log)", file=sys.stderr)
                return 1
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    r = json.loads(line)
                    r["run"].setdefault("setup_steps", "5000")  # logs from before --setup-steps
                    by_index.setdefault(r["index"], r)
                    runs.add(tuple(sorted(r["run"].items())))
        results = [by_index[i] for i in sorted(by_index)]
        if not results:
            print(f"{' '.join(map(str, args.summarize))}: no games logged yet", file=sys.stderr)
            return 1
        if len(runs) > 1:
            print("these logs are from different runs (variant, players, seed, budget, candidates, when, steps, setup steps or "
                  "infer differ)",
                  file=sys.stderr)
            return 1
        meta = results[0]["run"]
        args.variant, args.players, args.seed, args.budget, args.candidates, args.when, args.steps, args.infer, args.setup_steps = (
            meta["variant"], meta["players"], meta["seed"], meta["budget"], meta["candidates"], meta["when"],
            meta.get("steps", "3000"), meta.get("infer", "0"), meta["setup_steps"])
    else:
        if args.infer is None:
            args.infer = f"{DEFAULT_INFER:g}"
        jobs = [(args.variant, args.players, args.seed, i, args.budget, args.candidates, args.when, args.steps, args.infer,
                 args.setup_steps) for i in range(args.first, args.first + args.games)]
        run = {"variant": args.variant, "players": args.players, "seed": args.seed, "budget": args.budget,
               "candidates": args.candidates, "when": args.when, "steps": args.steps, "infer": args.infer,
               "setup_steps": args.setup_steps}
        log = args.log.open("a", encoding="utf-8") if args.log else None

        def done(r: dict) -> dict:
            if log is not None:
                log.write(json.dumps({**r, "run": run}) + "\n")
                log.flush()
            return r

        if args.workers > 1:
            import multiprocessing

            with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                results = [done(r) for r in pool.map(play, jobs, chunksize=1)]
        else:
            results = [done(play(j)) for j in jobs]
        if log is not None:
            log.close()
    wall = time.perf_counter() - start
    wins = sum(1 / len(r["winners"]) for r in results if r["seat"] in r["winners"])
    lo, hi = wilson(wins, len(results))
    times = [t for r in results for t in r["times"]]
    searched = [t for r in results for t in r["searched_times"]]
    setup = [r["times"][0] for r in results]  # a seat's first decision is its choice of starting tickets
    later = [t for r in results for t in r["times"][1:]]
    margin = [r["scores"][r["seat"]] - max(s for p, s in enumerate(r["scores"]) if p != r["seat"]) for r in results]
    by_seat = []
    for seat in range(args.players):
        rs = [r for r in results if r["seat"] == seat]
        if rs:
            w = sum(1 / len(r["winners"]) for r in rs if r["seat"] in r["winners"])
            slo, shi = wilson(w, len(rs))
            by_seat.append({"seat": seat, "games": len(rs), "win_rate": round(w / len(rs), 3),
                            "ci": [round(slo, 3), round(shi, 3)]})
    out = {
        "variant": args.variant, "players": args.players, "games": len(results), "seed": args.seed,
        "indices": _ranges([r["index"] for r in results]),
        "budget": args.budget, "candidates": args.candidates, "when": args.when, "steps": args.steps, "infer": args.infer,
        "setup_steps": args.setup_steps,
        "win_rate": round(wins / len(results), 3), "ci": [round(lo, 3), round(hi, 3)],
        "even_share": round(1 / args.players, 3),
        "mean_margin": round(statistics.mean(margin), 2), "by_seat": by_seat,
        "s_per_move": round(statistics.mean(times), 3), "s_per_searched_move": round(statistics.mean(searched), 3) if searched else 0,
        "max_s_per_move": round(max(times), 3),
        "max_s_starting_tickets": round(max(setup), 3) if setup else 0,
        "max_s_after_setup": round(max(later), 3) if later else 0,
        "searched_moves_per_game": round(sum(r["stats"]["searched"] for r in results) / len(results), 1),
        "moves_changed": round(sum(r["stats"]["changed"] for r in results) / max(1, sum(r["stats"]["searched"] for r in results)), 3),
        "python": platform.python_version(), "load_start": [round(x, 2) for x in load],
        "load_end": [round(x, 2) for x in os.getloadavg()], "wall_s": round(wall, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['variant']} {out['players']}p, search (budget {out['budget']}, {out['candidates']} candidates, when {out['when']}, steps {out['steps']}, "
          f"setup steps {out['setup_steps']}, infer {out['infer']}) vs expert, "
          f"{out['games']} games ({out['indices']}), seed {out['seed']}: search wins {out['win_rate'] * 100:.1f}% "
          f"({out['ci'][0] * 100:.1f}-{out['ci'][1] * 100:.1f}%; even share {out['even_share'] * 100:.0f}%), "
          f"mean margin {out['mean_margin']:+.1f}")
    for b in by_seat:
        print(f"  search in seat {b['seat']}: {b['games']} games, "
              f"wins {b['win_rate'] * 100:.1f}% ({b['ci'][0] * 100:.1f}-{b['ci'][1] * 100:.1f}%)")
    print(f"time per move (CPU): {out['s_per_move']:.3f} s mean, {out['s_per_searched_move']:.3f} s when searching, "
          f"{out['max_s_per_move']:.3f} s at most (starting tickets {out['max_s_starting_tickets']:.3f} s at most, "
          f"later moves {out['max_s_after_setup']:.3f} s); {out['searched_moves_per_game']} searched moves a game, "
          f"of which {out['moves_changed'] * 100:.0f}% changed from the expert's; "
          f"load {'/'.join(map(str, out['load_start']))} -> {'/'.join(map(str, out['load_end']))}, {out['wall_s']} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
