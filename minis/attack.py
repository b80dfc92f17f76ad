"""One attack as the abilities' hooks see it (`AttackContext`, built by `minis.abilities.attack_context`).

A module of its own, below `minis.ability_api`: it names the state's classes in its fields, which a
compiled class (the fast build, `minis/fast.py`) needs at import time, and `minis.state` imports the
battle, which imports `minis.ability_api`; the hooks there name `AttackContext` for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from minis.state import GameState, Unit

if TYPE_CHECKING:
    from minis.ability_api import Ability
    from minis.cards import RangeBand


@attrs.frozen(slots=True)
class AttackContext:
    """One attack as the hooks see it. `front` is True for an attack on a Vehicle's front defense."""

    state: GameState
    attacker: Unit
    target: Unit
    distance: int
    band: RangeBand | None
    defensive: bool = False
    front: bool = False
    #: The abilities with a say in this attack (filled by `attack_context`): (owner, hook) pairs.
    sources: tuple[tuple[Unit, Ability], ...] = ()
    #: The ability whose extra action this attack is ("" for a unit's normal attack or defensive fire).
    mode: str = ""
