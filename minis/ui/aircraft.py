"""The battle's aircraft as the player meets them, without a window: the tray's rows, a pick from it,
why an aircraft can't be chosen, and the shots at an aircraft just placed.

Aircraft are never deployed and wait off the map, so the player reaches them through the tray beside
the map (`minis.ui.airtray` draws its rows) instead of their counters; what the tray shows, what a pick
from it does and why one is refused make one concept apart from the controller's map input. The
controller (`minis.ui.controller.BattleController.aircraft`) owns one and the screen reaches it there.
"""

from __future__ import annotations

import attrs

from minis.base.sides import Side
from minis.engine import queries
from minis.engine.queries import AttackPreview
from minis.hexgrid import Hex
from minis.rules import air
from minis.state import Phase, Stage, Unit
from minis.ui.controller_host import ControllerHost
from minis.ui.session import armies_revealed


@attrs.frozen
class TrayRow:
    """An aircraft in the tray beside the map: its name, where it is in words, whether a click on it
    selects it (it may fly now), whether it is greyed (destroyed) and whether it is the selected one."""

    unit: str
    name: str
    status: str
    may_fly: bool = False
    greyed: bool = False
    selected: bool = False


@attrs.frozen
class TraySide:
    """One side's aircraft in the tray (a heading in the side's colour, then one row an aircraft)."""

    side: Side
    rows: tuple[TrayRow, ...]


class AircraftChoices:
    """The tray's rows, a pick from it and the reasons an aircraft can't be chosen, from the engine."""

    def __init__(self, host: ControllerHost) -> None:
        self.host = host

    def in_battle(self) -> bool:
        """Whether the battle has aircraft at all (the tray beside the map is shown only then)."""
        return any(u.card.is_aircraft for u in self.host.state.units.values())

    def over(self, hex_: Hex) -> list[Unit]:
        """The aircraft over `hex_` (one at most: aircraft don't stack with the units under them)."""
        return [
            u
            for u in self.host.state.units.values()
            if u.card.is_aircraft and u.hex == hex_ and not u.removed
        ]

    def tray_sides(self) -> tuple[Side, ...]:
        """Whose aircraft the tray shows: both armies once both are on the map; before that (each army
        a secret at one screen) only the army of the player at the screen."""
        host = self.host
        if armies_revealed(host.game):
            return (Side.AXIS, Side.ALLIES)
        if host.elsewhere:
            return tuple(s for s in (Side.AXIS, Side.ALLIES) if s not in host.elsewhere)
        side = host.state.deploying
        return (side,) if side is not None else ()

    def tray(self) -> tuple[TraySide, ...]:
        """The tray beside the map: each shown side's aircraft, where each is in words."""
        host = self.host
        state = host.state
        found = []
        for side in self.tray_sides():
            rows = []
            for unit in sorted(
                (u for u in state.units.values() if u.side is side and u.card.is_aircraft), key=lambda u: u.id
            ):
                may_fly = state.phase is Phase.FLIGHT and host.is_ready(unit)
                if unit.removed:
                    status = "destroyed"
                elif unit.hex is not None:
                    status = f"over {host.label(unit.hex)}" + (" · disrupted" if unit.disrupted else "")
                elif unit.disrupted:
                    status = "disrupted: grounded this turn"
                elif may_fly:
                    status = "ready to fly"
                else:
                    status = "off the map"
                rows.append(
                    TrayRow(unit.id, host.name(unit), status, may_fly, unit.removed, unit.id == host.selected)
                )
            if rows:
                found.append(TraySide(side, tuple(rows)))
        return tuple(found)

    def pick(self, unit_id: str) -> None:
        """A click on an aircraft in the tray: it is selected if it may act now (fly, or attack from
        over the map), else the player reads why not."""
        host = self.host
        unit = host.state.units.get(unit_id)
        if unit is None or host.elsewhere_decides():
            return
        if host.is_ready(unit):
            host.select(unit.id)
            if unit.hex is None:
                host.say(f"{host.name(unit)}: click a hex for it to fly over (any hex without an aircraft).")
            return
        host.say(self.grounded_reason(unit), bad=True)

    def grounded_reason(self, unit: Unit) -> str:
        """Why an aircraft can't be chosen now, in a player's words."""
        host = self.host
        state = host.state
        name = host.name(unit)
        if unit.removed:
            return f"{name} has been destroyed."
        if unit.hex is None and unit.disrupted:
            return f"{name} is disrupted: it is grounded this turn and can't fly."
        if state.phase is Phase.AIRSTRIKE and unit.id in state.activated:
            return f"{name} has already attacked this phase."
        if unit.hex is not None:
            return f"{name} is already over {host.label(unit.hex)} this turn."
        if host.stage is Stage.ACT and state.phase is Phase.FLIGHT and state.active is not unit.side:
            return f"{name} flies in the {unit.side.title}' own flight phase."
        return f"{name} flies only in a flight phase (after both movement phases)."

    def reaction_options(self) -> list[AttackPreview]:
        """The shots the non-acting player may take at the aircraft just placed, each with its odds."""
        state = self.host.state
        aircraft = air.reacting_to(state)
        if aircraft is None:
            return []
        found = []
        for unit in air.reactors(state, aircraft):
            preview = queries.attack_preview(state, unit.id, aircraft.id, defensive=True)
            if isinstance(preview, AttackPreview):
                found.append(preview)
        return found
