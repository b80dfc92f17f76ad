"""The rule set of a battle in a player's words (no arcade: the controller and the load dialog use it).

Players never read an option's code name (`stack_per_army`): every option has a phrase here
(`phrase`), a named set a one-line description (`describe`: what it is and what it changes most), and a
set with options changed over a named one (a scenario's "custom" set) is shown as its name and
"changed", with the changes in words (`changes`). The window's title bar says `rules_line`: "Rules: 2010".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from minis.content import rule_sets
from minis.content.rule_sets import NAMED, RuleSet

#: What each named set is, in a few words (the options it changes follow in `describe`).
LEADS = {
    "2005": "the rulebook, as played until the first update",
    "2008": "the October 2008 rules update",
    "2009": "the January 2009 stacking update",
    "2010": "the last official update (September 2010)",
}

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _number(n: int) -> str:
    return _NUMBERS.get(n, str(n))


def _points(levels: Sequence[int]) -> str:
    first, *others = levels
    more = f" (or {' or '.join(str(p) for p in others)})" if others else ""
    return f"armies of {first} points{more}"


def _single_nation(rules: RuleSet) -> str:
    if not rules.single_nation_points:
        return "no extra points for an army of one nation"
    limits = ", ".join(f"{nation.value} {points}" for nation, points in rules.single_nation_points)
    return f"an army of one nation may have more points ({limits})"


def _overstack(rules: RuleSet) -> str:
    cap = rules.overstack_while_moving
    if cap is None:
        return "any number of your units over the limit in a hex while you move"
    return f"{_number(cap)} unit{'s' if cap > 1 else ''} of yours over the limit in a hex while you move"


#: Every option of a rule set in a player's words, for its value in `rules`.
PHRASES: dict[str, Callable[[RuleSet], str]] = {
    "max_units": lambda r: "any number of units" if r.max_units is None else f"at most {r.max_units} units",
    "point_levels": lambda r: _points(r.point_levels),
    "obstacle_percent": lambda r: (
        "no limit on obstacles"
        if r.obstacle_percent is None
        else f"obstacles up to {r.obstacle_percent}% of the points"
    ),
    "nationality_table": lambda r: f"the {r.nationality_table} table of historical nationalities",
    "nationality_required": lambda r: (
        "historical nationalities for every army"
        if r.nationality_required
        else "historical nationalities only when asked for"
    ),
    "single_nation_points": _single_nation,
    "hero_cap": lambda r: (
        "one Hero per 100 points" if r.hero_cap == rule_sets.PER_100_POINTS else "one Hero an army"
    ),
    "stack_per_army": lambda r: f"{_number(r.stack_per_army)} of an army in a hex",
    "vehicle_scope": lambda r: (
        "one Vehicle of each army in a hex" if r.vehicle_scope == "army" else "one Vehicle in a hex"
    ),
    "stacking_checked": lambda r: (
        "a hex over the limit at the end of your phase costs a hit"
        if r.stacking_checked == rule_sets.END_OF_PHASE
        else "stacking checked as each unit ends its move"
    ),
    "overstack_while_moving": _overstack,
    "aircraft_placement": lambda r: {
        rule_sets.OWN_PHASE: "aircraft placed in each player's own phase",
        rule_sets.ALTERNATE: "aircraft placed in turn",
        rule_sets.ALTERNATE_WITH_PASS: "aircraft placed in turn, a player may stop",
    }.get(r.aircraft_placement, "aircraft placed in turn"),
    "artillery_vs_aircraft": lambda r: (
        "Artillery may shoot at aircraft"
        if r.artillery_vs_aircraft
        else "Artillery without Antiair can't shoot at aircraft"
    ),
    "crack_shot_vs_aircraft": lambda r: (
        "Crack Shot counts against aircraft"
        if r.crack_shot_vs_aircraft
        else "Crack Shot gives nothing against aircraft"
    ),
    "reaction_grounds_next_turn": lambda r: (
        "an aircraft disrupted as it arrives stays grounded next turn"
        if r.reaction_grounds_next_turn
        else "an aircraft disrupted as it arrives recovers this turn"
    ),
}

#: The options a set's one-line description names (the rest are in docs/rule-sets.md).
SUMMARY = (
    "max_units",
    "stack_per_army",
    "vehicle_scope",
    "stacking_checked",
    "hero_cap",
    "aircraft_placement",
)


def phrase(rules: RuleSet, option: str) -> str:
    """An option's value in `rules`, in a player's words ("three of an army in a hex")."""
    return PHRASES[option](rules)


def describe(rules: RuleSet) -> str:
    """'2010: the last official update (September 2010): any number of units, three of an army in a
    hex, ...': what the set is and what it changes most."""
    shown = [o for o in SUMMARY if o != "vehicle_scope" or rules.vehicle_scope == "army"]
    if rules.stacking_checked != rule_sets.END_OF_PHASE:
        shown.remove("stacking_checked")
    elif rules.overstack_while_moving is None:  # 2008: no cap while moving, only the phase's end counts
        shown.insert(shown.index("stacking_checked"), "overstack_while_moving")
    lead = LEADS.get(rules.name, "a rule set")
    text = f"{rules.name}: {lead}: " + ", ".join(phrase(rules, o) for o in shown)
    changed = changes(rules)
    return text + (f". Changed here: {changed}" if changed else "")


def changes(rules: RuleSet) -> str:
    """The options a custom set changes over its named one, in words ("" for a named set)."""
    return ", ".join(phrase(rules, option) for option in rules.changed)


def rules_line(rules: RuleSet) -> str:
    """'Rules: 2010', or 'Rules: 2010, changed: one Hero an army' for a custom set."""
    return f"Rules: {rules.name}" + (", changed" if rules.changed else "")


def named_sets() -> list[RuleSet]:
    """The sets a player may choose, oldest first."""
    return list(NAMED.values())
