"""The questions the rules ask about special abilities (docs/engine.md#special-abilities-the-hooks).

The engine never names a card: at every point where the rulebook lets an ability change a rule it
asks this module (`attack_options`, `die_modifier`, `cover_allowed`, ...), and the answer combines the
hooks (`minis.engine.ability_api`) of the abilities involved: the attacker's and the target's own, and the
auras of units that affect others (commanders). The hooks of the cards in play are resolved once,
when the battle is made (`minis.engine.battle.Battle`), by the battle's own ability registry.

Rulebook principles built in here, so each ability stays small:
- "Can't" trumps "can": a single False from a permission hook forbids.
- Abilities of the same name don't add up, and duplicate commander bonuses never stack: numeric
  contributions are grouped by ability id and only the largest of each group counts.
- A disrupted commander's commander abilities don't function.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

import attrs

from minis.engine.ability_api import (
    Ability,
    AbilityRegistry,
    AttackContext,
    AttackOption,
    CardHooks,
    FollowUp,
)
from minis.engine.actions import Use
from minis.hexgrid import Hex
from minis.rules.errors import IllegalAction
from minis.state import Counter, GameState, Unit

if TYPE_CHECKING:
    from minis.base.sides import Side
    from minis.cards import RangeBand, StatCard
    from minis.dice import Dice
    from minis.engine.battle import Battle
    from minis.engine.events import Event

__all__ = ["AttackContext", "AttackOption", "FollowUp"]


def registry(battle: Battle) -> AbilityRegistry:
    """The battle's abilities as the registry they are: `Battle` names them only by what it asks of
    them (minis/engine/battle.py), as the hooks name the state that holds the battle."""
    return cast("AbilityRegistry", battle.abilities)


def hooks_in_play(battle: Battle) -> Mapping[str, CardHooks]:
    """The battle's cards in play and their hooks, as the `CardHooks` they are (`registry`'s reason)."""
    return cast("Mapping[str, CardHooks]", battle.cards)


def sight_blocked(state: GameState, a: Hex, b: Hex) -> bool:
    """True if an ability's effect on the map blocks the sight line between a and b."""
    return any(blocker(state, a, b) for blocker in registry(state.battle).sight_blockers)


def _hooks(state: GameState, card: StatCard) -> CardHooks:
    """The hooks of a card in play (resolved when the battle was made; the registry's for any other)."""
    battle = state.battle
    found = hooks_in_play(battle).get(card.id)
    if found is None or found.card is not card:
        found = registry(battle).hooks(card)
    return found


#: The hooks of a card in play, for the engine's own quick tests (`CardHooks`' worked-out flags).
card_hooks = _hooks


def attack_context(
    state: GameState,
    attacker: Unit,
    target: Unit,
    distance_: int,
    band: RangeBand | None,
    defensive: bool = False,
    front: bool = False,
    mode: str = "",
) -> AttackContext:
    """An AttackContext with its sources: the attacker's and target's abilities and the auras on the map."""
    mine, theirs = _own(state, attacker), _own(state, target)
    if not (mine or theirs):
        auras = _auras(state)
        return AttackContext(state, attacker, target, distance_, band, defensive, front, tuple(auras), mode)
    sources = [(attacker, h) for h in mine]
    sources.extend((target, h) for h in theirs)
    sources.extend(_auras(state))
    return AttackContext(state, attacker, target, distance_, band, defensive, front, tuple(sources), mode)


def handlers(state: GameState, card: StatCard) -> tuple[Ability, ...]:
    """The hook objects of a card's abilities (abilities without hooks in this rule set have none)."""
    return _hooks(state, card).handlers


def overrides_any(state: GameState, card: StatCard, hooks: frozenset[str]) -> bool:
    """True if one of the card's abilities implements any of `hooks`."""
    return not _hooks(state, card).overrides.isdisjoint(hooks)


def overrides(state: GameState, card: StatCard, hook: str) -> bool:
    """True if one of the card's abilities implements `hook` (a quick test before asking)."""
    return hook in _hooks(state, card).overrides


def _active(state: GameState, unit: Unit) -> tuple[Ability, ...]:
    """The unit's working abilities: a disrupted commander's commander abilities don't function."""
    handlers_ = _hooks(state, unit.card).handlers
    if not handlers_ or not unit.disrupted or not disrupted(state, unit):
        return handlers_
    return tuple(h for h in handlers_ if not h.commander)


def _own(state: GameState, unit: Unit) -> tuple[Ability, ...]:
    """The unit's working abilities that are not auras (`_active` without them; `_auras` has those)."""
    hooks = _hooks(state, unit.card)
    if not unit.disrupted or not hooks.handlers or not disrupted(state, unit):
        return hooks.own
    return tuple(h for h in hooks.handlers if not h.commander and not h.aura)


def _auras(state: GameState) -> list[tuple[Unit, Ability]]:
    """The working auras on the map, with their owners (the battle knows which units have auras)."""
    found: list[tuple[Unit, Ability]] = []
    units = state.units
    for unit_id in state.battle.aura_ids:
        unit = units[unit_id]
        if not unit.removed and unit.hex is not None:
            if unit.disrupted and disrupted(state, unit):  # `_active`: no commander abilities
                found.extend((unit, h) for h in _hooks(state, unit.card).auras if not h.commander)
            else:
                found.extend([(unit, h) for h in _hooks(state, unit.card).auras])
    return found


def _has(state: GameState, unit: Unit, hook: str) -> bool:
    """True if one of the unit's own abilities implements `hook` (False: asking them is pointless)."""
    card = unit.card
    battle = state.battle
    found = battle.cards.get(card.id)  # `_hooks` inlined: this is asked tens of thousands of times a game
    if found is None or found.card is not card:
        found = battle.abilities.hooks(card)
    return hook in found.overrides


def _aura_hook(state: GameState, hook: str) -> bool:
    """True if an aura of a unit of this battle implements `hook` (False: asking the auras is pointless)."""
    return hook in state.battle.aura_hooks


def _attack_sources(ctx: AttackContext) -> tuple[tuple[Unit, Ability], ...]:
    return ctx.sources


def _largest(values: Iterable[tuple[str, int]]) -> int:
    """Sum of contributions where each ability name counts once (its largest value by size)."""
    best: dict[str, int] = {}
    for key, value in values:
        if value and abs(value) > abs(best.get(key, 0)):
            best[key] = value
    return sum(best.values())


def _forbidden(answers: Iterable[bool | None]) -> bool:
    return any(answer is False for answer in answers)


# --- the questions the engine asks ------------------------------------------------------------------


def _offers(state: GameState, card: StatCard, distance: int | None) -> bool:
    hooks = _hooks(state, card)
    if distance is None or not hooks.offerers:
        return bool(hooks.offerers)
    return offers_at(hooks, distance)


def offers_at(hooks: CardHooks, distance: int) -> bool:
    """Whether one of the card's abilities (`hooks`) may offer an attack at `distance` (kept per card)."""
    found = hooks.offers_at.get(distance)
    if found is None:
        found = hooks.offers_at[distance] = any(h.offers_attack_at(distance) for h in hooks.offerers)
    return found


def may_offer_attacks(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> bool:
    """False when no ability could give this attacker a way to attack this target (a quick test);
    `distance` (attacker to target) lets abilities that only work at some distances say no."""
    battle = state.battle
    cards = hooks_in_play(battle)
    for card in (attacker.card, target.card):  # `_offers` of each, with `_hooks` inlined (asked a lot)
        hooks = cards.get(card.id)
        if hooks is None or hooks.card is not card:
            hooks = registry(battle).hooks(card)
        if hooks.offerers and _offers(state, card, distance):
            return True
    return "attack_options" in battle.aura_hooks


def may_forbid_attack(state: GameState, attacker: Unit, target: Unit) -> bool:
    """False when no ability could forbid this attack (`may_attack` would be True: a quick test)."""
    return (
        _has(state, attacker, "may_attack")
        or _has(state, target, "may_attack")
        or _aura_hook(state, "may_attack")
    )


def attack_options(ctx: AttackContext) -> list[AttackOption]:
    return [opt for owner, h in _attack_sources(ctx) for opt in h.attack_options(ctx, owner)]


def may_attack(ctx: AttackContext) -> bool:
    return not any(
        h.may_attack(ctx, owner) is False and not _lifted(ctx, h.id) for owner, h in _attack_sources(ctx)
    )


def _lifted(ctx: AttackContext, refused_by: str) -> bool:
    """True if an ability with a say in the attack sets aside the refusal by `refused_by`."""
    return any(h.lifts_refusal(ctx, owner, refused_by) for owner, h in _attack_sources(ctx))


def sight_past(state: GameState, unit: Unit) -> int:
    """How many hexes of blocking terrain the unit's own sight lines may cross (0 for most units)."""
    if not _has(state, unit, "sight_past"):
        return 0
    return max((h.sight_past(state, unit) for h in _active(state, unit)), default=0)


def spotter_for(state: GameState, attacker: Unit, target: Unit) -> Unit | None:
    """The friendly unit whose sight the attacker's abilities let it use against `target` (Indirect
    Fire), or None; the first ability with an answer gives it (minis/rules/indirect.py)."""
    if not _has(state, attacker, "spotter_for"):
        return None
    for h in _active(state, attacker):
        found = h.spotter_for(state, attacker, target)
        if found is not None:
            return found
    return None


def counts_as_spotter(state: GameState, unit: Unit) -> bool:
    """True if the unit is a Spotter for friendly Indirect Fire now ("can't" trumps "can")."""
    if not _has(state, unit, "counts_as_spotter"):
        return False
    answers = [h.counts_as_spotter(state, unit) for h in _active(state, unit)]
    return True in answers and False not in answers


def extra_dice(ctx: AttackContext) -> int:
    return _largest((h.id, h.extra_dice(ctx, owner)) for owner, h in _attack_sources(ctx))


def die_modifier(ctx: AttackContext) -> int:
    return _largest((h.id, h.die_modifier(ctx, owner)) for owner, h in _attack_sources(ctx))


def ignores_attack_penalty(ctx: AttackContext) -> bool:
    return any(h.ignores_attack_penalty(ctx, owner) for owner, h in _attack_sources(ctx))


def successes(ctx: AttackContext, count: int) -> int:
    for owner, h in _attack_sources(ctx):
        changed = h.successes(ctx, owner, count)
        if changed is not None:
            count = changed
    return count


def extra_successes(ctx: AttackContext, rolls: tuple[int, ...], modifier: int) -> int:
    """Successes the abilities add to the usual count of these dice (each ability name counts once)."""
    return _largest(
        (h.id, h.extra_successes(ctx, owner, rolls, modifier)) for owner, h in _attack_sources(ctx)
    )


def destroys(ctx: AttackContext, rolls: tuple[int, ...]) -> bool:
    """True if an ability makes these attack dice destroy the target at once (Flamethrower)."""
    return any(h.destroys(ctx, owner, rolls) for owner, h in _attack_sources(ctx))


def blast(ctx: AttackContext) -> bool:
    return any(h.blast(ctx, ctx.attacker) for h in _active(ctx.state, ctx.attacker))


def score_changes(
    ctx: AttackContext, rolls: tuple[int, ...], modifier: int, count: int, defense: int, plain: int
) -> tuple[str, ...]:
    """Which abilities changed what these attack dice score (`count` successes by the dice alone, `plain`
    hits by the rulebook table for the successes the abilities leave), each as "ID:what" ("successes",
    "hits" or "destroys"), asked again one by one as `extra_successes`, `successes`, `hits` and
    `destroys` ask them: for the result line and the odds panel to name them."""
    found: list[str] = []
    for owner, h in _attack_sources(ctx):
        if h.extra_successes(ctx, owner, rolls, modifier):
            found.append(f"{h.id}:successes")
    count += extra_successes(ctx, rolls, modifier)
    for owner, h in _attack_sources(ctx):
        changed = h.successes(ctx, owner, count)
        if changed is not None and changed != count:
            found.append(f"{h.id}:successes")
            count = changed
    hits_ = plain
    for owner, h in _attack_sources(ctx):
        changed = h.hits(ctx, owner, count, defense, hits_)
        if changed is not None and changed != hits_:
            found.append(f"{h.id}:hits")
            hits_ = changed
    found.extend(f"{h.id}:destroys" for owner, h in _attack_sources(ctx) if h.destroys(ctx, owner, rolls))
    return tuple(dict.fromkeys(found))


def defense_modifier(ctx: AttackContext) -> int:
    return _largest((h.id, h.defense_modifier(ctx, owner)) for owner, h in _attack_sources(ctx))


def ignores_defense_penalty(ctx: AttackContext) -> bool:
    return any(h.ignores_defense_penalty(ctx, owner) for owner, h in _attack_sources(ctx))


def hits(ctx: AttackContext, successes_: int, defense: int, hits_: int) -> int:
    for owner, h in _attack_sources(ctx):
        changed = h.hits(ctx, owner, successes_, defense, hits_)
        if changed is not None:
            hits_ = changed
    return hits_


def place_counter(state: GameState, unit: Unit, counter: Counter) -> Counter | None:
    for h in _active(state, unit):
        changed = h.place_counter(state, unit, counter)
        if changed is not counter:
            return changed
    return counter


def cover_allowed(ctx: AttackContext) -> bool:
    return not _forbidden(h.cover_allowed(ctx, owner) for owner, h in _attack_sources(ctx))


def cover_automatic(ctx: AttackContext) -> bool | None:
    """A fixed cover result: False (automatic failure) beats True ("can't" trumps "can")."""
    answers = [h.cover_automatic(ctx, owner) for owner, h in _attack_sources(ctx)]
    if False in answers:
        return False
    return True if True in answers else None


def cover_modifier(ctx: AttackContext) -> int:
    return _largest((h.id, h.cover_modifier(ctx, owner)) for owner, h in _attack_sources(ctx))


def cover_without_terrain(ctx: AttackContext) -> int | None:
    """The cover roll the target's own abilities give it where its terrain gives none (the easiest)."""
    target = ctx.target
    if not _has(ctx.state, target, "cover_without_terrain"):
        return None
    needs = [h.cover_without_terrain(ctx, target) for h in _active(ctx.state, target)]
    return min((n for n in needs if n is not None), default=None)


def provokes(state: GameState, mover: Unit, firer: Unit) -> bool | None:
    """An ability's override of who provokes whom (None: the rulebook decides)."""
    if not (_has(state, firer, "provokes") or _has(state, mover, "provokes")):
        return None
    answers = [
        h.provokes(state, mover, firer, owner) for owner in (firer, mover) for h in _active(state, owner)
    ]
    if False in answers:
        return False
    return True if True in answers else None


def provokes_step(state: GameState, mover: Unit, firer: Unit, a: Hex, b: Hex) -> bool | None:
    """An ability's override of whether the step a -> b provokes (None: `provokes` and the rulebook);
    the firer's and mover's abilities and the auras on the map (Command Awareness) have a say."""
    aura = _aura_hook(state, "provokes_step")
    if not (aura or _has(state, firer, "provokes_step") or _has(state, mover, "provokes_step")):
        return None
    answers = [
        h.provokes_step(state, mover, firer, owner, a, b)
        for owner in (firer, mover)
        for h in _active(state, owner)
    ]
    if aura:
        answers.extend(h.provokes_step(state, mover, firer, owner, a, b) for owner, h in _auras(state))
    if False in answers:
        return False
    return True if True in answers else None


def provokes_leaving(state: GameState, mover: Unit, firer: Unit) -> bool:
    """Whether `mover` leaving the firer's neighbourhood provokes `firer` (Battlefield Awareness)."""
    if not _has(state, firer, "provokes_leaving"):
        return False
    return any(h.provokes_leaving(state, mover, firer, firer) for h in _active(state, firer))


def defensive_fire_limit(state: GameState, unit: Unit) -> int:
    if not _has(state, unit, "defensive_fire_limit"):
        return 1
    limits = [h.defensive_fire_limit(state, unit) for h in _active(state, unit)]
    return max((n for n in limits if n is not None), default=1)


def defensive_fire_attacks(state: GameState, unit: Unit) -> int:
    if not _has(state, unit, "defensive_fire_attacks"):
        return 1
    counts = [h.defensive_fire_attacks(state, unit) for h in _active(state, unit)]
    return max((n for n in counts if n is not None), default=1)


def may_fire_defensively(state: GameState, unit: Unit) -> bool:
    if not (_has(state, unit, "may_fire_defensively") or _aura_hook(state, "may_fire_defensively")):
        return True
    sources = [(unit, h) for h in _active(state, unit)] + list(_auras(state))
    return not _forbidden(h.may_fire_defensively(state, unit, owner) for owner, h in sources)


def speed_modifier(state: GameState, unit: Unit) -> int:
    if not (_has(state, unit, "speed_modifier") or _aura_hook(state, "speed_modifier")):
        return 0
    sources = [(unit, h) for h in _active(state, unit) if not h.aura] + list(_auras(state))
    return _largest((h.id, h.speed_modifier(state, unit, owner)) for owner, h in sources)


def road_speed_bonus(state: GameState, unit: Unit) -> int:
    if not _has(state, unit, "road_speed_bonus"):
        return 0
    return _largest((h.id, h.road_speed_bonus(state, unit)) for h in _active(state, unit))


def may_move(state: GameState, unit: Unit) -> bool:
    if not (_has(state, unit, "may_move") or _aura_hook(state, "may_move")):
        return True
    sources = [(unit, h) for h in _active(state, unit) if not h.aura] + list(_auras(state))
    return not _forbidden(h.may_move(state, unit, owner) for owner, h in sources)


def base_speed(state: GameState, unit: Unit) -> int:
    if not _has(state, unit, "base_speed"):
        return int(unit.card.speed)
    for h in _active(state, unit):
        speed = h.base_speed(state, unit)
        if speed is not None:
            return speed
    return int(unit.card.speed)


def movement_rolls(state: GameState, unit: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]) -> tuple[str, ...]:
    if not _has(state, unit, "movement_rolls"):
        return rolls
    for h in _active(state, unit):
        rolls = h.movement_rolls(state, unit, a, b, rolls)
    return rolls


def plain_mover(state: GameState, unit: Unit) -> bool:
    """True if no ability changes how far or where this unit moves (its own, or an aura on the map):
    its speed is the card's (less one for a damaged Vehicle) everywhere, roads included."""
    return _hooks(state, unit.card).moves_plainly and "speed_modifier" not in state.battle.aura_hooks


def changes_steps(state: GameState, unit: Unit) -> bool:
    """True if the unit has an ability that changes where it may step (movement rolls don't: a move
    that needs a roll is still a legal move)."""
    return not _hooks(state, unit.card).overrides.isdisjoint(_STEP_HOOKS)


#: The hooks that change where a unit may step or what a step costs (`changes_steps`).
_STEP_HOOKS = frozenset(("may_enter", "may_step", "step_cost", "enters_terrain"))


def may_enter(state: GameState, unit: Unit, hex_: Hex, along_road: bool) -> bool:
    if not _has(state, unit, "may_enter"):
        return True
    return not _forbidden(h.may_enter(state, unit, hex_, along_road) for h in _active(state, unit))


def enters_terrain(state: GameState, unit: Unit, hex_: Hex, allowed: bool) -> bool:
    """Whether the unit may be in `hex_`, `allowed` being the Terrain Effects table's answer for its
    kind: an ability's False closes it ("can't" trumps "can"), a True opens it (water hexes)."""
    if not _has(state, unit, "enters_terrain"):
        return allowed
    answers = [h.enters_terrain(state, unit, hex_) for h in _active(state, unit)]
    if False in answers:
        return False
    return True if True in answers else allowed


def may_step(state: GameState, unit: Unit, a: Hex, b: Hex, along_road: bool) -> bool:
    """Whether the unit's abilities allow the step a -> b (what lies between the hexes: Thin Wheels)."""
    if not _has(state, unit, "may_step"):
        return True
    return not _forbidden(h.may_step(state, unit, a, b, along_road) for h in _active(state, unit))


def step_cost(state: GameState, unit: Unit, a: Hex, b: Hex, cost: int) -> int:
    """What the step a -> b costs the unit: `cost` by the rules, as its abilities change it."""
    if not _has(state, unit, "step_cost"):
        return cost
    for h in _active(state, unit):
        cost = h.step_cost(state, unit, a, b, cost)
    return cost


def movement_roll_modifier(state: GameState, unit: Unit, roll: str) -> int:
    """Added to the die of the unit's movement roll `roll` (Mountaineering, Robust)."""
    if not _has(state, unit, "movement_roll_modifier"):
        return 0
    return _largest((h.id, h.movement_roll_modifier(state, unit, roll)) for h in _active(state, unit))


def moves_while_disrupted(state: GameState, unit: Unit) -> bool:
    """True if an ability lets the unit move (and turn) although it is disrupted (SS Determination)."""
    if not _has(state, unit, "moves_while_disrupted"):
        return False
    return any(h.moves_while_disrupted(state, unit) for h in _active(state, unit))


def keeps_moving_when_disrupted(state: GameState, unit: Unit) -> bool:
    """True if defensive fire that disrupts the unit mid-move doesn't stop it (Determined Charge)."""
    if not _has(state, unit, "keeps_moving_when_disrupted"):
        return False
    return any(h.keeps_moving_when_disrupted(state, unit) for h in _active(state, unit))


def stacks_as_vehicle(state: GameState, unit: Unit) -> bool:
    card = unit.card
    battle = state.battle
    # `_hooks` inlined: asked for every unit of a hex at every stop
    hooks = hooks_in_play(battle).get(card.id)
    if hooks is None or hooks.card is not card:
        hooks = registry(battle).hooks(card)
    fixed = hooks.stacks_fixed  # a Vehicle, or no ability to ask (worked out once per card)
    if fixed is not None:
        return fixed
    return any(h.stacks_as_vehicle(unit) for h in hooks.handlers)


def capacity(state: GameState, unit: Unit) -> int:
    return max((h.capacity(unit) for h in handlers(state, unit.card)), default=0)


def may_carry(state: GameState, transport: Unit, soldier: Unit) -> bool:
    """Whether `transport` may carry `soldier`: a transport ability must allow it, none forbid it."""
    answers = [
        h.may_carry(transport, soldier, owner)
        for owner in (transport, soldier)
        for h in handlers(state, owner.card)
    ]
    return True in answers and False not in answers


def boarding_problem(state: GameState, transport: Unit, soldier: Unit) -> str | None:
    """Why the transport's abilities refuse `soldier` given who already rides (None: they don't)."""
    if not _has(state, transport, "boarding_problem"):
        return None
    for h in handlers(state, transport.card):
        problem = h.boarding_problem(state, transport, soldier)
        if problem is not None:
            return problem
    return None


def passenger_targetable(state: GameState, transport: Unit) -> bool:
    return any(h.passenger_targetable(transport) for h in handlers(state, transport.card))


def passenger_may_fire(state: GameState, transport: Unit, passenger: Unit, defensive: bool) -> bool:
    if not _has(state, transport, "passenger_may_fire"):
        return False
    return any(
        h.passenger_may_fire(state, transport, passenger, defensive) for h in _active(state, transport)
    )


def moves_before_turn_1(state: GameState, unit: Unit) -> bool:
    return any(h.moves_before_turn_1(unit) for h in _hooks(state, unit.card).handlers)


def disrupted(state: GameState, unit: Unit) -> bool:
    """Whether the unit is disrupted for the rules: a face-up Disrupted counter that no ability ignores."""
    return unit.disrupted and not any(h.ignores_disruption(unit) for h in _hooks(state, unit.card).handlers)


def units_with(state: GameState, hook: str) -> tuple[str, ...]:
    """The units of the battle (on the map or not, sorted by id) whose abilities implement `hook`."""
    return state.battle.hook_units.get(hook, ())


def on_phase_start(state: GameState, events: list[Event]) -> None:
    """Tell every ability on the map that a movement or assault phase has begun."""
    for unit_id in units_with(state, "on_phase_start"):
        if state.units[unit_id].on_map:
            for h in _active(state, state.units[unit_id]):
                h.on_phase_start(state, state.units[unit_id], events)


def after_attack(
    state: GameState, ctx: AttackContext, counters: tuple[Counter, ...], dice: Dice, events: list[Event]
) -> None:
    """Tell the abilities with a say in an attack that it has been resolved."""
    for owner, h in ctx.sources:
        h.after_attack(state, ctx, owner, counters, dice, events)


def before_move(state: GameState, unit: Unit, path: tuple[Hex, ...], overrun: str | None) -> str | None:
    """Why the move can't be made as given (None: it can); a named overrun target needs an ability."""
    if overrun is None and not _has(state, unit, "before_move"):
        return None
    accepted = False
    for h in _active(state, unit):
        answer = h.before_move(state, unit, path, overrun)
        if isinstance(answer, str):
            return answer
        accepted = accepted or answer is True
    if overrun is not None and not accepted:
        return f"{unit.id} has no ability to overrun {overrun}"
    return None


def on_enter(state: GameState, unit: Unit, hex_: Hex, events: list[Event]) -> None:
    if "on_enter" in _hooks(state, unit.card).overrides:
        for h in _active(state, unit):
            h.on_enter(state, state.units[unit.id], hex_, events)


def follow_ups(state: GameState, unit: Unit, done: str, path: tuple[Hex, ...] = ()) -> tuple[FollowUp, ...]:
    """The extra actions `unit` earned by doing `done`: from its own abilities and auras on the map."""
    if not (_has(state, unit, "follow_ups") or _aura_hook(state, "follow_ups")):
        return ()
    sources = [(unit, h) for h in _active(state, unit) if not h.aura] + _auras(state)
    return tuple(f for owner, h in sources for f in h.follow_ups(state, unit, owner, done, path))


def use_actions(state: GameState, unit: Unit) -> list[Use]:
    """Every `use U ABILITY ARGS...` the unit may take now."""
    if not _has(state, unit, "use_actions"):
        return []
    return [
        Use(unit.id, h.id, tuple(args)) for h in _active(state, unit) for args in h.use_actions(state, unit)
    ]


def use_problem(state: GameState, unit: Unit, action: Use) -> str | None:
    for h in _active(state, unit):
        if h.id == action.ability:
            return h.use_problem(state, unit, action.args)
    return f"{unit.id} has no ability '{action.ability}' it can use"


def use(state: GameState, unit: Unit, action: Use, dice: Dice, events: list[Event]) -> None:
    """Carry out `use U ABILITY ARGS...` (IllegalAction with the reason if it isn't allowed)."""
    problem = use_problem(state, unit, action)
    if problem is not None:
        raise IllegalAction(problem)
    for h in _active(state, unit):
        if h.id == action.ability:
            h.use(state, unit, action.args, dice, events)
            return


def initiative_bonus(state: GameState, unit: Unit) -> int:
    if not _has(state, unit, "initiative_bonus"):
        return 0
    return max((h.initiative_bonus(state, unit) for h in _active(state, unit)), default=0)


def side_initiative_bonus(state: GameState, units: Iterable[Unit]) -> int:
    """What the side of `units` adds to its initiative roll besides its best commander bonus (Recon):
    each ability counts once, however many of the units have it."""
    return _largest(
        (h.id, h.side_initiative_bonus(state, unit))
        for unit in units
        if _has(state, unit, "side_initiative_bonus")
        for h in _active(state, unit)
    )


# --- rerolls and the casualty phase (the dice order: docs/abilities.md) -----------------------------


def may_reroll_attack_dice(ctx: AttackContext) -> bool:
    """False when no ability in this attack could roll an attack die again (a quick test)."""
    state = ctx.state
    return (
        _has(state, ctx.attacker, "reroll_attack_dice")
        or _has(state, ctx.target, "reroll_attack_dice")
        or _aura_hook(state, "reroll_attack_dice")
    )


@attrs.frozen
class RerollBatch:
    """What a batch of rerolled attack dice is for, told to the dice source (`Dice.roll_many`): dice
    that hit on `4 - modifier` or better, whose order does not matter to the odds."""

    modifier: int


def reroll_attack_dice(
    ctx: AttackContext, rolls: list[int], modifier: int, defense: int, dice: Dice, events: list[Event]
) -> list[int]:
    """The attack dice after the abilities' rerolls: each ability in turn (the attacker's, the target's,
    then the auras) names dice to roll again, drawn at once in the order of the dice; a die is rolled
    again at most once. Each reroll is an "ability" event with the new dice."""
    from minis.engine.events import Event  # at run time only here: games with rerolls

    rolled = list(rolls)
    done: set[int] = set()
    for owner, h in ctx.sources:
        picked = h.reroll_attack_dice(ctx, owner, tuple(rolled), modifier, defense, frozenset(done))
        picks = sorted({i for i in picked if i not in done and 0 <= i < len(rolled)})
        if not picks:
            continue
        new = tuple(dice.roll_many(len(picks), batch=RerollBatch(modifier)))  # one batch: odds group them
        for index, value in zip(picks, new, strict=True):
            rolled[index] = value
            done.add(index)
        events.append(Event("ability", owner.side, owner.id, ctx.target.id, dice=new, note=h.id))
    return rolled


def attack_rolled(state: GameState, ctx: AttackContext, rolls: tuple[int, ...], events: list[Event]) -> None:
    """Tell the abilities with a say in an attack its final attack dice (after it is resolved)."""
    for owner, h in ctx.sources:
        h.attack_rolled(state, ctx, owner, rolls, events)


def rerolls_initiative(state: GameState, side: Side) -> tuple[str, str] | None:
    """The unit of `side` on the map and its ability (ids) that let the losing side roll its two
    initiative dice again now (None: none does; the ability keeps its own count)."""
    for unit_id in units_with(state, "rerolls_initiative"):
        unit = state.units[unit_id]
        if unit.side is side and unit.on_map:
            for h in _active(state, unit):
                if h.rerolls_initiative(state, unit):
                    return unit.id, h.id
    return None


def rerolls_movement_roll(state: GameState, unit: Unit, what: str) -> str | None:
    """The ability (its id) that rolls the unit's failed movement roll again now (None: none does)."""
    if _has(state, unit, "rerolls_movement_roll"):
        for h in _active(state, unit):
            if h.rerolls_movement_roll(state, unit, what):
                return h.id
    return None


def keeps_disruption(state: GameState, unit: Unit, dice: Dice, events: list[Event]) -> bool:
    """True if the unit's face-up Disrupted counter stays at the start of the casualty phase."""
    if not _has(state, unit, "keeps_disruption"):
        return False
    return any(h.keeps_disruption(state, unit, dice, events) for h in _active(state, unit))


def survives_destroyed(state: GameState, unit: Unit, dice: Dice, events: list[Event]) -> bool:
    """True if the Destroyed counter just turned face up on the unit is thrown away."""
    if not _has(state, unit, "survives_destroyed"):
        return False
    return any(h.survives_destroyed(state, unit, dice, events) for h in _active(state, unit))


def on_disrupted(state: GameState, unit: Unit, events: list[Event]) -> None:
    """Tell the unit's abilities it has just got a face-up Disrupted counter."""
    if _has(state, unit, "on_disrupted"):
        for h in _active(state, unit):
            h.on_disrupted(state, state.units[unit.id], events)
