"""Where the search bot's playouts find better moves than the expert's: alternatives played out to the end.

    python benchmarks/search_playouts.py --variant usa --players 2 --games 24 --worlds 8

Experts play whole games (seeds 1000, 1001, ...); every ninth turn or so the
seat to move is asked what the search bot would consider (`search.when=all`,
`search.candidates=6`: the expert's move, the card draw it would make instead
of a claim, a blind draw, each colour face up, its planned claims, the claim
worth most points, tickets). Each candidate is played in the same worlds dealt
from that seat's view, experts in every seat to the end. Printed per kind of
the expert's move: positions, and in how many of them an alternative beats it
by more than two standard errors (margin over the best other score, paired by
world); and per kind of alternative, the mean gain over the expert's move and
the share of worlds where it gains.

    python benchmarks/search_playouts.py --variant europe --bars --games 14 --worlds 40

With `--bars`: how sure the search should be before it leaves the expert's
move. Experts play whole games (seeds 5000, 5001, ...); about every fifth turn
where the expert would claim (the turns the search bot looks at by default),
the search bot's default candidates are played in the same worlds. Then, 20
times a position, `--decide` of the worlds (default 10) pick a candidate by
each rule (the best mean margin over the expert's move above zero, or above
0.5, 1, 2 standard errors; or the best mean of another objective: the win
rate, the margin clipped to +-10, tanh(margin / 10), a win plus a fiftieth of
the margin) and the other worlds judge it: printed per rule,
the share of decisions changed and the mean gain in margin and in wins
(points of win rate) a decision, over the expert's move.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from ttr_maps.bots import make_bot
    from ttr_maps.bots.search import _World
    from ttr_maps.bots.view import StateView
    from ttr_maps.engine.game import PH_TURN, Game

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--seed", type=int, default=None, help="first game's seed (default 1000; 5000 with --bars)")
    ap.add_argument("--bars", action="store_true", help="compare the rules for leaving the expert's move")
    ap.add_argument("--decide", type=int, default=10, help="with --bars: worlds that decide (default 10)")
    args = ap.parse_args(argv)
    game = Game.from_file(ROOT / "maps" / "variants" / f"{args.variant}.yaml", args.players)
    if args.bars:
        return bars(game, args)
    if args.seed is None:
        args.seed = 1000
    positions: dict[str, int] = defaultdict(int)
    beaten: dict[str, int] = defaultdict(int)
    gains: dict[tuple[str, str], list[float]] = defaultdict(list)
    for g in range(args.games):
        seed = args.seed + g
        bots = [make_bot("expert", game, s, s + 100 * seed) for s in range(args.players)]
        state = game.new_initial_state(seed)
        next_turn = 6 + g % 5
        while not state.is_terminal():
            p = state.current
            if state.phase == PH_TURN and state.turns >= next_turn:
                next_turn += 9
                bot = make_bot("search", game, p, seed, {"when": "all", "candidates": "6"})
                view = StateView(state, p)
                legal = state.legal_actions(False)
                choice = bot.prior.act(view, legal)
                cands = bot.candidates(view, legal, choice)
                world = _World(game, view, bot.infer)
                view.close()
                if len(cands) >= 2 and world.ok:
                    rng = random.Random(seed * 7 + state.turns)
                    margins = [[] for _ in cands]
                    for _ in range(args.worlds):
                        w = world.sample(rng)
                        for i, c in enumerate(cands):
                            margins[i].append(bot.playout(w, c))
                    kind = type(choice).__name__
                    positions[kind] += 1
                    clear = False
                    for i in range(1, len(cands)):
                        d = [a - b for a, b in zip(margins[i], margins[0])]
                        mean = sum(d) / len(d)
                        se = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
                        gains[(kind, type(cands[i]).__name__)].extend(d)
                        clear = clear or mean - 2 * se > 0
                    beaten[kind] += clear
            view = StateView(state, p)
            state.apply(bots[p].act(view, state.legal_actions(False)))
            view.close()
        print(f"game {g + 1}/{args.games}: {sum(positions.values())} positions", file=sys.stderr, flush=True)
    print(f"{args.variant} {args.players}p, {args.games} games (seeds {args.seed}-{args.seed + args.games - 1}), "
          f"{args.worlds} worlds a position")
    for kind in sorted(positions):
        print(f"expert's move {kind}: {positions[kind]} positions, beaten by 2 standard errors in {beaten[kind]}")
        for (k, alt), d in sorted(gains.items()):
            if k == kind:
                print(f"  {alt:12s} {len(d):5d} worlds: mean gain {sum(d) / len(d):+.2f}, "
                      f"gains in {sum(x > 0 for x in d) / len(d) * 100:.0f}%")
    return 0


def bars(game, args) -> int:
    from ttr_maps.bots import make_bot
    from ttr_maps.bots.search import _World
    from ttr_maps.bots.view import StateView
    from ttr_maps.engine.actions import DrawBlind, DrawFaceUp
    from ttr_maps.engine.game import PH_TURN

    first = 5000 if args.seed is None else args.seed
    if not 2 <= args.decide < args.worlds:
        print(f"--decide {args.decide}: give 2 to --worlds - 1 ({args.worlds - 1})", file=sys.stderr)
        return 2
    positions: list[list[list[float]]] = []  # per position, per world, each candidate's margin
    for g in range(args.games):
        seed = first + g
        bots = [make_bot("expert", game, s, s + 100 * seed) for s in range(args.players)]
        state = game.new_initial_state(seed)
        next_turn = 2 + g % 4
        while not state.is_terminal():
            p = state.current
            if state.phase == PH_TURN and state.turns >= next_turn:
                bot = make_bot("search", game, p, seed, {})
                view = StateView(state, p)
                legal = state.legal_actions(False)
                choice = bot.prior.act(view, legal)
                if type(choice) is not DrawBlind and type(choice) is not DrawFaceUp:
                    next_turn = state.turns + 5
                    cands = bot.candidates(view, legal, choice)
                    world = _World(game, view, bot.infer)
                    if len(cands) >= 2 and world.ok:
                        rng = random.Random(seed * 7 + state.turns)
                        rows = []
                        for _ in range(args.worlds):
                            w = world.sample(rng)
                            rows.append([bot.playout(w, c) for c in cands])
                        positions.append(rows)
                view.close()
            view = StateView(state, p)
            state.apply(bots[p].act(view, state.legal_actions(False)))
            view.close()
        print(f"game {g + 1}/{args.games}: {len(positions)} positions", file=sys.stderr, flush=True)

    def win(x: float) -> float:
        return 1.0 if x > 0 else 0.5 if x == 0 else 0.0

    def pick(rows: list[list[float]], z: float) -> int:
        best, best_v = 0, 0.0
        for i in range(1, len(rows[0])):
            d = [r[i] - r[0] for r in rows]
            m = len(d)
            mean = sum(d) / m
            se = math.sqrt(sum((x - mean) ** 2 for x in d) / (m - 1) / m)
            if mean > 0 and mean - z * se > best_v:
                best, best_v = i, mean - z * se
        return best

    print(f"{args.variant} {args.players}p, {args.games} games (seeds {first}-{first + args.games - 1}), "
          f"{len(positions)} positions where the expert would claim, {args.worlds} worlds each, "
          f"{args.decide} deciding and {args.worlds - args.decide} judging (20 splits a position)")
    def pick_by(rows: list[list[float]], f) -> int:
        """The candidate with the best mean of f(margin) over the expert's move, if above zero."""
        best, best_v = 0, 0.0
        for i in range(1, len(rows[0])):
            mean = sum(f(r[i]) - f(r[0]) for r in rows) / len(rows)
            if mean > best_v + 1e-12:
                best, best_v = i, mean
        return best

    rules = [("best mean above 0" if z == 0 else f"{z:g} standard errors above 0", lambda rows, z=z: pick(rows, z))
             for z in (0, 0.5, 1, 2)]
    # The objective: the mean margin (above) against the win rate and margins that count big wins less.
    rules += [("best win rate", lambda rows: pick_by(rows, win)),
              ("margin clipped to +-10", lambda rows: pick_by(rows, lambda x: max(-10.0, min(10.0, x)))),
              ("tanh(margin / 10)", lambda rows: pick_by(rows, lambda x: math.tanh(x / 10))),
              ("win + margin / 50", lambda rows: pick_by(rows, lambda x: win(x) + x / 50))]
    for rule, choose in rules:
        rng = random.Random(1)
        changed = margin = wins = n = 0
        for rows in positions:
            for _ in range(20):
                idx = list(range(len(rows)))
                rng.shuffle(idx)
                decide = [rows[i] for i in idx[: args.decide]]
                judge = [rows[i] for i in idx[args.decide:]]
                c = choose(decide)
                changed += c != 0
                margin += sum(r[c] - r[0] for r in judge) / len(judge)
                wins += sum(win(r[c]) - win(r[0]) for r in judge) / len(judge)
                n += 1
        print(f"  {rule:28s} changed {changed / n * 100:3.0f}%, gain a decision {margin / n:+.2f} points of margin, "
              f"{wins / n * 100:+.2f} points of win rate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
