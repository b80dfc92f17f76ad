"""Pool the chunks of a ladder: `python tools/ladder_pool.py FILE.json...` (files of `minis match --summary`).

A ladder of 200 games takes hours, so it is played in chunks across sessions, each with its own
`--seed` (and `--first-pair`, to walk a folder's army pairs), each writing a summary. This prints one
line for them all: BOT_A's score with its Wilson 95% interval, the twin pairs, each bot's median and
longest time a decision, and the seeds. Chunks pool only when they are of the same bots and settings
(armies, configurations, budget, rules, turn limit, the fingerprint of their play, each bot's count of
playouts as played and, when not 1, its turns a playout) and no two share a seed and first pair
(the same games twice); anything else is refused with the reason, exit code 1. The pooled median comes
from the chunks' buckets of decision times (a 16th of a doubling wide), so it is within about 2%.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minis.base.errors import MinisError, Problem, unreadable
from minis.commands.match import BUCKETS_PER_DOUBLING, SUMMARY_FORMAT, wilson

KEYS = ("format", "settings", "seed", "first_pair", "games", "wins", "losses", "draws", "twin_pairs", "times")


def read_chunk(path: Path) -> dict[str, Any]:
    """One chunk's summary, its layout checked; MinisError at the file otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise unreadable(str(path), f"cannot read the summary: {error.strerror or error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise unreadable(str(path), f"not a ladder summary: {error.msg}", error.lineno, error.colno) from None
    if not isinstance(data, dict) or any(key not in data for key in KEYS):
        raise MinisError(Problem(str(path), 1, 1, "not a ladder summary of `minis match --summary`"))
    if data["format"] != SUMMARY_FORMAT:
        message = f"a summary of format {data['format']!r}; this tool reads format {SUMMARY_FORMAT}"
        raise MinisError(Problem(str(path), 1, 1, message))
    bad = _bad_field(data)
    if bad:
        raise MinisError(Problem(str(path), 1, 1, f"not a ladder summary: '{bad}' is missing or wrong"))
    return data


def _whole(value: object) -> bool:
    return type(value) is int and value >= 0


def _bad_field(data: dict[str, Any]) -> str | None:
    """The first field of a summary the pooling reads that is missing or of the wrong kind."""
    settings = data["settings"]
    if not isinstance(settings, dict):
        return "settings"
    bots = settings.get("bots")
    if not (isinstance(bots, list) and len(bots) == 2 and all(isinstance(bot, str) for bot in bots)):
        return "settings.bots"
    for key in ("seed", "first_pair"):
        if type(data[key]) is not int:
            return key
    for key in ("games", "wins", "losses", "draws"):
        if not _whole(data[key]):
            return key
    if data["games"] < 1 or data["wins"] + data["losses"] + data["draws"] != data["games"]:
        return "games"
    pairs = data["twin_pairs"]
    if not isinstance(pairs, dict) or not all(
        _whole(pairs.get(key)) for key in ("a_won_both", "split", "b_won_both", "unpaired")
    ):
        return "twin_pairs"
    times = data["times"]
    for label in ("A", "B"):
        own = times.get(label) if isinstance(times, dict) else None
        if not isinstance(own, dict) or not _whole(own.get("decisions")):
            return f"times.{label}"
        longest, buckets = own.get("max_ms"), own.get("buckets")
        if not (longest is None or type(longest) in (int, float)):
            return f"times.{label}.max_ms"
        if not isinstance(buckets, dict) or not all(
            name.lstrip("-").isdigit() and _whole(count) for name, count in buckets.items()
        ):
            return f"times.{label}.buckets"
    return None


def pooled_median(buckets: Sequence[dict[str, int]]) -> float | None:
    """The median decision time in ms of the chunks' buckets together (a bucket's middle)."""
    counts: dict[int, int] = {}
    for chunk in buckets:
        for name, count in chunk.items():
            counts[int(name)] = counts.get(int(name), 0) + int(count)
    total = sum(counts.values())
    if not total:
        return None
    seen = 0
    for key in sorted(counts):
        seen += counts[key]
        if 2 * seen >= total:
            return float(2 ** ((key + 0.5) / BUCKETS_PER_DOUBLING))
    raise AssertionError("unreachable")


def identity(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings that make chunks one ladder: all but `playouts`, how the count was asked for, when
    the summary keeps `counts`, each bot's count as played (a strength's default count, and the same
    count given with `--playouts`, are one ladder: a bot made the default after its chunks were played
    with the option keeps its ladder)."""
    if "counts" not in settings:
        return settings
    return {key: value for key, value in settings.items() if key != "playouts"}


def pool(chunks: Sequence[tuple[Path, dict[str, Any]]]) -> str:
    """The one line of the pooled chunks; MinisError when they are not of one ladder."""
    first_path, first = chunks[0]
    seen: dict[tuple[int, int], Path] = {}
    for path, chunk in chunks:
        mine, theirs = identity(chunk["settings"]), identity(first["settings"])
        if mine != theirs:
            differ = sorted(key for key in {*mine, *theirs} if mine.get(key) != theirs.get(key))
            what = "; ".join(f"{key} {mine.get(key)!r} here, {theirs.get(key)!r} there" for key in differ)
            message = f"not the same ladder as {first_path}: {what}"
            raise MinisError(Problem(str(path), 1, 1, message))
        key = (chunk["seed"], chunk["first_pair"])
        if key in seen:
            message = f"the same games as {seen[key]} (seed {key[0]}, first pair {key[1]}): pooled once only"
            raise MinisError(Problem(str(path), 1, 1, message))
        seen[key] = path
    names = first["settings"]["bots"]
    games = sum(chunk["games"] for _, chunk in chunks)
    wins = sum(chunk["wins"] for _, chunk in chunks)
    losses = sum(chunk["losses"] for _, chunk in chunks)
    draws = sum(chunk["draws"] for _, chunk in chunks)
    score = (wins + 0.5 * draws) / games
    low, high = wilson(score, games)
    twins = {
        key: sum(chunk["twin_pairs"][key] for _, chunk in chunks)
        for key in ("a_won_both", "split", "b_won_both", "unpaired")
    }
    line = (
        f"{names[0]} vs {names[1]}: {names[0]} scores {score:.2f} ({wins}-{losses}-{draws} of {games}), "
        f"95% CI [{low:.2f}, {high:.2f}]; twin pairs: A won both {twins['a_won_both']}, "
        f"split {twins['split']}, B won both {twins['b_won_both']}"
    )
    if twins["unpaired"]:
        line += f" ({twins['unpaired']} games without their twin)"
    for name, label in zip(names, ("A", "B"), strict=True):
        times = [chunk["times"][label] for _, chunk in chunks]
        median = pooled_median([t["buckets"] for t in times])
        longest = max((t["max_ms"] for t in times if t["max_ms"] is not None), default=None)
        decisions = sum(t["decisions"] for t in times)
        if median is None or longest is None:
            line += f"; {name} ({label}): no decisions"
        else:
            line += (
                f"; {name} ({label}): median {median:.2f} ms, max {longest:.1f} ms ({decisions} decisions)"
            )
    seeds = ", ".join(str(chunk["seed"]) for _, chunk in chunks)
    return line + f"; {len(chunks)} chunk{'s' if len(chunks) > 1 else ''}, seeds {seeds}"


def main(argv: Sequence[str]) -> int:
    if not argv:
        print("usage: python tools/ladder_pool.py SUMMARY.json...", file=sys.stderr)
        return 1
    try:
        chunks = [(Path(name), read_chunk(Path(name))) for name in argv]
        print(pool(chunks))
    except MinisError as error:
        print(error, file=sys.stderr)
        return error.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
