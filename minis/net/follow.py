"""Following a battle from a seat: the server's states turned into what a window shows.

Each state the server sends carries the side's projection (the truth the window shows and asks
questions of) and the record's entries the side may see (`entries`: the decision's action and the
dice the server rolled for it). Replaying those entries on the previous projection, with exactly
those dice, gives the decision's events: the table's motion, the "what happened" panel, the log.
When they cannot be replayed (the other army's set-up decisions are not sent; a state was missed)
the window shows the new projection without them. Either way the projection is what is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from minis.dice import Dice
from minis.engine.events import Event
from minis.game import Game, RecordEntry
from minis.net.protocol import ProtocolError

__all__ = ["Followed", "Follower", "entries_of"]


def entries_of(message: dict[str, Any]) -> list[tuple[int, RecordEntry]]:
    """A state's `entries` as (place in the record, entry); ProtocolError if they are malformed."""
    raw = message.get("entries") or []
    if not isinstance(raw, list):
        raise ProtocolError("a state's entries must be a list")
    entries = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 3):
            raise ProtocolError("a state's entry is [at, action, dice]")
        at, action, dice = item
        if not isinstance(at, int) or not (action is None or isinstance(action, str)):
            raise ProtocolError("a state's entry is [at, action, dice]")
        if not isinstance(dice, list) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise ProtocolError("a state's entry has dice from 1 to 6")
        entries.append((at, RecordEntry(action, tuple(dice))))
    return entries


@attrs.frozen
class Followed:
    """What one state changed: the decision's events (empty when they could not be replayed) and
    its actions in the notation (what the log shows)."""

    events: list[Event]
    actions: list[str]
    replayed: bool


class Follower:
    """The seat's battle as it goes: the latest projection (`game`), the record lines seen so far
    (`lines`: for the log), and `take(message, game)` for each new state."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.at = 0
        #: The record entries this seat has seen, by place (a resumed seat gets them all once nothing
        #: is hidden; before that only its own decisions).
        self.seen: dict[int, RecordEntry] = {}

    def take(self, message: dict[str, Any], game: Game | None) -> Followed:
        """Adopt a state and its projection; the events of its entries, replayed where possible."""
        entries = entries_of(message)
        for at, entry in entries:
            self.seen[at] = entry
        previous, start = self.game, self.at
        new_at = message.get("at", 0)
        if isinstance(new_at, int) and new_at < start:  # an undo took entries back
            for at in [at for at in self.seen if at >= new_at]:
                del self.seen[at]
        events: list[Event] = []
        replayed = False
        fresh = [entry for at, entry in entries if at >= start]
        if previous is not None and game is not None and fresh and entries[0][0] <= start:
            played = replay(previous, fresh)
            if played is not None:
                events, replayed = played[1], True
        self.game = game
        self.at = new_at if isinstance(new_at, int) else start
        return Followed(events, [entry.action for entry in fresh if entry.action is not None], replayed)

    def lines(self) -> list[str]:
        """The record as this seat saw it, one line an entry (`action | dice`), in order."""
        out = []
        for at in sorted(self.seen):
            entry = self.seen[at]
            dice = " ".join(str(d) for d in entry.dice)
            action = entry.action if entry.action is not None else "start"
            out.append(f"{action} | {dice}" if dice else action)
        return out


def replay(game: Game, entries: Sequence[RecordEntry]) -> tuple[Game, list[Event]] | None:
    """`entries` played on a copy of `game` with their own dice: the copy and the events; None when
    they do not replay there exactly (every die used, no action refused)."""
    twin = game.copy()
    events: list[Event] = []
    try:
        for entry in entries:
            if entry.action is None:
                return None
            twin.dice = Dice.scripted(entry.dice)
            events += twin.apply(entry.action)
            if twin.dice.remaining():
                return None
    except Exception:  # refused, short of dice, or the projection lacks what it needs: no motion then
        return None
    return twin, events
