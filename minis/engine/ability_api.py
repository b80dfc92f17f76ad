"""The seam between the engine and the special abilities: what an ability module implements.

An ability is a subclass of `Ability` named with `@ability("id")` (the card files' ability id); it
overrides only the hooks it needs, and hooks answer None (or 0) when they have no opinion. The hooks
receive an `AttackContext` for an attack, or the `GameState` and the units concerned.

`AbilityRegistry` is a value: the ability classes of one rule set (built by `minis.engine.ability_loader`),
and per card what its abilities hook into (`CardHooks`, worked out once per card). Nothing here is
process-wide, so two rule sets can live side by side (a test builds one without an ability). The engine asks
its questions through `minis.abilities`, never through the hooks directly.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, ClassVar

import attrs
from mypy_extensions import mypyc_attr

from minis.base import fields
from minis.cards import RangeBand, StatCard
from minis.content.ability_catalogue import ABILITIES
from minis.hexgrid import Hex, distance
from minis.state import FollowUp as FollowUp
from minis.state import FollowUpKind as FollowUpKind
from minis.state import GameState, Unit

if TYPE_CHECKING:
    from minis.cards import AbilityRef
    from minis.dice import Dice
    from minis.engine.events import Event
    from minis.state import Counter

#: Something on the map that blocks sight for a while (Smoke Screen): f(state, a, b) -> True if blocked.
SightBlocker = Callable[["GameState", Hex, Hex], bool]


@attrs.frozen(slots=True)
class AttackOption:
    """A way to attack a target: how many dice, and whether the target is denied its cover roll."""

    dice: int
    ignores_cover: bool = False
    source: str = ""


# the fast build: the abilities (minis/ability_rules) stay interpreted, and positions are pickled
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Ability:
    """Base class: every hook answers 'no opinion'. `ref` is the card's ability (its number, if any)."""

    id: ClassVar[str] = ""
    #: True if the ability affects units other than its owner (then it is asked about every attack).
    aura: ClassVar[bool] = False
    #: Movement: True if the class's step hooks (`may_enter`, `may_step`, `step_cost`) answer from the
    #: map and its number alone, so a table of the steps of its kind of unit can be made once per map
    #: (`minis.rules.movement.step_hooks`). Read from the class's own body only: a subclass that
    #: changes a step hook is not trusted with its parent's word.
    steps_from_the_map: ClassVar[bool] = False
    #: Movement: True if the class's step hooks have no say while its unit is not disrupted (Charge).
    steps_only_when_disrupted: ClassVar[bool] = False

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

    def lifts_refusal(self, ctx: AttackContext, owner: Unit, refused_by: str) -> bool:
        """True if this ability sets aside the refusal of this attack by the ability `refused_by` (an
        exception an ability names itself: Experienced Recon against camouflage at medium range)."""
        return False

    def sight_past(self, state: GameState, owner: Unit) -> int:
        """How many hexes of blocking terrain the owner's own sight lines may cross (Superior Optics)."""
        return 0

    def spotter_for(self, state: GameState, owner: Unit, target: Unit) -> Unit | None:
        """A friendly unit whose sight lets the owner attack `target` without its own line of sight
        (Indirect Fire: a Spotter that sees it), or None (minis/rules/indirect.py)."""
        return None

    def counts_as_spotter(self, state: GameState, owner: Unit) -> bool | None:
        """True if the owner is a Spotter for friendly Indirect Fire; False vetoes (Chatting on the
        Radio after a move in its assault phase); None: no opinion."""
        return None

    def extra_dice(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    def die_modifier(self, ctx: AttackContext, owner: Unit) -> int:
        return 0

    def ignores_attack_penalty(self, ctx: AttackContext, owner: Unit) -> bool:
        return False

    def successes(self, ctx: AttackContext, owner: Unit, successes: int) -> int | None:
        return None

    def extra_successes(self, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...], modifier: int) -> int:
        """Successes the attack's dice score on top of the usual count (Vast Experience: its 6s)."""
        return 0

    def destroys(self, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...]) -> bool:
        """True if these attack dice destroy the target at once, whatever its defense (Flamethrower)."""
        return False

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

    def cover_without_terrain(self, ctx: AttackContext, owner: Unit) -> int | None:
        """The cover roll the owner needs in a hex whose terrain gives it none (None: no roll)."""
        return None

    # --- defensive fire ------------------------------------------------------------------------
    def provokes(self, state: GameState, mover: Unit, firer: Unit, owner: Unit) -> bool | None:
        return None

    def provokes_step(
        self, state: GameState, mover: Unit, firer: Unit, owner: Unit, a: Hex, b: Hex
    ) -> bool | None:
        """`provokes` for the mover's step a -> b (both next to the firer): Awareness needs the step."""
        return None

    def provokes_leaving(self, state: GameState, mover: Unit, firer: Unit, owner: Unit) -> bool:
        """True if `mover` stepping out of a hex next to `firer` into one that is not provokes the
        firer, in the window before it leaves (Battlefield Awareness). Asked of the firer's abilities."""
        return False

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

    def enters_terrain(self, state: GameState, owner: Unit, hex_: Hex) -> bool | None:
        """Whether the owner may be in `hex_` whatever the Terrain Effects table says for its kind: True
        opens closed terrain (Amphibious, Water Craft: water), False closes open terrain (Water Craft:
        land); None leaves it to the table. Asked for moves, deployment and scenario presets."""
        return None

    def stacks_as_vehicle(self, owner: Unit) -> bool:
        return False

    def may_step(self, state: GameState, owner: Unit, a: Hex, b: Hex, along_road: bool) -> bool | None:
        """False forbids the step a -> b, for what lies between the hexes (Thin Wheels: a stream)."""
        return None

    def step_cost(self, state: GameState, owner: Unit, a: Hex, b: Hex, cost: int) -> int:
        """The hexes of movement the step a -> b costs, `cost` by the rules (Excellent Suspension)."""
        return cost

    def movement_roll_modifier(self, state: GameState, owner: Unit, roll: str) -> int:
        """Added to the die of the owner's movement roll named `roll` ("stream", "forest", ...)."""
        return 0

    def moves_while_disrupted(self, state: GameState, owner: Unit) -> bool:
        """True if disruption doesn't stop the owner moving (or turning); it stays disrupted otherwise."""
        return False

    def keeps_moving_when_disrupted(self, state: GameState, owner: Unit) -> bool:
        """True if defensive fire that disrupts the owner during a move doesn't stop that move."""
        return False

    # --- transport -----------------------------------------------------------------------------
    def capacity(self, owner: Unit) -> int:
        return 0

    def may_carry(self, transport: Unit, soldier: Unit, owner: Unit) -> bool | None:
        return None

    def passenger_targetable(self, owner: Unit) -> bool:
        return False

    def boarding_problem(self, state: GameState, transport: Unit, soldier: Unit) -> str | None:
        """Why the owner, a transport, can't take `soldier` aboard now, given who already rides (None:
        no objection). Asked after `may_carry` (Large Transport: one Artillery at most)."""
        return None

    def passenger_may_fire(self, state: GameState, transport: Unit, owner: Unit, defensive: bool) -> bool:
        return False

    # --- initiative ----------------------------------------------------------------------------
    def initiative_bonus(self, state: GameState, owner: Unit) -> int:
        return 0

    def side_initiative_bonus(self, state: GameState, owner: Unit) -> int:
        """Added to the side's initiative roll on top of the best commander bonus (Recon); the same
        ability on several units counts once."""
        return 0

    # --- set-up ---------------------------------------------------------------------------------
    def moves_before_turn_1(self, owner: Unit) -> bool:
        """True if the owner may make one move after deployment, before turn 1 (Vanguard)."""
        return False

    def special_deployment(self, owner: Unit) -> str | None:
        """How the owner enters the battle other than by deploying in its zone (None: it doesn't):
        "hero" or "paratrooper" (it waits off the map and arrives later, `minis.rules.arrivals`),
        "edge" or "outside-enemy-zone" (where else it may deploy)."""
        return None

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

    # --- rerolls and the casualty phase (minis/ability_rules/rerolls.py, counters.py) ---------------
    def reroll_attack_dice(
        self,
        ctx: AttackContext,
        owner: Unit,
        rolls: tuple[int, ...],
        modifier: int,
        defense: int,
        rerolled: frozenset[int],
    ) -> tuple[int, ...]:
        """Which attack dice (indices into `rolls`) to roll again: rerolls are automatic, so an ability
        picks only dice whose new roll can't hurt; dice in `rerolled` were rolled again already."""
        return ()

    def attack_rolled(
        self, state: GameState, ctx: AttackContext, owner: Unit, rolls: tuple[int, ...], events: list[Event]
    ) -> None:
        """An attack has been resolved; `rolls` are its attack dice as they finally stood (Overheat)."""

    def rerolls_initiative(self, state: GameState, owner: Unit) -> bool:
        """True if the owner's side rolls its two initiative dice again when it is losing (Organization)."""
        return False

    def rerolls_movement_roll(self, state: GameState, owner: Unit, what: str) -> bool:
        """True if the owner rolls its failed movement roll for `what` again (Lead the Way)."""
        return False

    def keeps_disruption(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        """True if the owner's face-up Disrupted counter stays at the start of the casualty phase."""
        return False

    def survives_destroyed(self, state: GameState, owner: Unit, dice: Dice, events: list[Event]) -> bool:
        """True if the Destroyed counter just turned face up on the owner is thrown away (Endurance)."""
        return False

    def on_disrupted(self, state: GameState, owner: Unit, events: list[Event]) -> None:
        """The owner has just got a face-up Disrupted counter (defensive fire, the casualty phase)."""

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


def ability(ability_id: str) -> Callable[[type[Ability]], type[Ability]]:
    """Class decorator: names the ability whose hooks the class holds (the card files' ability id).
    It registers nothing: `minis.engine.ability_loader` collects the named classes of each family module."""

    def wrap(cls: type[Ability]) -> type[Ability]:
        cls.id = ability_id
        return cls

    return wrap


def near(a: Unit, b: Unit) -> bool:
    """Adjacent in the rulebook's sense: the same hex or next to it (for auras)."""
    return a.hex is not None and b.hex is not None and distance(a.hex, b.hex) <= 1


class UnimplementedAbility(ValueError):
    """A card names an ability without rule hooks: the engine won't play it with the ability ignored."""


@attrs.frozen(slots=True)
class CardHooks:
    """What a card's abilities hook into, worked out once per card by the registry."""

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
    offers_at: dict[int, bool] = fields.factory(dict)
    #: No handler changes how far or where the unit moves (`MOVEMENT_HOOKS`): worked out once here, as
    #: the engine asks it at every listing and every move (`abilities.plain_mover` adds the auras).
    moves_plainly: bool = True
    #: No handler has a say in whether the unit may move (`may_move`) or moves while disrupted.
    moves_freely: bool = True
    #: No handler changes a step the map allows (`may_enter`, `may_step`, `step_cost`, `movement_rolls`).
    steps_plainly: bool = True
    #: `abilities.stacks_as_vehicle` when no handler needs asking (None: ask them, with the unit).
    stacks_fixed: bool | None = None


#: The hooks that change how far or where a unit moves (`CardHooks.moves_plainly`).
MOVEMENT_HOOKS = frozenset(
    (
        "base_speed",
        "speed_modifier",
        "road_speed_bonus",
        "may_enter",
        "may_step",
        "step_cost",
        "enters_terrain",
    )
)


def class_hooks(klass: type[Ability]) -> frozenset[str]:
    """Names of the hooks a handler class (or one of its Ability bases) overrides."""
    return frozenset(
        name
        for base in klass.__mro__
        if base is not Ability and issubclass(base, Ability)
        for name, value in vars(base).items()
        if callable(value) and hasattr(Ability, name)
    )


@attrs.frozen(eq=False)
class AbilityRegistry:
    """The abilities of one rule set: ability id -> hook class, and the sight blockers of their effects.

    Immutable but for `_cards`, its memo of `hooks(card)` (a card's hooks never change)."""

    classes: Mapping[str, type[Ability]]
    sight_blockers: tuple[SightBlocker, ...] = ()
    _cards: dict[str, CardHooks] = fields.field(factory=dict, init=False, repr=False)

    @property
    def ids(self) -> frozenset[str]:
        """Ids of the abilities that have rule hooks."""
        return frozenset(self.classes)

    def without(self, *ability_ids: str) -> AbilityRegistry:
        """The same rule set without some abilities (a test switches one off)."""
        kept = {key: cls for key, cls in self.classes.items() if key not in ability_ids}
        return AbilityRegistry(kept, self.sight_blockers)

    def with_classes(self, *classes: type[Ability]) -> AbilityRegistry:
        """The same rule set with more (or replaced) abilities, each named by its `id`."""
        return AbilityRegistry({**self.classes, **{cls.id: cls for cls in classes}}, self.sight_blockers)

    def only(self, cards: Iterable[StatCard]) -> AbilityRegistry:
        """The same rule set with a memo of these cards' hooks only (a side's projection: the memo of a
        registry shared by every game in the process holds every card it was ever asked about)."""
        registry = AbilityRegistry(self.classes, self.sight_blockers)
        for card in cards:
            cached = self._cards.get(card.id)
            if cached is not None and cached.card is card:
                registry._cards[card.id] = cached
        return registry

    def knows_only(self, card_ids: Collection[str]) -> bool:
        """True if every card in the memo is one of `card_ids` (a projection may keep this registry)."""
        return all(card_id in card_ids for card_id in list(self._cards))  # (a copy: another thread may add)

    def hooks(self, card: StatCard) -> CardHooks:
        """What `card`'s abilities hook into (worked out once per card object)."""
        # Keyed by the card id (a string keeps its hash: cheaper than `id(card)`); a different card
        # object with the same id (a test's variant) is noticed by identity and replaces the entry.
        cached = self._cards.get(card.id)
        if cached is None or cached.card is not card:
            classes = self.classes
            found = tuple(classes[ref.id](ref) for ref in card.abilities if ref.id in classes)
            names = frozenset(name for h in found for name in class_hooks(type(h)))
            aura_names = frozenset(name for h in found if h.aura for name in class_hooks(type(h)))
            own = tuple(h for h in found if not h.aura)
            auras = tuple(h for h in found if h.aura)
            offerers = tuple(h for h in found if "attack_options" in class_hooks(type(h)))
            cached = CardHooks(
                card,
                found,
                bool(auras),
                names,
                card.is_vehicle,
                aura_names,
                own,
                auras,
                offerers,
                moves_plainly=names.isdisjoint(MOVEMENT_HOOKS),
                moves_freely=names.isdisjoint(("may_move", "moves_while_disrupted", "ignores_disruption")),
                steps_plainly=names.isdisjoint(("may_enter", "may_step", "step_cost", "movement_rolls")),
                stacks_fixed=True
                if card.is_vehicle
                else (False if "stacks_as_vehicle" not in names else None),
            )
            self._cards[card.id] = cached
        return cached

    def unimplemented(self, card: StatCard) -> list[str]:
        """The card's abilities (as printed) that have no rule hooks."""
        return [
            ref.name if ref.number is None else f"{ref.name} {ref.number}"
            for ref in card.abilities
            if ref.id not in self.classes
        ]

    def needs(self, card: StatCard) -> tuple[str, ...]:
        """What this rule set lacks to play `card`, in plain words (empty: it plays).

        A rule system still to come (`AbilityInfo.needs`: indirect fire, obstacles, ...) for an ability
        without hooks or for an obstacle card, or "the rules of 'NAME'" for an ability nobody wrote.
        """
        found = list(card.needs)
        for ref in card.abilities:
            if ref.id not in self.classes:
                info = ABILITIES.get(ref.id)
                system = info.needs if info is not None else None
                found.append(system or f"the rules of '{ref.text if info is not None else ref.name}'")
        return tuple(dict.fromkeys(found))

    def playable(self, card: StatCard) -> bool:
        return not self.needs(card)

    def require_implemented(self, card: StatCard) -> None:
        """Raise UnimplementedAbility, naming the card and what it needs, unless this rule set plays it."""
        missing = self.needs(card)
        if missing:
            raise UnimplementedAbility(
                f"card '{card.id}' ({card.name}) can't be played yet: it needs " + ", ".join(missing)
            )
