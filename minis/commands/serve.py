"""`minis serve [--host H] [--port P] [--data DIR] [--certfile F --keyfile F]`: the game server.

It holds many battles in one process, in a SQLite file under DIR (default: the user's minis data
folder, `server`), and prints `port=PORT` once it listens (port 0: any free port). docs/network.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import ssl
import sys
from collections.abc import Callable
from pathlib import Path

from minis.base.data import user_folder
from minis.base.errors import EXIT_UNREADABLE, MinisError, Problem
from minis.commands import Subparsers

#: The SQLite file's name in the data folder.
DATABASE = "battles.sqlite"


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="host battles for players on other machines (docs/network.md)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every network)")
    parser.add_argument(
        "--port", type=int, default=8765, help="port to listen on (default 8765; 0: any free)"
    )
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="folder of the battles' SQLite file (default: $MINIS_SERVER, else minis's data folder 'server')",
    )
    parser.add_argument("--certfile", type=Path, metavar="F", help="TLS certificate: serve wss:// directly")
    parser.add_argument("--keyfile", type=Path, metavar="F", help="TLS private key (with --certfile)")
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)  # tests only: reproducible dice
    parser.add_argument("--first-message", type=float, default=10.0, help=argparse.SUPPRESS)  # tests only
    parser.set_defaults(func=run)


class _NoClientTracebacks(logging.Filter):
    """The websockets library logs a client's broken handshake with its traceback: keep the line only."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


def run(args: argparse.Namespace) -> int:
    if (args.certfile is None) != (args.keyfile is None):
        raise MinisError(
            Problem("serve", 0, 0, "--certfile and --keyfile go together"), exit_code=EXIT_UNREADABLE
        )
    if not 0 <= args.port <= 65535:
        raise MinisError(
            Problem("serve", 0, 0, "--port is a number from 0 to 65535"), exit_code=EXIT_UNREADABLE
        )
    context = None
    if args.certfile is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as error:
            raise MinisError(
                Problem(str(args.certfile), 0, 0, f"cannot load the certificate and key: {error}"),
                exit_code=EXIT_UNREADABLE,
            ) from None
    folder = args.data if args.data is not None else user_folder("server", "MINIS_SERVER")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").addFilter(_NoClientTracebacks())
    for name in ("websockets.server", "websockets.asyncio.server"):
        logging.getLogger(name).addFilter(_NoClientTracebacks())
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args, folder, context))
    return 0


def _stopper(stop: asyncio.Future[None]) -> Callable[[], None]:
    """What a SIGTERM or SIGINT does: end the server (its battles are all stored already)."""

    def end() -> None:
        if not stop.done():
            stop.set_result(None)

    return end


async def _serve(args: argparse.Namespace, folder: Path, context: ssl.SSLContext | None) -> None:
    from websockets.asyncio.server import serve

    from minis.net.server import SERVE_OPTIONS, GameServer, Limits
    from minis.net.store import Store

    try:
        store = Store(folder / DATABASE)
    except (OSError, sqlite3.Error) as error:
        raise MinisError(
            Problem(str(folder / DATABASE), 0, 0, f"cannot open the battles' file: {error}"),
            exit_code=EXIT_UNREADABLE,
        ) from None
    server = GameServer(store, seed=args.seed, limits=Limits(first_message=args.first_message))
    loaded = server.load()
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, _stopper(stop))
    try:
        async with serve(
            server.handler,
            args.host,
            args.port,
            ssl=context,
            **SERVE_OPTIONS,
            logger=logging.getLogger("websockets.server"),
        ) as listening:
            port = next(iter(listening.sockets)).getsockname()[1]
            scheme = "wss" if context is not None else "ws"
            logging.getLogger("minis.net.server").info(
                "%d battles loaded from %s; listening on %s://%s:%d",
                loaded,
                store.path,
                scheme,
                args.host,
                port,
            )
            print(f"port={port}", flush=True)
            await stop
    except OSError as error:
        raise MinisError(
            Problem("serve", 0, 0, f"cannot listen on {args.host}:{args.port}: {error.strerror or error}"),
            exit_code=EXIT_UNREADABLE,
        ) from None
    finally:
        store.close()
