"""A ticket deck for a board, shaped like the published decks: `ttr-maps tickets suggest`.

1. Targets: how far each ticket should reach, as shares of the board's diameter, read off the
   published decks' reaches (published.json) at evenly spaced quantiles, split into the long
   tickets (reach at least `LONG_REACH`) and the rest so the deck has the asked number of long ones.
2. Greedy choice, longest target first (long tickets have the fewest candidates): among the pairs
   of places whose shortest path is nearest the target, the one whose ends are least used so far
   (a place no ticket uses yet is worth a space of mismatch), favoured places first, and whose
   routes the deck loads least; never the same pair twice, nor a near-duplicate (figures.NEAR).
   A favoured place is pulled in until it ends `favour_target` tickets (twice the average per place),
   and the local search and the cover keep it there.
3. Cover: while some place ends no ticket and the board has ends to spare, swap it in for a
   ticket of about the same length whose ends are used elsewhere.

Values are the shortest paths in spaces (the convention ticket-value-mismatch, G006, checks).
Ties are broken by a random number generator seeded by `seed`, so a seed gives one deck.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from ..model.board import Board, Ticket
from .figures import LONG_REACH, NEAR, deck_figures
from .paths import BoardPaths
from .published import ranges, reaches

#: On a board of more places, candidate pairs start from this many places drawn by the seed.
SOURCES = 200
#: The highest value a ticket can have (the format's limit): longer pairs are left out.
MAX_VALUE = 99
#: Candidates (nearest the target, least-used ends) whose route load is weighed before choosing.
SHORTLIST = 24
#: Cost, in spaces of mismatch, of each ticket already ending at a place, and of the mean load of a
#: candidate's routes: small, because the published decks are not even (hubs end 2-3x the average).
USE_WEIGHT = 0.5
ROUTE_WEIGHT = 0.5


class SuggestError(ValueError):
    """The board or the options leave no deck to suggest; the message says why and what to change."""


@dataclass
class Options:
    count: int = 30
    long: int | None = None  # long tickets; None: the published share
    values: tuple[int, int] | None = None  # lowest and highest value
    favour: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    like: tuple[str, ...] = ()  # published decks to take the shape from; () = those that set the ranges
    seed: int = 0
    deck: str = "suggested"


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def targets(count: int, long: int | None, like: tuple[str, ...] = ()) -> list[float]:
    """`count` reaches (shares of the diameter), longest first, `long` of them long."""
    decks = reaches(like or None)
    if long is None:
        shares = sorted(sum(r >= LONG_REACH for r in d) / len(d) for d in decks)
        long = round(count * _quantile(shares, 0.5))
    long = max(0, min(count, long))
    out: list[float] = []
    for n, part in ((long, [r for d in decks for r in d if r >= LONG_REACH]), (count - long, [r for d in decks for r in d if r < LONG_REACH])):
        part = sorted(part) or [LONG_REACH]
        out += [_quantile(part, (i + 0.5) / n) for i in range(n)]
    return sorted(out, reverse=True)


@dataclass
class _Pick:
    cost: float
    tie: float
    pair: tuple[int, int]
    dist: int


@dataclass
class Suggestion:
    tickets: list[Ticket]
    targets: list[int]  # the target path of each ticket, in spaces
    notes: list[str] = field(default_factory=list)


def suggest(board: Board, options: Options, paths: BoardPaths | None = None) -> Suggestion:
    """A deck for `board` (see the module docstring)."""
    paths = paths or BoardPaths(board)
    names = paths.places
    known = set(names)
    for label, ids in (("--favour", options.favour), ("--avoid", options.avoid)):
        unknown = [p for p in ids if p not in known]
        if unknown:
            from ..diagnostics import did_you_mean

            raise SuggestError(f"{label}: no place {', '.join(repr(p) + did_you_mean(p, known) for p in unknown)} on the board"
                               " (give a place's id)")
    avoid = {paths.index[p] for p in options.avoid}
    favour = {paths.index[p] for p in options.favour}
    usable = [k for k in range(len(names)) if k not in avoid]
    lo, hi = options.values or (1, MAX_VALUE)
    hi = min(hi, MAX_VALUE)
    rng = random.Random(options.seed)
    shortlist = SHORTLIST if len(usable) <= SOURCES else SHORTLIST // 4  # each weighed pair costs two searches there
    # Every pair of usable places joined without passing a country, by distance; on a big board the
    # pairs from `SOURCES` places drawn by the seed (and the favoured ones), each search costing a pass over the board.
    sources = usable
    if len(usable) > SOURCES:
        sources = sorted(set(rng.sample(usable, SOURCES)) | favour)
    by_dist: dict[int, list[tuple[int, int]]] = {}
    source_set = set(sources)
    for i in sources:
        dist = paths.search(i).dist
        for j in usable:
            d = dist[j]
            if d is not None and lo <= d <= hi and j != i and (j > i or j not in source_set):
                by_dist.setdefault(d, []).append((i, j) if i < j else (j, i))
    if not by_dist:
        raise SuggestError("no two places are joined by a path within the value range; widen --values or avoid fewer places")
    total = sum(len(v) for v in by_dist.values())
    if total < options.count:
        raise SuggestError(f"the board has only {total} pairs of joined places in range, fewer than the {options.count} tickets asked for; ask for fewer (-n)")
    diameter = paths.diameter or max(by_dist)
    longest, shortest = max(by_dist), min(by_dist)
    tie = {}  # one random number per pair, drawn lazily in a fixed order so a seed gives one deck
    near = {frozenset(paths.ends[k]) for k, e in enumerate(paths.edges) if e.length <= NEAR}
    uses: Counter = Counter()
    load: dict[int, float] = {}
    chosen: list[tuple[int, int, int]] = []  # (i, j, dist)
    taken: set[frozenset[int]] = set()
    goal = [min(max(round(r * diameter), lo, shortest), hi, longest) for r in targets(options.count, options.long, options.like)]
    spare = 2 * options.count >= len(usable)
    want_favoured = favour_target(options.count, len(usable))

    def clashes(i: int, j: int) -> bool:
        for a, b, _ in chosen:
            if {a, b} == {i, j}:
                return True
            shared = {a, b} & {i, j}
            if len(shared) == 1 and frozenset({a, b} ^ {i, j}) in near:
                return True
        return False

    def end_cost(k: int) -> float:
        c = USE_WEIGHT * uses[k]
        if uses[k] == 0 and spare:
            c = -1.0
        if k in favour and uses[k] < want_favoured:
            c -= USE_WEIGHT * want_favoured + 2.0  # before any other place, a few spaces of mismatch allowed
        return c

    def route_cost(i: int, j: int) -> float:
        mine = paths.load(names[i], names[j])
        if not mine:
            return 0.0
        return sum(share * load.get(e, 0.0) for e, share in mine.items()) / len(mine)

    for want in goal:
        picks: list[_Pick] = []
        for spread in range(0, longest + 1):
            for d in {want - spread, want + spread}:
                for i, j in by_dist.get(d, ()):
                    if frozenset((i, j)) in taken:
                        continue
                    key = (i, j)
                    if key not in tie:
                        tie[key] = rng.random()
                    picks.append(_Pick(abs(d - want) + end_cost(i) + end_cost(j), tie[key], key, d))
            if len(picks) >= shortlist * 4 and spread >= 1:
                break
        picks.sort(key=lambda p: (p.cost, p.tie))
        best = None
        weighed = 0
        for p in picks:
            if clashes(*p.pair):
                continue
            score = p.cost + ROUTE_WEIGHT * route_cost(*p.pair)
            if best is None or (score, p.tie) < best[0]:
                best = ((score, p.tie), p)
            weighed += 1
            if weighed >= shortlist:
                break
        if best is None:
            continue
        p = best[1]
        i, j = p.pair
        chosen.append((i, j, p.dist))
        taken.add(frozenset(p.pair))
        uses[i] += 1
        uses[j] += 1
        for e, share in paths.load(names[i], names[j]).items():
            load[e] = load.get(e, 0.0) + share
    favoured = {k: want_favoured for k in favour}
    _improve(paths, chosen, goal, taken, clashes, by_dist, rng, spare, usable, favoured)
    uses = Counter(k for i, j, _ in chosen for k in (i, j))
    notes = []
    if paths.diameter > MAX_VALUE:
        notes.append(f"the board is {paths.diameter} spaces across; tickets are worth at most {MAX_VALUE}, so none is longer")
    if len(chosen) < options.count:
        notes.append(f"only {len(chosen)} tickets found without duplicates or near-duplicates")
    if spare:
        _cover(paths, chosen, uses, usable, taken, clashes, lo, hi, favoured)
    left = [names[k] for k in usable if uses[k] == 0]
    if left:
        notes.append(f"{len(left)} place(s) end no ticket: {', '.join(left[:8])}{' …' if len(left) > 8 else ''}")
    order = sorted(range(len(chosen)), key=lambda k: (-chosen[k][2], paths.places[chosen[k][0]], paths.places[chosen[k][1]]))
    pos = {p.id: n for n, p in enumerate(board.places)}
    tickets = []
    for k in order:
        i, j, d = chosen[k]
        a, b = sorted((names[i], names[j]), key=lambda p: pos[p])
        tickets.append(Ticket(**{"from": a, "to": b, "points": d, "decks": [options.deck]}))
    return Suggestion(tickets, [goal[k] if k < len(goal) else chosen[k][2] for k in order], notes)


def _deck(paths: BoardPaths, chosen: list[tuple[int, int, int]]) -> list[Ticket]:
    names = paths.places
    return [Ticket.model_construct(from_=names[i], to=names[j], points=d, decks=("s",)) for i, j, d in chosen]


def favour_target(count: int, places: int) -> int:
    """Tickets a favoured place should end: twice the average per usable place, at least 2."""
    return max(2, math.ceil(2 * 2 * count / max(1, places)))


def objective(paths: BoardPaths, chosen: list[tuple[int, int, int]], goal: list[int], usable: list[int], spare: bool,
              favoured: dict[int, int] | None = None) -> float:
    """How far a deck is from the published shape: each shape figure's distance outside the published
    range (in range widths) plus a pull towards the middle, the reach targets missed (in diameters),
    where the board has ends to spare each usable place no ticket ends at, and each ticket a favoured
    place ends short of its target."""
    shape = deck_figures(paths, _deck(paths, chosen)).shape()
    out = 0.0
    for key, (lo, hi) in ranges().items():
        if key == "value_over_path":
            continue  # values are the shortest paths
        v = shape[key]
        width = (hi - lo) or 1.0
        out += max(0.0, lo - v, v - hi) / width + 0.1 * abs(v - (lo + hi) / 2) / width
    got = sorted((d for _, _, d in chosen), reverse=True)
    out += 5 * sum(abs(a - b) for a, b in zip(got, goal)) / max(1, paths.diameter) / max(1, len(goal))
    if spare:
        used = {k for i, j, _ in chosen for k in (i, j)}
        out += sum(1 for k in usable if k not in used)
    if favoured:
        ends = Counter(k for i, j, _ in chosen for k in (i, j))
        out += 2 * sum(max(0, want - ends[k]) for k, want in favoured.items())
    return out


#: Swaps the local search tries (fewer on a big board, where each costs more).
TRIES = 600


def _improve(paths: BoardPaths, chosen: list[tuple[int, int, int]], goal: list[int], taken: set[frozenset[int]],
             clashes, by_dist: dict[int, list[tuple[int, int]]], rng: random.Random, spare: bool, usable: list[int],
             favoured: dict[int, int] | None = None) -> None:
    """Local search from the greedy deck: swap a ticket for a pair of about its length when the deck gets
    nearer the published shape (`objective`)."""
    if not chosen:
        return
    best = objective(paths, chosen, goal, usable, spare, favoured)
    tries = max(40, int(TRIES * min(1.0, 200 / max(1, len(paths.edges)))))
    for _ in range(tries):
        n = rng.randrange(len(chosen))
        i, j, d = chosen[n]
        pool = by_dist.get(d + rng.choice((-1, 0, 0, 1)))
        if not pool:
            continue
        pair = pool[rng.randrange(len(pool))]
        if frozenset(pair) in taken:
            continue
        old = chosen.pop(n)
        if clashes(*pair):
            chosen.insert(n, old)
            continue
        new = (pair[0], pair[1], paths.search(pair[0]).dist[pair[1]])
        chosen.insert(n, new)
        score = objective(paths, chosen, goal, usable, spare, favoured)
        if score < best:
            best = score
            taken.discard(frozenset(old[:2]))
            taken.add(frozenset(pair))
        else:
            chosen[n] = old


def _cover(paths: BoardPaths, chosen: list[tuple[int, int, int]], uses: Counter, usable: list[int],
           taken: set[frozenset[int]], clashes, lo: int, hi: int, favoured: dict[int, int] | None = None) -> None:
    """Swap each place no ticket ends at into the deck: it replaces one end of a ticket whose that end
    is used elsewhere (a favoured place only above its target), the ticket's length changing least."""
    favoured = favoured or {}
    for k in [k for k in usable if uses[k] == 0]:
        dist = paths.search(k).dist
        best = None
        for n, (i, j, d) in enumerate(chosen):
            for drop, keep in ((i, j), (j, i)):
                e = dist[keep]
                if uses[drop] < max(2, favoured.get(drop, 0) + 1) or keep == k or e is None or not lo <= e <= hi or frozenset((k, keep)) in taken:
                    continue
                cost = abs(e - d)
                if best is None or cost < best[0]:
                    best = (cost, n, drop, keep, e)
        if best is None:
            continue
        _, n, drop, keep, e = best
        saved = chosen.pop(n)
        if clashes(k, keep):
            chosen.insert(n, saved)
            continue
        taken.discard(frozenset(saved[:2]))
        uses[drop] -= 1
        chosen.insert(n, (k, keep, e) if saved[0] == keep else (keep, k, e))
        taken.add(frozenset((k, keep)))
        uses[k] += 1
