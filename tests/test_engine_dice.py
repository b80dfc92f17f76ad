"""The dice source: seeded sequences, scripts, marks, forks and NeedDice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minis.dice import Dice, NeedDice


def test_seeded_dice_repeat_and_stay_in_range() -> None:
    a, b = Dice(seed=5), Dice(seed=5)
    values = a.roll_many(1000)
    assert values == b.roll_many(1000)
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert Dice(seed=6).roll_many(50) != values[:50]


def test_scripted_dice_run_dry() -> None:
    dice = Dice.scripted([3, 4])
    assert dice.roll() == 3
    assert dice.remaining() == 1
    assert dice.roll() == 4
    with pytest.raises(NeedDice):
        dice.roll()
    dice.push([6])
    assert dice.roll() == 6


@pytest.mark.parametrize("bad", [0, 7, -1, "4", 2.0, True])
def test_push_refuses_values_that_are_not_dice(bad: object) -> None:
    with pytest.raises(ValueError):
        Dice.scripted().push([bad])  # type: ignore[list-item]


def test_mark_and_restore_hand_out_the_same_values_again() -> None:
    dice = Dice(seed=1)
    dice.roll_many(3)
    mark = dice.mark()
    first = dice.roll_many(5)
    assert dice.drawn_since(mark) == first
    dice.restore(mark)
    assert dice.roll_many(5) == first


def test_skip_resumes_a_seeded_sequence() -> None:
    whole = Dice(seed=9).roll_many(600)
    resumed = Dice(seed=9)
    resumed.skip(300)
    assert resumed.roll_many(300) == whole[300:]


def test_fork_is_independent() -> None:
    dice = Dice(seed=2)
    dice.roll_many(10)
    twin = dice.fork()
    twin.roll_many(100)
    assert dice.used == 10
    scripted = Dice.scripted([1, 2, 3])
    copy = scripted.fork()
    assert copy.roll_many(3) == [1, 2, 3] and scripted.remaining() == 3


class _WholeBatches:
    """The seeded source as it was first written: 256 values drawn at once whenever it runs out."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.history: list[int] = []
        self.pos = 0

    def roll(self) -> int:
        if self.pos >= len(self.history):
            self.history.extend(self.rng.choices(range(1, 7), k=256))
        self.pos += 1
        return self.history[self.pos - 1]


@given(st.integers(0, 2**32), st.lists(st.integers(0, 300), min_size=1, max_size=4))
def test_values_drawn_a_chunk_at_a_time_are_those_of_whole_batches(seed: int, runs: list[int]) -> None:
    """Drawing lazily is for speed only: the values, what a fork inherits (the rest of the batch) and
    so every fork's values are those of a source that draws whole batches."""
    dice, model = Dice(seed=seed), _WholeBatches(seed)
    for count in runs:
        assert dice.roll_many(count) == [model.roll() for _ in range(count)]
        assert dice.unused() == model.history[model.pos :]
        assert dice.fork().roll_many(300)[: len(model.history) - model.pos] == model.history[model.pos :]


def test_seeded_and_scripted_are_exclusive() -> None:
    with pytest.raises(ValueError):
        Dice(seed=1, script=[1])


@given(st.integers(0, 2**32), st.integers(1, 700))
def test_batches_never_change_the_sequence(seed: int, count: int) -> None:
    one_by_one = Dice(seed=seed)
    values = [one_by_one.roll() for _ in range(count)]
    assert Dice(seed=seed).roll_many(count) == values


# --- the game server's dice: a keyed hash, not the twister ------------------------------------------


def test_keyed_dice_are_fair_reproducible_and_not_the_twisters() -> None:
    from collections import Counter

    from minis.dice import KeyedFaces

    values = Dice(seed=2**127 + 12345, keyed=True).roll_many(60_000)
    counts = Counter(values)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # each face 10,000 times give or take five standard deviations (sqrt(60000 * 1/6 * 5/6) = 91)
    assert all(abs(count - 10_000) < 5 * 91 for count in counts.values()), counts
    assert Dice(seed=2**127 + 12345, keyed=True).roll_many(500) == values[:500]  # the seed replays it
    assert Dice(seed=2**127 + 12346, keyed=True).roll_many(500) != values[:500]
    assert Dice(seed=2**127 + 12345).roll_many(500) != values[:500]  # not the twister's sequence
    # drawn in chunks of any size, the faces are the same sequence
    faces = KeyedFaces(99)
    chunks = (
        faces.choices(range(1, 7), k=3) + faces.choices(range(1, 7), k=100) + faces.choices(range(1, 7), k=1)
    )
    assert chunks == KeyedFaces(99).choices(range(1, 7), k=104)


def test_a_keyed_source_forks_and_rewinds_as_a_seeded_one_does() -> None:
    dice = Dice(seed=7, keyed=True)
    first = dice.roll_many(10)
    mark = dice.mark()
    twin = dice.fork()
    assert twin.keyed and twin.roll_many(20) == dice.roll_many(20)  # a fork goes on with the unused values
    dice.restore(mark)
    again = Dice(seed=7, keyed=True)
    again.skip(10)
    assert again.roll_many(5) == dice.roll_many(5) and first == Dice(seed=7, keyed=True).roll_many(10)
