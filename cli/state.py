"""`ttr-maps state new | legal | apply | show`: play the reference engine one action at a time through state files."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ttr_maps.diagnostics import LoadError
from ttr_maps.fileio import OutputError, check_output, path_problem, write_output


def _load(path: str):
    from ttr_maps.engine.statefile import StateFileError, load_state

    try:
        return load_state(path)
    except LoadError as exc:
        raise click.ClickException(f"the state's variant has errors:\n{exc}") from None
    except StateFileError as exc:  # diagnostics at file:line:col when the file was read
        raise click.ClickException(str(exc) if exc.diagnostics else f"{path}: {exc}") from None
    except OSError as exc:  # e.g. a variant path too long for the file system
        raise click.ClickException(f"{path}: {exc.strerror or exc}: {exc.filename or path}") from None


def _write(state, out: str | None) -> None:
    from ttr_maps.engine.statefile import dump_state

    if out is None or out == "-":
        click.echo(dump_state(state, Path.cwd() / "state.yaml"), nl=False)
        return
    try:
        write_output(out, dump_state(state, out))
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {out}", err=True)


def _check_output(out: str | None) -> None:
    """Fail before any work when the output file cannot be written (a missing folder is never created)."""
    if out is None or out == "-":
        return
    try:
        check_output(out, "-o", ".yaml")
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None


@click.group("state")
def command() -> None:
    """Set up, inspect and advance game positions (state files) with the reference engine.

    Actions are written in a short notation, e.g. `draw blind`, `draw faceup 2`,
    `claim athina-sofia pink 3pink`, `tickets`, `keep 0 2`, `station wien 2red`,
    `tunnel pay 1loco`, `pass` (docs/engine.md lists them all).
    """


@command.command("new")
@click.argument("variant", type=click.Path(dir_okay=False, path_type=str))
@click.option("-p", "--players", type=int, required=True, help="Number of players.")
@click.option("-s", "--seed", type=int, default=None, help="Random seed (default: a random one, recorded in the file).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=str), default=None, help="State file to write (default: print).")
@click.option(
    "--first-player", "first", default=None, metavar="SEAT|RULE",
    help="Who plays the first turn: a seat number (0 first), or seat-0 or random (drawn from the seed). Default: the variant's players.first.",
)
def new(variant: str, players: int, seed: int | None, out: str | None, first: str | None) -> None:
    """Deal a new game of VARIANT: shuffled decks, starting hands, face-up cards and starting tickets."""
    from ttr_maps.bundled import resolve
    from ttr_maps.engine.game import Game

    variant = resolve(variant)
    problem = path_problem(variant)
    if problem is not None:  # before opening it: a named pipe would wait for a writer forever
        raise click.ClickException(f"variant file '{variant}' not found" + ("" if problem.text == "not found" else f": it is {problem.text}")
                                   if problem.kind == "missing"
                                   else f"variant file '{variant}' is {problem.text}; name a variant .yaml file")
    _check_output(out)
    try:
        game = Game.from_file(variant, players)
    except LoadError as exc:
        raise click.ClickException(f"{variant} has errors:\n{exc}") from None
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        state = game.new_initial_state(seed, int(first) if first is not None and first.isdigit() else first)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--first-player") from None
    _write(state, out)


@command.command("legal")
@click.argument("state_file", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--json", "as_json", is_flag=True,
    help='Print one JSON object instead: {"player": seat (-1 once over), "phase": name, "actions": [notation, ...]}.',
)
def legal(state_file: str, as_json: bool) -> None:
    """List the legal actions of the player to act, one per line in the action notation."""
    state = _load(state_file)
    texts = [state.game.action_text(a) for a in state.legal_actions()]
    if as_json:
        click.echo(json.dumps({"player": state.current_player(), "phase": state.phase_name, "actions": texts}, indent=1))
        return
    if state.is_terminal():
        click.echo("# the game is over: no legal actions")
        return
    click.echo(f"# player {state.current_player()} to act ({state.phase_name}): {len(texts)} legal action(s)")
    for text in texts:
        click.echo(text)


@command.command("apply")
@click.argument("state_file", type=click.Path(dir_okay=False, path_type=str))
@click.argument("actions", nargs=-1, required=True)
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=str), default=None, help="State file to write (default: print).")
@click.option("--in-place", is_flag=True, help="Overwrite STATE_FILE.")
def apply(state_file: str, actions: tuple[str, ...], out: str | None, in_place: bool) -> None:
    """Apply ACTIONS in order (each one argument, or several separated by `;`) and write the new state.

    An illegal action is refused with the rule that forbids it (exit 1) and nothing is written.
    """
    from ttr_maps.engine.errors import IllegalAction
    from ttr_maps.engine.notation import NotationError, usage as notation_usage

    if in_place and out:
        raise click.UsageError("give either -o or --in-place")
    _check_output(out)
    state = _load(state_file)
    game = state.game
    for i, text in enumerate(actions, 1):
        try:
            parsed = game.parse_actions(text, state)
        except NotationError as exc:
            usage = notation_usage()
            usage = "" if usage in str(exc) else f"\n{usage}"
            raise click.UsageError(f"action {i} '{text}': {exc}{usage}") from None
        for action in parsed:
            try:
                state.apply(action)
            except IllegalAction as exc:
                raise click.ClickException(
                    f"action {i} '{text}' is illegal for player {state.current_player()}: {exc.reason}\n  rule: {exc.rule}\n"
                    f"  nothing written; `ttr-maps state legal {state_file}` lists the legal actions"
                ) from None
    _write(state, state_file if in_place else out)


@command.command("show")
@click.argument("state_file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--seat", type=int, default=None, help="Show only what this seat may see (default: the player to act).")
@click.option("--json", "as_json", is_flag=True, help="Print the observation as JSON.")
def show(state_file: str, seat: int | None, as_json: bool) -> None:
    """Show a position as one seat sees it, and the final scores once the game is over."""
    from ttr_maps.engine.scoring import ScoringError

    state = _load(state_file)
    n = state.game.num_players
    if seat is None:
        seat = state.current_player() if not state.is_terminal() else 0
    if not 0 <= seat < n:
        raise click.UsageError(f"--seat must be 0..{n - 1}")
    obs = state.observation(seat)
    try:
        sheet = state.score_sheet() if state.is_terminal() else None
    except ScoringError as e:
        raise click.ClickException(f"{state_file}: the game is over but cannot be scored: {e}") from None
    if as_json:
        if sheet is not None:
            obs["final"] = [{"total": p.total, "breakdown": p.breakdown} for p in sheet.players]
            obs["winners"] = list(sheet.winners)
        click.echo(json.dumps(obs, indent=1, ensure_ascii=False))
        return
    click.echo(f"{state.game.variant.name}, {n} players, turn {obs['turn']}: "
               + ("game over" if state.is_terminal() else f"player {obs['current_player']} to act ({obs['phase']})")
               + (" - final round" if obs["final_round"] else ""))
    click.echo(f"face up: {', '.join(x or '-' for x in obs['face_up'])}; deck {obs['deck']}, discards {obs['discards']}; "
               f"tickets left: {', '.join(f'{k} {v}' for k, v in obs['ticket_piles'].items())}")
    for p, pl in enumerate(obs["players"]):
        extra = []
        if state.game.has_stations:
            extra.append(f"stations left {pl['stations_left']}")
        if state.game.has_passengers:
            extra.append(f"passengers {pl['passengers_unplaced']} unplaced, goods {sum(pl['goods'])}")
        if state.game.has_flags:
            extra.append(f"flag cards {','.join(pl['flag_cards']) or '-'}, flags {pl['flag_sets']}")
        click.echo(f"player {p}: score {pl['score']}, trains {pl['trains']}, cards {pl['cards']}, tickets {pl['tickets']}, "
                   f"routes {len(pl['claims'])}" + "".join(f", {x}" for x in extra))
    click.echo(f"seat {seat} hand: {', '.join(f'{n} {k}' for k, n in obs['hand'].items()) or '-'}")
    click.echo(f"seat {seat} tickets: {', '.join(obs['tickets']) or '-'}" + (f"; offered: {', '.join(obs['offered'])}" if obs["offered"] else ""))
    if "tunnel" in obs:
        tun = obs["tunnel"]
        click.echo(f"tunnel {tun['route']}: revealed {', '.join(tun['revealed'])}; {tun['extra']} more card(s) to pay")
    if sheet is not None:
        for p, ps in enumerate(sheet.players):
            parts = ", ".join(f"{k} {v}" for k, v in ps.breakdown.items() if v)
            click.echo(f"final player {p}: {ps.total} ({parts})")
        click.echo("winner(s): " + ", ".join(f"player {w}" for w in sheet.winners))
