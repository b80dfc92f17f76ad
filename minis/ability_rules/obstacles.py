"""Obstacles and fortifications (issue 16): the obstacle cards' abilities and the units that deal with
obstacles. What an obstacle does is in `minis.rules.obstacles`, which asks the registry for each
effect by the `obstacle` name a class gives (a class switched off has none, so its effect stops).

Fortification (set up first, taking turns, never in or next to the objective, no stacking), Barbed
Wire (on a hexside: a Soldier crossing it makes a movement roll; Vehicles cross freely), Minefield (a unit
that ends its move in the hex or leaves it rolls a die: 1-3, a face-up Disrupted counter; both sides'
units, one that starts there too), Pillbox (the Soldier that has been in its hex longest has a cover
roll anywhere, 4+ where the terrain gives none, and +1 on it), Tank Obstacle (a Vehicle entering the
hex makes a movement roll; failing, it stays outside), AVRE (no obstacle hinders it, and each one on a
hexside it crosses or in a hex it enters is destroyed), Demolitions (`use U demolitions H` or
`H1/H2` in its movement or assault phase, as its last doing of that phase: one die, 4+ removes an
obstacle in its hex or on one of its hexsides).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from minis.ability_rules._common import add_this_phase, this_phase
from minis.dice import Dice
from minis.engine.ability_api import Ability, ability
from minis.engine.events import Event
from minis.hexgrid import Hex
from minis.rules import obstacles
from minis.state import GameState, Phase, Unit

#: Demolitions: the die that removes the obstacle.
DEMOLITION_ROLL = 4


class _ObstacleEffect(Ability):
    """An ability whose effect the obstacle rules carry out (`obstacle` names it)."""

    obstacle: ClassVar[str] = ""


@ability("fortification")
class Fortification(_ObstacleEffect):
    """The card is an obstacle: never placed in or next to the objective."""

    obstacle = obstacles.FORTIFICATION


@ability("barbed-wire")
class BarbedWire(_ObstacleEffect):
    """On a hexside: a Soldier crossing it makes a movement roll."""

    obstacle = obstacles.WIRE


@ability("minefield")
class Minefield(_ObstacleEffect):
    """A unit ending its move in the hex or leaving it rolls: 1-3, disrupted."""

    obstacle = obstacles.MINES


@ability("pillbox")
class Pillbox(_ObstacleEffect):
    """The Soldier it holds always has a cover roll, with +1."""

    obstacle = obstacles.PILLBOX


@ability("tank-obstacle")
class TankObstacle(_ObstacleEffect):
    """A Vehicle entering the hex makes a movement roll."""

    obstacle = obstacles.TANK_TRAP


@ability("avre")
class AVRE(_ObstacleEffect):
    """No obstacle hinders it; it destroys each one on a hexside it crosses or in a hex it enters."""

    obstacle = obstacles.UNHINDERED

    def on_enter(self, state: GameState, owner: Unit, hex_: Hex, events: list[Event]) -> None:
        if not obstacles.all_obstacles(state):
            return
        move = state.move
        came_from = move.path[move.step] if move is not None and move.step < len(move.path) else None
        gone = obstacles.in_hex(state, hex_)
        if came_from is not None and came_from != hex_:
            gone += obstacles.on_side(state, came_from, hex_)
        for obstacle in gone:
            obstacles.remove(state, obstacle, owner, events)


@ability("demolitions")
class Demolitions(Ability):
    """`use U demolitions H` (or `H1/H2` for wire) in its own movement or assault phase, once a phase,
    ending what it does in that phase: one die, on 4+ the obstacle is removed."""

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        if self._ready(state, owner) is not None:
            return ()
        assert owner.hex is not None
        return [(obstacles.where(state, o),) for o in obstacles.touching(state, owner.hex)]

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        problem = self._ready(state, owner)
        if problem:
            return problem
        return self._target(state, owner, args)[1]

    def _ready(self, state: GameState, owner: Unit) -> str | None:
        if state.phase not in (Phase.MOVEMENT, Phase.ASSAULT) or state.active is not owner.side:
            return "only in its own movement or assault phase"
        if not owner.on_map or owner.carried_by is not None:
            return f"{owner.id} must be on the battle map, not aboard a transport"
        if owner.id in this_phase(state, self.id):
            return f"{owner.id} has already tried a demolition this phase"
        return None

    def _target(
        self, state: GameState, owner: Unit, args: tuple[str, ...]
    ) -> tuple[obstacles.Obstacle | None, str | None]:
        assert owner.hex is not None
        near = obstacles.touching(state, owner.hex)
        if not near:
            return None, f"there is no obstacle in {owner.id}'s hex or on its hexsides"
        if not args:
            if len(near) > 1:
                return None, "name the obstacle's place: 'use U demolitions H' (wire: H1/H2)"
            return near[0], None
        wanted = args[0].upper()
        for obstacle in near:
            if obstacles.where(state, obstacle).upper() in (wanted, "/".join(reversed(wanted.split("/")))):
                return obstacle, None
        return None, f"no obstacle at {args[0]} next to {owner.id}"

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        target, _ = self._target(state, owner, args)
        assert target is not None and owner.hex is not None
        add_this_phase(state, self.id, owner.id)
        state.activated.add(owner.id)
        die = dice.roll()
        cleared = die >= DEMOLITION_ROLL
        events.append(
            Event(
                "ability", owner.side, owner.id, target.id, (owner.hex,), (die,), int(cleared), note=self.id
            )
        )
        if cleared:
            obstacles.remove(state, target, owner, events)
