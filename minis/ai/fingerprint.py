"""A short digest of how the rules and two bots play today, so ladder chunks pool only with their like.

A ladder is played in chunks across sessions (`minis match --summary`, tools/ladder_pool.py). Chunks
of the same bot names and settings may still come from code that plays otherwise: a bot tuned between
sessions, or a broken fast build (one let a Strike and Fade unit move again and again after attacking,
and gave no Antiair unit its reaction shot). The fingerprint plays a little of each, seeded: two random
games to their end (the rules, by the digest of their records) and each bot's choice in a few positions
from a seeded game (the bots, deciding by a count of playouts), with the learned table's log-odds
there for a search that scores by it. Equal fingerprints do not prove equal
play, but a change in the rules or the bots' search almost always shows in it; it takes a few seconds.
(The turn's last decisions are among the positions since the exact end of the turn changed the bots'
play there and nowhere else, and a fingerprint without them did not tell the two apart.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from minis.ai import learned, playout
from minis.ai.bot import Bot, view
from minis.ai.endings import applies
from minis.ai.random_bot import RandomBot
from minis.ai.registry import make_bot
from minis.ai.search import SearchBot
from minis.army import load_army
from minis.dice import Dice
from minis.game import Game
from minis.record import record_text

#: The armies the fingerprint plays (shipped with the game).
ARMIES = Path(__file__).resolve().parent.parent.parent / "armies"
#: Random games played to their end, and the positions of one from which the bots choose.
GAMES = 2
POSITIONS = 3
#: The random actions before each position at least, and the legal actions it has at least.
STEP = 40
CHOICES = 20
#: Positions of the turn's last decisions, few units left to act (`minis.ai.endings.applies`), and the
#: random games played at most to find them all.
ENDINGS = 2
GAMES_FOR_POSITIONS = 3


def _game(seed: int) -> Game:
    axis = load_army(ARMIES / "sample-axis.toml")
    allies = load_army(ARMIES / "sample-allies.toml")
    return Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed))


def _positions() -> list[Game]:
    """The positions the bots choose in: `POSITIONS` decisions with a choice to make, `STEP` random
    actions apart, then `ENDINGS` of the turn's last decisions (what `minis.ai.endings` plays exactly),
    all from one seeded random game (and, should it end first, the next)."""
    found: list[Game] = []
    endings = 0
    for seed in range(7, 7 + GAMES_FOR_POSITIONS):
        game = _game(seed)
        mover = RandomBot(seed)
        since = 0
        while game.decider() is not None and (len(found) < POSITIONS or endings < ENDINGS):
            if len(found) < POSITIONS:
                if since >= STEP and len(game.legal_actions()) >= CHOICES:
                    found.append(game.copy(record=False))
                    since = 0
            elif applies(game) and since >= 1:
                found.append(game.copy(record=False))
                endings += 1
                since = -STEP  # the next one from another turn
            game.apply(mover.choose(game))
            since += 1
        if len(found) >= POSITIONS and endings >= ENDINGS:
            break
    return found


def play_fingerprint(names: Sequence[str], playouts: int | None = None, turns: int | None = None) -> str:
    """16 hex digits from the rules' and the named bots' play (bots with `playouts` and `turns` as
    `minis match` makes them)."""
    digest = hashlib.sha256()
    for seed in range(GAMES):
        game = _game(seed)
        mover = RandomBot(seed)
        while game.decider() is not None:
            game.apply(mover.choose(game))
        digest.update(record_text(game).encode())
    for position, game in enumerate(_positions()):
        side = game.decider()
        assert side is not None
        for name in names:
            bot = make_bot(name, 1000 + position, workers=0, playouts=playouts, turns=turns)
            choice = bot.choose(view(game, side, position))  # from its side's view, as in a match
            digest.update(f"{position} {name} {side.value} {game.format(choice)}\n".encode())
            digest.update(_learned_leaf(bot, game).encode())
    return digest.hexdigest()[:16]


def _learned_leaf(bot: Bot, game: Game) -> str:
    """What a searching bot's leaf makes of the position when it reads the learned table (`"learned"`
    or `"both"`): the model's log-odds, every bit. A refitted table (or a feature counted otherwise) need
    not change a choice in these few positions, yet plays other games otherwise: the chunks of one must
    not pool with the other's. Nothing for the hand-set leaf, so its chunks keep their fingerprints."""
    if not isinstance(bot, SearchBot):
        return ""
    evaluation = getattr(bot, "evaluation", None) or playout.EVALUATION
    model = learned.shipped_model()
    if evaluation == "hand" or model is None:
        return ""
    side = game.decider()
    assert side is not None
    return f"leaf {evaluation} {model.logit(game.state, side)!r}\n"
