"""The map editor screen: a map to paint on the left, tools, problems and the scenario on the right.

Mouse: the left button applies the chosen tool (drag to paint many hexes, to draw a road from hex to
hex, or a stream along hexsides), the right button takes away (clear terrain, remove a road link or a
stream side, remove the objective, take hexes out of a zone). The middle button (or the Hand tool, or
the arrow keys) pans; the wheel zooms. Every stroke is one undo step.

Keyboard: the map has `MapView`'s keyboard cursor, moved by I J K M here (W and S are tools, L shows
the labels, the arrow keys pan). Space or Enter is the left button and Backspace or Delete the right
one, pressed on the cursor hex: holding one while the cursor steps drags it, so a keyboard stroke goes
through the very `stroke_begin` / `stroke_move` / `stroke_end` calls a mouse stroke makes.

All changes go through `model.Editor`; this module only turns input into its calls and draws.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Hashable
from pathlib import Path

import arcade
import attrs
from arcade.shape_list import ShapeElementList

from minis.base.errors import MinisError
from minis.board import Board
from minis.engine.scenario import HALF_ZONE, Condition
from minis.hexgrid import Hex, distance, neighbours
from minis.mapfile import Configuration, MapDoc, Section
from minis.ui import hexdraw, theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.editor.model import (
    NEW_COLUMNS,
    NEW_ROWS,
    VICTORY_PRESETS,
    EditError,
    Editor,
    cycle_section,
    quadrant_of,
    turn_section,
)
from minis.ui.editor.prompt import Prompt
from minis.ui.mapview import COMMAND_MODIFIERS, MapView
from minis.ui.mapview import CURSOR_KEYS as MAP_CURSOR_KEYS
from minis.ui.widgets import Box, Button, Label, Panel, Widget

PANEL_WIDTH = 320
HOVER = (255, 255, 255, 255)
PROBLEM = (230, 40, 40, 255)
#: A point counts as on a hexside when it is this close to it (in hex sizes).
SIDE_REACH = 0.3

#: (tool id, button text, key) in panel order. Terrain tools are the terrain letters.
TOOLS: tuple[tuple[str, str, int], ...] = (
    ("C", "1 Clear", arcade.key.KEY_1),
    ("F", "2 Forest", arcade.key.KEY_2),
    ("H", "3 Hill", arcade.key.KEY_3),
    ("T", "4 Town", arcade.key.KEY_4),
    ("M", "5 Marsh", arcade.key.KEY_5),
    ("P", "6 Pond", arcade.key.KEY_6),
    ("W", "7 Water", arcade.key.KEY_7),
    ("road", "R Road", arcade.key.R),
    ("stream", "S Stream", arcade.key.S),
    ("objective", "O Objective", arcade.key.O),
    ("west", "W West zone", arcade.key.W),
    ("east", "E East zone", arcade.key.E),
    ("hand", "H Hand", arcade.key.H),
)
#: The editor's cursor keys: the I J K M diamond (W A S D are taken: W and S are tools, L shows labels).
CURSOR_KEYS: dict[int, str] = {
    arcade.key.I: "up",
    arcade.key.M: "down",
    arcade.key.J: "left",
    arcade.key.K: "right",
}
#: Keys that press the left button (add) and the right button (take away) on the cursor hex.
ADD_KEYS = (arcade.key.SPACE, arcade.key.ENTER, arcade.key.NUM_ENTER)
REMOVE_KEYS = (arcade.key.BACKSPACE, arcade.key.DELETE)
TOOL_NAMES = {
    "C": "paint clear",
    "F": "paint forest",
    "H": "paint hill",
    "T": "paint town",
    "M": "paint marsh",
    "P": "paint pond",
    "W": "paint water",
    "road": "road: drag from hex to hex",
    "stream": "stream: drag along hexsides",
    "objective": "objective: click a hex",
    "west": "west deployment zone",
    "east": "east deployment zone",
    "hand": "hand: drag to pan",
}
#: What the keys do with each tool (said with the tool's name, so the keyboard way is found).
TOOL_KEYS = {
    "road": "Keys: hold Space and step to the next hex",
    "stream": "Keys: hold Space and step across the hexside",
    "objective": "Keys: Space on the cursor hex",
    "west": "Keys: Space adds, Backspace removes; D: the zone as a depth",
    "east": "Keys: Space adds, Backspace removes; D: the zone as a depth",
    "hand": "Keys: the arrow keys pan",
}
TERRAIN_KEYS = "Keys: Space paints the cursor hex; hold it and step to paint on"


@attrs.define
class Stroke:
    """A drag of the mouse, or a held key, with a tool: one undo step, whose refusals are told once."""

    add: bool  # the left button (Space, Enter) adds; the right one (Backspace, Delete) removes
    start: tuple[float, float]  # where it began, in world units
    point: tuple[float, float]  # where it is now
    hexes: list[Hex]  # the hexes it went over, in order
    key: int | None = None  # the key that holds a keyboard stroke
    told: bool = False  # a refusal of this stroke was shown already


class ShownBoard:
    """The board as the editor draws it: the editor's board with the scenario's deployment zones."""

    def __init__(self, board: Board, zones: dict[str, frozenset[Hex]]) -> None:
        self.board = board
        self.zones = zones

    # `hexdraw.BoardLike`, from the board, but for the zones
    @property
    def hexes(self) -> Collection[Hex]:
        return self.board.hexes

    @property
    def half_hexes(self) -> Collection[Hex]:
        return self.board.half_hexes

    @property
    def roads(self) -> Collection[frozenset[Hex]]:
        return self.board.roads

    @property
    def streams(self) -> Collection[frozenset[Hex]]:
        return self.board.streams

    @property
    def objective(self) -> Hex | None:
        return self.board.objective

    def terrain(self, hex_: Hex) -> object:
        return self.board.terrain(hex_)

    def label(self, hex_: Hex) -> str:
        return self.board.label(hex_)

    def is_bridge(self, a: Hex, b: Hex) -> bool:
        return self.board.is_bridge(a, b)

    def visible(self, a: Hex, b: Hex) -> bool:
        return self.board.visible(a, b)

    def deployment_zone(self, end: str) -> frozenset[Hex]:
        return self.zones.get(end, frozenset())


def nearest_side(board: Board, wx: float, wy: float) -> tuple[Hex, Hex] | None:
    """The hexside of the map nearest to world point (wx, wy), if the point is close to it."""
    hex_ = hexdraw.hex_at(wx, wy)
    cells = board.terrain_map()
    best: tuple[float, Hex] | None = None
    for other in neighbours(hex_):
        (ax, ay), (bx, by) = hexdraw.shared_edge(hex_, other)
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((wx - ax) * dx + (wy - ay) * dy) / (dx * dx + dy * dy)))
        gap = math.hypot(wx - (ax + t * dx), wy - (ay + t * dy))
        if best is None or gap < best[0]:
            best = (gap, other)
    if best is None or best[0] > SIDE_REACH * hexdraw.SIZE:
        return None
    other = best[1]
    if hex_ not in cells or other not in cells:
        return None
    return hex_, other


def hex_path(start: Hex, end: Hex) -> list[Hex]:
    """Neighbouring hexes from `start` to `end` (a fast mouse skips hexes; a road must not)."""
    path = [start]
    target = hexdraw.centre(end)
    while path[-1] != end:
        here = path[-1]

        def score(h: Hex, here: Hex = here) -> tuple[int, float]:
            cx, cy = hexdraw.centre(h)
            return (distance(h, end), math.hypot(cx - target[0], cy - target[1]))

        path.append(min(neighbours(here), key=score))
    return path


class EditorMap(MapView):
    """The map widget of the editor: strokes with the left and right buttons, panning with the middle;
    the keyboard cursor (I J K M) with Space/Enter and Backspace/Delete as the two buttons."""

    def __init__(self, window: arcade.Window, screen: EditorView) -> None:
        super().__init__(
            window, overlay=screen.draw_map_overlay, on_hover=lambda _: screen.hover_changed(), cursor=True
        )
        self.screen = screen
        self._pan = False
        self._button = 0

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.box.contains(x, y) or self.geometry is None:
            return False
        hex_ = self.hex_at(x, y)
        if hex_ is not None:
            self.cursor = hex_  # the keyboard goes on from the last click
        self._button = button
        self._pan = button == arcade.MOUSE_BUTTON_MIDDLE or self.screen.tool == "hand"
        if not self._pan:
            self.screen.stroke_begin(button, *self.screen_to_world(x, y))
        return True

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        if not self._button:
            return False
        if self._pan:
            self.pan(dx, dy)
        else:
            self.screen.stroke_move(*self.screen_to_world(x, y))
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self._button:
            return False
        if not self._pan:
            self.screen.stroke_end()
        self._button = 0
        self._pan = False
        return True

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        command = modifiers & COMMAND_MODIFIERS
        if symbol in CURSOR_KEYS and not command:
            self.move_cursor(CURSOR_KEYS[symbol])
            self.screen.cursor_moved()
            return True
        if symbol in ADD_KEYS or symbol in REMOVE_KEYS:
            if not command:
                self.screen.key_stroke_begin(symbol)
            return not command
        if symbol in MAP_CURSOR_KEYS:  # the battle maps' W A S D: tools or nothing here
            return False
        return super().on_shortcut(symbol, modifiers)


class EditorView(Screen):
    """The map editor. `path`: a map, section, configuration or scenario file (None: a new map)."""

    title = "Map editor"
    hint = (
        "1-6 terrain · R S O W E tools · I J K M cursor · Space/left adds, Backspace/right removes "
        "(hold and step: a stroke) · Ctrl+Z/Y undo/redo · Ctrl+S save · Ctrl+N new · Esc back"
    )
    short_hint = "1-6 R S O W E tools · I J K M cursor · Space adds · Backspace removes · Ctrl+Z/S · Esc"

    def __init__(self, window: MinisWindow, path: str | None = None) -> None:
        super().__init__(window)
        self.tool = "F"
        self.status = Label("", size=theme.SMALL_SIZE, multiline=True)
        self.editor = Editor.new()
        opening, bad = "", False  # what opening the file says: shown once the tool's hint is set
        if path is not None:
            try:
                self.editor = Editor.open(path)
                opening = self._recovery_note(self.editor)
            except MinisError as error:
                opening, bad = f"Cannot open {path}: {error.problems[0]}", True
        self.map = EditorMap(window, self)
        self.name = Label("", size=theme.TEXT_SIZE + 2, bold=True, colour=theme.ACCENT)
        self.kind = Label("", size=theme.SMALL_SIZE, colour=theme.TEXT_DIM)
        self.tool_buttons = {
            tool: Button(text, functools.partial(self.choose, tool), size=theme.SMALL_SIZE)
            for tool, text, _ in TOOLS
        }
        self.size_buttons = [
            Button("Rows -", lambda: self.resize(rows=-1), size=theme.SMALL_SIZE),
            Button("Rows +", lambda: self.resize(rows=1), size=theme.SMALL_SIZE),
            Button("Hexes -", lambda: self.resize(columns=-1), size=theme.SMALL_SIZE),
            Button("Hexes +", lambda: self.resize(columns=1), size=theme.SMALL_SIZE),
        ]
        self.action_buttons = [
            Button("Undo", self.undo, size=theme.SMALL_SIZE),
            Button("Redo", self.redo, size=theme.SMALL_SIZE),
            Button("Save", self.save, size=theme.SMALL_SIZE),
            Button("Tidy", self.tidy, size=theme.SMALL_SIZE),
        ]
        self.victory_button = Button("V Victory", self.cycle_victory, size=theme.SMALL_SIZE)
        self.depth_button = Button("D Depth", self.zone_depth, size=theme.SMALL_SIZE)
        self.scenario_title = Label("Scenario", size=theme.TEXT_SIZE, bold=True)
        self.scenario_text = Label("", size=theme.SMALL_SIZE, multiline=True)
        self.problem_title = Label("", size=theme.TEXT_SIZE, bold=True)
        self.problem_text = Label("", size=theme.SMALL_SIZE, multiline=True)
        self.hover_label = Label("", size=theme.SMALL_SIZE, colour=theme.TEXT_DIM)
        children: list[Widget] = [self.name, self.kind, *self.tool_buttons.values(), *self.size_buttons]
        children += [*self.action_buttons, self.victory_button, self.depth_button]
        children += [self.scenario_title, self.scenario_text]
        children += [self.problem_title, self.problem_text, self.status, self.hover_label]
        self.panel = Panel(children)
        self.widgets = [self.map, self.panel]
        self.prompt: Prompt | None = None
        self._stroke: Stroke | None = None
        self._shown: tuple[object, ShownBoard] | None = None
        self._geometry_key: object = None
        self._overlay_key: object = None
        self._overlay: ShapeElementList = ShapeElementList(blend=False)
        self._leaving = False
        if self.editor.kind in ("configuration", "scenario"):
            self.tool = "objective"  # their terrain is not painted here
        self.choose(self.tool)
        if opening:
            self.say(opening, bad)
        self.refresh(fit=True)

    # --- state shown -------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.editor.board

    def shown_board(self) -> ShownBoard:
        key = self.editor.state
        if self._shown is None or self._shown[0] is not key:
            self._shown = (key, ShownBoard(self.editor.board, self.editor.zones()))
        return self._shown[1]

    def refresh(self, fit: bool = False) -> None:
        """Rebuild the map's drawing if the document changed (the camera stays where it is)."""
        shown = self.shown_board()
        key = (self.editor.state, id(shown))
        self._update_texts()
        if key == self._geometry_key and not fit:
            return
        old = self.map.geometry
        self._geometry_key = key
        geometry = hexdraw.build(shown)
        if fit or old is None or old.edge != geometry.edge:
            self.map.set_geometry(geometry)
        else:
            self.map.geometry = geometry

    def say(self, text: str, bad: bool = False) -> None:
        self.status.text = text
        self.status.colour = theme.BAD if bad else theme.TEXT

    def _update_texts(self) -> None:
        editor = self.editor
        self.set_title(f"Map editor: {editor.title}{' *' if editor.modified else ''}")
        self.name.text = self._document_title()
        self.kind.text = self._kind_text()
        problems = editor.problems()
        if problems:
            self.problem_title.text = f"Problems ({len(problems)})"
            self.problem_title.colour = theme.BAD
            self.problem_text.text = self._fit_problems([str(p) for p in problems])
            self.problem_text.colour = theme.BAD
        else:
            self.problem_title.text = "No problems"
            self.problem_title.colour = theme.GOOD
            self.problem_text.text = "minis map check accepts " + (
                "these files." if editor.scenario else "this map."
            )
            self.problem_text.colour = theme.TEXT_DIM
        self.scenario_text.text = self._scenario_summary()
        resizable = isinstance(editor.document, MapDoc)
        for button in self.size_buttons:
            button.enabled = resizable
        self.action_buttons[0].enabled = bool(editor.undo_stack)
        self.action_buttons[1].enabled = bool(editor.redo_stack)

    def _fit_problems(self, lines: list[str]) -> str:
        """As many problems (file names shortened to the name) as fit the box, then how many more."""
        box = self.problem_text.box
        shown: list[str] = []
        for count, line in enumerate(lines):
            more = f"... and {len(lines) - count - 1} more" if count + 1 < len(lines) else ""
            short = line.split("/")[-1] if line.startswith("/") else line
            text = "\n".join([*shown, short, more]).strip()
            if shown and _text_height(text, box.width) > box.height:
                return "\n".join([*shown, f"... and {len(lines) - count} more"])
            shown.append(short)
        return "\n".join(shown)

    def _document_title(self) -> str:
        document = self.editor.document
        title = getattr(document, "title", "") if document is not None else ""
        if not title and isinstance(document, Section):
            title = document.name
        scenario = self.editor.scenario
        if scenario is not None and document is None:
            title = scenario.title
        return (title or "Untitled map")[:34]

    def _kind_text(self) -> str:
        editor = self.editor
        document = editor.document
        board = editor.board
        if isinstance(document, MapDoc):
            longest = max(len(row) for row in document.terrain)
            return f"free map: {len(document.terrain)} rows of {longest} hexes, {len(board.hexes)} hexes"
        if isinstance(document, Section):
            return "section: 5 rows (8, 7, 8, 7, 8) and half-hexes"
        if isinstance(document, Configuration):
            return "configuration: T turns a section, [ ] swaps it"
        scenario = editor.scenario
        assert scenario is not None
        return f"scenario on map {scenario.map}: objective and zones only"

    def _scenario_summary(self) -> str:
        scenario = self.editor.scenario
        if isinstance(self.editor.document, Section):
            return "Sections have none: scenarios are played on configurations and maps."
        if scenario is None:
            return "None yet: paint a zone (W or E) or press V to make one for this map."
        ends = self.editor.ends()
        sides = ", ".join(
            f"{role} {force.points} pts at the {ends.get(role, '?')} end" for role, force in scenario.forces
        )
        victory = "; ".join(_condition_text(c) for c in scenario.victory)
        presets = ", ".join(f"{u.id or u.card} ({u.side}) at {u.at}" for u in scenario.units)
        return f"{scenario.title}: {sides}.\nVictory: {victory}." + (
            f"\nOn the map: {presets}." if presets else ""
        )

    def look(self) -> Hashable:
        return (super().look(), self.prompt.look() if self.prompt else None)

    # --- layout ----------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        panel_width = min(PANEL_WIDTH, max(260, width // 4))
        panel = Box(width - panel_width - m, content.bottom + m, panel_width, content.height - 2 * m)
        self.panel.place(panel)
        self.map.place(Box(m, content.bottom + m, panel.left - 2 * m, content.height - 2 * m))
        inner = panel.inset(12)
        y = inner.top
        self.name.place(Box(inner.left, y - 24, inner.width, 24))
        y -= 26
        self.kind.place(Box(inner.left, y - 18, inner.width, 18))
        y -= 26
        columns, gap, row = 3, 6, 30
        cell = (inner.width - gap * (columns - 1)) / columns
        for i, button in enumerate(self.tool_buttons.values()):
            r, c = divmod(i, columns)
            button.place(Box(inner.left + c * (cell + gap), y - (r + 1) * (row + gap) + gap, cell, row))
        y -= 4 * (row + gap) + 6
        for buttons in (self.size_buttons, self.action_buttons):
            quarter = (inner.width - gap * 3) / 4
            for i, button in enumerate(buttons):
                button.place(Box(inner.left + i * (quarter + gap), y - row, quarter, row))
            y -= row + gap
        y -= 6
        self.scenario_title.place(Box(inner.left, y - 22, inner.width - 200, 22))
        self.depth_button.place(Box(inner.right - 194, y - 26, 84, 26))
        self.victory_button.place(Box(inner.right - 104, y - 26, 104, 26))
        y -= 32
        self.scenario_text.place(Box(inner.left, y - 72, inner.width, 72))
        y -= 80
        self.problem_title.place(Box(inner.left, y - 22, inner.width, 22))
        y -= 28
        status_height = 48
        bottom = inner.bottom + 24 + status_height
        self.problem_text.place(Box(inner.left, bottom, inner.width, max(40.0, y - bottom)))
        self.status.place(Box(inner.left, inner.bottom + 24, inner.width, status_height))
        self.hover_label.place(Box(inner.left, inner.bottom, inner.width, 20))
        if self.prompt is not None:
            self._place_prompt()

    def _place_prompt(self) -> None:
        assert self.prompt is not None
        width, height = self.app.get_size()
        self.prompt.place(Box(width / 2 - 260, height / 2 - 90, 520, 180))

    def draw_overlay(self) -> None:
        if self.prompt is not None:
            self.prompt.draw()

    # --- tools -----------------------------------------------------------------------------------
    def choose(self, tool: str) -> None:
        self.tool = tool
        for name, button in self.tool_buttons.items():
            button.selected = name == tool
        keys = TERRAIN_KEYS if len(tool) == 1 else TOOL_KEYS.get(tool, "Keys: Space adds, Backspace removes")
        self.say(f"Tool: {TOOL_NAMES[tool]}. {keys}.")

    def _apply(self, action: Callable[[], object]) -> None:
        try:
            action()
        except EditError as error:
            if self._stroke is None or not self._stroke.told:
                self.say(str(error), bad=True)
            if self._stroke is not None:
                self._stroke.told = True
        self.refresh()

    def stroke_begin(self, button: int, wx: float, wy: float) -> None:
        add = button != arcade.MOUSE_BUTTON_RIGHT
        self.editor.begin()
        hex_ = self._hex_at(wx, wy)
        self._stroke = Stroke(add, start=(wx, wy), point=(wx, wy), hexes=[hex_] if hex_ else [])
        if self.tool == "stream":
            self._stream_along(wx, wy, wx, wy)
        elif self.tool != "road" and hex_ is not None:
            self._hex_tool(hex_)

    def stroke_move(self, wx: float, wy: float) -> None:
        stroke = self._stroke
        if stroke is None:
            return
        px, py = stroke.point
        stroke.point = (wx, wy)
        if self.tool == "stream":
            self._stream_along(px, py, wx, wy)
            return
        hex_ = self._hex_at(wx, wy)
        hexes = stroke.hexes
        if hex_ is None or (hexes and hexes[-1] == hex_):
            return
        steps = hex_path(hexes[-1], hex_)[1:] if hexes else [hex_]
        for step in steps:
            previous = hexes[-1] if hexes else None
            hexes.append(step)
            if self.tool == "road":
                if (
                    previous is not None
                    and step in self.board.terrain_map()
                    and previous in self.board.terrain_map()
                ):
                    self._apply(functools.partial(self.editor.road, previous, step, add=stroke.add))
            elif self.tool not in ("objective", "hand"):
                self._hex_tool(step)

    def stroke_end(self) -> None:
        stroke = self._stroke
        if stroke is None:
            return
        if self.tool == "road" and len(stroke.hexes) <= 1:  # a click on a hexside: the road across it
            side = nearest_side(self.board, *stroke.start)
            if side is not None:
                self._apply(functools.partial(self.editor.road, *side, add=stroke.add))
        self.editor.end()
        self._stroke = None
        self.refresh()

    # --- the keyboard's strokes --------------------------------------------------------------------
    def key_stroke_begin(self, symbol: int) -> None:
        """Space/Enter or Backspace/Delete went down: the left or right button pressed on the cursor hex
        (a hidden cursor is only shown, as `MapView.click_cursor` does)."""
        if self._stroke is not None:
            return  # a stroke (the mouse's, or another key's) is under way
        cursor = self.map.cursor
        if not self.map.cursor_shown or cursor is None:
            self.map.click_cursor()
            return
        if self.tool == "hand":
            self.say("The hand drags the map with the mouse; the arrow keys pan it.")
            return
        button = arcade.MOUSE_BUTTON_RIGHT if symbol in REMOVE_KEYS else arcade.MOUSE_BUTTON_LEFT
        self.stroke_begin(button, *hexdraw.centre(cursor))
        if self._stroke is not None:
            self._stroke.key = symbol

    def cursor_moved(self) -> None:
        """The cursor stepped: with a stroke's key held, the stroke is dragged to the new hex."""
        stroke, cursor = self._stroke, self.map.cursor
        if stroke is not None and stroke.key is not None and cursor is not None:
            self.stroke_move(*hexdraw.centre(cursor))

    def on_key_release(self, symbol: int, modifiers: int) -> bool:
        if self._stroke is not None and self._stroke.key == symbol:
            self.stroke_end()
        return True

    def _hex_at(self, wx: float, wy: float) -> Hex | None:
        hex_ = hexdraw.hex_at(wx, wy)
        return hex_ if hex_ in self.board.terrain_map() else None

    def _hex_tool(self, hex_: Hex) -> None:
        add = self._stroke.add if self._stroke else True
        tool, editor = self.tool, self.editor
        if len(tool) == 1:
            self._apply(lambda: editor.paint(hex_, tool if add else "C"))
        elif tool == "objective":
            self._apply(lambda: editor.place_objective(hex_ if add else None))
        elif tool in ("west", "east") and self.board.is_playable(hex_):
            self._apply(lambda: editor.zone(tool, hex_, add))

    def _stream_along(self, ax: float, ay: float, bx: float, by: float) -> None:
        """Stream sides under the mouse's way from (ax, ay) to (bx, by), sampled finely."""
        steps = max(1, int(math.hypot(bx - ax, by - ay) / (0.15 * hexdraw.SIZE)))
        seen: set[frozenset[Hex]] = set()
        add = self._stroke.add if self._stroke else True
        for k in range(steps + 1):
            t = k / steps
            side = nearest_side(self.board, ax + (bx - ax) * t, ay + (by - ay) * t)
            if side is None or frozenset(side) in seen:
                continue
            seen.add(frozenset(side))
            self._apply(functools.partial(self.editor.stream, *side, add=add))

    # --- commands --------------------------------------------------------------------------------
    def undo(self) -> None:
        self.say("Undone." if self.editor.undo() else "Nothing to undo.")
        self.refresh()

    def redo(self) -> None:
        self.say("Redone." if self.editor.redo() else "Nothing to redo.")
        self.refresh()

    def resize(self, rows: int = 0, columns: int = 0) -> None:
        self._apply(lambda: self.editor.resize(rows=rows, columns=columns))
        self.refresh(fit=True)

    def tidy(self) -> None:
        try:
            changed = self.editor.tidy()
        except EditError as error:
            self.say(str(error), bad=True)
            return
        self.say("Dropped what lay off the map." if changed else "Nothing lies off the map.")
        self.refresh()

    def cycle_victory(self) -> None:
        try:
            name = self.editor.cycle_victory()
        except EditError as error:
            self.say(str(error), bad=True)
            return
        self.say(f"Victory: {name}.")
        self.refresh()

    def zone_depth(self) -> None:
        """Ask for the chosen zone's depth (a number of hexes from its end, or half)."""
        end = self.tool
        if end not in ("west", "east"):
            self.say("Choose a zone first (W or E); then D gives it as a depth.", bad=True)
            return
        role = self.editor.role_at(end)
        zone = self.editor.scenario.force(role).zone if self.editor.scenario and role else None
        self.ask(
            f"Depth of the {end} zone:",
            str(zone) if isinstance(zone, int | str) else "",
            functools.partial(self._zone_depth, end),
            "hexes from the end in every row (1, 2, ...), or half",
        )

    def _zone_depth(self, end: str, answer: str) -> None:
        text = answer.strip().lower()
        depth: int | str = int(text) if text.isdigit() else text
        said = "half the map" if text == HALF_ZONE else f"{text} hexes deep"
        self._answer(lambda: self.editor.set_zone_depth(end, depth), f"The {end} zone is {said}.")

    def save(self, save_as: bool = False) -> None:
        editor = self.editor
        if save_as or (editor.document is not None and editor.map_path is None):
            main = editor.map_path if editor.document is not None else editor.scenario_path
            self.ask(
                "Save the map as:" if editor.document is not None else "Save the scenario as:",
                str(main) if main else "untitled.toml",
                self._save_to,
                "a file name ending in .toml (folders must exist)",
            )
            return
        self._save_to(None)

    def _save_to(self, answer: str | None) -> None:
        editor = self.editor
        target = answer.strip() if answer else None
        if target is not None and not target.endswith(".toml"):
            self._prompt_error("the file name must end in .toml")
            return
        try:
            if editor.document is None and target is not None:
                written = editor.save(scenario_path=target)
            else:
                written = editor.save(map_path=target)
        except MinisError as error:
            self._prompt_error(str(error.problems[0]))
            self.say(f"Not saved: {error.problems[0]}", bad=True)
            return
        self.prompt = None
        self._leaving = False
        names = ", ".join(p.name for p in written)
        self.say(f"Saved {names}." if written else "Nothing changed since the last save.")
        self.refresh()

    def new_map(self) -> None:
        self.ask(
            "New map: rows and hexes per row",
            f"{NEW_ROWS} {NEW_COLUMNS}",
            self._new_map,
            "two numbers, like 11 16 (indented rows get one hex fewer)",
        )

    def _new_map(self, answer: str) -> None:
        try:
            rows, columns = (int(word) for word in answer.replace("x", " ").split())
            editor = Editor.new(rows, columns)
        except ValueError as error:
            self._prompt_error(str(error) if "map has" in str(error) else "give two numbers, like 11 16")
            return
        self.prompt = None
        self.editor = editor
        self._leaving = False
        self.say(f"New map of {rows} rows. Ctrl+S saves it.")
        self.refresh(fit=True)

    def rename(self, scenario: bool = False) -> None:
        """Ask for the title of the map (or, with `scenario`, of the scenario)."""
        editor = self.editor
        if scenario or editor.document is None:
            current = editor.scenario.title if editor.scenario is not None else self._document_title()
            self.ask("Title of the scenario:", current, self._rename_scenario, "one line, shown in menus")
            return
        self.ask("Title of the map:", getattr(editor.document, "title", ""), self._rename_map, "one line")

    def _rename_map(self, answer: str) -> None:
        self._answer(lambda: self.editor.set_title(answer), f"The map is called {answer.strip()!r}.")

    def _rename_scenario(self, answer: str) -> None:
        self._answer(
            lambda: self.editor.set_scenario_title(answer), f"The scenario is called {answer.strip()!r}."
        )

    def _answer(self, action: Callable[[], object], done: str) -> None:
        try:
            action()
        except EditError as error:
            self._prompt_error(str(error))
            return
        self.prompt = None
        self.say(done)
        self.refresh()

    def open_file(self) -> None:
        self.ask(
            "Open a map, section, configuration or scenario file:", "", self._open, "a path ending in .toml"
        )

    def _open(self, answer: str) -> None:
        try:
            editor = Editor.open(answer.strip())
        except MinisError as error:
            self._prompt_error(str(error.problems[0]))
            return
        self.prompt = None
        self.editor = editor
        self._leaving = False
        self.say(f"Opened {answer.strip()}. {self._recovery_note(editor)}".rstrip())
        self.refresh(fit=True)

    @staticmethod
    def _recovery_note(editor: Editor) -> str:
        """What opening finished of a save that was cut short (a scenario saved with its map), if anything."""
        if not editor.recovered:
            return ""
        names = " and ".join(path.name for path in editor.recovered)
        return f"A save that was cut short has been finished: {names} now hold what was saved."

    def change_section(self, turn: bool, step: int = 1) -> None:
        """Turn (or swap, by `step`) the section of the quadrant under the mouse (configurations)."""
        document = self.editor.document
        if not isinstance(document, Configuration):
            self.say("Sections are turned and swapped in configurations only.", bad=True)
            return
        hover = self.map.hover
        quadrant = quadrant_of(hover) if hover is not None else None
        if quadrant is None:
            self.say("Point at a section (not at a seam) first.", bad=True)
            return
        names = sorted(p.stem for p in (self.editor.sections or Path(".")).glob("*.toml"))
        changed = turn_section(document, quadrant) if turn else cycle_section(document, quadrant, names, step)
        try:
            self.editor.replace_map(changed)
            self.editor.board  # noqa: B018 - fails if the seams disagree
        except MinisError as error:
            self.editor.undo()
            self.say(str(error.problems[0]), bad=True)
            return
        self.say(f"{quadrant.upper()}: {changed.placements()[quadrant]}")
        self.refresh()

    # --- the prompt ------------------------------------------------------------------------------
    def ask(self, question: str, text: str, on_answer: Callable[[str], object], note: str = "") -> None:
        self.prompt = Prompt(question, text, on_answer, note)
        self._place_prompt()

    def modal(self) -> object | None:
        """The prompt takes all input while it is open (see `app.InputGate`)."""
        return self.prompt if self.prompt is not None else self.dialog

    def _prompt_error(self, text: str) -> None:
        if self.prompt is not None:
            self.prompt.error.text = text[:80]

    def on_text(self, text: str) -> bool:
        if self.prompt is not None:
            self.prompt.on_text(text)
        return True

    def on_update(self, delta_time: float) -> None:
        if self.prompt is not None:
            self.prompt.shown()

    # --- input -----------------------------------------------------------------------------------
    def on_back(self) -> bool:
        if self.prompt is not None:
            self.prompt = None
            return True
        if self.editor.modified and not self._leaving:
            self._leaving = True
            self.say("Unsaved changes: Esc again leaves without saving, Ctrl+S saves.", bad=True)
            return True
        return False

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if self.prompt is not None:
            self.prompt.on_mouse_press(x, y, button, modifiers)
            return True
        return super().on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if self.prompt is not None:
            self.prompt.on_mouse_release(x, y, button, modifiers)
            if self.prompt is not None and self.prompt.closed:
                self.prompt = None
            return True
        return super().on_mouse_release(x, y, button, modifiers)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        super().on_mouse_motion(x, y, dx, dy)
        if self.prompt is not None:
            self.prompt.on_mouse_motion(x, y)
        self._update_hover()
        return True

    def hover_changed(self) -> None:
        """The map's hovered hex changed (the keyboard cursor moves it too): the panel names it."""
        self._update_hover()

    def _update_hover(self) -> None:
        hex_ = self.map.hover
        board = self.board
        if hex_ is None:
            self.hover_label.text = ""
            return
        parts = [hexdraw.terrain_name(board.terrain(hex_))]
        if hex_ in board.half_hexes:
            parts.append("half-hex")
        if any(hex_ in link for link in board.roads):
            parts.append("road")
        if any(hex_ in side for side in board.streams):
            parts.append("stream")
        if hex_ == board.objective:
            parts.append("objective")
        name = board.label(hex_) if hex_.r >= 0 or board.half_hexes else "?"
        self.hover_label.text = f"{name}: {', '.join(parts)}"

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        stroke = self._stroke
        if stroke is not None and stroke.key not in (None, symbol) and symbol not in CURSOR_KEYS:
            self.stroke_end()  # any other key ends a keyboard stroke (its release may never come)
        if self.prompt is not None and symbol != arcade.key.ESCAPE:
            self.prompt.on_key_press(symbol, modifiers)
            return True
        return super().on_key_press(symbol, modifiers)

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        key = arcade.key
        if modifiers & key.MOD_CTRL:
            commands: dict[int, Callable[[], object]] = {
                key.Z: self.redo if modifiers & key.MOD_SHIFT else self.undo,
                key.Y: self.redo,
                key.S: lambda: self.save(save_as=bool(modifiers & key.MOD_SHIFT)),
                key.N: self.new_map,
                key.T: lambda: self.rename(scenario=bool(modifiers & key.MOD_SHIFT)),
                key.O: self.open_file,
                key.UP: lambda: self.resize(rows=-1),
                key.DOWN: lambda: self.resize(rows=1),
                key.LEFT: lambda: self.resize(columns=-1),
                key.RIGHT: lambda: self.resize(columns=1),
            }
            if symbol in commands:
                commands[symbol]()
                return True
            return False
        for tool, _, shortcut in TOOLS:
            if symbol == shortcut:
                self.choose(tool)
                return True
        if symbol == key.V:
            self.cycle_victory()
            return True
        if symbol == key.D:
            self.zone_depth()
            return True
        if symbol == key.X:
            self.tidy()
            return True
        if symbol == key.T:
            self.change_section(turn=True)
            return True
        if symbol in (key.BRACKETLEFT, key.BRACKETRIGHT):
            self.change_section(turn=False, step=1 if symbol == key.BRACKETRIGHT else -1)
            return True
        return False

    # --- drawing ---------------------------------------------------------------------------------
    def draw_map_overlay(self) -> None:
        """The hovered hex and the hexes the live problems name (world coordinates). The shown keyboard
        cursor is the hovered hex and has its own rim (drawn by the map), so the white outline is left out."""
        marks = self.editor.problem_hexes()
        hover = None if self.map.cursor_shown else self.map.hover
        key = (id(self.map.geometry), hover, frozenset(marks))
        if key != self._overlay_key:
            self._overlay_key = key
            self._overlay = ShapeElementList(blend=False)
            mesh = hexdraw.Mesh()
            for hex_ in sorted(marks):
                mesh.outline(hexdraw.corners(*hexdraw.centre(hex_), 0.86), 4, PROBLEM)
            if hover is not None:
                mesh.outline(hexdraw.corners(*hexdraw.centre(hover), 0.94), 2.5, HOVER)
            if len(mesh):
                self._overlay.append(mesh.shape())
        self._overlay.draw()


def _text_height(text: str, width: float) -> float:
    """The height of `text` wrapped at `width` pixels in the panel's small font."""
    if width <= 0:
        return 0.0
    measure = arcade.Text(
        text, 0, 0, font_size=theme.SMALL_SIZE, font_name=theme.FONT, multiline=True, width=int(width)
    )
    return float(measure.content_height)


def _condition_text(condition: Condition) -> str:
    kind = condition.kind
    if kind == "objective":
        return f"objective from turn {condition.from_turn}"
    if kind == "points":
        return f"points from turn {condition.from_turn}"
    if kind == "hold":
        return f"{condition.side} holds until turn {condition.turn}"
    if kind == "exit":
        amount = condition.units or condition.points
        unit = "units" if condition.units else "points"
        by = f" by turn {condition.by_turn}" if condition.by_turn else ""
        return f"{condition.side} gets {amount} {unit} off the map{by}"
    return kind


__all__ = ["VICTORY_PRESETS", "EditorView"]
