"""The terms of a battle as engine values: who deploys where, what wins, how long it lasts.

The rulebook's Standard and Assault are two such values (`standard()`, `assault(attacker)`); a scenario
file is read into one (`minis.engine.scenario.Scenario.terms`). The rules evaluate them (`minis.rules.setup`
for zones, ends and preset units, `minis.rules.victory` for the victory conditions); nothing here knows
about files. Every value is frozen: the terms belong to the battle, which every copy of a game shares.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from minis.army import MAX_UNITS
from minis.base.kinds import BattleKind
from minis.base.sides import Side
from minis.board import ZONE_DEPTH
from minis.cards import StatCard
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.hexgrid import Facing

if TYPE_CHECKING:
    from minis.board import Board


#: A deployment zone: a depth (the first N full hexes of every row at the player's end), "half" (its
#: half of the map) or hexes: entries of labels and row ranges such as "A1-A5".
Zone = int | str | tuple[str, ...]
#: `objective` words: the map's own objective, or the defender chooses it at set-up.
OWN_OBJECTIVE, CHOOSE_OBJECTIVE = "map", "choose"
HALF = "half"


def other_end(end: str) -> str:
    return "east" if end == "west" else "west"


def fixed_ends(ends: Iterable[tuple[Side, str | None]]) -> dict[Side, str] | None:
    """Each side's end when one of `ends` (side, fixed end or None) fixes it: one fixed end fixes both."""
    for side, end in ends:
        if end is not None:
            return {side: end, side.other: other_end(end)}
    return None


@attrs.frozen
class SideTerms:
    """One side's terms: army limits, its end of the map when fixed, its deployment zone."""

    points: int = 100
    units: int = MAX_UNITS
    year: int | None = None
    historical: bool = False
    end: str | None = None
    zone: Zone = ZONE_DEPTH


@attrs.frozen
class ObjectiveFrom:
    """From the end of turn `from_turn`, the player who controls the objective wins (only `side`, if set)."""

    from_turn: int
    side: Side | None = None


@attrs.frozen
class PointsFrom:
    """From the end of turn `from_turn`, the player whose units on the map are worth more wins."""

    from_turn: int


@attrs.frozen
class Hold:
    """At the end of turn `turn`, `side` wins unless the enemy controls the objective (then it wins)."""

    turn: int
    side: Side


@attrs.frozen
class Exit:
    """`side` wins once enough of its units (`units`, or worth `points`) got off the enemy's end of the
    map; it loses at the end of turn `by_turn` if they have not."""

    side: Side
    units: int | None = None
    points: int | None = None
    by_turn: int | None = None


Victory = ObjectiveFrom | PointsFrom | Hold | Exit


@attrs.frozen
class PresetUnit:
    """A unit on the map before deployment: not bought, so it counts neither against limits nor for
    points. It stays at `at` (a hex label) unless `deploy`: then its player may deploy it again."""

    id: str
    side: Side
    card: StatCard
    at: str
    facing: Facing | None = None
    deploy: bool = False


@attrs.frozen
class Terms:
    """Everything a battle's set-up and victory depend on, sides already resolved (`attacker`)."""

    kind: BattleKind = BattleKind.STANDARD
    attacker: Side | None = None
    axis: SideTerms = SideTerms()
    allies: SideTerms = SideTerms()
    victory: tuple[Victory, ...] = ()
    presets: tuple[PresetUnit, ...] = ()
    #: OWN_OBJECTIVE, CHOOSE_OBJECTIVE or a hex label.
    objective: str = OWN_OBJECTIVE
    #: The battle map when the terms name a map file (None: a configuration, rolled, chosen or given).
    board: Board | None = None
    #: The game ends as a draw at the end of this turn (a scenario's `turns`, or a simulation's cap).
    turn_limit: int | None = None
    #: What a game record needs to find these terms again (a scenario file's name), as header entries.
    source: tuple[tuple[str, str], ...] = ()
    #: The rule set the battle is played under (`minis.content.rule_sets`; the 2005 rulebook's by default).
    rules: RuleSet = RULEBOOK

    def side(self, side: Side) -> SideTerms:
        return self.axis if side is Side.AXIS else self.allies

    def fixed_ends(self) -> dict[Side, str] | None:
        """Each side's end when the terms fix them (one fixed end fixes both), else None."""
        return fixed_ends((side, self.side(side).end) for side in (Side.AXIS, Side.ALLIES))


def standard(turn_limit: int | None = None) -> Terms:
    """The rulebook's Standard battle: 100 points each, five hexes deep, the objective from turn 7 and
    points from turn 10."""
    return Terms(victory=(ObjectiveFrom(7), PointsFrom(10)), turn_limit=turn_limit)


def assault(attacker: Side, turn_limit: int | None = None) -> Terms:
    """The rulebook's Assault: the defender (80 points) anywhere in its half, the attacker (120) five hexes
    deep; the attacker must control the objective the defender chose at the end of turn 10."""
    defender = SideTerms(points=80, zone=HALF)
    attacking = SideTerms(points=120)
    return Terms(
        kind=BattleKind.ASSAULT,
        attacker=attacker,
        axis=attacking if attacker is Side.AXIS else defender,
        allies=attacking if attacker is Side.ALLIES else defender,
        victory=(Hold(10, attacker.other),),
        objective=CHOOSE_OBJECTIVE,
        turn_limit=turn_limit,
    )


def rulebook(kind: BattleKind, attacker: Side | None, turn_limit: int | None = None) -> Terms:
    """Standard or Assault by kind (an Assault needs the attacker)."""
    if kind is BattleKind.ASSAULT:
        if attacker is None:  # said in the words `Game.new` always used
            raise ValueError("an Assault battle needs the attacker's side")
        return assault(attacker, turn_limit)
    return standard(turn_limit)
