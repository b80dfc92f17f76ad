"""Transport abilities beyond the glossary's Transport (which, with Exposed Transport and Gun Transport,
lives in `minis.abilities`): a Soldier that fights from its vehicle, Artillery that may ride, transports
for two Soldiers or for a light gun, units no transport takes, and a dismount after the ride.
"""

from __future__ import annotations

from collections.abc import Iterable

from minis import abilities
from minis.ability_rules.rulebook import _Transport
from minis.dice import Dice
from minis.engine.ability_api import Ability, ability
from minis.engine.events import Event
from minis.rules import activation, water
from minis.rules import transport as transport_rules
from minis.rules.stacking import room_for
from minis.state import GameState, Phase, Stage, Unit


@ability("fighting-platform")
class FightingPlatform(Ability):
    """Fighting Platform: a non-Artillery Soldier aboard may make defensive-fire attacks, and may attack
    in its assault phase if the vehicle hasn't moved (or turned) that phase; once it has attacked, the
    vehicle can't move for the rest of the phase (it must not have moved in that phase)."""

    def passenger_may_fire(self, state: GameState, transport: Unit, passenger: Unit, defensive: bool) -> bool:
        if passenger.card.is_artillery:
            return False
        if defensive:
            return True
        return state.phase is Phase.ASSAULT and not activation.moved(state, transport.id)

    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        if state.phase is not Phase.ASSAULT:
            return None
        passenger = state.passenger(owner.id)
        if passenger is not None and activation.attacked(state, passenger.id):
            return False
        return None


@ability("light-artillery")
class LightArtillery(Ability):
    """Light Artillery: this Artillery may ride a Vehicle with Transport, Exposed Transport or Gun
    Transport (those abilities check for it when they decide whom they carry: `abilities._Transport`)."""


class TwoSoldierTransport(_Transport):
    """A transport for two Soldiers (Large Transport, Heavy Transport); Artillery of any size may ride."""

    def capacity(self, owner: Unit) -> int:
        return 2

    def _carries_artillery(self, soldier: Unit) -> bool:
        return True


@ability("large-transport")
class LargeTransport(TwoSoldierTransport):
    """Large Transport: carries two Soldiers, at most one of them Artillery (of any size)."""

    def boarding_problem(self, state: GameState, transport: Unit, soldier: Unit) -> str | None:
        if soldier.card.is_artillery and any(
            u.carried_by == transport.id and not u.removed and u.card.is_artillery
            for u in state.units.values()
        ):
            return f"{transport.id} already carries an Artillery unit; it takes only one"
        return None


@ability("heavy-transport")
class HeavyTransport(TwoSoldierTransport):
    """Heavy Transport: carries two Soldiers, Artillery of any size and number included."""


@ability("light-towing")
class LightTowing(_Transport):
    """Light Towing: carries (tows) one unit that has Light Artillery, and no other; the gun boards and
    gets off as a Soldier does with Transport, and can't act or be attacked while towed."""

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        if owner is not transport:
            return None
        return soldier.card.is_soldier and soldier.card.has("light-artillery")


@ability("dug-in")
class DugIn(Ability):
    """Dug In: it never moves, and no transport can carry it."""

    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return False if unit.id == owner.id else None

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        return False if owner is soldier else None


@ability("mechanized-tactics")
class MechanizedTactics(Ability):
    """Mechanized Tactics: a Soldier that has used its move this movement phase (by boarding) may still
    dismount once its transport has moved in that phase: `use U mechanized-tactics`. The dismount is
    not a move (the ordinary dismount, by a Soldier that started the phase aboard, is its move)."""

    def _problem(self, state: GameState, owner: Unit) -> str | None:
        if state.phase is not Phase.MOVEMENT:
            return f"{owner.id} can use Mechanized Tactics only in its movement phase"
        if owner.carried_by is None:
            return f"{owner.id} is not aboard a transport"
        if owner.id not in state.activated:
            return f"{owner.id} hasn't used its move yet: it dismounts as usual ('dismount')"
        if not activation.moved(state, owner.carried_by):
            return f"{owner.id} can dismount this way only after {owner.carried_by} has moved this phase"
        if owner.disrupted and abilities.disrupted(state, owner):
            return f"{owner.id} is disrupted and can't dismount"
        if water.in_water(state, owner.hex):
            return f"{owner.id} can't get off into the water: it lands on a bank with 'dismount'"
        return None

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        return [()] if self._problem(state, owner) is None else []

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        if args:
            return "Mechanized Tactics takes no target: 'use U mechanized-tactics'"
        problem = self._problem(state, owner)
        where = owner.hex
        if problem is None and where is not None and not room_for(state, owner, where):
            return (
                None
                if transport_rules.placements(state, owner, where)
                else f"nowhere near for {owner.id} to get off"
            )
        return problem

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        assert owner.hex is not None
        if room_for(state, owner, owner.hex):
            state.update(owner.id, carried_by=None, entered=state.next_entry())
            events.append(Event("dismount", owner.side, owner.id, hexes=(owner.hex,)))
        else:  # as an ordinary dismount that breaks stacking: the opponent places the Soldier
            state.placing = owner.id
            state.stage = Stage.PLACE
