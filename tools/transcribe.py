"""Developer aid: draft a board YAML from the CSV facts in ../shared/reference.

Used once per board to start a transcription; the files in maps/boards/ are the
source of truth afterwards and are edited by hand. Not used at run time.
Usage: python tools/transcribe.py ../shared/reference/usa "USA" > maps/boards/usa.yaml
"""

import csv
import sys
import unicodedata
from pathlib import Path


def slug(name: str) -> str:
    s = name.replace("ß", "ss")
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def q(s: str) -> str:
    return f'"{s}"' if any(c in s for c in ":#'") else s


def main(folder: str, title: str) -> None:
    d = Path(folder)
    print("# yaml-language-server: $schema=../../schemas/board.schema.json")
    print("format: ttr-board/1")
    print("meta:")
    print(f"  title: {title}")
    print("places:")
    for row in csv.DictReader(open(d / "cities.csv", encoding="utf-8")):
        kind = "" if row["kind"] == "city" else f", kind: {row['kind']}"
        print(f"  - {{id: {slug(row['name'])}, name: {q(row['name'])}{kind}, lat: {row['lat']}, lon: {row['lon']}}}")
    groups: dict = {}
    for row in csv.DictReader(open(d / "routes.csv", encoding="utf-8")):
        key = (slug(row["from"]), slug(row["to"]), row["length"], row["tunnel"], row["ferry_locomotives"])
        groups.setdefault(key, []).append(row["color"])
    print("routes:")
    for (a, b, length, tunnel, ferry), colors in groups.items():
        extra = (f", ferry: {ferry}" if ferry != "0" else "") + (", tunnel: true" if tunnel == "yes" else "")
        print(f"  - {{from: {a}, to: {b}, length: {length}, tracks: [{', '.join(colors)}]{extra}}}")
    if (d / "tickets.csv").exists():
        print("tickets:")
        for row in csv.DictReader(open(d / "tickets.csv", encoding="utf-8")):
            print(f"  - {{from: {slug(row['from'])}, to: {slug(row['to'])}, points: {row['points']}, decks: [{', '.join(row['decks'].split())}]}}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
