"""Atomic file writes: a file a user made is either the old version or the whole new one, never half.

Every save in the project (game records and saves, army, map and scenario files, pictures) goes through
`write_atomic`: a temporary file `.NAME.XXXXXXXX.tmp` in the same folder is written, flushed and synced,
then renamed over the target, which a crash or a full disk cannot leave half-written. A save that was
killed before its rename leaves its temporary file behind; the next save of that file that succeeds
removes such leftovers (only names of exactly that form, and none another process is still writing).

Files that belong together (a scenario and its map) are saved with `write_atomic_files`: every file is
written to its temporary file first, then a journal beside the last file lists the renames still to do,
then the renames happen and the journal goes. A reader calls `finish_interrupted_save` before opening
the last file: a journal left by a killed save is carried out, so the reader sees the new files
together; a save killed before its journal was written left the old files untouched.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from minis.base.data import in_packaged_data
from minis.base.errors import unreadable

if sys.platform != "win32":  # advisory locks tell a live writer's temporary file from a dead one's
    import fcntl

#: The journal of a group save, beside the group's last file: `.NAME.journal`.
JOURNAL_SUFFIX = ".journal"
#: A journal is a few lines; anything bigger is not one of ours and is not read.
_JOURNAL_LIMIT = 64 * 1024


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write a file so that it is either the old or the new version, never half of one.

    `bytes` are written as they are (pictures); text as UTF-8 with \\n line ends. The file keeps the
    permissions of the one it replaces (a new one gets the usual ones, not mkstemp's owner-only).
    """
    write_atomic_files([(path, text)])


def write_atomic_files(files: Sequence[tuple[str | Path, str | bytes]]) -> None:
    """Write files that belong together so that a reader sees all old or all new versions.

    The last file is the one readers open (a scenario, after the map it names). With more than one
    file a journal makes the renames recoverable: once it is written the save is decided, and a
    failure or a kill after that leaves the temporary files for `finish_interrupted_save`.
    """
    targets = [Path(path) for path, _ in files]
    data = [_encoded(text) for _, text in files]
    if not targets:
        return
    for target in targets:  # a player's files never go into an installed minis (minis.base.data)
        if in_packaged_data(target):
            raise OSError(errno.EROFS, "the files shipped with minis are read-only: save a copy elsewhere")
    journal = _journal_of(targets[-1])
    temporaries: list[Path] = []
    decided = False
    with contextlib.ExitStack() as open_files:
        try:
            for path, blob in zip(targets, data, strict=True):
                temporaries.append(_write_temporary(path, blob, open_files))
            if len(targets) > 1:
                folder = journal.parent
                pairs = zip(temporaries, targets, strict=True)
                renames = [[_relative(t, folder), _relative(p, folder)] for t, p in pairs]
                write_atomic(journal, json.dumps({"renames": renames}) + "\n")
                decided = True
            for temporary, path in zip(temporaries, targets, strict=True):
                os.replace(temporary, path)
        except BaseException:
            if not decided:
                for temporary in temporaries:
                    temporary.unlink(missing_ok=True)
            raise
    for folder in {_folder(path) for path in targets}:
        _sync_folder(folder)
    journal.unlink(missing_ok=True)  # done; also makes a journal an earlier killed save left obsolete
    for path in targets:
        remove_stale_temporaries(path)


def finish_interrupted_save(path: str | Path) -> list[Path]:
    """Carry out the renames of a group save that was killed after its journal beside `path` was written.

    Returns the files it completed (none, usually). A journal that is not one of ours is left alone;
    one whose save is still running in another process too. MinisError (exit 2) if a rename fails.
    """
    path = Path(path)
    journal = _journal_of(path)
    renames = _read_journal(journal)
    if renames is None or all(os.path.normpath(target) != os.path.normpath(path) for _, target in renames):
        return []  # no journal, or not one of a save of this file
    if any(_in_use(temporary) for temporary, _ in renames):
        return []  # the save is still running
    done: list[Path] = []
    try:
        for temporary, target in renames:
            if os.path.lexists(temporary):
                os.replace(temporary, target)
                done.append(target)
        for folder in {_folder(target) for _, target in renames}:
            _sync_folder(folder)
        journal.unlink(missing_ok=True)
    except OSError as error:
        message = f"cannot finish the save that was interrupted: {error.strerror or error}"
        raise unreadable(str(path), message, hint=f"its journal is {journal}") from None
    return done


def remove_stale_temporaries(path: str | Path) -> list[Path]:
    """Remove what killed saves of `path` left: `.NAME.XXXXXXXX.tmp` files no live writer holds."""
    path = Path(path)
    folder = _folder(path)
    pattern = _temporary_name(path.name)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        candidate = folder / name
        if pattern.fullmatch(name) and not _in_use(candidate):
            with contextlib.suppress(OSError):
                candidate.unlink()
                removed.append(candidate)
    return removed


# --- the pieces -------------------------------------------------------------------------------------


def _encoded(text: str | bytes) -> bytes:
    if not isinstance(text, str | bytes):
        raise TypeError(f"write_atomic writes str or bytes, not {type(text).__name__}")
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _temporary_name(name: str) -> re.Pattern[str]:
    """The names `tempfile.mkstemp` gives our temporary files of `name` (8 of its letters)."""
    return re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}\.tmp")


def _journal_of(path: Path) -> Path:
    return _folder(path) / f".{path.name}{JOURNAL_SUFFIX}"


def _write_temporary(path: Path, data: bytes, open_files: contextlib.ExitStack) -> Path:
    """A synced temporary file beside `path` holding `data`, with the permissions `path` should get.

    It stays open and locked until `open_files` closes, which tells a live writer's temporary file
    from one a killed save left behind. Removed again if writing it fails.
    """
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=_folder(path))
    temporary = Path(name)
    try:
        stream = open_files.enter_context(os.fdopen(handle, "wb"))
        if sys.platform != "win32":
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _in_use(path: Path) -> bool:
    """Whether a live writer holds this temporary file (its lock); a dead one's lock is gone."""
    if sys.platform == "win32":  # pragma: no cover - an open file cannot be deleted there anyway
        return False
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(handle)
    return False


def _relative(path: Path, folder: Path) -> str:
    try:
        return os.path.relpath(path, folder)
    except ValueError:  # another drive (Windows): only an absolute path reaches it
        return str(path.absolute())


def _read_journal(journal: Path) -> list[tuple[Path, Path]] | None:
    """The renames a journal lists, or None when there is none or it is not one of ours.

    Ours: each temporary file has our name for its target and lies in the target's folder.
    """
    try:
        if not stat.S_ISREG(os.lstat(journal).st_mode) or os.lstat(journal).st_size > _JOURNAL_LIMIT:
            return None
        data = json.loads(journal.read_bytes())
    except (OSError, ValueError, RecursionError):  # RecursionError: lists nested thousands deep
        return None
    renames = data.get("renames") if isinstance(data, dict) else None
    if not isinstance(renames, list) or not renames:
        return None
    found = []
    for entry in renames:
        if not (isinstance(entry, list) and len(entry) == 2 and all(_a_path(p) for p in entry)):
            return None
        temporary, target = (journal.parent / p for p in entry)
        same_folder = os.path.normpath(temporary.parent) == os.path.normpath(target.parent)
        if not same_folder or not _temporary_name(target.name).fullmatch(temporary.name):
            return None
        found.append((temporary, target))
    return found


def _a_path(value: object) -> bool:
    return isinstance(value, str) and bool(value) and "\x00" not in value


def _sync_folder(folder: Path) -> None:
    """Make the renames in `folder` durable before the next step (best effort: not every system can)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
