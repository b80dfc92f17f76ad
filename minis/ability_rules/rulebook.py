"""The abilities the rulebook itself defines: the glossary's Transport (with Exposed Transport and Gun
Transport), Blast, and the commanders' initiative bonus."""

from __future__ import annotations

from minis.engine.ability_api import Ability, AttackContext, ability
from minis.state import GameState, Unit


@ability("commander-initiative")
class CommanderInitiative(Ability):
    """Commander: Initiative +N (rulebook, Initiative Phase): the army's best bonus is added."""

    def initiative_bonus(self, state: GameState, owner: Unit) -> int:
        return self.number or 0


@ability("blast")
class Blast(Ability):
    """Blast (glossary): a separate attack on every other unit in the target hex, friends included,
    defensive fire too; the engine orders them (the chosen target first, then by entry into the hex)."""

    def blast(self, ctx: AttackContext, owner: Unit) -> bool:
        return owner is ctx.attacker


class _Transport(Ability):
    """Transport (glossary): carries one Soldier, never Artillery; the Soldier can't act or be attacked."""

    def capacity(self, owner: Unit) -> int:
        return 1

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        if owner is not transport:
            return None
        return soldier.card.is_soldier and (not soldier.card.is_artillery or self._carries_artillery(soldier))

    def _carries_artillery(self, soldier: Unit) -> bool:
        return soldier.card.has("light-artillery")


@ability("transport")
class Transport(_Transport):
    pass


@ability("exposed-transport")
class ExposedTransport(_Transport):
    """Like Transport, but the Soldier aboard may still be picked as a target."""

    def passenger_targetable(self, owner: Unit) -> bool:
        return True


@ability("gun-transport")
class GunTransport(_Transport):
    """Like Transport, and it may carry Artillery that is not Large."""

    def _carries_artillery(self, soldier: Unit) -> bool:
        return not soldier.card.has("large")
