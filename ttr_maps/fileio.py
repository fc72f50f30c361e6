"""File output: a reader never sees a half-written file, and a failed write leaves the old one.

`write_atomic` writes a regular file through a temporary file in the same folder
and an atomic rename. The new file gets the permissions a plain `open(path, "w")`
would give it (0666 less the umask), or keeps those of the file it replaces. A
path that exists but is not a regular file (a device such as /dev/null, a named
pipe) is written to directly, never replaced. A symbolic link to a file keeps
pointing at it: the file it points to is replaced.

`write_output` is the same for the commands that write one file named by the
user: it does not create missing folders and turns every failure into an
`OutputError` whose message names the file and what to do.

`path_problem` says, before a reader opens a path, why it is no file to read:
missing, a loop of symbolic links, a folder, a named pipe or a device (opening a
pipe would wait for a writer forever; /dev/zero never ends).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import NamedTuple


class OutputError(Exception):
    """The output file could not be written; the message names it and the fix."""


class PathProblem(NamedTuple):
    """Why a path is no regular file to read. `kind`: missing, loop, folder, special or unreachable."""

    kind: str
    text: str  # what the path is, in words: "a named pipe (FIFO)"


_SPECIAL = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device (such as /dev/zero or a terminal)"),
    (stat.S_ISBLK, "a block device (a disk)"),
    (stat.S_ISSOCK, "a socket"),
)


def path_problem(path: str | os.PathLike) -> PathProblem | None:
    """None when `path` is (or links to) a regular file; else what it is instead. Never raises."""
    try:
        mode = os.stat(path).st_mode  # follows links
    except ValueError:  # a NUL character in the name
        return PathProblem("missing", "not a possible file name (it holds a NUL character)")
    except OSError as e:
        if e.errno == errno.ELOOP:
            return PathProblem("loop", "a loop of symbolic links (following them leads back to the start), not a file")
        if e.errno == errno.ENOENT and os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return PathProblem("missing", f"a symbolic link to {target}, which does not exist")
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return PathProblem("missing", "not found")
        if e.errno == errno.ENAMETOOLONG:
            return PathProblem("missing", "not found (the name is too long for the file system)")
        return PathProblem("unreachable", f"out of reach: {e.strerror or e}")
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return PathProblem("folder", "a folder")
    for test, words in _SPECIAL:
        if test(mode):
            return PathProblem("special", words)
    return PathProblem("special", "not a regular file")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes, *, make_dirs: bool = True) -> None:
    """Write `data` to `path` via a temporary file in the same folder and an atomic rename.

    Raises OSError when the file cannot be written (the old file, if any, is left as it was).
    With `make_dirs` (the default) missing parent folders are created.
    """
    binary = isinstance(data, bytes)
    mode = "wb" if binary else "w"
    text_args = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    try:
        st = os.stat(path)  # follows links
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        # A device or a pipe: write to it, never replace it with a regular file.
        with open(path, mode, **text_args) as f:
            f.write(data)
            f.flush()
        return
    # A link to a file (or a dangling one): replace the file it points to, keep the link.
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    if make_dirs:
        target.parent.mkdir(parents=True, exist_ok=True)
    perms = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, perms)
        with os.fdopen(fd, mode, **text_args) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_output(path: str | Path, data: str | bytes, option: str = "-o") -> None:
    """`write_atomic` for a file the user named with `option`; failures raise OutputError with a clear message.

    A missing folder is not created (a mistyped folder name should not silently make a new folder).
    """
    check_output(path, option, _suffix(data))
    p = Path(path)
    shown = str(path)
    try:
        write_atomic(p, data, make_dirs=False)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            hint = f"choose a file in a folder you can write to with {option}"
        elif exc.errno == errno.ENOSPC:
            hint = "free some space or choose another disk"
        else:
            hint = f"choose another file with {option}"
        raise OutputError(f"cannot write {shown}: {why}; {hint}") from None


def check_output(path: str | Path, option: str = "-o", suffix: str = ".svg") -> None:
    """Raise OutputError when `path` cannot be a new or replaced file: it is a folder, or its folder is missing.

    Commands call this before their work, so a mistyped path fails at once.
    """
    if not str(path).strip():
        raise OutputError(f"{option} needs a file name, e.g. {option} board{suffix}")
    p = Path(path)
    shown = str(path)
    if p.is_dir():
        raise OutputError(f"{shown} is a folder; give a file name with {option}, e.g. {p / ('board' + suffix)}")
    folder = p.parent
    if not os.path.lexists(p) and not folder.is_dir():
        if folder.exists():
            raise OutputError(f"cannot write {shown}: {folder} is not a folder; choose another file with {option}")
        raise OutputError(f"cannot write {shown}: folder {folder} does not exist; "
                          f"create it first (mkdir -p {folder}) or choose another file with {option}")


def _suffix(data: str | bytes) -> str:
    return ".pdf" if isinstance(data, bytes) and data[:5] == b"%PDF-" else ".svg"


def looks_like_state_file(path: str | Path) -> bool:
    """Does `path` start like a ttr-state file (a quick look; the state-file reader checks the rest)?"""
    if not os.path.isfile(path):  # a regular file only: a named pipe or a device would block or never end
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return "ttr-state/" in head
