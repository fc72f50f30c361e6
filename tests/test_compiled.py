"""The optional compiled build (docs/simulate.md, "A compiled build"): what asks for it, and that, built from
this tree, its compiled modules are the ones imported and play the same games as the sources."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "backend"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import ttr_build  # noqa: E402

from ttr_maps.compiled import build_note, compiled_modules  # noqa: E402

LISTED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ttr-maps"]["compiled"]
# Games whose records the compiled build must reproduce byte for byte (variant, players, bots, games, bot options):
# the default table and the experts, 2 and 4 players, on USA, Europe (stations, ferries, tunnels), Märklin and
# Paris (flags); random play; and the search bot, whose sampled worlds come from its own generator.
TABLE = "expert,route-focus,ticket-hungry,long-route"
GAMES = (("usa", 4, TABLE, 6, ""), ("usa", 2, "expert,expert", 6, ""), ("europe", 4, TABLE, 6, ""),
         ("europe", 2, "expert,long-route", 6, ""), ("marklin", 4, TABLE, 6, ""), ("paris", 2, "expert,ticket-hungry", 6, ""),
         ("usa", 4, "random,random,random,random", 6, ""), ("usa", 2, "search,expert", 2, "search.budget=4"),
         ("europe", 3, "search,expert,random", 1, "search.budget=4"))
HASH_GAMES = """
import hashlib, sys
sys.path.insert(0, sys.argv[1])
from ttr_maps.simulate.runner import GameSource, RunSpec, run_games
for spec in sys.argv[2:]:
    variant, players, bots, games, options = spec.split(":")
    opts = tuple((k.split(".")[0], k.split(".")[1], v) for k, v in (o.split("=") for o in options.split(",") if o))
    src = GameSource.from_file(f"{sys.argv[1]}/maps/variants/{variant}.yaml", int(players))
    h = hashlib.sha256()
    for line in run_games(RunSpec(src, tuple(bots.split(",")), int(games), 11, bot_options=opts)):
        h.update(line.encode())
    print(spec, h.hexdigest())
"""


# ---------------------------------------------------------------------- asking for it
def test_the_usual_build_asks_for_nothing_more_and_the_compiled_one_for_mypy(monkeypatch):
    monkeypatch.chdir(ROOT)  # (setuptools reads setup.py from the working folder)
    monkeypatch.delenv("TTR_MAPS_COMPILE", raising=False)
    assert not any(r.startswith("mypy") for r in ttr_build.get_requires_for_build_wheel())
    monkeypatch.setenv("TTR_MAPS_COMPILE", "1")
    assert ttr_build.MYPY in ttr_build.get_requires_for_build_wheel()
    assert "TTR_MAPS_BUILD_REQUIRES_ONLY" not in os.environ


def test_an_editable_install_is_never_compiled(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("TTR_MAPS_COMPILE", "1")
    with pytest.raises(SystemExit, match="editable install"):
        ttr_build.get_requires_for_build_editable()
    monkeypatch.setenv("TTR_MAPS_COMPILE", "0")
    assert not any(r.startswith("mypy") for r in ttr_build.get_requires_for_build_editable())


def test_the_compiled_build_without_a_c_compiler_says_what_to_install(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("TTR_MAPS_COMPILE", "1")
    monkeypatch.setenv("CC", "no-such-compiler-here --flag")
    with pytest.raises(SystemExit, match="'no-such-compiler-here' is not installed.*unset TTR_MAPS_COMPILE"):
        ttr_build.get_requires_for_build_wheel()
    monkeypatch.delenv("TTR_MAPS_COMPILE")  # the usual build asks for no compiler
    assert not any(r.startswith("mypy") for r in ttr_build.get_requires_for_build_wheel())


def test_compiled_modules_are_found_by_their_extension_files(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "planning.py").write_text("")
    assert compiled_modules(tmp_path) == [] and build_note(tmp_path) == "pure Python"
    for name in ("bots/planning", "engine/claims", "0123abcd__mypyc"):  # the last: mypyc's shared runtime
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / f"{name}.cpython-311-x86_64-linux-gnu.so").write_text("")
    assert compiled_modules(tmp_path) == ["ttr_maps.bots.planning", "ttr_maps.engine.claims"]
    assert build_note(tmp_path) == "compiled with mypyc: bots.planning, engine.claims"


def test_the_checkout_the_tests_run_on_is_pure_python():
    assert compiled_modules(ROOT / "ttr_maps") == []
    out = subprocess.run([sys.executable, "-c", "from cli.main import cli; cli()", "--version"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("(pure Python)")


def test_every_listed_module_exists():
    assert LISTED
    for path in LISTED:
        assert (ROOT / path).is_file(), path


# ---------------------------------------------------------------------- the build itself
@pytest.fixture(scope="module")
def compiled_tree(tmp_path_factory) -> Path:
    pytest.importorskip("mypyc", reason="mypy (the test extra) builds the compiled build")
    problem = ttr_build.toolchain_problem()
    if problem:  # (.ci/run installs gcc)
        pytest.skip(f"the compiled build cannot be made here: {problem}")
    from compiled_build import build_compiled

    tree = tmp_path_factory.mktemp("compiled") / "tree"
    build_compiled(tree)
    return tree


def _run(tree: Path, *args: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=True,
                          timeout=600).stdout


@pytest.mark.slow
def test_the_compiled_build_imports_every_listed_module_compiled(compiled_tree):
    names = [p.removesuffix(".py").replace("/", ".") for p in LISTED]
    code = "import importlib, sys; sys.path.insert(0, '.'); print('\\n'.join(importlib.import_module(n).__file__ for n in sys.argv[1:]))"
    files = _run(compiled_tree, "-c", code, *names).split()
    assert len(files) == len(names)
    for name, file in zip(names, files):
        assert file.endswith(".so") and Path(file).resolve().is_relative_to(compiled_tree.resolve()), (name, file)
    version = _run(compiled_tree, "-c", "from cli.main import cli; cli()", "--version")
    assert "compiled with mypyc: " + ", ".join(sorted(n.removeprefix("ttr_maps.") for n in names)) in version


@pytest.mark.slow
def test_the_compiled_build_plays_the_same_games_as_the_sources(compiled_tree):
    specs = [":".join(map(str, game)) for game in GAMES]
    pure = _run(ROOT, "-c", HASH_GAMES, str(ROOT), *specs)
    compiled = _run(compiled_tree, "-c", HASH_GAMES, str(compiled_tree), *specs)
    assert len(pure.splitlines()) == len(GAMES)
    assert compiled == pure
