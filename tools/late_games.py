"""A ladder's games played on from a late turn by two settings of the improved search, side by side.

    python tools/late_games.py docs/ladder/hard-heuristic-s36*.json --from-turn 9 --set TO_THE_END=2

A change that acts only in a game's last turns (how deep the playouts go near the end, say) changes
nothing before them, yet a ladder of it replays every game from the first turn. This replays each game
of the chunks from its record (`docs/ladder/records/CHUNK.tar.xz`, or `--records DIR` of `.rec` files)
to the start of turn `--from-turn`, then plays the rest twice: by the chunk's first bot as shipped (A)
and with the constants of `minis.ai.sharp` that `--set NAME=VALUE` gives (B), the same opponent (the
chunk's second bot), the same dice and the same bot seeds for both. Games that ended before that turn
are left out. It prints each game where A and B ended otherwise, then the games played, A's and B's
scores and the exact sign test (McNemar's) on the games that ended otherwise, as
`tools/ladder_compare.py` does for whole ladders. A record that is missing or unreadable is reported at
its file (exit 2); a `--set` of an unknown constant or no number is refused (exit 2).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import random
import sys
import tarfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from minis.base.errors import EXIT_UNREADABLE, MinisError, Problem, unreadable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ladder_compare import results, sign_test  # tools beside this one
from ladder_pool import read_chunk

#: A game to play on: the chunk's seed, the game's number, the first bot's side, the record's text.
Task = tuple[int, int, str, str]


def record_text(summary: Path, records: Path | None, name: str) -> str:
    """A game's record: from the folder given, else from the chunk's archive beside the summaries."""
    if records is not None:
        path = records / name
        try:
            return path.read_text(encoding="utf-8")
        except OSError as error:
            raise unreadable(str(path), f"cannot read the record: {error.strerror}") from None
    archive = summary.parent / "records" / f"{summary.stem}.tar.xz"
    try:
        with tarfile.open(archive, "r:xz") as tar:
            member = tar.extractfile(name)
            if member is None:
                raise KeyError(name)
            return member.read().decode("utf-8")
    except (OSError, KeyError, tarfile.TarError) as error:
        message = f"cannot read the record {name}: {error}"
        raise unreadable(str(archive), message) from None


def parse_settings(pairs: Sequence[str]) -> dict[str, float]:
    """`NAME=VALUE` pairs, each naming a number constant of `minis.ai.sharp`."""
    from minis.ai import sharp

    found: dict[str, float] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        known = getattr(sharp, name, None)
        if not name.isupper() or not isinstance(known, int | float) or isinstance(known, bool):
            raise MinisError(
                Problem(
                    "late_games", 0, 0, f"--set {pair}: {name!r} is no number constant of minis.ai.sharp"
                ),
                exit_code=EXIT_UNREADABLE,
            )
        try:
            found[name] = int(value) if isinstance(known, int) else float(value)
        except ValueError:
            message = f"--set {pair}: {value!r} is not a number"
            raise MinisError(Problem("late_games", 0, 0, message), exit_code=EXIT_UNREADABLE) from None
    return found


def play_on(
    task: Task, bots: tuple[str, str], playouts: int | None, turn: int, settings: dict[str, float]
) -> tuple[float, float] | None:
    """The game played on from the start of `turn` by A and by B: each one's score (None: it ended sooner)."""
    from minis.ai import sharp
    from minis.ai.bot import play_out
    from minis.ai.registry import make_bot
    from minis.base.sides import Side
    from minis.dice import Dice
    from minis.record import parse_record, replay_record

    seed, number, a_side, text = task
    record = parse_record(text, f"game {number} of seed {seed}")
    entries = record.entries

    def at(count: int) -> Any:
        return replay_record(attrs.evolve(record, entries=entries[:count]), resume=True, dice=Dice(seed=0))

    low, high = 1, len(entries)
    if at(high).state.turn < turn:
        return None
    while low < high:  # the first entry after which the game is in that turn
        middle = (low + high) // 2
        if at(middle).state.turn >= turn:
            high = middle
        else:
            low = middle + 1
    if at(low).decider() is None:
        return None
    side = Side(a_side)
    scores = []
    for changes in ({}, settings):
        before = {name: getattr(sharp, name) for name in changes}
        try:
            for name, value in changes.items():
                setattr(sharp, name, value)
            game = at(low)
            game.dice = Dice(seed=seed * 1000 + number)
            first = make_bot(bots[0], seed + number, workers=0, playouts=playouts)
            second = make_bot(bots[1], seed - number, workers=0)
            play_out(game, {side: first, side.other: second}, seeds=random.Random(number))
        finally:
            for name, value in before.items():
                setattr(sharp, name, value)
        winner = game.winner
        scores.append(0.5 if winner is None else 1.0 if winner is side else 0.0)
    return scores[0], scores[1]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("summaries", nargs="+", type=Path)
    parser.add_argument(
        "--from-turn", type=int, default=9, help="the turn the games are played on from (default 9)"
    )
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="B's constant of minis.ai.sharp"
    )
    parser.add_argument(
        "--records", type=Path, help="a folder of the chunk's .rec files (default: its archive)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2; 1: in this one)")
    args = parser.parse_args(argv)
    try:
        settings = parse_settings(args.set)
        if args.from_turn < 2:
            raise MinisError(
                Problem("late_games", 0, 0, "--from-turn must be 2 or more"), exit_code=EXIT_UNREADABLE
            )
        jobs = []
        for path in args.summaries:
            chunk = read_chunk(path)
            bots = tuple(chunk["settings"]["bots"])
            counts = chunk["settings"].get("counts") or [None, None]
            for number, (a_side, _) in sorted(results(path, chunk).items()):
                row = next(r for r in chunk["results"] if r["game"] == number)
                text = record_text(path, args.records, row["record"])
                jobs.append(((chunk["seed"], number, a_side, text), bots, counts[0]))
    except MinisError as error:
        print(error, file=sys.stderr)
        return error.exit_code
    played = only_a = only_b = 0
    score_a = score_b = 0.0
    if args.workers > 1:
        with cf.ProcessPoolExecutor(args.workers) as pool:
            futures = [
                pool.submit(play_on, task, bots, count, args.from_turn, settings)
                for task, bots, count in jobs
            ]
            found = [future.result() for future in futures]
    else:
        found = [play_on(task, bots, count, args.from_turn, settings) for task, bots, count in jobs]
    for (task, _, _), scores in zip(jobs, found, strict=True):
        if scores is None:
            continue
        a, b = scores
        played += 1
        score_a += a
        score_b += b
        if a != b:
            only_a += a > b
            only_b += b > a
            print(f"seed {task[0]} game {task[1]}: A {a:g}, B {b:g}")
    changed = ", ".join(args.set) or "as A"
    print(
        f"from turn {args.from_turn}, {played} games: A scores {score_a:g}, B ({changed}) {score_b:g}; "
        f"ended otherwise {only_a + only_b}: only A won {only_a}, only B won {only_b} "
        f"(sign test p = {sign_test(only_a, only_b):.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
