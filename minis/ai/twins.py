"""Twin games: two bots play the same armies, map and dice twice, each once on each side, so that what the
armies and the dice decide cancels out and what is left is the bots'. `minis match` plays them in
workers with its own seeds (`minis.commands.match.game_specs`); `play_twin_pairs` plays them in this
process from one seed, for the paired strength runs of the tests and `tools/paired_ladder.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

import attrs

from minis.ai.army_maker import make_army
from minis.ai.bot import Bot, play_out
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.game import Game
from minis.mapfile import load_configuration

__all__ = ["Bots", "TwinPairs", "play_twin_pairs"]

#: The bots of one game of a pair: given the side bot A plays and each side's bot seed, the bot of each side.
Bots = Callable[[Side, Mapping[Side, int]], Mapping[Side, Bot]]


@attrs.frozen
class TwinPairs:
    """How the twin pairs went for BOT_A: both games won, split (a draw in either game splits it), both
    lost; `unpaired` games had no twin (an odd --games)."""

    a_won_both: int
    split: int
    b_won_both: int
    unpaired: int

    @classmethod
    def of(cls, scores: Sequence[float]) -> TwinPairs:
        """The pairs of games 0-1, 2-3, ... (BOT_A's scores in game order, as `game_specs` pairs them)."""
        pairs = [scores[i] + scores[i + 1] for i in range(0, len(scores) - 1, 2)]
        return cls(
            pairs.count(2.0),
            len(pairs) - pairs.count(2.0) - pairs.count(0.0),
            pairs.count(0.0),
            len(scores) % 2,
        )

    def line(self) -> str:
        """`twin pairs: A won both 10, split 12, B won both 2` (and the games without a twin)."""
        text = f"twin pairs: A won both {self.a_won_both}, split {self.split}, B won both {self.b_won_both}"
        if self.unpaired:
            text += f" ({self.unpaired} game without its twin: --games is odd)"
        return text


def play_twin_pairs(
    bots: Bots,
    pairs: int,
    seed: int,
    turn_limit: int,
    on_pair: Callable[[int, list[float]], object] | None = None,
) -> list[float]:
    """Bot A's scores (a win 1, a draw 0.5) in `pairs` twin pairs: each pair the same configuration (1-6
    in turn), computer-built armies (100 points), dice and bot seeds, A on the Axis side in the first
    game and on the Allied side in the second; everything from `seed`. `on_pair(pair, twin)` hears each
    pair as it ends, so a run cut short still tells what it played."""
    rng = random.Random(seed)
    cards = card_catalogue()
    scores: list[float] = []
    for pair in range(pairs):
        dice_seed, view_seed = rng.randrange(2**63), rng.randrange(2**63)
        bot_seeds = {Side.AXIS: rng.randrange(2**63), Side.ALLIES: rng.randrange(2**63)}
        axis = make_army(cards, Side.AXIS, 100, rng=random.Random(rng.randrange(2**63)))
        allies = make_army(cards, Side.ALLIES, 100, rng=random.Random(rng.randrange(2**63)))
        twin = []
        for a_side in (Side.AXIS, Side.ALLIES):
            game = Game.new(
                axis,
                allies,
                configuration=1 + pair % 6,
                dice=Dice(seed=dice_seed),
                turn_limit=turn_limit,
                load_board=load_configuration,
            )
            play_out(game, bots(a_side, bot_seeds), seeds=random.Random(view_seed))
            winner = game.winner
            twin.append(0.5 if winner is None else 1.0 if winner is a_side else 0.0)
        scores.extend(twin)
        if on_pair is not None:
            on_pair(pair, twin)
    return scores
