"""The ability hooks: the engine asks them, and combines them by the rulebook's principles.

Throw-away abilities go on copies of real cards, played with a registry that has their hooks too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs
import pytest
from engine_support import board, position, unit

from minis.base.sides import Side
from minis.cards import AbilityRef
from minis.engine.ability_api import Ability, AbilityRegistry, AttackContext, ability
from minis.engine.ability_loader import standard_abilities
from minis.engine.actions import Use
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.errors import IllegalAction
from minis.rules.flags import mark_used, used_this_game
from minis.rules.movement import speed
from minis.state import GameState, Unit

B = board("""
F C C C C C
 C C C C C
C C C C C C
""")


def with_ability(u: Unit, ability_id: str, commander: bool = False, number: int | None = None) -> Unit:
    ref = AbilityRef(ability_id, ability_id, number, "test ability", commander)
    return attrs.evolve(u, card=attrs.evolve(u.card, abilities=(*u.card.abilities, ref)))


@pytest.fixture
def register() -> Iterator[Callable[..., AbilityRegistry]]:
    """Builds the shipped registry with throw-away abilities added: `register(("id", Class), ...)`."""

    def build(*pairs: tuple[str, type[Ability]]) -> AbilityRegistry:
        return standard_abilities().with_classes(*(ability(name)(cls) for name, cls in pairs))

    yield build


class Sharp(Ability):
    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if owner is ctx.attacker else 0


class Camouflage(Ability):
    def cover_automatic(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return True if owner is ctx.target else None


class Spotter(Ability):
    aura = True

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return -1 if ctx.attacker.side is owner.side else 0


class Stuck(Ability):
    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return False if unit is owner else None


class Quick(Ability):
    def speed_modifier(self, state: GameState, unit: Unit, owner: Unit) -> int:
        return 1 if unit is owner else 0


class Shout(Ability):
    def use_actions(self, state: GameState, owner: Unit) -> list[tuple[str, ...]]:
        return [] if used_this_game(state, "shouted", owner.id) else [()]

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        return "only once" if used_this_game(state, "shouted", owner.id) else None

    def use(self, state: GameState, owner: Unit, args: tuple[str, ...], dice, events) -> None:
        mark_used(state, "shouted", owner.id)


def _plan(game, a: str, t: str) -> AttackPlan:
    plan = plan_attack(game.state, game.state.units[a], game.state.units[t])
    assert isinstance(plan, AttackPlan)
    return plan


def test_a_die_modifier_hook_changes_the_attack(register) -> None:
    rules = register(("test-sharp", Sharp))
    shooter = with_ability(unit(B, "a", "mauser-kar-98k", "axis", "B1"), "test-sharp")
    game = position(
        B,
        [shooter, unit(B, "t", "m1-garand-rifle", "allies", "B2")],
        phase="assault",
        active="axis",
        abilities=rules,
    )
    assert _plan(game, "a", "t").modifier == 1
    game.push_dice([3, 3, 3, 3, 1, 1, 1, 1])  # 3 + 1 = 4: four successes
    game.apply("attack a t")
    assert game.state.units["t"].pending


def test_a_fixed_cover_result_draws_no_die(register) -> None:
    rules = register(("test-camo", Camouflage))
    target = with_ability(unit(B, "t", "m1-garand-rifle", "allies", "A1"), "test-camo")
    units = [unit(B, "a", "mauser-kar-98k", "axis", "A2"), target]
    game = position(B, units, phase="assault", active="axis", abilities=rules)
    assert _plan(game, "a", "t").cover_fixed is True
    game.push_dice([6] * 8)  # 8 successes: three hits, limited to disruption without a cover die
    game.apply("attack a t")
    assert game.dice.remaining() == 0
    assert [c.value for c in game.state.units["t"].pending] == ["disrupted"]


def test_commander_auras_of_the_same_name_do_not_add_and_stop_when_disrupted(register) -> None:
    rules = register(("test-spotter", Spotter))
    one = with_ability(unit(B, "c1", "smle-no-4-rifleman", "allies", "C1"), "test-spotter", commander=True)
    two = with_ability(unit(B, "c2", "smle-no-4-rifleman", "allies", "C2"), "test-spotter", commander=True)
    units = [
        one,
        two,
        unit(B, "a", "m1-garand-rifle", "allies", "B1"),
        unit(B, "t", "mauser-kar-98k", "axis", "A1"),
    ]
    game = position(B, units, phase="assault", abilities=rules)
    assert _plan(game, "a", "t").cover_modifier == -1
    quiet = [attrs.evolve(one, disrupted=True), attrs.evolve(two, disrupted=True), *units[2:]]
    assert _plan(position(B, quiet, phase="assault", abilities=rules), "a", "t").cover_modifier == 0


def test_cant_trumps_can_and_speed_hooks(register) -> None:
    rules = register(("test-stuck", Stuck), ("test-quick", Quick))
    stuck = with_ability(
        with_ability(unit(B, "s", "m1-garand-rifle", "allies", "B3"), "test-quick"), "test-stuck"
    )
    quick = with_ability(unit(B, "q", "m1-garand-rifle", "allies", "B4"), "test-quick")
    game = position(B, [stuck, quick, unit(B, "e", "mauser-kar-98k", "axis", "A6")], abilities=rules)
    with pytest.raises(IllegalAction, match="keeps s from moving"):
        game.apply("move s B2")
    assert speed(game.state, game.state.units["q"]) == 2
    game.apply("move q C4 C3")


def test_an_abilitys_own_action(register) -> None:
    rules = register(("test-shout", Shout))
    shouter = with_ability(unit(B, "s", "m1-garand-rifle", "allies", "B3"), "test-shout")
    game = position(B, [shouter, unit(B, "e", "mauser-kar-98k", "axis", "A6")], abilities=rules)
    assert Use("s", "test-shout") in game.legal_actions()
    game.apply("use s test-shout")
    assert game.state.used == {("shouted", "s")} and Use("s", "test-shout") not in game.legal_actions()
    with pytest.raises(IllegalAction, match="only once"):
        game.apply("use s test-shout")
    with pytest.raises(IllegalAction, match="no ability"):
        game.apply("use s fly")
    assert game.decider() is Side.ALLIES
