"""docs/codes.md and docs/format.md stay true to the code: every loader code is documented
under its name, every key of the formats is described, and the examples load."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from conftest import ROOT
from ttr_maps.load import load
from ttr_maps.load.codes import LOADER_CODES
from ttr_maps.load.validation import _is_model, _unwrap
from ttr_maps.model import Board, Variant

CODES_MD = ROOT / "docs" / "codes.md"
FORMAT_MD = ROOT / "docs" / "format.md"
LOADER_SOURCES = sorted((ROOT / "ttr_maps" / "load").glob("*.py"))


def _documented() -> dict[str, str]:
    rows = re.findall(r"^\| ([PSRV]\d{3}) \| ([a-z-]+) \|", CODES_MD.read_text(encoding="utf-8"), flags=re.M)
    return dict(rows)


def test_every_code_the_loader_emits_is_documented() -> None:
    emitted = set()
    for path in LOADER_SOURCES:
        emitted |= set(re.findall(r"\"([PSRV]\d{3})\"", path.read_text(encoding="utf-8")))
    assert emitted, "the scan found no codes"
    assert emitted - set(_documented()) == set(), "document these codes in docs/codes.md"


def test_docs_and_registry_name_the_same_codes_the_same_way() -> None:
    assert _documented() == {code: name for code, (name, _) in LOADER_CODES.items()}


def test_loader_codes_use_only_the_loader_families() -> None:
    assert {code[0] for code in LOADER_CODES} == {"P", "S", "R", "V"}


def _keys(model: type[BaseModel], seen: set[type] | None = None) -> set[str]:
    seen = seen if seen is not None else set()
    if model in seen:
        return set()
    seen.add(model)
    out = set()
    for name, f in model.model_fields.items():
        out.add(f.alias or name)
        stack: list[Any] = [f.annotation]
        while stack:
            annotation = _unwrap(stack.pop())
            if _is_model(annotation):
                out |= _keys(annotation, seen)
            else:
                stack.extend(getattr(annotation, "__args__", ()) or ())
    return out


@pytest.mark.parametrize("model", [Board, Variant], ids=["board", "variant"])
def test_format_doc_describes_every_key(model: type[BaseModel]) -> None:
    text = FORMAT_MD.read_text(encoding="utf-8")
    missing = sorted(k for k in _keys(model) if f"`{k}`" not in text)
    assert missing == [], f"describe these keys in docs/format.md: {missing}"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", FORMAT_MD.read_text(encoding="utf-8"), flags=re.S)


BASE_BOARD = {"format": "ttr-board/1", "meta": {"title": "t"}, "places": [{"id": "a", "name": "A", "x": 0, "y": 0}]}


@pytest.mark.parametrize("block", _blocks("yaml"), ids=lambda b: b.splitlines()[0][:40])
def test_format_doc_yaml_examples_are_valid(tmp_path: Path, block: str) -> None:
    """Whole boards load clean; fragments, put into a minimal file, have no schema problems."""
    data = yaml.safe_load(block)
    board_path = tmp_path / "board.json"
    if data.get("format") == "ttr-board/1":
        board_path.write_text(json.dumps(data), encoding="utf-8")
        r = load(board_path)
        assert r.diagnostics == []
        return
    if data.get("format") == "ttr-variant/1":
        tries = [({**data, "board": "board.json"}, "variant.json")]
    else:  # a fragment of a board or of a variant (`tickets` is in both)
        tries = [({**BASE_BOARD, **data}, "fragment-board.json")]
        tries.append(({"format": "ttr-variant/1", "name": "v", "board": "board.json", **data}, "fragment-variant.json"))
    board_path.write_text(json.dumps(BASE_BOARD), encoding="utf-8")
    problems = []
    for target, name in tries:
        (tmp_path / name).write_text(json.dumps(target), encoding="utf-8")
        problems.append([d.as_text() for d in load(tmp_path / name).diagnostics if d.code[0] in "PSV"])
    assert [] in problems, problems


@pytest.mark.parametrize("block", _blocks("json"))
def test_format_doc_json_example_loads_clean(tmp_path: Path, block: str) -> None:
    path = tmp_path / "board.json"
    path.write_text(block, encoding="utf-8")
    assert load(path).diagnostics == []
