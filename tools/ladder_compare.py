"""Two ladders on the same games, game by game: `python tools/ladder_compare.py A.json... --vs B.json...`.

Two versions of a bot (another count of playouts, deeper playouts, a new leaf) each play the same
chunks against the same opponent: the same seeds, so the same armies, maps and dice to start with. Their
scores, each with its own interval, differ by less than the intervals' width long before 200 games;
game by game they say more: most games end alike, and only the games that ended otherwise carry the
difference (an exact sign test on them, McNemar's). This prints, for the chunks both sides have (matched
by seed and first pair), how many games ended alike, how many only A won and only B won, both scores
and the two-sided p-value of the sign test. Chunks must be of the same opponent, armies, configurations,
rules and turn limit (what makes the games the same); what describes the bot itself may differ.
Files that are no summary are refused at their line and column (exit 2), chunks that are not the
same games with the reason (exit 1).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minis.base.errors import MinisError, Problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ladder_pool import read_chunk  # a tool beside this one

#: The settings that make two chunks' games the same games (the first bot's own settings may differ).
SAME_GAMES = ("armies", "armies_version", "axis", "allies", "config", "all_configs", "rules", "turn_limit")


def results(path: Path, chunk: dict[str, Any]) -> dict[int, tuple[str, float]]:
    """Each game's side of the first bot and its score, by the game's number."""
    found: dict[int, tuple[str, float]] = {}
    rows = chunk.get("results")
    if not isinstance(rows, list) or len(rows) != chunk["games"]:
        raise MinisError(Problem(str(path), 1, 1, "not a ladder summary: 'results' is missing or wrong"))
    for row in rows:
        ok = (
            isinstance(row, dict) and type(row.get("game")) is int and row.get("a_side") in ("axis", "allies")
        )
        if not ok or row.get("score") not in (0, 0.5, 1):
            raise MinisError(Problem(str(path), 1, 1, f"not a ladder summary: a result is wrong: {row!r}"))
        found[row["game"]] = (row["a_side"], float(row["score"]))
    return found


def sign_test(only_a: int, only_b: int) -> float:
    """The two-sided p-value of the exact sign test: how likely a split at least this uneven is when
    each game that ended otherwise was as likely to go either way."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / float(2**n)
    return min(1.0, 2 * tail)


def describe(chunk: dict[str, Any]) -> str:
    """The first bot as the chunk played it: its name, its playouts and turns when it has them."""
    settings = chunk["settings"]
    words = [str(settings["bots"][0])]
    counts = settings.get("counts")
    if not isinstance(counts, list):  # a summary from before the counts were kept: the option's
        counts = [settings.get("playouts")]
    if counts and counts[0] is not None:
        words.append(f"{counts[0]} playouts")
    turns = settings.get("turns")
    if isinstance(turns, list) and turns and turns[0] is not None:
        words.append(f"{turns[0]} turns a playout")
    return words[0] + (f" ({', '.join(words[1:])})" if len(words) > 1 else "")


def compare(a: Sequence[tuple[Path, dict[str, Any]]], b: Sequence[tuple[Path, dict[str, Any]]]) -> str:
    """The lines of the comparison; MinisError when the chunks are not of the same games."""
    by_key = {(chunk["seed"], chunk["first_pair"]): (path, chunk) for path, chunk in b}
    first_path, first = a[0]
    alike = only_a = only_b = 0
    score_a = score_b = 0.0
    games = 0
    seeds: list[int] = []
    for path, chunk in [*a, *b]:
        for key in (*SAME_GAMES, "opponent"):
            mine = chunk["settings"]["bots"][1] if key == "opponent" else chunk["settings"].get(key)
            theirs = first["settings"]["bots"][1] if key == "opponent" else first["settings"].get(key)
            if mine != theirs:
                message = f"not the same games as {first_path}: {key} {mine!r} here, {theirs!r} there"
                raise MinisError(Problem(str(path), 1, 1, message))
    for path, chunk in a:
        match = by_key.get((chunk["seed"], chunk["first_pair"]))
        if match is None:
            continue
        other_path, other = match
        mine, theirs = results(path, chunk), results(other_path, other)
        if {n: side for n, (side, _) in mine.items()} != {n: side for n, (side, _) in theirs.items()}:
            message = f"not the same games as {other_path}: the games or their sides differ"
            raise MinisError(Problem(str(path), 1, 1, message))
        seeds.append(chunk["seed"])
        for number, (_, score) in mine.items():
            other_score = theirs[number][1]
            games += 1
            score_a += score
            score_b += other_score
            if score == other_score:
                alike += 1
            elif score > other_score:
                only_a += 1
            else:
                only_b += 1
    if not games:
        raise MinisError(
            Problem(str(first_path), 1, 1, "no chunk of these is among the others (seed, first pair)")
        )
    name_a, name_b = describe(first), describe(b[0][1])
    opponent = first["settings"]["bots"][1]
    return "\n".join(
        (
            f"A: {name_a}; B: {name_b}; against {opponent}, the same {games} games "
            f"({len(seeds)} chunk{'s' if len(seeds) > 1 else ''}, seed{'s' if len(seeds) > 1 else ''} "
            f"{', '.join(str(s) for s in sorted(seeds))})",
            f"ended alike {alike}; A better {only_a}; B better {only_b}",
            f"A scores {score_a / games:.2f}, B {score_b / games:.2f}; sign test on the {only_a + only_b} "
            f"games that ended otherwise: p = {sign_test(only_a, only_b):.2f}",
        )
    )


def main(argv: Sequence[str]) -> int:
    if "--vs" not in argv or argv.index("--vs") == 0 or argv[-1] == "--vs":
        print("usage: python tools/ladder_compare.py A.json... --vs B.json...", file=sys.stderr)
        return 1
    cut = list(argv).index("--vs")
    try:
        a = [(Path(name), read_chunk(Path(name))) for name in argv[:cut]]
        b = [(Path(name), read_chunk(Path(name))) for name in argv[cut + 1 :]]
        print(compare(a, b))
    except MinisError as error:
        print(error, file=sys.stderr)
        return error.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
