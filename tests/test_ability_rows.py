"""The abilities that are rows of a table (`minis.ability_rules.modifiers`): each row is a class of the
registry under its id that answers one hook, every condition of the vocabulary is a test that can say
no, and a row's number comes from the card where it says so. What each ability does in a battle is
its rules tests' (tests/rules/abilities/; `test_abilities_mutation.py` switches each off)."""

from __future__ import annotations

import pickle
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from minis.ability_rules import modifiers
from minis.ability_rules.modifiers import (
    MODIFIERS,
    REFUSALS,
    ROWS,
    Modifier,
    Part,
    Refusal,
    Role,
    When,
    checks,
    row_class,
)
from minis.cards import AbilityRef, UnitType
from minis.content.ability_catalogue import ABILITIES
from minis.engine.ability_api import class_hooks
from minis.engine.ability_loader import FAMILIES, standard_abilities

ROW_IDS = [row.id for row in ROWS]


@pytest.mark.parametrize("row", ROWS, ids=ROW_IDS)
def test_each_row_is_the_registrys_class_for_its_id_and_answers_one_hook(row: Modifier | Refusal) -> None:
    klass = standard_abilities().classes[row.id]
    assert klass.__module__ == modifiers.__name__ and getattr(modifiers, klass.__name__) is klass
    assert class_hooks(klass) == {row.part.value}
    assert row.id in ABILITIES  # a card may name it


def test_no_ability_is_both_a_row_and_a_class() -> None:
    assert len(set(ROW_IDS)) == len(ROW_IDS)
    written = {
        value.id
        for family in FAMILIES
        if family is not modifiers
        for value in vars(family).values()
        if isinstance(value, type) and "id" in vars(value)
    }
    assert not written & set(ROW_IDS)


def test_a_row_of_one_kind_with_a_part_of_the_other_is_refused() -> None:
    with pytest.raises(ValueError, match="a Refusal can't have the part DIE"):
        row_class(Refusal("x", Part.DIE, Role.ATTACKING))
    with pytest.raises(ValueError, match="a Modifier can't have the part NO_ATTACK"):
        row_class(Modifier("x", Part.NO_ATTACK, 1, Role.ATTACKING))


def test_every_condition_is_used_and_is_one_test() -> None:
    used = {
        field.name
        for row in ROWS
        for field in attrs.fields(When)
        if getattr(row.when, field.name) != field.default
    }
    assert used == {field.name for field in attrs.fields(When)}
    samples: dict[str, object] = {
        "target": UnitType.VEHICLE,
        "attacker": UnitType.SOLDIER,
        "attacker_has": "x",
    }
    for field in attrs.fields(When):
        value = samples.get(field.name, True if field.type in ("bool", bool) else None)
        if field.name == "terrain":
            value = frozenset(["F"])
        elif value is None:
            value = 3
        assert len(checks(When(**{field.name: value}))) == 1, field.name


def _ctx(**given: Any) -> SimpleNamespace:
    """An attack as the conditions read it (those that read only the attack, not the battle)."""
    soldier = SimpleNamespace(type=UnitType.SOLDIER, has=lambda ability_id: ability_id == "close-assault")
    unit = SimpleNamespace(id="attacker", card=soldier)
    target = SimpleNamespace(id="target", card=SimpleNamespace(type=UnitType.VEHICLE, has=lambda _: False))
    values = {"attacker": unit, "target": target, "defensive": False, "front": True, "distance": 3}
    return SimpleNamespace(**{**values, **given})


@pytest.mark.parametrize(
    ("when", "yes", "no"),
    [
        (When(defensive=True), {"defensive": True}, {}),
        (When(rear=True), {"front": False}, {}),
        (When(at_least=3), {}, {"distance": 2}),
        (
            When(target=UnitType.VEHICLE),
            {},
            {"target": SimpleNamespace(id="t", card=SimpleNamespace(type=UnitType.SOLDIER))},
        ),
        (
            When(attacker=UnitType.SOLDIER),
            {},
            {"attacker": SimpleNamespace(id="a", card=SimpleNamespace(type=UnitType.VEHICLE))},
        ),
        (
            When(attacker_has="close-assault"),
            {},
            {"attacker": SimpleNamespace(id="a", card=SimpleNamespace(has=lambda _: False))},
        ),
    ],
)
def test_a_condition_of_the_attack_says_yes_and_no(
    when: When, yes: dict[str, Any], no: dict[str, Any]
) -> None:
    (test,) = checks(when)
    owner = SimpleNamespace(id="target")
    assert test(None, _ctx(**yes), owner)
    assert not test(None, _ctx(**no), owner)


def _handler(ability_id: str, number: int | None) -> Any:
    klass = standard_abilities().classes[ability_id]
    return klass(AbilityRef(ability_id, ABILITIES[ability_id].name, number, ""))


def test_a_modifier_counts_the_cards_number_where_the_row_says() -> None:
    owner = SimpleNamespace(id="attacker")
    assert _handler("inaccurate", 2).die_modifier(_ctx(), owner) == -2
    assert _handler("inaccurate", None).die_modifier(_ctx(), owner) == 0
    assert _handler("tank-hunter", None).die_modifier(_ctx(), owner) == 1
    assert _handler("steady-firing", None).extra_dice(_ctx(), owner) == 0  # the target is no Soldier


def test_a_row_acts_only_in_its_role() -> None:
    attacker, target = SimpleNamespace(id="attacker"), SimpleNamespace(id="target")
    tank_hunter = _handler("tank-hunter", None)
    assert tank_hunter.die_modifier(_ctx(), attacker) == 1 and tank_hunter.die_modifier(_ctx(), target) == 0
    sideskirts = _handler("sideskirts", None)
    assert (
        sideskirts.defense_modifier(_ctx(), target) == 1
        and sideskirts.defense_modifier(_ctx(), attacker) == 0
    )
    limited = _handler("limited-range", 2)
    assert (
        limited.may_attack(_ctx(), attacker) is False
        and limited.may_attack(_ctx(distance=2), attacker) is None
    )
    assert limited.may_attack(_ctx(), target) is None
    assert _handler("bombardment", None).cover_allowed(_ctx(), attacker) is False


@pytest.mark.parametrize("ability_id", ["tank-hunter", "concealed", "fury"])
def test_a_rows_ability_pickles_by_name(ability_id: str) -> None:
    """A position the search sends to its workers holds the cards' abilities: by module and class name."""
    handler = _handler(ability_id, 2)
    again = pickle.loads(pickle.dumps(handler))
    assert type(again) is type(handler) and again.number == 2


def test_the_tables_hold_every_row_once() -> None:
    assert (*MODIFIERS, *REFUSALS) == ROWS
    assert all(isinstance(row, Modifier) for row in MODIFIERS) and all(
        isinstance(r, Refusal) for r in REFUSALS
    )
