"""Aircraft abilities (the Contested Skies cards; docs/aircraft.md).

The Aircraft keyword itself is the rule system of `minis.rules.air` (placing, airstrikes, attacks on
aircraft, hits): registered here with no hooks of its own so that aircraft cards load. Ace is a role the
air rules ask about (`minis.engine.air_roles.AirRole`). The others are hooks of attacks:

- range and dice: Agility, Jet, Sirens (Steady Firing and Slow are rows of `modifiers`; Vast
  Experience, Inaccurate, Ruthless, Superior Armor and Steely Resolve are the ground families' own and
  work on aircraft unchanged);
- an extra attack after the airstrike: Strafe (a follow-up, like the extra attacks of `extra_actions`);
- once a game, instead of the aircraft's airstrike: `use U rockets T`, `use U bombs T` and
  `use U speed-boost T` (actions of their own, like HE Round: the player or bot chooses when).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from minis import abilities
from minis.ability_rules._common import (
    add_this_phase,
    attacking,
    mark_used,
    terrain_of,
    this_phase,
    used_this_game,
)
from minis.ability_rules.attack_dice import SIX
from minis.cards import RangeBand, UnitType
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, AttackOption, FollowUp, ability
from minis.engine.air_roles import AirRole
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.rules import activation, casualty
from minis.rules.air_attacks import ground
from minis.rules.combat import SUCCESS, AttackPlan, plan_attack, resolve_attack
from minis.state import Counter, GameState, Phase, Unit
from minis.terrain import Terrain


@ability("aircraft")
class Aircraft(Ability):
    """Aircraft: what it means is the engine's own (`minis.rules.air`), not a hook of the card's."""


@ability("ace")
class Ace(AirRole, Ability):
    """Ace: it attacks aircraft without the -1 on each die, and gets a reaction shot at an enemy aircraft
    placed within 4 hexes of it (`minis.rules.air.reactors`)."""

    ace = True


#: Agility: against an aircraft, the distances that change band (2: short, not medium; 5: medium, not
#: long); 0-1 and 3-4 stay what they were.
AGILE_BANDS = {2: RangeBand.SHORT, 5: RangeBand.MEDIUM}


@ability("agility")
class Agility(Ability):
    """Agility: against an aircraft its short range is 0-2 hexes and its medium range 3-5, so at 2 hexes
    it rolls its short-range dice and at 5 its medium-range dice (vs-Soldier values, as every attack on
    an aircraft)."""

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        band = AGILE_BANDS.get(ctx.distance)
        if band is None or not attacking(ctx, owner) or not ctx.target.card.is_aircraft:
            return ()
        dice = owner.card.attack_dice(UnitType.SOLDIER, band)
        return (AttackOption(dice, source=self.id),) if dice else ()

    def offers_attack_at(self, distance: int) -> bool:
        return distance in AGILE_BANDS


#: Jet: the terrain where it can't attack a Soldier (too fast to pick it out of cover).
JET_HIDDEN = (Terrain.FOREST, Terrain.TOWN, Terrain.MARSH)


@ability("jet")
class Jet(Ability):
    """Jet: it can't attack a Soldier in a forest, town or marsh hex; against an aircraft each 6 it rolls
    scores one more success (two in all)."""

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        target = ctx.target
        if attacking(ctx, owner) and target.card.is_soldier and terrain_of(ctx.state, target) in JET_HIDDEN:
            return False
        return None

    def extra_successes(self, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...], modifier: int) -> int:
        if not attacking(ctx, owner) or not ctx.target.card.is_aircraft or SIX + modifier < SUCCESS:
            return 0
        return rolls.count(SIX)


@ability("sirens")
class Sirens(Ability):
    """Sirens: against a Soldier, one more success, but only to disrupt: an attack one success short of a
    hit scores one hit while that hit would be the Soldier's first counter of the turn (a Disrupted
    counter). It never adds a second hit, nor makes a hit that would destroy."""

    def hits(self, ctx: AttackContext, owner: Unit, successes: int, defense: int, hits: int) -> int | None:
        target = ctx.target
        if not attacking(ctx, owner) or not target.card.is_soldier or hits or target.pending:
            return None
        return 1 if successes + 1 >= defense else None


@ability("strafe")
class Strafe(Ability):
    """Strafe: after its airstrike on an enemy Soldier (its normal attack), one more attack at another
    enemy Soldier in that Soldier's hex or next to it ("adjacent" in the rulebook's sense), with its
    usual dice and range from its own hex, taken at once or lost."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        target = ctx.target
        if (
            attacking(ctx, owner)
            and not ctx.mode
            and not ctx.defensive
            and state.phase is Phase.AIRSTRIKE
            and target.card.is_soldier
            and target.hex is not None
        ):
            add_this_phase(state, self.id, (owner.id, target.id, target.hex))

    def _first(self, state: GameState, owner: Unit) -> tuple[str, Hex] | None:
        """The Soldier the owner strafed first this phase, and its hex then."""
        for item in this_phase(state, self.id):
            if isinstance(item, tuple) and item[0] == owner.id:
                return item[1], item[2]
        return None

    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        if unit.id == owner.id and done == "attack" and self._first(state, owner) is not None:
            return (FollowUp("attack", self.id),)
        return ()

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode != self.id or not attacking(ctx, owner):
            return None
        first = self._first(ctx.state, owner)
        target = ctx.target
        if first is None or not target.card.is_soldier or target.id == first[0] or target.hex is None:
            return False
        return None if distance(target.hex, first[1]) <= 1 else False


# --- once a game, instead of the airstrike: Rockets, Bombs, Speed Boost --------------------------------


class _OnceInstead(Ability):
    """Once a game, `use U ID T` in its airstrike phase instead of its attack: an attack on the enemy T
    planned with `mode` = the ability id, so the class shapes it (dice, targets, reach)."""

    #: What the target must be, for the player: "an enemy aircraft".
    target_words: ClassVar[str] = "an enemy unit"

    def wanted(self, target: Unit) -> bool:
        return True

    def reaches(self, distance: int) -> bool:
        return True

    def fixed_dice(self, target: Unit) -> int | None:
        """The dice the attack rolls instead of the card's (None: the card's own)."""
        return None

    def offers_attack_at(self, distance: int) -> bool:
        return False  # only the classes with dice of their own offer an attack (and only when used)

    def _ready(self, state: GameState, owner: Unit) -> str | None:
        if state.phase is not Phase.AIRSTRIKE:
            return "only in its own airstrike phase"
        if owner.id in state.activated:
            return f"{owner.id} has already attacked this phase"
        if not owner.on_map:
            return f"{owner.id} is not over the map this turn"
        if used_this_game(state, self.id, owner.id):
            return f"{owner.id} has used its {self.ref.name} already (once per game)"
        return None

    def _plan(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> AttackPlan | None:
        if len(args) != 1 or args[0] not in state.units:
            return None
        target = state.units[args[0]]
        if target.side is owner.side or not self.wanted(target):
            return None
        plan = plan_attack(state, owner, target, mode=self.id)
        return plan if isinstance(plan, AttackPlan) else None

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if self._ready(state, owner) is not None:
            return ()
        targets = [(t.id,) for t in state.on_map(owner.side.other) if self.wanted(t)]
        return [args for args in targets if self._plan(state, owner, args) is not None]

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = self._ready(state, owner)
        if problem:
            return problem
        if self._plan(state, owner, args) is None:
            return f"{self.ref.name} needs {self.target_words} it could attack: 'use U {self.id} T'"
        return None

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        plan = self._plan(state, owner, args)
        assert plan is not None
        mark_used(state, self.id, owner.id)
        state.activated.add(owner.id)  # its airstrike
        self.fire(state, owner, plan, dice, events)
        activation.after_action(state, owner.id, "attack")

    def fire(self, state: GameState, owner: Unit, plan: AttackPlan, dice: Dice, events: list[Event]) -> None:
        resolve_attack(state, plan, dice, events)

    # The shape of the attack (asked while planning it, `mode` = the id).
    def _mine(self, ctx: AttackContext, owner: Unit) -> bool:
        return ctx.mode == self.id and attacking(ctx, owner)

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if not self.offers_attack_at(ctx.distance):  # out of its reach: `may_attack` refuses it anyway
            return ()
        dice = self.fixed_dice(ctx.target) if self._mine(ctx, owner) else None
        return (AttackOption(dice, source=self.id),) if dice else ()

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        """The engine rolls the larger of the card's dice and the option: take the card's surplus off, so
        the attack rolls its own number (other abilities' extra dice still add)."""
        fixed = self.fixed_dice(ctx.target) if self._mine(ctx, owner) else None
        if fixed is None or ctx.band is None:
            return 0
        kind = UnitType.VEHICLE if ctx.target.card.is_vehicle else UnitType.SOLDIER
        return min(0, fixed - (owner.card.attack_dice(kind, ctx.band) or 0))

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if not self._mine(ctx, owner):
            return None
        return None if self.wanted(ctx.target) and self.reaches(ctx.distance) else False


#: Rockets N: how far its rocket attack reaches.
ROCKETS_REACH = 4


@ability("rockets")
class Rockets(_OnceInstead):
    """Rockets N: once a game, `use U rockets T` in its airstrike phase instead of its attack: N dice
    (exactly) at the enemy Soldier or Vehicle T at most 4 hexes away; one target only, cover rolls as
    for any airstrike."""

    target_words = "an enemy Soldier or Vehicle at most 4 hexes away"

    def wanted(self, target: Unit) -> bool:
        return not target.card.is_aircraft

    def reaches(self, distance: int) -> bool:
        return distance <= ROCKETS_REACH

    def fixed_dice(self, target: Unit) -> int | None:
        return self.number or None

    def offers_attack_at(self, distance: int) -> bool:
        return distance <= ROCKETS_REACH


#: Bombs: its dice against a Soldier and against a Vehicle in its own hex.
BOMB_SOLDIER_DICE = 12
BOMB_VEHICLE_DICE = 8


@ability("bombs")
class Bombs(_OnceInstead):
    """Bombs: once a game, `use U bombs T` in its airstrike phase instead of its attack: 12 dice at the
    enemy Soldier T, or 8 at the enemy Vehicle T, in the hex it flies over (exactly those dice; cover
    rolls as for any attack from the target's own hex)."""

    target_words = "an enemy Soldier or Vehicle in its own hex"

    def wanted(self, target: Unit) -> bool:
        return not target.card.is_aircraft

    def reaches(self, distance: int) -> bool:
        return distance == 0

    def fixed_dice(self, target: Unit) -> int | None:
        return BOMB_VEHICLE_DICE if target.card.is_vehicle else BOMB_SOLDIER_DICE

    def offers_attack_at(self, distance: int) -> bool:
        return distance == 0


@ability("speed-boost")
class SpeedBoost(_OnceInstead):
    """Speed Boost: once a game, `use U speed-boost T` in its airstrike phase is its attack on the enemy
    aircraft T with its hits taking effect at once: a Disrupted counter goes face up now (and, like a
    reaction shot's, stays through this turn's casualty phase: T is grounded next turn), a Destroyed
    counter removes T now, so it makes no airstrike later in the turn."""

    target_words = "an enemy aircraft"

    def wanted(self, target: Unit) -> bool:
        return bool(target.card.is_aircraft)

    def fire(self, state: GameState, owner: Unit, plan: AttackPlan, dice: Dice, events: list[Event]) -> None:
        result = resolve_attack(state, plan, dice, events)
        target = state.units[plan.ctx.target.id]
        if not result.counters or target.removed:
            return
        events.append(Event("ability", owner.side, owner.id, target.id, note=self.id))
        if Counter.DESTROYED in target.pending:
            events.append(Event("counter", target.side, target.id, note=Counter.DESTROYED.value, value=1))
            casualty.destroy_at_once(state, target.id, events)
            return
        pending = list(target.pending)
        pending.remove(Counter.DISRUPTED)
        state.update(target.id, pending=tuple(pending), disrupted=True)
        events.append(Event("counter", target.side, target.id, note=Counter.DISRUPTED.value, value=1))
        ground(state, target.id)
        abilities.on_disrupted(state, state.units[target.id], events)
