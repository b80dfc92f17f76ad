"""Battle: what is fixed for a whole game, shared by every copy of its state.

The board (once the map is rolled or chosen), the battle's terms (`minis.engine.terms.Terms`), the rule set's
abilities (a `minis.engine.ability_api.AbilityRegistry`) and, worked out once when the battle is made, what
the cards in play hook into: per card its `CardHooks`, the units with auras and the hooks those implement, and
per hook the units that implement it. `GameState.battle` points at one; copying a state copies the pointer. A
set-up action that fixes the map replaces the pointer with an evolved battle (`with_map`), so copies made
before it keep theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

import attrs

from minis.cards import StatCard
from minis.engine.terms import Terms

if TYPE_CHECKING:
    from minis.board import Board


class HookSummary(Protocol):
    """A card's hooks as far as they can be read without naming the abilities: what the battle and the
    engine's quick tests read of a `minis.engine.ability_api.CardHooks` (`minis.abilities.hooks_in_play` gives
    them whole). The battle names the ability seam only by what it asks of it: the seam's hooks name
    the state, which holds the battle, so importing the seam here would close a circle of imports."""

    @property
    def card(self) -> StatCard: ...
    @property
    def aura(self) -> bool: ...
    @property
    def overrides(self) -> frozenset[str]: ...
    @property
    def aura_overrides(self) -> frozenset[str]: ...
    @property
    def moves_plainly(self) -> bool: ...
    @property
    def moves_freely(self) -> bool: ...
    @property
    def steps_plainly(self) -> bool: ...


class HookSource(Protocol):
    """What the battle asks of its rule set's abilities (`minis.engine.ability_api.AbilityRegistry`)."""

    def hooks(self, card: StatCard) -> HookSummary: ...


class CardHolder(Protocol):
    """A unit as the battle reads it when it is made (`minis.state.Unit`)."""

    @property
    def id(self) -> str: ...
    @property
    def card(self) -> StatCard: ...


@attrs.frozen(slots=True)
class Battle:
    """The fixed part of a game. Build it with `Battle.make`; it never changes afterwards.

    Two battles are equal when their parts are (the cards' hooks come from the same registry's memo).
    """

    board: Board | None
    terms: Terms
    #: The rule set's abilities: an `AbilityRegistry` (`minis.abilities.registry` names it so).
    abilities: HookSource
    #: The configuration number of the board (None: no map yet, or a map file).
    configuration: int | None = None
    #: Per card id of a unit in play, what its abilities hook into: its `CardHooks`
    #: (`minis.abilities.hooks_in_play` names them so).
    cards: Mapping[str, HookSummary] = attrs.Factory(dict)
    #: Units whose cards have aura abilities, in the order of the battle's units.
    aura_ids: tuple[str, ...] = ()
    #: The hooks those auras implement.
    aura_hooks: frozenset[str] = frozenset()
    #: Per hook name, the units (sorted ids) whose cards implement it.
    hook_units: Mapping[str, tuple[str, ...]] = attrs.Factory(dict)
    #: The units the terms put on the map (preset units): not bought, so not counted for points.
    presets: frozenset[str] = frozenset()
    #: The preset units that stay where the terms put them: nobody deploys them again.
    fixed: frozenset[str] = frozenset()

    @classmethod
    def make(
        cls,
        board: Board | None,
        units: Iterable[CardHolder],
        terms: Terms,
        abilities: HookSource,
        configuration: int | None = None,
        presets: frozenset[str] = frozenset(),
        fixed: frozenset[str] = frozenset(),
    ) -> Battle:
        """A battle for these units, their cards' hooks resolved by `abilities`."""
        cards: dict[str, HookSummary] = {}
        aura_ids: list[str] = []
        aura_hooks: set[str] = set()
        by_hook: dict[str, list[str]] = {}
        for unit in units:
            hooks = abilities.hooks(unit.card)
            cards[unit.card.id] = hooks
            if hooks.aura:
                aura_ids.append(unit.id)
                aura_hooks.update(hooks.aura_overrides)
            for name in hooks.overrides:
                by_hook.setdefault(name, []).append(unit.id)
        return cls(
            board,
            terms,
            abilities,
            configuration,
            cards,
            tuple(aura_ids),
            frozenset(aura_hooks),
            {name: tuple(sorted(ids)) for name, ids in by_hook.items()},
            presets,
            fixed,
        )

    def with_map(
        self,
        board: Board,
        configuration: int | None,
        units: Iterable[CardHolder],
        presets: frozenset[str] = frozenset(),
        fixed: frozenset[str] = frozenset(),
    ) -> Battle:
        """This battle on a map (rolled, chosen or named), with the units now in play (presets added)."""
        return Battle.make(board, units, self.terms, self.abilities, configuration, presets, fixed)
