"""The loader's diagnostic codes: P parse, S schema, R references, V variant file.

Codes are stable: a code is never reused for another problem. docs/codes.md
documents each one (a test keeps the two in step).
"""

from __future__ import annotations

from ..diagnostics import register_code

LOADER_CODES: dict[str, tuple[str, str]] = {
    "P001": ("file-not-found", "The file does not exist."),
    "P002": ("not-a-file", "The path is a folder or a special file, not a regular file."),
    "P003": ("file-too-large", "The file is larger than the reader's limit (4 MiB)."),
    "P004": ("not-text", "The file is binary or not UTF-8."),
    "P005": ("empty-file", "The file holds no data (only blanks or comments)."),
    "P006": ("syntax-error", "The YAML or JSON cannot be parsed (also: several YAML documents, an alias without anchor)."),
    "P007": ("too-deep", "The data is nested deeper than 64 levels."),
    "P008": ("bad-key", "A mapping key is not a plain name or whole number, or a merge key `<<` has no mapping."),
    "P009": ("duplicate-key", "The same key appears twice in one mapping; the first is used."),
    "P010": ("non-finite-number", "A number is NaN, infinite or too large for a float (YAML `.nan`/`.inf`, JSON `NaN`/`Infinity`, `1e999`, 400 digits)."),
    "P011": ("too-many-values", "The file holds, or its YAML aliases expand to, more than 500,000 values (an alias bomb)."),
    "P012": ("unsupported-tag", "A YAML tag other than the plain data tags, or a value its tag rejects."),
    "P013": ("unreadable-file", "The file exists but cannot be read (permissions, I/O error)."),
    "S001": ("not-a-mapping", "The file's top level is not a mapping."),
    "S002": ("missing-format", "The top-level `format` key is missing."),
    "S003": ("unknown-format", "`format` is not `ttr-board/N` or `ttr-variant/N`."),
    "S004": ("newer-format", "`format` names a newer version than this ttr-maps reads."),
    "S005": ("unknown-key", "A key the format does not have (with a did-you-mean suggestion)."),
    "S006": ("missing-key", "A required key is missing; reported at the enclosing mapping."),
    "S007": ("invalid-value", "A value breaks a rule of the format (range, pattern, choice, length, combination)."),
    "S008": ("wrong-type", "A value has the wrong type (e.g. text where a number is needed)."),
    "S009": ("too-many-problems", "More than 500 problems in one file: the rest are counted, not listed."),
    "S010": ("other-file-kind", "The file is another ttr-maps file (a position or state file), not a board or variant."),
    "R001": ("duplicate-id", "Two places share an id."),
    "R002": ("unknown-place", "A route, ticket or goods stack names a place id the board does not declare."),
    "R003": ("gray-declared", "`gray` is listed under `colors`; it is implicit."),
    "R004": ("unknown-color", "A colour the board does not have (route tracks, variant cards or flags)."),
    "R005": ("unknown-deck", "A variant's pile names a ticket deck the board does not have."),
    "R006": ("unknown-pile", "A deal, mix or per-pile setting names a pile the variant does not declare."),
    "R007": ("unused-deck", "A deck is described under `decks` but no ticket belongs to it (warning)."),
    "R008": ("bend-not-lat-lon", "On a board placed by lat/lon, a bend point is not a [lat, lon] pair in range."),
    "R009": ("duplicate-color", "A colour is listed twice under the board's `colors`."),
    "R010": ("mixed-positions", "A board places some places by lat/lon and others by x/y."),
    "R011": ("board-too-large-to-draw", "A place lies far off the others, or the car length is tiny: the board would be thousands of spaces across."),
    "R012": ("duplicate-route-id", "Two routes have the same `id`."),
    "R013": ("unknown-route", "A variant names a route (by id) the board does not have."),
    "R014": ("unknown-entry", "A route names an entry its place does not have, or a place lists an entry twice."),
    "V001": ("board-not-found", "The board file a variant names does not exist."),
    "V002": ("wrong-kind", "A board was expected and a variant (or vice versa) was given."),
    "V003": ("scoring-length-missing", "scoring.routes has no points for a route length the board uses."),
    "V004": ("keep-limits-contradict", "A deal's keep_max leaves fewer tickets to keep than its keep_min asks for."),
    "V005": ("ticket-draw-of-nothing", "tickets.draw deals no tickets."),
    "V006": ("redeal-unreachable", "A face-up redeal threshold can never be reached (warning)."),
    "V007": ("big-locomotives-unusable", "big_locomotives.min_length is longer than every route of the board (warning)."),
    "V008": ("passengers-without-cards", "Passengers without passenger cards, or passenger cards without passengers (warning)."),
    "V009": ("goods-scoring-without-goods", "Goods bonus or most-goods tie-break on a board without goods (warning)."),
    "V010": ("stations-scoring-without-stations", "unused_points or the fewest-stations tie-break with no stations (warning)."),
    "V011": ("duplicate-tie-break", "A tie-break is listed twice (warning)."),
    "V013": ("board-unusable", "The board file a variant names exists but cannot be read as a board."),
    "V012": ("added-deck-unused", "A deck only tickets.add names is in no pile, so its tickets are never dealt (warning)."),
    "V014": ("deck-file-not-found", "A deck file a variant names under tickets.deck_files does not exist."),
    "V015": ("deck-file-unusable", "A file named under tickets.deck_files is not a deck file (format ttr-deck/1)."),
    "V016": ("ferries-without-locomotives", "cards.locomotives_only_on leaves out the board's ferries, which can then never be claimed."),
    "V017": ("most-routes-length-unused", "A most-routes bonus is for a route length the board does not use, so nobody can win it (warning)."),
}

for _code, (_name, _summary) in LOADER_CODES.items():
    register_code(_code, _name, _summary)


def code_name(code: str) -> str:
    """The kebab-case name of a loader code ("" for a code of another family)."""
    known = LOADER_CODES.get(code)
    return known[0] if known else ""
