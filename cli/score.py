"""`ttr-maps score POSITION`"""

from __future__ import annotations

import json

from typing import TYPE_CHECKING

import click

from ttr_maps.fileio import looks_like_state_file
from ttr_maps.report import render
from ttr_maps.scorerows import SCORE_ROWS, variant_rows

if TYPE_CHECKING:
    from ttr_maps.engine.scoring import ScoreSheet

# The engine and the models are imported where they are used: every command's start-up pays for imports.

@click.command("score")
@click.argument("position", type=click.Path(dir_okay=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="A table for people, or JSON.")
def command(position: str, fmt: str) -> None:
    """Final scoring of a finished game: a position file (see docs/scoring.md), or a state file of a
    game played to its end (`ttr-maps play`, `ttr-maps state apply`, a simulate record).

    Prints each player's points by kind, the longest trail, which tickets were
    completed, what each station borrowed, and the winner(s) after tie-breaks.
    Exit codes: 0 scored, 1 problems in the file, 2 usage error.
    """
    from ttr_maps.diagnostics import Severity
    from ttr_maps.engine.position_file import load_position
    from ttr_maps.engine.scoring import ScoringError, final_score

    if looks_like_state_file(position):
        _score_state_file(position, fmt)
        return
    loaded = load_position(position)
    problems = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    if problems or not loaded.ok:
        if fmt == "json":
            click.echo(render("json", loaded.diagnostics))
        else:
            click.echo(render("text", loaded.diagnostics), err=True)
        raise SystemExit(1)
    if loaded.diagnostics and fmt == "text":
        click.echo(render("text", loaded.diagnostics), err=True)
    assert loaded.variant is not None and loaded.board is not None and loaded.position is not None
    try:
        sheet = final_score(loaded.variant, loaded.board, loaded.position)
    except ScoringError as e:
        raise click.ClickException(f"{position}: {e}") from None
    if fmt == "json":
        click.echo(json.dumps(_as_json(loaded, sheet), indent=2, ensure_ascii=False))
    else:
        click.echo(_as_text(loaded, sheet))


def _score_state_file(path: str, fmt: str) -> None:
    """The final score of the game a state file holds, once it is over (the engine's own score sheet)."""
    from types import SimpleNamespace

    from ttr_maps.diagnostics import LoadError
    from ttr_maps.engine.scoring import ScoringError
    from ttr_maps.engine.statefile import StateFileError, load_state

    try:
        state = load_state(path)
    except (StateFileError, LoadError) as exc:
        diagnostics = exc.diagnostics
        if fmt == "json":
            click.echo(render("json", diagnostics))
        else:
            click.echo(render("text", diagnostics) if diagnostics else f"{path}: {exc}", err=True)
        raise SystemExit(1) from None
    if not state.is_terminal():
        raise click.ClickException(
            f"{path}: the game is not over ({len(state.history)} actions played), so it has no final score; "
            f"`ttr-maps state show {path}` shows where it stands, `ttr-maps play {path}` continues it")
    try:
        sheet = state.score_sheet()
    except ScoringError as e:
        raise click.ClickException(f"{path}: {e}") from None
    game = state.game
    loaded = SimpleNamespace(variant=game.variant, board=game.board, path=path, diagnostics=[])
    if fmt == "json":
        click.echo(json.dumps(_as_json(loaded, sheet), indent=2, ensure_ascii=False))
    else:
        click.echo(_as_text(loaded, sheet))


def _ticket_text(ticket) -> str:
    return f"{ticket.from_}-{ticket.to} ({ticket.points})"


def _as_text(loaded, sheet: ScoreSheet) -> str:
    variant, board = loaded.variant, loaded.board
    tickets = _tickets(loaded)
    names = [p.name for p in sheet.players]
    width = max([5] + [len(n) for n in names])
    label_width = max(len(label) for _k, label in SCORE_ROWS) + 2
    lines = [f"{variant.name}: {len(names)} players ({loaded.path})", ""]
    lines.append(" " * label_width + " ".join(f"{n:>{width}}" for n in names))
    for key, label in variant_rows(variant):
        lines.append(f"{label:<{label_width}}" + " ".join(f"{p.breakdown[key]:>{width}}" for p in sheet.players))
    lines.append(f"{'total':<{label_width}}" + " ".join(f"{p.total:>{width}}" for p in sheet.players))
    lines.append("")
    lines.append(_winner_line(sheet))
    trail_matters = variant.scoring.bonuses.longest_path > 0 or {"longest-path", "longest-path-bonus"} & set(variant.scoring.tie_breaks)
    for p in sheet.players:
        lines.append("")
        kept = len(p.completed) + len(p.failed)
        trail = f"; longest trail {p.longest_trail} trains" if trail_matters else ""
        lines.append(f"{p.name}: {len(p.completed)} of {kept} tickets completed{trail}")
        if p.completed:
            lines.append("  completed: " + ", ".join(_ticket_text(tickets[i]) for i in p.completed))
        if p.failed:
            lines.append("  failed:    " + ", ".join(_ticket_text(tickets[i]) for i in p.failed))
        if p.two_path_tickets:
            lines.append("  two paths: " + ", ".join(_ticket_text(tickets[i]) for i in p.two_path_tickets))
        for b in p.borrowings:
            if b.route is None:
                lines.append(f"  station in {b.place}: borrows nothing (no opponent route there helps)")
            else:
                lines.append(f"  station in {b.place}: borrows {board.routes[b.route].id}")
    return "\n".join(lines)


def _winner_line(sheet: ScoreSheet) -> str:
    winners = [sheet.players[i] for i in sheet.winners]
    if len(winners) == 1:
        w = winners[0]
        tied = [p.name for p in sheet.players if p.total == w.total and p is not w]
        if tied and sheet.tie_break_used:
            from ttr_maps.model.variant import TIE_BREAK_WORDS

            return f"Winner: {w.name} with {w.total} points (tied with {', '.join(tied)}; {TIE_BREAK_WORDS[sheet.tie_break_used]} breaks the tie)"
        return f"Winner: {w.name} with {w.total} points"
    return f"Shared win: {', '.join(w.name for w in winners)} with {winners[0].total} points each (the tie-breaks leave them tied)"


def _tickets(loaded):
    from ttr_maps.engine.position import all_tickets

    return all_tickets(loaded.variant, loaded.board)


def _as_json(loaded, sheet: ScoreSheet) -> dict:
    board = loaded.board
    tickets = _tickets(loaded)

    def ticket(i: int) -> dict:
        t = tickets[i]
        return {"from": t.from_, "to": t.to, "points": t.points}

    return {
        "position": loaded.path,
        "variant": loaded.variant.name,
        "players": [
            {
                "name": p.name,
                "total": p.total,
                "breakdown": p.breakdown,
                "completed": [ticket(i) for i in p.completed],
                "failed": [ticket(i) for i in p.failed],
                **({"two_paths": [ticket(i) for i in p.two_path_tickets]} if loaded.variant.scoring.bonuses.two_paths else {}),
                "longest_trail": p.longest_trail,
                "trail_routes": [board.routes[r].id for r in p.trail_routes],
                "stations": [
                    {"place": b.place, "borrows": board.routes[b.route].id if b.route is not None else None} for b in p.borrowings
                ],
            }
            for p in sheet.players
        ],
        "winners": [sheet.players[i].name for i in sheet.winners],
        "tie_break": sheet.tie_break_used,
        "diagnostics": [d.as_dict() for d in loaded.diagnostics],
    }
