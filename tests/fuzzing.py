"""The fuzz run of every kind of user file (issue 11): mutate a shipped file, read it as a user would.

Each kind of file (cards, armies, sections, configurations, free maps, scenarios, records, saves, rules
tests) has seeds, the files the project ships or makes, and the `minis` command that reads it. A mutant
is a seed put through one to three mutators, written into a fresh folder and read in-process through
`minis.cli.main`, with its output captured. The checker then flags what issue 11 forbids: an exception
escaping (a traceback), a run over TIME_LIMIT seconds, a problem line that is not `FILE:LINE:COL: message`
with LINE >= 1 (every mutant is a content mutant, so every problem has a place in some file), and an exit
code other than 0, 1 or 2.

Used by tests/test_fuzz_inputs.py (a few dozen mutants per kind, with hypothesis) and by
tools/fuzz_inputs.py (the large run). Mutators take a `random.Random`, so a run is reproducible from
its seed and hypothesis can drive them through `st.randoms()`.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TypeVar

import attrs

from minis.base.errors import MinisError
from minis.cli import main

ROOT = Path(__file__).resolve().parent.parent
#: A run longer than this (seconds) is a failure; it is also stopped then.
TIME_LIMIT = 5.0
#: One problem line as the standards want it: `FILE:LINE:COL: message`.
PROBLEM_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<message>\S.*)$")

# --- mutators --------------------------------------------------------------------------------------------

#: `key = value` on one line of TOML (dotted and quoted keys too).
_ASSIGNMENT = re.compile(
    rb"""^(?P<lead>[ \t]*)(?P<key>[A-Za-z0-9_."' -]+?)(?P<eq>[ \t]*=[ \t]*)(?P<value>.*)$"""
)
_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')
_NUMBER = re.compile(rb"-?\d+")
_WORD = re.compile(rb"[^\s|=\[\]{},\"']+")
#: Values of every TOML type (and a few that are no TOML at all), to put where another type belongs.
WRONG_VALUES = (
    b'"text"',
    b'""',
    b"12",
    b"-7",
    b"0",
    b"3.5",
    b"true",
    b"false",
    b"[]",
    b'[1, "a", true]',
    b"[[]]",
    b"{}",
    b'{ x = 1, y = "b" }',
    b"1979-05-27T07:32:00Z",
    b"07:32:00",
    b"nan",
    b"-inf",
    b"'literal'",
    b'"""multi\nline"""',
    b"",
)
HUGE_NUMBERS = (
    b"99999999999",
    b"-99999999999",
    b"9223372036854775808",
    b"-9223372036854775809",
    b"1" + b"0" * 40,
    b"9" * 5000,
    b"1e400",
    b"0x7fffffffffffffff",
    b"-1",
    b"0",
    b"00",
)
CONTROL_TEXT = (
    b"\x00",
    b"\x01",
    b"\x07",
    b"\x08",
    b"\x0b",
    b"\x0c",
    b"\r",
    b"\x1b[31m",
    b"\x7f",
    b"\t",
    "\u0085".encode(),
    "\u2028".encode(),
    "\u202e".encode(),
    "\ufeff".encode(),
)
#: Control characters as TOML escapes: valid TOML, so they reach the checks and the messages.
CONTROL_ESCAPES = (b"\\u0000", b"\\u001b[2J", b"\\n", b"\\r", b"\\b", b"\\u007f", b"\\u202e", b"\\u2028")
INVALID_UTF8 = (
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xc3(",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
    b"\x80",
)

#: The largest mutant (bytes): big enough for every limit a reader should have, small enough for the run.
MAX_MUTANT = 4_000_000

Mutator = Callable[[random.Random, bytes, bytes], bytes]
T = TypeVar("T")


def _pick(rng: random.Random, items: Sequence[T]) -> T:
    """One of `items`, drawn by index (hypothesis's random prints the arguments of `choice`, and a
    mutant's lines or a kind's seeds are long)."""
    return items[rng.randrange(len(items))]


def _pick_two(rng: random.Random, items: Sequence[T]) -> tuple[T, T]:
    first = rng.randrange(len(items))
    second = (first + 1 + rng.randrange(len(items) - 1)) % len(items)
    return items[first], items[second]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _assignments(lines: list[bytes]) -> list[tuple[int, re.Match[bytes]]]:
    return [(i, m) for i, line in enumerate(lines) if (m := _ASSIGNMENT.match(line)) and m["value"]]


def _replace_value(rng: random.Random, data: bytes, values: Callable[[bytes], bytes]) -> bytes:
    """One `key = value` line's value replaced by `values(old)`; anywhere if the file has none."""
    lines = _lines(data)
    found = _assignments(lines)
    if not found:
        at = rng.randint(0, len(data))
        return data[:at] + values(b"") + data[at:]
    index, match = _pick(rng, found)
    lines[index] = match["lead"] + match["key"] + match["eq"] + values(match["value"])
    return b"\n".join(lines)


def byte_flip(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A few bytes with one bit flipped or replaced by any byte."""
    if not data:
        return bytes([rng.randrange(256)])
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(buffer))
        buffer[at] = buffer[at] ^ (1 << rng.randrange(8)) if rng.random() < 0.5 else rng.randrange(256)
    return bytes(buffer)


def delete_lines(rng: random.Random, data: bytes, other: bytes) -> bytes:
    lines = _lines(data)
    start = rng.randrange(len(lines))
    del lines[start : start + _pick(rng, (1, 1, 2, 3, 10))]
    return b"\n".join(lines)


def duplicate_lines(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A line or a block repeated: once mostly, sometimes thousands of times."""
    lines = _lines(data)
    start = rng.randrange(len(lines))
    block = lines[start : start + _pick(rng, (1, 1, 2, 5))]
    times = _pick(rng, (1, 1, 1, 2, 50, 5000))
    times = max(1, min(times, MAX_MUTANT // (sum(map(len, block)) + len(block) + 1)))
    lines[start:start] = block * times
    return b"\n".join(lines)


def swap_lines(rng: random.Random, data: bytes, other: bytes) -> bytes:
    lines = _lines(data)
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines)


def swap_values(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """The values of two keys exchanged."""
    lines = _lines(data)
    found = _assignments(lines)
    if len(found) < 2:
        return swap_lines(rng, data, other)
    (i, a), (j, b) = _pick_two(rng, found)
    lines[i] = a["lead"] + a["key"] + a["eq"] + b["value"]
    lines[j] = b["lead"] + b["key"] + b["eq"] + a["value"]
    return b"\n".join(lines)


def swap_words(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """Two words exchanged (unit ids, hexes, actions of a record; keys and values of TOML)."""
    words = list(_WORD.finditer(data))
    if len(words) < 2:
        return byte_flip(rng, data, other)
    a, b = sorted(_pick_two(rng, words), key=lambda m: m.start())
    return data[: a.start()] + b[0] + data[a.end() : b.start()] + a[0] + data[b.end() :]


def wrong_type(rng: random.Random, data: bytes, other: bytes) -> bytes:
    return _replace_value(rng, data, lambda _old: _pick(rng, WRONG_VALUES))


def huge_number(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A number of the file (in a value, a hex label, a die) made huge, negative or zero."""
    numbers = list(_NUMBER.finditer(data))
    if not numbers or rng.random() < 0.3:
        return _replace_value(rng, data, lambda _old: _pick(rng, HUGE_NUMBERS))
    match = _pick(rng, numbers)
    return data[: match.start()] + _pick(rng, HUGE_NUMBERS) + data[match.end() :]


def long_string(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A string value (or a word) grown to thousands or a million characters."""
    length = _pick(rng, (300, 5_000, 100_000, 1_000_000))
    filler = _pick(rng, (b"x", b"ab ", b"\xc3\xa9", b"A1 ", b"\\t"))
    long = (filler * (length // len(filler) + 1))[:length]
    strings = list(_STRING.finditer(data))
    if strings and rng.random() < 0.6:
        match = _pick(rng, strings)
        return data[: match.start()] + b'"' + long + b'"' + data[match.end() :]
    words = list(_WORD.finditer(data))
    if not words:
        return data + long
    match = _pick(rng, words)
    return data[: match.start()] + long.replace(b" ", b"_").replace(b"\\", b"_") + data[match.end() :]


def long_key(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A line whose key is thousands of characters long (bare, quoted or as a table header)."""
    key = b"k" * _pick(rng, (300, 10_000, 200_000))
    line = _pick(rng, (key + b" = 1", b'"' + key + b'" = "v"', b"[" + key + b"]", b"[[" + key + b"]]"))
    lines = _lines(data)
    lines.insert(rng.randint(0, len(lines)), line)
    return b"\n".join(lines)


def dotted_key(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A key made dotted (`key.x = ...`, `a.b.key = ...`) or quoted, or a dotted key added."""
    lines = _lines(data)
    found = _assignments(lines)
    if not found or rng.random() < 0.3:
        extra = _pick(
            rng, (b"a.b.c = 1", b'x."" = 2', b"units.id = 'u'", b"axis.points = 5", b"x.y.z.w = []")
        )
        lines.insert(rng.randint(0, len(lines)), extra)
        return b"\n".join(lines)
    index, match = _pick(rng, found)
    key = match["key"].strip()
    new = _pick(rng, (key + b".x", b"a.b." + key, b'"' + key + b'"', key + b'."".y', key + b" . " + key))
    lines[index] = match["lead"] + new + match["eq"] + match["value"]
    return b"\n".join(lines)


def deep_nesting(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A value nested hundreds or thousands deep (arrays, inline tables, dotted table headers)."""
    depth = _pick(rng, (20, 300, 3_000, 100_000))
    style = rng.randrange(3)
    if style == 2:
        header = b"[" + b".".join([b"t"] * depth) + b"]\nv = 1"
        return data + b"\n" + header + b"\n"

    def nested(_old: bytes) -> bytes:
        return b"[" * depth + b"1" + b"]" * depth if style == 0 else b"{ a = " * depth + b"1" + b" }" * depth

    return _replace_value(rng, data, nested)


def control_characters(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """Control characters put into a string (raw or as TOML escapes), or anywhere."""
    strings = list(_STRING.finditer(data))
    if strings and rng.random() < 0.7:
        match = _pick(rng, strings)
        piece = _pick(rng, CONTROL_ESCAPES if rng.random() < 0.6 else CONTROL_TEXT)
        at = rng.randint(match.start() + 1, match.end() - 1)
    else:
        piece = _pick(rng, CONTROL_TEXT)
        at = rng.randint(0, len(data))
    return data[:at] + piece + data[at:]


def invalid_utf8(rng: random.Random, data: bytes, other: bytes) -> bytes:
    at = rng.randint(0, len(data))
    return data[:at] + _pick(rng, INVALID_UTF8) + data[at:]


def truncate(rng: random.Random, data: bytes, other: bytes) -> bytes:
    return data[: rng.randint(0, len(data))]


def splice(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """The start of this file followed by the end of another, cut at line ends or anywhere."""
    if rng.random() < 0.7:
        ours, theirs = _lines(data), _lines(other)
        return b"\n".join(ours[: rng.randint(0, len(ours))] + theirs[rng.randint(0, len(theirs)) :])
    return data[: rng.randint(0, len(data))] + other[rng.randint(0, len(other)) :]


MUTATORS: dict[str, Mutator] = {
    "byte-flip": byte_flip,
    "delete-lines": delete_lines,
    "duplicate-lines": duplicate_lines,
    "swap-lines": swap_lines,
    "swap-values": swap_values,
    "swap-words": swap_words,
    "wrong-type": wrong_type,
    "huge-number": huge_number,
    "long-string": long_string,
    "long-key": long_key,
    "dotted-key": dotted_key,
    "deep-nesting": deep_nesting,
    "control-characters": control_characters,
    "invalid-utf8": invalid_utf8,
    "truncate": truncate,
    "splice": splice,
}


def mutate(rng: random.Random, data: bytes, others: Sequence[bytes]) -> tuple[bytes, tuple[str, ...]]:
    """One to three mutators applied in turn; returns the mutant and the mutators' names."""
    names = tuple(_pick(rng, sorted(MUTATORS)) for _ in range(_pick(rng, (1, 1, 1, 2, 3))))
    for name in names:
        mutant = MUTATORS[name](rng, data, _pick(rng, others) if others else data)
        data = mutant if len(mutant) <= MAX_MUTANT else data
    return data, names


# --- running a command in-process -------------------------------------------------------------------------


class TimeLimit(BaseException):
    """Raised by the alarm in a run that went past its time (a BaseException: no `except Exception`
    in the engine can swallow it)."""


@attrs.frozen
class Run:
    """What one command did: its exit code, its output, and the traceback of an escaping exception."""

    code: int | None
    out: str
    err: str
    error: str = ""
    seconds: float = 0.0
    timed_out: bool = False
    #: Where a run over its time was stopped (the stack at the alarm), '' otherwise.
    stopped: str = ""


@contextlib.contextmanager
def alarm(seconds: float, error: Callable[[], BaseException] = TimeLimit) -> Iterator[None]:
    """Raise `error()` in the block when it runs longer than `seconds` (the parsers are pure Python, so
    an alarm stops them; main thread only)."""

    def stop(_signum: int, _frame: FrameType | None) -> None:
        raise error()

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_call(call: Callable[[], int | None], limit: float = TIME_LIMIT) -> Run:
    """Run `call` with stdout and stderr captured, stopped after `limit` seconds (main thread only)."""
    out, err = io.StringIO(), io.StringIO()
    code: int | None = None
    error, stopped, timed_out = "", "", False
    start = time.perf_counter()
    try:
        with alarm(limit), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = call()
    except TimeLimit:
        timed_out, stopped = True, traceback.format_exc()
    except SystemExit as stop:  # argparse, or a command that exits by itself
        code = stop.code if isinstance(stop.code, int) else 1
    except KeyboardInterrupt:
        raise
    except BaseException:  # anything else escaping is what the fuzz run hunts: a traceback
        error = traceback.format_exc()
    seconds = time.perf_counter() - start
    return Run(code, out.getvalue(), err.getvalue(), error, seconds, timed_out or seconds > limit, stopped)


def run_minis(argv: Sequence[str], limit: float = TIME_LIMIT) -> Run:
    return run_call(lambda: main(list(argv)), limit)


def run_resume(path: Path, limit: float = TIME_LIMIT) -> Run:
    """A save resumed as the game window resumes it (`minis.record.load`), problems printed as the
    command line prints them."""
    from minis import record

    def call() -> int:
        try:
            record.load(path)
        except MinisError as error:
            for problem in error.problems:
                print(problem, file=sys.stderr)
            return error.exit_code
        return 0

    return run_call(call, limit)


def chain(first: Run, then: Callable[[], Run]) -> Run:
    """Two runs as one: the second only if the first succeeded."""
    if first.code != 0 or first.error or first.timed_out:
        return first
    second = then()
    return Run(
        second.code,
        first.out + second.out,
        first.err + second.err,
        second.error,
        first.seconds + second.seconds,
        second.timed_out or first.seconds + second.seconds > TIME_LIMIT,
        second.stopped,
    )


# --- the kinds of file and the command that reads each -----------------------------------------------------


@attrs.frozen
class Seed:
    """A file to mutate: its name (kept for the mutant, as some loaders use it) and its bytes."""

    name: str
    data: bytes


def _copy_sections(folder: Path) -> None:
    """A configuration names its sections, read from `../sections` beside its own folder."""
    shutil.copytree(ROOT / "maps" / "sections", folder / "sections")


def _copy_scenario_maps(folder: Path) -> None:
    """A scenario names its free map relative to itself (`maps/river-line.toml`)."""
    shutil.copytree(ROOT / "scenarios" / "maps", folder / "scenarios" / "maps")


def _run_cards(path: Path) -> Run:
    """The card folder loaded (`cards list`), then the card shown (`cards show`) if it loaded."""
    listed = run_minis(["cards", "list", "--cards", str(path.parent)])
    first = listed.out.split(maxsplit=1)
    return chain(listed, lambda: run_minis(["cards", "show", "--cards", str(path.parent), first[0]]))


def _run_save(path: Path) -> Run:
    """A save replayed (`minis replay`), then resumed as the game window resumes it."""
    return chain(run_minis(["replay", str(path)]), lambda: run_resume(path))


@attrs.frozen
class Kind:
    """One kind of user file: where a mutant goes in its folder, and what reads it."""

    name: str
    folder: str
    run: Callable[[Path], Run]
    setup: Callable[[Path], None] | None = None
    #: Whether a refusal (exit 1 or 2) must print a problem line (a failed rules test prints FAIL).
    needs_problem: bool = True


def _command(*words: str) -> Callable[[Path], Run]:
    return lambda path: run_minis([*words, str(path)])


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("cards", "cards", _run_cards),
        Kind("armies", "armies", _command("army", "check")),
        Kind("sections", "sections", _command("map", "check")),
        Kind("configurations", "configurations", _command("map", "check"), _copy_sections),
        Kind("free maps", "maps", _command("map", "check")),
        Kind("scenarios", "scenarios", _command("edit", "--check"), _copy_scenario_maps),
        Kind("records", "records", _command("replay")),
        Kind("saves", "saves", _run_save),
        Kind("rules tests", "rules", _command("rules-test"), needs_problem=False),
    )
}


def _shipped(folder: Path, pattern: str = "*.toml") -> list[Seed]:
    return [Seed(path.name, path.read_bytes()) for path in sorted(folder.glob(pattern))]


def _made_seeds(made: Path) -> dict[str, list[Seed]]:
    """The seeds no file ships: a free map from `minis map new`, records from `minis simulate
    --records`, and saves written in the middle of a Standard and an Assault game."""
    from minis.ai.random_bot import RandomBot
    from minis.army import load_army
    from minis.base.sides import Side
    from minis.dice import Dice
    from minis.game import Game
    from minis.record import save
    from minis.state import BattleKind

    made.mkdir(parents=True, exist_ok=True)
    axis, allies = ROOT / "armies" / "sample-axis.toml", ROOT / "armies" / "sample-allies.toml"
    new_map = made / "new-map.toml"
    done = run_minis(["map", "new", "--rows", "6", "--cols", "9", "--title", "Fuzz", "--force", str(new_map)])
    records = made / "records"
    simulate = ["simulate", "--axis", str(axis), "--allies", str(allies), "--games", "2", "--seed", "5"]
    played = run_minis([*simulate, "--quiet", "--records", str(records)])
    if done.code != 0 or played.code != 0:
        raise RuntimeError(f"cannot make the seeds: {done.err}{played.err}")
    saves = made / "saves"
    saves.mkdir(exist_ok=True)
    for name, scenario, actions in (
        ("standard.save", BattleKind.STANDARD, 120),
        ("assault.save", BattleKind.ASSAULT, 80),
    ):
        attacker = Side.AXIS if scenario is BattleKind.ASSAULT else None
        game = Game.new(
            load_army(axis), load_army(allies), scenario=scenario, attacker=attacker, dice=Dice(seed=11)
        )
        bot = RandomBot(4)
        for _ in range(actions):
            if game.over:
                break
            game.apply(bot.choose(game))
        save(game, saves / name)
    return {
        "free maps": [Seed(new_map.name, new_map.read_bytes()), *_shipped(ROOT / "scenarios" / "maps")],
        "records": _shipped(records, "*.rec"),
        "saves": _shipped(saves, "*.save"),
    }


def all_seeds(made: Path) -> dict[str, list[Seed]]:
    """The seeds of every kind; the made ones are written under `made`."""
    seeds = {
        "cards": _shipped(ROOT / "cards"),
        "armies": _shipped(ROOT / "armies"),
        "sections": _shipped(ROOT / "maps" / "sections"),
        "configurations": _shipped(ROOT / "maps" / "configurations"),
        "scenarios": _shipped(ROOT / "scenarios"),
        "rules tests": [
            Seed(path.name, path.read_bytes()) for path in sorted((ROOT / "tests" / "rules").rglob("*.toml"))
        ],
        **_made_seeds(made),
    }
    return {name: seeds[name] for name in KINDS}


# --- the checker -------------------------------------------------------------------------------------------


@attrs.frozen
class Verdict:
    """What is wrong with a run: each flag with the one-line pattern that groups it with its kin."""

    flags: tuple[tuple[str, str], ...]

    @property
    def failed(self) -> bool:
        return bool(self.flags)

    def has(self, flag: str) -> bool:
        return any(name == flag for name, _ in self.flags)


def pattern(text: str, path: Path) -> str:
    """A message with its particulars taken out, so that one defect gives one pattern."""
    text = text.replace(str(path), "FILE").replace(str(path.parent), "DIR")
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\d+", "N", text)
    return text[:140]


def deepest_frame(text: str) -> str:
    """The deepest frame of minis in a traceback (`minis/x.py:12 in f`), else the deepest frame."""
    frames = re.findall(r'File "([^"]*)", line (\d+), in (\S+)', text)
    inside = [f for f in frames if "/minis/" in f[0]] or frames or [("?", "0", "?")]
    file, line, function = inside[-1]
    return f"{file[file.rfind('/minis/') + 1 :] if '/minis/' in file else file}:{line} in {function}"


def traceback_pattern(text: str, path: Path) -> str:
    """The exception's type and message, and the deepest frame of minis it came from."""
    last = text.strip().splitlines()[-1] if text.strip() else "?"
    return f"{pattern(last, path)[:100]} at {deepest_frame(text)}"


#: Characters a message must not print raw: they move the cursor, recolour the terminal, break or
#: reverse the line (C0 and C1 controls but the tab, line and paragraph separators, bidi controls).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def check(run: Run, path: Path, needs_problem: bool = True) -> Verdict:
    """Flag a traceback, a slow run, a strange exit code, and any problem line without a position."""
    flags: list[tuple[str, str]] = []
    if run.error:
        flags.append(("traceback", traceback_pattern(run.error, path)))
    if run.timed_out:
        flags.append(("slow", f"over {TIME_LIMIT:g} s, stopped at {deepest_frame(run.stopped)}"))
    if not run.error and not run.timed_out and run.code not in (0, 1, 2):
        flags.append(("exit code", f"exit code {run.code}"))
    lines = [line for line in run.err.split("\n") if line.strip()]
    for line in lines:
        control = _UNPRINTABLE.search(line)
        if control:
            flags.append(("control", f"{control[0]!a} printed raw: {pattern(line, path)}"))
            break
    for line in lines:
        match = PROBLEM_LINE.match(line)
        if not match:
            flags.append(("unpositioned", f"not FILE:LINE:COL: {pattern(line, path)}"))
            break
        if int(match["line"]) < 1:
            flags.append(("unpositioned", f"line 0: {pattern(match['message'], path)}"))
            break
    if needs_problem and run.code in (1, 2) and not lines:
        flags.append(("unpositioned", f"exit code {run.code} without a problem line"))
    return Verdict(tuple(flags))


# --- one mutant ------------------------------------------------------------------------------------------


@attrs.frozen
class Result:
    """One mutant and what became of it."""

    kind: str
    seed: str
    mutators: tuple[str, ...]
    data: bytes
    run: Run
    verdict: Verdict


def try_file(kind: Kind, name: str, data: bytes, work: Path) -> tuple[Run, Verdict]:
    """Write `data` as file `name` of `kind` into a fresh folder under `work`, read it, and judge."""
    work.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=work))
    try:
        if kind.setup is not None:
            kind.setup(folder)
        path = folder / kind.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        run = kind.run(path)
        return run, check(run, path, kind.needs_problem)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fuzz_one(rng: random.Random, kind_name: str, seeds: Sequence[Seed], work: Path) -> Result:
    """One mutant of one of `seeds` (another seed is the splice partner), read and judged."""
    seed = _pick(rng, seeds)
    data, mutators = mutate(rng, seed.data, [s.data for s in seeds])
    run, verdict = try_file(KINDS[kind_name], seed.name, data, work)
    return Result(kind_name, seed.name, mutators, data, run, verdict)
