"""This tree installed once per test run by pre-commit, as a user's .pre-commit-config.yaml naming it installs it.

tests/test_precommit.py runs the published hook from that install; tests/test_packaging.py uses its virtual
environment (ttr-maps and its dependencies from `pip install`, nothing else) as the package installed alone.
The two used to install ttr-maps and all its dependencies three times (13 s of CPU each); the xdist workers
now share one install (`shared_install`, under a file lock). tests/conftest.py starts it as the run starts
(`start_shared_install`, in a thread of the first worker), so that pip's waits for the package index overlap
the other tests' work instead of holding up a worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
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


def _lock(base: Path):
    from filelock import FileLock

    return FileLock(str(base / "hook-install.lock"))


def _write(path: Path, text: str) -> None:
    """`text` into `path` at once (a reader polling for the file never sees half of it)."""
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def _read(done: Path) -> HookInstall:
    return HookInstall(**{k: Path(v) for k, v in json.loads(done.read_text(encoding="utf-8")).items()})


def _install_into(base: Path) -> HookInstall:
    """Install into `base`/hook-install and record the result in `base`/hook-install.json for the other workers."""
    folder = base / "hook-install"
    folder.mkdir()
    result = install(folder)
    _write(base / "hook-install.json", json.dumps({k: str(v) for k, v in result.__dict__.items()}))
    return result


def start_shared_install(base: Path) -> None:
    """Start the install for this run in a thread of this process, unless a worker has started or made it. The
    thread is not a daemon: the process waits for it before it exits."""
    with _lock(base):
        if (base / "hook-install.json").exists() or (base / "hook-install.started").exists():
            return
        (base / "hook-install.started").write_text(str(os.getpid()), encoding="utf-8")

    def run() -> None:
        try:
            _install_into(base)
        except BaseException as e:  # the tests that use the install fail with this (shared_install)
            _write(base / "hook-install.error", f"{type(e).__name__}: {e}")

    threading.Thread(target=run, name="hook-install").start()


def shared_install(base: Path, timeout: float = 900) -> HookInstall:
    """One install for every xdist worker of this run: `base` is the folder they share. Made here, or waited for
    where `start_shared_install` has started it."""
    done = base / "hook-install.json"
    with _lock(base):
        if done.exists():
            return _read(done)
        if not (base / "hook-install.started").exists():
            return _install_into(base)
    deadline = time.monotonic() + timeout
    while not done.exists():
        error = base / "hook-install.error"
        if error.exists():
            raise AssertionError(f"the shared install failed: {error.read_text(encoding='utf-8')}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the shared install did not finish in {timeout:.0f} s (started in {base})")
        time.sleep(0.2)
    return _read(done)
