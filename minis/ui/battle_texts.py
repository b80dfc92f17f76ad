"""The battle's longer sentences, without a window: a planned move in words, what the events of an
action said, the log, an ability's own action on its button.

They only read the position and the controller's names (`label`, `name`, `plain`) and decide nothing,
so they live apart from the controller's choices and input. The controller
(`minis.ui.controller.BattleController.texts`) owns one; the side panel and the screen reach it there.
"""

from __future__ import annotations

from minis.content.ability_catalogue import ability_name
from minis.engine import actions as A
from minis.engine.events import Event
from minis.engine.queries import PathInfo, percent
from minis.rules.movement import speed
from minis.ui.controller_host import ControllerHost
from minis.ui.plain import sentence


class BattleTexts:
    """A move's plan, the events and the log in a player's words (never the engine's ids)."""

    def __init__(self, host: ControllerHost) -> None:
        self.host = host

    def use(self, use: A.Use) -> str:
        """An ability's own action as a player reads it: "Headshot: M4A1 Sherman", never its ids."""
        name = ability_name(use.ability)
        return f"{name}: {self.host.plain(', '.join(use.args))}" if use.args else name

    def path(self, info: PathInfo) -> str:
        """A planned move: where, its cost against the unit's speed, its rolls, who could fire."""
        host = self.host
        state = host.state
        unit = state.units[info.unit]
        if info.problem:
            problem = host.plain(info.problem)
            name = host.name(unit)
            return sentence(problem) if problem.startswith(name) else f"{sentence(name)}: {problem}"
        hexes = " → ".join(host.label(h) for h in info.path)
        text = f"{sentence(host.name(unit))} to {hexes}: costs {info.cost} of speed {speed(state, unit)}."
        if info.rolls:
            text += (
                f" {info.rolls} movement roll{'s' if info.rolls > 1 else ''} "
                f"({', '.join(r for s in info.steps for r in s.rolls)}): "
                f"{percent(info.roll_odds)} to get through."
            )
        exposed = [s for s in info.steps if s.shooters]
        if exposed:
            names = sorted({host.name(state.units[u]) for s in exposed for u in s.shooters})
            steps = ", ".join(host.label(s.end) for s in exposed)
            text += f" Defensive fire possible (!) entering {steps}, from {', '.join(names)}."
        return text

    def summary(self, events: list[Event]) -> list[str]:
        """The events as lines, a unit's steps joined into one line ('moves F13 -> F12 -> F11')."""
        lines: list[str] = []
        last_move: Event | None = None
        for event in events:
            if event.kind == "move" and last_move is not None and last_move.unit == event.unit:
                lines[-1] += f" -> {self.host.label(event.hexes[-1])}"
                last_move = event
                continue
            last_move = event if event.kind == "move" else None
            lines.extend(self.host.session.describe([event]))
        return lines

    def log(self, notation: bool = False) -> list[str]:
        """The log: plain words by default (the events of this session, a unit's steps on one line);
        with `notation`, the game record's action notation, one line per action with its dice."""
        session = self.host.session
        return session.log_lines() if notation else self.summary(session.events)
