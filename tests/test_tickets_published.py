"""The measured published decks (ttr_maps/tickets/published.json) stay true to the bundled boards."""

from __future__ import annotations

import json

from ttr_maps.tickets import published


def test_stored_measurement_matches_a_fresh_one() -> None:
    fresh = published.measure()
    assert json.loads(published.dumps(fresh)) == published.published(), (
        "the bundled decks changed: python -m ttr_maps.tickets.published > ttr_maps/tickets/published.json"
    )


def test_ranges_span_the_decks_that_set_the_norm() -> None:
    data = published.published()
    norm = [d for name, d in data["decks"].items() if name not in data["special"]]
    assert len(norm) == 6
    for key, (lo, hi) in published.ranges().items():
        values = [d["shape"][key] for d in norm]
        assert (lo, hi) == (min(values), max(values))
    # USA's published deck: 7 of its 30 tickets reach 60% of the 23-space diameter or more
    usa = data["decks"]["usa"]
    assert sum(r >= 0.6 for r in usa["reach"]) == 7 and usa["shape"]["long_share"] == round(7 / 30, 3)
