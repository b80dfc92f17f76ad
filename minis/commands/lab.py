"""`minis lab run STUDY.toml`: play a study's games into its database; `minis lab report` reads them.

`run` plays the games of the study that its database (`STUDY.duckdb` beside the study, or `--db FILE`)
does not hold yet, in batches: in a pool of processes (`--workers K`, default one per core), in this
process (`--workers 0`), or on a Dask cluster (`--scheduler ADDRESS`, with `pip install minis[cluster]`).
Each finished batch is stored at once, so a killed run loses at most the batches being played, and
running the same command again finishes the study. See `minis.lab.study` for the study file.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

from minis.base.errors import EXIT_CHECK, MinisError, Problem
from minis.commands import Subparsers

if TYPE_CHECKING:  # DuckDB comes with them: imported when a lab command runs (minis.cli)
    from minis.lab import runner
    from minis.lab.store import Store


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("lab", help="the balance lab: many bot games, stored and estimated")
    lab = parser.add_subparsers(dest="lab_command", metavar="SUBCOMMAND", required=True)
    _register_run(lab)
    _register_report(lab)
    _register_evaluation(lab)


def _register_run(lab: Subparsers) -> None:
    parser = lab.add_parser("run", help="play a study's games into its database (resumes a stopped run)")
    parser.add_argument("study", type=Path, metavar="STUDY.toml", help="the study file")
    parser.add_argument(
        "--workers", type=int, metavar="K", help="processes playing games (default: every core; 0: this one)"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler to play on, like tcp://10.0.0.5:8786"
    )
    parser.add_argument(
        "--db", type=Path, metavar="FILE", help="the database (default: STUDY.duckdb beside it)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the study's missing games, storing each batch as it finishes.

    Ctrl-C, or a pool worker that dies, ends the run with one plain line that says how many games are
    stored and how to go on (the stored batches are safe: each is one transaction), never a traceback.
    """
    if args.workers is not None and args.workers < 0:
        raise MinisError(Problem("lab", 0, 0, "--workers must be 0 (this process) or more"))
    if args.workers is not None and args.scheduler is not None:
        raise MinisError(
            Problem("lab", 0, 0, "--workers and --scheduler don't go together: the cluster has its own")
        )
    from minis.lab import runner  # DuckDB and the games: only when a study is run (minis.cli)
    from minis.lab.store import Store, check_database, default_path
    from minis.lab.study import load_study

    database = args.db if args.db is not None else default_path(args.study)
    progress: runner.Progress | None = None
    try:
        study = load_study(args.study)
        versions = runner.versions()
        check_database(database, new=True)
        workers = (os.cpu_count() or 1) if args.workers is None else args.workers
        # the cluster first: a scheduler that can't be reached leaves no database behind
        with runner.executor(workers, args.scheduler) as where, Store(database, study, versions) as store:
            _note_other_engines(store, database)
            stored = store.stored()
            missing = [game for game in range(study.games) if game not in stored]
            progress = runner.Progress(study.games - len(missing), study.games, shown=not args.quiet)
            shown = progress

            def done(rows: list[runner.GameRow]) -> None:
                store.add(rows)
                shown.add(len(rows))

            try:
                runner.run_batches(runner.batch_specs(study, missing, versions), where, done)
            except runner.WorkerMismatch as error:
                raise MinisError(Problem(str(args.study), 0, 0, str(error))) from None
            finally:
                progress.close()
    except KeyboardInterrupt:
        _stopped("", progress, database)
        return EXIT_INTERRUPTED
    except BrokenProcessPool:
        _stopped("a worker process ended before its games were done (killed?)", progress, database)
        return EXIT_CHECK
    if not args.quiet:
        print(f"{study.name}: {study.games} games stored in {database}")
    return 0


#: The exit code of a run stopped by Ctrl-C (the shell's 128 + SIGINT).
EXIT_INTERRUPTED = 130


def _stopped(why: str, progress: runner.Progress | None, database: Path) -> None:
    """The one line a stopped run ends with: what is stored, and how to go on."""
    stored = (
        f"{progress.done} of {progress.total} games are stored in {database}"
        if progress is not None
        else "no game was played"
    )
    print(
        f"stopped{': ' + why if why else ''}: {stored}; run the same command again to go on", file=sys.stderr
    )


def _note_other_engines(store: Store, database: Path) -> None:
    """Say when some stored games were played by another engine than this one (the report says it too)."""
    from minis.lab import runner

    mine = runner.engine()
    other = sum(count for version, digest, count in store.engines() if (version, digest) != mine)
    if other:
        games = f"{other} stored game{'s were' if other != 1 else ' was'}"
        print(
            f"{database}: note: {games} played by another engine "
            f"than this one (minis {mine[0]}, sources {mine[1]}): the report will say so",
            file=sys.stderr,
        )


def _register_report(lab: Subparsers) -> None:
    parser = lab.add_parser("report", help="what each card is worth, from a study's stored games")
    parser.add_argument("study", type=Path, metavar="STUDY.toml", help="the study file")
    parser.add_argument(
        "--db", type=Path, metavar="FILE", help="the database (default: STUDY.duckdb beside it)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where report.html, cards.csv and balance.csv go (default: STUDY-report beside it)",
    )
    parser.add_argument(
        "--table",
        type=Path,
        metavar="FILE",
        help="also write the card-values table the computer builds armies with (minis.content.card_worth)",
    )
    parser.set_defaults(func=report)


def report(args: argparse.Namespace) -> int:
    """Estimate each card's value from the stored games; write the page and CSV files, print a summary."""
    from minis.lab.report import report_command  # the fits and matplotlib: only when asked

    return report_command(args.study, args.db, args.out, sys.stdout, table=args.table)


def _register_evaluation(lab: Subparsers) -> None:
    parser = lab.add_parser(
        "evaluation", help="fit the search's learned evaluation to self-play games and write its table"
    )
    parser.add_argument("--games", type=int, required=True, metavar="N", help="self-play games to play")
    parser.add_argument("--seed", type=int, required=True, metavar="S", help="the study's seed")
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the table to write (evaluation-table.toml)"
    )
    parser.add_argument(
        "--workers", type=int, metavar="K", help="processes playing games (default: every core; 0: this one)"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler to play on, like tcp://10.0.0.5:8786"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=evaluation)


def evaluation(args: argparse.Namespace) -> int:
    """Play the self-play games, fit the model, write its table and print its figures (docs/lab.md)."""
    if args.games < 10 or args.games > 1_000_000:
        raise MinisError(Problem("lab", 0, 0, "--games must be from 10 to 1000000 (every fifth is held out)"))
    if args.workers is not None and args.workers < 0:
        raise MinisError(Problem("lab", 0, 0, "--workers must be 0 (this process) or more"))
    if args.workers is not None and args.scheduler is not None:
        raise MinisError(
            Problem("lab", 0, 0, "--workers and --scheduler don't go together: the cluster has its own")
        )
    folder = args.out.parent if str(args.out.parent) else Path(".")
    if not folder.is_dir() or args.out.is_dir():
        raise MinisError(Problem(str(args.out), 0, 0, "the table can't be written there: no such folder"))
    from minis.ai.learned import table_text
    from minis.lab import evaluation as study
    from minis.lab import runner

    workers = (os.cpu_count() or 1) if args.workers is None else args.workers
    progress = runner.Progress(0, args.games, shown=not args.quiet)
    try:
        positions = study.play_study(args.games, args.seed, workers, args.scheduler, progress=progress.add)
    except KeyboardInterrupt:
        progress.close()
        print("stopped: no table written", file=sys.stderr)
        return EXIT_INTERRUPTED
    progress.close()
    command = f"minis lab evaluation --games {args.games} --seed {args.seed} --out {args.out.as_posix()}"
    model = study.evaluation_model(positions, args.games, args.seed, command)
    try:
        args.out.write_text(table_text(model, study.comments(model, args.seed)), encoding="utf-8")
    except OSError as error:
        raise MinisError(Problem(str(args.out), 0, 0, f"can't write the table: {error.strerror}")) from None
    fit = model.fit
    print(f"{model.positions} positions of {model.games} games; penalty {model.penalty:g} (cross-validated)")
    for part, name in (("train", "training games"), ("holdout", "holdout games")):
        print(
            f"{name}: log loss {fit[part + '_log_loss']:.4f}, Brier {fit[part + '_brier']:.4f}, "
            f"accuracy {fit[part + '_accuracy']:.3f}; hand-set evaluation: log loss "
            f"{fit['baseline_' + part + '_log_loss']:.4f}, Brier {fit['baseline_' + part + '_brier']:.4f}, "
            f"accuracy {fit['baseline_' + part + '_accuracy']:.3f}"
        )
    print(f"wrote {args.out}")
    return 0
