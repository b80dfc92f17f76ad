"""A game server inside the window's process: "host on this machine" without a second program.

The same server as `minis serve` (its battles in the same SQLite file under the player's data folder,
so `minis serve` started later holds them too), in a thread with an event loop of its own. It lives as
long as the window: closing the window stops it, and the battles wait, stored, for the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from minis.base.data import user_folder
from minis.net.client import NetError

if TYPE_CHECKING:
    from minis.net.server import GameServer

__all__ = ["DATABASE", "DEFAULT_PORT", "LocalServer", "lan_address", "server_folder"]

DATABASE = "battles.sqlite"
DEFAULT_PORT = 8765


def server_folder() -> Path:
    """Where the server's battles live: $MINIS_SERVER, else minis's data folder `server`."""
    return user_folder("server", "MINIS_SERVER")


class LocalServer:
    """A game server in a background thread, listening on `host:port` (port 0: any free)."""

    def __init__(
        self,
        folder: Path | None = None,
        host: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        seed: int | None = None,
    ) -> None:
        self.folder = folder if folder is not None else server_folder()
        self.host, self.port, self.seed = host, port, seed
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Future[None] | None = None
        self._ready = threading.Event()
        self._error = ""
        self._thread: threading.Thread | None = None
        #: The server while it runs (its battles: for a test's eyes, from the server's own thread).
        self.server: GameServer | None = None

    @property
    def url(self) -> str:
        """The address this machine's own windows use."""
        return f"ws://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 15.0) -> str:
        """Start listening; the server's address. NetError (in plain words) if it can't."""
        if self.running:
            return self.url
        self._ready.clear()
        self._error = ""
        self._thread = threading.Thread(target=self._run, name="minis-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise NetError("the server on this machine did not start in time")
        if self._error:
            self._thread.join(5)
            raise NetError(self._error)
        return self.url

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        finally:
            loop.close()
            self._ready.set()

    async def _serve(self) -> None:
        import sqlite3

        from websockets.asyncio.server import serve

        from minis.net.server import SERVE_OPTIONS, GameServer
        from minis.net.store import Store

        try:
            store = Store(self.folder / DATABASE)
        except (OSError, sqlite3.Error) as error:
            self._error = f"cannot open the battles' file {self.folder / DATABASE}: {error}"
            self._ready.set()
            return
        try:
            server = self.server = GameServer(store, seed=self.seed)
            server.load()
            self._stop = asyncio.get_running_loop().create_future()
            try:
                async with serve(server.handler, self.host, self.port, **SERVE_OPTIONS) as listening:
                    self.port = next(iter(listening.sockets)).getsockname()[1]
                    self._ready.set()
                    await self._stop
            except OSError as error:
                self._error = f"cannot listen on port {self.port}: {error.strerror or error}"
                self._ready.set()
        finally:
            store.close()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop listening (every battle is stored already)."""
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_finish, stop)
        if self._thread is not None:
            self._thread.join(timeout)


def _finish(stop: asyncio.Future[None]) -> None:
    if not stop.done():
        stop.set_result(None)


def lan_address() -> str:
    """This machine's address on its local network, as the other player would use it (no packet is
    sent: a datagram socket's route gives it); '127.0.0.1' when there is no network."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: never reached
        address = probe.getsockname()[0]
        if isinstance(address, str):
            return address
    return "127.0.0.1"
