"""The computer's strengths as a player picks them in the window: easy, normal and hard.

- easy: `EasyBot`, the heuristic that now and then takes one of its next-best candidates instead of
  its best (a weaker opponent whose moves still make sense);
- normal: the heuristic bot;
- hard: the search bot, deciding by a count of playouts (`HARD_PLAYOUTS`, about a second a decision
  on one core), with a time budget as a cap (`HARD_BUDGET` unless told otherwise): the same seed gives
  the same decision whenever the cap is not reached. A build without the search bot plays hard as
  normal (`bot_for` says so in its `name`).
"""

from __future__ import annotations

import os
import random

from minis import actions as A
from minis.ai.bot import Bot
from minis.ai.heuristic import HeuristicBot
from minis.ai.registry import UnknownBot, make_bot
from minis.game import Game
from minis.record import STRENGTHS

__all__ = ["STRENGTHS", "EasyBot", "bot_for"]

#: How many of the heuristic's best candidates the easy bot chooses among.
EASY_TOP = 3
#: How often the easy bot takes a candidate other than the best.
EASY_CHANCE = 0.5
#: The hard bot's cap on time a decision (seconds).
HARD_BUDGET = 1.0
#: The hard bot's playouts a decision: at most this many (fewer when one candidate is clearly best). On
#: one of this machine's cores, 36 searched decisions of heuristic games (`tools/playout_speed.py`'s)
#: took a median 0.05 s and at most 0.64 s of CPU at 128 (19 playouts on average); at 256, 0.08 s and
#: 1.15 s: so the 1 s cap is rarely reached and the same seed gives the same game.
HARD_PLAYOUTS = 128


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
    playouts: int = HARD_PLAYOUTS,
) -> Bot:
    """The bot of a strength (`STRENGTHS`); ValueError for any other. Hard decides by `playouts` with
    `budget` as a cap on time; its playouts run in `workers` processes (default: every core but one, at
    least one), so the window's process stays free to draw."""
    if strength == "easy":
        return EasyBot(seed)
    if strength == "normal":
        return make_bot("heuristic", seed)
    if strength == "hard":
        processes = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        try:
            return make_bot("search", seed, budget=budget, workers=processes, playouts=playouts)
        except UnknownBot:
            return make_bot("heuristic", seed)  # a build without the search bot: hard plays as normal
    raise ValueError(f"unknown strength '{strength}': the strengths are {', '.join(STRENGTHS)}")
