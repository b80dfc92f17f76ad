"""The game server under load: N battles at once between network bots on loopback, one process.

The server runs in this process's event loop (as `minis serve` runs it) and the 2N bots (random
strength, each a `SeatClient` deciding on the projection it receives) share the loop. Prints the
server's median and 95th-percentile time from a decision received to its result sent (measured inside
the server: check, apply, store in SQLite, pack each seat's projection, send), decisions a second, and
the process's resident memory per battle (bots included, so an upper bound). `server_work_ms` is the
server's own part of a decision (checked, applied, stored, every state made), without the waits for the
event loop that the bots in the same process cause.

    PYTHONPATH=. python tools/net_load.py --battles 20
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import tempfile
import time
from pathlib import Path

from websockets.asyncio.server import serve

from minis.net.bot import play_seat
from minis.net.client import request
from minis.net.server import SERVE_OPTIONS, GameServer
from minis.net.store import Store
from minis.sides import Side

ROOT = Path(__file__).resolve().parent.parent


async def load(battles: int, turns: int, data: Path) -> None:
    store = Store(data / "battles.sqlite")
    server = GameServer(store, seed=1)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    axis = (ROOT / "armies" / "sample-axis.toml").read_text()
    allies = (ROOT / "armies" / "sample-allies.toml").read_text()
    async with serve(server.handler, "127.0.0.1", 0, **SERVE_OPTIONS) as listening:
        url = f"ws://127.0.0.1:{next(iter(listening.sockets)).getsockname()[1]}"
        codes = [
            (await request(url, {"kind": "new", "config": 1 + n % 6, "turn_limit": turns}))["code"]
            for n in range(battles)
        ]
        started = time.perf_counter()
        players = [
            play_seat(url, code, side, army, strength="random", seed=n, quiet=True)
            for n, code in enumerate(codes)
            for side, army in ((Side.AXIS, axis), (Side.ALLIES, allies))
        ]
        await asyncio.gather(*players)
        elapsed = time.perf_counter() - started
    store.close()
    timings = sorted(server.timings)
    work = sorted(server.work_timings)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(
        f"battles={battles} decisions={len(timings)} seconds={elapsed:.1f} per_s={len(timings) / elapsed:.0f}"
    )
    print(f"decision_ms median={statistics.median(timings) * 1000:.2f} p95={p95 * 1000:.2f}")
    work_p95 = work[int(0.95 * (len(work) - 1))]
    print(f"server_work_ms median={statistics.median(work) * 1000:.2f} p95={work_p95 * 1000:.2f}")
    print(f"memory_mb_per_battle<={(rss - rss_before) / 1024 / battles:.2f} (peak RSS {rss / 1024:.0f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--turns", type=int, default=4, help="the battles' turn limit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="minis-net-load-") as folder:
        asyncio.run(load(args.battles, args.turns, Path(folder)))


if __name__ == "__main__":
    main()
