"""The rules' speed caches, in one place: where they live and the switch that turns them all off.

What a cache derives from a board (its lookups, sight answers, move plans and searches) is kept on the
board itself (`Board.derived`), so it dies with the board and needs no bound. The few kept at module
level describe a card type, an ability class or a pair of hexes, never a battle (docs/engine.md).

Every cache's getter reads `enabled`: with `off()` every answer is worked out afresh, so a test can play
the same games with and without the caches and compare every event (tests/test_caches_equivalence.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from minis.board import Board

T = TypeVar("T")

#: False inside `off()`: every cache is bypassed.
enabled = True


@contextmanager
def off() -> Iterator[None]:
    """Every rules and bot cache bypassed inside the block (for the equivalence test)."""
    global enabled
    before = enabled
    enabled = False
    try:
        yield
    finally:
        enabled = before


def kept(board: Board, build: Callable[[Board], T]) -> T:
    """What `build` derives from `board`, kept on the board (made afresh every time with caches off)."""
    if enabled:
        return board.derived(build)
    return build(board)
