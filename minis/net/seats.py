"""The player's seats at network battles, kept in their minis data folder so that a battle can be
resumed from the window's list after the window was closed (`seats.json` in the folder `network`:
$MINIS_NETWORK, else $XDG_DATA_HOME/minis/network, else ~/.local/share/minis/network).

A seat's token is its key: the file is written atomically and readable by its owner only. A file
that can't be read lists no seats (and is left as it is: nothing a player made is thrown away).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

import attrs

from minis.base.atomic import write_atomic
from minis.base.data import user_folder

__all__ = ["StoredSeat", "forget", "load_seats", "remember", "seats_file"]

#: The most seats kept (the oldest go first).
MOST = 200


@attrs.frozen
class StoredSeat:
    """A seat the player holds: the server, the battle's invitation code, the side, the token, what
    the battle is (its title as the window showed it), the spectator code if the player made it, and
    when it was taken."""

    url: str
    code: str
    side: str
    token: str
    title: str = ""
    spectate: str = ""
    made: float = 0.0


def seats_file() -> Path:
    return user_folder("network", "MINIS_NETWORK") / "seats.json"


def load_seats(path: Path | None = None) -> list[StoredSeat]:
    """The stored seats, newest first ([] for a missing or unreadable file)."""
    path = path if path is not None else seats_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    seats = []
    for item in data.get("seats", []) if isinstance(data, dict) else []:
        seat = _seat(item)
        if seat is not None:
            seats.append(seat)
    return sorted(seats, key=lambda seat: -seat.made)


def _seat(item: Any) -> StoredSeat | None:
    if not isinstance(item, dict):
        return None
    fields = ("url", "code", "side", "token")
    if not all(isinstance(item.get(name), str) for name in fields) or item["side"] not in ("axis", "allies"):
        return None
    made = item.get("made", 0.0)
    return StoredSeat(
        item["url"],
        item["code"],
        item["side"],
        item["token"],
        str(item.get("title", ""))[:200],
        str(item.get("spectate", ""))[:40],
        float(made) if isinstance(made, int | float) else 0.0,
    )


def remember(seat: StoredSeat, path: Path | None = None) -> None:
    """Keep `seat` (in place of an older entry for the same battle and side). OSError if the file
    can't be written."""
    path = path if path is not None else seats_file()
    seat = seat if seat.made else attrs.evolve(seat, made=time.time())
    kept = [
        old for old in load_seats(path) if (old.url, old.code, old.side) != (seat.url, seat.code, seat.side)
    ]
    _write(path, [seat, *kept][:MOST])


def forget(url: str, code: str, side: str, path: Path | None = None) -> None:
    path = path if path is not None else seats_file()
    kept = [old for old in load_seats(path) if (old.url, old.code, old.side) != (url, code, side)]
    _write(path, kept)


def _write(path: Path, seats: list[StoredSeat]) -> None:
    """The file written atomically; made readable by its owner only the first time (a token is a key,
    and `write_atomic` keeps a file's permissions)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    write_atomic(path, json.dumps({"seats": [attrs.asdict(seat) for seat in seats]}, indent=1) + "\n")
