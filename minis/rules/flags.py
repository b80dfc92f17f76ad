"""Bookkeeping across actions in `GameState.flags`: once per game, for the rest of a turn, this phase.

Values are immutable (the state is cloned by shallow copy) and keyed by names of their own (an ability's
id, the activation). A scoped entry is (scope, items): it goes stale by itself when its turn or phase ends.
"""

from __future__ import annotations

from collections.abc import Hashable

from minis.state import GameState


def phase_key(state: GameState) -> tuple[int, str, str]:
    """Identifies the current phase of the current turn (a flag set in another phase is stale)."""
    # `_value_` is the member's value as a plain attribute (`.value` is a slower descriptor): asked on
    # every action by the activation bookkeeping.
    active = state.active
    return (state.turn, state.phase._value_, active._value_ if active is not None else "")


def _scoped(state: GameState, name: str, key: Hashable) -> frozenset[Hashable]:
    entry = state.flags.get(name)
    if isinstance(entry, tuple) and entry[0] == key and isinstance(entry[1], frozenset):
        return entry[1]
    return frozenset()


def _scoped_add(state: GameState, name: str, key: Hashable, item: Hashable) -> None:
    flags = state.flags
    entry = flags.get(name)  # `_scoped`, inlined: a unit's every action is noted
    if isinstance(entry, tuple) and entry[0] == key and isinstance(entry[1], frozenset):
        flags[name] = (key, entry[1].union((item,)))
    else:
        flags[name] = (key, frozenset((item,)))


def this_phase(state: GameState, name: str) -> frozenset[Hashable]:
    """The items recorded under `name` in the current phase."""
    return _scoped(state, name, phase_key(state))


def add_this_phase(state: GameState, name: str, item: Hashable) -> None:
    _scoped_add(state, name, phase_key(state), item)


def this_turn(state: GameState, name: str) -> frozenset[Hashable]:
    """The items recorded under `name` in the current turn."""
    return _scoped(state, name, state.turn)


def add_this_turn(state: GameState, name: str, item: Hashable) -> None:
    _scoped_add(state, name, state.turn, item)


def used_this_game(state: GameState, name: str, unit_id: str) -> bool:
    """True once a unit has used a once-per-game ability."""
    return bool(state.flags.get(f"{name}:{unit_id}"))


def mark_used(state: GameState, name: str, unit_id: str) -> None:
    state.flags[f"{name}:{unit_id}"] = True
