"""docs/rules.md is the rule book users have: nothing cites the spec file they do not have, and every
section of it that a message, report, docstring or page cites exists."""

from __future__ import annotations

import pytest
import re
from pathlib import Path

from conftest import ROOT
from ttr_maps.engine import errors

RULES = ROOT / "docs" / "rules.md"
SPEC_NAME = "RULES" + ".md"  # the developers' spec; spelt apart so this file does not cite it
THIS = Path(__file__).resolve().relative_to(ROOT)
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", "node_modules", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".html", ".txt", ".cfg", ".ini", ".svg", ".jsonl", ""}
CITATION = re.compile(r"rules\.md#([A-Za-z0-9_-]+)")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    found: set[str] = set(re.findall(r'<a id="([^"]+)"', text))
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def project_files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if rel == THIS or any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path.stat().st_size < 5_000_000:
            try:
                yield rel, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def test_slug_matches_github():
    assert slug("The variant: `ttr-variant/1`") == "the-variant-ttr-variant1"
    assert slug("A turn, phase by phase") == "a-turn-phase-by-phase"


@pytest.mark.slow
def test_nothing_cites_the_spec_file_users_do_not_have():
    citing = [str(rel) for rel, text in project_files() if SPEC_NAME in text]
    assert not citing, f"cite docs/rules.md#section instead of {SPEC_NAME} in: {citing}"


@pytest.mark.slow
def test_every_cited_section_of_rules_md_exists():
    have = anchors(RULES)
    missing = sorted(
        f"{rel}: #{anchor}" for rel, text in project_files() for anchor in CITATION.findall(text) if anchor not in have
    )
    assert not missing, f"docs/rules.md has no such section: {missing}"


def test_every_refusal_names_an_existing_section():
    have = anchors(RULES)
    names = [v for k, v in vars(errors).items() if k.startswith("R_")]
    assert len(names) >= 15
    for name in names:
        (anchor,) = CITATION.findall(name)
        assert anchor in have, name


def test_rules_md_links_to_other_pages_resolve():
    text = RULES.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([a-z-]+\.md)#([^)]+)\)", text)
    assert links
    for page, anchor in links:
        assert anchor in anchors(RULES.parent / page), f"{page}#{anchor}"
