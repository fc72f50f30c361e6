"""The pre-commit hook (.pre-commit-hooks.yaml) runs `ttr-maps validate` on staged boards and variants,
tried in a fresh git repository whose .pre-commit-config.yaml names this tree at a commit, as a user's names
ours (pre-commit installs this tree in its own virtual environment, as a user's machine would)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]


def git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_the_hook_passes_good_boards_skips_other_yaml_and_stops_on_errors(tmp_path, hook_install):
    repo = tmp_path / "boards"
    repo.mkdir()
    git(repo, "init", "-q")
    shutil.copy(ROOT / "examples/three-harbours.yaml", repo / "three-harbours.yaml")
    shutil.copy(ROOT / "examples/three-harbours-rules.yaml", repo / "three-harbours-rules.yaml")
    (repo / "ci.yaml").write_text("jobs: {test: {runs-on: linux}}\n", encoding="utf-8")  # not a board: skipped
    git(repo, "add", ".")
    # The config names this tree at a commit, as a user's names ours; pre-commit installed it once for the run
    # (tests/hook_install.py), and both runs here use that install.
    env = {**os.environ, "PRE_COMMIT_HOME": str(hook_install.home)}
    config = hook_install.config

    def run_hook():
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--config", str(config), "--all-files"],
                              cwd=repo, env=env, capture_output=True, text=True, timeout=900)

    out = run_hook()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ttr-maps validate" in out.stdout and "Passed" in out.stdout

    (repo / "three-harbours.yaml").write_text(
        (ROOT / "examples/three-harbours.yaml").read_text(encoding="utf-8").replace("to: millford, length: 3", "to: milford, length: 3"),
        encoding="utf-8",
    )
    git(repo, "add", ".")
    out = run_hook()
    assert out.returncode == 1
    assert "three-harbours.yaml:" in out.stdout and "error R002 unknown place 'milford'" in out.stdout
