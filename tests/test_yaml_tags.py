"""Explicit YAML tags on values they do not fit (`x: !!int` on nothing, `!!bool maybe`, `!!merge x`)
are diagnostics at file:line:col in every kind of file and through every command that reads one;
PyYAML's constructors raised IndexError/KeyError/TypeError on them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_maps.cli.main import cli
from ttr_maps.load import read_source

ROOT = Path(__file__).resolve().parent.parent
GOOD = ROOT / "tests" / "fixtures" / "good"

# (tagged text, what it reads as when the tag fits: None = refused)
ODD = [
    "!!int", "!!int ''", "!!int +", "!!int _", "!!int +_", "!!int ::1", "!!int 0x_", "!!int 1.5",
    "!!float", "!!float _", "!!float .", "!!float -.", "!!float 0x10",
    "!!bool maybe", '!!bool ""', "!!bool", "!!bool yes", "!!null foo", "!!null 0",
    "!!merge x", "!!merge", "!!merge 1",
]
FITTING = {"!!int 12": 12, "!!int 0x1f": 31, "!!int 1_000": 1000, "!!float 1": 1.0, "!!float 2.5e1": 25.0,
           "!!bool true": True, "!!null": None, "!!null ~": None, "!!str 12": "12", '!!str ""': ""}


@pytest.mark.parametrize("tagged", ODD)
@pytest.mark.parametrize("where", ["value", "key"])
def test_a_tag_its_value_does_not_fit_is_p012_at_the_value(tmp_path: Path, tagged: str, where: str) -> None:
    path = tmp_path / "f.yaml"
    line = f"a: {tagged}\n" if where == "value" else f"? {tagged}\n: 1\n"
    path.write_text("format: ttr-board/1\n" + line, encoding="utf-8")
    src = read_source(path)
    codes = [(d.code, d.line, d.col) for d in src.diagnostics]
    assert codes == [("P012", 2, 4 if where == "value" else 3)], (tagged, src.diagnostics)
    if where == "key":
        assert list(src.data) == ["format"]  # the key is dropped, not read as something else


@pytest.mark.parametrize("tagged, value", FITTING.items())
def test_a_tag_that_fits_its_value_still_reads(tmp_path: Path, tagged: str, value: object) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(f"a: {tagged}\n", encoding="utf-8")
    src = read_source(path)
    assert not src.diagnostics
    assert src.data == {"a": value} and type(src.data["a"]) is type(value)


def test_merge_tag_belongs_on_the_merge_key_only(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("d: &d {p: 1}\nok:\n  !!merge <<: *d\n  q: 2\nbad:\n  a: !!merge <<\n", encoding="utf-8")
    src = read_source(path)
    assert src.data["ok"] == {"q": 2, "p": 1}
    assert [(d.code, d.line, d.col) for d in src.diagnostics] == [("P012", 6, 6)]
    assert src.data["bad"] == {"a": "<<"}


# --- every command, every kind of file ------------------------------------------------------------


def _files(tmp_path: Path) -> dict[str, Path]:
    for name in ("islands.yaml", "islands-rules.yaml"):
        shutil.copy(GOOD / name, tmp_path / name)
    runner = CliRunner()
    state = tmp_path / "state.yaml"
    r = runner.invoke(cli, ["state", "new", str(tmp_path / "islands-rules.yaml"), "-p", "2", "-s", "3", "-o", str(state)])
    assert r.exit_code == 0, r.output
    pos = (ROOT / "tests" / "positions" / "good" / "usa.yaml").read_text(encoding="utf-8")
    (tmp_path / "position.yaml").write_text(pos.replace("../../../maps/", f"{ROOT}/maps/"), encoding="utf-8")
    return {"board": tmp_path / "islands.yaml", "variant": tmp_path / "islands-rules.yaml",
            "state": state, "position": tmp_path / "position.yaml"}


# file kind -> (a line to tag, its pattern) and the commands that read that file
TARGETS = {
    "board": (r"^(  - \{from: north-port, to: south-bay, points: )4(.*)$", [
        ["validate", "{board}"], ["render", "{board}", "-o", "{out}/b.svg"], ["stats", "{board}"],
        ["simulate", "{variant}", "-n", "1", "-q", "--bots", "random", "-o", "{out}/sim"],
        ["state", "new", "{variant}", "-p", "2"]]),
    "variant": (r"^(trains: )20()$", [
        ["validate", "{variant}"], ["render", "{variant}", "-o", "{out}/v.svg"], ["stats", "{variant}"],
        ["simulate", "{variant}", "-n", "1", "-q", "--bots", "random", "-o", "{out}/sim"],
        ["state", "new", "{variant}", "-p", "2"]]),
    "state": (r"^(seed: )3()$", [
        ["state", "show", "{state}"], ["state", "legal", "{state}"], ["state", "apply", "{state}", "draw blind"]]),
    "position": (r"^(  - name: )Ann()$", [["score", "{position}"], ["score", "{position}", "--format", "json"]]),
}
CLI_CASES = [(kind, i) for kind, (_, commands) in TARGETS.items() for i in range(len(commands))]


@pytest.mark.parametrize("kind, index", CLI_CASES)
def test_every_command_reports_an_odd_tag_at_its_place(tmp_path: Path, kind: str, index: int) -> None:
    files = _files(tmp_path)
    pattern, commands = TARGETS[kind]
    tagged = ODD[(len(CLI_CASES) * 7 + CLI_CASES.index((kind, index)) * 5) % len(ODD)]  # a different value per case
    path = files[kind]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    hit = next(i for i, ln in enumerate(lines) if re.match(pattern, ln))
    m = re.match(pattern, lines[hit])
    lines[hit] = f"{m.group(1)}{tagged}{m.group(2)}\n"
    path.write_text("".join(lines), encoding="utf-8")
    args = [a.format(out=tmp_path, **files) for a in commands[index]]
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, tagged, result.exception)
    assert result.exit_code == 1, (args, tagged, result.output)
    assert "Traceback" not in result.output
    where = f"{path}:{hit + 1}:{len(m.group(1)) + 1}"
    assert re.search(re.escape(where) + r"[: ].*P012|\"line\": %d" % (hit + 1), result.output), (args, tagged, result.output)
