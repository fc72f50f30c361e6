"""`ttr-maps new`: a board and its rules file to start from, either our small starter board or a
copy of a bundled one, each with the schema line that gives editors completion."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from .bundled import bundled_path, maps_dir, resolve, schemas_dir

STARTERS = Path(__file__).resolve().parent / "starters"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=.*\n")


def title_of(stem: str) -> str:
    """`my-board` -> `My Board`."""
    return " ".join(w[:1].upper() + w[1:] for w in re.split(r"[-_ ]+", stem) if w) or stem


def schema_ref(kind: str, folder: Path) -> str:
    """The installed schema of `kind` (board, variant), as a path relative to `folder` when there is one."""
    target = schemas_dir() / f"{kind}.schema.json"
    try:
        return Path(os.path.relpath(target, folder.resolve())).as_posix()
    except ValueError:  # another drive (Windows)
        return target.as_uri()


def with_modeline(text: str, kind: str, folder: Path) -> str:
    line = f"# yaml-language-server: $schema={schema_ref(kind, folder)}\n"
    return line + MODELINE.sub("", text, count=1)


def set_key(text: str, key: str, value: str, indent: str = "") -> str:
    """Replace the first `key: ...` line at `indent` (the value is written as given)."""
    pattern = re.compile(rf"^{indent}{re.escape(key)}:.*$", re.MULTILINE)
    if not pattern.search(text):
        raise ValueError(f"no `{key}:` line")
    return pattern.sub(lambda _: f"{indent}{key}: {value}", text, count=1)


def bundled_settings(board_text: str) -> tuple[dict[str, str], list[str]]:
    """What maps/ttr-maps.toml sets for the bundled boards: check levels, and the G006-accepted
    tickets that this board has (a copy outside maps/ carries them in its own `checks:`)."""
    config = tomllib.loads((maps_dir() / "ttr-maps.toml").read_text(encoding="utf-8")).get("checks", {})
    levels = {k: v for k, v in config.items() if isinstance(v, str)}
    accepted = config.get("options", {}).get("G006", {}).get("accept", [])
    here = [name for name in accepted if all(f"id: {end}," in board_text for end in name.split("-", 1))]
    return levels, here


def starter_files(name: str, source: str = "blank") -> dict[Path, str]:
    """The two files `ttr-maps new NAME --from SOURCE` writes: NAME.yaml (board) and NAME-rules.yaml."""
    target = Path(name)
    folder, stem = target.parent, target.name.removesuffix(".yaml")
    board_path, rules_path = folder / f"{stem}.yaml", folder / f"{stem}-rules.yaml"
    title = title_of(stem)
    if source == "blank":
        board = (STARTERS / "blank.yaml").read_text(encoding="utf-8")
        rules = (STARTERS / "blank-rules.yaml").read_text(encoding="utf-8")
    else:
        variant_path = bundled_path(source, ("variants",))
        if variant_path is None:
            raise ValueError(f"no bundled variant '{source}'")
        rules = variant_path.read_text(encoding="utf-8")
        ref = re.search(r"^board: *(.+?) *$", rules, re.MULTILINE)
        board = Path(resolve(ref.group(1) if ref else "", variant_path.parent, kinds=("boards",))).read_text(encoding="utf-8")
        levels, accepted = bundled_settings(board)
        if accepted:
            levels["G006"] = "info"
        board = _with_checks(board, levels, accepted)
    board = with_modeline(set_key(board, "title", title, indent="  "), "board", folder)
    rules = with_modeline(set_key(set_key(rules, "board", f"{stem}.yaml"), "name", title), "variant", folder)
    return {board_path: board, rules_path: rules}


def _with_checks(board: str, levels: dict[str, str], accepted: list[str]) -> str:
    """The board with `levels` added to its own `checks:` (a flow mapping, as the bundled boards
    write it, or a new line at the end), and a comment saying why."""
    if not levels:
        return board
    why = ("# Settings this board has as a bundled board (maps/ttr-maps.toml of ttr-maps, docs/checks.md)"
           + (f": G006 info, as the published tickets {', '.join(accepted)} are priced above their shortest path, as printed" if accepted else "")
           + ". Delete a setting to see those findings as warnings again.\n")
    entries = ", ".join(f'{k}: "{v}"' for k, v in levels.items())
    line = re.search(r"^checks: *\{(.*)\} *$", board, re.MULTILINE)
    if line:
        inside = line.group(1).strip()
        return board[: line.start()] + why + f"checks: {{{entries}{', ' + inside if inside else ''}}}" + board[line.end():]
    if re.search(r"^checks:", board, re.MULTILINE):  # a block mapping: leave it as the user would find it
        return board
    return board + why + f"checks: {{{entries}}}\n"
