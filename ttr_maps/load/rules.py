"""Variant consistency checks (V003-V012): rules that contradict each other or the board.

They run once a variant and its board have both loaded without errors, on the models
(every default filled in), and point at the key the variant file wrote; when the
offending value is a default, at the nearest key it did write. Errors are settings the
engine cannot play as written (a route that would score nothing, a keep rule no one can
follow, a ticket draw of nothing); warnings are settings that can never take effect.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..model.board import Board
from ..model.variant import TIE_BREAK_WORDS, TicketDeal, Variant
from .refs import board_decks
from .source import PathT, Source


def _at(src: Source, *locs: PathT) -> tuple[PathT, bool]:
    """The first of `locs` the file writes (as a key, or a list item); else the first, at its nearest parent."""
    for loc in locs:
        if loc in src.key_pos:
            return loc, True
        if loc in src.value_pos:
            return loc, False
    return locs[0], False


def check_rules(src: Source, board_src: Source, variant: Variant, board: Board, out: list[Diagnostic]) -> None:
    """Add a diagnostic for every contradiction between the variant's settings, or with its board."""

    def emit(code: str, message: str, *locs: PathT, severity: Severity = Severity.ERROR) -> None:
        loc, key = _at(src, *locs)
        src.report(out, src.diag(loc, code, message, severity, key=key))

    _scoring_lengths(src, board_src, variant, board, emit)
    for section in ("setup", "draw"):
        _keep_limits(section, getattr(variant.tickets, section), emit)
    _draw_of_nothing(src, variant, emit)
    _redeal(variant, emit)
    _big_locomotives(variant, board, emit)
    _passengers(variant, emit)
    _goods(src, variant, board, emit)
    _stations(src, variant, emit)
    _tie_breaks(variant, emit)
    _most_routes(variant, board, emit)
    _unused_added_decks(src, board_src, variant, emit)
    _ferries_without_locomotives(board_src, variant, board, emit)


def _scoring_lengths(src: Source, board_src: Source, variant: Variant, board: Board, emit: Any) -> None:
    table = variant.scoring.routes
    first: dict[int, int] = {}
    for i, route in enumerate(board.routes):
        first.setdefault(route.length, i)
    missing = sorted(length for length in first if length not in table)
    if not missing:
        return
    examples = []
    for length in missing:
        i = first[length]
        route = board.routes[i]
        line = board_src.pos(("routes", i))[0]
        examples.append(f"{route.from_}-{route.to} (length {length}, {board_src.path}:{line})")
    shown = ", ".join(f"{length}: <points>" for length in missing)
    written = "scoring.routes" if ("scoring", "routes") in src.key_pos else "scoring.routes is left out, so the default table"
    emit(
        "V003",
        f"{written} has no points for route length{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}, "
        f"which the board uses: {'; '.join(examples)}; such routes would score 0. Add {shown} to scoring.routes",
        ("scoring", "routes"),
        ("scoring",),
    )


def _keep_limits(section: str, deal: TicketDeal, emit: Any) -> None:
    """keep_max (per pile) must leave room to keep keep_min of what is dealt."""
    if not deal.keep_max:
        return
    dealt: Counter[str] = Counter()
    if deal.mix:
        total = deal.count
        for p in deal.mix:
            dealt[p] = total  # the player may take the whole mix from one pile
        most = min(total, sum(min(n, deal.keep_max.get(p, n)) for p, n in dealt.items()))
    else:
        for d in deal.deal:
            dealt[d.pile] += d.count
        total = sum(dealt.values())
        most = sum(min(n, deal.keep_max.get(p, n)) for p, n in dealt.items())
    need = min(deal.keep_min, total)
    if most >= need:
        return
    limiting = [p for p in deal.keep_max if p in dealt and deal.keep_max[p] < dealt[p]]
    limits = ", ".join(f"{p}: {deal.keep_max[p]}" for p in limiting)
    emit(
        "V004",
        f"tickets.{section}: keep_min is {deal.keep_min}, but keep_max ({limits}) lets a player keep at most {most} "
        f"of the {total} dealt; raise keep_max.{limiting[0]} or lower keep_min to {most}",
        ("tickets", section, "keep_max", limiting[0]),
        ("tickets", section, "keep_min"),
    )


def _draw_of_nothing(src: Source, variant: Variant, emit: Any) -> None:
    draw = variant.tickets.draw
    if draw.mix or any(d.count for d in draw.deal):
        return
    pile = draw.deal[0].pile if draw.deal else next(iter(variant.tickets.piles), "main")
    emit(
        "V005",
        f"tickets.draw deals no tickets, so drawing tickets in play would give nothing; deal at least one, "
        f"e.g. `deal: [{{pile: {pile}, count: 3}}]`",
        ("tickets", "draw", "deal", 0, "count"),
        ("tickets", "draw", "deal"),
        ("tickets", "draw"),
    )


def _redeal(variant: Variant, emit: Any) -> None:
    face_up = variant.face_up
    if face_up.redeal_locomotives > face_up.count:
        emit(
            "V006",
            f"face_up.redeal_locomotives is {face_up.redeal_locomotives}, more than the {face_up.count} face-up cards, "
            f"so the redeal never happens; use at most {face_up.count} (the usual rule is 3 of 5)",
            ("face_up", "redeal_locomotives"),
            ("face_up", "count"),
            severity=Severity.WARNING,
        )
    if face_up.redeal_passengers is not None and face_up.redeal_passengers > face_up.count:
        emit(
            "V006",
            f"face_up.redeal_passengers is {face_up.redeal_passengers}, more than the {face_up.count} face-up cards, "
            f"so the redeal never happens; use at most {face_up.count}",
            ("face_up", "redeal_passengers"),
            ("face_up", "count"),
            severity=Severity.WARNING,
        )
    elif face_up.redeal_passengers is not None and variant.cards.passengers == 0:
        emit(
            "V006",
            "face_up.redeal_passengers is set, but the deck has no passenger cards (cards.passengers is 0), so the redeal "
            "never happens; remove it or add passenger cards",
            ("face_up", "redeal_passengers"),
            severity=Severity.WARNING,
        )


def _big_locomotives(variant: Variant, board: Board, emit: Any) -> None:
    big = variant.cards.big_locomotives
    longest = max((r.length for r in board.routes), default=0)
    if big.count and longest and big.min_length > longest:
        emit(
            "V007",
            f"cards.big_locomotives.min_length is {big.min_length}, but the board's longest route has {longest} spaces, "
            f"so the {big.count} big locomotives can never be played; use a min_length of at most {longest} "
            "(Märklin: 4) or set big_locomotives.count to 0",
            ("cards", "big_locomotives", "min_length"),
            ("cards", "big_locomotives"),
            severity=Severity.WARNING,
        )


def _passengers(variant: Variant, emit: Any) -> None:
    riders, cards = variant.passengers.count, variant.cards.passengers
    if riders and not cards:
        emit(
            "V008",
            f"passengers.count is {riders}, but the deck has no passenger cards (cards.passengers is 0), so passengers "
            "can never ride an opponent's route; add passenger cards (Märklin: `cards: {passengers: 10}`) or set passengers.count to 0",
            ("cards", "passengers"),
            ("passengers", "count"),
            severity=Severity.WARNING,
        )
    elif cards and not riders:
        emit(
            "V008",
            f"cards.passengers is {cards}, but players have no passengers (passengers.count is 0), so passenger cards "
            "are of no use; set passengers.count (Märklin: 3) or cards.passengers to 0",
            ("cards", "passengers"),
            ("passengers", "count"),
            severity=Severity.WARNING,
        )


def _tie_break_loc(variant: Variant, name: str) -> PathT:
    return ("scoring", "tie_breaks", variant.scoring.tie_breaks.index(name))  # type: ignore[arg-type]


def _goods(src: Source, variant: Variant, board: Board, emit: Any) -> None:
    if board.goods:
        return
    if variant.scoring.bonuses.goods:
        emit(
            "V009",
            "scoring.bonuses.goods is true, but the board has no goods; set it to false or add goods to the board",
            ("scoring", "bonuses", "goods"),
            severity=Severity.WARNING,
        )
    if "most-goods" in variant.scoring.tie_breaks:
        emit(
            "V009",
            "tie-break 'most-goods' can decide nothing: the board has no goods; remove it from scoring.tie_breaks",
            _tie_break_loc(variant, "most-goods"),
            severity=Severity.WARNING,
        )


def _stations(src: Source, variant: Variant, emit: Any) -> None:
    if variant.stations.count:
        return
    if variant.stations.unused_points:
        emit(
            "V010",
            f"stations.unused_points is {variant.stations.unused_points}, but players have no stations (stations.costs is "
            "empty); give the station costs (Europe: `costs: [1, 2, 3]`) or set unused_points to 0",
            ("stations", "unused_points"),
            severity=Severity.WARNING,
        )
    if "fewest-stations" in variant.scoring.tie_breaks:
        emit(
            "V010",
            "tie-break 'fewest-stations' can decide nothing: players have no stations (stations.costs is empty); "
            "remove it from scoring.tie_breaks or give the station costs",
            _tie_break_loc(variant, "fewest-stations"),
            severity=Severity.WARNING,
        )


def _tie_breaks(variant: Variant, emit: Any) -> None:
    seen: set[str] = set()
    for i, name in enumerate(variant.scoring.tie_breaks):
        if name in seen:
            emit(
                "V011",
                f"tie-break '{name}' ({TIE_BREAK_WORDS[name]}) is listed twice; the second time it decides nothing, remove it",
                ("scoring", "tie_breaks", i),
                severity=Severity.WARNING,
            )
        seen.add(name)


def _most_routes(variant: Variant, board: Board, emit: Any) -> None:
    """A most-routes bonus for a length no route of the board has can never be won."""
    lengths = {r.length for r in board.routes}
    for i, m in enumerate(variant.scoring.bonuses.most_routes):
        if m.length not in lengths:
            used = ", ".join(map(str, sorted(lengths))) or "none"
            emit(
                "V017",
                f"scoring.bonuses.most_routes gives {m.points} points for the most routes of length {m.length}, but the board "
                f"has no route of that length (its lengths: {used}), so nobody can win it; use one of the board's lengths or remove it",
                ("scoring", "bonuses", "most_routes", i, "length"),
                severity=Severity.WARNING,
            )


def _unused_added_decks(src: Source, board_src: Source, variant: Variant, emit: Any) -> None:
    """A deck only `tickets.add` names, which no pile holds: its tickets are never dealt."""
    piles = variant.tickets.piles
    if not piles:
        return  # the default pile holds every deck
    used = {deck for decks in piles.values() for deck in decks}
    on_board = board_decks(board_src.data)
    reported: set[str] = set()
    for i, ticket in enumerate(variant.tickets.add):
        for j, deck in enumerate(ticket.decks):
            if deck in used or deck in on_board or deck in reported:
                continue
            reported.add(deck)
            lost = sum(1 for t in variant.tickets.add if deck in t.decks and not used.intersection(t.decks))
            fate = f"so {lost} added ticket(s) are never dealt" if lost else "so it is never dealt from"
            emit(
                "V012",
                f"deck '{deck}' is added by tickets.add but no pile holds it, {fate}; add it to a pile under tickets.piles "
                f"(e.g. `{next(iter(piles))}: [{', '.join(piles[next(iter(piles))] + (deck,))}]`) or remove it",
                ("tickets", "add", i, "decks", j),
                severity=Severity.WARNING,
            )


def _ferries_without_locomotives(board_src: Source, variant: Variant, board: Board, emit: Any) -> None:
    """Locomotives limited to routes that leave the board's ferries out: no ferry can ever be claimed."""
    only = variant.cards.locomotives_only_on
    if not only or "ferries" in only or variant.stand_ins.ferry:
        return
    ferries = [(i, r) for i, r in enumerate(board.routes) if r.ferry and not (r.tunnel and "tunnels" in only)]
    if not ferries:
        return
    i, route = ferries[0]
    line = board_src.pos(("routes", i))[0]
    emit(
        "V016",
        f"cards.locomotives_only_on is [{', '.join(only)}], so the board's {len(ferries)} ferr{'y' if len(ferries) == 1 else 'ies'} "
        f"(e.g. {route.from_}-{route.to}, {board_src.path}:{line}) can never be claimed: a ferry's marks are paid with "
        "locomotives; add `ferries` to cards.locomotives_only_on, or let cards stand in for them (`stand_ins: {ferry: 3}`)",
        ("cards", "locomotives_only_on"),
        ("cards",),
    )
