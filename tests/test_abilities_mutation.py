"""The rules tests of the abilities can fail: with any one ability switched off (its hooks replaced by
the do-nothing base class, as if the engine ignored it) some rules test of a card that has it fails.

Antiair is the exception: without aircraft it has nothing to do. Light Artillery's effect is checked by
the transport abilities (they ask whether the Soldier has it), so switching its own class off changes
nothing; its rules test fails when the transports stop asking.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from minis.ability_api import Ability, ability
from minis.ability_catalogue import ABILITIES
from minis.ability_loader import standard_abilities
from minis.rulestest import RulesTest, load_rules_test, run_rules_test

FOLDER = Path(__file__).parent / "rules" / "abilities"
NOTHING_TO_DO = {"antiair", "light-artillery"}
ON_NO_CARD = {"gung-ho", "poor-suspension", "stars-stripes", "undermanned", "urban-combat"}


@functools.cache
def _rules_tests() -> list[RulesTest]:
    return [load_rules_test(path) for path in sorted(FOLDER.glob("*.toml"))]


def _tests_with(ability_id: str) -> list[RulesTest]:
    """The rules tests in which some unit's card has the ability."""
    return [t for t in _rules_tests() if any(u.card.has(ability_id) for u in t.units)]


def test_the_ability_rules_tests_pass() -> None:
    failures = [(t.path, why) for t in _rules_tests() if (why := run_rules_test(t)) is not None]
    assert not failures


@pytest.mark.parametrize("ability_id", sorted(set(ABILITIES) - NOTHING_TO_DO - ON_NO_CARD))
def test_switching_an_ability_off_fails_a_rules_test(ability_id: str) -> None:
    chosen = _tests_with(ability_id)
    assert chosen, f"no rules test uses a card with {ability_id}"
    switched_off = standard_abilities().with_classes(ability(ability_id)(type("Off", (Ability,), {})))
    failed = [t.path for t in chosen if run_rules_test(t, switched_off) is not None]
    assert failed, f"every rules test still passes with {ability_id} switched off"
