"""End positions from real games, solved, and the bots' choices in them measured (docs/ai.md).

`positions(seed)` plays seeded games between heuristic bots (computer-built armies, the six battle
maps in turn, the match's turn limit) and yields every decision of the second player's assault phase
from turn 7 on (the Standard objective counts from then): the last decisions of a turn, after which
only the casualty phase and the victory check remain (with `both`, the first player's assault phase
too, whose solution covers the second's replies). Each is cut down to the
solver's size (`reduce`): every side keeps its `MAX_UNITS` units that matter most (those nearest an
enemy unit, the dearer first among equals; the others are taken off the map) and the game ends at the
end of the turn, as under a turn limit, so that every line of play is decided by then. `solved` solves
a position; `verdicts` asks each bot for its choice from its side's view (`minis.ai.bot.view`), as a
game would, and what it costs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

import attrs

from minis.ai.army_maker import make_army
from minis.ai.bot import Bot, view
from minis.ai.registry import make_bot
from minis.ai.solver import MAX_UNITS, Solution, SolverError, action_value, as_last_turn, solve
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, distance
from minis.mapfile import load_configuration
from minis.state import Phase, Stage, Unit

#: The points of the armies the games are played with (the Standard scenario's).
POINTS = 100
#: The turn limit of the games (as `minis match` plays them).
TURN_LIMIT = 30
#: The first turn whose assault phases give positions: the Standard objective counts from its end on
#: (before it, no victory condition applies, and a last turn would be a draw whatever is done).
FIRST_TURN = 7


@attrs.frozen
class Verdict:
    """A bot's choice in a solved position: its notation and what it cost against the best."""

    bot: str
    notation: str
    loss: Fraction


def games(seed: int) -> Iterator[Game]:
    """Seeded games played to their end by two heuristic bots, each kept with every position of its
    final turn's assault phases (`Game` copies in `final_positions`)."""
    rng = random.Random(seed)
    cards = card_catalogue()
    number = 0
    while True:
        armies = {
            side: make_army(cards, side, POINTS, rng=random.Random(rng.randrange(2**63)))
            for side in (Side.AXIS, Side.ALLIES)
        }
        game = Game.new(
            armies[Side.AXIS],
            armies[Side.ALLIES],
            configuration=number % 6 + 1,
            dice=Dice(seed=rng.randrange(2**63)),
            turn_limit=TURN_LIMIT,
            load_board=load_configuration,
        )
        number += 1
        yield game


def positions(seed: int, both: bool = False, max_actions: int = 20_000) -> Iterator[Game]:
    """The decisions of the second player's assault phase (`both`: of both assault phases) of seeded
    heuristic games from `FIRST_TURN` on, each reduced (`reduce`: the turn made the last) and with at
    least two legal actions, each position once."""
    draw = random.Random(seed ^ 0x5EED)
    seen: set[object] = set()  # a decision of a unit the cut took off leaves the same position
    for game in games(seed):
        bots: dict[Side, Bot] = {side: make_bot("heuristic", draw.randrange(2**63)) for side in Side}
        kept: list[Game] = []
        for _ in range(max_actions):
            side = game.decider()
            if side is None:
                break
            state = game.state
            if (
                state.phase is Phase.ASSAULT
                and state.stage is Stage.ACT
                and state.turn >= FIRST_TURN
                and (both or state.active is not state.first)
            ):
                kept.append(game.copy(record=False))
            game.apply(bots[side].choose(view(game, side, draw.randrange(2**63))))
        for position in kept:
            reduced = reduce(position)
            if reduced is None or len(reduced.legal_actions()) < 2:
                continue
            key = _same(reduced)
            if key not in seen:
                seen.add(key)
                yield reduced


def _same(game: Game) -> object:
    """What makes two reduced positions the same (the units taken off and their notes left out)."""
    state = game.state
    present = {u.id for u in state.units.values() if not u.removed}
    every = state.snapshot()[0]  # one tuple a unit, its id first
    assert isinstance(every, tuple)
    units = tuple(part for part in every if part[0] in present)
    return (
        state.battle.board,
        state.objective,
        units,
        state.turn,
        state.phase,
        state.first,
        state.active,
        tuple(sorted(state.activated & present)),
    )


def reduce(game: Game) -> Game | None:
    """The position cut to `MAX_UNITS` units a side, ending at the end of its turn (None: a position
    the cut cannot make, one with aircraft or Soldiers carried in a transport)."""
    state = game.state
    present = [u for u in state.units.values() if not u.removed]
    if any(u.card.is_aircraft or u.carried_by is not None or u.hex is None for u in present):
        return None
    twin = as_last_turn(game)
    for side in Side:
        mine = [u for u in present if u.side is side]
        enemies = [u.hex for u in present if u.side is not side and u.hex is not None]
        for unit in sorted(mine, key=lambda u: _nearness(u, enemies))[MAX_UNITS:]:
            twin.state.update(unit.id, hex=None, removed=True)
            twin.state.activated.discard(unit.id)
    if twin.decider() is None or any(
        sum(1 for u in twin.state.units.values() if u.side is side and not u.removed) == 0 for side in Side
    ):
        return None
    return twin


def _nearness(unit: Unit, enemies: Sequence[Hex]) -> tuple[int, int, str]:
    """How much a unit matters to the end of the turn: nearest an enemy first, then the dearer."""
    assert unit.hex is not None
    return min((distance(unit.hex, h) for h in enemies), default=0), -int(unit.card.cost), unit.id


def solved(game: Game, max_nodes: int) -> Solution | None:
    """The solution of `game`, or None when it is beyond `max_nodes`."""
    try:
        return solve(game, max_nodes=max_nodes)
    except SolverError:
        return None


def verdicts(
    game: Game, solution: Solution, bots: Mapping[str, Bot], seed: int, max_nodes: int
) -> list[Verdict]:
    """Each bot's choice in the solved position `game`, asked from its side's view (seeded with
    `seed`), and what it costs."""
    side = game.decider()
    assert side is not None
    found = []
    for name, bot in bots.items():
        action = bot.choose(view(game, side, seed))
        found.append(Verdict(name, game.format(action), _loss(game, solution, action, max_nodes)))
    return found


def _loss(game: Game, solution: Solution, action: A.Action, max_nodes: int) -> Fraction:
    """What `action` costs against the best: from the solution, or valued on its own when the bot
    wrote it otherwise than the legal list does (another path to the same hex)."""
    notation = game.format(action)
    for choice in solution.choices:
        if choice.notation == notation:
            return solution.value - choice.value
    return solution.value - action_value(game, action, solution.side, max_nodes)
