"""Battle: what is fixed for a whole game, shared by every copy of its state.

The board (once the map is rolled or chosen), the battle's terms (`minis.terms.Terms`), the rule set's
abilities (`minis.ability_api.AbilityRegistry`) and, worked out once when the battle is made, what the
cards in play hook into: per card its `CardHooks`, the units with auras and the hooks those implement,
and per hook the units that implement it. `GameState.battle` points at one; copying a state copies the
pointer. A set-up action that fixes the map replaces the pointer with an evolved battle (`with_map`), so
copies made before it keep theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from minis.ability_api import AbilityRegistry, CardHooks
from minis.terms import Terms

if TYPE_CHECKING:
    from minis.board import Board
    from minis.state import Unit


@attrs.frozen(slots=True)
class Battle:
    """The fixed part of a game. Build it with `Battle.make`; it never changes afterwards.

    Two battles are equal when their parts are (the cards' hooks come from the same registry's memo).
    """

    board: Board | None
    terms: Terms
    abilities: AbilityRegistry
    #: The configuration number of the board (None: no map yet, or a map file).
    configuration: int | None = None
    #: Per card id of a unit in play, what its abilities hook into.
    cards: Mapping[str, CardHooks] = attrs.Factory(dict)
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
        units: Iterable[Unit],
        terms: Terms,
        abilities: AbilityRegistry,
        configuration: int | None = None,
        presets: frozenset[str] = frozenset(),
        fixed: frozenset[str] = frozenset(),
    ) -> Battle:
        """A battle for these units, their cards' hooks resolved by `abilities`."""
        cards: dict[str, CardHooks] = {}
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
        units: Iterable[Unit],
        presets: frozenset[str] = frozenset(),
        fixed: frozenset[str] = frozenset(),
    ) -> Battle:
        """This battle on a map (rolled, chosen or named), with the units now in play (presets added)."""
        return Battle.make(board, units, self.terms, self.abilities, configuration, presets, fixed)
