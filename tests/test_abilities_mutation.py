"""The rules tests of the abilities can fail: with any one ability switched off (its hooks replaced by
the do-nothing base class, as if the engine ignored it) some rules test of a card that has it fails.

The Aircraft keyword is the exception: its rules are the engine's, for every card of type Aircraft
(`minis.rules.air`), so its class has no hooks to switch off; the rules tests of tests/rules/aircraft and
the aircraft abilities' own show them. Light Artillery's effect is checked by the transport abilities
(they ask whether the Soldier has it), so switching its own class off changes nothing; its rules test
fails when the transports stop asking.

An ability whose every card the engine refuses (each also has an ability that waits for a rule system)
has no rules test: tests/test_abilities_waiting_cards.py tests it on copies of its cards instead, and a
test here checks that its list is complete and not stale.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from test_abilities_waiting_cards import TESTED_ON_COPIES

from minis.cards import card_catalogue
from minis.content.ability_catalogue import ABILITIES
from minis.engine.ability_api import Ability, ability
from minis.engine.ability_loader import standard_abilities
from minis.rulestest import RulesTest, load_rules_test, run_rules_test

#: The rules tests of the abilities: the ground families', and the aircraft families' (issue 19).
FOLDERS = (
    Path(__file__).parent / "rules" / "abilities",
    Path(__file__).parent / "rules" / "aircraft-abilities",
)
NOTHING_TO_DO = {"aircraft", "light-artillery"}
ON_NO_CARD = {"stars-stripes"}


@functools.cache
def _rules_tests() -> list[RulesTest]:
    return [load_rules_test(path) for folder in FOLDERS for path in sorted(folder.glob("*.toml"))]


def _tests_with(ability_id: str) -> list[RulesTest]:
    """The rules tests in which some unit's card has the ability (a set-up test: some card of its armies)."""
    cards = card_catalogue()
    return [
        t
        for t in _rules_tests()
        if any(u.card.has(ability_id) for u in t.units)
        or (t.setup is not None and any(cards[c].has(ability_id) for c in (*t.setup.axis, *t.setup.allies)))
    ]


def test_the_ability_rules_tests_pass() -> None:
    failures = [(t.path, why) for t in _rules_tests() if (why := run_rules_test(t)) is not None]
    assert not failures


#: Abilities that wait for a rule system the engine lacks (their cards are refused until it comes).
WAITING = {info.id for info in ABILITIES.values() if info.needs}


def _only_on_refused_cards() -> set[str]:
    """Abilities (not waiting themselves) on some card, where the engine refuses every card with them."""
    registry = standard_abilities()
    holders: dict[str, list[bool]] = {}
    for card in card_catalogue().values():
        for ref in card.abilities:
            holders.setdefault(ref.id, []).append(registry.playable(card))
    return {i for i, playable in holders.items() if i in ABILITIES and i not in WAITING and not any(playable)}


ONLY_ON_REFUSED_CARDS = _only_on_refused_cards()


def test_abilities_only_on_refused_cards_are_tested_on_copies() -> None:
    """Nothing escapes: the switch-off test below skips these, so each needs its tests on copies."""
    missing = ONLY_ON_REFUSED_CARDS - TESTED_ON_COPIES
    assert not missing, f"not in tests/test_abilities_waiting_cards.py: {sorted(missing)}"


def test_abilities_tested_on_copies_have_no_playable_card() -> None:
    """The list can't go stale: once a card with the ability plays, a rules-test file must show it."""
    stale = TESTED_ON_COPIES - ONLY_ON_REFUSED_CARDS
    assert not stale, f"a playable card has these, or they now wait themselves: {sorted(stale)}"


SKIPPED = NOTHING_TO_DO | ON_NO_CARD | WAITING | ONLY_ON_REFUSED_CARDS


@pytest.mark.parametrize("ability_id", sorted(set(ABILITIES) - SKIPPED))
def test_switching_an_ability_off_fails_a_rules_test(ability_id: str) -> None:
    chosen = _tests_with(ability_id)
    assert chosen, f"no rules test uses a card with {ability_id}"
    switched_off = standard_abilities().with_classes(ability(ability_id)(type("Off", (Ability,), {})))
    failed = [t.path for t in chosen if run_rules_test(t, switched_off) is not None]
    assert failed, f"every rules test still passes with {ability_id} switched off"
