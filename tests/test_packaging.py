"""The package installs every subpackage, keeps `cli` inside the ttr_maps namespace, and its wheel alone works."""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {p for p in find_packages(str(ROOT), include=["ttr_maps*"])}
    found |= {"ttr_maps.cli." + p for p in find_packages(str(ROOT / "cli"))} | {"ttr_maps.cli"}
    assert found <= listed, f"add to pyproject.toml [tool.setuptools] packages: {sorted(found - listed)}"


def test_cli_installs_under_ttr_maps():
    import ttr_maps.cli.main as main

    assert main.cli.name is not None
    assert Path(main.__file__).resolve().parent == ROOT / "cli"


@pytest.fixture(scope="module")
def wheel_venv(hook_install):
    """A virtual environment with only ttr-maps and its dependencies: the one pre-commit made for this tree's hook
    (its `pip install .` builds the wheel from this tree and installs it with what it depends on; the pre-commit
    tests use the same install, made once per run by tests/hook_install.py)."""
    return hook_install.venv


@pytest.mark.slow
def test_the_wheel_alone_validates_and_plays_bundled_boards(wheel_venv, tmp_path):
    """No clone: the bundled boards, variants and schemas come from the installed package."""
    exe = str(wheel_venv / "bin" / "ttr-maps")

    def ttr(*args):
        return subprocess.run([exe, *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)

    out = ttr("validate", "usa")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "site-packages" in out.stdout  # the installed copy, not this clone
    assert "europe-1912" in ttr("boards").stdout
    folder = Path(ttr("schema", "--path").stdout.strip())
    assert (folder / "board.schema.json").is_file() and "site-packages" in str(folder)
    assert ttr("state", "new", "europe-1912", "-p", "3", "-s", "1", "-o", "game.yaml").returncode == 0
    assert ttr("state", "legal", "game.yaml").returncode == 0
    # The "done when": a new board from the starter, validated and simulated.
    for args in (["new", "my-board"], ["validate", "my-board", "--strict"], ["simulate", "my-board-rules.yaml", "-n", "50", "-q"]):
        out = ttr(*args)
        assert out.returncode == 0, (args, out.stdout + out.stderr)
    assert (tmp_path / "out" / "my-board-rules" / "report.html").is_file()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_pre_commit_hook_runs_with_the_wheel_alone(wheel_venv, tmp_path):
    """The hook of .pre-commit-hooks.yaml (its entry and file types), run by pre-commit on a new board with
    the `ttr-maps` of the wheel's environment (tests/test_precommit.py tries the hook as published)."""
    pytest.importorskip("pre_commit")
    import yaml

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    repo = tmp_path / "boards"
    repo.mkdir()
    env = {**os.environ, "PATH": f"{wheel_venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    env.pop("TTR_MAPS_CACHE_DIR", None)
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")

    def run(*args, check=True):
        return subprocess.run(list(args), cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=check)

    run("git", "init", "-q")
    run("ttr-maps", "new", "my-board")
    local = {"id": hook["id"], "name": hook["name"], "entry": hook["entry"], "language": "system", "types_or": hook["types_or"]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}), encoding="utf-8")
    run("git", "add", ".")
    out = run(sys.executable, "-m", "pre_commit", "run", "--all-files", check=False)
    assert out.returncode == 0 and "Passed" in out.stdout, out.stdout + out.stderr
    board = repo / "my-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("tickets:", "tickets:\n  - {from: nowhere, to: nowhere-else, points: 5}", 1), encoding="utf-8")
    run("git", "add", ".")
    out = run(sys.executable, "-m", "pre_commit", "run", "--all-files", check=False)
    assert out.returncode == 1 and "my-board.yaml:" in out.stdout and "R002" in out.stdout, out.stdout + out.stderr


@pytest.mark.slow
def test_the_lean_install_leaves_out_dask_pytest_and_networkx(wheel_venv):
    py = str(wheel_venv / "bin" / "python")
    for module in ("distributed", "pytest", "networkx"):
        gone = subprocess.run([py, "-c", f"import {module}"], capture_output=True)
        assert gone.returncode != 0, f"{module} is installed by `pip install ttr-maps`; make it an extra"
