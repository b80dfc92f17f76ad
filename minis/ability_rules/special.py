"""Abilities that are actions of their own (`use U ABILITY [ARGS]`, see docs/abilities.md) or that act
while a unit moves: Bridge Demolition, Smoke Screen, Headshot, Overrun."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from minis import abilities
from minis.ability_rules._common import add_this_phase, mark_used, phase_key, this_phase, used_this_game
from minis.cards import RangeBand, UnitType, range_band
from minis.content.los import crossed_offsets
from minis.dice import Dice
from minis.engine.ability_api import Ability, AttackContext, AttackOption, ability
from minis.engine.events import Event
from minis.hexgrid import Hex, distance, is_front
from minis.rules import activation, obstacles
from minis.rules.combat import (
    IMPAIRED_PENALTY,
    SAME_HEX_COVER_PENALTY,
    AttackPlan,
    attack_allowed,
    count_successes,
    defense_against,
    plan_attack,
    resolve_attack,
    resolve_with_blast,
)
from minis.state import Counter, GameState, Phase, Unit

#: Bridge Demolition: the die that destroys the bridge.
DEMOLITION_ROLL = 4
#: Headshot: dice rolled and successes needed.
HEADSHOT_DICE = 6
HEADSHOT_SUCCESSES = 3


def _ready(state: GameState, owner: Unit, phase: Phase) -> str | None:
    """Why the owner can't act now in `phase` as its activation (None if it can)."""
    if state.phase is not phase:
        return f"only in its own {phase.value} phase"
    if owner.id in state.activated:
        return f"{owner.id} has already acted this phase"
    if not owner.on_map or owner.carried_by is not None:
        return f"{owner.id} must be on the battle map, not aboard a transport"
    return None


# --- Bridge Demolition -------------------------------------------------------------------------------


def bridges_from(state: GameState, hex_: Hex) -> list[Hex]:
    """The hexes across the intact bridges (road links over a stream) leading out of `hex_`."""
    board = state.board
    assert board is not None
    return [
        other
        for other in board.neighbours(hex_)
        if board.is_bridge(hex_, other) and frozenset((hex_, other)) not in state.broken_roads
    ]


@ability("bridge-demolition")
class BridgeDemolition(Ability):
    """Bridge Demolition: `use U bridge-demolition [H]` in its assault phase, instead of moving or
    attacking: one die, on 4+ the bridge from its hex to H (needed only if there are two) is destroyed:
    the road is broken there and crossing that stream needs a movement roll again. The same roll removes
    the obstacles in its hex (issue 16); with no bridge there, `use U bridge-demolition` is for them alone."""

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if _ready(state, owner, Phase.ASSAULT) is not None:
            return ()
        assert owner.hex is not None and state.board is not None
        found = [(state.board.label(h),) for h in bridges_from(state, owner.hex)]
        if not found and state.obstacles and obstacles.in_hex(state, owner.hex):
            return [()]
        return found

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = _ready(state, owner, Phase.ASSAULT)
        if problem:
            return problem
        return self._bridge(state, owner, args)[1]

    def _bridge(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> tuple[Hex | None, str | None]:
        assert owner.hex is not None and state.board is not None
        bridges = bridges_from(state, owner.hex)
        if not bridges and not args and state.obstacles and obstacles.in_hex(state, owner.hex):
            return None, None  # no bridge: the obstacles in its hex alone
        if not bridges:
            return None, f"there is no bridge in {owner.id}'s hex"
        if not args:
            if len(bridges) > 1:
                return None, "name the hex across the bridge: 'use U bridge-demolition H'"
            return bridges[0], None
        try:
            across = state.board.parse(args[0])
        except ValueError as error:
            return None, str(error)
        if across not in bridges or len(args) > 1:
            return None, f"no bridge leads from {owner.id}'s hex to {args[0]}"
        return across, None

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        across, _ = self._bridge(state, owner, args)
        assert owner.hex is not None
        state.activated.add(owner.id)
        die = dice.roll()
        blown = die >= DEMOLITION_ROLL
        events.append(
            Event(
                "ability",
                owner.side,
                owner.id,
                hexes=(owner.hex, across) if across is not None else (owner.hex,),
                dice=(die,),
                value=int(blown),
                note=self.id,
            )
        )
        if blown and across is not None:
            state.broken_roads = state.broken_roads | {frozenset((owner.hex, across))}
        if blown and state.obstacles:
            for obstacle in obstacles.in_hex(state, owner.hex):  # the same roll clears them
                obstacles.remove(state, obstacle, owner, events)


# --- Smoke Screen ------------------------------------------------------------------------------------


def smoke(state: GameState) -> frozenset[Hex]:
    """The hexes filled with smoke this turn."""
    entry = state.smoke
    if entry is not None and entry[0] == state.turn:
        return entry[1]
    return frozenset()


def smoke_blocks(state: GameState, a: Hex, b: Hex) -> bool:
    """Smoke blocks sight lines into, out of and through its hex (units in the same hex still see)."""
    hexes = smoke(state)
    if not hexes or a == b:
        return False
    # Crossing is translation-invariant: the cached offsets, shifted to a, are the crossed hexes.
    return a in hexes or b in hexes or any(a + h in hexes for h in crossed_offsets(b - a))


#: The effects of these abilities that block sight (the loader gives them to the registry).
SIGHT_BLOCKERS = (smoke_blocks,)


@ability("smoke-screen")
class SmokeScreen(Ability):
    """Smoke Screen: once per game, `use U smoke-screen` in its own movement phase, after its move or
    instead of it (it ends the unit's movement): its hex fills with smoke until the end of the turn."""

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        return [()] if self.use_problem(state, owner, ()) is None else ()

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        if args:
            return "'use U smoke-screen' takes no hex: the smoke fills the unit's own hex"
        if state.phase is not Phase.MOVEMENT:
            return "only in its own movement phase"
        if used_this_game(state, self.id, owner.id):
            return f"{owner.id} has used its smoke screen already (once per game)"
        if not owner.on_map or owner.carried_by is not None:
            return f"{owner.id} must be on the battle map"
        return None

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        assert owner.hex is not None
        mark_used(state, self.id, owner.id)
        state.activated.add(owner.id)
        state.smoke = (state.turn, smoke(state) | {owner.hex})
        events.append(Event("ability", owner.side, owner.id, hexes=(owner.hex,), note=self.id))


# --- Headshot ----------------------------------------------------------------------------------------


@ability("headshot")
class Headshot(Ability):
    """Headshot: once per game, `use U headshot T` in its assault phase instead of a normal attack on the
    Vehicle T (so T must be a target it could attack normally): six dice with its usual modifiers on
    each die; 3 or more successes put a face-up Disrupted counter on T at once. No cover roll: the
    result can only be disruption."""

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if _ready(state, owner, Phase.ASSAULT) is not None or used_this_game(state, self.id, owner.id):
            return ()
        # `attack_allowed` answers what `_plan` would, without working out the attack's numbers.
        return [
            (t.id,)
            for t in state.on_map()
            if t.card.is_vehicle and t.side is not owner.side and attack_allowed(state, owner, t)
        ]

    def _plan(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> object:
        if len(args) != 1 or args[0] not in state.units:
            return None
        target = state.units[args[0]]
        if not target.card.is_vehicle or target.side is owner.side:
            return None
        plan = plan_attack(state, owner, target)
        return plan if not isinstance(plan, str) else None

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = _ready(state, owner, Phase.ASSAULT)
        if problem:
            return problem
        if used_this_game(state, self.id, owner.id):
            return f"{owner.id} has used its headshot already (once per game)"
        if self._plan(state, owner, args) is None:
            return "a headshot needs an enemy Vehicle it could attack normally: 'use U headshot T'"
        return None

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        plan = self._plan(state, owner, args)
        assert isinstance(plan, AttackPlan)
        mark_used(state, self.id, owner.id)
        state.activated.add(owner.id)
        activation.record(state, owner.id, "attack")
        rolls = dice.roll_many(HEADSHOT_DICE)
        successes = count_successes(rolls, plan.modifier)
        target = state.units[args[0]]
        events.append(
            Event("attack", owner.side, owner.id, target.id, dice=tuple(rolls), value=successes, note=self.id)
        )
        if successes >= HEADSHOT_SUCCESSES and not target.disrupted:
            state.update(target.id, disrupted=True)
            events.append(Event("counter", target.side, target.id, note="disrupted", value=1))
            abilities.on_disrupted(state, state.units[target.id], events)  # Lack of Determination


# --- Overrun -----------------------------------------------------------------------------------------


@ability("overrun")
class Overrun(Ability):
    """Overrun: once per phase, `move U H1 H2 ... overrun T`: when it enters the hex of the enemy Soldier
    T, T gets a face-up Disrupted counter at once; the Vehicle need not stop there."""

    def before_move(
        self, state: GameState, owner: Unit, path: tuple[Hex, ...], overrun: str | None
    ) -> bool | str | None:
        """Accept (True) or refuse (a reason) the move's overrun target; a move without one clears it.
        `path` starts with the hex the move starts from, which is not entered."""
        state.overrun = None
        if overrun is None:
            return None
        if owner.id in this_phase(state, self.id):
            return f"{owner.id} has overrun a unit this phase already"
        victim = state.units.get(overrun)
        if victim is None or victim.side is owner.side or not victim.card.is_soldier:
            return f"{overrun} is not an enemy Soldier"
        if not victim.on_map or victim.carried_by is not None or victim.hex not in path[1:]:
            return f"{overrun} is not in a hex of {owner.id}'s move"
        state.overrun = (phase_key(state), owner.id, overrun)
        return True

    def on_enter(self, state: GameState, owner: Unit, hex_: Hex, events: list[Event]) -> None:
        planned = state.overrun
        if planned is None or planned[:2] != (phase_key(state), owner.id):
            return
        victim = state.units[planned[2]]
        if victim.hex != hex_ or victim.removed or victim.carried_by is not None:
            return
        state.overrun = None
        add_this_phase(state, self.id, owner.id)
        events.append(Event("ability", owner.side, owner.id, victim.id, hexes=(hex_,), note=self.id))
        if not victim.disrupted:
            state.update(victim.id, disrupted=True)
            events.append(Event("counter", victim.side, victim.id, note="disrupted", value=1))
            abilities.on_disrupted(state, state.units[victim.id], events)  # Lack of Determination


# --- attacks of their own: HE Round, Armor-Piercing Rounds, Remote Control, the rocket salvos ----------


def _attack_plan(state: GameState, owner: Unit, args: tuple[str, ...], mode: str) -> AttackPlan | None:
    """The plan of the owner's attack (as the extra action `mode`) on the unit named in `args`."""
    if len(args) != 1 or args[0] not in state.units:
        return None
    target = state.units[args[0]]
    if target.side is owner.side:
        return None
    plan = plan_attack(state, owner, target, mode=mode)
    return plan if isinstance(plan, AttackPlan) else None


class _OwnAttack(Ability):
    """An attack declared with `use U ID T` in its assault phase instead of a normal attack (once a game
    unless `repeatable`), planned with `mode` = the ability id so the class shapes it."""

    repeatable: ClassVar[bool] = False
    #: What the target must be, for the player: "an enemy Vehicle".
    target_words: ClassVar[str] = "an enemy unit"

    def wanted(self, target: Unit) -> bool:
        return True

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if _ready(state, owner, Phase.ASSAULT) is not None or self._spent(state, owner):
            return ()
        return [args for args in self.candidates(state, owner) if self._plan(state, owner, args) is not None]

    def candidates(self, state: GameState, owner: Unit) -> list[tuple[str, ...]]:
        return [(t.id,) for t in state.on_map() if t.side is not owner.side and self.wanted(t)]

    def _spent(self, state: GameState, owner: Unit) -> bool:
        return not self.repeatable and used_this_game(state, self.id, owner.id)

    def _plan(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> AttackPlan | None:
        plan = _attack_plan(state, owner, args, self.id)
        return plan if plan is not None and self.wanted(plan.ctx.target) else None

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = _ready(state, owner, Phase.ASSAULT)
        if problem:
            return problem
        if self._spent(state, owner):
            return f"{owner.id} has used its {self.ref.name} already (once per game)"
        if self._plan(state, owner, args) is None:
            return f"{self.ref.name} needs {self.target_words} it could attack: 'use U {self.id} T'"
        return None

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        plan = self._plan(state, owner, args)
        assert plan is not None
        if not self.repeatable:
            mark_used(state, self.id, owner.id)
        state.activated.add(owner.id)  # its assault-phase action
        self.fire(state, owner, plan, dice, events)
        activation.after_action(state, owner.id, "attack")

    def fire(self, state: GameState, owner: Unit, plan: AttackPlan, dice: Dice, events: list[Event]) -> None:
        resolve_with_blast(state, plan, dice, events)


#: HE Round: its dice against a Soldier at medium or long range.
HE_ROUND_DICE = 15


@ability("he-round")
class HERound(_OwnAttack):
    """HE Round: once a game, `use U he-round T` in its assault phase instead of a normal attack on the
    enemy Soldier T at medium or long range (2 hexes or more): 15 dice instead of the card's."""

    target_words = "an enemy Soldier 2 or more hexes away"

    def wanted(self, target: Unit) -> bool:
        return bool(target.card.is_soldier)

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if ctx.mode == self.id and ctx.attacker.id == owner.id and ctx.target.card.is_soldier:
            return (AttackOption(HE_ROUND_DICE, source=self.id),)
        return ()

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode != self.id or ctx.attacker.id != owner.id:
            return None
        far = ctx.band in (RangeBand.MEDIUM, RangeBand.LONG)
        return None if far and ctx.target.card.is_soldier else False


@ability("armor-piercing-rounds")
class ArmorPiercingRounds(_OwnAttack):
    """Armor-Piercing Rounds: once a game, `use U armor-piercing-rounds T` in its assault phase is its
    attack on the enemy Vehicle T with the rounds declared: if the attack scores exactly two hits, it
    scores three."""

    target_words = "an enemy Vehicle"

    def wanted(self, target: Unit) -> bool:
        return bool(target.card.is_vehicle)

    def hits(self, ctx: AttackContext, owner: Unit, successes: int, defense: int, hits: int) -> int | None:
        if ctx.mode == self.id and ctx.attacker.id == owner.id and hits == 2:
            return 3
        return None


#: Remote Control: the dice of the attack against a Vehicle and a Soldier; the two steering dice.
REMOTE_VEHICLE_DICE = 12
REMOTE_SOLDIER_DICE = 8
REMOTE_STEERING_DICE = 2
#: Remote Control: at this distance or more two dice can't both beat it (the action is not offered).
REMOTE_HOPELESS = 6


@ability("remote-control")
class RemoteControl(_OwnAttack):
    """Remote Control: `use U remote-control T` in its assault phase instead of a normal attack on the
    enemy T it could attack (line of sight needed): two dice; only if both are higher than the distance
    to T does it roll 12 dice (Vehicle) or 8 (Soldier) at T. As often as it likes; the unit stays."""

    repeatable = True
    target_words = "an enemy Soldier or Vehicle fewer than 6 hexes away"

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if ctx.mode == self.id and ctx.attacker.id == owner.id:
            dice = REMOTE_VEHICLE_DICE if ctx.target.card.is_vehicle else REMOTE_SOLDIER_DICE
            return (AttackOption(dice, source=self.id),)
        return ()

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        if ctx.mode == self.id and ctx.attacker.id == owner.id and ctx.distance >= REMOTE_HOPELESS:
            return False
        return None

    def candidates(self, state: GameState, owner: Unit) -> list[tuple[str, ...]]:
        assert owner.hex is not None
        return [
            (t.id,)
            for t in state.on_map()
            if t.side is not owner.side and t.hex is not None and distance(owner.hex, t.hex) < REMOTE_HOPELESS
        ]

    def fire(self, state: GameState, owner: Unit, plan: AttackPlan, dice: Dice, events: list[Event]) -> None:
        steer = dice.roll_many(REMOTE_STEERING_DICE)
        through = all(die > plan.ctx.distance for die in steer)
        events.append(
            Event(
                "ability",
                owner.side,
                owner.id,
                plan.ctx.target.id,
                dice=tuple(steer),
                value=int(through),
                note=self.id,
            )
        )
        if through:
            resolve_with_blast(state, plan, dice, events)


#: Rocket Salvo and Top-Mounted Rockets: dice against each Soldier and each Vehicle of the area.
SALVO_DICE = {"rocket-salvo": (10, 5), "top-mounted-rockets": (8, 4)}


def _area_plan(state: GameState, owner: Unit, target: Unit, dice: int, mode: str) -> AttackPlan:
    """The numbers of one attack of a salvo on a unit of the area: its fixed dice, and the modifiers,
    defense and cover roll of any attack (no line of sight or range needed: the salvo covers the area)."""
    assert owner.hex is not None and target.hex is not None and state.board is not None
    dist = distance(owner.hex, target.hex)
    front = bool(
        target.card.is_vehicle
        and target.facing is not None
        and is_front(target.hex, target.facing, owner.hex)
    )
    ctx = abilities.attack_context(state, owner, target, dist, range_band(dist), False, front, mode)
    modifier = abilities.die_modifier(ctx)
    if owner.impaired and not abilities.ignores_attack_penalty(ctx):
        modifier -= IMPAIRED_PENALTY
    defense = defense_against(target, front) + abilities.defense_modifier(ctx)
    if target.impaired and not abilities.ignores_defense_penalty(ctx):
        defense -= IMPAIRED_PENALTY
    cover = state.board.terrain(target.hex).effects.cover(target.card.is_vehicle)
    fixed: bool | None = None
    cover_mod = 0
    if cover is not None and not abilities.cover_allowed(ctx):
        cover = None
    if cover is not None:
        fixed = abilities.cover_automatic(ctx)
        cover_mod = abilities.cover_modifier(ctx) - (SAME_HEX_COVER_PENALTY if dist == 0 else 0)
    return AttackPlan(
        ctx, max(dice + abilities.extra_dice(ctx), 0), modifier, defense, cover, cover_mod, fixed
    )


class _Salvo(_OwnAttack):
    """Once a game, `use U ID T` in its assault phase instead of a normal attack on the enemy T it could
    attack: a separate attack with fixed dice on every unit in T's hex or next to it, friends included
    (T first, then the others by unit id; not the firing unit itself; a boarded Soldier only if its
    transport lets enemies target it; never an aircraft over the area: it is above it, as for Blast)."""

    def _plan(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> AttackPlan | None:
        return _attack_plan(state, owner, args, "")  # the target: any unit it could attack normally

    def fire(self, state: GameState, owner: Unit, plan: AttackPlan, dice: Dice, events: list[Event]) -> None:
        target = plan.ctx.target
        assert target.hex is not None
        centre = target.hex
        soldier_dice, vehicle_dice = SALVO_DICE[self.id]
        area = sorted(
            (
                u
                for u in state.on_map()
                if u.hex is not None
                and distance(u.hex, centre) <= 1
                and u.id not in (target.id, owner.id)
                and not u.card.is_aircraft
                and (u.carried_by is None or abilities.passenger_targetable(state, state.units[u.carried_by]))
            ),
            key=lambda u: u.id,
        )
        for unit in (target, *area):
            victim = state.units[unit.id]
            if not victim.on_map:
                continue
            number = vehicle_dice if victim.card.is_vehicle else soldier_dice
            resolve_attack(
                state, _area_plan(state, state.units[owner.id], victim, number, self.id), dice, events
            )


@ability("rocket-salvo")
class RocketSalvo(_Salvo):
    """Rocket Salvo: once a game, `use U rocket-salvo T` instead of a normal attack on T: 10 dice at every
    Soldier and 5 at every Vehicle in T's hex or next to it, friends included."""


@ability("top-mounted-rockets")
class TopMountedRockets(_Salvo):
    """Top-Mounted Rockets: units it attacks get no cover roll, and it can't attack aircraft
    (`minis.rules.air_attacks.cannot_attack_aircraft`); once a game, `use U top-mounted-rockets T`
    instead of a normal attack on T: 8 dice at every Soldier and 4 at every Vehicle in T's hex or next
    to it, friends included (never an aircraft over the area)."""

    def cover_allowed(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return False if ctx.attacker.id == owner.id else None


# --- Improvisation -----------------------------------------------------------------------------------

# Improvisation: `GameState.improvised` holds (lost unit, its hex, the improviser, its `entered` then).


@ability("improvisation")
class Improvisation(Ability):
    """Improvisation: a Soldier or Vehicle, friend or enemy, that gets a Destroyed counter while in its
    hex and is then removed leaves it its attack values: while it has not left that hex, each of its
    attacks may use that unit's dice for the target and range (the engine takes the most dice it has)."""

    aura = True  # told of every attack, to see units lost in its hex

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        target = state.units[ctx.target.id]
        me = state.units[owner.id]
        if (
            Counter.DESTROYED in counters
            and target.id != me.id
            and me.hex is not None
            and target.hex == me.hex
        ):
            found = _improvised(state)
            state.improvised = (*found, (target.id, me.hex, me.id, me.entered))

    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        if ctx.attacker.id != owner.id or ctx.band is None or ctx.mode:
            return ()
        kind = UnitType.VEHICLE if ctx.target.card.is_vehicle else UnitType.SOLDIER
        found = []
        for lost_id, hex_, owner_id, entered in _improvised(ctx.state):
            lost = ctx.state.units[lost_id]
            if owner_id == owner.id and lost.removed and hex_ == owner.hex and entered == owner.entered:
                dice = lost.card.attack_dice(kind, ctx.band)
                if dice is not None:
                    found.append(AttackOption(dice, source=self.id))
        return found


def _improvised(state: GameState) -> tuple[tuple[str, Hex, str, int], ...]:
    return state.improvised
