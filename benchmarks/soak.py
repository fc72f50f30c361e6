"""Soak the engine: many seeded random games over every bundled variant and player count, with the
invariants checked after every action.

    python benchmarks/soak.py --games 2700                  # 100 games of each of the 27 variant/player counts
    nice -n 19 python benchmarks/soak.py --games 100000 --report-every 5000 > soak.log
    python benchmarks/soak.py --games 50000 --seed 1 --views-every 20 --replay-every 10   # one of two shards

After every action:
- cards are conserved kind by kind (deck, discards, face-up row, hands, a tunnel's revealed and
  paid cards, flag cards) and no count is negative;
- tickets are conserved (piles, box, set aside, kept, offered: each ticket in play exactly once);
- trains: each player's trains left plus the spaces of their claims is the variant's trains;
- stations: at most the variant's number, each owned by the player listing it, none in a country;
- passengers (unplaced, on the board, moved, the one on a journey) and goods tokens (on the board
  plus taken) are conserved;
- scores: each player's score is the points of their claims' lengths plus their flag sets;
- the end: the game ends exactly one full round after the first turn that ends with a player at or
  below `end.trains_at_most` trains (every player, that one included, plays once more), or when
  every player has passed in a row; never otherwise;
- hidden information: one seat's observation (rotating) is the same when everything it may not
  see is changed (deck order, the other players' hands and tickets, offers, the generator).
At the end of each game: the final score sheet adds up (each total is its breakdown's sum); the
game replayed from its seed and the text of its actions is byte-identical as a state file; and
the state file read back gives the same file.

Prints games, actions and violations (by kind, with the first examples: variant, players, seed,
action number); exits 1 on any violation. The figures of a 100,000-game run are in docs/limits.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.bundled import names  # noqa: E402
from ttr_maps.engine.game import Game, State  # noqa: E402
from ttr_maps.engine.statefile import dump_state, state_from_dict  # noqa: E402
from ttr_maps.load import load_variant  # noqa: E402

MAX_ACTIONS = 20_000


class Violation(Exception):
    """An invariant broken: `kind` names it."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


_EXPECTED: dict[int, tuple] = {}


def _expected(g: Game) -> tuple:
    """What never changes in a game: the deck by kind, the tickets in play, the goods tokens, the points per length."""
    got = _EXPECTED.get(id(g))
    if got is None or got[0] is not g:
        t = g.t
        got = _EXPECTED[id(g)] = (g, list(t.deck_counts), sorted(t.ticket_pile),
                                  sorted(x for _, values in t.goods_stacks for x in values),
                                  [t.route_points.get(t.t_len[tid], 0) for tid in range(t.NT)])
    return got


def check_state(s: State) -> None:
    """Every conservation invariant of a position (raises Violation)."""
    g = s.game
    t = s.t
    v = g.variant
    n = g.num_players
    _, deck_counts, in_play, goods_tokens, tid_points = _expected(g)
    t_len = t.t_len
    deck, face_up = s.deck, s.face_up
    for h in s.hands:
        if min(h) < 0:
            raise Violation("cards", f"a hand holds a negative count: {h}")
    held = [sum(col) for col in zip(*s.hands)]
    counts = [s.discard[k] + deck.count(k) + face_up.count(k) + held[k] for k in range(t.NK)]
    for f in s.flag_cards:
        for k in f:
            counts[k] += 1
    if s.tunnel is not None:
        for k in s.tunnel.revealed:
            counts[k] += 1
        color, nc, nl, nb, _ = s.tunnel.paid
        if nc:
            counts[color] += nc
        counts[t.LOCO] += nl
        counts[t.BIG] += nb
    if counts != deck_counts:
        raise Violation("cards", f"cards by kind {counts}, the variant has {deck_counts}")
    if sum(s.discard) != s.discard_total:
        raise Violation("cards", f"discard total {s.discard_total} != {sum(s.discard)}")

    tickets = [k for pile in s.piles.values() for k in pile] + list(s.boxed) + [k for k, _ in s.aside]
    tickets += [k for kept in s.kept for k in kept] + [k for o in s.offers for k in o]
    if sorted(tickets) != in_play:
        twice = " (some twice)" if len(set(tickets)) != len(tickets) else ""
        raise Violation("tickets", f"{len(tickets)} tickets placed, {len(t.ticket_pile)} in play{twice}")

    owned = 0
    for p in range(n):
        spaces = sum(map(t_len.__getitem__, s.claims[p]))
        if not (s.trains[p] + spaces == v.trains and s.trains[p] >= 0):
            raise Violation("trains", f"player {p}: {s.trains[p]} trains left + {spaces} claimed != {v.trains}")
        if len(s.stations[p]) > len(t.station_costs):
            raise Violation("stations", f"player {p} has {len(s.stations[p])} stations")
        for x in s.stations[p]:
            if not (s.station_owner.get(x) == p and not t.is_country[x]):
                raise Violation("stations", f"station at {t.place_ids[x]} of player {p}")
        owned += len(s.stations[p])
        if not all(s.owner[tid] == p for tid in s.claims[p]):
            raise Violation("claims", f"a track listed by player {p} is not theirs")
        if v.passengers.count or s.passenger_at or s.passengers_moved[p]:
            moving = 1 if s.journey is not None and p == s.current else 0
            on_board = sum(1 for q in s.passenger_at.values() if q == p)
            if s.passengers_unplaced[p] + on_board + s.passengers_moved[p] + moving != v.passengers.count:
                raise Violation("passengers", f"player {p}: passengers {s.passengers_unplaced[p]} + {on_board} + {s.passengers_moved[p]} + {moving}")
        points = sum(map(tid_points.__getitem__, s.claims[p])) + s.flag_sets[p] * v.flags.points
        if s.scores[p] != points:
            raise Violation("scores", f"player {p}: score {s.scores[p]}, claims and flags make {points}")
    if owned != len(s.station_owner):
        raise Violation("stations", f"{len(s.station_owner)} stations on the board, {owned} listed")
    if len(s.owner) - s.owner.count(-1) != sum(map(len, s.claims)):
        raise Violation("claims", "owned tracks != claims listed")
    if goods_tokens:
        goods = sorted([x for stack in s.goods for x in stack] + [x for taken in s.goods_taken for x in taken])
        if goods != goods_tokens:
            raise Violation("goods", "goods tokens not conserved")


def check_observation(s: State, seat: int, rng: random.Random) -> None:
    """`seat`'s observation does not change when everything hidden from it changes (deck order, the other
    players' hands, kept tickets and offers, the generator); the state is changed in place and restored."""
    before = s.observation(seat)
    t = s.t
    in_play = _expected(s.game)[2]
    saved = (s.deck, s.rng, s.hands[:], s.kept[:], s.offers[:])
    try:
        s.deck = rng.sample(s.deck, len(s.deck))
        s.rng = random.Random(rng.random())
        for q in range(s.game.num_players):
            if q == seat:
                continue
            hand = [0] * t.NK
            for _ in range(sum(s.hands[q])):
                hand[rng.randrange(t.NK)] += 1
            s.hands[q] = hand
            s.kept[q] = [rng.choice(in_play) for _ in s.kept[q]]
            s.offers[q] = [rng.choice(in_play) for _ in s.offers[q]]
        after = s.observation(seat)
    finally:
        s.deck, s.rng = saved[0], saved[1]
        s.hands[:], s.kept[:], s.offers[:] = saved[2], saved[3], saved[4]
    if before != after:
        diff = sorted(k for k in before if before[k] != after.get(k))
        raise Violation("hidden-information", f"seat {seat}'s observation changed with hidden information: {diff}")


def play(game: Game, seed: int, views_every: int = 1, replay: bool = True) -> tuple[int, str]:
    """One random game with every check; (actions, how it ended). Raises Violation."""
    s = game.new_initial_state(seed)
    rng = random.Random(seed ^ 0x5EED)
    view_rng = random.Random(seed ^ 0xF1E5)  # its own generator: checking views never changes the game played
    n = game.num_players
    end_at = game.variant.end.trains_at_most
    trigger: int | None = None  # the turn count after the triggering turn
    actions = 0
    check_state(s)
    while not s.is_terminal():
        legal = s.legal_actions()
        if not legal:
            raise Violation("no-legal-action", f"no legal action in phase {s.phase} (action {actions})")
        p, turns = s.current, s.turns
        s.apply(rng.choice(legal))
        actions += 1
        check_state(s)
        if s.turns != turns:  # a turn ended
            if s.turns != turns + 1:
                raise Violation("end", f"{s.turns - turns} turns ended by one action")
            if trigger is None and s.trains[p] <= end_at:
                trigger = s.turns
            early = trigger is not None and s.turns < trigger + n
            if early and s.is_terminal() and not s.counters.get("all-passed", 0):
                raise Violation("end", f"the game ended {trigger + n - s.turns} turn(s) before the final round was over")
        if s.is_terminal():
            passed = s.counters.get("all-passed", 0) > 0
            if not (passed or (trigger is not None and s.turns == trigger + n)):
                raise Violation("end", f"the game ended at turn {s.turns}; the final round started after turn {trigger} with {n} players")
        if views_every and actions % views_every == 0 and not s.is_terminal():
            check_observation(s, (actions // views_every) % n, view_rng)
        if actions >= MAX_ACTIONS:
            raise Violation("end", f"no end after {MAX_ACTIONS} actions")
    sheet = s.score_sheet()
    for p, ps in enumerate(sheet.players):
        if sum(ps.breakdown.values()) != ps.total:
            raise Violation("scores", f"player {p}: total {ps.total}, breakdown {ps.breakdown}")
    if replay:
        check_replay(game, s)
    return actions, ("all-passed" if s.counters.get("all-passed", 0) else "trains")


def check_replay(game: Game, s: State) -> None:
    """The game replayed from its seed and its actions' text is the same state file, byte for byte; the file reads back."""
    where = Path("soak.json")  # a JSON state file: the same content as YAML, written and read far faster
    text = dump_state(s, where)
    replay = game.new_initial_state(s.seed)
    for a in s.history:
        (parsed,) = game.parse_actions(game.action_text(a), replay)
        replay.apply(parsed)
    if dump_state(replay, where) != text:
        raise Violation("replay", "the replayed game's state file differs")
    back = state_from_dict(game, json.loads(text))
    if dump_state(back, where) != text:
        raise Violation("replay", "the state file read back writes a different file")


def configurations(examples: bool = False) -> list[tuple[str, Path, int]]:
    out = []
    paths = sorted(names("variants").items())
    if examples:
        paths += [(p.stem, p) for p in sorted((ROOT / "examples").glob("*-rules.yaml"))]
    for name, path in paths:
        variant, _ = load_variant(path)
        out += [(name, path, k) for k in range(variant.players.min, variant.players.max + 1)]
    return out


def soak(games: int, seed: int = 0, views_every: int = 1, examples: bool = False, report_every: int = 0,
         out=sys.stdout, replay_every: int = 1) -> dict:
    """Play `games` games round-robin over the configurations; the figures."""
    configs = configurations(examples)
    built: dict[tuple[Path, int], Game] = {}
    violations: Counter = Counter()
    examples_seen: list[str] = []
    ends: Counter = Counter()
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        name, path, players = configs[i % len(configs)]
        game = built.get((path, players))
        if game is None:
            game = built[path, players] = Game.from_file(path, players)
        game_seed = (seed * 1_000_003 + i) & 0xFFFFFFFFFFFF
        try:
            n, end = play(game, game_seed, views_every, replay=bool(replay_every) and i % replay_every == 0)
            actions += n
            ends[end] += 1
        except Violation as v:
            violations[v.kind] += 1
            if len(examples_seen) < 20:
                examples_seen.append(f"{name} {players}p seed {game_seed}: {v.kind}: {v}")
        except Exception as exc:  # noqa: BLE001 - an engine crash is a violation too
            violations["exception"] += 1
            if len(examples_seen) < 20:
                examples_seen.append(f"{name} {players}p seed {game_seed}: {type(exc).__name__}: {exc}")
        if report_every and (i + 1) % report_every == 0:
            print(f"{i + 1} games, {actions} actions, {sum(violations.values())} violations, "
                  f"{time.perf_counter() - start:.0f} s", file=out, flush=True)
    return {"games": games, "configurations": len(configs), "views_every": views_every, "replay_every": replay_every, "actions": actions, "violations": dict(violations),
            "examples": examples_seen, "ends": dict(ends), "seconds": time.perf_counter() - start}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2700)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--views-every", type=int, default=1, metavar="K",
                    help="check a seat's observation after every K-th action (1: every action; 0: never)")
    ap.add_argument("--replay-every", type=int, default=1, metavar="G",
                    help="replay every G-th game from its seed and actions' text and compare state files (1: every game; 0: never)")
    ap.add_argument("--examples", action="store_true", help="also the example fan boards' variants")
    ap.add_argument("--report-every", type=int, default=0, metavar="N", help="print running figures every N games")
    args = ap.parse_args()
    r = soak(args.games, args.seed, args.views_every, args.examples, args.report_every, replay_every=args.replay_every)
    total = sum(r["violations"].values())
    print(f"games {r['games']} over {r['configurations']} variant/player counts, actions {r['actions']}, "
          f"violations {total} {r['violations'] or ''}; ends {r['ends']}; views checked every {r['views_every']} action(s), "
          f"replays every {r['replay_every']} game(s); "
          f"{r['seconds']:.0f} s "
          f"({r['actions'] / max(r['seconds'], 1e-9):.0f} actions/s)")
    for e in r["examples"]:
        print(f"  {e}")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
