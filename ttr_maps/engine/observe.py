"""What one seat may see: its own hand and tickets, and everything public."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .phases import PHASE_NAMES

if TYPE_CHECKING:
    from .state import State


def hand_dict(state: State, counts: list[int]) -> dict[str, int]:
    kinds = state.t.kinds
    return {kinds[k]: n for k, n in enumerate(counts) if n}


def observation(state: State, seat: int) -> dict[str, Any]:
    """A plain dict (JSON-ready) of what `seat` knows. Hidden: deck order, others' hands and tickets, offers."""
    t = state.t
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}")
    players = []
    for p in range(game.num_players):
        players.append(
            {
                "cards": sum(state.hands[p]),
                "tickets": len(state.kept[p]),
                "offered": len(state.offers[p]),
                "trains": state.trains[p],
                "stations_left": len(t.station_costs) - len(state.stations[p]),
                "score": state.scores[p],
                "claims": [[t.route_ids[t.t_route[tid]], t.t_track[tid]] for tid in state.claims[p]],
                "stations": [t.place_ids[x] for x in state.stations[p]],
                "passengers_unplaced": state.passengers_unplaced[p],
                "passengers_moved": state.passengers_moved[p],
                "goods": list(state.goods_taken[p]),
                "flag_cards": [t.kinds[c] for c in state.flag_cards[p]],
                "flag_sets": state.flag_sets[p],
            }
        )
    obs: dict[str, Any] = {
        "seat": seat,
        "current_player": state.current_player(),
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turns,
        "final_round": state.final_left > 0,
        "hand": hand_dict(state, state.hands[seat]),
        "tickets": [t.ticket_keys[k] for k in state.kept[seat]],
        "offered": [t.ticket_keys[k] for k in state.offers[seat]],
        "face_up": [t.kinds[k] if k >= 0 else None for k in state.face_up],
        "deck": len(state.deck),
        "discards": state.discard_total,
        "ticket_piles": {name: len(cards) for name, cards in state.piles.items()},
        "passengers": {t.place_ids[x]: p for x, p in sorted(state.passenger_at.items())},
        "goods": {t.place_ids[place]: [v for i in stacks for v in reversed(state.goods[i])] for place, stacks in state.goods_at.items()},
        "players": players,
    }
    if state.tunnel is not None:
        tun = state.tunnel
        obs["tunnel"] = {
            "route": t.route_ids[t.t_route[tun.tid]],
            "track": t.t_track[tun.tid],
            "revealed": [t.kinds[k] for k in tun.revealed],
            "extra": tun.extra,
        }
    if state.journey is not None:
        obs["journey"] = {"start": t.place_ids[state.journey.start], "at": t.place_ids[state.journey.at]}
    return obs
