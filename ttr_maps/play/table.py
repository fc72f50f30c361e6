"""One game at the table: people and bots around the reference engine, and what each person may see.

The page never sees the state: `Table.view()` is built from the engine's observation
of the seat whose hand is shown (`State.observation`), plus what is public (the log,
the bots' names, the score sheet once the game is over). With several people at one
screen (hot seat) no hand is shown until the person whose turn it is says it is them
(`reveal`), so a hand is never on screen, nor in any answer, while another person
looks.

Bots move one action per `bot_step()`, which the page calls after a short pause, so
a person can follow them in the log. Every action is saved to the table's state file
(the engine's format: `ttr-maps state show` reads it, `ttr-maps play FILE` resumes it).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import Action, BuildStation, ClaimTrack, DrawFaceUp, DrawTickets, MovePassenger, PlacePassenger
from ..engine.errors import IllegalAction
from ..engine.game import Game, State
from ..engine.notation import NotationError

HUMAN = "human"


class TableError(ValueError):
    """A request the table refuses: the message says why (and, for a rule, which one)."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


@dataclass
class LogLine:
    seat: int
    text: str


@dataclass
class Table:
    """A game between `seats` (each `human` or a bot name), saved to `save_path` after every action."""

    game: Game
    state: State
    seats: list[str]
    save_path: Path
    seed: int = 0
    log: list[LogLine] = field(default_factory=list)
    shown: int | None = None  # the seat whose hand is on screen (hot seat: after `reveal`)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def __post_init__(self) -> None:
        from ..bots import make_bot

        if len(self.seats) != self.game.num_players:
            raise TableError(f"{len(self.seats)} seats for a {self.game.num_players}-player game")
        self.bots = {s: make_bot(name, self.game, s, self.seed * 1_000_003 + s) for s, name in enumerate(self.seats) if name != HUMAN}
        if not self.humans:
            raise TableError("no seat is played by a person: use `ttr-maps simulate` for bots alone")
        if len(self.humans) == 1:
            self.shown = self.humans[0]

    # --- who sits where ---------------------------------------------------------------------

    @property
    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def waiting_for(self) -> str:
        """`over`, `bot` (the page calls bot_step), `handover` (a person must say who they are) or `you`."""
        st = self.state
        if st.is_terminal():
            return "over"
        if st.current_player() in self.bots:
            return "bot"
        if st.current_player() != self.shown:
            return "handover"
        return "you"

    # --- acting -----------------------------------------------------------------------------

    def reveal(self, seat: int) -> None:
        """Hot seat: the person at `seat` has the screen (only the seat whose turn it is)."""
        with self.lock:
            if self.state.is_terminal() or seat != self.state.current_player() or seat not in self.humans:
                raise TableError(f"it is not player {seat + 1}'s turn to take the screen", rule=_rule("R_PLAYER"))
            self.shown = seat

    def _check_turn(self, seat: int) -> None:
        if self.waiting_for() != "you" or seat != self.shown:
            raise TableError("it is not your turn", rule=_rule("R_TURN"))

    def act(self, seat: int, text: str) -> None:
        """The person at `seat` plays `text` (the notation of one of their legal actions)."""
        with self.lock:
            self._check_turn(seat)
            try:
                actions = self.game.parse_actions(text, self.state)
            except NotationError as exc:
                raise TableError(f"'{text[:80]}' is not an action: {exc}", rule=_rule("R_TURN")) from None
            if len(actions) != 1:
                raise TableError("one action at a time", rule=_rule("R_TURN"))
            action = actions[0]
            legal = self.state.legal_actions()
            if action not in legal:
                try:
                    self.state.clone().apply(action)
                except IllegalAction as exc:
                    raise TableError(exc.reason, rule=exc.rule) from None
                raise TableError(f"'{text[:80]}' is not legal now", rule=_rule("R_TURN"))
            self._apply(seat, action)

    def why_not_claim(self, seat: int, route_id: str) -> None:
        """Raise the rule that stops the person at `seat` from claiming route `route_id` now."""
        with self.lock:
            index = self.game.board.route_index.get(route_id)
            if index is None:
                raise TableError(f"there is no route '{route_id[:80]}' on this board", rule=_rule("R_CLAIM"))
            self._check_turn(seat)
            refusals = []
            for track in range(len(self.game.board.routes[index].tracks)):
                try:
                    self.state.clone().apply(ClaimTrack(index, track, ()))
                except IllegalAction as exc:
                    refusals.append(exc)
            # An empty payment is refused last for its cards: a track refused only for that is open to a real payment.
            if not refusals or any("payment" in exc.reason for exc in refusals):
                raise TableError("none of the payments your hand allows fits this route", rule=_rule("R_CLAIM"))
            raise TableError(refusals[0].reason, rule=refusals[0].rule)

    def why_not_at(self, seat: int, place_id: str) -> None:
        """Raise the rule that stops the person at `seat` from doing anything at `place_id` now."""
        with self.lock:
            place = self.game.board.place_by_id.get(place_id)
            if place is None:
                raise TableError(f"there is no place '{place_id[:80]}' on this board", rule=_rule("R_TURN"))
            self._check_turn(seat)
            st, v, name = self.state, self.game.variant, place.name or place_id
            phase = st.observation(seat)["phase"]
            if phase == "place-passenger":
                self._refusal(PlacePassenger(place_id))
            if phase == "journey":
                raise TableError(f"your passenger cannot ride on to {name}: no route it has not ridden joins it to where it stands"
                                 " (a route of another player costs a passenger card)", rule=_rule("R_PASSENGER"))
            if phase != "turn":  # a pending decision first (the engine says which)
                self._refusal(BuildStation(place_id, ()) if v.stations.count else PlacePassenger(place_id))
            if v.stations.count:
                self._refusal(BuildStation(place_id, ()), unless="payment")
                raise TableError(f"none of the payments your hand allows builds a station at {name}", rule=_rule("R_STATION"))
            if v.passengers.count:
                if seat not in st.observation(seat)["passengers"].values():
                    raise TableError("you have no passenger on the board: one is placed on an end of a route right after you claim it",
                                     rule=_rule("R_PASSENGER"))
                raise TableError(f"no passenger of yours can ride to {name} now: it rides along claimed routes, yours free, "
                                 "another player's for a passenger card", rule=_rule("R_PASSENGER"))
            raise TableError(f"this variant has no stations or passengers: nothing is played at {name}", rule=_rule("R_TURN"))

    def _refusal(self, action: Action, unless: str | None = None) -> None:
        """Raise the engine's refusal of `action` now (unless its reason holds `unless`)."""
        try:
            self.state.clone().apply(action)
        except IllegalAction as exc:
            if unless is None or unless not in exc.reason:
                raise TableError(exc.reason, rule=exc.rule) from None

    def bot_step(self) -> bool:
        """Let the bot whose turn it is make one move; False when it is not a bot's turn."""
        with self.lock:
            if self.waiting_for() != "bot":
                return False
            seat = self.state.current_player()
            action = bot_action(self.bots[seat], self.state, seat)
            self._apply(seat, action)
            return True

    def _apply(self, seat: int, action: Action) -> None:
        before = self.state.counters.get("face-up-redeals", 0)
        text = self.game.action_text(action)
        if isinstance(action, DrawFaceUp) and 0 <= action.slot < len(self.state.face_up) and self.state.face_up[action.slot] >= 0:
            text += f" ({self.state.t.kinds[self.state.face_up[action.slot]]})"  # the card is public: which one was taken
        self.state.apply(action)
        self.log.append(LogLine(seat, text))
        if getattr(self.state, "tunnel", None) is not None and isinstance(action, ClaimTrack):
            revealed = self.view_tunnel()
            if revealed:
                self.log.append(LogLine(seat, f"tunnel: turned {', '.join(revealed['revealed'])}: {revealed['extra']} more to pay"))
        redeals = self.state.counters.get("face-up-redeals", 0) - before
        if redeals:
            times = "" if redeals == 1 else f" {redeals} times"
            self.log.append(LogLine(-1, f"too many locomotives face up: the row was redealt{times}"))
        if self.hot_seat and not self.state.is_terminal() and self.state.current_player() != seat:
            self.shown = None
        self.save()

    def view_tunnel(self) -> dict[str, Any] | None:
        return self.state.observation(self.state.current_player()).get("tunnel")

    def save(self) -> None:
        from ..engine.statefile import dump_state
        from ..fileio import write_atomic

        write_atomic(self.save_path, dump_state(self.state, self.save_path))

    # --- what the page receives ---------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """Everything the page shows, for the seat on screen only (nobody's hand during a handover)."""
        with self.lock:
            st = self.state
            waiting = self.waiting_for()
            seat = self.shown if waiting != "handover" else None
            public_seat = seat if seat is not None else self.humans[0]
            obs = st.observation(public_seat)
            if seat is None:  # nobody on screen: the public part only
                for key in ("hand", "tickets", "offered"):
                    obs[key] = {} if key == "hand" else []
            out: dict[str, Any] = {
                "waiting": waiting,
                "seat": seat,
                "seats": [{"seat": s, "who": name, "name": f"Player {s + 1}" if name == HUMAN else f"{name} (bot)"}
                          for s, name in enumerate(self.seats)],
                "observation": obs,
                "tickets": self._ticket_texts(obs) if seat is not None else {"kept": [], "offered": []},
                "log": [{"seat": ln.seat, "text": ln.text} for ln in self.log[-200:]],
                "legal": self.legal_view() if waiting == "you" else [],
                "save_path": str(self.save_path),
                "variant": self.game.variant.name,
            }
            if waiting == "over":
                out["scores"] = self.score_view()
            return out

    def _ticket_texts(self, obs: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        from ..engine.position import all_tickets

        tickets = {self.game.t.ticket_keys[i]: t for i, t in enumerate(all_tickets(self.game.variant, self.game.board))}

        def one(key: str) -> dict[str, Any]:
            t = tickets.get(key)
            if t is None:
                return {"key": key, "text": key}
            return {"key": key, "text": f"{_place_name(self.game, t.from_)} – {_place_name(self.game, t.to)}", "points": t.points}

        return {"kept": [one(k) for k in obs["tickets"]], "offered": [one(k) for k in obs["offered"]]}

    def legal_view(self) -> list[dict[str, Any]]:
        """The legal actions of the seat on screen, with what on the board each one is about."""
        t = self.game.t
        out = []
        for a in self.state.legal_actions():
            text = self.game.action_text(a)
            item: dict[str, Any] = {"text": text, "kind": text.split(" ", 1)[0]}
            if isinstance(a, ClaimTrack):
                item["route"] = t.route_ids[a.route]
            elif isinstance(a, DrawFaceUp):
                item["slot"] = a.slot
            elif isinstance(a, (BuildStation, PlacePassenger)):
                item["place"] = a.place
            elif isinstance(a, MovePassenger):
                item["place"] = a.path[-1] if a.path else None
            elif isinstance(a, DrawTickets) and a.mix:
                item["label"] = " + ".join(f"{n} {pile}" for n, pile in zip(a.mix, self._mix_piles(len(a.mix))))
            out.append(item)
        return out

    def _mix_piles(self, n: int) -> list[str]:
        """The piles a `tickets N N` announcement counts from, in its order (docs/rules.md#drawing-tickets)."""
        tickets = self.game.variant.tickets
        deal = tickets.setup if self.state.in_setup and tickets.setup.mix else tickets.draw
        return list(deal.mix) if len(deal.mix) == n else [f"pile {i + 1}" for i in range(n)]

    def score_view(self) -> dict[str, Any]:
        sheet = self.state.score_sheet()
        return {
            "players": [{"seat": s, "total": p.total, "breakdown": dict(p.breakdown), "completed": len(p.completed),
                         "failed": len(p.failed), "longest_trail": p.longest_trail,
                         "borrowings": [self._borrowing(b) for b in p.borrowings]} for s, p in enumerate(sheet.players)],
            "winners": list(sheet.winners),
            "tie_break": sheet.tie_break_used,
        }

    def _borrowing(self, b: Any) -> dict[str, Any]:
        """A station and the opponent route the final scoring chose for it (docs/rules.md#stations)."""
        route = self.game.board.routes[b.route] if b.route is not None else None
        return {"place": b.place, "place_name": _place_name(self.game, b.place),
                "route": route.id if route is not None else None,
                "route_text": f"{_place_name(self.game, route.from_)} – {_place_name(self.game, route.to)}" if route is not None else None}


def bot_action(bot: Any, state: State, seat: int) -> Action:
    """The action `bot` (sitting at `seat`) chooses now, checked against the rules."""
    from ..bots.view import StateView

    legal = state.legal_actions()
    view = StateView(state, seat)
    try:
        action = bot.act(view, legal)
    finally:
        close = getattr(view, "close", None)
        if close is not None:
            close()
    if action is None or action not in legal:
        raise TableError(f"the bot at seat {seat + 1} chose an action the rules do not allow ({action!r})")
    return action


def _place_name(game: Game, pid: str) -> str:
    place = game.board.place_by_id.get(pid)
    return place.name if place is not None and place.name else pid


def _rule(name: str) -> str:
    from ..engine import errors

    return getattr(errors, name)


def new_table(game: Game, seats: list[str], save_path: Path, seed: int | None = None) -> Table:
    """A new game at the table, dealt from `seed` (a random one when None), saved at once."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    table = Table(game, game.new_initial_state(seed), seats, save_path, seed)
    table.save()
    return table


def resume_table(state: State, seats: list[str], save_path: Path) -> Table:
    """A saved game, continued: its history becomes the log."""
    table = Table(state.game, state, seats, save_path, state_seed(state))
    table.log = [LogLine(-1, f"resumed from {save_path.name}: {len(state.history)} actions played so far")]
    return table


def state_seed(state: State) -> int:
    return int(state.seed or 0)
