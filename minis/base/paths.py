"""Asking the file system about a user's path, and reading it, without a traceback.

Any question about a path typed on the command line or written in a file can fail: a part of it over
255 bytes (ENAMETOOLONG), a NUL character (ValueError), a loop of symbolic links (ELOOP, or RuntimeError
from `resolve`), a folder the user may not enter (EACCES). pathlib raises for some of these and answers
False for others, so every question about a user's path goes through here: `look` says what is there or
why nothing can be, `read_bytes` raises `UnreadablePath` with the reason in plain words, and a path
written inside a file is reported at the key that names it (`UnreadablePath.named_in`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import attrs

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem
from minis.base.limits import MAX_FILE_BYTES, check_bytes

#: The longest part of a path most file systems take, in bytes (NAME_MAX).
NAME_MAX = 255
#: The longest name of a file quoted in a message, in characters.
SHOWN_NAME = 60

#: Why something that is there is not a file to read.
_NOT_A_FILE = {"folder": "is a folder, not a file", "other": "is not a file (a device or a pipe)"}
#: What pathlib and os raise about a path itself: OSError, ValueError (NUL), RuntimeError (resolve's loop).
PATH_ERRORS = (OSError, ValueError, RuntimeError)


def reason(error: BaseException, path: str | Path, cannot_read: str = "cannot read") -> str:
    """Why the system refused `path`, in plain words for a player or designer."""
    if isinstance(error, ValueError):
        if "\0" in str(path):
            return "the file name holds a NUL character"
        return f"{cannot_read}: {error}"
    if isinstance(error, RuntimeError):  # Path.resolve's own word for a loop of links
        return "the path goes round a loop of symbolic links"
    code = getattr(error, "errno", None)
    if code == errno.ENOENT:
        return "no such file"
    if code == errno.EISDIR:
        return _NOT_A_FILE["folder"]
    if code in (errno.EACCES, errno.EPERM):
        return "you have no permission to read it"
    if code == errno.ENAMETOOLONG:
        if any(len(os.fsencode(part)) > NAME_MAX for part in Path(path).parts):
            return f"the file name is too long: each part of a path may have at most {NAME_MAX} bytes"
        return "the file name is too long: the whole path is longer than the system allows"
    if code == errno.ELOOP:
        return "the path goes round a loop of symbolic links"
    if code == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    strerror = getattr(error, "strerror", None)
    return f"{cannot_read}: {strerror or error}"


def shown(name: str) -> str:
    """A file name as a message quotes it: escaped like Python's repr, and shortened when very long."""
    text = name if len(name) <= SHOWN_NAME else name[: SHOWN_NAME - 3] + "..."
    return repr(text)


@attrs.frozen
class Look:
    """What is at a path: `kind` is "file", "folder" or "other" (a device, a pipe), or None with the
    `reason` nothing can be there; `missing` when the path is fine but names nothing."""

    kind: str | None
    reason: str = ""
    missing: bool = False


def look(path: str | Path) -> Look:
    """What is at `path` (links followed), never raising."""
    try:
        mode = os.stat(path).st_mode
    except PATH_ERRORS as error:
        missing = getattr(error, "errno", None) == errno.ENOENT
        return Look(None, reason(error, path), missing)
    return Look(_kind(mode))


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    return "folder" if stat.S_ISDIR(mode) else "other"


def is_file(path: str | Path) -> bool:
    return look(path).kind == "file"


def is_dir(path: str | Path) -> bool:
    return look(path).kind == "folder"


def exists(path: str | Path) -> bool:
    return look(path).kind is not None


def file_problem(path: str | Path) -> str | None:
    """Why `path` cannot be read as a file (plain words), or None when it is a file."""
    found = look(path)
    if found.kind is None:
        return found.reason
    return _NOT_A_FILE.get(found.kind)


def resolved(path: str | Path) -> Path:
    """The absolute path with links followed, or just made absolute when the system refuses."""
    try:
        return Path(path).resolve()
    except PATH_ERRORS:
        return Path(os.path.abspath(path))


def files_in(folder: str | Path, pattern: str = "*.toml", *, recursive: bool = False) -> list[Path]:
    """The files in a folder (and its sub-folders when `recursive`) whose names match, sorted.

    Nothing when `folder` is not a folder (callers say so in their own words); a folder that can't
    be listed raises UnreadablePath; a sub-folder that can't is skipped.
    """
    folder = Path(folder)
    if not is_dir(folder):
        return []
    try:
        with os.scandir(folder):
            pass
        found = folder.rglob(pattern) if recursive else folder.glob(pattern)
        return sorted(p for p in found if is_file(p))
    except PATH_ERRORS as error:
        raise UnreadablePath(str(folder), reason(error, folder)) from None


class UnreadablePath(MinisError):
    """A file or folder that can't be read at all (exit code 2), with the reason in plain words."""

    def __init__(self, file: str, why: str, hint: str = "") -> None:
        self.file = file
        self.reason = why
        super().__init__(Problem(file, 0, 0, why, hint), exit_code=EXIT_UNREADABLE)

    def named(self, what: str, name: str | None = None) -> str:
        """The message for the key of another file that names this path: `what` is "the map file",
        `name` the path as written there (default: as it was opened)."""
        return f"{what} {shown(self.file if name is None else name)} cannot be read: {self.reason}"

    def named_in(self, file: str, spot: tuple[int, int], what: str, name: str | None = None) -> MinisError:
        """The problem moved to the key (at `spot`) of the file that names this path; that file is well
        formed, so the exit code is 1."""
        return MinisError(Problem(file, spot[0], spot[1], self.named(what, name)), exit_code=EXIT_CHECK)


def read_bytes(path: str | Path, *, missing_hint: str = "", cannot_read: str = "cannot read") -> bytes:
    """The bytes of a regular file; anything else raises UnreadablePath saying why.

    The file is opened without blocking and checked before it is read, so a named pipe or a device never
    hangs the program; at most one byte past MAX_FILE_BYTES is read, so no file fills memory.
    """
    file = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except PATH_ERRORS as error:
        if isinstance(error, PermissionError) and is_dir(path):  # Windows refuses to open a folder
            raise UnreadablePath(file, _NOT_A_FILE["folder"]) from None
        missing = getattr(error, "errno", None) == errno.ENOENT
        raise UnreadablePath(
            file, reason(error, path, cannot_read), missing_hint if missing else ""
        ) from None
    try:
        status = os.fstat(handle)
        kind = _kind(status.st_mode)
        if kind == "file":
            with os.fdopen(handle, "rb", closefd=False) as stream:
                data = stream.read(MAX_FILE_BYTES + 1)  # never more than the limit lets through
            check_bytes(data, file, status.st_size)
            return data
    except OSError as error:
        raise UnreadablePath(file, reason(error, path, cannot_read)) from None
    finally:
        os.close(handle)
    raise UnreadablePath(file, _NOT_A_FILE[kind])
