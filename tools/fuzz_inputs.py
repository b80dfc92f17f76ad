"""The large fuzz run of every kind of user file (issue 11; docs/fuzzing.md).

    .venv/bin/python tools/fuzz_inputs.py --per-kind 1000 --seed 1 [--out DIR] [--kind NAME ...]
    .venv/bin/python tools/fuzz_inputs.py --check KIND FILE     # read one saved mutant again

Prints a table per kind (mutants, ok, refused, tracebacks, slow, unpositioned, control, exit code) and
then every distinct failure with its count and its smallest mutant. Every failing mutant is written to
--out (KIND/NNNN-FLAG/NAME, with a .txt beside it saying what happened). The whole run is one process
with its address space limited (--memory-mb), so a memory blow-up shows as a MemoryError traceback; a
mutant that hangs where the alarm cannot stop it ends the process after a minute, and the mutant is
left in --out/in-progress for reproduction. Exit code 0 when nothing was found, 1 otherwise.
"""

from __future__ import annotations

import argparse
import faulthandler
import random
import resource
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # tests/ holds the mutators and the checker

#: The flags of the checker, in the table's order.
FLAGS = ("traceback", "slow", "unpositioned", "control", "exit code")
#: A mutant still running after this many seconds ends the whole process (the alarm could not stop it).
WATCHDOG = 60


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Fuzz every kind of user file through the minis commands.")
    parser.add_argument("--per-kind", type=int, default=1000, metavar="N", help="mutants of each kind")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the whole run")
    parser.add_argument("--out", type=Path, default=Path("/tmp/minis-fuzz"), help="where failing mutants go")
    parser.add_argument(
        "--kind", action="append", type=lambda text: text.replace("-", " "), choices=sorted(fuzzing.KINDS)
    )
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the run")
    parser.add_argument("--check", nargs=2, metavar=("KIND", "FILE"), help="read one file as the run does")
    return parser.parse_args(argv)


def limit_memory(megabytes: int) -> None:
    """Cap the address space, so a mutant that asks for too much memory fails instead of swapping."""
    size = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (size, hard if hard != resource.RLIM_INFINITY else size))


def describe(result: fuzzing.Result, path: Path) -> str:
    """The .txt beside a saved mutant: where it came from, and what reading it did."""
    run = result.run
    lines = [
        f"kind: {result.kind}",
        f"seed file: {result.seed}",
        f"mutators: {', '.join(result.mutators)}",
        f"exit code: {run.code}",
        f"seconds: {run.seconds:.2f}",
        *(f"{flag}: {what}" for flag, what in result.verdict.flags),
        f"reproduce: .venv/bin/python tools/fuzz_inputs.py --check '{result.kind}' {path}",
        "--- stderr (first 4000 characters)",
        run.err[:4000],
        "--- traceback",
        run.error or run.stopped,
    ]
    return "\n".join(lines) + "\n"


def save_failure(out: Path, number: int, result: fuzzing.Result) -> Path:
    first_flag = result.verdict.flags[0][0].replace(" ", "-")
    folder = out / result.kind.replace(" ", "-") / f"{number:04d}-{first_flag}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / result.seed
    path.write_bytes(result.data)
    (folder / "what-happened.txt").write_text(describe(result, path), encoding="utf-8")
    return path


def print_table(counts: dict[str, Counter[str]]) -> None:
    columns = (
        "kind",
        "mutants",
        "ok",
        "refused",
        "tracebacks",
        "slow",
        "unpositioned",
        "control",
        "exit code",
    )
    keys = ("mutants", "ok", "refused", *FLAGS)
    rows = [columns, *([kind, *(str(counts[kind][key]) for key in keys)] for kind in counts)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    for row in rows:
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def fuzz(args: argparse.Namespace) -> int:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="minis-fuzz-work-"))
    seeds = fuzzing.all_seeds(work / "seeds")
    in_progress = out / "in-progress"
    limit_memory(args.memory_mb)
    counts: dict[str, Counter[str]] = {}
    #: Each distinct failure: (flag, pattern) -> (count, kinds, the smallest mutant's saved path and size).
    distinct: dict[tuple[str, str], tuple[int, set[str], Path, int]] = {}
    for kind in args.kind or list(fuzzing.KINDS):
        counts[kind] = tally = Counter()
        for number in range(args.per_kind):
            rng = random.Random(f"{args.seed}/{kind}/{number}")
            seed = rng.choice(seeds[kind])
            data, mutators = fuzzing.mutate(rng, seed.data, [s.data for s in seeds[kind]])
            in_progress.mkdir(exist_ok=True)
            (in_progress / seed.name).write_bytes(data)  # left behind if the process dies on it
            faulthandler.dump_traceback_later(WATCHDOG, exit=True)
            run, verdict = fuzzing.try_file(fuzzing.KINDS[kind], seed.name, data, work / "mutants")
            faulthandler.cancel_dump_traceback_later()
            shutil.rmtree(in_progress)
            result = fuzzing.Result(kind, seed.name, mutators, data, run, verdict)
            tally["mutants"] += 1
            if not verdict.failed:
                tally["ok" if run.code == 0 else "refused"] += 1
                continue
            path = save_failure(out, number, result)
            for flag, what in verdict.flags:
                tally[flag] += 1
                count, kinds, smallest, size = distinct.get((flag, what), (0, set(), path, len(data)))
                if len(data) < size:
                    smallest, size = path, len(data)
                distinct[(flag, what)] = (count + 1, kinds | {kind}, smallest, size)
        print(f"{kind}: done", file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print_table(counts)
    print(f"\n{len(distinct)} distinct failures (failing mutants under {out}):")
    for (flag, what), (count, kinds, smallest, size) in sorted(distinct.items(), key=lambda i: -i[1][0]):
        print(
            f"- {flag} x{count} [{', '.join(sorted(kinds))}]: {what}\n    smallest: {smallest} ({size} bytes)"
        )
    return 1 if distinct else 0


def check_one(kind: str, file: Path) -> int:
    """Read one file as the fuzz run reads a mutant of `kind`, and print the verdict."""
    work = Path(tempfile.mkdtemp(prefix="minis-fuzz-check-"))
    try:
        run, verdict = fuzzing.try_file(fuzzing.KINDS[kind], file.name, file.read_bytes(), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"exit code {run.code} in {run.seconds:.2f} s")
    sys.stdout.write(run.out[-2000:])
    sys.stdout.write(run.err[-4000:])
    sys.stdout.write(run.error or run.stopped)
    for flag, what in verdict.flags:
        print(f"FLAG {flag}: {what}")
    return 1 if verdict.failed else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.check:
        kind, file = args.check
        if kind not in fuzzing.KINDS:
            print(f"unknown kind '{kind}': one of {', '.join(fuzzing.KINDS)}", file=sys.stderr)
            return 2
        return check_one(kind, Path(file))
    return fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
