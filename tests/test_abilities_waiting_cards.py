"""Abilities whose every card waits for a rule system the engine lacks (water, special deployment): the
engine refuses those cards, so no rules-test file can show the ability. They are
tested here on copies of their real cards with only the waiting abilities taken out, and each ability's
scenario also fails with the ability switched off (as tests/test_abilities_mutation.py does for the
rules tests). tests/test_abilities_mutation.py checks that `TESTED_ON_COPIES` lists every such ability.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from engine_support import board, position

from minis.base.sides import Side
from minis.board import Board
from minis.cards import StatCard, card_catalogue
from minis.content.ability_catalogue import ABILITIES
from minis.engine.ability_api import Ability, AbilityRegistry, ability
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from minis.hexgrid import Facing
from minis.rules.errors import IllegalAction
from minis.state import Unit

#: A forest hex at A3, clear elsewhere (cover against attacks into A3).
WOODS = board("""
C C F C C C C C C
 C C C C C C C C
""")
#: All clear: no cover roll anywhere.
OPEN = board("""
C C C C C C
 C C C C C
""")
#: A town hex at A3.
TOWN = board("""
C C T C C C
 C C C C C
""")


# --- shared helpers --------------------------------------------------------------------------------


def card_without_waiting(card_id: str) -> StatCard:
    """A copy of a real card without the abilities the shipped rule set can't play yet. Only abilities
    that wait for a rule system (`needs`) may go, so the copy keeps everything else the card does."""
    card = card_catalogue()[card_id]
    implemented = standard_abilities().ids
    dropped = [ref.id for ref in card.abilities if ref.id not in implemented]
    assert dropped and all(ABILITIES[i].needs for i in dropped), (card_id, dropped)
    kept = tuple(ref for ref in card.abilities if ref.id in implemented)
    return attrs.evolve(card, id=f"{card_id}-test", abilities=kept)


def put(
    uid: str,
    card: StatCard | str,
    side: str,
    at: str,
    facing: Facing = Facing.E,
    on: Board = WOODS,
    **changes: object,
) -> Unit:
    """A unit of `card` (a card id or a copy) on board `on`; only a Vehicle keeps the facing."""
    if isinstance(card, str):
        card = card_catalogue()[card]
    chosen = facing if card.is_vehicle else None
    return Unit(uid, card, Side.parse(side), on.parse(at), chosen, **changes)  # type: ignore[arg-type]


def play(
    units: list[Unit],
    rules: AbilityRegistry,
    active: str = "allies",
    phase: str = "assault",
    on: Board = WOODS,
) -> Game:
    """A position with `rules` as the rule set (the shipped one, or one with an ability switched off)."""
    return position(on, units, phase=phase, active=active, abilities=rules)


def roll(game: Game, action: str | None, dice: list[int]) -> None:
    """Apply `action` with exactly these dice (None: an automatic phase waiting for dice)."""
    if action is None:
        game.push_dice(dice)
    else:
        game.dice.push(dice)
        game.apply(action)
    assert not game.waiting_for_dice()
    assert not game.dice.unused()


def off(ability_id: str) -> AbilityRegistry:
    """The shipped rule set with one ability's hooks replaced by the do-nothing base class."""
    return standard_abilities().with_classes(ability(ability_id)(type("Off", (Ability,), {})))


SHIPPED = standard_abilities()


# --- each ability switched off fails its scenario --------------------------------------------------

SWITCHED: list[tuple[str, Callable[[AbilityRegistry], None]]] = []

#: The abilities this module tests on copies of their cards (each with a switched-off check).
TESTED_ON_COPIES: frozenset[str] = frozenset(ability_id for ability_id, _ in SWITCHED)


@pytest.mark.parametrize(("ability_id", "scenario"), SWITCHED, ids=[a for a, _ in SWITCHED])
def test_switched_off_fails(ability_id: str, scenario: Callable[[AbilityRegistry], None]) -> None:
    scenario(SHIPPED)  # it passes with the ability on
    try:
        scenario(off(ability_id))
    except (AssertionError, IllegalAction, pytest.fail.Exception):  # pytest.raises not raising is a fail
        return
    pytest.fail(f"the scenario still passes with {ability_id} switched off")
