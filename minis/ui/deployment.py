"""The units not yet on the map as the player meets them, without a window: the deployment list, a
click that deploys (obstacles first, Barbed Wire on a hexside of two clicks), and the units that arrive
later (Heroes, Paratroopers) with the hexes they may come to.

Before the battle and while units wait off the map, a click means "put it there" instead of "move it
along a path", and the player picks units from a list instead of from the map; that is one concept
apart from the controller's moves and attacks. The controller
(`minis.ui.controller.BattleController.deployment`) owns one; the screen and the side panel reach it
there.
"""

from __future__ import annotations

from minis.engine import actions as A
from minis.hexgrid import Hex, distance
from minis.rules import arrivals, obstacles
from minis.state import Stage, Unit
from minis.ui import obstacles as obstacle_ui
from minis.ui.controller_host import ControllerHost


class Deployment:
    """The deployment list and clicks, and the units waiting to arrive, from the engine."""

    def __init__(self, host: ControllerHost) -> None:
        self.host = host
        #: Barbed Wire being placed: the first of the two hexes of its hexside (minis.ui.obstacles).
        self.wire_first: Hex | None = None

    def to_deploy(self) -> list[Unit]:
        """The deploying side's units not yet on the map, Vehicles first."""
        state = self.host.state
        side = state.deploying
        return sorted(
            (
                u
                for u in state.units.values()
                if u.side is side
                and u.hex is None
                and not u.removed
                and not u.card.is_aircraft  # aircraft are never deployed: they fly in
                and not arrivals.arrives_later(state, u)  # Heroes, Paratroopers: later
            ),
            key=lambda u: (not u.card.is_vehicle, u.id),
        )

    def listed(self) -> list[str]:
        """The deployment list: the deploying side's units a player may place or pick up again (a
        scenario's fixed units stay put), those still to deploy first."""
        state = self.host.state
        side = state.deploying
        fixed = state.fixed
        units = [
            u
            for u in state.units.values()
            if u.side is side and not u.removed and u.id not in fixed and not u.card.is_aircraft
        ]
        return [u.id for u in sorted(units, key=lambda u: (u.hex is not None, not u.card.is_vehicle, u.id))]

    def pick(self, row: int) -> None:
        """A click on a row of the deployment list selects its unit."""
        ids = self.listed()
        if 0 <= row < len(ids):
            self.host.select(ids[row])

    def waiting_to_arrive(self) -> list[Unit]:
        """The active player's units still off the map that may arrive later (Heroes, Paratroopers)."""
        host = self.host
        state = host.state
        side = state.active if host.stage is Stage.ACT else state.deploying
        return arrivals.waiting(state, side) if side is not None else []

    def special_hexes(self) -> list[Hex]:
        """Where the selected unit may go besides the usual: while deploying, a Partisan's or a
        Gliderborne's wider area (the empty hexes of it); in a movement phase, a waiting unit's arrival
        hexes. The screen tints them."""
        host = self.host
        state = host.state
        unit = state.units.get(host.selected or "")
        if unit is None or unit.hex is not None or not arrivals.any_special(state):
            return []
        if host.stage is Stage.DEPLOY:
            return sorted(h for h in arrivals.extra_area(state, unit) if not state.at(h))
        if host.stage is Stage.ACT:
            return arrivals.arrival_hexes(state, unit)
        return []

    def click(self, hex_: Hex) -> None:
        """A click on the map while deploying: place the next obstacle, pick up a placed unit of one's
        own again, or deploy the selected unit there."""
        host = self.host
        state = host.state
        side = state.deploying
        if state.obstacles and obstacles.placing(state):  # obstacles are placed first (minis.ui.obstacles)
            self._obstacle_click(hex_)
            return
        own = [u for u in state.at(hex_) if u.side is side and u.id not in state.fixed]
        if own and (host.selected is None or state.units[host.selected].hex is not None):
            # a placed unit of yours: pick it up again (another click places it)
            if host.selected == own[-1].id and len(own) > 1:
                host.select(own[0].id)
            elif host.selected != own[-1].id:
                host.select(own[-1].id)
                host.say(f"{host.name(own[-1])} picked up: click a hex to move it, Q/E turn it.")
                return
        if host.selected is None:
            host.say("Choose a unit to deploy first (the list on the right).", bad=True)
            return
        unit = state.units[host.selected]
        host.act(A.Deploy(unit.id, hex_, host.facing if unit.card.is_vehicle else None))

    def _obstacle_click(self, hex_: Hex) -> None:
        """Place the next obstacle: in the clicked hex, or (Barbed Wire) on the hexside between the
        clicked hex and the one clicked before it."""
        state = self.host.state
        obstacle = obstacle_ui.next_to_place(state)
        if obstacle is None:
            return
        if obstacles.kind(state, obstacle) != obstacles.WIRE:
            self.host.act(A.Deploy(obstacle.id, hex_))
            return
        first = self.wire_first
        if first is None or first == hex_ or distance(first, hex_) != 1:
            self.wire_first = hex_
            self.host.say(obstacle_ui.prompt(state, hex_))
            return
        self.wire_first = None
        if not self.host.act(A.Deploy(obstacle.id, first, None, hex_)):
            self.wire_first = None
