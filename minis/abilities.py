"""Special abilities as a registry of small rule hooks, keyed by ability id (DESIGN section 1).

The engine never names a card: at every point where the rulebook lets an ability change a rule it
asks this module (`attack_options`, `die_modifier`, `cover_allowed`, ...), and the answer combines the
hooks of the abilities involved: the attacker's and the target's own, and the auras of units that
affect others (commanders). An ability is a subclass of `Ability` registered with `@register("id")`;
it overrides only the hooks it needs. Hooks answer None (or 0) when they have no opinion.

Rulebook principles built in here, so each ability stays small:
- "Can't" trumps "can": a single False from a permission hook forbids.
- Abilities of the same name don't add up, and duplicate commander bonuses never stack: numeric
  contributions are grouped by ability id and only the largest of each group counts.
- A disrupted commander's commander abilities don't function.

This module holds the hooks and the abilities the rulebook itself defines (the glossary's Transport,
the commanders' initiative bonus); the abilities issue adds the rest of the cards' abilities.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, TypeVar

import attrs

from minis.actions import Use
from minis.dice import Dice
from minis.events import Event
from minis.hexgrid import Hex, distance
from minis.rules.errors import IllegalAction
from minis.state import Counter, GameState, Unit

if TYPE_CHECKING:
    from minis.cards import AbilityRef, RangeBand, StatCard

T = TypeVar("T")


@attrs.frozen(slots=True)
class AttackContext:
    """One attack as the hooks see it. `front` is True for an attack on a Vehicle's front defense."""

    state: GameState
    attacker: Unit
    target: Unit
    distance: int
    band: RangeBand | None
    defensive: bool = False
    front: bool = False
    #: The abilities with a say in this attack (filled by `attack_context`): (owner, hook) pairs.
    sources: tuple[tuple[Unit, Ability], ...] = ()
    #: The ability whose extra action this attack is ("" for a unit's normal attack or defensive fire).
    mode: str = ""


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
    mine, theirs = _own(attacker), _own(target)
    if not (mine or theirs):
        auras = _auras(state)
        return AttackContext(state, attacker, target, distance_, band, defensive, front, tuple(auras), mode)
    sources = [(attacker, h) for h in mine]
    sources.extend((target, h) for h in theirs)
    sources.extend(_auras(state))
    return AttackContext(state, attacker, target, distance_, band, defensive, front, tuple(sources), mode)


@attrs.frozen(slots=True)
class AttackOption:
    """A way to attack a target: how many dice, and whether the target is denied its cover roll."""

    dice: int
    ignores_cover: bool = False
    source: str = ""


class Ability:
    """Base class: every hook answers 'no opinion'. `ref` is the card's ability (its number, if any)."""

    id: ClassVar[str] = ""
    #: True if the ability affects units other than its owner (then it is asked about every attack).
    aura: ClassVar[bool] = False

    def __init__(self, ref: AbilityRef) -> None:
        self.ref = ref
        self.number = ref.number
        self.commander = ref.commander

    # --- attacks: who may attack whom, with how many dice -----------------------------------------
    def attack_options(self, ctx: AttackContext, owner: Unit) -> Iterable[AttackOption]:
        """Extra ways to attack (Close Assault, longer range bands); the engine uses the best."""
        return ()

    def offers_attack_at(self, distance: int) -> bool:
        """False when `attack_options` surely offers nothing at this distance (True: maybe). Lets the
        engine refuse out-of-range attacks without building an AttackContext."""
        return True

    def may_attack(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return None

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    def ignores_attack_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return False

    def successes(self, ctx: AttackContext, owner: Unit, successes: int) -> int | None:
        return None

    def blast(self, ctx: AttackContext, owner: Unit) -> bool:
        return False

    # --- defense and hits ----------------------------------------------------------------------
    def defense_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    def ignores_defense_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return False

    def hits(self, ctx: AttackContext, owner: Unit, successes: int, defense: int, hits: int) -> int | None:
        return None

    def place_counter(self, state: GameState, owner: Unit, counter: Counter) -> Counter | None:
        """The counter actually placed on `owner` (None: nothing). Called for the owner's own counters."""
        return counter

    # --- cover ---------------------------------------------------------------------------------
    def cover_allowed(self, ctx: AttackContext, owner: Unit) -> bool | None:
        return None

    def cover_automatic(self, ctx: AttackContext, owner: Unit) -> bool | None:
        """True/False: the cover roll succeeds/fails without a die."""
        return None

    def cover_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    # --- defensive fire ------------------------------------------------------------------------
    def provokes(self, state: GameState, mover: Unit, firer: Unit, owner: Unit) -> bool | None:
        return None

    def defensive_fire_limit(self, state: GameState, owner: Unit) -> int | None:
        return None

    def defensive_fire_attacks(self, state: GameState, owner: Unit) -> int | None:
        return None

    def may_fire_defensively(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return None

    # --- movement ------------------------------------------------------------------------------
    def speed_modifier(self, state: GameState, unit: Unit, owner: Unit) -> int:
        return 0

    def road_speed_bonus(self, state: GameState, owner: Unit) -> int:
        """Extra speed for a move made entirely along a road."""
        return 0

    def may_move(self, state: GameState, unit: Unit, owner: Unit) -> bool | None:
        return None

    def base_speed(self, state: GameState, owner: Unit) -> int | None:
        """Replaces the card's speed in the current phase (Relocate)."""
        return None

    def movement_rolls(
        self, state: GameState, owner: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]
    ) -> tuple[str, ...]:
        return rolls

    def may_enter(self, state: GameState, owner: Unit, hex_: Hex, along_road: bool) -> bool | None:
        return None

    def stacks_as_vehicle(self, owner: Unit) -> bool:
        return False

    # --- transport -----------------------------------------------------------------------------
    def capacity(self, owner: Unit) -> int:
        return 0

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        return None

    def passenger_targetable(self, owner: Unit) -> bool:
        return False

    def passenger_may_fire(self, state: GameState, transport: Unit, owner: Unit, defensive: bool) -> bool:
        return False

    # --- initiative ----------------------------------------------------------------------------
    def initiative_bonus(self, state: GameState, owner: Unit) -> int:
        return 0

    # --- set-up ---------------------------------------------------------------------------------
    def moves_before_turn_1(self, owner: Unit) -> bool:
        """True if the owner may make one move after deployment, before turn 1 (Vanguard)."""
        return False

    # --- disruption -----------------------------------------------------------------------------
    def ignores_disruption(self, owner: Unit) -> bool:
        """True if face-up Disrupted counters on the owner have no effect (it moves, fires, commands)."""
        return False

    # --- events the abilities may react to ------------------------------------------------------
    def on_phase_start(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        """A movement or assault phase has begun (`state.phase`, `state.active`)."""

    def after_attack(
        self,
        state: GameState,
        ctx: AttackContext,
        owner: Unit,
        counters: tuple[Counter, ...],
        dice: Dice,
        events: list[Event],
    ) -> None:
        """An attack has been resolved; `counters` are the counters it placed on the target."""

    def before_move(
        self, state: GameState, owner: Unit, path: tuple[Hex, ...], overrun: str | None
    ) -> bool | str | None:
        """The owner is about to move along `path` (with an `overrun T` target or None): True accepts the
        target, a string refuses the move with that reason, None has no opinion."""
        return None

    def on_enter(self, state: GameState, owner: Unit, hex_: Hex, events: list[Event]) -> None:
        """The owner, moving, has entered `hex_` (after that hex's movement rolls, before its window)."""

    # --- extra actions within an activation, and the ability's own actions ------------------------
    def follow_ups(
        self, state: GameState, unit: Unit, owner: Unit, done: str, path: tuple[Hex, ...]
    ) -> Iterable[FollowUp]:
        """What `unit` may still do in its activation after it did `done` ("move" or "attack"; `path`
        of a move): asked of the unit's own abilities and of auras."""
        return ()

    def use_actions(self, state: GameState, owner: Unit) -> Iterable[tuple[str, ...]]:
        """The arguments of every `use U ABILITY ARGS...` the owner may take now."""
        return ()

    def use_problem(self, state: GameState, owner: Unit, args: tuple[str, ...]) -> str | None:
        """Why `use U ABILITY ARGS...` is not allowed now (None: it is)."""
        return f"{owner.id} can't use {self.ref.name} now"

    def use(
        self, state: GameState, owner: Unit, args: tuple[str, ...], dice: Dice, events: list[Event]
    ) -> None:
        """Carry out `use U ABILITY ARGS...` (checked by `use_problem` first)."""


@attrs.frozen(slots=True)
class FollowUp:
    """An extra action a unit earned in its activation: `kind` "attack" or "move", granted by `ability`."""

    kind: str
    ability: str


#: Extra things that block sight for the rest of a turn (Smoke Screen): f(state, a, b) -> True if blocked.
SIGHT_BLOCKERS: list[Callable[[GameState, Hex, Hex], bool]] = []


def sight_blocked(state: GameState, a: Hex, b: Hex) -> bool:
    """True if an ability's effect on the map blocks the sight line between a and b."""
    return any(blocker(state, a, b) for blocker in SIGHT_BLOCKERS)


_REGISTRY: dict[str, type[Ability]] = {}


def register(ability_id: str) -> Callable[[type[Ability]], type[Ability]]:
    """Class decorator: the hooks of ability `ability_id` (the card files' ability id)."""

    def wrap(cls: type[Ability]) -> type[Ability]:
        if ability_id in _REGISTRY:
            raise ValueError(f"ability '{ability_id}' registered twice")
        cls.id = ability_id
        _REGISTRY[ability_id] = cls
        _CARDS.clear()
        return cls

    return wrap


def unregister(ability_id: str) -> None:
    """Remove an ability's hooks (tests register throw-away abilities)."""
    _REGISTRY.pop(ability_id, None)
    _CARDS.clear()


def registered() -> frozenset[str]:
    """Ids of the abilities that have rule hooks."""
    return frozenset(_REGISTRY)


class UnimplementedAbility(ValueError):
    """A card names an ability without rule hooks: the engine won't play it with the ability ignored."""


def unimplemented(card: StatCard) -> list[str]:
    """The card's abilities (as printed) that have no rule hooks."""
    return [
        ref.name if ref.number is None else f"{ref.name} {ref.number}"
        for ref in card.abilities
        if ref.id not in _REGISTRY
    ]


def require_implemented(card: StatCard) -> None:
    """Raise UnimplementedAbility, naming the card and the abilities, unless every ability has hooks."""
    missing = unimplemented(card)
    if missing:
        raise UnimplementedAbility(
            f"card '{card.id}' ({card.name}) can't be played: no implementation for "
            + ", ".join(f"'{name}'" for name in missing)
        )


@attrs.frozen(slots=True)
class _CardHooks:
    """What a card's abilities hook into, worked out once per card object."""

    card: StatCard
    handlers: tuple[Ability, ...]
    aura: bool
    overrides: frozenset[str]  # names of the hooks some handler overrides
    vehicle: bool
    aura_overrides: frozenset[str] = frozenset()  # names of the hooks some aura handler overrides
    own: tuple[Ability, ...] = ()  # the handlers that are not auras, in order
    auras: tuple[Ability, ...] = ()  # the handlers that are auras, in order
    offerers: tuple[Ability, ...] = ()  # the handlers that override `attack_options`
    #: Whether some offerer may offer an attack at a distance, filled as distances are asked.
    offers_at: dict[int, bool] = attrs.Factory(dict)


_CARDS: dict[str, _CardHooks] = {}


def _class_hooks(klass: type[Ability]) -> frozenset[str]:
    """Names of the hooks a handler class (or one of its Ability bases) overrides."""
    return frozenset(
        name
        for base in klass.__mro__
        if base is not Ability and issubclass(base, Ability)
        for name, value in vars(base).items()
        if callable(value) and hasattr(Ability, name)
    )


def _hooks(card: StatCard) -> _CardHooks:
    # Keyed by the card id (a string keeps its hash: cheaper than `id(card)`); a different card object
    # with the same id (a test's variant) is noticed by identity and replaces the entry.
    cached = _CARDS.get(card.id)
    if cached is None or cached.card is not card:
        found = tuple(_REGISTRY[ref.id](ref) for ref in card.abilities if ref.id in _REGISTRY)
        names = frozenset(name for h in found for name in _class_hooks(type(h)))
        aura_names = frozenset(name for h in found if h.aura for name in _class_hooks(type(h)))
        own = tuple(h for h in found if not h.aura)
        auras = tuple(h for h in found if h.aura)
        offerers = tuple(h for h in found if "attack_options" in _class_hooks(type(h)))
        cached = _CardHooks(
            card, found, bool(auras), names, card.is_vehicle, aura_names, own, auras, offerers
        )
        _CARDS[card.id] = cached
    return cached


def handlers(card: StatCard) -> tuple[Ability, ...]:
    """The hook objects of a card's abilities (cached per card object; unregistered abilities have none)."""
    return _hooks(card).handlers


def overrides_any(card: StatCard, hooks: frozenset[str]) -> bool:
    """True if one of the card's abilities implements any of `hooks`."""
    return not _hooks(card).overrides.isdisjoint(hooks)


def overrides(card: StatCard, hook: str) -> bool:
    """True if one of the card's abilities implements `hook` (a quick test before asking)."""
    return hook in _hooks(card).overrides


def _active(unit: Unit) -> tuple[Ability, ...]:
    """The unit's working abilities: a disrupted commander's commander abilities don't function."""
    handlers_ = _hooks(unit.card).handlers
    if not handlers_ or not unit.disrupted or not disrupted(unit):
        return handlers_
    return tuple(h for h in handlers_ if not h.commander)


def _own(unit: Unit) -> tuple[Ability, ...]:
    """The unit's working abilities that are not auras (`_active` without them; `_auras` has those)."""
    hooks = _hooks(unit.card)
    if not unit.disrupted or not hooks.handlers or not disrupted(unit):
        return hooks.own
    return tuple(h for h in hooks.handlers if not h.commander and not h.aura)


def _has_aura(card: StatCard) -> bool:
    return _hooks(card).aura


def _auras(state: GameState) -> list[tuple[Unit, Ability]]:
    ids = state.aura_ids
    if ids is None:
        ids = state.aura_ids = tuple(u.id for u in state.units.values() if _has_aura(u.card))
    found: list[tuple[Unit, Ability]] = []
    for unit_id in ids:
        unit = state.units[unit_id]
        if not unit.removed and unit.hex is not None:
            if unit.disrupted and disrupted(unit):  # `_active`: no commander abilities
                found.extend((unit, h) for h in _hooks(unit.card).auras if not h.commander)
            else:
                found.extend([(unit, h) for h in _hooks(unit.card).auras])
    return found


def _has(unit: Unit, hook: str) -> bool:
    """True if one of the unit's own abilities implements `hook` (False: asking them is pointless)."""
    card = unit.card
    cached = _CARDS.get(card.id)  # `_hooks` inlined: this is asked tens of thousands of times a game
    if cached is None or cached.card is not card:
        cached = _hooks(card)
    return hook in cached.overrides


def _aura_hook(state: GameState, hook: str) -> bool:
    """True if an aura of a unit of this battle implements `hook` (False: asking the auras is pointless)."""
    names = state.aura_hooks
    if names is None:
        ids = state.aura_ids
        if ids is None:
            ids = state.aura_ids = tuple(u.id for u in state.units.values() if _has_aura(u.card))
        units = state.units
        names = frozenset(name for unit_id in ids for name in _hooks(units[unit_id].card).aura_overrides)
        state.aura_hooks = names
    return hook in names


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


def _offers(card: StatCard, distance: int | None) -> bool:
    hooks = _hooks(card)
    if distance is None or not hooks.offerers:
        return bool(hooks.offerers)
    found = hooks.offers_at.get(distance)
    if found is None:
        found = hooks.offers_at[distance] = any(h.offers_attack_at(distance) for h in hooks.offerers)
    return found


def may_offer_attacks(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> bool:
    """False when no ability could give this attacker a way to attack this target (a quick test);
    `distance` (attacker to target) lets abilities that only work at some distances say no."""
    if _offers(attacker.card, distance) or _offers(target.card, distance):
        return True
    return _aura_hook(state, "attack_options")


def may_forbid_attack(state: GameState, attacker: Unit, target: Unit) -> bool:
    """False when no ability could forbid this attack (`may_attack` would be True: a quick test)."""
    return _has(attacker, "may_attack") or _has(target, "may_attack") or _aura_hook(state, "may_attack")


def attack_options(ctx: AttackContext) -> list[AttackOption]:
    return [opt for owner, h in _attack_sources(ctx) for opt in h.attack_options(ctx, owner)]


def may_attack(ctx: AttackContext) -> bool:
    return not _forbidden(h.may_attack(ctx, owner) for owner, h in _attack_sources(ctx))


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


def blast(ctx: AttackContext) -> bool:
    return any(h.blast(ctx, ctx.attacker) for h in _active(ctx.attacker))


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
    for h in _active(unit):
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


def provokes(state: GameState, mover: Unit, firer: Unit) -> bool | None:
    """An ability's override of who provokes whom (None: the rulebook decides)."""
    if not (_has(firer, "provokes") or _has(mover, "provokes")):
        return None
    answers = [h.provokes(state, mover, firer, owner) for owner in (firer, mover) for h in _active(owner)]
    if False in answers:
        return False
    return True if True in answers else None


def defensive_fire_limit(state: GameState, unit: Unit) -> int:
    if not _has(unit, "defensive_fire_limit"):
        return 1
    limits = [h.defensive_fire_limit(state, unit) for h in _active(unit)]
    return max((n for n in limits if n is not None), default=1)


def defensive_fire_attacks(state: GameState, unit: Unit) -> int:
    if not _has(unit, "defensive_fire_attacks"):
        return 1
    counts = [h.defensive_fire_attacks(state, unit) for h in _active(unit)]
    return max((n for n in counts if n is not None), default=1)


def may_fire_defensively(state: GameState, unit: Unit) -> bool:
    if not (_has(unit, "may_fire_defensively") or _aura_hook(state, "may_fire_defensively")):
        return True
    sources = [(unit, h) for h in _active(unit)] + list(_auras(state))
    return not _forbidden(h.may_fire_defensively(state, unit, owner) for owner, h in sources)


def speed_modifier(state: GameState, unit: Unit) -> int:
    if not (_has(unit, "speed_modifier") or _aura_hook(state, "speed_modifier")):
        return 0
    sources = [(unit, h) for h in _active(unit) if not h.aura] + list(_auras(state))
    return _largest((h.id, h.speed_modifier(state, unit, owner)) for owner, h in sources)


def road_speed_bonus(state: GameState, unit: Unit) -> int:
    if not _has(unit, "road_speed_bonus"):
        return 0
    return _largest((h.id, h.road_speed_bonus(state, unit)) for h in _active(unit))


def may_move(state: GameState, unit: Unit) -> bool:
    if not (_has(unit, "may_move") or _aura_hook(state, "may_move")):
        return True
    sources = [(unit, h) for h in _active(unit) if not h.aura] + list(_auras(state))
    return not _forbidden(h.may_move(state, unit, owner) for owner, h in sources)


def base_speed(state: GameState, unit: Unit) -> int:
    if not _has(unit, "base_speed"):
        return int(unit.card.speed)
    for h in _active(unit):
        speed = h.base_speed(state, unit)
        if speed is not None:
            return speed
    return int(unit.card.speed)


def movement_rolls(state: GameState, unit: Unit, a: Hex, b: Hex, rolls: tuple[str, ...]) -> tuple[str, ...]:
    if not _has(unit, "movement_rolls"):
        return rolls
    for h in _active(unit):
        rolls = h.movement_rolls(state, unit, a, b, rolls)
    return rolls


#: The hooks that change how far or where a unit moves (`plain_mover` asks for none of them).
_MOVEMENT_HOOKS = frozenset(("base_speed", "speed_modifier", "road_speed_bonus", "may_enter"))


def plain_mover(state: GameState, unit: Unit) -> bool:
    """True if no ability changes how far or where this unit moves (its own, or an aura on the map):
    its speed is the card's (less one for a damaged Vehicle) everywhere, roads included."""
    card = unit.card
    cached = _CARDS.get(card.id)
    if cached is None or cached.card is not card:
        cached = _hooks(card)
    return cached.overrides.isdisjoint(_MOVEMENT_HOOKS) and not _aura_hook(state, "speed_modifier")


def changes_steps(unit: Unit) -> bool:
    """True if the unit has an ability that changes where it may step (movement rolls don't: a move
    that needs a roll is still a legal move)."""
    return "may_enter" in _hooks(unit.card).overrides


def may_enter(state: GameState, unit: Unit, hex_: Hex, along_road: bool) -> bool:
    if not _has(unit, "may_enter"):
        return True
    return not _forbidden(h.may_enter(state, unit, hex_, along_road) for h in _active(unit))


def stacks_as_vehicle(unit: Unit) -> bool:
    hooks = _hooks(unit.card)
    if hooks.vehicle:
        return True
    return "stacks_as_vehicle" in hooks.overrides and any(h.stacks_as_vehicle(unit) for h in hooks.handlers)


def capacity(unit: Unit) -> int:
    return max((h.capacity(unit) for h in handlers(unit.card)), default=0)


def may_carry(transport: Unit, soldier: Unit) -> bool:
    """Whether `transport` may carry `soldier`: a transport ability must allow it, none forbid it."""
    answers = [
        h.may_carry(transport, soldier, owner) for owner in (transport, soldier) for h in handlers(owner.card)
    ]
    return True in answers and False not in answers


def passenger_targetable(transport: Unit) -> bool:
    return any(h.passenger_targetable(transport) for h in handlers(transport.card))


def passenger_may_fire(state: GameState, transport: Unit, passenger: Unit, defensive: bool) -> bool:
    if not _has(transport, "passenger_may_fire"):
        return False
    return any(h.passenger_may_fire(state, transport, passenger, defensive) for h in _active(transport))


def moves_before_turn_1(unit: Unit) -> bool:
    return any(h.moves_before_turn_1(unit) for h in _hooks(unit.card).handlers)


# The bookkeeping of extra actions within an activation lives with the abilities that grant them
# (`minis.ability_rules.activation`); the engine reaches it only through these three functions.


def activation_offers(state: GameState, unit_id: str) -> tuple[FollowUp, ...]:
    """The extra actions `unit_id` may still take in its current activation."""
    return tuple(_activation.offers(state, unit_id))


def acting_unit(state: GameState) -> str | None:
    """The unit whose activation may still go on (the only one with extra actions left), if any."""
    return _activation.acting_unit(state)


def after_action(
    state: GameState, unit_id: str, done: str, path: tuple[Hex, ...] = (), used: FollowUp | None = None
) -> None:
    """A unit has done `done` ("move" or "attack") as its activation, or as the follow-up `used`."""
    _activation.after_action(state, unit_id, done, path, used)


def end_activation(state: GameState) -> None:
    """The player does something else: extra actions not taken are lost."""
    if "activation" in state.flags:
        _activation.clear(state)


def disrupted(unit: Unit) -> bool:
    """Whether the unit is disrupted for the rules: a face-up Disrupted counter that no ability ignores."""
    return unit.disrupted and not any(h.ignores_disruption(unit) for h in _hooks(unit.card).handlers)


def units_with(state: GameState, hook: str) -> tuple[str, ...]:
    """The units of the battle (on the map or not, sorted by id) whose abilities implement `hook`."""
    found = state.hook_units.get(hook)
    if found is None:
        found = state.hook_units[hook] = tuple(sorted(u.id for u in state.units.values() if _has(u, hook)))
    return found


def on_phase_start(state: GameState, events: list[Event]) -> None:
    """Tell every ability on the map that a movement or assault phase has begun."""
    for unit_id in units_with(state, "on_phase_start"):
        if state.units[unit_id].on_map:
            for h in _active(state.units[unit_id]):
                h.on_phase_start(state, state.units[unit_id], events)


def after_attack(
    state: GameState, ctx: AttackContext, counters: tuple[Counter, ...], dice: Dice, events: list[Event]
) -> None:
    """Tell the abilities with a say in an attack that it has been resolved."""
    for owner, h in ctx.sources:
        h.after_attack(state, ctx, owner, counters, dice, events)


def before_move(state: GameState, unit: Unit, path: tuple[Hex, ...], overrun: str | None) -> str | None:
    """Why the move can't be made as given (None: it can); a named overrun target needs an ability."""
    if overrun is None and not _has(unit, "before_move"):
        return None
    accepted = False
    for h in _active(unit):
        answer = h.before_move(state, unit, path, overrun)
        if isinstance(answer, str):
            return answer
        accepted = accepted or answer is True
    if overrun is not None and not accepted:
        return f"{unit.id} has no ability to overrun {overrun}"
    return None


def on_enter(state: GameState, unit: Unit, hex_: Hex, events: list[Event]) -> None:
    if "on_enter" in _hooks(unit.card).overrides:
        for h in _active(unit):
            h.on_enter(state, state.units[unit.id], hex_, events)


def follow_ups(state: GameState, unit: Unit, done: str, path: tuple[Hex, ...] = ()) -> tuple[FollowUp, ...]:
    """The extra actions `unit` earned by doing `done`: from its own abilities and auras on the map."""
    if not (_has(unit, "follow_ups") or _aura_hook(state, "follow_ups")):
        return ()
    sources = [(unit, h) for h in _active(unit) if not h.aura] + _auras(state)
    return tuple(f for owner, h in sources for f in h.follow_ups(state, unit, owner, done, path))


def use_actions(state: GameState, unit: Unit) -> list[Use]:
    """Every `use U ABILITY ARGS...` the unit may take now."""
    if not _has(unit, "use_actions"):
        return []
    return [Use(unit.id, h.id, tuple(args)) for h in _active(unit) for args in h.use_actions(state, unit)]


def use_problem(state: GameState, unit: Unit, action: Use) -> str | None:
    for h in _active(unit):
        if h.id == action.ability:
            return h.use_problem(state, unit, action.args)
    return f"{unit.id} has no ability '{action.ability}' it can use"


def use(state: GameState, unit: Unit, action: Use, dice: Dice, events: list[Event]) -> None:
    """Carry out `use U ABILITY ARGS...` (IllegalAction with the reason if it isn't allowed)."""
    problem = use_problem(state, unit, action)
    if problem is not None:
        raise IllegalAction(problem)
    for h in _active(unit):
        if h.id == action.ability:
            h.use(state, unit, action.args, dice, events)
            return


def initiative_bonus(state: GameState, unit: Unit) -> int:
    if not _has(unit, "initiative_bonus"):
        return 0
    return max((h.initiative_bonus(state, unit) for h in _active(unit)), default=0)


# --- the abilities the rulebook itself defines --------------------------------------------------------


@register("commander-initiative")
class CommanderInitiative(Ability):
    """Commander: Initiative +N (rulebook, Initiative Phase): the army's best bonus is added."""

    def initiative_bonus(self, state: GameState, owner: Unit) -> int:
        return self.number or 0


@register("blast")
class Blast(Ability):
    """Blast (glossary): a separate attack on every other unit in the target hex, friends included,
    defensive fire too; the engine orders them (the chosen target first, then by entry into the hex)."""

    def blast(self, ctx: AttackContext, owner: Unit) -> bool:
        return owner is ctx.attacker


class _Transport(Ability):
    """Transport (glossary): carries one Soldier, never Artillery; the Soldier can't act or be attacked."""

    def capacity(self, owner: Unit) -> int:
        return 1

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        if owner is not transport:
            return None
        return soldier.card.is_soldier and (not soldier.card.is_artillery or self._carries_artillery(soldier))

    def _carries_artillery(self, soldier: Unit) -> bool:
        return soldier.card.has("light-artillery")


@register("transport")
class Transport(_Transport):
    pass


@register("exposed-transport")
class ExposedTransport(_Transport):
    """Like Transport, but the Soldier aboard may still be picked as a target."""

    def passenger_targetable(self, owner: Unit) -> bool:
        return True


@register("gun-transport")
class GunTransport(_Transport):
    """Like Transport, and it may carry Artillery that is not Large."""

    def _carries_artillery(self, soldier: Unit) -> bool:
        return not soldier.card.has("large")


def near(a: Unit, b: Unit) -> bool:
    """Adjacent in the rulebook's sense: the same hex or next to it (for auras)."""
    return a.hex is not None and b.hex is not None and distance(a.hex, b.hex) <= 1


# Register the hooks of the cards' special abilities (a package beside this module, see its docstring).
import minis.ability_rules  # noqa: E402, F401
from minis.ability_rules import activation as _activation  # noqa: E402  (bound once: the engine asks often)
