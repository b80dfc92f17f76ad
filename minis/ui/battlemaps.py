"""The "Battle maps" screen: look at the six configurations and check sight lines on them.

Keys 1-6 (or the tabs) choose the configuration. The sight-line tool: click a hex, then another (or
steer the keyboard cursor with W A S D and press Space or Enter on each); the line is drawn and the
board's own answer (`Board.visible`) is shown. The screen never decides line of sight itself.
"""

from __future__ import annotations

import arcade
from arcade.shape_list import ShapeElementList

from minis.base.errors import MinisError
from minis.hexgrid import Hex, distance
from minis.ui import boards, hexdraw, theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.legend import Legend
from minis.ui.mapview import MapView
from minis.ui.widgets import Box, Label, Panel

PANEL_WIDTH = 300
SIGHT_VISIBLE = (40, 200, 70, 255)
SIGHT_BLOCKED = (230, 50, 40, 255)
HOVER = (255, 255, 255, 255)
START = (250, 230, 80, 255)
SIGHT_EDGE = (20, 20, 20, 255)


class BattleMapsScreen(Screen):
    title = "Battle maps"
    hint = (
        "Click two hexes (or W A S D + Space) for a sight line · C or right-click clears · 1-6 map · "
        "L labels · +/- zoom · arrows pan · 0 fit · Esc back"
    )
    short_hint = "Click two hexes (W A S D + Space): sight line · 1-6 map · L labels · Esc back"

    def __init__(self, window: MinisWindow, number: int = 1) -> None:
        super().__init__(window)
        self.number = number
        self.geometries: dict[int, hexdraw.MapGeometry] = {}
        self.map = MapView(
            window,
            on_click=self.on_hex_click,
            on_hover=self.on_hex_hover,
            overlay=self.draw_map_overlay,
            cursor=True,
            enter_clicks=True,
        )
        self.tabs = boards.configuration_tabs(self.show)
        self.name = Label("", size=theme.TEXT_SIZE + 3, bold=True, colour=theme.ACCENT)
        self.legend_title = Label("Legend", size=theme.TEXT_SIZE, bold=True)
        self.legend = Legend(window)
        self.sight_title = Label("Sight line", size=theme.TEXT_SIZE, bold=True)
        self.sight = Label("", size=theme.TEXT_SIZE, multiline=True)
        self.hover_label = Label("", size=theme.SMALL_SIZE, colour=theme.TEXT_DIM)
        self.panel = Panel(
            [self.name, self.legend_title, self.legend, self.sight_title, self.sight, self.hover_label]
        )
        self.widgets = [self.map, self.tabs, self.panel]  # the map first: it paints the whole window
        self.bar_widgets = [self.tabs]
        self.sight_from: Hex | None = None
        self.sight_to: Hex | None = None
        self.sight_result: bool | None = None
        self.error = ""
        self._overlay_key: object = None
        self._overlay: ShapeElementList = ShapeElementList(blend=False)
        self.show(number)

    # --- state -------------------------------------------------------------------------------------
    @property
    def board(self) -> hexdraw.BoardLike | None:
        return self.map.board

    def show(self, number: int) -> None:
        """Show configuration `number`; a broken map file is reported on screen, not raised."""
        self.number = number
        self.tabs.set_selected(number - 1)
        self.clear_sight()
        if number not in self.geometries:
            try:
                self.geometries[number] = hexdraw.build(boards.configuration(number))
            except MinisError as error:
                self.error = str(error.problems[0])
                self.map.geometry = None
                self.name.text = boards.title(number)
                self._update_sight_text()
                return
        self.error = ""
        self.map.set_geometry(self.geometries[number])
        self.name.text = boards.title(number)
        self._update_sight_text()

    def clear_sight(self) -> None:
        self.sight_from = self.sight_to = None
        self.sight_result = None
        self._update_sight_text()

    def on_hex_click(self, hex_: Hex, button: int) -> None:
        board = self.board
        if board is None:
            return
        if button == arcade.MOUSE_BUTTON_RIGHT:
            self.clear_sight()
            return
        if button != arcade.MOUSE_BUTTON_LEFT:
            return
        if hex_ not in board.hexes:
            self.sight.text = "That is a half-hex at the map edge: choose a full hex."
            return
        if self.sight_from is None or self.sight_to is not None:
            self.sight_from, self.sight_to, self.sight_result = hex_, None, None
        else:
            self.sight_to = hex_
            self.sight_result = board.visible(self.sight_from, hex_)
        self._update_sight_text()

    def on_hex_hover(self, hex_: Hex | None) -> None:
        board = self.board
        if hex_ is None or board is None:
            self.hover_label.text = ""
        elif hex_ in board.hexes:
            self.hover_label.text = f"{board.label(hex_)}: {hexdraw.terrain_name(board.terrain(hex_))}"
        else:
            self.hover_label.text = "half-hex at the map edge (off the battlefield)"

    @property
    def sight_text(self) -> str:
        """The sight-line tool's answer, e.g. `C4 -> F9: visible` (empty until two hexes are chosen)."""
        board = self.board
        if board is None or self.sight_from is None or self.sight_to is None:
            return ""
        word = "visible" if self.sight_result else "blocked"
        return f"{board.label(self.sight_from)} -> {board.label(self.sight_to)}: {word}"

    def _update_sight_text(self) -> None:
        board = self.board
        if self.error:
            self.sight.text = f"This map cannot be shown:\n{self.error}"
            self.sight.colour = theme.BAD
        elif board is None or self.sight_from is None:
            self.sight.text = "Click a hex (or W A S D, then Space) to start a sight line."
            self.sight.colour = theme.TEXT
        elif self.sight_to is None:
            self.sight.text = f"From {board.label(self.sight_from)}: click the hex to look at."
            self.sight.colour = theme.TEXT
        else:
            hexes = distance(self.sight_from, self.sight_to)
            self.sight.text = f"{self.sight_text}\n{hexes} hex{'es' if hexes != 1 else ''} away"
            self.sight.colour = theme.GOOD if self.sight_result else theme.BAD

    # --- layout and drawing ------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        boards.place_tabs(self.tabs, width, height, left=230)
        panel_width = min(PANEL_WIDTH, max(230, width // 4))
        panel = Box(width - panel_width - m, content.bottom + m, panel_width, content.height - 2 * m)
        self.panel.place(panel)
        self.map.place(Box(m, content.bottom + m, panel.left - 2 * m, content.height - 2 * m))
        inner = panel.inset(14)
        # fixed parts: name 40, legend title 24, gap 14, sight title 26, sight text 60, hover line 20
        legend_height = min(self.legend.height_for(Legend.ROW), max(0.0, inner.height - 184))
        y = inner.top
        self.name.place(Box(inner.left, y - 26, inner.width, 26))
        y -= 40
        self.legend_title.place(Box(inner.left, y - 20, inner.width, 20))
        y -= 24
        self.legend.place(Box(inner.left, y - legend_height, inner.width, legend_height))
        y -= legend_height + 14
        self.sight_title.place(Box(inner.left, y - 20, inner.width, 20))
        y -= 26
        self.sight.place(Box(inner.left, y - 60, inner.width, 60))
        self.hover_label.place(Box(inner.left, inner.bottom, inner.width, 20))

    def draw_map_overlay(self) -> None:
        """Hover outline, the sight line's ends and the line itself (world coordinates).

        Drawn every frame, so the triangles are built only when what they show changes.
        """
        if self.board is None:
            return
        key = (
            id(self.map.geometry),
            self.map.hover,
            self.map.cursor_shown,
            self.sight_from,
            self.sight_to,
            self.sight_result,
        )
        if key != self._overlay_key:
            self._overlay_key = key
            self._overlay = ShapeElementList(blend=False)
            mesh = self._overlay_mesh()
            if len(mesh):
                self._overlay.append(mesh.shape())
        self._overlay.draw()

    def _overlay_mesh(self) -> hexdraw.Mesh:
        mesh = hexdraw.Mesh()
        if self.map.hover is not None and not self.map.cursor_shown:  # the cursor marks it instead
            mesh.outline(hexdraw.corners(*hexdraw.centre(self.map.hover), 0.94), 2.5, HOVER)
        if self.sight_from is not None:
            a = hexdraw.centre(self.sight_from)
            mesh.outline(hexdraw.corners(*a, 0.9), 4, START)
            if self.sight_to is not None:
                b = hexdraw.centre(self.sight_to)
                colour = SIGHT_VISIBLE if self.sight_result else SIGHT_BLOCKED
                mesh.outline(hexdraw.corners(*b, 0.9), 4, colour)
                mesh.line(a, b, 7, SIGHT_EDGE)
                mesh.line(a, b, 4, colour)
                mesh.disc(a, 6, colour)
                mesh.disc(b, 6, colour)
        return mesh

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        number = boards.number_key(symbol)
        if number is not None:
            self.show(number)
            return True
        if symbol == arcade.key.C:
            self.clear_sight()
            return True
        return False
