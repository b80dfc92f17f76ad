"""Game servers for the tests: one in this process (`served`) and one as a process of its own
(`ServerProcess`, which a test can kill with SIGKILL and start again on the same port and data).

Every server listens on 127.0.0.1; the first start takes port 0 (a free port the system picks); every
wait is bounded, and every test stops what it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

from websockets.asyncio.server import serve

from minis.net.server import SERVE_OPTIONS, GameServer, Limits
from minis.net.store import Store
from tests.fuzzing import alarm

ROOT = Path(__file__).resolve().parent.parent
ARMIES = ROOT / "armies"


def time_limit(seconds: float) -> contextlib.AbstractContextManager[None]:
    """Stop the test with `TimeLimit` after `seconds` (main thread only), so nothing can hang the suite:
    the fuzz tests' own alarm (`tests.fuzzing.alarm`)."""
    return alarm(seconds)


@contextlib.asynccontextmanager
async def served(
    data: Path, seed: int | None = 1, limits: Limits | None = None
) -> AsyncIterator[tuple[GameServer, str]]:
    """A game server in this process's event loop on a free port: the server and its URL."""
    store = Store(data / "battles.sqlite")
    server = GameServer(store, seed=seed, limits=limits)
    server.load()
    try:
        async with serve(server.handler, "127.0.0.1", 0, **SERVE_OPTIONS) as listening:
            port = next(iter(listening.sockets)).getsockname()[1]
            yield server, f"ws://127.0.0.1:{port}"
    finally:
        store.close()


def minis_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "minis", *args]


def environment() -> dict[str, str]:
    """This tree first on the path of every process a test starts."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


class ServerProcess:
    """`minis serve` as a process: `start()` (port 0 the first time, the same port after), `kill()`
    (SIGKILL, as a crash), `stop()`; its stderr is kept in a file the test reads."""

    def __init__(self, data: Path, seed: int | None = 1, *extra: str) -> None:
        self.data = data
        self.seed = seed
        self.extra = extra
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr = data / "server-stderr.txt"
        self.starts = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        args = ["serve", "--port", str(self.port), "--data", str(self.data), *self.extra]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        with self.stderr.open("ab") as err:
            self.process = subprocess.Popen(
                minis_command(*args), stdout=subprocess.PIPE, stderr=err, env=environment(), cwd=ROOT
            )
        self.starts += 1
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        line = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                line = self.process.stdout.readline()
                if line.startswith(b"port="):
                    self.port = int(line.split(b"=")[1])
                    return
                if not line:
                    break
            if self.process.poll() is not None:
                break
        self.stop()
        raise AssertionError(f"the server did not start: {line!r}\n{self.stderr.read_text()[-2000:]}")

    def start_again(self, timeout: float = 30.0) -> None:
        """Start on the same port (the port may take a moment to be free after a kill)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.start(timeout=deadline - time.monotonic())
                return
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self._close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._close()

    def _close(self) -> None:
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def log(self) -> str:
        return self.stderr.read_text(errors="replace") if self.stderr.exists() else ""


def stop_all(players: list[subprocess.Popen[str]], server: ServerProcess) -> None:
    """End what a test started: the player processes still running, then the server."""
    for player in players:
        if player.poll() is None:
            player.kill()
            player.communicate()
    server.stop()


async def wait_for(condition: object, timeout: float) -> None:
    """Poll `condition()` until it is true (bounded)."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true")
        await asyncio.sleep(0.02)
