"""Which cards a player asked for: the search and filters of `minis cards list` and the army builder.

One definition for both, so the window and the command line find the same cards in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from minis.base.sides import Side
from minis.cards import Nation, StatCard, UnitType

#: The orders `minis cards list --sort` and the army builder offer, each a key of `sort_cards`.
SORTS = ("name", "cost", "year", "nation")

#: Words a player may write for each unit type (`--type`).
TYPE_WORDS = {
    **{kind.value: kind for kind in UnitType},
    **{kind.value + "s": kind for kind in UnitType},
}
#: What `--subtype` takes for the cards that have none.
NO_SUBTYPE = "none"


@attrs.frozen
class CardFilter:
    """Which cards a player asked for: the same filters for `minis cards list` and the army builder.

    `search` is words that must each occur in the card's name or in one of its abilities (any case);
    `side` keeps the cards an army of that side may take (cards of no nation serve both); `subtype`
    "none" keeps the cards without one; `year` keeps the cards available by that year; `playable` keeps
    the cards this rule set can play (`needs` says what the others lack).
    """

    search: str = ""
    side: Side | None = None
    nation: Nation | None = None
    type: UnitType | None = None
    subtype: str | None = None
    year: int | None = None
    min_cost: float | None = None
    max_cost: float | None = None
    playable: bool = False

    def matches(self, card: StatCard, needs: Callable[[StatCard], tuple[str, ...]]) -> bool:
        """Whether `card` passes every filter (`needs` is asked only when `playable` is set)."""
        return (
            (self.side is None or card.serves(self.side))
            and (self.nation is None or card.nation is self.nation)
            and (self.type is None or card.type is self.type)
            and (self.subtype is None or (card.subtype or NO_SUBTYPE).lower() == self.subtype.lower())
            and (self.year is None or card.year <= self.year)
            and (self.min_cost is None or card.cost >= self.min_cost)
            and (self.max_cost is None or card.cost <= self.max_cost)
            and (not self.search or _found(self.search, card))
            and (not self.playable or not needs(card))
        )


def search_text(card: StatCard) -> str:
    """What the search looks in: the card's name and its abilities as printed, in lower case."""
    return "\n".join([card.name, *(ability.text for ability in card.abilities)]).lower()


def _found(search: str, card: StatCard) -> bool:
    text = search_text(card)
    return all(word in text for word in search.lower().split())


def _name_key(card: StatCard) -> str:
    """A card's name as the name order reads it: any case, opening quotes ignored ('"Amtrack"')."""
    return card.name.lower().lstrip("\"'“‘ ")


def sort_cards(cards: Iterable[StatCard], by: str = "name") -> list[StatCard]:
    """The cards in the order `by` (one of SORTS); the name orders cards that tie."""
    keys: dict[str, Callable[[StatCard], tuple[Any, ...]]] = {
        "name": lambda card: (_name_key(card), card.id),
        "cost": lambda card: (card.cost, _name_key(card), card.id),
        "year": lambda card: (card.year, _name_key(card), card.id),
        "nation": lambda card: (card.nation_name, _name_key(card), card.id),
    }
    return sorted(cards, key=keys[by])


def needs_text(needs: Sequence[str]) -> str:
    """What a card lacks to be played, as one phrase ("indirect fire and spotters, the rules of 'Robust'"),
    as `minis army check` says it."""
    return ", ".join(needs)
