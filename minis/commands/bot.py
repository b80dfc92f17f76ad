"""`minis bot URL CODE --side axis|allies [--strength S] [--army FILE]`: the computer takes a seat on a
game server and plays the whole battle; prints `winner=axis`, `winner=allies` or `winner=none` last."""

from __future__ import annotations

import argparse
import asyncio
import secrets
from pathlib import Path

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem
from minis.commands import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("bot", help="the computer plays a seat of a battle on a game server")
    parser.add_argument("url", metavar="URL", help="the server, ws://HOST:PORT or wss://HOST")
    parser.add_argument("code", metavar="CODE", help="the battle's invitation code")
    parser.add_argument("--side", required=True, choices=("axis", "allies"))
    parser.add_argument(
        "--strength",
        default="easy",
        choices=("random", "easy", "normal", "hard"),
        help="how well it plays (random: fastest, for tests; default easy)",
    )
    parser.add_argument(
        "--army",
        type=Path,
        metavar="FILE",
        help="its army file (default: the shipped sample army of its side)",
    )
    parser.add_argument("--seed", type=int, help="seed of its decisions (default: random)")
    parser.add_argument(
        "--patience", type=float, default=60.0, help=argparse.SUPPRESS
    )  # seconds without a server
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="think about this long before each decision (half to one and a half times it; default 0)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from minis.base.data import shipped_file
    from minis.base.paths import read_bytes
    from minis.base.sides import Side
    from minis.net.bot import play_seat
    from minis.net.client import NetError

    if not 0.0 <= args.pause <= 60.0:  # NaN and infinity too: a bot that never decides
        raise MinisError(
            Problem("bot", 0, 0, "--pause is a number of seconds from 0 to 60"), exit_code=EXIT_UNREADABLE
        )
    side = Side(args.side)
    path = args.army if args.army is not None else shipped_file(f"sample-{side.value}", "armies")
    text = read_bytes(path).decode("utf-8", "replace")
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    try:
        winner = asyncio.run(
            play_seat(
                args.url,
                args.code,
                side,
                text,
                strength=args.strength,
                seed=seed,
                patience=args.patience,
                pause=args.pause,
            )
        )
    except NetError as error:
        raise MinisError(Problem(args.url, 0, 0, str(error)), exit_code=EXIT_CHECK) from None
    print(f"winner={winner.value if winner is not None else 'none'}")
    return 0
