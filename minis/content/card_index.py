"""An index of a folder of files that are slow to read (the 473 card files): what each file gave, kept in
one file of the user's cache folder that loads in a few milliseconds, and checked against the files on
every load, so that an edited file still counts at once.

Each entry is a file's name, its stamp (size, modification and change times in nanoseconds) and what the
loader made of it, as plain JSON values (the loader says how: `minis.cards`). A file whose stamp differs
from its entry, or that has no entry, is read again; the others are taken from the index. The index names
the loader's version (this module's INDEX_VERSION and the loader modules' own stamps), so an index made by
other code is never used. A file changed less than RACY_NS before the index is written is left out of it
(a second edit within the clock's tick could keep the same stamp), to be read again next time.

The index lives in `$MINIS_CACHE` (`off`: no index), else `$XDG_CACHE_HOME/minis`, else `~/.cache/minis`,
one file per folder indexed (named by a hash of the folder's path), never beside the data: an installed
wheel's data may be read-only, and a checkout's tree stays clean. It is written atomically
(`minis.base.atomic`); an index that can't be read, is cut short, corrupt (its first line holds a hash of the
rest) or of another version is ignored and made again; one that can't be written is simply not kept.
Nothing here ever raises for the index's sake.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from minis.base.atomic import write_atomic
from minis.base.paths import resolved

#: Raised when what the index keeps changes shape (the loaders' own changes are seen by their stamps).
INDEX_VERSION = 1
#: A file changed this recently (nanoseconds) when the index is written is not indexed yet.
RACY_NS = 2_000_000_000
#: An index bigger than this is not ours (the 473 cards make about 300 KB).
MAX_INDEX_BYTES = 64 * 2**20

#: A file's stamp: size, modification time and change time, in nanoseconds.
Stamp = tuple[int, int, int]
#: An index's entries: file name -> (stamp, what the loader made of the file, as JSON values).
Entries = dict[str, tuple[Stamp, Any]]


def cache_folder() -> Path | None:
    """Where indexes go: $MINIS_CACHE (`off`: nowhere), $XDG_CACHE_HOME/minis or ~/.cache/minis."""
    explicit = os.environ.get("MINIS_CACHE")
    if explicit:
        return None if explicit == "off" else Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):  # no home folder: no index
            return None
    return Path(base) / "minis"


def index_file(folder: str | Path, kind: str) -> Path | None:
    """The index of `folder` (files of `kind`, like "cards"), or None when there is no cache folder."""
    cache = cache_folder()
    if cache is None:
        return None
    name = hashlib.blake2b(str(resolved(folder)).encode("utf-8", "surrogateescape"), digest_size=8)
    return cache / f"{kind}-{name.hexdigest()}.json"


def loader_version(modules: Iterable[str]) -> str:
    """INDEX_VERSION and the stamps of the loader's modules (by name): code that reads the files
    differently makes a different version, in a checkout or an installed package alike."""
    parts: list[str] = [str(INDEX_VERSION)]
    for name in modules:
        file = getattr(sys.modules.get(name), "__file__", None)
        found = stamp(file) if file else None
        parts.append(f"{name}:{found}")
    return hashlib.blake2b(";".join(parts).encode(), digest_size=16).hexdigest()


def stamp(path: str | Path) -> Stamp | None:
    """The file's size and times, or None when it can't be asked."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_index(path: Path | None, version: str) -> Entries:
    """The entries of the index at `path`; none when there is no index, or it is not a whole one of
    `version` (whatever is wrong with it)."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_INDEX_BYTES + 1)
        if len(data) > MAX_INDEX_BYTES:
            return {}
        header, _, body = data.partition(b"\n")
        if header != _header(version, body):
            return {}
        raw = json.loads(body)
        entries: Entries = {}
        for name, (size, mtime, ctime), value in raw:
            if not (isinstance(name, str) and all(type(n) is int for n in (size, mtime, ctime))):
                return {}
            entries[name] = ((size, mtime, ctime), value)
        return entries
    except (OSError, ValueError, TypeError, UnicodeError, RecursionError):
        return {}


def write_index(path: Path | None, version: str, entries: Mapping[str, tuple[Stamp, Any]]) -> None:
    """Keep `entries` (but those of files changed within RACY_NS) as the index at `path`; silently
    nothing when it can't be written."""
    if path is None:
        return
    now = time.time_ns()
    kept = [
        [name, list(found), value]
        for name, (found, value) in entries.items()
        if max(found[1], found[2]) < now - RACY_NS
    ]
    body = json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, _header(version, body) + b"\n" + body)
    except Exception:  # an index is never worth a traceback (a full disk, a folder that is a file, ...)
        return


def _header(version: str, body: bytes) -> bytes:
    """The index's first line: its kind, the loader's version and a hash of the rest."""
    digest = hashlib.blake2b(body, digest_size=16).hexdigest()
    return f"minis-index {version} {digest}".encode()
