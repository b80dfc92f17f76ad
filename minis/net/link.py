"""A seat's connection for a window: the asyncio client (`SeatClient`) in a thread of its own.

The window's thread never waits on the network except for the answer to its own decision (`wait`):
every message the server sends lands in a queue that the window empties once a frame (`poll`), so the
window keeps drawing while the other player thinks. `send` hands a message to the connection's loop;
when the connection is down it puts an `error` (with `offline`) in the queue instead. A connection
lost for longer than its patience ends with a `gone` message (the window says so and offers to go
back); the client reconnects by itself until then.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from minis.base.sides import Side
from minis.net.client import LOST, NetError, SeatClient, SeatRefused

__all__ = ["Link"]

#: Seconds a message waits for the connection to hold the seat (a reconnection) before it is given up.
BIND_WAIT = 10.0
#: What is said when a message cannot go out (the connection is being restored).
OFFLINE = "not connected to the server just now (trying again): try again in a moment"


class Link:
    """One seat at a battle on a server, kept connected from a background thread."""

    def __init__(
        self, url: str, code: str, side: Side, *, token: str | None = None, patience: float = 60.0
    ) -> None:
        self.url, self.code, self.side = url, code, side
        self.client = SeatClient(url, code, side, token=token, patience=patience)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        #: Messages `wait` took out of the queue that were not the one it waited for (`poll` gives
        #: them first, in order).
        self._held: deque[dict[str, Any]] = deque()
        #: Messages received so far: each carries its number as `_seq` (the order they came in).
        self.received = 0
        #: True once the connection has ended for good (stopped, or the server gone too long).
        self.ended = False
        self._closing: asyncio.Task[None] | None = None
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=f"minis-link-{code}", daemon=True)
        self._thread.start()

    @property
    def token(self) -> str | None:
        return self.client.token

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        finally:
            self.loop.close()

    async def _main(self) -> None:
        async def got(_: SeatClient, message: dict[str, Any]) -> None:
            self.received += 1
            self.inbox.put({**message, "_seq": self.received})

        try:
            await self.client.run(got, got)
            self.ended = True
        except NetError as error:
            self.ended = True
            refused = isinstance(error, SeatRefused)
            self.inbox.put({"kind": "gone", "message": str(error), "refused": refused})
        except Exception as error:  # the client's own fault: the window says so, never a traceback
            self.ended = True
            self.inbox.put({"kind": "gone", "message": f"the connection failed ({type(error).__name__})"})

    def send(self, message: dict[str, Any]) -> None:
        """Send `message` to the server from any thread (an `offline` error comes back if it can't)."""

        async def go() -> None:
            try:
                await asyncio.wait_for(self.client.bound.wait(), BIND_WAIT)
                await self.client.send(message)
            except (*LOST, ConnectionError):
                self.inbox.put(_offline(message))

        if self.ended or self.loop.is_closed():
            self.inbox.put(_offline(message))
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the window is leaving
            asyncio.run_coroutine_threadsafe(go(), self.loop)

    def poll(self) -> list[dict[str, Any]]:
        """Every message received since the last poll, in order (never waits)."""
        messages = list(self._held)
        self._held.clear()
        while True:
            try:
                messages.append(self.inbox.get_nowait())
            except queue.Empty:
                return messages

    def put_back(self, messages: list[dict[str, Any]]) -> None:
        """Messages polled and not handled (a screen that hands the battle on): the next `poll` or
        `wait` gives them first, in order."""
        self._held.extendleft(reversed(messages))

    def wait(self, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any] | None:
        """The first message `wanted` accepts, within `timeout` seconds (None if none came); the
        others stay for `poll`, in order."""
        for message in list(self._held):
            if wanted(message):
                self._held.remove(message)
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                return None
            if wanted(message):
                return message
            self._held.append(message)

    def close(self, timeout: float = 5.0) -> None:
        """Leave the battle (the seat stays the player's: its token resumes it) and end the thread."""

        def stop() -> None:  # on the link's own loop
            self.client.stop()
            ws = self.client._ws
            if ws is not None:
                self._closing = self.loop.create_task(ws.close())

        if self._thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile: nothing to stop
                self.loop.call_soon_threadsafe(stop)
        self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return not self.ended and self._thread.is_alive()


def _offline(message: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "error", "about": message.get("kind"), "message": OFFLINE, "offline": True}
