"""What the commands that play many games between bots share (`minis simulate`, `minis match`).

The progress bar on stderr, the check of an army handed to bots, and a garbage collector tuned for a
long run of games.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator

import attrs

from minis.army import Army, locate, rule_problems, wrong_side
from minis.cards import card_catalogue
from minis.errors import Problem
from minis.sides import Side

__all__ = ["army_problems", "fewer_collections", "progress_bar"]


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Games make many short-lived objects and few cycles, so the cyclic garbage collector runs less
    often while they are played (it took about 3% of a run); the settings are restored afterwards."""
    thresholds = gc.get_threshold()
    gc.freeze()  # what is loaded by now lives for the whole run: don't scan it again and again
    gc.set_threshold(20_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def army_problems(army: Army, side: Side) -> list[Problem]:
    """What keeps an army out of the games, each at its line and column: another side's army file, an
    empty army, unknown cards and cards of the other side. The bots play any army the engine can field,
    so the points, unit, year and historical limits don't apply here."""
    unlimited = attrs.evolve(army, year=None, historical=False)
    found = rule_problems(unlimited, card_catalogue(), points_limit=sys.maxsize, unit_limit=sys.maxsize)
    return locate(army, wrong_side(army, side) + found)


def progress_bar(done: int, total: int, elapsed: float, width: int = 30) -> None:
    """Redraw the one-line progress bar on stderr: games done, games a second, seconds left."""
    filled = width * done // total
    rate = done / elapsed if elapsed > 0 else 0.0
    left = (total - done) / rate if rate else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:.1f} games/s  {left:.0f} s left "
    )
    sys.stderr.flush()
