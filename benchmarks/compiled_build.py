"""The optional compiled build of a tree, made in a copy of it: for bench_interleaved.py --compiled and tests/test_compiled.py.

    python benchmarks/compiled_build.py DEST     # this tree's compiled build in DEST (a new folder)

What `TTR_MAPS_COMPILE=1 pip install .` compiles (setup.py: the modules pyproject.toml's `[tool.ttr-maps]
compiled` lists, with mypyc) is compiled here in place in the copy, beside the copied sources, so that the copy
imports them as the install would. Never in the checkout itself (tests/conftest.py refuses a checkout with
compiled modules). Needs mypy (the test extra has it) and a C compiler.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("ttr_maps", "cli", "maps", "schemas", "benchmarks", "tools")
FILES = ("pyproject.toml", "setup.py", "MANIFEST.in")


class BuildFailed(RuntimeError):
    pass


def build_compiled(dest: Path, source: Path = ROOT) -> list[str]:
    """Copy `source`'s code and data to `dest` (a new folder) and compile its listed modules there; the compiled
    modules' names. BuildFailed, with mypyc's output, when it cannot."""
    sys.path.insert(0, str(source))
    try:
        from ttr_maps.compiled import compiled_modules
    finally:
        sys.path.remove(str(source))
    dest.mkdir(parents=True)
    for part in PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    for name in FILES:
        shutil.copy2(source / name, dest / name)
    env = dict(os.environ, TTR_MAPS_COMPILE="1")
    env.pop("TTR_MAPS_BUILD_REQUIRES_ONLY", None)
    res = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)], cwd=dest, env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        lines = [ln for ln in (res.stdout + res.stderr).splitlines() if "error" in ln.lower() and not ln.startswith("gcc")]
        raise BuildFailed(f"the compiled build of {source} failed (exit {res.returncode}):\n" + "\n".join(lines[-40:]))
    shutil.rmtree(dest / "build", ignore_errors=True)
    return compiled_modules(dest / "ttr_maps")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    dest = Path(args[0])
    if dest.exists():
        print(f"{dest} exists: give a new folder", file=sys.stderr)
        return 2
    try:
        mods = build_compiled(dest)
    except BuildFailed as e:
        print(e, file=sys.stderr)
        return 1
    print(f"{dest}: compiled {', '.join(mods) or 'nothing'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
