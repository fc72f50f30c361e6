"""`ttr-maps import csv`: draft a board from spreadsheet exports (one CSV file per part).

Columns (a header row first; names in any order and case; extra columns are ignored):

- `places.csv` (or `cities.csv`): `name`, and `lat`+`lon` or `x`+`y`; optional `id`
  (default: the name as an id, `Sault St. Marie` -> `sault-st-marie`) and `kind`
  (`city`, the default, or `country`).
- `routes.csv`: `from`, `to` (a place's name or id), `length`, `color`; optional
  `tunnel` (yes/no) and `ferry` (or `ferry_locomotives`: locomotives needed). One row
  per track: rows with the same ends, length, tunnel and ferry make one double route.
- `tickets.csv` (optional): `from`, `to`, `points`; optional `decks` (deck ids separated
  by spaces; default `main`).

Every problem is reported at `file:line` (the CSV line, the header being line 1) and
nothing is written until the whole draft loads as a board.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import did_you_mean


class ImportProblems(Exception):
    """The CSV files have problems; `problems` lists each at file:line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def slug(name: str) -> str:
    """The place id for a display name: `Sault St. Marie` -> `sault-st-marie`, `München` -> `munchen`."""
    s = unicodedata.normalize("NFKD", name.replace("ß", "ss")).encode("ascii", "ignore").decode()
    return re.sub(r"-+", "-", "".join(c.lower() if c.isalnum() else "-" for c in s)).strip("-")


def _q(s: str) -> str:
    """A YAML scalar for text (quoted when it would read as something else)."""
    import json

    plain = re.fullmatch(r"[A-Za-z\u00c0-\uffff][\w .'\u00c0-\uffff-]*", s) and s.lower() not in ("yes", "no", "on", "off", "true", "false", "null")
    return s if plain else json.dumps(s, ensure_ascii=False)


@dataclass
class _Table:
    path: Path
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)


def _read(path: Path, required: list[str], problems: list[str], one_of: list[tuple[str, ...]] = ()) -> _Table | None:  # type: ignore[assignment]
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        problems.append(f"{path}:1: not UTF-8 text (byte {e.start}); save it as UTF-8 CSV")
        return None
    except OSError as e:
        problems.append(f"{path}: cannot be read: {e.strerror or e}")
        return None
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        problems.append(f"{path}:1: the file is empty; its first line names the columns: {', '.join(required)}")
        return None
    except csv.Error as e:
        problems.append(f"{path}:1: {e}")
        return None
    missing = [c for c in required if c not in header]
    for group in one_of:
        if not any(all(c in header for c in option.split("+")) for option in group):
            missing.append(" or ".join(group))
    if missing:
        problems.append(f"{path}:1: missing column(s) {', '.join(repr(m) for m in missing)}; the columns are {', '.join(header) or '(none)'}")
        return None
    table = _Table(path)
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            table.rows.append((reader.line_num, {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}))
    except csv.Error as e:
        problems.append(f"{path}:{reader.line_num}: {e}")
    return table


def _number(table: _Table, line: int, column: str, text: str, problems: list[str], whole: bool = False) -> float | int | None:
    try:
        return int(text) if whole else float(text)
    except ValueError:
        problems.append(f"{table.path}:{line}: {column} {text!r} is not a {'whole number' if whole else 'number'}")
        return None


def board_yaml(folder: str | Path, title: str) -> str:
    """The board drafted from the CSV files in `folder`, as YAML text; ImportProblems otherwise."""
    folder = Path(folder)
    problems: list[str] = []
    places_path = next((folder / n for n in ("places.csv", "cities.csv") if (folder / n).is_file()), None)
    if places_path is None:
        raise ImportProblems([f"{folder}: no places.csv (or cities.csv) here; see `ttr-maps import csv --help` for the columns"])
    if not (folder / "routes.csv").is_file():
        raise ImportProblems([f"{folder}: no routes.csv here; see `ttr-maps import csv --help` for the columns"])
    places = _read(places_path, ["name"], problems, [("lat+lon", "x+y")])
    routes = _read(folder / "routes.csv", ["from", "to", "length", "color"], problems)
    tickets = _read(folder / "tickets.csv", ["from", "to", "points"], problems) if (folder / "tickets.csv").is_file() else None
    if problems:
        raise ImportProblems(problems)
    assert places is not None and routes is not None
    out = ["format: ttr-board/1", "meta:", f"  title: {_q(title)}", "places:"]
    ids: dict[str, str] = {}
    for line, row in places.rows:
        pid = row.get("id") or slug(row["name"])
        if not row["name"] or not pid:
            problems.append(f"{places.path}:{line}: a place needs a name")
            continue
        if pid in ids.values():
            problems.append(f"{places.path}:{line}: a second place with the id '{pid}'; give one an `id` column value")
            continue
        ids[row["name"].lower()] = pid
        ids[pid] = pid
        axes = ("lat", "lon") if row.get("lat") not in (None, "") else ("x", "y")
        a, b = (_number(places, line, axis, row.get(axis, ""), problems) for axis in axes)
        kind = row.get("kind", "") or "city"
        if kind not in ("city", "country"):
            problems.append(f"{places.path}:{line}: kind {kind!r} is not city or country")
        if a is None or b is None:
            continue
        extra = ", kind: country" if kind == "country" else ""
        out.append(f"  - {{id: {pid}, name: {_q(row['name'])}{extra}, {axes[0]}: {a:g}, {axes[1]}: {b:g}}}")

    def place(table: _Table, line: int, text: str) -> str | None:
        found = ids.get(text.lower()) or ids.get(slug(text))
        if found is None:
            names = [k for k in ids if k == ids[k]]
            problems.append(f"{table.path}:{line}: unknown place {text!r}{did_you_mean(slug(text), names)}; it must be a name or id of {places.path.name}")
        return found

    groups: dict[tuple, list[str]] = {}
    for line, row in routes.rows:
        a, b = place(routes, line, row["from"]), place(routes, line, row["to"])
        length = _number(routes, line, "length", row["length"], problems, whole=True)
        ferry = row.get("ferry") or row.get("ferry_locomotives") or "0"
        ferry_n = _number(routes, line, "ferry", ferry, problems, whole=True)
        tunnel = (row.get("tunnel") or "no").lower()
        if tunnel not in ("yes", "no", "true", "false"):
            problems.append(f"{routes.path}:{line}: tunnel {row.get('tunnel')!r} is not yes or no")
        color = row["color"].lower()
        if not re.fullmatch(r"[a-z][a-z0-9-]*", color):
            problems.append(f"{routes.path}:{line}: color {row['color']!r} is not a colour name (red, blue, gray, ...)")
        if None in (a, b, length, ferry_n):
            continue
        groups.setdefault((a, b, length, tunnel in ("yes", "true"), ferry_n), []).append(color)
    out.append("routes:")
    for (a, b, length, tunnel, ferry_n), colors in groups.items():
        extra = (f", ferry: {ferry_n}" if ferry_n else "") + (", tunnel: true" if tunnel else "")
        out.append(f"  - {{from: {a}, to: {b}, length: {length}, tracks: [{', '.join(colors)}]{extra}}}")
    if tickets is not None:
        out.append("tickets:")
        for line, row in tickets.rows:
            a, b = place(tickets, line, row["from"]), place(tickets, line, row["to"])
            points = _number(tickets, line, "points", row["points"], problems, whole=True)
            decks = (row.get("decks") or "main").split()
            if None in (a, b, points):
                continue
            out.append(f"  - {{from: {a}, to: {b}, points: {points}, decks: [{', '.join(decks)}]}}")
    if problems:
        raise ImportProblems(problems)
    return "\n".join(out) + "\n"
