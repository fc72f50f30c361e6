"""This tree installed once per test run by pre-commit, as a user's .pre-commit-config.yaml naming it installs it.

tests/test_precommit.py runs the published hook from that install; tests/test_packaging.py uses its virtual
environment (ttr-maps and its dependencies from `pip install`, nothing else) as the package installed alone.
The two used to install ttr-maps and all its dependencies three times (13 s of CPU each); the xdist workers
now share one install (`shared_install`, under a file lock).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def git(repo, *args, env=None) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env).stdout.strip()


def hook_repository(folder: Path) -> tuple[str, str]:
    """This tree as a hook repository at one commit, as `pre-commit try-repo` makes it: HEAD, or where files have
    uncommitted changes, a clone of it with those changes committed on top."""
    head = git(ROOT, "rev-parse", "HEAD")
    if subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode == 0:
        return str(ROOT), head
    shadow = folder / "hook-repo"
    git(folder, "clone", "-q", str(ROOT), str(shadow))
    git(shadow, "checkout", "-q", head, "-b", "uncommitted")
    env = {**os.environ, "GIT_INDEX_FILE": git(shadow, "rev-parse", "--absolute-git-dir") + "/index",
           "GIT_OBJECT_DIRECTORY": git(shadow, "rev-parse", "--absolute-git-dir") + "/objects"}
    staged = git(ROOT, "diff", "--cached", "--name-only").split("\n")
    if staged != [""]:
        git(ROOT, "add", "--", *staged, env=env)
    git(ROOT, "add", "-u", env=env)
    git(shadow, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "--no-verify", "-m", "uncommitted changes")
    return str(shadow), git(shadow, "rev-parse", "HEAD")


@dataclass(frozen=True)
class HookInstall:
    home: Path  # PRE_COMMIT_HOME, with ttr-maps installed for the hook
    config: Path  # a .pre-commit-config.yaml naming this tree's hook at its commit
    venv: Path  # the virtual environment pre-commit made and installed ttr-maps into


def install(folder: Path) -> HookInstall:
    """Run `pre-commit install-hooks` for a config naming this tree (pre-commit clones it, makes a virtual
    environment and runs `pip install .` in it: the wheel built from this tree and its dependencies)."""
    hooks, rev = hook_repository(folder)
    config = folder / "pre-commit-config.yaml"
    config.write_text(f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: ttr-maps-validate\n", encoding="utf-8")
    home = folder / "pre-commit-home"
    # PIP_COMPILE=0 (pip install --no-compile): pip installs ttr-maps and its dependencies without compiling every
    # module they ship (networkx alone has hundreds; the commands compile what they import).
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_COMPILE": "0"}
    out = subprocess.run([sys.executable, "-m", "pre_commit", "install-hooks", "--config", str(config)],
                         cwd=hooks, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    (venv,) = [p for p in home.glob("repo*/py_env-*") if (p / "bin" / "ttr-maps").exists()]
    return HookInstall(home, config, venv)


def shared_install(base: Path) -> HookInstall:
    """One install for every xdist worker of this run: `base` is the folder they share."""
    from filelock import FileLock

    with FileLock(str(base / "hook-install.lock")):
        done = base / "hook-install.json"
        if done.exists():
            return HookInstall(**{k: Path(v) for k, v in json.loads(done.read_text(encoding="utf-8")).items()})
        folder = base / "hook-install"
        folder.mkdir()
        result = install(folder)
        done.write_text(json.dumps({k: str(v) for k, v in result.__dict__.items()}), encoding="utf-8")
        return result
