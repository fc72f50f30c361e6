"""What a simulation run should tell a designer on the terminal, not only in the report: a setup
deal the ticket piles cannot give out, and games that ended abnormally (every player passed in a
row, or the action cap stopped them). `simulate --strict` makes either an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.game import Game


def deal_shortfall(game: Game) -> list[str]:
    """The ticket piles that hold fewer tickets than the setup deal gives out at the start, in words.

    Every entry of a one-stage setup deal (and the first stage of a staged one) is dealt to every
    player before anyone returns a ticket, so a pile smaller than that can never serve all the seats;
    an announced mix needs its piles together to hold the mix for every player.
    """
    t = game.t
    v = game.variant
    n = game.num_players
    setup = v.tickets.setup
    sizes = {name: len(t.pile_tickets.get(name, ())) for name in t.pile_names}
    out = []
    if setup.mix:
        held = sum(sizes.get(p, 0) for p in setup.mix)
        if held < setup.count * n:
            piles = " and ".join(setup.mix)
            out.append(f"the setup deal has each of {n} players choose {setup.count} tickets from {piles}, "
                       f"which hold {held} in all ({setup.count * n} needed)")
        return out
    staged = v.tickets.staged_setup and len(setup.deal) > 1
    deals = setup.deal[:1] if staged else setup.deal
    need: dict[str, int] = {}
    for d in deals:
        need[d.pile] = need.get(d.pile, 0) + d.count
    for pile, count in need.items():
        held = sizes.get(pile, 0)
        if held < count * n:
            out.append(f"the setup deal gives {count} ticket{'s' if count != 1 else ''} from pile '{pile}' to each of {n} players, "
                       f"but the pile holds {held} ({count * n} needed)")
    if not out and t.tickets_in_game == 0:
        out.append("no ticket is in play: the board has no tickets in the variant's piles")
    return out


ENDS = {
    "all-passed": "ended because every player passed in a row (nobody could claim, draw or build): "
                  "check the cards against the routes, the trains and the end rule",
    "capped": "{were} stopped at the action cap without ending: check the end rule and the trains",
}


def abnormal_ends(summary: dict) -> list[str]:
    """Games that did not end by the trains rule, as sentences ("3 of 20 games ended because ...")."""
    games = summary["meta"]["games"]
    out = []
    for end, why in ENDS.items():
        count = summary.get("end", {}).get(end, 0)
        if count:
            out.append(f"{count} of {games} game{'s' if games != 1 else ''} " + why.format(were="was" if count == 1 else "were"))
    return out
