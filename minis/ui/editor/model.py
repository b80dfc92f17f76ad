"""What the map editor edits, and every edit it can make, with undo, redo, live problems and saving.

No arcade here: the window (`view.py`) turns mouse and keys into these calls, and the tests can drive
the model directly too.

The editor edits *documents* (`minis.mapfile.MapDoc`, `Section`, `Configuration`, and a
`minis.engine.scenario.ScenarioDoc`), not boards: a road is added to the end of the road it continues, a
stream side to the stream it touches, a painted hex changes one letter of its row. So a saved file
changes only where the designer changed something and reads well in a diff, and a file that was not
changed is written back exactly as it was read.

Features may point off the map for a while (after the map is made smaller, say): they are kept as
the file would say them, and the live problems say what is wrong, with the same messages as
`minis map check`, until the designer fixes them (or `tidy` drops them).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from minis.base.atomic import finish_interrupted_save, write_atomic_files
from minis.base.errors import MinisError, Problem, unreadable
from minis.base.limits import MAX_MAP_COLUMNS, MAX_MAP_ROWS
from minis.board import ENDS, ZONE_DEPTH, Board
from minis.engine.scenario import (
    CHOOSE,
    HALF_ZONE,
    OWN,
    Condition,
    Force,
    ScenarioDoc,
    dump_scenario,
    is_scenario_text,
    parse_scenario_doc,
    scenario_from_text,
    zone_entries,
)
from minis.hexgrid import Facing, Hex, distance, from_doubled, row_index, row_letters
from minis.mapfile import (
    FULL,
    HALF,
    SECTION_ROWS,
    Configuration,
    Document,
    MapDoc,
    Placement,
    Section,
    assemble,
    assembled_frame,
    dump,
    load_configuration,
    load_section,
    parse_document,
    read_text,
    section_frame,
)
from minis.rules.zones import expand_token, hexes_text, zone_hexes
from minis.terrain import Terrain

LETTERS = tuple(t.value for t in Terrain)
UNTITLED = "untitled.toml"
#: The size `minis edit` starts a new map with: that of the starter battle maps.
NEW_ROWS, NEW_COLUMNS = 11, 16
MAX_ROWS, MAX_COLUMNS = MAX_MAP_ROWS, MAX_MAP_COLUMNS  # the one limit of every map file (minis.base.limits)

_LABEL = re.compile(r"^([A-Z]+)([0-9]{1,6})(?::(NE|NW|SE|SW|E|W))?$")


# --- labels in a document's frame ----------------------------------------------------------------


@attrs.frozen
class Frame:
    """The hexes a document's labels can name (full, half and, for sections, beyond the edge)."""

    shift: int
    cells: Mapping[Hex, str]

    def resolve(self, token: str) -> Hex | None:
        """The hex a label names (`B3`, `B0`, `A3:NW`), or None if it names nothing in this frame."""
        match = _LABEL.match(token.strip().upper())
        if not match:
            return None
        letters, number, facing = match.groups()
        row = row_index(letters)
        x = 2 * (int(number) - 1) + (1 if (row + self.shift) % 2 == 1 else 0)
        hex_ = from_doubled(x, row, self.shift)
        if facing:
            hex_ = hex_ + Facing[facing].value
        return hex_ if hex_ in self.cells else None

    def name(self, hex_: Hex) -> str:
        """The label of any hex of the frame (`A3:NW` for one north of row A)."""
        if hex_.r < 0:
            return f"{self.name(hex_ + Facing.SE.value)}:NW"
        x = 2 * hex_.q + hex_.r + self.shift
        indent = 1 if (hex_.r + self.shift) % 2 == 1 else 0
        return f"{row_letters(hex_.r)}{(x - indent) // 2 + 1}"

    def side(self, token: str) -> frozenset[Hex] | None:
        """The hexside a stream token names (`B2/B3` or `B2/SE`), or None."""
        parts = token.split("/")
        if len(parts) != 2:
            return None
        a = self.resolve(parts[0])
        if a is None:
            return None
        second = parts[1].strip().upper()
        b = a + Facing[second].value if second in Facing.__members__ else self.resolve(second)
        if b is None or b not in self.cells or distance(a, b) != 1:
            return None
        return frozenset((a, b))

    def links(self, road: Sequence[str]) -> list[frozenset[Hex]]:
        hexes = [self.resolve(token) for token in road]
        return [
            frozenset((a, b))
            for a, b in itertools.pairwise(hexes)
            if a is not None and b is not None and distance(a, b) == 1
        ]


def _grid_terrain(rows: Sequence[str], shift: int) -> dict[Hex, Terrain]:
    cells = {}
    for y, letters in enumerate(rows):
        indent = 1 if (y + shift) % 2 == 1 else 0
        for n, letter in enumerate(letters):
            cells[from_doubled(2 * n + indent, y, shift)] = Terrain(letter)
    return cells


#: Where each half-hex letter of a section sits (section frame, doubled coordinates).
SECTION_HALVES: dict[str, list[Hex]] = {
    "north": [from_doubled(2 * k + 1, -1) for k in range(7)],
    "south": [from_doubled(2 * k + 1, 5) for k in range(7)],
    "west": [from_doubled(-1, 1), from_doubled(-1, 3)],
    "east": [from_doubled(15, 1), from_doubled(15, 3)],
}


def frame_of(document: Document) -> Frame:
    if isinstance(document, MapDoc):
        return Frame(document.shift, dict.fromkeys(_grid_terrain(document.terrain, document.shift), FULL))
    if isinstance(document, Section):
        return Frame(0, section_frame())
    return Frame(0, assembled_frame())


def _keep(links: Iterable[frozenset[Hex]], cells: Iterable[Hex]) -> set[frozenset[Hex]]:
    inside = set(cells)
    return {link for link in links if link <= inside}


def _doc_links(document: Document, frame: Frame) -> tuple[set[frozenset[Hex]], set[frozenset[Hex]]]:
    roads = {link for road in document.roads for link in frame.links(road)}
    streams = {side for entry in document.streams for token in entry if (side := frame.side(token))}
    return roads, streams


def board_of(document: Document, sections: Path | None = None) -> Board:
    """The board a document draws, built leniently: features that name nothing are left out.

    MinisError only when there is nothing to draw (a configuration whose sections cannot be read).
    """
    frame = frame_of(document)
    roads, streams = _doc_links(document, frame)
    if isinstance(document, MapDoc):
        terrain = _grid_terrain(document.terrain, document.shift)
        objective = frame.resolve(document.objective) if document.objective else None
        return Board.create(
            terrain,
            roads=_keep(roads, terrain),
            streams=_keep(streams, terrain),
            objective=objective,
            shift=document.shift,
            name=document.title,
        )
    if isinstance(document, Section):
        terrain = {h: Terrain.CLEAR for h, kind in frame.cells.items() if kind == HALF}
        terrain.update(_grid_terrain(document.terrain, 0))
        for side, hexes in SECTION_HALVES.items():
            for hex_, letter in zip(hexes, getattr(document, side), strict=True):
                terrain[hex_] = Terrain(letter)
        halves = {h for h, kind in frame.cells.items() if kind == HALF}
        return Board.create(
            terrain,
            half_hexes=halves,
            roads=_keep(roads, terrain),
            streams=_keep(streams, terrain),
            name=document.title or document.name,
        )
    folder = sections or Path(".")
    loaded = {p.section: load_section(folder / f"{p.section}.toml") for p in document.placements().values()}
    base = assemble(attrs.evolve(document, roads=(), streams=(), objective=None), loaded)
    cells = base.terrain_map().keys()
    objective = frame.resolve(document.objective) if document.objective else None
    return base.replace(
        roads=base.roads | _keep(roads, cells),
        streams=base.streams | _keep(streams, cells),
        objective=objective if objective in base else None,
        name=document.title,
    )


# --- editing road and stream lists ---------------------------------------------------------------


def add_road(roads: tuple[tuple[str, ...], ...], frame: Frame, a: Hex, b: Hex) -> tuple[tuple[str, ...], ...]:
    """The roads with the link a-b: it extends a road that ends (or starts) at a or b, else a new road."""
    name_a, name_b = frame.name(a), frame.name(b)
    for i, road in enumerate(roads):
        last = frame.resolve(road[-1]) if road else None
        if last in (a, b):
            extended = (*road, name_b if last == a else name_a)
            return (*roads[:i], extended, *roads[i + 1 :])
    for i, road in enumerate(roads):
        first = frame.resolve(road[0]) if road else None
        if first in (a, b):
            extended = (name_b if first == a else name_a, *road)
            return (*roads[:i], extended, *roads[i + 1 :])
    return (*roads, (name_a, name_b))


def remove_road(
    roads: tuple[tuple[str, ...], ...], frame: Frame, a: Hex, b: Hex
) -> tuple[tuple[str, ...], ...]:
    """The roads without the link a-b: a road through it splits in two (pieces of one hex vanish)."""
    link = frozenset((a, b))
    result: list[tuple[str, ...]] = []
    for road in roads:
        hexes = [frame.resolve(token) for token in road]
        piece: list[str] = [road[0]] if road else []
        for k in range(1, len(road)):
            if hexes[k - 1] is not None and frozenset((hexes[k - 1], hexes[k])) == link:
                if len(piece) >= 2:
                    result.append(tuple(piece))
                piece = [road[k]]
            else:
                piece.append(road[k])
        if len(piece) >= 2 or (piece and len(road) < 2):
            result.append(tuple(piece))
    return tuple(result)


def sides_touch(p: frozenset[Hex], q: frozenset[Hex]) -> bool:
    """True when two hexsides meet at a corner (a stream can run from one to the other)."""
    common = p & q
    if len(common) != 1:
        return False
    (x,) = p - common
    (y,) = q - common
    return distance(x, y) == 1


def add_stream(
    streams: tuple[tuple[str, ...], ...], frame: Frame, a: Hex, b: Hex
) -> tuple[tuple[str, ...], ...]:
    """The streams with the side a/b: appended to a stream whose last side it touches, else a new one."""
    side = frozenset((a, b))
    token = f"{frame.name(a)}/{frame.name(b)}"
    for i, entry in enumerate(streams):
        last = frame.side(entry[-1]) if entry else None
        if last is not None and sides_touch(last, side):
            return (*streams[:i], (*entry, token), *streams[i + 1 :])
    for i, entry in enumerate(streams):
        first = frame.side(entry[0]) if entry else None
        if first is not None and sides_touch(first, side):
            return (*streams[:i], (token, *entry), *streams[i + 1 :])
    return (*streams, (token,))


def remove_stream(
    streams: tuple[tuple[str, ...], ...], frame: Frame, a: Hex, b: Hex
) -> tuple[tuple[str, ...], ...]:
    side = frozenset((a, b))
    result = []
    for entry in streams:
        kept = tuple(token for token in entry if frame.side(token) != side)
        if kept:
            result.append(kept)
    return tuple(result)


# --- the editor ----------------------------------------------------------------------------------


@attrs.frozen
class Snapshot:
    """Everything one undo step restores: the map document and the scenario document."""

    map: Document | None
    scenario: ScenarioDoc | None


class EditError(Exception):
    """An edit that cannot be made; the message says why (shown in the editor's status line)."""


_KEY_AT = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _key_above(lines: Sequence[str], index: int) -> tuple[str | None, int]:
    """The key whose value holds line `index` (the nearest `key =` line at or above it), and its line."""
    for i in range(index, -1, -1):
        match = _KEY_AT.match(lines[i])
        if match:
            return match.group(1), i
        if lines[i].lstrip().startswith("["):
            return None, i
    return None, 0


def _token_at(line: str, col: int) -> tuple[str | None, list[str]]:
    """The word of a quoted string at column `col` (from 1), and the words before it in that string."""
    for match in re.finditer(r'"([^"]*)"', line):
        start, end = match.start(1), match.end(1)
        if start - 1 <= col - 1 <= end:
            words = [(m.start() + start, m.group()) for m in re.finditer(r"\S+", match.group(1))]
            before = [w for at, w in words if at + len(w) < col - 1]
            here = [w for at, w in words if at <= col - 1]
            return (here[-1] if here else (words[0][1] if words else None)), before
    return None, []


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _replace_letter(row: str, n: int, letter: str) -> str:
    return row[:n] + letter + row[n + 1 :]


def new_map(rows: int, columns: int, *, title: str = "", full_rows: bool = False) -> MapDoc:
    """An all-clear free map: `rows` rows, `columns` hexes in the long rows (indented: one fewer)."""
    if not 1 <= rows <= MAX_ROWS:
        raise ValueError(f"a map has 1 to {MAX_ROWS} rows, not {rows}")
    if not 2 <= columns <= MAX_COLUMNS:
        raise ValueError(f"a map has 2 to {MAX_COLUMNS} hexes in a row, not {columns}")
    short = columns if full_rows else columns - 1
    return MapDoc(terrain=tuple("C" * (columns if y % 2 == 0 else short) for y in range(rows)), title=title)


def default_depth(board: Board) -> int:
    """The depth of a new scenario's zones: the rulebook's five hexes, or less on a map too narrow for
    two such zones that don't overlap (at least one hex: `zone_overlap` then says what is wrong)."""
    for depth in range(ZONE_DEPTH, 1, -1):
        if not zone_hexes(board, depth, "west") & zone_hexes(board, depth, "east"):
            return depth
    return 1


def zone_overlap(board: Board, zones: Mapping[str, frozenset[Hex]]) -> str | None:
    """Which hexes two ends' zones share (None: none), as `minis edit --check` names them."""
    both = frozenset.intersection(*zones.values()) if len(zones) == 2 else frozenset()
    return hexes_text(board, both) if both else None


def scenario_template(title: str, map_ref: int | str, depth: int = ZONE_DEPTH) -> ScenarioDoc:
    """A new scenario for a map: sides at fixed ends, `depth`-hex zones, the Standard victory."""
    return ScenarioDoc(
        title=title or "New scenario",
        map=map_ref,
        forces=(("axis", Force(end="west", zone=depth)), ("allies", Force(end="east", zone=depth))),
        victory=VICTORY_PRESETS[0][1](("axis", "allies")),
        notes=("# A scenario made with the minis map editor.",),
    )


#: The victory conditions the editor offers (the V key cycles them); edit the file for anything else.
VICTORY_PRESETS: tuple[tuple[str, Callable[[Sequence[str]], tuple[Condition, ...]]], ...] = (
    (
        "objective from turn 7, then points after turn 10",
        lambda roles: (Condition("objective", from_turn=7), Condition("points", from_turn=10)),
    ),
    (
        "second player holds the objective until turn 10",
        lambda roles: (Condition("hold", turn=10, side=roles[1]),),
    ),
    (
        "first player gets 3 units off the enemy's end by turn 8",
        lambda roles: (Condition("exit", side=roles[0], units=3, by_turn=8),),
    ),
)


class Editor:
    """A map (free map, section or configuration) and maybe a scenario being edited.

    `map` is None when the scenario plays on a configuration by number or a rolled map: then the map
    shown (`base`) cannot be changed here, only the scenario's objective and zones.
    """

    def __init__(
        self,
        snapshot: Snapshot,
        *,
        map_path: Path | None = None,
        scenario_path: Path | None = None,
        texts: tuple[str | None, str | None] = (None, None),
        base: Board | None = None,
        sections: Path | None = None,
    ) -> None:
        self.state = snapshot
        self.saved = snapshot
        self.map_path = map_path
        self.scenario_path = scenario_path
        self.texts = texts  # the files' text as read (written back unchanged when nothing changed)
        self.base = base
        self.sections = sections
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []
        self._stroke: Snapshot | None = None
        self._board_cache: tuple[Snapshot, Board] | None = None
        self._problem_cache: tuple[Snapshot, list[Problem]] | None = None
        #: Files a save killed half-way had left, completed when this one was opened (to tell the user).
        self.recovered: list[Path] = []

    # --- opening ---------------------------------------------------------------------------------
    @classmethod
    def new(cls, rows: int = NEW_ROWS, columns: int = NEW_COLUMNS, *, title: str = "") -> Editor:
        return cls(Snapshot(new_map(rows, columns, title=title), None))

    @classmethod
    def open(cls, path: str | Path) -> Editor:
        """A map, section, configuration or scenario file; MinisError if it cannot be read."""
        path = Path(path)
        recovered = finish_interrupted_save(path)  # a scenario saved with its map by a killed editor
        text = read_text(path)
        if is_scenario_text(text):
            editor = cls._open_scenario(path, text)
        else:
            document = parse_document(text, str(path))
            sections = path.parent.parent / "sections" if isinstance(document, Configuration) else None
            editor = cls(Snapshot(document, None), map_path=path, texts=(text, None), sections=sections)
            editor.board  # noqa: B018 - a configuration whose sections are broken fails here, not later
        editor.recovered = recovered
        return editor

    @classmethod
    def _open_scenario(cls, path: Path, text: str) -> Editor:
        doc = parse_scenario_doc(text, str(path))
        file = doc.map_file
        if file is None:
            number = doc.map if isinstance(doc.map, int) else 1
            return cls(
                Snapshot(None, doc), scenario_path=path, texts=(None, text), base=load_configuration(number)
            )
        map_path = Path(file) if Path(file).is_absolute() else path.parent / file
        map_text = read_text(map_path)
        document = parse_document(map_text, str(map_path))
        if isinstance(document, Section):
            raise MinisError(Problem(str(path), 0, 0, f"{file} is a section, not a battle map"))
        sections = map_path.parent.parent / "sections" if isinstance(document, Configuration) else None
        return cls(
            Snapshot(document, doc),
            map_path=map_path,
            scenario_path=path,
            texts=(map_text, text),
            sections=sections,
        )

    # --- what is edited --------------------------------------------------------------------------
    @property
    def document(self) -> Document | None:
        return self.state.map

    @property
    def scenario(self) -> ScenarioDoc | None:
        return self.state.scenario

    @property
    def kind(self) -> str:
        document = self.document
        if isinstance(document, Section):
            return "section"
        if isinstance(document, Configuration):
            return "configuration"
        return "map" if document is not None else "scenario"

    @property
    def board(self) -> Board:
        """The board as drawn now (features that name nothing left out)."""
        if self._board_cache is None or self._board_cache[0] is not self.state:
            if self.document is None:
                assert self.base is not None
                board = self.base
            else:
                board = board_of(self.document, self.sections)
            self._board_cache = (self.state, board)
        return self._board_cache[1]

    @property
    def frame(self) -> Frame:
        assert self.document is not None
        return frame_of(self.document)

    @property
    def modified(self) -> bool:
        return self.state != self.saved

    @property
    def title(self) -> str:
        names = [p.name for p in (self.map_path, self.scenario_path) if p is not None]
        if self.document is not None and self.map_path is None:
            names.insert(0, UNTITLED)
        return " + ".join(names)

    # --- history ---------------------------------------------------------------------------------
    def begin(self) -> None:
        """Start a stroke: every change until `end` is one undo step."""
        if self._stroke is None:
            self._stroke = self.state

    def end(self) -> None:
        start, self._stroke = self._stroke, None
        if start is not None and start != self.state:
            self.undo_stack.append(start)
            self.redo_stack.clear()

    def _set(self, snapshot: Snapshot) -> bool:
        if snapshot == self.state:
            return False
        if self._stroke is None:
            self.undo_stack.append(self.state)
            self.redo_stack.clear()
        self.state = snapshot
        return True

    def undo(self) -> bool:
        self.end()
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.state)
        self.state = self.undo_stack.pop()
        return True

    def redo(self) -> bool:
        self.end()
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.state)
        self.state = self.redo_stack.pop()
        return True

    def _map(self, document: Document) -> bool:
        return self._set(attrs.evolve(self.state, map=document))

    def replace_map(self, document: Document) -> bool:
        """A whole-document edit (a configuration's sections swapped or turned): one undo step."""
        return self._map(document)

    def _scenario(self, doc: ScenarioDoc) -> bool:
        return self._set(attrs.evolve(self.state, scenario=doc))

    # --- edits -----------------------------------------------------------------------------------
    def _editable(self, what: str) -> Document:
        document = self.document
        if document is None:
            raise EditError(
                f"this scenario's map is a configuration, shared with other scenarios: {what} it there"
            )
        return document

    def paint(self, hex_: Hex, letter: str) -> bool:
        """Give a hex the terrain `letter` (full hexes; a section's half-hexes too)."""
        if letter not in LETTERS:
            raise EditError(f"unknown terrain letter {letter!r}")
        document = self._editable("paint")
        if isinstance(document, Configuration):
            raise EditError("terrain belongs to the sections: open a section file to paint it")
        if isinstance(document, MapDoc):
            frame = self.frame
            if hex_ not in frame.cells:
                return False
            n = int(frame.name(hex_)[len(row_letters(hex_.r)) :]) - 1
            rows = list(document.terrain)
            rows[hex_.r] = _replace_letter(rows[hex_.r], n, letter)
            return self._map(attrs.evolve(document, terrain=tuple(rows)))
        if 0 <= hex_.r < len(SECTION_ROWS):
            x = 2 * hex_.q + hex_.r
            n = (x - hex_.r % 2) // 2
            if 0 <= n < SECTION_ROWS[hex_.r]:
                rows = list(document.terrain)
                rows[hex_.r] = _replace_letter(rows[hex_.r], n, letter)
                return self._map(attrs.evolve(document, terrain=tuple(rows)))
        for side, hexes in SECTION_HALVES.items():
            if hex_ in hexes:
                letters = _replace_letter(getattr(document, side), hexes.index(hex_), letter)
                return self._map(document.with_halves(side, letters))
        raise EditError("the corner quarter-hexes of a section are always clear")

    def _check_pair(self, a: Hex, b: Hex) -> None:
        if distance(a, b) != 1:
            raise EditError("roads and streams join two neighbouring hexes")
        cells = self.board.terrain_map()
        if a not in cells or b not in cells:
            raise EditError("that is off the map")

    def road(self, a: Hex, b: Hex, add: bool = True) -> bool:
        """Add (or remove) the road link between neighbours a and b."""
        document = self._editable("draw roads on")
        self._check_pair(a, b)
        frame = self.frame
        link = frozenset((a, b))
        present = link in _doc_links(document, frame)[0]
        if add == present:
            if not add and link in self.board.roads:
                raise EditError("that road belongs to a section: open the section file to remove it")
            return False
        roads = add_road(document.roads, frame, a, b) if add else remove_road(document.roads, frame, a, b)
        return self._map(attrs.evolve(document, roads=roads))

    def stream(self, a: Hex, b: Hex, add: bool = True) -> bool:
        """Add (or remove) a stream on the hexside between neighbours a and b."""
        document = self._editable("draw streams on")
        self._check_pair(a, b)
        frame = self.frame
        side = frozenset((a, b))
        present = side in _doc_links(document, frame)[1]
        if add == present:
            if not add and side in self.board.streams:
                raise EditError("that stream belongs to a section: open the section file to remove it")
            return False
        streams = (
            add_stream(document.streams, frame, a, b) if add else remove_stream(document.streams, frame, a, b)
        )
        return self._map(attrs.evolve(document, streams=streams))

    def place_objective(self, hex_: Hex | None) -> bool:
        """Put the objective in `hex_` (None: take it away)."""
        board = self.board
        if hex_ is not None and not board.is_playable(hex_):
            raise EditError("the objective must be a full hex of the map")
        scenario = self.scenario
        document = self.document
        label = board.label(hex_) if hex_ is not None else None
        if scenario is not None and (scenario.objective not in (OWN, CHOOSE) or document is None):
            return self._scenario(attrs.evolve(scenario, objective=label or OWN))
        if document is None:
            raise EditError("there is no scenario to hold the objective")
        if isinstance(document, Section):
            raise EditError("a section has no objective: the configuration that uses it names one")
        return self._map(attrs.evolve(document, objective=label))

    def set_title(self, title: str) -> bool:
        """Name the map (free maps, sections, configurations): the `title` key."""
        document = self._editable("name")
        return self._map(attrs.evolve(document, title=_one_line(title)))

    def set_scenario_title(self, title: str) -> bool:
        """Name the scenario (one is made for the map if there is none yet)."""
        text = _one_line(title)
        if not text:
            raise EditError("a scenario needs a title")
        scenario = self.scenario or self._template()
        return self._scenario(attrs.evolve(scenario, title=text))

    def resize(self, rows: int = 0, columns: int = 0) -> bool:
        """Add (or remove, with negative numbers) rows at the south edge and hexes at the east edge."""
        document = self._editable("resize")
        if not isinstance(document, MapDoc):
            raise EditError(f"a {self.kind} has a fixed size: only free maps can be resized")
        terrain = list(document.terrain)
        count = len(terrain) + rows
        if not 1 <= count <= MAX_ROWS:
            raise EditError(f"a map has 1 to {MAX_ROWS} rows")
        long_rows = [len(r) for y, r in enumerate(terrain) if (y + document.shift) % 2 == 0]
        short_rows = [len(r) for y, r in enumerate(terrain) if (y + document.shift) % 2 == 1]
        long = (long_rows or [s + 1 for s in short_rows])[0]
        short = (short_rows or [long - 1])[0]
        long, short = long + columns, short + columns
        if long < 2 or short < 1 or long > MAX_COLUMNS:
            raise EditError(f"a map has 2 to {MAX_COLUMNS} hexes in a row")
        rows_out = []
        for y in range(count):
            width = long if (y + document.shift) % 2 == 0 else short
            old = terrain[y] if y < len(terrain) else ""
            rows_out.append((old + "C" * width)[:width])
        return self._map(attrs.evolve(document, terrain=tuple(rows_out)))

    def tidy(self) -> bool:
        """Drop the roads, streams and objective that name hexes no longer on the map."""
        document = self._editable("tidy")
        frame = self.frame
        cells = self.board.terrain_map().keys()
        roads: tuple[tuple[str, ...], ...] = ()
        for road in document.roads:
            for a, b in itertools.pairwise(road):
                ha, hb = frame.resolve(a), frame.resolve(b)
                if ha in cells and hb in cells and ha is not None and hb is not None:
                    roads = add_road(roads, frame, ha, hb)
        streams = tuple(
            kept
            for entry in document.streams
            if (kept := tuple(t for t in entry if (s := frame.side(t)) is not None and s <= cells))
        )
        if roads == document.roads:
            roads = document.roads  # roads all on the map stay as written
        tidied: Document
        if isinstance(document, Section):
            tidied = attrs.evolve(document, roads=roads, streams=streams)
        else:
            objective = document.objective
            if objective is not None and frame.resolve(objective) not in cells:
                objective = None
            tidied = attrs.evolve(document, roads=roads, streams=streams, objective=objective)
        changed = self._map(tidied)
        scenario = self.scenario
        if scenario is not None:  # zones listed hex by hex keep only the hexes still on the map
            board, ends = self.board, self.ends()
            for role, force in scenario.forces:
                if isinstance(force.zone, tuple):
                    hexes = frozenset(h for entry in force.zone for h in _clipped(board, entry))
                    zone = _zone_spec(board, hexes, ends[role])
                    scenario = scenario.with_force(role, attrs.evolve(force, zone=zone))
            changed = self._scenario(scenario) or changed
        return changed

    # --- the scenario ----------------------------------------------------------------------------
    def _template(self) -> ScenarioDoc:
        document = self.document
        if isinstance(document, Section):
            raise EditError("a section is a quarter of a battle map: scenarios are played on maps")
        title = getattr(document, "title", "") or ""
        if (
            isinstance(document, Configuration)
            and document.number is not None
            and self._shipped_configuration()
        ):
            map_ref: int | str = document.number
        else:
            map_ref = self.map_path.name if self.map_path is not None else UNTITLED
        return scenario_template(title, map_ref, default_depth(self.board))

    def ensure_scenario(self) -> ScenarioDoc:
        """The scenario, made from the template when there is none yet."""
        if self.scenario is None:
            self._scenario(self._template())
        assert self.scenario is not None
        return self.scenario

    def _shipped_configuration(self) -> bool:
        from minis.mapfile import MAPS_DIR

        return (
            self.map_path is not None
            and self.map_path.resolve().parent == (MAPS_DIR / "configurations").resolve()
        )

    def ends(self, scenario: ScenarioDoc | None = None) -> dict[str, str]:
        """Each role's end of the map as the editor shows it (first role west unless the file fixes it)."""
        scenario = scenario or self.scenario
        if scenario is None:
            return {}
        roles = [role for role, _ in scenario.forces]
        fixed = {role: force.end for role, force in scenario.forces if force.end is not None}
        if fixed:
            role, end = next(iter(fixed.items()))
            other = next(r for r in roles if r != role)
            return {role: end, other: "east" if end == "west" else "west"}
        return {roles[0]: "west", roles[1]: "east"}

    def role_at(self, end: str) -> str | None:
        return next((role for role, e in self.ends().items() if e == end), None)

    def zones(self) -> dict[str, frozenset[Hex]]:
        """Each end's deployment zone as shown: the scenario's, or the rulebook's for a bare map."""
        board = self.board
        scenario = self.scenario
        if isinstance(self.document, Section):
            return {}  # a quarter of a map has no ends
        if scenario is None:  # the zones a scenario made here would start with
            depth = default_depth(board)
            return {end: zone_hexes(board, depth, end) for end in ENDS}
        result = {}
        for role, end in self.ends().items():
            result[end] = zone_hexes(board, scenario.force(role).zone, end)
        return result

    def zone(self, end: str, hex_: Hex, add: bool = True) -> bool:
        """Add `hex_` to (or take it out of) the deployment zone at `end`.

        The first zone edit of a bare map makes a scenario for it (in the same undo step). Painting a
        zone fixes the players' ends; a hex added to one zone leaves the other.
        """
        board = self.board
        if not board.is_playable(hex_):
            raise EditError("deployment zones hold full hexes of the map")
        if isinstance(self.document, Section):
            raise EditError("a section has no deployment zones: they belong to a scenario on a whole map")
        scenario = self.scenario or self._template()
        ends = self.ends(scenario)
        role = next(name for name, e in ends.items() if e == end)
        for name, side_end in ends.items():
            force = scenario.force(name)
            if force.end != side_end:
                scenario = scenario.with_force(name, attrs.evolve(force, end=side_end))
        for name, name_end in ends.items():
            hexes = zone_hexes(board, scenario.force(name).zone, name_end)
            if name == role:
                wanted = hexes | {hex_} if add else hexes - {hex_}
            else:
                wanted = hexes - {hex_} if add else hexes
            if wanted != hexes:
                force = scenario.force(name)
                scenario = scenario.with_force(
                    name, attrs.evolve(force, zone=_zone_spec(board, wanted, name_end))
                )
        return self._scenario(scenario)

    def set_zone_depth(self, end: str, depth: int | str) -> bool:
        """Give the zone at `end` as a depth (its first `depth` full hexes of every row) or "half".

        Like painting a zone, it makes a scenario for a bare map and fixes the players' ends; zones that
        then overlap are a live problem, as they are in the file.
        """
        if isinstance(self.document, Section):
            raise EditError("a section has no deployment zones: they belong to a scenario on a whole map")
        board = self.board
        longest = max((len(board.row(r)) for r in range(board.rows)), default=0)
        if depth != HALF_ZONE and not (isinstance(depth, int) and 1 <= depth <= longest):
            raise EditError(f"a zone is 1 to {longest} hexes deep on this map, or half")
        scenario = self.scenario or self._template()
        ends = self.ends(scenario)
        for name, side_end in ends.items():
            force = scenario.force(name)
            zone = depth if side_end == end else force.zone
            if force.end != side_end or force.zone != zone:
                scenario = scenario.with_force(name, attrs.evolve(force, end=side_end, zone=zone))
        return self._scenario(scenario)

    def cycle_victory(self) -> str:
        """Switch the scenario's victory conditions to the next preset; returns its description."""
        scenario = self.scenario or self._template()
        roles = scenario.roles
        current = [make(roles) for _, make in VICTORY_PRESETS]
        index = current.index(scenario.victory) + 1 if scenario.victory in current else 0
        name, make = VICTORY_PRESETS[index % len(VICTORY_PRESETS)]
        self._scenario(attrs.evolve(scenario, victory=make(roles)))
        return name

    # --- live problems ---------------------------------------------------------------------------
    def map_file_name(self) -> str:
        return str(self.map_path) if self.map_path is not None else UNTITLED

    def scenario_file_name(self) -> str:
        if self.scenario_path is not None:
            return str(self.scenario_path)
        return str(self.default_scenario_path() or Path(UNTITLED).with_name("untitled-scenario.toml"))

    def default_scenario_path(self, map_path: Path | None = None) -> Path | None:
        """Where a scenario made here is saved: beside its map, `NAME-scenario.toml`.

        Not beside a configuration: configurations are found by their number in their folder, and a
        scenario there would be taken for a second configuration. Those go to the working folder.
        """
        map_path = map_path or self.map_path
        if map_path is None:
            return None
        name = f"{map_path.stem}-scenario.toml"
        return Path(name) if isinstance(self.document, Configuration) else map_path.with_name(name)

    def map_text(self) -> str | None:
        """The map file's text as it would be saved now (exactly as read, if nothing changed)."""
        if self.document is None:
            return None
        if self.state.map == self.saved.map and self.texts[0] is not None:
            return self.texts[0]
        return dump(self.document)

    def scenario_text(self) -> str | None:
        if self.scenario is None:
            return None
        if self.state.scenario == self.saved.scenario and self.texts[1] is not None:
            return self.texts[1]
        return dump_scenario(self.scenario)

    def problems(self) -> list[Problem]:
        """What `minis map check` (and the scenario check) would say about the files as they are now."""
        if self._problem_cache is not None and self._problem_cache[0] is self.state:
            return self._problem_cache[1]
        problems: list[Problem] = []
        text = self.map_text()
        if text is not None:
            file = self.map_file_name()
            try:
                document = parse_document(text, file)
                if isinstance(document, Configuration):
                    assert self.document is not None
                    board_of(attrs.evolve(document, roads=(), streams=()), self.sections)
            except MinisError as error:
                problems.extend(error.problems)
        scenario_text = self.scenario_text()
        overlap = zone_overlap(self.board, self.zones()) if self.scenario is None and text else None
        if overlap is not None:  # a bare map: no file says it, but no scenario could use these zones
            problems.append(
                Problem(
                    self.map_file_name(),
                    1,
                    1,
                    f"the map is too narrow for a deployment zone at each end: both hold {overlap}",
                    "add hexes to the rows (Ctrl+Right)",
                )
            )
        if scenario_text is not None:
            try:
                scenario_from_text(scenario_text, self.scenario_file_name(), board=self._checked_board())
            except MinisError as error:
                problems.extend(p for p in error.problems if p not in problems)
        self._problem_cache = (self.state, problems)
        return problems

    def _checked_board(self) -> Board | None:
        return self.board if self.document is not None else None

    def problem_hexes(self) -> set[Hex]:
        """The hexes the live problems point at, to mark them on the map."""
        found: set[Hex] = set()
        for problem in self.problems():
            found |= self.locate(problem)
        return found

    def locate(self, problem: Problem) -> set[Hex]:
        """The hexes of the map a problem is about, found from its line and column in the file.

        A road token that names no hex points at the last hex of that road on the map; a problem located
        at a key rather than a value (zones that overlap) at the hexes its message names.
        """
        texts = {self.map_file_name(): self.map_text(), self.scenario_file_name(): self.scenario_text()}
        text = texts.get(problem.file)
        if text is None or problem.line < 1:
            return set()
        lines = text.split("\n")
        if problem.line > len(lines):
            return set()
        key, key_line = _key_above(lines, problem.line - 1)
        line = lines[problem.line - 1]
        board = self.board
        document = self.document
        if key == "terrain" and key_line < problem.line - 1 and document is not None:
            row = problem.line - 2 - key_line
            n = (problem.col - 1 - (len(line) - len(line.lstrip(" ")))) // 2
            hex_ = self.frame.resolve(f"{row_letters(row)}{n + 1}") if row >= 0 and n >= 0 else None
            return {hex_} if hex_ is not None else set()
        token, before = _token_at(line, problem.col)
        if token is None:
            return self._named_hexes(problem.message)
        if key in ("roads", "streams") and problem.file == self.map_file_name() and document is not None:
            frame = self.frame
            if key == "streams":
                side = frame.side(token)
                return set(side) & board.terrain_map().keys() if side else set()
            for name in [token, *reversed(before)]:
                hex_ = frame.resolve(name)
                if hex_ is not None and hex_ in board.terrain_map():
                    return {hex_}
            return set()
        try:
            return set(expand_token(board, token))
        except ValueError:
            return self._named_hexes(problem.message) if key == "zone" else set()

    def _named_hexes(self, message: str) -> set[Hex]:
        """Hexes named in a message, leaving out the ranges it quotes (`row A runs from A1 to A13`)."""
        text = re.sub(r"runs? from \S+ to \S+", "", message)
        found = set()
        for token in re.findall(r"\b[A-Z]{1,2}[0-9]{1,3}\b", text):
            try:
                found.add(self.board.parse(token))
            except ValueError:
                continue
        return found

    # --- saving ----------------------------------------------------------------------------------
    def save(self, map_path: str | Path | None = None, scenario_path: str | Path | None = None) -> list[Path]:
        """Write the changed files; a file that did not change is written exactly as it was read.

        A scenario and its map are written together (`write_atomic_files`, the map first), so a save
        killed half-way leaves the old pair or, once opened again, the new one; never a mix.
        ValueError when the map has no file name yet (the window asks for one).
        """
        self.end()
        new_map_path = Path(map_path) if map_path is not None else self.map_path
        if self.document is not None and new_map_path is None:
            raise ValueError("the map needs a file name")
        scenario = self.scenario
        target = Path(scenario_path) if scenario_path is not None else self.scenario_path
        if scenario is not None:
            target = target or self.default_scenario_path(new_map_path)
            if target is None:
                raise ValueError("the scenario needs a file name")
            if self.document is not None and new_map_path is not None and isinstance(scenario.map, str):
                reference = Path(os.path.relpath(new_map_path.resolve(), target.resolve().parent)).as_posix()
                if scenario.map != reference:
                    scenario = attrs.evolve(scenario, map=reference)
                    self.state = attrs.evolve(self.state, scenario=scenario)
        map_text = self.map_text()
        scenario_text = self.scenario_text()
        map_file = new_map_path if self.document is not None and map_text is not None else None
        scenario_file = target if scenario is not None and scenario_text is not None else None
        candidates = (
            (map_file, map_text, self.map_path, self.state.map != self.saved.map),
            (scenario_file, scenario_text, self.scenario_path, self.state.scenario != self.saved.scenario),
        )
        files = [  # what changed, is saved under a new name, or is gone from the disk
            (path, text)
            for path, text, saved_as, changed in candidates
            if path is not None and text is not None and (changed or path != saved_as or not path.exists())
        ]
        _write_together(files)
        self.map_path = map_file or self.map_path
        self.scenario_path = scenario_file or self.scenario_path
        self.texts = (map_text, scenario_text)
        self.saved = self.state
        self._problem_cache = None
        return [path for path, _ in files]


def _write_together(files: Sequence[tuple[Path, str]]) -> None:
    """Write the files of one save together; a failure is the project's error (exit 2), not OSError."""
    try:
        write_atomic_files(files)
    except OSError as error:
        *others, (last, _) = files
        also = "".join(f" and {path}" for path, _ in others)
        raise unreadable(str(last), f"cannot write the file{also}: {error.strerror or error}") from None


def _clipped(board: Board, entry: str) -> list[Hex]:
    """The hexes of a zone entry that are on `board` (a range cut at the end of its row)."""
    hexes: list[Hex] = []
    for token in entry.split():
        match = re.match(r"^([A-Za-z]+)([0-9]+)(?:-(?:[A-Za-z]+)?([0-9]+))?$", token)
        if not match:
            continue
        letters, low, high = (
            match.group(1).upper(),
            int(match.group(2)),
            int(match.group(3) or match.group(2)),
        )
        row = row_index(letters)
        if not 0 <= row < board.rows:
            continue
        for hex_ in board.row(row):
            number = int(board.label(hex_)[len(letters) :])
            if low <= number <= high:
                hexes.append(hex_)
    return hexes


def _zone_spec(board: Board, hexes: frozenset[Hex], end: str) -> int | str | tuple[str, ...]:
    """The shortest way to write a zone: a depth, "half", or the hexes row by row."""
    longest = max((len(board.row(r)) for r in range(board.rows)), default=0)
    for depth in range(1, longest + 1):
        if zone_hexes(board, depth, end) == hexes:
            return depth
    if hexes == board.half_of_map(end):
        return HALF_ZONE
    return zone_entries(board, hexes)


def quadrant_of(hex_: Hex) -> str | None:
    """The quadrant (section) of an assembled configuration a hex lies in; None on a seam."""
    x, y = 2 * hex_.q + hex_.r, hex_.r
    if y == 5 or x == 15:
        return None
    return ("n" if y < 5 else "s") + ("w" if x < 15 else "e")


def cycle_section(document: Configuration, quadrant: str, names: Sequence[str], step: int) -> Configuration:
    """The configuration with the next (or previous) section file in `quadrant`."""
    placement: Placement = document.placements()[quadrant]
    index = names.index(placement.section) if placement.section in names else -1
    chosen = names[(index + step) % len(names)]
    return document.with_placement(quadrant, Placement(chosen, placement.turned))


def turn_section(document: Configuration, quadrant: str) -> Configuration:
    """The configuration with the section in `quadrant` turned 180 degrees (or back)."""
    placement: Placement = document.placements()[quadrant]
    return document.with_placement(quadrant, Placement(placement.section, not placement.turned))
