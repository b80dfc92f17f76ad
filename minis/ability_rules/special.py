"""Abilities that are actions of their own (`use U ABILITY [ARGS]`, see docs/abilities.md) or that act
while a unit moves: Bridge Demolition, Smoke Screen, Headshot, Overrun."""

from __future__ import annotations

from collections.abc import Iterable

from minis.ability_api import Ability, ability
from minis.ability_rules._common import add_this_phase, mark_used, phase_key, this_phase, used_this_game
from minis.dice import Dice
from minis.events import Event
from minis.hexgrid import Hex
from minis.los import crossed_offsets
from minis.rules import activation
from minis.rules.combat import AttackPlan, attack_allowed, count_successes, plan_attack
from minis.state import GameState, Phase, Unit

#: Bridge Demolition: the die that destroys the bridge.
DEMOLITION_ROLL = 4
#: Headshot: dice rolled and successes needed.
HEADSHOT_DICE = 6
HEADSHOT_SUCCESSES = 3
SMOKE = "smoke-screen"


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
    the road is broken there and crossing that stream needs a movement roll again."""

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if _ready(state, owner, Phase.ASSAULT) is not None:
            return ()
        assert owner.hex is not None and state.board is not None
        return [(state.board.label(h),) for h in bridges_from(state, owner.hex)]

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = _ready(state, owner, Phase.ASSAULT)
        if problem:
            return problem
        return self._bridge(state, owner, args)[1]

    def _bridge(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> tuple[Hex | None, str | None]:
        assert owner.hex is not None and state.board is not None
        bridges = bridges_from(state, owner.hex)
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
        assert across is not None and owner.hex is not None
        state.activated.add(owner.id)
        die = dice.roll()
        blown = die >= DEMOLITION_ROLL
        events.append(
            Event(
                "ability",
                owner.side,
                owner.id,
                hexes=(owner.hex, across),
                dice=(die,),
                value=int(blown),
                note=self.id,
            )
        )
        if blown:
            state.broken_roads = state.broken_roads | {frozenset((owner.hex, across))}


# --- Smoke Screen ------------------------------------------------------------------------------------


def smoke(state: GameState) -> frozenset[Hex]:
    """The hexes filled with smoke this turn."""
    entry = state.flags.get(SMOKE)
    if isinstance(entry, tuple) and entry[0] == state.turn and isinstance(entry[1], frozenset):
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
        state.flags[SMOKE] = (state.turn, smoke(state) | {owner.hex})
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


# --- Overrun -----------------------------------------------------------------------------------------

OVERRUN = "overrun"


@ability("overrun")
class Overrun(Ability):
    """Overrun: once per phase, `move U H1 H2 ... overrun T`: when it enters the hex of the enemy Soldier
    T, T gets a face-up Disrupted counter at once; the Vehicle need not stop there."""

    def before_move(
        self, state: GameState, owner: Unit, path: tuple[Hex, ...], overrun: str | None
    ) -> bool | str | None:
        """Accept (True) or refuse (a reason) the move's overrun target; a move without one clears it.
        `path` starts with the hex the move starts from, which is not entered."""
        state.flags.pop(OVERRUN, None)
        if overrun is None:
            return None
        if owner.id in this_phase(state, self.id):
            return f"{owner.id} has overrun a unit this phase already"
        victim = state.units.get(overrun)
        if victim is None or victim.side is owner.side or not victim.card.is_soldier:
            return f"{overrun} is not an enemy Soldier"
        if not victim.on_map or victim.carried_by is not None or victim.hex not in path[1:]:
            return f"{overrun} is not in a hex of {owner.id}'s move"
        state.flags[OVERRUN] = (phase_key(state), owner.id, overrun)
        return True

    def on_enter(self, state: GameState, owner: Unit, hex_: Hex, events: list[Event]) -> None:
        planned = state.flags.get(OVERRUN)
        if not isinstance(planned, tuple) or planned[:2] != (phase_key(state), owner.id):
            return
        victim = state.units[str(planned[2])]
        if victim.hex != hex_ or victim.removed or victim.carried_by is not None:
            return
        del state.flags[OVERRUN]
        add_this_phase(state, self.id, owner.id)
        events.append(Event("ability", owner.side, owner.id, victim.id, hexes=(hex_,), note=self.id))
        if not victim.disrupted:
            state.update(victim.id, disrupted=True)
            events.append(Event("counter", victim.side, victim.id, note="disrupted", value=1))
