"""Playing many games of bots: one game → one record; local processes or a Dask cluster for many.

Each game's seed comes from the run's seed and the game's index, and the seats
rotate by game index (game i gives seat s the bot `bots[(s + i) % players]`), so
a game's record depends only on (run, index): the same seed gives the same
records, byte for byte, whatever the number of workers or where they run.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
from sys import getrefcount
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from itertools import repeat
from operator import is_
from random import Random
from typing import Callable, Iterator

from ..engine.actions import ClaimTrack, DrawBlind, DrawFaceUp
from ..engine.claims import RouteLegal
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.legal import LegalActions
from ..engine.phases import PH_OVER
from ..load import load_variant
from ..model.board import Board
from ..model.variant import Variant
from .records import GameRecorder

MAX_ACTIONS = 50_000  # a game still running after this many actions is stopped and marked `capped`
# While a game is played the cycle collector runs after this many new objects (Python's default is 700), as the
# `ttr-maps` program sets for its whole run (cli/main.py); play_game sets it back when the game is over.
GAME_GC_THRESHOLD = 100_000


class BotError(RuntimeError):
    """A bot returned an action that is not legal (a bug in the bot)."""


@dataclass(frozen=True)
class GameSource:
    """What a worker needs to rebuild the game: the loaded variant and board (picklable) and the player count."""

    variant: Variant
    board: Board
    players: int
    variant_path: str

    @property
    def key(self) -> str:
        h = hashlib.sha256()
        h.update(self.variant.model_dump_json().encode())
        h.update(self.board.model_dump_json().encode())
        h.update(str(self.players).encode())
        return h.hexdigest()

    @classmethod
    def from_file(cls, path: str, players: int) -> GameSource:
        variant, board = load_variant(path)
        Game(variant, board, players)  # raises ValueError for a bad player count
        return cls(variant, board, players, str(path))


@dataclass(frozen=True)
class RunSpec:
    """One simulation run: which bots play how many games of which game, from which seed."""

    source: GameSource
    bots: tuple[str, ...]  # one per seat of game 0
    games: int
    seed: int
    observation: str = "fast"  # "fast": StateView; "engine": ObservationView of state.observation(seat)
    bot_options: tuple[tuple[str, str, str], ...] = ()  # (bot name, option, value), e.g. ("search", "budget", "64")


def game_seed(run_seed: int, index: int) -> int:
    """The engine seed of game `index`: a hash of the run seed and the index (independent of workers)."""
    digest = hashlib.sha256(f"ttr-maps-simulate:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(seed: int, seat: int) -> int:
    digest = hashlib.sha256(f"ttr-maps-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_bots(bots: tuple[str, ...], index: int) -> list[str]:
    """Bots by seat in game `index`: the list rotated by the game index."""
    n = len(bots)
    return [bots[(s + index) % n] for s in range(n)]


_GAMES: dict[str, Game] = {}


def game_for(source: GameSource) -> Game:
    """The Game of a source, built once per process."""
    key = source.key
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = Game(source.variant, source.board, source.players, variant_path=source.variant_path)
    return game


def options_by_bot(bot_options: tuple[tuple[str, str, str], ...]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for bot, key, value in bot_options:
        out.setdefault(bot, {})[key] = value
    return out


def play_game(game: Game, bots: list[str], seed: int, index: int, observation: str = "fast",
              bot_options: tuple[tuple[str, str, str], ...] = ()) -> dict:
    """Play one game of bots to the end; its record (ttr_maps.simulate.records).

    A game makes hundreds of thousands of short-lived objects (lists, tuples, frames' locals) and almost no
    cycles, which reference counting frees at once; at Python's default threshold the cycle collector would
    look through the young objects some 40 times a game (and through everything now and then) for nothing.
    So it runs after GAME_GC_THRESHOLD new objects while the game is played (a worker process of
    `--workers` or Dask included, which cli/main.py's setting does not reach), and the caller's setting is
    back when play_game returns or raises."""
    before = gc.get_threshold()
    if before[0] >= GAME_GC_THRESHOLD or not gc.isenabled():
        return _play_game(game, bots, seed, index, observation, bot_options)
    gc.set_threshold(GAME_GC_THRESHOLD, *before[1:])
    try:
        return _play_game(game, bots, seed, index, observation, bot_options)
    finally:
        gc.set_threshold(*before)


def _play_game(game: Game, bots: list[str], seed: int, index: int, observation: str,
               bot_options: tuple[tuple[str, str, str], ...]) -> dict:
    from ..bots import make_bot
    from ..bots.view import ObservationView, StateView

    opts = options_by_bot(bot_options)
    players = [make_bot(name, game, s, bot_seed(seed, s), opts.get(name)) for s, name in enumerate(bots)]
    act = [b.act for b in players]
    state = game.new_initial_state(seed)
    # Each seat's legal actions, asked the same way every decision: a bot reading them by index gets the
    # sequence, a route-level bot the RouteLegal (no claims listed), the others the full list.
    legal_of = [state.legal_sequence if b.index_only and not b.route_level else partial(state.legal_actions, not b.route_level)
                for b in players]
    rec = GameRecorder(game, state, bots, seed, index)
    engine_view = observation == "engine"
    # A bot that never reads its view gets its seat's closed view (a read raises ViewClosed).
    closed = [None if b.reads_view else StateView(state, s) for s, b in enumerate(players)]
    for v in closed:
        if v is not None:
            v.close()
    # A seat's view is closed after its decision only if the bot kept a reference to it (its reference count
    # is not what it was before the decision): one the bot let go is one it can never read again, so it serves
    # the seat's next decision (a view made, closed and freed per decision cost about as much as a card draw).
    # None where the seat reads no live view: a closed one, or the engine's observation (`engine_view`).
    views = [StateView(state, s) if b.reads_view and not engine_view else None for s, b in enumerate(players)]
    # A bot that picks uniformly at random (Bot.uniform) has its pick drawn here, from its own generator, as
    # its act() would: legal[rng._randbelow(len(legal))], an element of the legal actions by construction.
    # A random.Random's _randbelow(n) (_randbelow_with_getrandbits) is written out: getrandbits(k) for the k
    # bits of n until one is below n. Another generator class is asked for its _randbelow.
    uniform = [(b.rng.getrandbits if type(b.rng) is Random else None, b.rng) if b.uniform and not engine_view else None
               for b in players]
    events = rec.events  # what each action did; `after` reads them (most actions, card draws, have none)
    blind, face_up = rec.blind, rec.face_up
    for _ in range(MAX_ACTIONS):  # a game still running after MAX_ACTIONS actions is stopped (the `else`)
        if state.phase == PH_OVER:
            break
        p = state.current
        pick = uniform[p]
        if pick is not None:
            legal = state.legal_sequence()
            n = len(legal)
            if n > 1:
                bits = pick[0]
                if bits is not None:
                    k = n.bit_length()
                    i = bits(k)
                    while i >= n:
                        i = bits(k)
                else:
                    i = pick[1]._randbelow(n)
                a = legal[i]
            else:
                a = legal[0]
            ty = type(a)
        else:
            legal = legal_of[p]()
            view = views[p]
            if view is not None:
                held = getrefcount(view)
                a = act[p](view, legal)
                if getrefcount(view) != held:  # the bot kept it: closed, and a new one for the seat's next decision
                    view.close()
                    views[p] = StateView(state, p)
            elif engine_view:
                a = act[p](ObservationView(game, state.observation(p)), legal)
            else:
                a = act[p](closed[p], legal)
            ty = type(a)
            tl = type(legal)
            if tl is RouteLegal and ty is ClaimTrack:  # a RouteLegal lists no claim: _listed's test of its route
                if not (a.route == legal.listed or legal.can_claim(a.route)):
                    raise BotError(f"bot {bots[p]!r} (seat {p}) chose {a!r}, which is not legal here (game {index})")
            elif a is None or not ((tl is LegalActions and a is legal.last) or any(map(is_, legal, repeat(a)))
                                   or _listed(a, legal)):
                raise BotError(f"bot {bots[p]!r} (seat {p}) chose {a!r}, which is not legal here (game {index})")
        if ty is DrawBlind:  # a card draw counted here, as rec.before would (a call less for most actions)
            blind[p] += 1
        elif ty is DrawFaceUp:
            k = state.face_up[a.slot]
            if k >= 0:
                face_up[p][k] += 1
        else:
            rec.before(a)
        try:
            state.apply(a)
        except IllegalAction as e:
            raise BotError(f"bot {bots[p]!r} (seat {p}) chose {a!r}, which is not legal here: {e} (game {index})") from None
        if events:
            rec.after(a)
    else:
        rec.capped = True
    return rec.record()


def _listed(a, legal: list) -> bool:
    """Is `a` (not one of the list's own objects) a legal action? A claim of a RouteLegal's route is (the engine
    checks its payment when it is applied): the route its `claims` last listed claims of (the bot's usual pick,
    no test again), or one `can_claim` accepts."""
    if type(a) is ClaimTrack and isinstance(legal, RouteLegal):
        r = a.route
        return r == legal.listed or legal.can_claim(r)
    return a in legal


# One encoder for every line: json.dumps would build one per call. A record is a tree of fresh lists and dicts,
# never circular, so the encoder skips the check that keeps the id of every list and dict it is inside (about a
# tenth of a record's encoding); the text is the same.
_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def record_line(record: dict) -> str:
    return _LINE.encode(record)


def play_chunk(source: GameSource, bots: tuple[str, ...], run_seed: int, indices: list[int], observation: str = "fast",
               bot_options: tuple[tuple[str, str, str], ...] = ()) -> list[tuple[int, str]]:
    """Play the games `indices` of a run; (index, JSON line) for each. Runs in a worker."""
    game = game_for(source)
    out = []
    for i in indices:
        rec = play_game(game, seat_bots(bots, i), game_seed(run_seed, i), i, observation, bot_options)
        out.append((i, record_line(rec)))
    return out


def _chunks(n: int, size: int) -> list[list[int]]:
    return [list(range(i, min(n, i + size))) for i in range(0, n, size)]


def run_games(spec: RunSpec, workers: int = 1, scheduler: str | None = None,
              progress: Callable[[int], None] | None = None) -> Iterator[str]:
    """Every game's record as a JSON line, in game order, played where asked.

    `workers` > 1: local processes (spawned, so each has its own hash seed: a
    bot that depended on set order of strings would show up as a difference).
    `scheduler`: the address of a Dask distributed scheduler.
    """
    progress = progress or (lambda n: None)
    if scheduler is not None:
        yield from _run_dask(spec, scheduler, progress)
        return
    if workers <= 1:
        game = game_for(spec.source)
        for i in range(spec.games):
            rec = play_game(game, seat_bots(spec.bots, i), game_seed(spec.seed, i), i, spec.observation, spec.bot_options)
            progress(1)
            yield record_line(rec)
        return
    yield from _run_pool(spec, workers, progress)


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(25, math.ceil(games / (workers * 6))))


def _in_order(results: dict[int, str], state: list[int]) -> Iterator[str]:
    nxt = state[0]
    while nxt in results:
        yield results.pop(nxt)
        nxt += 1
    state[0] = nxt


def _run_pool(spec: RunSpec, workers: int, progress: Callable[[int], None]) -> Iterator[str]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    chunks = _chunks(spec.games, _chunk_size(spec.games, workers))
    results: dict[int, str] = {}
    nxt = [0]
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending = {pool.submit(play_chunk, spec.source, spec.bots, spec.seed, c, spec.observation, spec.bot_options)
                   for c in chunks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    lines = fut.result()
                    for i, line in lines:
                        results[i] = line
                    progress(len(lines))
                yield from _in_order(results, nxt)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


def _run_dask(spec: RunSpec, scheduler: str, progress: Callable[[int], None]) -> Iterator[str]:
    try:
        from distributed import Client, as_completed
    except ImportError as e:  # pragma: no cover - depends on the install
        raise RuntimeError("--scheduler needs Dask distributed: pip install 'ttr-maps[dask]'") from e
    try:
        client = Client(scheduler)  # gives up after Dask's connect timeout (distributed.comm.timeouts.connect, 30 s by default)
    except (ValueError, TypeError) as e:  # a malformed address: Dask says what is wrong with it
        raise OSError(f"not a scheduler address ({e}); give one like tcp://HOST:8786") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        chunks = _chunks(spec.games, _chunk_size(spec.games, workers))
        source = client.scatter(spec.source, broadcast=True)
        futures = [client.submit(play_chunk, source, spec.bots, spec.seed, c, spec.observation, spec.bot_options, pure=False)
                   for c in chunks]
        results: dict[int, str] = {}
        nxt = [0]
        for fut in as_completed(futures):
            lines = fut.result()
            for i, line in lines:
                results[i] = line
            progress(len(lines))
            yield from _in_order(results, nxt)
    finally:
        client.close()
