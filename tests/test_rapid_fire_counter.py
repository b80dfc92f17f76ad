"""Rapid Fire's Disrupted counter stays through the next casualty phase (the Brixia's card): a game saved
while the next turn's initiative is chosen, and loaded again, shows the mortar disrupted.

The rules test tests/rules/abilities/rapid-fire-a-one-disrupts-through-casualty-phase.toml checks the
state step by step; this checks the same in a real game's save, which a player would load.
"""

from __future__ import annotations

from pathlib import Path

from minis.ai.random_bot import RandomBot
from minis.army import Army, load_army
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.record import load, save
from minis.state import Phase, Stage

ROOT = Path(__file__).resolve().parent.parent
MORTARS = Army("mortars", "axis", units=("brixia-m35-45mm-mortar",) * 15)
SEED = 3  # the random bot's game in which a Brixia's extra attack shows a 1 in turn 2's assault phase


def _to_initiative_after_rapid_fire() -> tuple[Game, str]:
    """Play until the initiative choice of the turn after a Brixia disrupted itself with Rapid Fire."""
    allies = load_army(ROOT / "armies" / "sample-allies.toml")
    game = Game.new(MORTARS, allies, configuration=1 + SEED % 6, dice=Dice(seed=SEED), turn_limit=6)
    bot = RandomBot(SEED)
    fired: tuple[str, int] | None = None
    while game.decider() is not None:
        action = bot.choose(game)
        events = game.apply(action)
        if (
            isinstance(action, A.Attack)
            and game.state.phase is Phase.ASSAULT
            and any(e.kind == "counter" and e.unit == action.unit and e.note == "disrupted" for e in events)
        ):
            fired = (action.unit, game.state.turn)  # only Rapid Fire's extra attack disrupts its own unit
        if fired and game.state.stage is Stage.CHOOSE_FIRST and game.state.turn == fired[1] + 1:
            return game, fired[0]
    raise AssertionError("no Brixia disrupted itself with Rapid Fire in the seeded game")


def test_the_counter_is_on_while_initiative_is_chosen_and_in_a_save(tmp_path: Path) -> None:
    game, mortar = _to_initiative_after_rapid_fire()
    assert game.state.phase is Phase.INITIATIVE
    assert game.state.units[mortar].disrupted  # the casualty phase just past left it on
    path = tmp_path / "game.save"
    save(game, path)
    loaded = load(path)
    assert loaded.state.stage is Stage.CHOOSE_FIRST
    assert loaded.state.units[mortar].disrupted
    assert loaded.state.snapshot() == game.state.snapshot()
