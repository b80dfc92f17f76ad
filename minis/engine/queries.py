"""Questions a front end asks before a player decides, answered by the engine's own rule functions.

The game window shows what a move would cost, which movement rolls it needs and with what chance, who
could fire at the unit on the way, and the exact odds of an attack. None of that is a rule of its own:
every answer comes from `minis.rules` (`check_path`, `shooters`, `plan_attack`) and `minis.engine.odds`, asked
about the current position or about a copy of it with the mover placed where a step would put it.
Nothing here changes a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import attrs

from minis import abilities
from minis.ability_rules.special import smoke, smoke_blocks
from minis.cards import RangeBand
from minis.content.ability_catalogue import ability_name
from minis.engine.ability_api import AttackContext
from minis.engine.air_roles import AirRole
from minis.engine.odds import AttackOdds, Odds, attack_distribution, die_chance
from minis.hexgrid import Hex, direction_to, distance
from minis.rules import activation, indirect
from minis.rules.air_attacks import ignores_air_penalty
from minis.rules.combat import AttackPlan, defense_against, plan_attack, target_type, visible
from minis.rules.defensive_fire import shooters
from minis.rules.movement import PathPlan, check_path
from minis.rules.stacking import overstack_warning, room_for, why_full
from minis.state import GameState, MoveProgress
from minis.terrain import MOVEMENT_ROLL_TARGET

#: `MapEffect.kind` of a hex filled with smoke (Smoke Screen) and of a bridge blown up (Bridge Demolition).
SMOKE = "smoke"
BLOWN_BRIDGE = "blown-bridge"
#: `MapEffect.kind` of a road cut where there is no stream (no ability does it today; kept apart so a
#: future one is not called a bridge).
CUT_ROAD = "cut-road"


@attrs.frozen
class StepInfo:
    """One step of a planned move: its cost, its movement rolls, and who could fire during it."""

    start: Hex
    end: Hex
    cost: int
    rolls: tuple[str, ...]
    #: Enemy units that may fire at the mover in this step's windows (in the first hex or the second).
    shooters: tuple[str, ...]


@attrs.frozen
class PathInfo:
    """A planned move as the rules see it, or why it is not allowed (`problem`)."""

    unit: str
    path: tuple[Hex, ...]
    cost: int = 0
    steps: tuple[StepInfo, ...] = ()
    problem: str | None = None

    @property
    def rolls(self) -> int:
        return sum(len(step.rolls) for step in self.steps)

    @property
    def roll_odds(self) -> Fraction:
        """The chance that every movement roll of the move succeeds (1 with no rolls)."""
        return die_chance(MOVEMENT_ROLL_TARGET) ** self.rolls

    @property
    def provokes(self) -> bool:
        return any(step.shooters for step in self.steps)


def path_info(state: GameState, unit_id: str, path: tuple[Hex, ...], *, with_fire: bool = True) -> PathInfo:
    """Cost, movement rolls and defensive-fire exposure of moving `unit_id` along `path` (hexes entered).

    `with_fire=False` skips the defensive-fire question (the costly part) when only cost and rolls matter.
    """
    unit = state.units.get(unit_id)
    if unit is None or unit.hex is None:
        return PathInfo(unit_id, path, problem=f"{unit_id} is not on the battle map")
    plan = check_path(state, unit, path)
    if not isinstance(plan, PathPlan):
        return PathInfo(unit_id, path, problem=plan)
    full = (unit.hex, *path)
    steps = []
    for index, step in enumerate(plan.steps):
        a, b = full[index], full[index + 1]
        firing = fire_exposure(state, unit_id, full, index) if with_fire else ()
        steps.append(StepInfo(a, b, step.cost, step.rolls, firing))
    return PathInfo(unit_id, path, plan.spent, tuple(steps))


def fire_exposure(state: GameState, unit_id: str, full_path: tuple[Hex, ...], index: int) -> tuple[str, ...]:
    """Enemy units that could fire at `unit_id` during step `index` of `full_path` (its start hex first).

    The engine's `shooters` is asked for both windows of the step on a copy of the position with the
    mover where it would be (a Vehicle turned the way it moves, as the walk does).
    """
    unit = state.units[unit_id]
    a, b = full_path[index], full_path[index + 1]
    facing = direction_to(a, b) if unit.card.is_vehicle else unit.facing
    found: list[str] = []
    for at, where in ((1, a), (2, b)):
        trial = state.clone()
        trial.update(unit_id, hex=where, facing=facing)
        progress = MoveProgress(unit_id, full_path, None, unit.facing, step=index, at=at)
        for shooter in shooters(trial, progress):
            if shooter.id not in found:
                found.append(shooter.id)
    return tuple(found)


def move_costs(state: GameState, unit_id: str, paths: Mapping[Hex, tuple[Hex, ...]]) -> dict[Hex, PathInfo]:
    """Cost and movement rolls of each destination's path (the legal moves the engine lists)."""
    return {hex_: path_info(state, unit_id, path, with_fire=False) for hex_, path in paths.items()}


@attrs.frozen
class Modifier:
    """One reason a number of an attack differs from the card's: `what` it changes ("to hit",
    "defense", "cover roll", "dice"), by how much, and why, in words ("disrupted", "Armor Piercing")."""

    what: str
    value: int
    why: str

    @property
    def text(self) -> str:
        return f"{self.value:+d} {self.what}: {self.why}"


@attrs.frozen
class AttackPreview:
    """The numbers of an attack before it is made: what the player sees when hovering a target."""

    attacker: str
    target: str
    distance: int
    band: RangeBand | None
    dice: int
    modifier: int
    defense: int
    #: "front" or "rear" for a Vehicle target, "" for a Soldier.
    facing_side: str
    cover: int | None
    cover_modifier: int
    cover_fixed: bool | None
    defensive: bool
    #: The engine's exact odds of 0-3 hits (`minis.engine.odds.attack_distribution`), the target not destroyed
    #: at once (`destroyed`: the chance it is).
    odds: Odds
    #: The card's defense for this attack (front or rear for a Vehicle), before any modifier.
    card_defense: int = 0
    #: Why the dice, the number to hit, the defense and the cover roll are what they are.
    modifiers: tuple[Modifier, ...] = ()
    #: Indirect fire: the friendly unit whose sight the attack uses ("": the attacker's own sight).
    spotter: str = ""
    #: The chance that the attack destroys the target at once (Flamethrower, Flammable ...).
    destroyed: Fraction = Fraction(0)
    #: What the abilities do to this attack besides the numbers of `modifiers`, a line each, each naming
    #: its ability ("Sirens: changes the hits its successes make"), and what they change of the odds.
    effects: tuple[str, ...] = ()

    @property
    def hit_chance(self) -> Fraction:
        return 1 - self.odds[0]


def attack_preview(
    state: GameState, attacker_id: str, target_id: str, *, defensive: bool = False
) -> AttackPreview | str:
    """The engine's plan for `attacker_id` attacking `target_id` now, with its exact odds; else the reason."""
    attacker, target = state.units.get(attacker_id), state.units.get(target_id)
    if attacker is None or target is None:
        return f"there is no unit '{attacker_id if attacker is None else target_id}'"
    plan = plan_attack(state, attacker, target, defensive=defensive, mode=attack_mode(state, attacker_id))
    if not isinstance(plan, AttackPlan):
        return plan
    assert attacker.hex is not None and target.hex is not None
    side = ("front" if plan.ctx.front else "rear") if target.card.is_vehicle else ""
    odds = attack_distribution(state, plan)
    return AttackPreview(
        attacker_id,
        target_id,
        distance(attacker.hex, target.hex),
        plan.ctx.band,
        plan.dice,
        plan.modifier,
        plan.defense,
        side,
        plan.cover,
        plan.cover_modifier,
        plan.cover_fixed,
        defensive,
        odds.hits,
        defense_against(target, plan.ctx.front),
        modifiers(plan),
        _spotter(state, plan),
        odds.destroyed,
        (*plan_effects(plan), *roll_effects(odds)),
    )


def attack_mode(state: GameState, unit_id: str) -> str:
    """The ability whose extra attack the unit's next attack is (a unit that has acted and earned one,
    as the engine plans it: `minis.rules.sequence`), "" for a normal attack."""
    if unit_id in state.activated:
        for offer in activation.offers(state, unit_id):
            if offer.kind == "attack":
                return offer.ability
    return ""


def _spotter(state: GameState, plan: AttackPlan) -> str:
    """The unit whose sight an indirect-fire attack uses, or "" when the attacker sees the target."""
    attacker, target = plan.ctx.attacker, plan.ctx.target
    if visible(state, attacker, target):
        return ""
    found = indirect.spotter(state, attacker, target)
    return found.id if found is not None else ""


def modifiers(plan: AttackPlan) -> tuple[Modifier, ...]:
    """The plan's numbers taken apart: what the abilities with a say add (asked again, each by name),
    and the rest of each difference, which is the rulebook's (a disrupted or damaged unit, the same hex).
    """
    ctx = plan.ctx
    attacker, target = ctx.attacker, ctx.target
    found: list[Modifier] = []

    def by_abilities(what: str, hook: str, total: int) -> int:
        if not ctx.sources or not total:
            return 0
        names = [h.ref.name for owner, h in ctx.sources if getattr(h, hook)(ctx, owner)]
        found.append(Modifier(what, total, ", ".join(dict.fromkeys(names)) or "an ability"))
        return total

    by_abilities("dice", "extra_dice", _asked(ctx, abilities.extra_dice))
    rest = plan.modifier - by_abilities("to hit", "die_modifier", _asked(ctx, abilities.die_modifier))
    if target.card.is_aircraft and not ignores_air_penalty(ctx.state, attacker):
        found.append(Modifier("to hit", -1, "attacking an aircraft"))
        rest += 1
    if rest:
        found.append(Modifier("to hit", rest, f"the attacker is {_impairment(attacker.disrupted)}"))
    card = defense_against(target, ctx.front)
    rest = (
        plan.defense
        - card
        - by_abilities("defense", "defense_modifier", _asked(ctx, abilities.defense_modifier))
    )
    if rest:
        found.append(Modifier("defense", rest, f"the target is {_impairment(target.disrupted)}"))
    if plan.cover is not None and plan.cover_fixed is None:
        rest = plan.cover_modifier - by_abilities(
            "cover roll", "cover_modifier", _asked(ctx, abilities.cover_modifier)
        )
        if rest:
            found.append(Modifier("cover roll", rest, "attacking into the same hex"))
    return tuple(found)


#: What an ability at work in the roll did, in words (`minis.engine.odds.AttackOdds.changes`).
_ROLL_WORDS = {
    "successes": "changes how many successes its dice make",
    "hits": "changes the hits its successes make",
    "destroys": "may destroy the target at once",
    "rerolls": "rolls attack dice again",
    "rolls": "rolls a die of its own after the attack",
}


def roll_effects(odds: AttackOdds) -> tuple[str, ...]:
    """A line per ability that changed the outcome of the roll on some dice; the last says what they
    change of the chance of at least one hit (against the attack's numbers alone)."""
    if not odds.changes:
        return ()
    lines = [f"{ability_name(ability)}: {_ROLL_WORDS.get(what, what)}" for ability, what in odds.changes]
    if odds.plain is not None and odds.plain[0] != odds.hits[0]:
        lines[-1] += f" (at least one hit: {percent(1 - odds.plain[0])} without)"
    if odds.destroyed:
        lines.append(f"Destroyed at once: {percent(odds.destroyed)}.")
    return tuple(lines)


def plan_effects(plan: AttackPlan) -> tuple[str, ...]:
    """The abilities that shaped the attack's numbers other than by a modifier (`modifiers` has those):
    its dice (Close Assault), its cover roll (none, automatic, or one in the open) and the -1 for a
    disrupted or damaged unit, or on dice at an aircraft, set aside."""
    ctx = plan.ctx
    attacker, target = ctx.attacker, ctx.target
    if not ctx.sources and not target.card.is_aircraft:
        return ()
    state = ctx.state
    found: list[str] = []
    card = attacker.card.attack_dice(target_type(target), ctx.band) if ctx.band is not None else None
    base = plan.dice - abilities.extra_dice(ctx) if ctx.sources else plan.dice
    for owner, h in ctx.sources:
        for option in h.attack_options(ctx, owner):
            if option.dice == base and (card is None or option.dice > card or option.ignores_cover):
                cover = ", no cover roll" if option.ignores_cover else ""
                found.append(f"{h.ref.name}: {option.dice} dice{cover}")
    assert state.board is not None and target.hex is not None
    terrain = state.board.terrain(target.hex).effects.cover(target.card.is_vehicle)
    if ctx.sources and terrain is not None and plan.cover is None and not target.card.is_aircraft:
        found += [f"{h.ref.name}: no cover roll" for o, h in ctx.sources if h.cover_allowed(ctx, o) is False]
    if ctx.sources and plan.cover is not None and plan.cover_fixed is not None:
        result = "succeeds" if plan.cover_fixed else "fails"
        found += [
            f"{h.ref.name}: the cover roll {result} without a die"
            for o, h in ctx.sources
            if h.cover_automatic(ctx, o) is plan.cover_fixed
        ]
    if ctx.sources and terrain is None and plan.cover is not None:
        found += [
            f"{h.ref.name}: a cover roll where the terrain gives none"
            for h in abilities.handlers(state, target.card)
            if h.cover_without_terrain(ctx, target) is not None
        ]
    if ctx.sources and attacker.impaired:
        found += [
            f"{h.ref.name}: no -1 on the attacker's dice for being {_impairment(attacker.disrupted)}"
            for o, h in ctx.sources
            if h.ignores_attack_penalty(ctx, o)
        ]
    if ctx.sources and target.impaired:
        found += [
            f"{h.ref.name}: no -1 on the target's defense for being {_impairment(target.disrupted)}"
            for o, h in ctx.sources
            if h.ignores_defense_penalty(ctx, o)
        ]
    if target.card.is_aircraft and ignores_air_penalty(state, attacker):
        roles = [h for h in abilities.handlers(state, attacker.card) if isinstance(h, AirRole)]
        names = ", ".join(h.ref.name for h in roles) or "Antiair"
        found.append(f"{names}: no -1 on its dice against an aircraft")
    return tuple(dict.fromkeys(found))


def _asked(ctx: AttackContext, question: Callable[[AttackContext], int]) -> int:
    """An ability question's answer for this attack (0 when no ability has a say: the engine skips it)."""
    return question(ctx) if ctx.sources else 0


def _impairment(disrupted: bool) -> str:
    return "disrupted" if disrupted else "damaged"


def defensive_fire_options(state: GameState) -> list[AttackPreview]:
    """During a defensive-fire window: each unit that may fire at the mover now, with its odds."""
    move = state.move
    if move is None:
        return []
    found = []
    for shooter in shooters(state, move):
        preview = attack_preview(state, shooter.id, move.unit, defensive=True)
        if isinstance(preview, AttackPreview):
            found.append(preview)
    return found


def percent(chance: Fraction) -> str:
    """A chance as a whole percentage for people ('<1%' and '>99%' rather than a rounded 0 or 100)."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = chance * 100
    if value < 1:
        return "<1%"
    if value > 99:
        return ">99%"
    return f"{round(value)}%"


@attrs.frozen
class MapEffect:
    """Something an ability left on the map that changes the rules there, for the map and its hover box:
    a hex of smoke (`hexes`: that hex) or a blown bridge (`hexes`: the two hexes of its hexside)."""

    kind: str
    hexes: tuple[Hex, ...]
    #: What it is, in a few words ("Smoke", "Blown bridge").
    title: str
    #: What it does to play, in plain words (the rule it changes, as the engine applies it).
    text: str


def map_effects(state: GameState) -> list[MapEffect]:
    """The effects on the map now, in a fixed order (smoke, then broken roads; each by its hexes).

    Smoke is listed only while the rule set in play blocks sight with it (the registry's sight blockers),
    so what the map shows is what the line-of-sight rule does. A broken road across a stream is a blown
    bridge: the step is no longer along the road (`minis.rules.movement.along_road`), so it pays the
    terrain's cost and needs the stream's movement roll.
    """
    found: list[MapEffect] = []
    if smoke_blocks in abilities.registry(state.battle).sight_blockers:
        for hex_ in sorted(smoke(state)):
            found.append(
                MapEffect(
                    SMOKE,
                    (hex_,),
                    "Smoke until the end of the turn",
                    "no one sees into, out of or through this hex",
                )
            )
    board = state.board
    streams = board.streams if board is not None else frozenset()
    for side in sorted(tuple(sorted(pair)) for pair in state.broken_roads):
        if frozenset(side) in streams:
            found.append(
                MapEffect(
                    BLOWN_BRIDGE,
                    side,
                    "Blown bridge",
                    "the road is cut, so crossing the stream here needs a movement roll "
                    f"({MOVEMENT_ROLL_TARGET}+), as off the road",
                )
            )
        else:
            found.append(
                MapEffect(CUT_ROAD, side, "Cut road", "the road is cut here: a step across is off the road")
            )
    return found


def stacking_warning(state: GameState, hex_: Hex) -> str | None:
    """A warning to show at once when the active player's units leave `hex_` over the stacking limit in
    his own phase (the one extra unit from 2009, any number under 2008): what it breaks and that his pass
    will cost him a hit counter there. None when the end of his phase won't (or the set checks each move).
    """
    return overstack_warning(state, hex_)


def no_room(state: GameState, unit_id: str, hex_: Hex) -> str | None:
    """Why the unit can't end a move in `hex_` for stacking, as the rule in plain words ("only one
    Vehicle may be in a hex"); None if it has room there."""
    unit = state.units[unit_id]
    return None if room_for(state, unit, hex_) else why_full(state, unit, hex_)
