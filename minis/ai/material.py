"""What a unit is still worth at the end of a playout, as a share of its cost: the material both the
hand-set leaf (`minis.ai.playout.score`) and the learned one (`minis.ai.learned`) count."""

from __future__ import annotations

from minis.state import Counter, Unit

__all__ = ["DAMAGED_SHARE", "DISRUPTED_SHARE", "unit_worth"]

#: Damaged Vehicles and disrupted units fight worse: this share of the cost is left.
DAMAGED_SHARE = 0.6
DISRUPTED_SHARE = 0.85


def unit_worth(unit: Unit, gone: tuple[str, ...]) -> float:
    """The points a unit still counts for: its cost, less for damage and disruption, none once lost.

    Counters still face down count already: a Destroyed counter removes the unit in the casualty
    phase whatever happens before it, so a playout cut short still sees the kill. `gone`: the units
    that got off the map (Exit), which were not lost.
    """
    cost = float(unit.card.cost)
    if unit.removed:
        return cost if unit.id in gone else 0.0
    if Counter.DESTROYED in unit.pending:
        return 0.0
    share = 1.0
    if unit.damaged or Counter.DAMAGED in unit.pending:
        share *= DAMAGED_SHARE
    if unit.disrupted or Counter.DISRUPTED in unit.pending:
        share *= DISRUPTED_SHARE
    return cost * share
