import atexit
import functools
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Bytecode: every xdist worker imports the test modules and ttr_maps, and every `ttr-maps` subprocess a test starts
# imports ttr_maps again. Where PYTHONDONTWRITEBYTECODE is set (some shells and containers set it) each of them
# compiled every module anew, and pytest rewrote every test module's asserts anew: collecting the suite took
# 9.8 s of CPU instead of 4.8 s. The suite writes bytecode (into the ignored __pycache__ folders).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# `validate` keeps the checks' findings on disk (ttr_maps/checks/cache.py): the tests keep theirs in a
# folder of their own, removed at the end, never in the user's ~/.cache.
if not os.environ.get("TTR_MAPS_CACHE_DIR"):
    os.environ["TTR_MAPS_CACHE_DIR"] = _CACHE = tempfile.mkdtemp(prefix="ttr-maps-test-cache-")
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
MAPS = ROOT / "maps"
# The published boards' facts (not part of the repository): TTR_REFERENCE_DIR, else ../shared/reference.
REFERENCE = Path(os.environ.get("TTR_REFERENCE_DIR") or ROOT.parent / "shared" / "reference")


# The files that take longest, longest first (share of the whole suite's time, measured with --durations on
# 2026-11-26 after the speed-ups of that day): the workers are handed these first and the many short files after,
# so that the two finish together. pytest-xdist alone hands out the files with the most tests first, which left
# the pre-commit and wheel installs (one or a few tests each, a minute of CPU) to the end of the run. The two files
# that use the install (test_packaging.py, test_precommit.py) come after the first long files: the install is made
# meanwhile (started as the run starts, tests/hook_install.py), so that they find it made. test_compiled.py (one
# worker compiles the optional compiled build for about a minute, 2026-11-27) comes second.
LONGEST_FIRST = (
    "test_print.py", "test_compiled.py", "test_checks_context.py", "test_studio_page.py", "test_render_cards.py",
    "test_packaging.py",
    "test_load_robustness.py", "test_precommit.py", "test_render_board.py", "test_play.py", "test_play_mechanics.py",
    "test_studio.py", "test_render_conflicts.py", "test_soak.py", "test_render_output.py", "test_validate_cli.py",
)


def pytest_sessionstart(session) -> None:
    """The tests cover the sources: a checkout with compiled modules beside them (a compiled build made in place,
    which Python would import instead of the sources) is refused, with the files to remove."""
    from ttr_maps.compiled import compiled_modules

    found = compiled_modules(ROOT / "ttr_maps")
    if found:
        raise pytest.UsageError(
            f"{ROOT / 'ttr_maps'} holds compiled modules ({', '.join(found)}), which Python imports instead of their "
            "sources: the tests would not test the sources. Remove them (git clean -X -n ttr_maps lists them); a "
            "compiled build is installed with `TTR_MAPS_COMPILE=1 pip install .`, never in the checkout."
        )


def pytest_collection_modifyitems(items: list) -> None:
    """The longest files first (LONGEST_FIRST), the rest in their usual order; each file's tests keep theirs."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


GOLDEN = ROOT / "tests" / "golden"


def assert_golden(name: str, text: str) -> None:
    """`text` is the file `name` of tests/golden/ (TTR_UPDATE_GOLDEN=1 writes it instead: review the diff)."""
    path = GOLDEN / name
    if os.environ.get("TTR_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    again = "TTR_UPDATE_GOLDEN=1 python -m pytest tests/test_render_golden.py tests/test_print.py"
    if not path.exists():
        pytest.fail(f"missing golden file {path}; create it with {again}")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        exp_lines, got_lines = expected.splitlines(), text.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(exp_lines, got_lines)) if a != b), min(len(exp_lines), len(got_lines)))
        pytest.fail(
            f"{name} differs from the golden file at line {first + 1}:\n"
            f"  golden: {exp_lines[first] if first < len(exp_lines) else '(end)'}\n"
            f"  now:    {got_lines[first] if first < len(got_lines) else '(end)'}\n"
            f"If the change is intended: {again}, then review the diff."
        )


@functools.cache
def player_range(variant: Path) -> tuple[int, int]:
    """The fewest and the most players `variant` allows, read once per test process. Test modules parametrize on
    them when they are collected, and every xdist worker collects every module: test_bots.py, test_engine.py and
    test_notation.py loaded the variants (each with its board) 62 times a worker, a third of collecting the suite."""
    from ttr_maps.load import load_variant

    players = load_variant(variant)[0].players
    return players.min, players.max


@pytest.fixture
def root() -> Path:
    return ROOT


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright (one per test module): the page tests' real browser.

    Under CI (the CI variable set) a missing browser fails the tests instead of skipping them.
    """
    if not os.path.exists(CHROMIUM):
        message = f"no {CHROMIUM}: install Debian's chromium (apt-get install chromium) to run the page tests"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


def _install_base(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the folder the workers share
    return base


def _can_install() -> bool:
    return importlib.util.find_spec("pre_commit") is not None and shutil.which("git") is not None


@pytest.fixture(scope="session", autouse=True)
def _hook_install_early(request, tmp_path_factory):
    """Where tests of this run use `hook_install`, start it before the first test: pip building the wheel and reading
    the package index for 20 s then overlaps the tests the workers run meanwhile (test_packaging.py and
    test_precommit.py are handed out after the first long files, tests/conftest.py's LONGEST_FIRST)."""
    if _can_install() and any("hook_install" in getattr(item, "fixturenames", ()) for item in request.session.items):
        from hook_install import start_shared_install

        start_shared_install(_install_base(tmp_path_factory))


@pytest.fixture(scope="session")
def hook_install(tmp_path_factory):
    """This tree installed once per run by pre-commit, shared by the xdist workers (tests/hook_install.py)."""
    pytest.importorskip("pre_commit")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from hook_install import shared_install

    return shared_install(_install_base(tmp_path_factory))
