"""Commander abilities (rulebook, Commander Abilities): auras around a commander.

They affect the commander itself too, do nothing while it is disrupted (the engine leaves a disrupted
commander's commander abilities out), and two commanders' bonuses of the same name don't add up (the
engine counts each ability id once). Commander: Initiative +N is in `minis.abilities` (rulebook rule).
The Tank Commanders' "Command ..." abilities reach friendly Vehicles up to 2 hexes away (`_Command`);
the other commanders' auras of the catalogue are in `minis.ability_rules.auras`.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis.abilities import disrupted
from minis.engine.ability_api import Ability, AttackContext, FollowUp, ability, near
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.state import GameState, Phase, Unit


def _soldier(unit: Unit) -> bool:
    return bool(unit.card.is_soldier and not unit.card.is_artillery)


@ability("tally-ho")
class TallyHo(Ability):
    """Tally-Ho!: friendly non-Artillery Soldiers that start their movement-phase move in its hex or next
    to it (itself included) get +1 speed."""

    aura = True

    def speed_modifier(self, state: GameState, unit: Unit, owner: Unit) -> int:
        if state.phase is Phase.MOVEMENT and unit.side is owner.side and _soldier(unit) and near(owner, unit):
            return 1
        return 0


@ability("bravery-enforcement")
class BraveryEnforcement(Ability):
    """Bravery Enforcement: disrupted friendly Soldiers in its hex or next to it (itself included) attack
    without the disruption penalty."""

    aura = True

    def ignores_attack_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        unit = ctx.attacker
        return (
            unit.side is owner.side
            and unit.card.is_soldier
            and disrupted(ctx.state, unit)
            and not unit.damaged
            and near(owner, unit)
        )


@ability("exert-will")
class ExertWill(Ability):
    """Exert Will: when its side's movement phase begins, friendly Soldiers in its hex or next to it
    (itself included) lose their face-up Disrupted counters, so they may move and fire normally."""

    def on_phase_start(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        if state.phase is not Phase.MOVEMENT or state.active is not owner.side:
            return
        for unit in state.on_map(owner.side):
            if unit.card.is_soldier and unit.disrupted and near(owner, unit):
                state.update(unit.id, disrupted=False)
                events.append(Event("recover", unit.side, unit.id, note=self.id))


@ability("banzai-charge")
class BanzaiCharge(Ability):
    """Banzai Charge: in its side's assault phase, a friendly non-Artillery Soldier that starts next to it
    (or is the commander itself) and moves one hex into a hex holding an enemy unit may then, in the same
    activation, attack a unit in that hex with +1 on each die."""

    aura = True

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if done != "move" or state.phase is not Phase.ASSAULT or len(path) != 2:
            return ()
        if unit.side is not owner.side or not _soldier(unit) or unit.hex != path[1]:
            return ()
        if unit.id != owner.id and (owner.hex is None or distance(owner.hex, path[0]) > 1):
            return ()
        if not any(other.side is not unit.side for other in state.at(path[1])):
            return ()
        return (FollowUp("attack", self.id),)

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if ctx.mode == self.id and ctx.distance != 0 else None

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 1 if ctx.mode == self.id and ctx.attacker.side is owner.side else 0


@ability("angriff")
class Angriff(BanzaiCharge):
    """Angriff: Banzai Charge's step-in attack with +1 on each die, for friendly non-Artillery Soldiers
    next to it (or itself) that are not disrupted."""

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if disrupted(state, unit):  # one that may move while disrupted (Courage) gets no Angriff attack
            return ()
        return super().follow_ups(state, unit, owner, done, path)


#: How far the Tank Commanders' "Command ..." abilities reach (hexes).
COMMAND_REACH = 2


class _Command(Ability):
    """A Tank Commander's aura for friendly Vehicles up to 2 hexes away, itself included."""

    aura = True

    def commands(self, unit: Unit, owner: Unit) -> bool:
        return (
            unit.side is owner.side
            and unit.card.is_vehicle
            and owner.hex is not None
            and unit.hex is not None
            and distance(owner.hex, unit.hex) <= COMMAND_REACH
        )


@ability("command-leadership")
class CommandLeadership(_Command):
    """Command Leadership: friendly Vehicles up to 2 hexes away are Well Led: one extra attack die in
    their own assault phase (not for defensive fire)."""

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        state = ctx.state
        if ctx.defensive or state.phase is not Phase.ASSAULT or state.active is not ctx.attacker.side:
            return 0
        return 1 if self.commands(ctx.attacker, owner) else 0


@ability("command-ruthless")
class CommandRuthless(_Command):
    """Command Ruthless: friendly Vehicles up to 2 hexes away have Ruthless (+1 on each die against a
    disrupted or damaged target); a Vehicle with Ruthless of its own gets no second +1."""

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        attacker, target = ctx.attacker, ctx.target
        if attacker.card.has("ruthless") or not self.commands(attacker, owner):
            return 0
        return 1 if disrupted(ctx.state, target) or target.damaged else 0


@ability("command-quick-reactions")
class CommandQuickReactions(_Command):
    """Command Quick Reactions: a friendly Vehicle up to 2 hexes away that attacks in its assault phase
    may then turn to any facing (`face U D`) in the same activation, unless it may not turn (disrupted);
    the turn is its last action (extra attacks not yet made are lost)."""

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if done == "attack" and state.phase is Phase.ASSAULT and self.commands(unit, owner):
            return (FollowUp("face", self.id),)
        return ()


@ability("command-awareness")
class CommandAwareness(_Command):
    """Command Awareness: friendly Vehicles up to 2 hexes away have Awareness: an enemy Soldier stepping
    into the Vehicle's own hex provokes its defensive fire (other steps of Soldiers still don't)."""

    def provokes_step(
        self, state: GameState, mover: Unit, firer: Unit, owner: Unit, a: Hex, b: Hex
    ) -> bool | None:
        if (
            b == firer.hex
            and mover.card.is_soldier
            and mover.side is not firer.side
            and self.commands(firer, owner)
        ):
            return True
        return None
