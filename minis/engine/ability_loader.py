"""The one place that loads the ability families (`minis.ability_rules.*`) into a registry.

A family module names its hook classes with `@ability("id")` and may list the effects that block sight
(`SIGHT_BLOCKERS`); `load_abilities` collects both from every family in `FAMILIES`. The rules never
import a family, and no family imports this module: a new family is one module here in `FAMILIES`.
"""

from __future__ import annotations

import functools
from types import ModuleType

from minis.ability_rules import (
    aircraft,
    arrivals,
    attack_dice,
    auras,
    commanders,
    counters,
    cover,
    defense,
    defensive_fire,
    extra_actions,
    indirect,
    modifiers,
    movement,
    obstacles,
    rerolls,
    rulebook,
    special,
    targeting,
    transport,
    water,
)
from minis.engine.ability_api import Ability, AbilityRegistry, SightBlocker

#: The families of the shipped rule set, in the order their abilities are looked up.
FAMILIES: tuple[ModuleType, ...] = (
    rulebook,
    attack_dice,
    commanders,
    auras,
    counters,
    cover,
    defense,
    modifiers,
    defensive_fire,
    extra_actions,
    indirect,
    movement,
    rerolls,
    special,
    targeting,
    transport,
    arrivals,
    water,
    obstacles,
    aircraft,
)


def load_abilities(families: tuple[ModuleType, ...] = FAMILIES) -> AbilityRegistry:
    """A registry of the abilities the families define (ValueError if two define the same id)."""
    classes: dict[str, type[Ability]] = {}
    blockers: list[SightBlocker] = []
    for module in families:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Ability)
                and value.__module__ == module.__name__
                and "id" in vars(value)
            ):
                if value.id in classes:
                    raise ValueError(f"ability '{value.id}' is defined twice")
                classes[value.id] = value
        blockers.extend(getattr(module, "SIGHT_BLOCKERS", ()))
    return AbilityRegistry(classes, tuple(blockers))


@functools.cache
def standard_abilities() -> AbilityRegistry:
    """The shipped rule set's abilities (built once: the registry is a value nobody changes)."""
    return load_abilities()
