"""The overstack penalty as the player meets it, without a window: the warning when a move leaves a hex
over the stacking limit, and later the decision of which unit of that hex takes the hit.

The penalty is its own small decision (a stage of its own, `Stage.PENALTY`, with its own hex, prompt,
buttons and clicks) and the rule sets that have it are few, so it lives apart from the controller's
usual selection and moves. The controller (`minis.ui.controller.BattleController.penalty`) owns one;
the screen and the side panel reach it there.
"""

from __future__ import annotations

from minis.engine import actions as A
from minis.engine import queries
from minis.engine.events import Event, EventKind
from minis.hexgrid import Hex
from minis.rules import overstack
from minis.state import Stage, Unit
from minis.ui.controller_host import ControllerHost
from minis.ui.rulewords import phrase


class OverstackPenalty:
    """The hex over the limit, the units that may take its hit, the player's choice and its words."""

    def __init__(self, host: ControllerHost) -> None:
        self.host = host

    def warning(self, events: list[Event]) -> str | None:
        """What a hex left over the stacking limit by a unit that just ended its move (or arrived, or
        got off) will cost its player at his pass, in words; None if nothing (or the computer moved)."""
        host = self.host
        state = host.state
        moving = state.move.unit if state.move is not None else None
        for event in events:
            if event.kind not in _ENDS_A_MOVE or event.unit is None or event.unit == moving:
                continue
            unit = state.units.get(event.unit)
            if unit is None or unit.hex is None or unit.side in host.elsewhere:
                continue
            warning = queries.stacking_warning(state, unit.hex)
            if warning:
                return host.plain(warning)
        return None

    def where(self) -> Hex | None:
        """The overstacked hex whose hit the game waits for (None outside that decision)."""
        host = self.host
        return overstack.current(host.state) if host.stage is Stage.PENALTY else None

    def units(self) -> list[Unit]:
        """The units the deciding player may give the hit to: the engine's legal `penalty U` actions."""
        host = self.host
        if host.stage is not Stage.PENALTY:
            return []
        units = host.state.units
        return [units[a.unit] for a in host.game.legal_actions() if isinstance(a, A.Penalty)]

    def choose(self, unit_id: str) -> None:
        """The deciding player's choice: this unit of the overstacked hex takes the hit."""
        host = self.host
        if unit_id not in {u.id for u in self.units()}:
            hex_ = self.where()
            where = host.label(hex_) if hex_ is not None else "the hex"
            side = host.state.active.title if host.state.active else ""
            host.say(f"Choose one of the {side} units in {where} (the buttons, or their numbers).", bad=True)
            return
        host.act(A.Penalty(unit_id))

    def click(self, hex_: Hex) -> None:
        """A click on the overstacked hex itself: its counters are spread out above it to be clicked."""
        where = self.where()
        if where is not None and hex_ == where and len(self.units()) == 1:
            self.choose(self.units()[0].id)
            return
        label = self.host.label(where) if where is not None else "the ringed hex"
        self.host.say(
            f"Click one of the counters spread out beside {label}, a button on the right, or its number.",
            bad=True,
        )

    def prompt(self) -> str:
        """What the deciding player reads: whose hex is over the limit, why, and what to choose."""
        state = self.host.state
        hex_ = self.where()
        owner = state.active
        if hex_ is None or owner is None:
            return ""
        units = self.units()
        limit = state.rules.stack_per_army
        where = self.host.label(hex_)
        if len(units) > limit:
            why = f"{_count(len(units))} units in {where}, more than {_count(limit)}"
        else:
            why = f"a Vehicle too many in {where} ({phrase(state.rules, 'vehicle_scope')})"
        return f"The {owner.title} have {why}: choose the one that takes a hit"


#: The events after which a unit stands where its move ended (it may have left a hex over the limit).
_ENDS_A_MOVE: tuple[EventKind, ...] = ("move", "arrive", "dismount")
_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _count(n: int) -> str:
    """A small number in words ("four")."""
    return _COUNTS.get(n, str(n))
