"""`minis.engine.odds`: exact hit probabilities, checked by hand and against a million simulated attacks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from minis.engine.odds import die_chance, hit_odds
from minis.rules.combat import hits_for

CASES = [
    # dice, defense, modifier, cover, cover modifier, defensive
    (11, 5, 0, None, 0, False),
    (8, 4, -1, 4, 0, False),
    (13, 4, 0, 5, -1, False),
    (6, 3, 0, 4, 0, False),
    (11, 4, 0, 5, 0, True),
    (3, 1, -1, 4, -1, False),
    (20, 6, 0, 5, 0, False),
]


def test_small_cases_by_hand() -> None:
    assert hit_odds(1, 1) == (Fraction(1, 2), Fraction(1, 2), 0, 0)
    assert hit_odds(2, 1) == (Fraction(1, 4), Fraction(1, 2), 0, Fraction(1, 4))
    odds = hit_odds(2, 1, cover=4)  # a success on cover limits the 3 hits to 1
    assert odds == (Fraction(1, 4), Fraction(1, 2) + Fraction(1, 8), 0, Fraction(1, 8))
    assert hit_odds(1, 1, cover=4, defensive=True) == (Fraction(3, 4), Fraction(1, 4), 0, 0)
    assert hit_odds(2, 1, cover=5, cover_fixed=False) == hit_odds(2, 1)
    assert die_chance(4, -1) == Fraction(1, 2) - Fraction(1, 6)
    assert hit_odds(0, 2) == (1, 0, 0, 0)


@pytest.mark.parametrize("case", CASES)
def test_odds_sum_to_one(case: tuple) -> None:
    assert sum(exact(case)) == 1


def exact(case: tuple) -> tuple[Fraction, ...]:
    dice, defense, modifier, cover, cover_modifier, defensive = case
    return hit_odds(dice, defense, modifier, cover=cover, cover_modifier=cover_modifier, defensive=defensive)


def simulate(
    dice: int,
    defense: int,
    modifier: int,
    cover: int | None,
    cover_modifier: int,
    defensive: bool,
    attacks: int,
    rng: np.random.Generator,
) -> np.ndarray:
    rolls = rng.integers(1, 7, size=(attacks, dice), dtype=np.int8)
    successes = (rolls + modifier >= 4).sum(axis=1)
    hits = np.vectorize(lambda s: hits_for(int(s), defense))(np.arange(dice + 1))[successes]
    if cover is not None:
        covered = rng.integers(1, 7, size=attacks) + cover_modifier >= cover
        limited = 0 if defensive else np.minimum(hits, 1)
        hits = np.where(covered, limited, hits)
    if defensive:
        hits = np.minimum(hits, 1)
    return np.bincount(hits, minlength=4)[:4] / attacks


@pytest.mark.parametrize("case", CASES)
def test_odds_agree_with_a_million_simulated_attacks(case: tuple) -> None:
    rng = np.random.default_rng(abs(hash(case)) % 2**32)
    simulated = simulate(*case, attacks=1_000_000, rng=rng)
    expected = np.array([float(p) for p in exact(case)])
    assert np.all(np.abs(simulated - expected) < 0.002), (simulated, expected)
