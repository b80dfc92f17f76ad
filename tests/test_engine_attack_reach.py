"""`Ability.offers_attack_at` is only a shortcut: where it says no, `attack_options` must offer nothing.

The engine refuses an attack out of the card's range without building an AttackContext when no ability
of the two units (nor an aura) may offer one at that distance; a wrong answer would forbid a legal attack.
"""

from __future__ import annotations

import pytest

from minis import abilities
from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue, range_band
from minis.engine.ability_api import Ability, AttackContext
from minis.engine.ability_loader import standard_abilities
from minis.engine.battle import Battle
from minis.engine.terms import standard
from minis.state import GameState, Unit

DISTANCES = range(0, 16)


def _narrowed(card: StatCard) -> list[Ability]:
    """The card's handlers that offer attacks and say at which distances (the others always may)."""
    return [
        h
        for h in standard_abilities().hooks(card).handlers
        if type(h).attack_options is not Ability.attack_options
        and type(h).offers_attack_at is not Ability.offers_attack_at
    ]


def _state(*units: Unit) -> GameState:
    """A state of these units on no map yet, with the shipped abilities."""
    return GameState(Battle.make(None, units, standard(), standard_abilities()), {u.id: u for u in units})


CARDS = sorted(card_catalogue().values(), key=lambda c: c.id)
OWNERS = [c for c in CARDS if _narrowed(c)]


def test_some_abilities_narrow_their_offers() -> None:
    ids = {h.id for c in OWNERS for h in _narrowed(c)}
    assert {"close-assault", "extended-range"} <= ids


@pytest.mark.parametrize("owner_card", OWNERS, ids=lambda c: c.id)
def test_no_option_where_the_ability_says_none(owner_card: StatCard) -> None:
    for other_card in CARDS:
        owner = Unit("owner", owner_card, Side.AXIS)
        other = Unit("other", other_card, Side.ALLIES)
        state = _state(owner, other)
        for h in _narrowed(owner_card):
            for distance in DISTANCES:
                if h.offers_attack_at(distance):
                    continue
                for attacker, target in ((owner, other), (other, owner)):
                    for front in (True, False):
                        for mode in ("", h.id):
                            band = range_band(distance)
                            ctx = AttackContext(
                                state, attacker, target, distance, band, front=front, mode=mode
                            )
                            assert not list(h.attack_options(ctx, owner)), (h.id, other_card.id, distance)


def test_out_of_range_attack_is_refused_quickly_but_close_assault_still_works() -> None:
    """The quick test answers per distance: a close-assault Soldier may attack a Vehicle in its hex only."""
    catalogue = card_catalogue()
    soldier = next(c for c in CARDS if any(h.id == "close-assault" for h in _narrowed(c)))
    tank = catalogue["m4a1-sherman"]
    attacker, target = Unit("a", soldier, Side.AXIS), Unit("t", tank, Side.ALLIES)
    state = _state(attacker, target)
    assert abilities.may_offer_attacks(state, attacker, target, 0)
    assert not abilities.may_offer_attacks(state, attacker, target, 3)
    assert abilities.may_offer_attacks(state, attacker, target)  # no distance: maybe
