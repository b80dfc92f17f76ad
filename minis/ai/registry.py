"""Bots by name, as the command line and the window ask for them: `random`, `heuristic`, `search`, and
the strengths a player picks, `easy`, `normal`, `hard` (`minis.ai.strength`).

`heuristic` is frozen (the ladder's yardstick) and `search` is the plain search over its candidates, kept
for comparison; `normal` and `hard` are the improved search (`minis.ai.sharp.SharpBot`) deciding by a
count of playouts (`sharp.NORMAL_PLAYOUTS`, `sharp.HARD_PLAYOUTS`), their playouts playing a number of
turns (`sharp.NORMAL_TURNS`, `sharp.HARD_TURNS`), unless told another.

The stronger bots are imported only when asked for, so naming the random bot never loads them (and a
build without them still plays random games).
"""

from __future__ import annotations

import importlib

from minis.ai.bot import Bot
from minis.ai.random_bot import RandomBot
from minis.base.errors import did_you_mean

__all__ = ["BOT_NAMES", "UnknownBot", "make_bot", "playouts_of", "turns_of"]

#: Every bot's name: the yardsticks, then the strengths (weakest first in each).
BOT_NAMES = ("random", "heuristic", "search", "easy", "normal", "hard")
#: Where each stronger bot lives: its module and class.
_STRONGER = {
    "heuristic": ("minis.ai.heuristic", "HeuristicBot"),
    "search": ("minis.ai.search", "SearchBot"),
    "easy": ("minis.ai.strength", "EasyBot"),
    "normal": ("minis.ai.sharp", "SharpBot"),
    "hard": ("minis.ai.sharp", "SharpBot"),
}
#: The playouts a decision of the improved search's strengths when none are given (`minis.ai.sharp`).
_PLAYOUTS = {"normal": "NORMAL_PLAYOUTS", "hard": "HARD_PLAYOUTS"}
#: The turns their playouts play when none are given.
_TURNS = {"normal": "NORMAL_TURNS", "hard": "HARD_TURNS"}
#: The constants of their leaf evaluations (None: the environment's; MINIS_LEAF, when set, overrides them).
_LEAF = {"normal": "NORMAL_LEAF", "hard": "HARD_LEAF"}


class UnknownBot(ValueError):
    """No bot of that name here (a mistyped name, or a bot this build does not have)."""


class NamedRandomBot(RandomBot):
    """Today's random bot under its name; it plays exactly as `RandomBot` (`minis simulate` uses that)."""

    name = "random"


def _strength_default(name: str, table: dict[str, str]) -> int:
    """A strength's setting when none is given: the constant `table` names in its module."""
    return int(getattr(importlib.import_module(_STRONGER[name][0]), table[name]))


def playouts_of(name: str, playouts: int | None = None) -> int | None:
    """The count of playouts a decision the bot `name` decides by when made with `playouts` (None: a bot
    that counts none, or the plain search deciding by the clock). A ladder's summary keeps it, since two
    counts can choose alike in every position `minis.ai.fingerprint` looks at."""
    if name in _PLAYOUTS:
        return playouts if playouts is not None else _strength_default(name, _PLAYOUTS)
    return playouts if name == "search" else None


def turns_of(name: str, turns: int | None = None) -> int | None:
    """The turns a playout of the bot `name` plays when made with `turns` (None: a bot without
    playouts). Like the count of playouts, a ladder's summary keeps it when it is not 1."""
    if name in _TURNS:
        return turns if turns is not None else _strength_default(name, _TURNS)
    if name == "search":
        return 1 if turns is None else turns
    return None


def make_bot(
    name: str,
    seed: int,
    *,
    budget: float | None = None,
    workers: int | None = None,
    playouts: int | None = None,
    turns: int | None = None,
) -> Bot:
    """A new bot of that name seeded with `seed`. `budget` (seconds a decision: a cap on time for
    `normal` and `hard`, which decide by playouts), `workers` (processes), `playouts` (decide by this
    count of playouts, never by the clock) and `turns` (the turns a playout plays, this one first) are
    the searches'; None leaves their defaults. UnknownBot for any other name."""
    if name == "random":
        return NamedRandomBot(seed)
    if name not in _STRONGER:
        hint = did_you_mean(name, BOT_NAMES)
        raise UnknownBot(
            f"unknown bot '{name}': the bots are {', '.join(BOT_NAMES)}" + (f" ({hint})" if hint else "")
        )
    module_name, class_name = _STRONGER[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise UnknownBot(f"the {name} bot is not part of this version of minis") from None
    factory = getattr(module, class_name)
    if name in ("search", *_PLAYOUTS):
        playouts = playouts_of(name, playouts)
        turns = turns_of(name, turns)
        options = {
            key: value
            for key, value in (
                ("budget", budget),
                ("workers", workers),
                ("playouts", playouts),
                ("turns", turns),
            )
            if value is not None
        }
        from minis.ai import playout  # (loaded with the search's module by now)

        if name in _LEAF and not playout.LEAF_FROM_ENVIRONMENT:  # MINIS_LEAF, when set, decides
            evaluation = getattr(module, _LEAF[name])
            if evaluation is not None:
                options["evaluation"] = evaluation
        bot: Bot = factory(seed, **options)
        if name in _PLAYOUTS:
            bot.name = name
    else:
        bot = factory(seed)
    return bot
