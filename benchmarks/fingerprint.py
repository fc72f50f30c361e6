"""Fingerprints of the engine and the bots over every bundled variant, to show a refactor keeps results.

    python benchmarks/fingerprint.py -o /tmp/before.json          # on the old commit
    python benchmarks/fingerprint.py --check /tmp/before.json     # on the new one: exit 1 on any difference

For every variant in maps/variants at its smallest and largest player count it plays
seeded random games and hashes, action by action, the number of legal actions, the
legal actions' texts and the chosen one, the state's public counts, and at the end the
score sheet (totals, breakdowns, completed and failed tickets, longest trails, winners)
and the counters of open cases. It also plays seeded games of the planning bots
(simulate's own play_game) and hashes their records.

Three hashes per configuration, so an intended change of one kind can be told apart:
`structure` (legal-action counts, choices and scores: rules and results), `text` (the
notation of every legal action) and `bots` (the bots' games).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.engine.game import Game  # noqa: E402

BOT_TABLE = ["expert", "route-focus", "ticket-hungry", "long-route"]


def _sheet_text(state) -> str:
    sheet = state.score_sheet()
    parts = [repr(tuple(sheet.winners))]
    for p in sheet.players:
        parts.append(repr((p.total, sorted(p.breakdown.items()), tuple(p.completed), tuple(p.failed), p.longest_trail)))
    parts.append(repr(sorted(state.counters.items())))
    return "|".join(parts)


def random_games(game: Game, games: int, seed: int) -> tuple[str, str]:
    structure, text = hashlib.sha256(), hashlib.sha256()
    for i in range(games):
        rng = random.Random(seed * 7919 + i)
        state = game.new_initial_state(seed * 1_000_003 + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            k = rng.randrange(len(legal))
            structure.update(f"{state.current}:{len(legal)}:{k};".encode())
            text.update(("\x1f".join(game.action_text(a) for a in legal) + "\x1e").encode())
            state.apply(legal[k])
        structure.update(_sheet_text(state).encode())
    return structure.hexdigest(), text.hexdigest()


def bot_games(game: Game, games: int, seed: int) -> str:
    from ttr_maps.simulate.runner import play_game, record_line

    h = hashlib.sha256()
    bots = BOT_TABLE[: game.num_players] + BOT_TABLE[: max(0, game.num_players - len(BOT_TABLE))]
    for i in range(games):
        rec = play_game(game, bots, seed * 1_000_003 + i, i)
        h.update(record_line(rec).encode())
    return h.hexdigest()


def fingerprints(variants: list[Path], games: int, bot_games_n: int, seed: int) -> dict:
    out = {}
    for path in variants:
        probe = Game.from_file(path, 2 if path.stem != "paris" else 2)
        lo, hi = probe.variant.players.min, probe.variant.players.max
        for n in sorted({lo, hi}):
            game = Game.from_file(path, n)
            t0 = time.process_time()
            structure, text = random_games(game, games, seed)
            bots = bot_games(game, bot_games_n, seed) if bot_games_n else ""
            out[f"{path.stem}-{n}p"] = {"structure": structure, "text": text, "bots": bots,
                                         "cpu_s": round(time.process_time() - t0, 2)}
            print(f"{path.stem}-{n}p  structure {structure[:12]}  text {text[:12]}  bots {bots[:12]}"
                  f"  ({out[f'{path.stem}-{n}p']['cpu_s']} s)", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="random games per configuration")
    ap.add_argument("--bot-games", type=int, default=4, help="bot games per configuration (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", type=Path, action="append", help="variant file (repeatable); default every bundled one")
    ap.add_argument("-o", "--output", type=Path, help="write the fingerprints as JSON")
    ap.add_argument("--check", type=Path, help="compare with fingerprints written earlier; exit 1 on a difference")
    args = ap.parse_args(argv)
    variants = args.variant or sorted((ROOT / "maps" / "variants").glob("*.yaml"))
    result = {"games": args.games, "bot_games": args.bot_games, "seed": args.seed,
              "configs": fingerprints(variants, args.games, args.bot_games, args.seed)}
    if args.output:
        args.output.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.check:
        old = json.loads(args.check.read_text(encoding="utf-8"))
        if (old["games"], old["bot_games"], old["seed"]) != (args.games, args.bot_games, args.seed):
            print("the runs differ in --games/--bot-games/--seed; nothing compared", file=sys.stderr)
            return 2
        bad = 0
        for key, new in result["configs"].items():
            was = old["configs"].get(key)
            for kind in ("structure", "text", "bots"):
                if was is None or was[kind] != new[kind]:
                    bad += 1
                    print(f"DIFFERENT {key} {kind}")
        print("all fingerprints equal" if not bad else f"{bad} fingerprints differ")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
