"""The one dice source of a game: seeded (play, simulation) or scripted from a list (tests, records).

Every die the engine rolls comes from here, in the order docs/contracts.md#dice-order states, so the actions
of a game plus the values drawn replay it exactly. The source keeps every value it has handed out in
`history`; `mark()`/`restore()` rewind it, which is how the engine undoes an action that turned out
illegal half-way (a `fire` aimed at a later window) without losing or reordering dice.

A scripted source that runs dry raises `NeedDice`: the engine treats that as "the game waits for
dice" and resumes once `push()` has added more (the rules-test runner feeds dice step by step).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from mypy_extensions import mypyc_attr

#: A seeded source hands its values out in batches of this many: what it has drawn but not yet
#: handed out is what `unused()` shows and what a `fork()` starts with, so the batch size is part of
#: the sequences forks play (kept as it always was).
_BATCH = 256
#: How many of a batch's values are drawn from the generator at once (speed: a playout uses a few
#: dozen dice, so drawing a whole batch up front costs more than the game; the values are the same).
_CHUNK = 16
_FACES = range(1, 7)
#: The bits of a seed drawn from the system's randomness when none is given (a real game): too many to
#: try them all, so the dice a player sees never reveal the seed, and with it the dice to come.
SEED_BITS = 128


class _Faces(Protocol):
    """What draws a seeded source's values (`random.Random` has this method)."""

    def choices(self, population: Sequence[int], *, k: int) -> list[int]: ...


class KeyedFaces:
    """Dice faces from a keyed hash in counter mode (BLAKE2b keyed with the seed; each byte below 252
    gives the face byte % 6 + 1, the others are skipped, so every face is equally likely).

    The game server's dice: Python's Mersenne Twister is not made to hide its state, and the dice a
    player sees are outputs of it; from enough of them its state, and every die to come, could in
    principle be worked out. A keyed hash gives no such handle: without the key (the 128-bit seed,
    kept in the server's store) the dice seen say nothing of the dice to come. Reproducible from the
    seed as the twister is, so a restarted server replays its battles."""

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, seed: int) -> None:
        self._key = seed.to_bytes((max(seed.bit_length(), 1) + 7) // 8, "big")[-64:]
        self._counter = 0
        self._buffer: list[int] = []

    def choices(self, population: Sequence[int], *, k: int) -> list[int]:
        while len(self._buffer) < k:
            block = hashlib.blake2b(self._counter.to_bytes(8, "big"), key=self._key).digest()
            self._counter += 1
            self._buffer.extend(byte % 6 + 1 for byte in block if byte < 252)
        drawn, self._buffer = self._buffer[:k], self._buffer[k:]
        return drawn


class NeedDice(Exception):
    """Raised when a scripted source has no value left; the game waits until more are pushed."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the exact solver's dice extend it (minis.ai.solver)
class Dice:
    """Six-sided dice: `seed` for an endless reproducible sequence, or `script` for a fixed list.

    With neither, the source is seeded from the system's randomness (a real game; `SEED_BITS` bits).
    A scripted source never invents values: past its end it raises `NeedDice`.
    """

    __slots__ = ("_batch_end", "_pos", "_rng", "_scripted", "history", "keyed", "seed")

    def __init__(
        self, seed: int | None = None, script: Iterable[int] | None = None, *, keyed: bool = False
    ) -> None:
        self.history: list[int] = []
        self._pos = 0
        #: Where the current batch ends in `history` (a seeded source draws its batch lazily).
        self._batch_end = 0
        #: A seeded source's generator, made at its first die (`_faces`): a search's playout gives
        #: every action dice of its own, and most actions (a move, a pass) roll none.
        self._rng: _Faces | None = None
        self._scripted = script is not None
        self.seed = seed
        #: Drawn by `KeyedFaces` (the game server's dice) instead of Python's generator.
        self.keyed = keyed
        if script is not None:
            if seed is not None:
                raise ValueError("a dice source is either seeded or scripted, not both")
            self.push(script)
        elif seed is None:
            self.seed = secrets.randbits(SEED_BITS)

    def _faces(self) -> _Faces | None:
        """The generator of a seeded source (made now if need be); None for a scripted one."""
        if self._rng is None and not self._scripted:
            assert self.seed is not None
            self._rng = KeyedFaces(self.seed) if self.keyed else random.Random(self.seed)
        return self._rng

    @classmethod
    def scripted(cls, values: Iterable[int] = ()) -> Dice:
        return cls(script=list(values))

    @property
    def is_scripted(self) -> bool:
        return self._scripted

    @property
    def used(self) -> int:
        """How many values have been handed out (the position in `history`)."""
        return self._pos

    def remaining(self) -> int:
        """Values already known but not yet handed out (a scripted source's unused dice)."""
        self._draw_batch()
        return len(self.history) - self._pos

    def unused(self) -> list[int]:
        self._draw_batch()
        return self.history[self._pos :]

    def _draw_batch(self) -> None:
        """Draw the rest of the current batch (what a source drawing whole batches would hold now)."""
        if self._rng is not None and len(self.history) < self._batch_end:
            self.history.extend(self._rng.choices(_FACES, k=self._batch_end - len(self.history)))

    def push(self, values: Iterable[int]) -> None:
        """Append values to the script (each must be 1-6)."""
        self._draw_batch()  # (a seeded source: after the batch it holds, as always)
        for value in values:
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise ValueError(f"a die shows 1 to 6, not {value!r}")
            self.history.append(value)

    def roll(self) -> int:
        """The next die."""
        if self._pos >= len(self.history):
            faces = self._faces()
            if faces is None:
                raise NeedDice()
            if self._pos >= self._batch_end:  # a new batch (drawn a chunk at a time)
                self._batch_end = self._pos + _BATCH
            self.history.extend(faces.choices(_FACES, k=min(_CHUNK, self._batch_end - self._pos)))
        value = self.history[self._pos]
        self._pos += 1
        return value

    def roll_many(self, count: int, batch: object = None) -> list[int]:
        """`count` dice drawn at once. `batch` says what they are for (an attack's plan, a reroll's
        `minis.abilities.RerollBatch`) to a source that works out their outcomes instead of drawing
        them (the exact solver, `minis.ai.solver`); the values drawn never depend on it."""
        return [self.roll() for _ in range(count)]

    def mark(self) -> int:
        """A position to come back to with `restore` (values after it are handed out again)."""
        return self._pos

    def restore(self, mark: int) -> None:
        if not 0 <= mark <= len(self.history):
            raise ValueError(f"no such dice position {mark}")
        self._pos = mark

    def drawn_since(self, mark: int) -> list[int]:
        """The values handed out after `mark` (what an action consumed, for the record)."""
        return self.history[mark : self._pos]

    def fork(self) -> Dice:
        """An independent source for trying things out: a scripted copy keeps the unused values;
        a seeded one continues with a generator derived from this one's seed and position."""
        if self._scripted:
            return Dice(script=self.unused())
        twin = Dice(seed=(self.seed or 0) * 1_000_003 + self._pos, keyed=self.keyed)
        twin.history = self.unused()
        twin._batch_end = len(twin.history)  # its own batches begin after the values it inherits
        return twin

    def skip(self, count: int) -> None:
        """Hand out and forget `count` values (continue a seeded sequence from a known position)."""
        for _ in range(count):
            self.roll()

    def __repr__(self) -> str:
        kind = "scripted" if self.is_scripted else f"seed={self.seed}"
        return f"Dice({kind}, used={self._pos}, remaining={self.remaining()})"
