"""Transport abilities beyond the glossary's Transport (which, with Exposed Transport and Gun Transport,
lives in `minis.abilities`): a Soldier that fights from its vehicle, Artillery that may ride."""

from __future__ import annotations

from minis.ability_api import Ability, ability
from minis.rules import activation
from minis.state import GameState, Phase, Unit


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
