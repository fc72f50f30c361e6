"""A connection that exists only by passing through a country.

A country (`kind: country`) is a terminal place: routes end there and no path
passes through it. This check finds tickets whose ends are joined only through
a country, and countries that are the only link between parts of the board.

Why: the graph looks connected, but the rules forbid the only path, so those
tickets can never be completed and those parts are cut off in play.

Failing:

```yaml
places:
  - {id: basel, name: Basel, x: 0, y: 0}
  - {id: schweiz, name: Schweiz, kind: country, x: 1, y: 1}
  - {id: lindau, name: Lindau, x: 2, y: 0}
routes:
  - {from: basel, to: schweiz, length: 1, tracks: [gray]}
  - {from: schweiz, to: lindau, length: 2, tracks: [gray]}   # basel-lindau only via the country
tickets:
  - {from: basel, to: lindau, points: 5, decks: [main]}
```

Passing: add a route that avoids the country, e.g. `{from: basel, to: lindau, length: 3, tracks: [red]}`
(tickets *to* the country itself are fine).
"""

from __future__ import annotations

from typing import Iterator

from ..base import Finding
from ..context import Context

CODE = "G005"
NAME = "path-through-country"
SEVERITY = "error"
OPTIONS: dict = {}


def check(ctx: Context, options: dict) -> Iterator[Finding]:
    if not ctx.countries:
        return
    comps, index, raw = ctx.city_components, ctx.place_index, ctx.components
    for ref in ctx.tickets:
        a, b = ref.ends
        if a == b or a not in raw or b not in raw or raw[a] != raw[b]:
            continue
        if not ctx.connected_without_passing_countries(a, b):
            yield Finding(
                ref.loc,
                f"the ticket {a}–{b} can only be completed through a country, and no path passes through a country; add a route that avoids it",
                ref.file,
            )
    sizes: dict[int, int] = {}
    first: dict[int, str] = {}
    for place in ctx.board.places:
        k = comps.get(place.id)
        if k is not None:
            sizes[k] = sizes.get(k, 0) + 1
            first.setdefault(k, place.id)
    for i, place in enumerate(ctx.board.places):
        if not place.is_country or index[place.id] != i:
            continue
        parts = sorted({comps[n] for n in ctx.country_neighbours[place.id]}, key=lambda k: (-sizes[k], index[first[k]]))
        if len(parts) < 2:
            continue
        others = ", ".join(f"{sizes[k]} around {first[k]}" for k in parts[1:])
        yield Finding(
            ("places", i),
            f"country '{place.id}' is the only link between {sizes[parts[0]]} place(s) around {first[parts[0]]} and {others}; "
            "no path passes through a country, so these parts are cut off in play",
        )
