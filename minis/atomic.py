"""Atomic file writes: a file a user made is either the old version or the whole new one, never half.

Every save in the project (game records and saves, army, map and scenario files, pictures) goes through
`write_atomic`: a temporary file in the same folder is written, flushed and synced, then renamed over the
target, which a crash or a full disk cannot leave half-written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write a file so that it is either the old or the new version, never half of one.

    `bytes` are written as they are (pictures); text as UTF-8 with \\n line ends. The file keeps the
    permissions of the one it replaces (a new one gets the usual ones, not mkstemp's owner-only).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not isinstance(text, str | bytes):
        raise TypeError(f"write_atomic writes str or bytes, not {type(text).__name__}")
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
