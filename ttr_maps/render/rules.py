"""The rules in brief, written from a variant's knobs in our own words.

One source for the summary card (`brief`) and the rules page (`sections`), so the
printed rules always say what the engine plays.
"""

from __future__ import annotations

from ..model.board import Board
from ..model.variant import TIE_BREAK_WORDS, TicketDeal, Variant

RETURNED_WORDS = {
    "box": "go back to the box",
    "bottom": "go under their pile",
    "shuffled-bottom": "are shuffled and put under their pile",
    "reshuffle": "are shuffled back into their pile",
}


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _deal_text(deal: TicketDeal) -> str:
    if deal.mix:
        return f"{deal.count} tickets in a mix you announce from the {' and '.join(deal.mix)} piles"
    parts = []
    for d in deal.deal:
        parts.append(f"{d.count} {d.pile}" if len(deal.deal) > 1 else str(d.count))
    return " + ".join(parts) + " tickets"


def _returned_text(deal: TicketDeal) -> str:
    per = {p: deal.returned_to(p) for p in deal.piles()}
    kinds = set(per.values()) or {deal.returned_default}
    if len(kinds) == 1:
        return f"the others {RETURNED_WORDS[kinds.pop()]}"
    return "; ".join(f"unkept {p} tickets {RETURNED_WORDS[k]}" for p, k in per.items())


def _keep_text(deal: TicketDeal) -> str:
    text = f"keep at least {deal.keep_min}"
    if deal.keep_max:
        text += " (" + ", ".join(f"at most {v} {p}" for p, v in deal.keep_max.items()) + ")"
    return text


def wild_name(variant: Variant) -> str:
    return variant.cards.locomotive_name or "locomotive"


def locomotive_limit(variant: Variant) -> str | None:
    """The sentence saying where locomotives pay, when the variant limits them (cards.locomotives_only_on)."""
    only = variant.cards.locomotives_only_on
    if not only:
        return None
    return f"{wild_name(variant).capitalize()}s pay only on {' and '.join(only)}."


def stand_in_lines(variant: Variant, board: Board | None) -> list[str]:
    """A sentence per stand-in setting (docs/rules.md#stand-ins) that can take effect on the board."""
    out = []
    si = variant.stand_ins
    if si.ferry and (board is None or any(r.ferry for r in board.routes)):
        out.append(f"On a ferry, any {si.ferry} cards may stand in for each {wild_name(variant)} its marks need.")
    for rid, n in si.routes.items():
        i = board.route_index.get(rid) if board is not None else None
        r = board.routes[i] if i is not None else None
        where = f"{board.place_by_id[r.from_].name}-{board.place_by_id[r.to].name}" if r is not None else rid
        out.append(f"On {where}, any {n} cards may stand in for each card of the route.")
    return out


def turn_actions(variant: Variant) -> list[str]:
    """One line per action a player may take on a turn."""
    wild = wild_name(variant)
    draw = variant.tickets.draw
    lines = [
        f"Draw 2 train cards, face up or blind. A face-up {wild} is your whole draw and never your second card."
        if variant.cards.face_up_locomotive_costs_both_draws
        else f"Draw 2 train cards, face up or blind. A face-up {wild} counts as one card, first or second.",
        f"Claim a route: pay cards of one colour equal to its length ({wild}s are wild), place your "
        f"{'buses' if variant.trains <= 20 else 'trains'} and score it.",
        f"Draw {_deal_text(draw)}; {_keep_text(draw)}.",
    ]
    if variant.stations.count:
        costs = ", ".join(str(c) for c in variant.stations.costs)
        lines.append(f"Build a station on a free city (costs {costs} cards of one colour).")
    if variant.passengers.count:
        lines.append("Move a passenger along routes, taking the top goods token at each place it reaches.")
    return lines


def brief(variant: Variant, board: Board | None = None) -> list[str]:
    """A few short lines for the summary card: the turn's actions, then `notes`."""
    return turn_actions(variant) + notes(variant, board)


def notes(variant: Variant, board: Board | None = None) -> list[str]:
    """The board's ferries and tunnels, special cards and flags, the end trigger and the final scoring, a line each."""
    extras = []
    wild = wild_name(variant)
    if locomotive_limit(variant):
        extras.append(locomotive_limit(variant))
    extras.extend(stand_in_lines(variant, board))
    if board is not None and any(r.ferry for r in board.routes):
        extras.append(f"Ferries: pay a {wild} for each {wild} mark.")
    if board is not None and any(r.tunnel for r in board.routes):
        extras.append(
            f"Tunnels: after paying, turn up {variant.tunnels.reveal} cards; pay one more card for each of your colour "
            f"or a {wild}, or take yours back."
        )
    if variant.cards.big_locomotives.count:
        extras.append(f"+4 {wild_name(variant)}s are wild only on routes of {variant.cards.big_locomotives.min_length} or more.")
    if variant.flags.colors and variant.flags.points:
        extras.append(f"Flags: keep one {'/'.join(variant.flags.colors)} card after such a route; a full set scores {variant.flags.points}.")
    extras.append(f"With {variant.end.trains_at_most} or fewer {'buses' if variant.trains <= 20 else 'trains'} left, everyone gets one last turn.")
    b = variant.scoring.bonuses
    bonuses = []
    if b.longest_path:
        bonuses.append(f"longest path +{b.longest_path}")
    if b.most_tickets:
        bonuses.append(f"most tickets done +{b.most_tickets}")
    if variant.stations.count and variant.stations.unused_points:
        bonuses.append(f"each station not built +{variant.stations.unused_points}")
    if b.goods:
        bonuses.append("goods at face value")
    if b.two_paths:
        bonuses.append(f"each ticket joined twice +{b.two_paths}")
    for m in b.most_routes:
        bonuses.append(f"most {m.length}-space routes +{m.points}")
    if board is not None and any(len(t.destinations) > 1 for t in (*board.tickets, *variant.tickets.add)):
        extras.append("Several destinations: the best one reached scores; none reached, lose the lowest.")
    extras.append("At the end: tickets + or - their value" + ("; " + ", ".join(bonuses) if bonuses else "") + ".")
    return extras


def sections(variant: Variant, board: Board) -> list[tuple[str, list[str]]]:
    """The rules page: (heading, paragraphs) in play order."""
    wild = wild_name(variant)
    cars = "buses" if variant.trains <= 20 else "trains"
    colors = ", ".join(f"{n} {c}" for c, n in variant.cards.colors.items())
    deck = [f"Train cards: {colors}, {variant.cards.locomotives} {wild}s"]
    if variant.cards.big_locomotives.count:
        deck.append(f"{variant.cards.big_locomotives.count} +4 {wild}s")
    if variant.cards.passengers:
        deck.append(f"{variant.cards.passengers} passenger cards")
    setup = variant.tickets.setup
    out: list[tuple[str, list[str]]] = []
    out.append(
        (
            "Components",
            [
                f"{variant.players.min}-{variant.players.max} players. Each player has {variant.trains} {cars}"
                + (f", {_plural(variant.stations.count, 'station')}" if variant.stations.count else "")
                + (f", {_plural(variant.passengers.count, 'passenger')}" if variant.passengers.count else "")
                + ".",
                "; ".join(deck) + f" ({variant.cards.total} in all).",
                f"The board: {board.meta.title}, {len(board.places)} places and {len(board.routes)} routes.",
            ],
        )
    )
    redeal = f"If {variant.face_up.redeal_locomotives} of them are {wild}s, discard all and turn up new ones"
    if variant.face_up.redeal_passengers:
        redeal += f" (the same for {variant.face_up.redeal_passengers} passenger cards)"
    out.append(
        (
            "Setup",
            [
                f"Shuffle the train cards; deal {variant.hand} to each player and turn {variant.face_up.count} face up. {redeal}.",
                f"Deal each player {_deal_text(setup)}; each player must {_keep_text(setup)}; {_returned_text(setup)}."
                + "".join(
                    f" The undealt {p} tickets go back to the box." for p, w in variant.tickets.leftover_at_setup.items() if w == "box"
                ),
            ]
            + (["Draw the first player at random; play then goes round the table."] if variant.players.first == "random" else []),
        )
    )
    turn = turn_actions(variant)
    out.append(("On your turn, do exactly one thing", turn))
    claim = [
        "A gray route takes cards of any one colour. Only one track of a double route is yours; "
        f"with fewer than {variant.parallel.all_tracks_from} players, claiming one track closes the others.",
    ]
    several = [p.name for p in board.places if p.entries]
    if several:
        claim.append(
            f"{', '.join(several)} {'is' if len(several) == 1 else 'are'} drawn at several points; each is one place "
            "for tickets, whichever point a route reaches."
        )
    if variant.parallel.same_places_double and len({frozenset(r.ends) for r in board.routes}) < len(board.routes):
        claim.append("Separate routes between the same two places count as one double route.")
    if locomotive_limit(variant):
        claim.append(f"{locomotive_limit(variant)} On any other route they are not wild and cannot be used.")
    if any(r.ferry for r in board.routes):
        claim.append(f"Ferries: each locomotive mark on a ferry must be paid with a {wild}.")
    claim.extend(stand_in_lines(variant, board))
    if any(r.tunnel for r in board.routes):
        claim.append(
            f"Tunnels: after paying, turn up {variant.tunnels.reveal} cards from the deck; for each one matching your colour "
            f"(a {wild} always matches) pay one more card, or take your cards back and end your turn."
        )
    if variant.cards.big_locomotives.count:
        claim.append(f"+4 {wild}s are wild only on routes of length {variant.cards.big_locomotives.min_length} or more.")
    if variant.passengers.count:
        claim.append(
            "After claiming a route you may put a passenger on one of its ends. A moving passenger rides your own routes free "
            "and pays a passenger card for each opponent route; it never rides a route twice, then leaves the game."
        )
    if variant.flags.colors and variant.flags.points:
        claim.append(
            f"Flags: after claiming a {'/'.join(variant.flags.colors)} route, you may keep one paid card of that colour in front of you; "
            f"a complete set scores {variant.flags.points} points at the end of your turn."
        )
    if variant.stations.count:
        claim.append(
            "Stations: at the end, each station lets its owner use one opponent route into its city for their tickets."
        )
    out.append(("Claiming routes", claim))
    table = ", ".join(f"{k}: {v}" for k, v in sorted(variant.scoring.routes.items()))
    score = [f"Routes score by length ({table})."]
    score.append("Each ticket adds its value if its two places are joined by your routes, and subtracts it if not.")
    if any(len(t.destinations) > 1 for t in (*board.tickets, *variant.tickets.add)):
        score.append(
            "A ticket with several destinations scores the best one your routes reach; if they reach none, it loses its lowest value."
        )
    b = variant.scoring.bonuses
    if b.longest_path:
        score.append(f"The longest continuous path scores +{b.longest_path} (all tied players get it).")
    if b.most_tickets:
        score.append(f"Most completed tickets scores +{b.most_tickets} (all tied players get it).")
    if variant.stations.count and variant.stations.unused_points:
        score.append(f"Each station never built scores +{variant.stations.unused_points}.")
    if b.goods:
        score.append("Goods tokens score their face value.")
    if b.two_paths:
        score.append(
            f"Each completed ticket whose places your own routes join by two separate paths (no route on both; "
            f"they may cross at a place) scores +{b.two_paths}."
        )
    for m in b.most_routes:
        score.append(f"Most routes of exactly {m.length} spaces scores +{m.points} (all tied players get it; at least one such route).")
    if variant.scoring.tie_breaks:
        score.append("Ties: " + ", then ".join(TIE_BREAK_WORDS[t] for t in variant.scoring.tie_breaks) + ".")
    out.append(("Scoring", score))
    out.append(
        (
            "End of the game",
            [f"When a player ends a turn with {variant.end.trains_at_most} or fewer {cars}, every player, that player included, has one last turn."],
        )
    )
    return out
