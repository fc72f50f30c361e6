"""Hostile input never gives a traceback or a hang: each case runs `ttr-maps validate` in a
process of its own with a generous time limit and a memory cap, and must end with exit 1 and the
expected diagnostic. The bounds are loose on purpose: they catch hangs and blow-ups, not
slow machines. The processes are forked from one that imported ttr_maps once (tests/cli_forks.py:
starting Python and importing took half a second of CPU a case, 20 s in all); a few cases also run
in a fresh `python` process, as a user's shell starts it."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from ttr_maps.load import load, read_source
from ttr_maps.load.source import MAX_BYTES, MAX_DEPTH, MAX_NODES

# End-to-end: real renders, PDFs or processes (`python -m pytest -m "not slow"` leaves them out).
pytestmark = pytest.mark.slow

TIMEOUT_S = 60
MEMORY_CAP = 3 * 1024**3
BOARD_HEAD = "format: ttr-board/1\nmeta: {title: t}\n"
GOOD_BOARD = Path(__file__).resolve().parent / "fixtures" / "good" / "lowlands.json"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.fixture(scope="module")
def forks():
    from cli_forks import Forks

    f = Forks(env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    yield f
    f.close()


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from ttr_maps.cli.main import cli; cli()", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        preexec_fn=_limit_memory,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def _text(text: str) -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / "input.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


def _bytes(data: bytes, name: str = "input.yaml") -> Callable[[Path], Path]:
    def write(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    return write


def _folder(folder: Path) -> Path:
    (folder / "board.yaml").mkdir()
    return folder / "board.yaml"


def _sparse_huge(folder: Path) -> Path:
    path = folder / "huge.yaml"
    with path.open("wb") as f:
        f.truncate(MAX_BYTES * 3)
    return path


def _json(text: str) -> Callable[[Path], Path]:
    return _bytes(text.encode(), "input.json")


N = 100_000
BOMB = BOARD_HEAD + "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(9)
)
CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "empty file": (_text(""), "P005"),
    "only blanks": (_text("\n  \n\t\n"), "P005"),
    "a folder": (_folder, "P002"),
    "binary": (_bytes(bytes(range(256)) * 64), "P004"),
    "png header": (_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100), "P004"),
    "not UTF-8": (_bytes(b"format: ttr-board/1\nmeta: {title: \xff\xfe}\n"), "P004"),
    "UTF-16": (_bytes("format: ttr-board/1\n".encode("utf-16")), "P004"),
    "YAML .nan": (_text(BOARD_HEAD + "places: [{id: a, name: A, x: .nan, y: 0}]\n"), "P010"),
    "YAML .inf": (_text(BOARD_HEAD + "places: [{id: a, name: A, x: -.inf, y: 0}]\n"), "P010"),
    "JSON NaN": (_json('{"format": "ttr-board/1", "meta": {"title": "t"}, "places": [{"id": "a", "name": "A", "x": NaN, "y": 0}]}'), "P010"),
    "JSON Infinity": (_json('{"format": "ttr-board/1", "x": -Infinity}'), "P010"),
    "JSON 1e999": (_json('{"format": "ttr-board/1", "x": 1e999}'), "P010"),
    "100k [ in YAML": (_text("[" * N), "P007"),
    "100k { in YAML": (_text("{a: " * N), "P007"),
    "100k nested block lists": (_text("- " * N + "x\n"), "P007"),
    "2000 indented mappings": (_text("".join(" " * i + "a:\n" for i in range(2000))), "P007"),
    "100k [ in JSON": (_json("[" * N), "P007"),
    "100k {\"a\": in JSON": (_json('{"a": ' * N), "P007"),
    "100k ] in JSON": (_json("]" * N), "P006"),
    "file over the size limit": (_sparse_huge, "P003"),
    "millions of values": (_text(BOARD_HEAD + "places: [" + "1," * (MAX_BYTES // 3) + "1]\n"), "P011"),
    "millions of values in JSON": (_json('{"places": [' + "1," * (MAX_BYTES // 3) + "1]}"), "P011"),
    "a million-character line": (_text(BOARD_HEAD + "places: [{id: a, name: " + "n" * 1_000_000 + ", x: 0, y: 0}]\n"), "S007"),
    "tens of thousands of problems": (_text(BOARD_HEAD + "places:\n" + "  - 7\n" * 50_000), "S009"),
    "tens of thousands of unknown places": (
        _text(BOARD_HEAD + "places: [{id: a, name: A, x: 0, y: 0}]\nroutes:\n" + "".join(f"  - {{from: a, to: p{i}, length: 1, tracks: [red]}}\n" for i in range(30_000))),
        "S009",
    ),
    "billion laughs": (_text(BOMB), "P011"),
    "alias of itself": (_text(BOARD_HEAD + "places: &p [*p]\n"), "P006"),
    "deep through aliases": (
        _text("a: &a " + "[" * 60 + "]" * 60 + "\nb: &b " + "[" * 10 + "*a" + "]" * 10 + "\n"),
        "P007",
    ),
    "python tag": (_text("!!python/object/apply:os.system [echo hi]\n"), "P012"),
    "a variant naming itself as its board": (_text("format: ttr-variant/1\nname: v\nboard: input.yaml\n"), "V002"),
    "a board naming a folder": (_text("format: ttr-variant/1\nname: v\nboard: .\n"), "P002"),
    "control characters": (_text(BOARD_HEAD + "x: \x07\x1b\n"), "P006"),
    # Python refuses to convert integers of more than 4300 digits: each must be a diagnostic.
    "format version of 5000 digits": (_text("format: ttr-board/" + "9" * 5000 + "\n"), "S003"),
    "YAML integer of 5000 digits": (_text(BOARD_HEAD + "places: [{id: a, name: A, x: " + "9" * 5000 + ", y: 0}]\n"), "P010"),
    "YAML integer key of 5000 digits": (_text(BOARD_HEAD + "scoring: {" + "1" * 5000 + ": 1}\n"), "P010"),
    "JSON integer of 5000 digits": (_json('{"format": "ttr-board/1", "x": ' + "9" * 5000 + "}"), "P010"),
    "JSON integer key of 5000 digits": (
        _json('{"format": "ttr-variant/1", "name": "v", "board": "b.json", "scoring": {"routes": {"' + "9" * 5000 + '": 1}}}'),
        "S007",
    ),
    "YAML base-60 number of a million characters": (_text(BOARD_HEAD + "x: 1" + ":59" * 300_000 + "\n"), "P010"),
    "YAML hex number beyond a float": (_text(BOARD_HEAD + "x: 0x" + "f" * 300 + "\n"), "P010"),
    "YAML integer with 5000 underscores": (_text(BOARD_HEAD + "x: 1" + "_9" * 5000 + "\n"), "P010"),
}


def _assert_diagnostic(result: subprocess.CompletedProcess, code: str) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-2000:]
    assert result.returncode == 1, (result.stdout[-2000:], result.stderr[-2000:])
    assert f" error {code} " in result.stdout, result.stdout[-2000:]
    assert len(result.stdout) < 1_000_000, "a flood of output"


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_input_ends_in_a_diagnostic(tmp_path: Path, case: str, forks) -> None:
    write, code = CASES[case]
    path = write(tmp_path)
    # raises TimeoutExpired after TIMEOUT_S
    _assert_diagnostic(forks.run(["validate", str(path)], tmp_path, timeout=TIMEOUT_S, memory=MEMORY_CAP), code)


@pytest.mark.parametrize("case", ["not UTF-8", "100k [ in YAML", "billion laughs", "tens of thousands of problems"])
def test_hostile_input_ends_in_a_diagnostic_in_a_fresh_process(tmp_path: Path, case: str) -> None:
    write, code = CASES[case]
    _assert_diagnostic(validate(write(tmp_path)), code)  # raises TimeoutExpired after TIMEOUT_S


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("v.yaml", "format: ttr-board/" + "9" * 5000 + "\n", [(1, 9, "S003")]),
        ("v.yaml", BOARD_HEAD + "places: [{id: a, name: A, x: " + "9" * 5000 + ", y: 0}]\n", [(3, 30, "P010")]),
        ("v.yaml", BOARD_HEAD + "places:\n  - {id: a, name: A, x: 0, y: -" + "9" * 5000 + "}\n", [(4, 31, "P010")]),
        ("v.json", '{"format": "ttr-board/1",\n "meta": {"title": "t"},\n "places": [{"id": "a", "name": "A", "x": ' + "9" * 5000 + ', "y": 0}]}', [(3, 43, "P010")]),
        ("v.yaml", f"format: ttr-variant/1\nname: v\nboard: {GOOD_BOARD}\nscoring:\n  routes: " + "{" + "1" * 1000 + ": 1}\n", [(5, 12, "P010")]),
    ],
    ids=["format", "yaml-value", "yaml-negative", "json-value", "yaml-key"],
)
def test_huge_integers_are_p010_at_their_position(tmp_path: Path, name: str, text: str, expected: list) -> None:
    """The diagnostic points at the number, shows only its start, and (a key) drops the entry."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    diags = [d for d in load(path).diagnostics if d.path == str(path)]
    assert [(d.line, d.col, d.code) for d in diags] == expected, [d.as_text() for d in diags]
    assert all(len(d.message) < 300 for d in diags)


def test_largest_float_sized_integer_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"a: {2**1024 - 1}\nb: -{2**1024 - 1}\nc: {2**1024}\n", encoding="utf-8")
    src = read_source(path)
    assert src.data == {"a": 2**1024 - 1, "b": -(2**1024 - 1), "c": 0.0}
    assert [(d.line, d.code) for d in src.diagnostics] == [(3, "P010")]


def test_missing_file_is_p001_at_the_whole_file(tmp_path: Path) -> None:
    r = load(tmp_path / "nowhere.yaml")
    assert [(d.code, d.line, d.col) for d in r.diagnostics] == [("P001", 0, 0)]
    assert r.kind is None and not r.ok


def test_unreadable_file_is_p013(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(BOARD_HEAD, encoding="utf-8")

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    r = load(path)
    assert [(d.code, d.line, d.col) for d in r.diagnostics] == [("P013", 0, 0)]
    assert "Permission denied" in r.diagnostics[0].message


def test_limits_are_what_the_docs_say() -> None:
    assert (MAX_BYTES, MAX_DEPTH, MAX_NODES) == (4 * 1024 * 1024, 64, 500_000)


def test_sixty_four_levels_are_allowed(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", encoding="utf-8")
    src = read_source(path)
    assert src.diagnostics == [] and src.data is not None
    path.write_text("x: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n", encoding="utf-8")
    assert [d.code for d in read_source(path).diagnostics] == ["P007"]


def test_yaml_booleans_and_dates_are_yaml_1_2(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text("a: no\nb: on\nc: true\nd: 2024-01-02\ne: 1e3\nf: 0x10\ng: '5'\nh: ~\n", encoding="utf-8")
    assert read_source(path).data == {"a": "no", "b": "on", "c": True, "d": "2024-01-02", "e": 1000.0, "f": 16, "g": "5", "h": None}


def test_utf8_bom_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_source(path).data == {"a": 1}
