"""Bookkeeping across actions kept by name: once per game (`GameState.used`), for the rest of a turn or
this phase (`GameState.notes`).

Values are immutable and replaced, never changed in place (clones share them), keyed by names of their own
(an ability's id, the activation's). A note is (scope, items): it goes stale by itself when its turn or
phase ends.
"""

from __future__ import annotations

from collections.abc import Hashable

from minis.state import GameState, Note, PhaseKey


def phase_key(state: GameState) -> PhaseKey:
    """Identifies the current phase of the current turn (a flag set in another phase is stale)."""
    # `_value_` is the member's value as a plain attribute (`.value` is a slower descriptor): asked on
    # every action by the activation bookkeeping.
    active = state.active
    return (state.turn, state.phase._value_, active._value_ if active is not None else "")


def _scoped(state: GameState, name: str, key: int | PhaseKey) -> frozenset[Hashable]:
    entry = state.notes.get(name)
    if entry is not None and entry[0] == key:
        return entry[1]
    return frozenset()


def _scoped_add(state: GameState, name: str, key: int | PhaseKey, item: Hashable) -> None:
    notes = state.notes
    entry = notes.get(name)  # `_scoped`, inlined: a unit's every action is noted
    if entry is not None and entry[0] == key:
        note = _new_note(Note, (key, entry[1].union((item,))))
    else:
        note = _new_note(Note, (key, frozenset((item,))))
    state.notes = {**notes, name: note}  # replaced: clones share the mapping


#: A `Note` made without the named tuple's Python `__new__` (a C call): one is made on almost every action.
_new_note = tuple.__new__


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
    return (name, unit_id) in state.used


def mark_used(state: GameState, name: str, unit_id: str) -> None:
    state.used = state.used | {(name, unit_id)}
