"""The random bot's draws (`minis.ai.random_bot.below`, `pick`) are the numbers `random.Random`'s own
`randrange` and `choice` draw from the same generator: the bot plays the same games as when it called
them (and as c456276's bot, which the playout benchmark compares against)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minis.ai.random_bot import below, pick


@given(st.integers(0, 2**32), st.lists(st.integers(1, 2**70), min_size=1, max_size=40))
def test_below_draws_what_randrange_draws(seed: int, bounds: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**32), st.lists(st.integers(1, 30), min_size=1, max_size=40))
def test_pick_draws_what_choice_draws(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    sequences = [list(range(size)) for size in sizes]
    assert [pick(ours, s) for s in sequences] == [theirs.choice(s) for s in sequences]


def test_an_empty_draw_is_refused_as_random_refuses_it() -> None:
    with pytest.raises(ValueError):
        below(random.Random(1), 0)
    with pytest.raises(IndexError):
        pick(random.Random(1), [])
