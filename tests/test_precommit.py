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


def git(repo, *args, env=None) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env).stdout.strip()


def hook_repository(tmp_path) -> tuple[str, str]:
    """This tree as a hook repository at one commit, as `pre-commit try-repo` makes it: HEAD, or where files have
    uncommitted changes, a clone of it with those changes committed on top."""
    head = git(ROOT, "rev-parse", "HEAD")
    if subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode == 0:
        return str(ROOT), head
    shadow = tmp_path / "hook-repo"
    git(tmp_path, "clone", "-q", str(ROOT), str(shadow))
    git(shadow, "checkout", "-q", head, "-b", "uncommitted")
    env = {**os.environ, "GIT_INDEX_FILE": git(shadow, "rev-parse", "--absolute-git-dir") + "/index",
           "GIT_OBJECT_DIRECTORY": git(shadow, "rev-parse", "--absolute-git-dir") + "/objects"}
    staged = git(ROOT, "diff", "--cached", "--name-only").split("\n")
    if staged != [""]:
        git(ROOT, "add", "--", *staged, env=env)
    git(ROOT, "add", "-u", env=env)
    git(shadow, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "--no-verify", "-m", "uncommitted changes")
    return str(shadow), git(shadow, "rev-parse", "HEAD")


def test_the_hook_passes_good_boards_skips_other_yaml_and_stops_on_errors(tmp_path):
    pytest.importorskip("pre_commit")
    repo = tmp_path / "boards"
    repo.mkdir()
    git(repo, "init", "-q")
    shutil.copy(ROOT / "examples/three-harbours.yaml", repo / "three-harbours.yaml")
    shutil.copy(ROOT / "examples/three-harbours-rules.yaml", repo / "three-harbours-rules.yaml")
    (repo / "ci.yaml").write_text("jobs: {test: {runs-on: linux}}\n", encoding="utf-8")  # not a board: skipped
    git(repo, "add", ".")
    hooks, rev = hook_repository(tmp_path)
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: ttr-maps-validate\n", encoding="utf-8")
    # PIP_COMPILE=0 (pip install --no-compile): pre-commit's pip installs ttr-maps and its dependencies without compiling every module they ship
    # (the hooks compile what they import); the install is most of this test's time. The second run reuses it
    # (the same PRE_COMMIT_HOME; `pre-commit try-repo` installed everything again for each run, 13 s of CPU).
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PIP_COMPILE": "0"}

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
