"""Zones of the battle map named by the battle's terms: where a side deploys, which edge it leaves by.

A zone is a depth (the first N full hexes of every row at a player's end), "half" (its half of the map)
or hexes: entries of labels and row ranges such as "A1-A5" (`minis.engine.terms.Zone`).
"""

from __future__ import annotations

import re

from minis.board import ZONE_DEPTH, Board
from minis.engine.terms import HALF, Zone
from minis.hexgrid import Hex

_RANGE = re.compile(r"^([A-Za-z]+)([0-9]+)-(?:([A-Za-z]+))?([0-9]+)$")
#: A hex label as a zone token spells it (any case).
LABEL = re.compile(r"^([A-Za-z]+)([0-9]+)$")


def zone_hexes(board: Board, zone: Zone, end: str) -> frozenset[Hex]:
    """The hexes of a zone on `board` for a player at `end` (labels that name nothing are skipped)."""
    if zone == HALF:
        return board.half_of_map(end)
    if zone == ZONE_DEPTH:
        return board.deployment_zone(end)
    if isinstance(zone, int):
        hexes: set[Hex] = set()
        for r in range(board.rows):
            row = board.row(r)
            hexes.update(row[:zone] if end == "west" else row[max(0, len(row) - zone) :])
        return frozenset(hexes)
    assert isinstance(zone, tuple)
    found: set[Hex] = set()
    for entry in zone:
        for _, token in tokens(entry):
            try:
                found.update(expand_token(board, token))
            except ValueError:
                continue
    return frozenset(found)


def expand_token(board: Board, token: str) -> list[Hex]:
    """The hexes a zone token names: a label, or a range of one row (`B1-B5`); ValueError otherwise."""
    match = _RANGE.match(token)
    if not match:
        return [board.parse(token)]
    problem = token_problem(token)
    if problem:
        raise ValueError(problem)
    letters, first, _, last = match.groups()
    low, high = int(first), int(last)
    row = letters.upper()
    start, end = board.parse(f"{row}{low}"), board.parse(f"{row}{high}")
    return [h for h in board.row(start.r) if start.q <= h.q <= end.q]


def token_problem(token: str) -> str:
    """What is wrong with a zone token's form ('' if nothing): a label, or a range within one row."""
    if LABEL.match(token):
        return ""
    match = _RANGE.match(token)
    if not match:
        return f"'{token}' is not a hex label or a row range"
    letters, first, other, last = match.groups()
    if other is not None and other.upper() != letters.upper():
        return f"the range {token.upper()} spans two rows; a range stays in one row"
    if int(first) > int(last):
        row = letters.upper()
        return f"the range {token.upper()} runs backwards; write {row}{last}-{row}{first}"
    return ""


def tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def edge_hexes(board: Board, end: str) -> frozenset[Hex]:
    """The full hexes on the map's `end` edge (the first or last of every row): where units get off."""
    hexes = set()
    for r in range(board.rows):
        row = board.row(r)
        if row:
            hexes.add(row[0] if end == "west" else row[-1])
    return frozenset(hexes)


def hexes_text(board: Board, hexes: frozenset[Hex], most: int = 6) -> str:
    """A few hexes by label, in reading order, for a message: 'D4 D5 E4 ...' past `most`."""
    names = " ".join(board.label(h) for h in sorted(hexes, key=lambda h: (h.r, h.q))[:most])
    return names + (" ..." if len(hexes) > most else "")
