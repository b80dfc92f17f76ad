"""Writing map files back in the canonical layout (`dump`), and boards as map documents or text lines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from minis.base.tomlfile import toml_string
from minis.board import Board
from minis.hexgrid import Hex, is_indented, row_letters
from minis.mapfile.documents import HALF_SIDES, Configuration, Document, MapDoc, Section


def dump_grid(rows: Sequence[str], shift: int = 0) -> str:
    """Rows of letters as grid text: letters separated by one space, an indented row starts with one."""
    return "".join(
        (" " if is_indented(y, shift) else "") + " ".join(row) + "\n" for y, row in enumerate(rows)
    )


def _dump_list(key: str, entries: Sequence[Sequence[str]]) -> str:
    if not entries:
        return ""
    lines = "".join(f"    {toml_string(' '.join(entry))},\n" for entry in entries)
    return f"{key} = [\n{lines}]\n"


def _header(notes: Sequence[str], kind: str, title: str) -> str:
    text = "".join(f"{line}\n" for line in notes)
    text += "\n" if notes else ""
    text += f'kind = "{kind}"\n'
    return text + (f"title = {toml_string(title)}\n" if title else "")


def _terrain(rows: Sequence[str], shift: int = 0) -> str:
    return f'terrain = """\n{dump_grid(rows, shift)}"""\n'


def _links(document: Document) -> str:
    return _dump_list("roads", document.roads) + _dump_list("streams", document.streams)


def _objective(objective: str | None) -> str:
    return f"objective = {toml_string(objective)}\n" if objective is not None else ""


def dump(document: Document) -> str:
    """A document as canonical file text: what the project's map files look like, byte for byte."""
    if isinstance(document, Section):
        text = (
            _header(document.notes, "section", document.title) + _terrain(document.terrain) + _links(document)
        )
        halves = {side: getattr(document, side) for side in HALF_SIDES}
        if any(set(letters) != {"C"} for letters in halves.values()):
            text += "\n[half-hexes]\n"
            text += "".join(
                f"{side} = {toml_string(' '.join(letters))}\n" for side, letters in halves.items()
            )
        return text
    if isinstance(document, Configuration):
        text = _header(document.notes, "configuration", "")
        text += f"number = {document.number}\n" if document.number is not None else ""
        text += f"title = {toml_string(document.title)}\n" if document.title else ""
        text += "".join(f"{q} = {toml_string(str(p))}\n" for q, p in document.placements().items())
        return text + _objective(document.objective) + _links(document)
    text = _header(document.notes, "map", document.title) + _terrain(document.terrain, document.shift)
    return text + _links(document) + _objective(document.objective)


def board_rows(board: Board) -> tuple[str, ...]:
    """The terrain letters of a board's full hexes, row by row (west to east)."""
    return tuple("".join(board.terrain(h).value for h in board.row(r)) for r in range(board.rows))


def terrain_lines(board: Board) -> list[str]:
    """The board as in the reference: row letter, a space, one more for an indented row, the letters."""
    width = len(row_letters(board.rows - 1))
    return [
        f"{row_letters(r):<{width}} " + (" " if board.is_indented(r) else "") + " ".join(letters)
        for r, letters in enumerate(board_rows(board))
    ]


def _chain(links: Iterable[frozenset[Hex]], order: Callable[[Hex], Any]) -> list[list[Hex]]:
    """Join road links into as few paths as a simple greedy walk finds (for writing a map file)."""
    remaining = {link for link in links}
    paths = []
    while remaining:
        degree: dict[Hex, int] = {}
        for link in remaining:
            for h in link:
                degree[h] = degree.get(h, 0) + 1
        start = min(degree, key=lambda h: (degree[h] != 1, order(h)))
        path = [start]
        while True:
            options = sorted(
                (link for link in remaining if path[-1] in link),
                key=lambda link: order(next(iter(link - {path[-1]}))),
            )
            if not options:
                break
            link = options[0]
            remaining.discard(link)
            path.append(next(iter(link - {path[-1]})))
        paths.append(path)
    return paths


def map_document(board: Board, *, title: str | None = None) -> MapDoc:
    """A board as a free map document (for saving a board, e.g. from the editor).

    A free map has no half-hexes, so they and any road or stream touching them are left out.
    """
    full = set(board.hexes)
    lengths = {r: len(board.row(r)) for r in range(board.rows)}
    for r in range(board.rows):
        row = board.row(r)
        xs = [board.doubled_of(h)[0] for h in row]
        indent = 1 if board.is_indented(r) else 0
        if xs != list(range(indent, indent + 2 * len(row), 2)):
            raise ValueError(
                f"row {row_letters(r)} has gaps or does not start at the west edge; "
                f"a map file cannot hold it ({lengths})"
            )
    order = board.index
    roads = _chain((link for link in board.roads if link <= full), order)
    streams = sorted(
        (sorted(side, key=order) for side in board.streams if side <= full),
        key=lambda pair: (order(pair[0]), order(pair[1])),
    )
    return MapDoc(
        terrain=board_rows(board),
        shift=board.shift,
        title=board.name if title is None else title,
        roads=tuple(tuple(board.label(h) for h in path) for path in roads),
        streams=tuple((f"{board.label(a)}/{board.label(b)}",) for a, b in streams),
        objective=board.label(board.objective) if board.objective is not None else None,
    )
