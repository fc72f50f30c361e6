"""Developer aid: draft a board YAML from the CSV facts in ../shared/reference.

Used once per board to start a transcription; the files in maps/boards/ are the
source of truth afterwards and are edited by hand. Not used at run time.

Usage:
  python tools/transcribe.py ../shared/reference/usa "USA" > maps/boards/usa.yaml
  python tools/transcribe.py ../shared/reference/europe "Europe" \\
      --deck europe-long="Europe (long)":long --tag big-city=London,Berlin > europe.yaml
"""

from __future__ import annotations

import argparse
import csv
import unicodedata
from pathlib import Path


def slug(name: str) -> str:
    """The place id for a display name: `Sault St. Marie` -> `sault-st-marie`, `München` -> `munchen`."""
    s = name.replace("ß", "ss")
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def q(s: str) -> str:
    return f'"{s}"' if any(c in s for c in ":#'\"{}[],&*!|>%@`") else s


def _deck(text: str) -> tuple[str, str, bool]:
    """`id=Name[:long]` -> (id, name, long)."""
    ident, _, rest = text.partition("=")
    long = rest.endswith(":long")
    name = rest[: -len(":long")] if long else rest
    return ident, name or ident, long


def _tag(text: str) -> tuple[str, set[str]]:
    """`tag=Name,Name` -> (tag, {names})."""
    tag, _, names = text.partition("=")
    return tag, {n.strip() for n in names.split(",") if n.strip()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="reference folder with cities.csv, routes.csv and maybe tickets.csv")
    ap.add_argument("title")
    ap.add_argument("--deck", action="append", default=[], type=_deck, help="describe a deck: id=Display name[:long]")
    ap.add_argument("--tag", action="append", default=[], type=_tag, help="tag places: tag=Name,Name,...")
    args = ap.parse_args(argv)
    d: Path = args.folder
    tags: list[tuple[str, set[str]]] = args.tag

    print("# yaml-language-server: $schema=../../schemas/board.schema.json")
    print("format: ttr-board/1")
    print("meta:")
    print(f"  title: {q(args.title)}")
    if args.deck:
        print("decks:")
        for ident, name, long in args.deck:
            print(f"  {ident}: {{name: {q(name)}" + (", long: true}" if long else "}"))
    print("places:")
    with open(d / "cities.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            kind = "" if row["kind"] == "city" else f", kind: {row['kind']}"
            mine = [t for t, names in tags if row["name"] in names]
            tag_text = f", tags: [{', '.join(mine)}]" if mine else ""
            print(f"  - {{id: {slug(row['name'])}, name: {q(row['name'])}{kind}, lat: {row['lat']}, lon: {row['lon']}{tag_text}}}")
    groups: dict[tuple[str, ...], list[str]] = {}
    with open(d / "routes.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = (slug(row["from"]), slug(row["to"]), row["length"], row["tunnel"], row["ferry_locomotives"])
            groups.setdefault(key, []).append(row["color"])
    print("routes:")
    for (a, b, length, tunnel, ferry), colors in groups.items():
        extra = (f", ferry: {ferry}" if ferry != "0" else "") + (", tunnel: true" if tunnel == "yes" else "")
        print(f"  - {{from: {a}, to: {b}, length: {length}, tracks: [{', '.join(colors)}]{extra}}}")
    if (d / "tickets.csv").exists():
        print("tickets:")
        with open(d / "tickets.csv", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                print(f"  - {{from: {slug(row['from'])}, to: {slug(row['to'])}, points: {row['points']}, decks: [{', '.join(row['decks'].split())}]}}")


if __name__ == "__main__":
    main()
