"""The computer's strengths as a player picks them in the window: easy, normal and hard.

- easy: `EasyBot`, the heuristic that now and then takes one of its next-best candidates instead of
  its best (a weaker opponent whose moves still make sense);
- normal: the improved search (`minis.ai.sharp`: threats, the objective's clock, candidates a plain
  look calls for, progressive widening) at a small count of playouts (`sharp.NORMAL_PLAYOUTS`);
- hard: the same at a larger count (`sharp.HARD_PLAYOUTS`, a median well under a second a decision on one
  core), its playouts scored by the learned win chance added to the hand-set leaf (`sharp.HARD_LEAF`).
Both decide by their count of playouts with a time budget as a cap (`HARD_BUDGET` unless told
otherwise): the same seed gives the same decision whenever the cap is not reached. A build without the
search plays them as the heuristic (`bot_for` says so in its `name`). The frozen heuristic is no
strength of its own any more: it is the ladder's yardstick (`minis match ... heuristic`).
"""

from __future__ import annotations

import os
import random

from minis.ai.bot import Bot
from minis.ai.heuristic import HeuristicBot
from minis.ai.registry import UnknownBot, make_bot
from minis.engine import actions as A
from minis.game import Game
from minis.record import STRENGTHS

__all__ = ["STRENGTHS", "EasyBot", "bot_for"]

#: How many of the heuristic's best candidates the easy bot chooses among.
EASY_TOP = 3
#: How often the easy bot takes a candidate other than the best.
EASY_CHANCE = 0.5
#: The normal and hard bots' cap on time a decision (seconds).
HARD_BUDGET = 1.0


class EasyBot:
    """The heuristic, but with `chance` it picks at random among its `top` best candidates."""

    name = "easy"

    def __init__(self, seed: int | None = None, *, top: int = EASY_TOP, chance: float = EASY_CHANCE) -> None:
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(self.rng.randrange(2**63))
        self.top = max(1, top)
        self.chance = chance

    def choose(self, game: Game) -> A.Action:
        candidates = self.heuristic.candidates(game, self.top)
        if len(candidates) > 1 and self.rng.random() < self.chance:
            return self.rng.choice(candidates)[0]
        return candidates[0][0]


def bot_for(
    strength: str,
    seed: int,
    *,
    budget: float = HARD_BUDGET,
    workers: int | None = None,
    playouts: int | None = None,
) -> Bot:
    """The bot of a strength (`STRENGTHS`); ValueError for any other. Normal and hard decide by
    `playouts` (default: the strength's own) with `budget` as a cap on time; their playouts run in
    `workers` processes (default: every core but one, at least one), so the window's process stays free
    to draw."""
    if strength == "easy":
        return EasyBot(seed)
    if strength in ("normal", "hard"):
        processes = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        try:
            return make_bot(strength, seed, budget=budget, workers=processes, playouts=playouts)
        except UnknownBot:
            return make_bot("heuristic", seed)  # a build without the search: the heuristic plays it
    raise ValueError(f"unknown strength '{strength}': the strengths are {', '.join(STRENGTHS)}")
