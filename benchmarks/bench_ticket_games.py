"""Play a suggested deck against the published one: `ttr-maps tickets` on the USA board (issue 16).

    python benchmarks/bench_ticket_games.py [-n 1000] [--seed 1] [--workers 2] [--deck-seed 0]

Suggests a 30-ticket deck for the bundled USA board (`ttr-maps tickets suggest usa
--seed DECK_SEED`, in-process), checks it is the one examples/decks/usa-suggested.yaml
holds (so the run plays examples/decks/usa-suggested-rules.yaml: the USA rules with that
deck), then plays N four-player games of each deck with the same bots and seeds (as
`ttr-maps simulate usa -n N --seed S` and `ttr-maps simulate
examples/decks/usa-suggested-rules.yaml -n N --seed S`) and prints the completion figures
side by side (ttr_maps/tickets/played.py) as the Markdown table docs/tickets.md shows,
with each run's wall time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("expert", "route-focus", "ticket-hungry", "long-route")


def main() -> None:
    from ttr_maps.bundled import maps_dir
    from ttr_maps.load import load, load_board
    from ttr_maps.tickets import played
    from ttr_maps.tickets.paths import BoardPaths
    from ttr_maps.tickets.suggest import Options, suggest

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deck-seed", type=int, default=0)
    ap.add_argument("-w", "--workers", type=int, default=1)
    args = ap.parse_args()

    board = load_board(maps_dir() / "boards" / "usa.yaml")
    paths = BoardPaths(board)
    fresh = [(t.from_, t.to, t.points) for t in suggest(board, Options(count=30, seed=args.deck_seed), paths).tickets]
    example = ROOT / "examples" / "decks" / "usa-suggested.yaml"
    stored = [(t.from_, t.to, t.points) for t in load(example).deck.tickets]
    if fresh != stored:
        sys.exit(f"{example} is not the deck `tickets suggest usa --seed {args.deck_seed}` makes: "
                 f"ttr-maps tickets suggest usa --seed {args.deck_seed} -o {example}")
    runs = {}
    for label, path in (("published USA deck", str(maps_dir() / "variants" / "usa.yaml")),
                        ("suggested deck", str(ROOT / "examples" / "decks" / "usa-suggested-rules.yaml"))):
        t0 = time.perf_counter()
        summary = played.play(path, args.games, args.seed, BOTS, workers=args.workers)
        runs[label] = played.figures(summary, paths.diameter)
        print(f"{label}: {args.games} games in {time.perf_counter() - t0:.0f} s ({args.workers} worker(s))", file=sys.stderr)
    (la, a), (lb, b) = runs.items()
    print(played.table(a, b, la, lb))


if __name__ == "__main__":
    main()
