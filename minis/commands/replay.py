"""`minis replay FILE`: replay a game record (or save) and print the final position.

With `--log` every event of the game is printed as it is replayed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from minis.base.sides import Side
from minis.commands import Subparsers
from minis.engine.events import Event, describe
from minis.game import Game
from minis.record import cards_version, maps_version, read_record, replay_record


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("replay", help="replay a game record and print the final position")
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record or save")
    parser.add_argument("--log", action="store_true", help="print the game log as well")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    played = record.header.get("maps_version")
    if played not in (None, maps_version()):
        print(f"note: {args.file} was played with other map files (maps version {played})")
    played_cards = record.header.get("cards_version")
    units = [*record.header.get("axis", []), *record.header.get("allies", [])]
    if played_cards not in (None, cards_version(units)):
        print(f"note: {args.file} was played with other card files (cards version {played_cards})")
    events: list[Event] | None = [] if args.log else None
    game = replay_record(record, events=events)
    for event in events or []:
        print(describe(event, game.label))
    print_position(game)
    ended = record.header.get("ended")
    if ended == "resigned":
        winner = Side(record.header["winner"])
        print(f"ended: the {winner.other.title} player resigned; winner: {winner.title}")
    elif ended is not None:
        print(f"ended: {ended} (no winner)")
    return 0


def print_position(game: Game) -> None:
    state = game.state
    where = f"turn {state.turn}, {state.phase.value}"
    if state.active is not None and state.phase.value in ("movement", "assault"):
        where += f" phase of the {state.active.title} player"
    print(where)
    if state.configuration is not None:
        print(f"configuration {state.configuration}")
    if game.over:
        print(f"winner: {state.winner.title if state.winner else 'none (draw)'}")
    for unit in sorted(state.units.values(), key=lambda u: (u.side.value, u.id)):
        if unit.removed:
            place = "destroyed"
        elif unit.hex is None:
            place = "not deployed"
        else:
            place = game.label(unit.hex) + (f" facing {unit.facing.name}" if unit.facing else "")
            if unit.carried_by:
                place += f" aboard {unit.carried_by}"
        marks = [m for m, on in (("disrupted", unit.disrupted), ("damaged", unit.damaged)) if on]
        if unit.pending:
            marks.append("face down: " + ", ".join(c.value for c in unit.pending))
        extra = f" ({'; '.join(marks)})" if marks else ""
        print(f"{unit.side.value:<7}{unit.id:<32}{place}{extra}")
