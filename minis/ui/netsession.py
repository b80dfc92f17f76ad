"""A battle held by a game server, played from one seat of it: the window's `Session` over the network.

The server is the referee: this session never applies a decision itself. `apply` checks the action on
the side's projection first (a refusal is answered at once, as at one screen), sends it, and waits
for the server's answer: the new state, whose entries (the decision and the dice the server rolled)
are replayed on the old projection for the events the screen shows (`minis.net.follow`); the new
projection then becomes the game. The other player's decisions arrive the same way, one state at a
time (`next_state`, called by the battle screen between motions), and so does everything else the
server says: chat lines, offers, a lost connection (`poll`).

What is different from one screen: no autosave and no save or load (the server keeps the battle; it
is resumed from the window's list), and undo is a request to the other player (`ask_undo`).
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path
from typing import Any

from minis.base.atomic import write_atomic
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.events import Event
from minis.game import Game
from minis.net.follow import Follower
from minis.net.link import Link
from minis.net.protocol import ProtocolError, unpack_game
from minis.rules.errors import IllegalAction
from minis.ui.session import Session

__all__ = ["ANSWER_WAIT", "ChatLine", "NetSession"]

#: Seconds the window waits for the server's answer to its own decision.
ANSWER_WAIT = 20.0
#: The most chat lines kept for the screen.
CHAT_KEPT = 200

ChatLine = tuple[str, str]  # (side: "axis", "allies"; the text)


def own_dice() -> Dice:
    """Dice of the window's own, for asking the projection questions (the battle's are the server's)."""
    return Dice(seed=random.randrange(2**63))


class NetSession(Session):
    """One seat's battle on a server (`link`), from the first state the server sent with a game."""

    def __init__(self, link: Link, first: dict[str, Any], *, title: str = "") -> None:
        game = _unpacked(first)
        if game is None:
            raise ProtocolError("the battle has not begun yet")
        super().__init__(game, autosave=False)
        self.link = link
        self.side: Side = link.side
        self.title = title
        self.follower = Follower()
        self.follower.take(first, game)
        #: The last state the server sent (its `offers`, `ended`, `winner`...).
        self.status: dict[str, Any] = first
        self.chat: list[ChatLine] = []
        #: States received and not shown yet (the screen takes them one at a time, after the motion).
        self.pending: deque[dict[str, Any]] = deque()
        #: What to tell the player about the connection ("" while all is well).
        self.connection = ""
        #: Set when the server can't be reached any more (the screen offers to leave).
        self.gone = ""
        #: The server's last refusal of something other than a decision (an offer, a chat line).
        self.refusal = ""
        #: True when the last decision was this player's, rolled no dice and left the decision here:
        #: the other player may be asked to take it back (U).
        self.undo_askable = False
        #: How many events had been shown when the record was N entries long (an undo cuts back there).
        self._event_marks: dict[int, int] = {}
        #: The arrival number of the last state shown (`Link.received`).
        self.seq = int(first.get("_seq", 0))

    # --- the server's messages ---------------------------------------------------------------------------
    def poll(self) -> None:
        """Take in what the server sent: states wait in `pending`, the rest is handled at once."""
        for message in self.link.poll():
            self._note(message)

    def _note(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "state":
            if message.get("started"):
                self.pending.append(message)
            self.connection = ""
        elif kind == "chat":
            for line in message.get("lines") or []:
                if isinstance(line, dict) and isinstance(line.get("text"), str):
                    self.chat.append((str(line.get("side", "")), line["text"]))
            del self.chat[:-CHAT_KEPT]
        elif kind == "gone":
            self.gone = str(message.get("message", "the server can't be reached"))
        elif kind == "error":
            if message.get("offline"):
                self.connection = "Reconnecting to the server…"
            elif message.get("about") != "decide":
                self.refusal = str(message.get("message", ""))

    def next_state(self) -> list[Event] | None:
        """Show the next state received: its events (None when none is waiting)."""
        while self.pending:
            message = self.pending.popleft()
            if message.get("_seq", 0) < self.seq:
                continue  # came before what is shown (the answer to our own decision was taken first)
            return self.take(message)
        return None

    def take(self, message: dict[str, Any]) -> list[Event]:
        """Make a state the battle shown: its projection, and its decision's events."""
        game = _unpacked(message)
        self.status = message
        self.seq = max(self.seq, message.get("_seq", 0))
        if game is None:
            return []
        new_at = message.get("at", 0)
        if isinstance(new_at, int) and new_at < self.follower.at:  # an undo: its events go too
            del self.events[self._event_marks.get(new_at, len(self.events)) :]
        self._event_marks[self.follower.at] = len(self.events)
        followed = self.follower.take(message, game)
        self.game = game
        self._undo.clear()
        self.undo_askable = False
        self.events.extend(followed.events)
        self.last_events = list(followed.events)
        if followed.actions:
            self.last_action = followed.actions[-1]
        return list(followed.events)

    # --- the player's decisions ------------------------------------------------------------------------
    def apply(self, action: A.Action | str) -> list[Event]:
        """Send a decision and show its result (IllegalAction with the reason when it is refused: by the
        rules, checked here first, or by the server; or when no answer comes)."""
        game = self.game
        if self.over:
            raise IllegalAction("the battle is over")
        if game.decider() is not self.side:
            raise IllegalAction("it is the other player's decision")
        reason = game.is_legal(action)
        if reason is not None:
            raise IllegalAction(reason)
        text = action if isinstance(action, str) else game.format(action)
        at = at_sent = self.follower.at
        self.link.send({"kind": "decide", "action": text, "at": at})

        def answers(message: dict[str, Any]) -> bool:
            kind = message.get("kind")
            return (
                (kind == "state" and message.get("at", 0) > at)
                or (kind == "error" and message.get("about") == "decide")
                or kind == "gone"
            )

        answer = self.link.wait(answers, ANSWER_WAIT)
        if answer is None:
            self.connection = "The server has not answered: reconnecting…"
            raise IllegalAction("the server has not answered yet; the battle shows the decision once it does")
        if answer["kind"] == "gone":
            self._note(answer)
            raise IllegalAction(self.gone)
        if answer["kind"] == "error":
            raise IllegalAction(_server_reason(str(answer.get("message", "refused by the server"))))
        events = self.take(answer)
        self.last_action = text
        own = [entry for at, entry in self.follower.seen.items() if at >= at_sent]
        self.undo_askable = bool(own) and not any(e.dice for e in own) and self.game.decider() is self.side
        return events

    @property
    def far_side(self) -> Side:
        return self.side.other

    @property
    def over(self) -> bool:
        return bool(self.status.get("over")) or self.game.over

    @property
    def winner(self) -> Side | None:
        winner = self.status.get("winner")
        return Side(winner) if winner in ("axis", "allies") else None

    @property
    def can_undo(self) -> bool:
        return self.undo_askable

    @property
    def undo_text(self) -> str:
        return self.last_action if self.undo_askable else ""

    @property
    def result(self) -> tuple[Side | None, str]:
        """The server's word: a resignation or an agreed draw, else the rules' own result."""
        ended = self.status.get("ended")
        if ended == "resigned":
            loser = self.side.other if self.winner is self.side else self.side
            return self.winner, f"the {loser.title} resigned"
        if ended == "draw agreed":
            return None, "both players agreed to a draw"
        return super().result

    # --- what one screen has and a network battle has not -----------------------------------------------
    @property
    def recordable(self) -> bool:
        """Once it is over, the battle's record can be saved (the server gives it then)."""
        return self.over

    def save(self, path: str | Path) -> Path:
        """The finished battle's record from the server, written atomically (OSError if it can't be:
        the server's refusal or silence is one too, in words)."""
        import asyncio

        from minis.net.client import NetError, request

        try:
            answer = asyncio.run(
                request(self.link.url, {"kind": "record", "code": self.link.code}, timeout=10.0)
            )
        except NetError as error:
            raise OSError(f"the server gave no record: {error}") from None
        path = Path(path)
        write_atomic(path, str(answer.get("text", "")))
        return path

    def autosave(self) -> None:
        return None

    def log_lines(self) -> list[str]:
        return self.follower.lines()

    def say(self, text: str) -> None:
        """Send a chat line (the server refuses an empty or overlong one, in words)."""
        self.link.send({"kind": "chat", "text": text})

    def close(self) -> None:
        self.link.close()


def _unpacked(message: dict[str, Any]) -> Game | None:
    packed = message.get("game")
    return unpack_game(packed, own_dice()) if isinstance(packed, str) else None


def _server_reason(message: str) -> str:
    """The server's refusal as the rules' reason ("'move x' is not allowed: REASON" → REASON)."""
    marker = " is not allowed: "
    return message.split(marker, 1)[1] if marker in message else message
