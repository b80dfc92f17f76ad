"""`minis net new URL ...` and `minis net record URL CODE FILE`: a battle on a game server, from the
command line (docs/network.md). `new` prints the spectator code, then `code=CODE` as its last line."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError, Problem
from minis.commands import Subparsers
from minis.content import rule_sets


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("net", help="make a battle on a game server, fetch its record")
    commands = parser.add_subparsers(dest="net_command", metavar="ACTION", required=True)
    new = commands.add_parser("new", help="make a battle; prints code=CODE (the invitation) last")
    new.add_argument("url", metavar="URL", help="the server, ws://HOST:PORT or wss://HOST")
    new.add_argument("--config", type=int, choices=range(1, 7), metavar="N", help="map configuration 1-6")
    new.add_argument("--rules", metavar="NAME", help=f"the rule set: {', '.join(rule_sets.NAMED)}")
    new.add_argument(
        "--scenario",
        default="standard",
        metavar="standard|assault|FILE",
        help="the rulebook's Standard or Assault, or a scenario file (it sets the map, rules and turns)",
    )
    new.add_argument("--attacker", choices=("axis", "allies"), help="an Assault's attacker (default axis)")
    new.add_argument("--turn-limit", type=int, metavar="T", help="a battle undecided after turn T is a draw")
    new.set_defaults(func=run_new)
    record = commands.add_parser("record", help="write a finished battle's record (minis replay reads it)")
    record.add_argument("url", metavar="URL")
    record.add_argument("code", metavar="CODE", help="the invitation or spectator code")
    record.add_argument("file", type=Path, metavar="FILE")
    record.set_defaults(func=run_record)


def _ask(url: str, message: dict[str, object]) -> dict[str, object]:
    from minis.net.client import NetError, request

    try:
        return asyncio.run(request(url, message))
    except NetError as error:
        reachable = not str(error).startswith("cannot reach") and "not a server address" not in str(error)
        raise MinisError(
            Problem(url, 0, 0, str(error)), exit_code=EXIT_CHECK if reachable else EXIT_UNREADABLE
        ) from None


def run_new(args: argparse.Namespace) -> int:
    from minis.net.client import new_message

    message = new_message(
        config=args.config,
        rules=args.rules,
        scenario=args.scenario,
        attacker=args.attacker,
        turn_limit=args.turn_limit,
    )
    answer = _ask(args.url, message)
    print(f"spectate={answer['spectate']}")
    print(f"code={answer['code']}")
    return 0


def run_record(args: argparse.Namespace) -> int:
    from minis.base.atomic import write_atomic

    answer = _ask(args.url, {"kind": "record", "code": args.code})
    try:
        write_atomic(args.file, str(answer["text"]))
    except OSError as error:
        raise MinisError(
            Problem(str(args.file), 0, 0, f"cannot write the record: {error.strerror or error}"),
            exit_code=EXIT_UNREADABLE,
        ) from None
    print(f"record written to {args.file}")
    return 0
