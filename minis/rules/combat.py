"""Attack and Defense, Attack Effects and Cover (rulebook): one attack from target choice to counters.

`plan_attack` decides whether an attack is allowed and fixes its numbers (dice, the modifier on each
die, the defense it must beat, the cover roll the target may make); `resolve_attack` rolls it. Normal
attacks place face-down counters; defensive fire (`defensive=True`) disrupts at once and is negated by
a successful cover roll. The dice are drawn in the contract order: all attack dice, then one cover die
only if the attack scored a hit and the target may roll (and no ability fixes the result).
"""

from __future__ import annotations

from typing import NamedTuple

import attrs

from minis import abilities
from minis.board import Board
from minis.cards import RangeBand, StatCard, UnitType, range_band
from minis.dice import Dice
from minis.engine.ability_api import AttackContext
from minis.engine.events import Event
from minis.hexgrid import Hex, crossed_hexes, distance, is_front
from minis.rules import caching, casualty, indirect, obstacles
from minis.rules.air_attacks import AIR_TARGET_PENALTY, cannot_attack_aircraft, ignores_air_penalty
from minis.state import Counter, GameState, Unit

#: A die showing this or more (after modifiers) is a success.
SUCCESS = 4
#: The -1 on each attack die and on defense for a disrupted or damaged unit (never more than one).
IMPAIRED_PENALTY = 1
#: The -1 on a cover roll when the attacker is in the target's hex.
SAME_HEX_COVER_PENALTY = 1


@attrs.frozen(slots=True)
class AttackPlan:
    """The numbers of one attack, fixed before any die is rolled."""

    ctx: AttackContext
    dice: int
    modifier: int  # added to each attack die
    defense: int
    cover: int | None  # the cover roll target (4 or 5) if the target may make one, else None
    cover_modifier: int
    cover_fixed: bool | None  # an ability fixes the cover result: no die is drawn


def hits_for(successes: int, defense: int) -> int:
    """Successes to hits (rulebook table): below defense 0, equal 1, above 2, double or more 3."""
    if successes < defense:
        return 0
    if successes >= 2 * defense:
        return 3
    return 2 if successes > defense else 1


def count_successes(rolls: list[int], modifier: int) -> int:
    return sum(1 for die in rolls if die + modifier >= SUCCESS)


def target_type(unit: Unit) -> UnitType:
    return UnitType.VEHICLE if unit.card.is_vehicle else UnitType.SOLDIER


def defense_against(target: Unit, front: bool) -> int:
    """The card's defense for this attack: front or rear for a Vehicle, the one value for a Soldier."""
    return int(target.card.defense_front if front else target.card.defense_rear)


def visible(state: GameState, attacker: Unit, target: Unit) -> bool:
    assert state.battle.board is not None and attacker.hex is not None and target.hex is not None
    if abilities.registry(state.battle).sight_blockers and abilities.sight_blocked(
        state, attacker.hex, target.hex
    ):
        return False
    if attacker.card.is_aircraft or target.card.is_aircraft:
        return True  # nothing on the ground hides an aircraft or what it sees (only smoke, above)
    if distance(attacker.hex, target.hex) <= 1:
        return True  # the same or an adjacent hex: the sight line crosses no other hex
    board = state.battle.board
    sight = caching.kept(board, _sight_answers)  # answers are per board (a Board is immutable)
    key = (attacker.hex, target.hex)
    found = sight.get(key)
    if found is None:
        found = sight[key] = bool(board.visible(attacker.hex, target.hex))
    if not found and abilities.overrides(state, attacker.card, "sight_past"):
        return _sees_past(state, attacker.hex, target.hex, abilities.sight_past(state, attacker))
    return found


def _sees_past(state: GameState, a: Hex, b: Hex, allowed: int) -> bool:
    """Sight from a to b that may cross up to `allowed` hexes of blocking terrain (Superior Optics)."""
    if not allowed:
        return False
    assert state.battle.board is not None
    blocking = state.battle.board.los_table().blocking
    return sum(1 for h in crossed_hexes(a, b) if h in blocking) <= allowed


def _sight_answers(board: Board) -> dict[tuple[Hex, Hex], bool]:
    """Line of sight between two hexes of a board, as asked (again and again by listing), kept on it."""
    return {}


def plan_attack(
    state: GameState,
    attacker: Unit,
    target: Unit,
    defensive: bool = False,
    blast: bool = False,
    mode: str = "",
) -> AttackPlan | str:
    """The plan of an attack, or the reason it is not allowed (a sentence for the player).

    `blast`: one of the separate attacks of a Blast on the other units of the target hex, which may be
    friendly. `mode`: the ability whose extra attack this is.
    """
    plan = _plan(state, attacker, target, defensive, blast, mode, check_only=False)
    assert plan is not None  # only a check (check_only) answers None for an allowed attack
    return plan


def attack_allowed(
    state: GameState, attacker: Unit, target: Unit, defensive: bool = False, mode: str = ""
) -> bool:
    """Whether `plan_attack` would give a plan (without working out its numbers: for listing targets)."""
    return _plan(state, attacker, target, defensive, False, mode, check_only=True) is None


#: What a check (`attack_allowed`) gets instead of a reason it doesn't show: no sentence to format.
_REFUSED = "not allowed"


def _plan(
    state: GameState,
    attacker: Unit,
    target: Unit,
    defensive: bool,
    blast: bool,
    mode: str,
    check_only: bool,
) -> AttackPlan | str | None:
    """`plan_attack`; with `check_only`, None when the attack is allowed (the numbers are skipped)."""
    if not attacker.on_map:
        return f"{attacker.id} is not on the battle map"
    if not target.on_map:
        return f"{target.id} is not on the battle map"
    if target.side is attacker.side and not blast:
        return f"{target.id} is not an enemy unit"
    if attacker.carried_by is not None:
        transport = state.units[attacker.carried_by]
        if not abilities.passenger_may_fire(state, transport, attacker, defensive):
            return f"{attacker.id} is boarded on {attacker.carried_by} and can't fire"
    if target.carried_by is not None and not abilities.passenger_targetable(
        state, state.units[target.carried_by]
    ):
        return f"{target.id} is boarded on {target.carried_by} and can't be attacked"
    assert attacker.hex is not None and target.hex is not None
    if target.card.is_aircraft:
        refused = cannot_attack_aircraft(attacker, state)
        if refused:
            return _REFUSED if check_only else refused
    dist = distance(attacker.hex, target.hex)
    band = range_band(dist)
    kind = target_type(target)
    best = attacker.card.attack_dice(kind, band) if band is not None else None
    if best is None and not mode and not abilities.may_offer_attacks(state, attacker, target, dist):
        return _REFUSED if check_only else _no_attack(attacker, kind, band, dist)
    if check_only:
        # Every allowed attack needs line of sight, and a check needs no reason: ask sight first (a
        # cached answer) before building the abilities' view of the attack.
        if not visible(state, attacker, target) and indirect.spotter(state, attacker, target) is None:
            return _REFUSED
        if best is not None and not abilities.may_forbid_attack(state, attacker, target):
            return None  # other ways to attack could only change the numbers, and nothing forbids it
    front = bool(
        target.card.is_vehicle
        and target.facing is not None
        and is_front(target.hex, target.facing, attacker.hex)
    )
    ctx = abilities.attack_context(state, attacker, target, dist, band, defensive, front, mode)
    if not ctx.sources:
        return _plain_plan(state, ctx, best) if not check_only else _plain_check(state, ctx, best)
    ignores_cover = False
    if not (check_only and best is not None):  # a check needs other ways only when the card has none
        for option in abilities.attack_options(ctx):
            if best is None or option.dice > best or (option.dice == best and option.ignores_cover):
                best, ignores_cover = option.dice, option.ignores_cover
    if best is None:
        return _REFUSED if check_only else _no_attack(attacker, kind, band, dist)
    if not visible(state, attacker, target) and indirect.spotter(state, attacker, target) is None:
        why = indirect.no_guide(state, attacker, target)  # "" unless the attacker has Indirect Fire
        return f"{attacker.id} has no line of sight to {target.id}{why}"
    if not abilities.may_attack(ctx):
        return f"an ability keeps {attacker.id} from attacking {target.id}"
    if check_only:
        return None
    dice = best + abilities.extra_dice(ctx)
    modifier = abilities.die_modifier(ctx)
    if attacker.impaired and not abilities.ignores_attack_penalty(ctx):
        modifier -= IMPAIRED_PENALTY
    if target.card.is_aircraft and not ignores_air_penalty(state, attacker):
        modifier -= AIR_TARGET_PENALTY
    defense = defense_against(target, front) + abilities.defense_modifier(ctx)
    if target.impaired and not abilities.ignores_defense_penalty(ctx):
        defense -= IMPAIRED_PENALTY
    assert state.battle.board is not None
    cover = state.battle.board.terrain(target.hex).effects.cover(target.card.is_vehicle)
    if cover is None and not target.card.is_aircraft:
        cover = abilities.cover_without_terrain(ctx)  # Low Silhouette
    if target.card.is_aircraft:
        cover = None  # an aircraft never rolls for cover
    fixed: bool | None = None
    cover_mod = 0
    if cover is not None and (ignores_cover or not abilities.cover_allowed(ctx)):
        cover = None
    pillbox = 0
    if state.obstacles and not ignores_cover and not target.card.is_aircraft and abilities.cover_allowed(ctx):
        cover, pillbox = obstacles.pillbox_cover(state, target, cover)  # the Soldier in a pillbox
    if cover is not None:
        fixed = abilities.cover_automatic(ctx)
        cover_mod = abilities.cover_modifier(ctx) - (SAME_HEX_COVER_PENALTY if dist == 0 else 0) + pillbox
    return AttackPlan(ctx, max(dice, 0), modifier, defense, cover, cover_mod, fixed)


def may_reach(state: GameState, attacker: Unit, target: Unit) -> bool:
    """A quick test for listing attacks: False only if the attacker surely has no attack on the target
    (no attack value at that range and no ability that could give one)."""
    a, b = attacker.hex, target.hex
    assert a is not None and b is not None
    dq, dr = a.q - b.q, a.r - b.r
    dist = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # `distance`, inlined: asked for every enemy
    card = attacker.card
    reach = _REACH.get(card.id) if caching.enabled else None
    if reach is None or reach[0] is not card:
        reach = _reach(card)
    if dist in (reach[2] if target.card.is_vehicle else reach[1]):
        return True
    battle = state.battle
    cards = abilities.hooks_in_play(battle)
    for one in (card, target.card):  # `abilities.may_offer_attacks`, inlined: asked for every enemy
        hooks = cards.get(one.id)
        if hooks is None or hooks.card is not one:
            hooks = abilities.registry(battle).hooks(one)
        if hooks.offerers and abilities.offers_at(hooks, dist):
            return True
    return "attack_options" in battle.aura_hooks


def reachable_enemies(state: GameState, attacker: Unit) -> list[Unit]:
    """The enemy units on the map that `may_reach` lets through for `attacker`, in the order of the
    battle's units (what the random bot draws its target from; the same test, without a call per enemy)."""
    a = attacker.hex
    assert a is not None
    side = attacker.side
    card = attacker.card
    reach = _REACH.get(card.id) if caching.enabled else None
    if reach is None or reach[0] is not card:
        reach = _reach(card)
    battle = state.battle
    cards = abilities.hooks_in_play(battle)
    if "attack_options" in battle.aura_hooks:  # an aura may give any attack: every enemy
        return [u for u in state.units.values() if u.side is not side and u.hex is not None and not u.removed]
    mine = cards.get(card.id)
    if mine is None or mine.card is not card:
        mine = abilities.registry(battle).hooks(card)
    found = []
    for u in state.units.values():
        b = u.hex
        if u.side is side or b is None or u.removed:
            continue
        dq, dr = a.q - b.q, a.r - b.r
        dist = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if dist in (reach[2] if u.card.is_vehicle else reach[1]) or (
            mine.offerers and abilities.offers_at(mine, dist)
        ):
            found.append(u)
            continue
        theirs = cards.get(u.card.id)
        if theirs is None or theirs.card is not u.card:
            theirs = abilities.registry(battle).hooks(u.card)
        if theirs.offerers and abilities.offers_at(theirs, dist):
            found.append(u)
    return found


#: Per card id: (the card, the distances with printed attack dice against Soldiers (and aircraft), the
#: same against Vehicles). A card is immutable, so this never goes stale; a different card object with
#: the same id (a test's variant) is noticed by identity and replaces the entry.
_REACH: dict[str, tuple[StatCard, frozenset[int], frozenset[int]]] = {}


def _reach(card: StatCard) -> tuple[StatCard, frozenset[int], frozenset[int]]:
    """The card's printed reach (`_REACH`), worked out once per card."""

    def distances(kind: UnitType) -> frozenset[int]:
        return frozenset(
            d
            for d in range(9)
            if (band := range_band(d)) is not None and card.attack_dice(kind, band) is not None
        )

    found = (card, distances(UnitType.SOLDIER), distances(UnitType.VEHICLE))
    if caching.enabled:  # off: worked out afresh every time
        _REACH[card.id] = found
    return found


def _plain_plan(state: GameState, ctx: AttackContext, dice: int | None) -> AttackPlan | str:
    """`plan_attack` when no ability has a say: the rulebook alone (the common case, kept fast)."""
    attacker, target = ctx.attacker, ctx.target
    if dice is None:
        return _no_attack(attacker, target_type(target), ctx.band, ctx.distance)
    if not visible(state, attacker, target):
        return f"{attacker.id} has no line of sight to {target.id}"
    modifier = -IMPAIRED_PENALTY if attacker.disrupted or attacker.damaged else 0
    defense = int(target.card.defense_front if ctx.front else target.card.defense_rear)
    if target.disrupted or target.damaged:
        defense -= IMPAIRED_PENALTY
    if target.card.is_aircraft:  # vs-Soldier dice, -1 each unless Antiair or Ace; never a cover roll
        if not ignores_air_penalty(state, attacker):
            modifier -= AIR_TARGET_PENALTY
        return AttackPlan(ctx, dice, modifier, defense, None, 0, None)
    assert state.battle.board is not None and target.hex is not None
    cover = state.battle.board.terrain(target.hex).effects.cover(target.card.is_vehicle)
    pillbox = 0
    if state.obstacles:
        cover, pillbox = obstacles.pillbox_cover(state, target, cover)  # the Soldier in a pillbox
    cover_mod = -SAME_HEX_COVER_PENALTY if cover is not None and ctx.distance == 0 else 0
    return AttackPlan(ctx, dice, modifier, defense, cover, cover_mod + pillbox, None)


def _plain_check(state: GameState, ctx: AttackContext, dice: int | None) -> str | None:
    if dice is None:
        return _no_attack(ctx.attacker, target_type(ctx.target), ctx.band, ctx.distance)
    if not visible(state, ctx.attacker, ctx.target):
        return f"{ctx.attacker.id} has no line of sight to {ctx.target.id}"
    return None


def _no_attack(attacker: Unit, kind: UnitType, band: RangeBand | None, dist: int) -> str:
    where = f"at {band.value} range" if band is not None else f"{dist} hexes away (out of range)"
    return f"{attacker.id} has no attack against {kind.value}s {where}"


@attrs.frozen(slots=True)
class AttackResult:
    rolls: tuple[int, ...]
    successes: int
    hits: int
    cover: bool | None  # None: no cover roll; True/False: the roll's result
    counters: tuple[Counter, ...]  # counters placed (face down for normal attacks)


def resolve_attack(state: GameState, plan: AttackPlan, dice: Dice, events: list[Event]) -> AttackResult:
    """Roll the attack and apply its effect to the target in `state`.

    Three stages, each a function of its own so that the exact odds (`minis.engine.odds.attack_distribution`)
    follow the same code: the attack dice with their rerolls (`roll_attack_dice`), what those dice score
    (`score`), and what the score does to the target (`land`: the cover roll, counters, the abilities
    told of the attack)."""
    ctx = plan.ctx
    if ctx.sources and not visible(state, ctx.attacker, ctx.target):  # indirect fire: whose sight
        guide = indirect.spotter(state, ctx.attacker, ctx.target)
        if guide is not None:
            events.append(Event("spot", guide.side, guide.id, ctx.target.id))
    rolls = roll_attack_dice(plan, dice, events)
    result = land(state, plan, rolls, score(plan, rolls), dice, events)
    if ctx.sources:
        abilities.attack_rolled(state, ctx, result.rolls, events)
    return result


def roll_attack_dice(plan: AttackPlan, dice: Dice, events: list[Event]) -> list[int]:
    """The attack dice, then the abilities' rerolls right after them (a batch of dice each)."""
    ctx = plan.ctx
    rolls = dice.roll_many(plan.dice, batch=plan)
    if ctx.sources and abilities.may_reroll_attack_dice(ctx):
        rolls = abilities.reroll_attack_dice(ctx, rolls, plan.modifier, plan.defense, dice, events)
    return rolls


class Score(NamedTuple):
    """What an attack's final dice achieve, before the cover roll."""

    successes: int
    hits: int
    #: An ability destroys the target at once (Flamethrower): no cover roll, no counters to wait for.
    destroyed: bool
    #: The abilities that changed the successes, the hits or destroyed the target, as "ID:what" words
    #: ("sirens:hits", "vast-experience:successes", "flamethrower:destroys"); the "hits" event's note.
    changes: tuple[str, ...] = ()


def score(plan: AttackPlan, rolls: list[int]) -> Score:
    """The successes and hits of these attack dice (the rulebook table and the abilities' hooks)."""
    ctx = plan.ctx
    count = count_successes(rolls, plan.modifier)
    if not ctx.sources:
        return Score(count, hits_for(count, plan.defense), False)
    dealt = tuple(rolls)
    counted = count + abilities.extra_successes(ctx, dealt, plan.modifier)
    successes = abilities.successes(ctx, counted)
    plain = hits_for(successes, plan.defense)
    hits = abilities.hits(ctx, successes, plan.defense, plain)
    destroyed = abilities.destroys(ctx, dealt)
    changes: tuple[str, ...] = ()
    if successes != count or hits != plain or destroyed:
        changes = abilities.score_changes(ctx, dealt, plan.modifier, count, plan.defense, plain)
    return Score(successes, hits, destroyed, changes)


def land(
    state: GameState, plan: AttackPlan, rolls: list[int], scored: Score, dice: Dice, events: list[Event]
) -> AttackResult:
    """The attack's events, its cover roll (a die only if it scored a hit and the target may roll) and
    its counters on the target; then the abilities with a say are told it was resolved."""
    ctx = plan.ctx
    successes, hits, destroyed = scored.successes, scored.hits, scored.destroyed
    events.append(
        Event(
            "attack",
            ctx.attacker.side,
            ctx.attacker.id,
            ctx.target.id,
            dice=tuple(rolls),
            value=successes,
            note="defensive" if ctx.defensive else ctx.mode,  # an ability's own attack names its ability
            need=SUCCESS - plan.modifier,
            defense=plan.defense,
        )
    )
    events.append(Event("hits", ctx.target.side, ctx.target.id, value=hits, note=" ".join(scored.changes)))
    covered: bool | None = None
    if hits and plan.cover is not None and not destroyed:
        covered = roll_cover(plan, dice, events)
    target = state.units[ctx.target.id]
    placed: tuple[Counter, ...] = ()
    if destroyed:
        events.append(Event("counter", target.side, target.id, note=Counter.DESTROYED.value, value=1))
        casualty.destroy_at_once(state, target.id, events)
        placed = (Counter.DESTROYED,)
    elif hits and ctx.defensive:
        if not covered:
            state.update(target.id, disrupted=True)
            events.append(Event("counter", target.side, target.id, note="disrupted", value=1))
            placed = (Counter.DISRUPTED,)
            abilities.on_disrupted(state, state.units[target.id], events)
    elif hits:
        placed = limit_to_disruption(state, target) if covered else place_hits(state, target, hits)
        for counter in placed:
            events.append(Event("counter", target.side, target.id, note=counter.value, value=0))
    if ctx.sources:
        abilities.after_attack(state, ctx, placed, dice, events)
    return AttackResult(tuple(rolls), successes, hits, covered, placed)


def resolve_with_blast(state: GameState, plan: AttackPlan, dice: Dice, events: list[Event]) -> AttackResult:
    """Resolve an attack; with Blast, then a separate attack on every other unit in the target hex, in the
    order they entered it (friendly units too; boarded Soldiers only if they may be targeted)."""
    result = resolve_attack(state, plan, dice, events)
    if not abilities.blast(plan.ctx):
        return result
    target = plan.ctx.target
    if target.card.is_aircraft:
        return result  # an aircraft is over the hex, not in it: no one else is hit
    others = sorted(
        (
            u
            for u in state.on_map()
            if u.hex == target.hex
            and u.id not in (target.id, plan.ctx.attacker.id)
            and not u.card.is_aircraft  # Blast's extra rolls skip aircraft
        ),
        key=lambda u: (u.entered, u.id),
    )
    for other in others:
        attacker = state.units[plan.ctx.attacker.id]
        extra = plan_attack(
            state, attacker, state.units[other.id], plan.ctx.defensive, blast=True, mode=plan.ctx.mode
        )
        if isinstance(extra, AttackPlan):
            resolve_attack(state, extra, dice, events)
    return result


def roll_cover(plan: AttackPlan, dice: Dice, events: list[Event]) -> bool:
    """The target's cover roll (a die only when no ability fixes the result)."""
    target = plan.ctx.target
    if plan.cover_fixed is not None:
        events.append(Event("cover", target.side, target.id, value=int(plan.cover_fixed), note="automatic"))
        return plan.cover_fixed
    assert plan.cover is not None
    die = dice.roll()
    success = die + plan.cover_modifier >= plan.cover
    need = plan.cover - plan.cover_modifier
    events.append(Event("cover", target.side, target.id, dice=(die,), value=int(success), need=need))
    return success


def next_counter(unit: Unit) -> Counter:
    """The counter the next hit places (rulebook, Hits): Disrupted, then Damaged/Destroyed, then Destroyed."""
    placed = len(unit.pending)
    if placed == 0:
        return Counter.DISRUPTED
    if not unit.card.is_vehicle or placed >= 2 or unit.damaged:
        return Counter.DESTROYED
    return Counter.DAMAGED


def place_hits(state: GameState, unit: Unit, hits: int) -> tuple[Counter, ...]:
    """Face-down counters for `hits` simultaneous hits; none after a Destroyed counter."""
    placed: list[Counter] = []
    for _ in range(hits):
        unit = state.units[unit.id]
        if Counter.DESTROYED in unit.pending:
            break
        counter = abilities.place_counter(state, unit, next_counter(unit))
        if counter is None:
            continue
        state.update(unit.id, pending=(*unit.pending, counter))
        placed.append(counter)
    return tuple(placed)


def limit_to_disruption(state: GameState, unit: Unit) -> tuple[Counter, ...]:
    """A successful cover roll: a face-down Disrupted counter, unless the unit already has one."""
    if Counter.DISRUPTED in unit.pending:
        return ()
    state.update(unit.id, pending=(*unit.pending, Counter.DISRUPTED))
    return (Counter.DISRUPTED,)


def band_of(plan: AttackPlan) -> RangeBand | None:
    return plan.ctx.band
