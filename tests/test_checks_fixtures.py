"""Every check code has a failing fixture (findings at exact lines and columns) and a passing one.

A fixture marks each expected finding with `# expect: CODE@COL` on the line it
must point at; see tests/fixtures/checks/README.md.
"""

import re
from pathlib import Path

import pytest

from ttr_maps.checks import CHECKS, run_checks
from ttr_maps.load import load

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "checks"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z]\d{3})@(\d+)")


def expected(folder: Path, code: str) -> set[tuple[str, int, int, str]]:
    out = set()
    for f in sorted(folder.glob("*.yaml")):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            for m in EXPECT.finditer(line):
                if m.group(1) == code:
                    out.add((f.name, n, int(m.group(2)), code))
    return out


def found(path: Path, code: str) -> tuple[set[tuple[str, int, int, str]], list]:
    loaded = load(path)
    assert loaded.ok, [d.as_text() for d in loaded.diagnostics]
    diags = [d for d in run_checks(loaded, [code], config=False) if d.code == code]
    return {(Path(d.path).name, d.line, d.col, d.code) for d in diags}, diags


def test_every_code_has_both_fixtures():
    for code in CHECKS:
        assert (FIXTURES / code / "fail.yaml").is_file(), f"add tests/fixtures/checks/{code}/fail.yaml"
        assert (FIXTURES / code / "pass.yaml").is_file(), f"add tests/fixtures/checks/{code}/pass.yaml"


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_failing_fixture_reports_at_exact_positions(code):
    folder = FIXTURES / code
    want = expected(folder, code)
    assert want, f"{code}/fail.yaml (or its board) marks no `# expect: {code}@COL`"
    got, diags = found(folder / "fail.yaml", code)
    assert got == want, "\n".join(d.as_text() for d in diags)
    assert all(d.name == CHECKS[code].name for d in diags)
    assert all(d.severity is CHECKS[code].severity for d in diags)


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_passing_fixture_is_clean(code):
    got, diags = found(FIXTURES / code / "pass.yaml", code)
    assert not got, "\n".join(d.as_text() for d in diags)
