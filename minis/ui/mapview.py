"""The battle map as a widget: cached drawing, zoom, pan, hex labels, and hexes under the mouse.

Speed: the map's static geometry (`hexdraw.MapGeometry`) is built once per board and drawn in one
call. The screen keeps its last picture (`app.FrameCache`) and draws the map again only when `look`
changes (camera, box, board, labels); the parts that change every frame (hover, the sight line,
later the units) are drawn by `draw_dynamic` over the kept picture.

Hex labels are drawn at the zoomed size (not scaled up glyphs), so they stay sharp: one text batch per
zoom level, built when first needed.

The keyboard cursor (screens that choose hexes ask for it with `cursor=True`): W A S D move a cursor hex,
Space (and Enter where `enter_clicks`) hands the cursor hex to `on_click` as a left click, the very call
a mouse click makes, so a screen has one code path for both. While the keyboard moved last the cursor is
drawn and is the hovered hex (`on_hover` hears of it), so everything that follows the mouse follows the
cursor; moving the mouse hides it again. The arrow keys keep panning the map.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

import arcade
import pyglet
from arcade.shape_list import ShapeElementList
from arcade.types import LBWH, LRBT

from minis.hexgrid import Facing, Hex
from minis.ui import hexdraw, theme
from minis.ui.widgets import Box, Widget

#: Each zoom step multiplies the scale by this.
ZOOM_STEP = 1.2
#: Arrow keys pan by this many pixels.
PAN_PIXELS = 80
#: A press that moves more than this many pixels is a drag (pan), not a click.
DRAG_SLOP = 5
LABEL_COLOUR = (40, 42, 36, 255)
#: The keyboard cursor: a cyan rim with a dark edge, unlike every other mark on the maps.
CURSOR: hexdraw.Colour = (40, 225, 255, 255)
CURSOR_EDGE: hexdraw.Colour = (10, 24, 40, 255)
#: The keys that move the cursor, and where: W A S D (the arrow keys pan).
CURSOR_KEYS: dict[int, str] = {
    arcade.key.W: "up",
    arcade.key.S: "down",
    arcade.key.A: "left",
    arcade.key.D: "right",
}
#: Modifiers that make a cursor key something else (Ctrl+S saves).
COMMAND_MODIFIERS = arcade.key.MOD_CTRL | arcade.key.MOD_ALT | arcade.key.MOD_COMMAND


def aim_camera(camera: arcade.Camera2D, box: Box, *, clip: bool = False) -> None:
    """Make `camera` draw into `box`: one world unit is `camera.zoom` pixels, `position` at its centre.

    (Camera2D's `projection` setter multiplies by the current zoom, so the unzoomed projection is set
    through `projection_data`.)
    """
    rect = LBWH(box.left, box.bottom, box.width, box.height)
    camera.viewport = rect
    camera.projection_data.rect = LRBT(-box.width / 2, box.width / 2, -box.height / 2, box.height / 2)
    camera.scissor = rect if clip else None


class MapView(Widget):
    """Shows one board in its box; reports clicks and hovering on hexes.

    `on_click(hex, button)` and `on_hover(hex or None)` are called with full or half hexes; hexes off
    the map are None for hover and are not clicked. `overlay()` is called every frame in world
    coordinates (see `hexdraw`) to draw what changes. With `cursor=True` the map has the keyboard
    cursor (see the module's docstring) and takes the keyboard focus when clicked or steered.
    """

    def __init__(
        self,
        window: arcade.Window,
        *,
        on_click: Callable[[Hex, int], object] | None = None,
        on_hover: Callable[[Hex | None], object] | None = None,
        overlay: Callable[[], object] | None = None,
        cursor: bool = False,
        enter_clicks: bool = False,
    ) -> None:
        super().__init__()
        self.window = window
        self.on_click = on_click
        self.on_hover = on_hover
        #: What the pointer at (x, y) over `hex_` points at, for hovering and clicking alike (the battle:
        #: over a stack spread out beside its hex, that hex). None: the hex under the pointer.
        self.pointing: Callable[[float, float, Hex | None], Hex | None] | None = None
        self.overlay = overlay
        self.cursor_enabled = cursor
        self.enter_clicks = enter_clicks
        #: A map with a cursor takes the focus (so Space reaches it rather than a button clicked earlier).
        self.focusable = cursor
        #: The cursor hex (kept while hidden: a mouse click moves it too).
        self.cursor: Hex | None = None
        #: True while the keyboard moved last: the cursor shows and is the hovered hex.
        self.keyboard = False
        self._goal_x: int | None = None  # the doubled column W and S keep to, like a text editor's
        self._cursor_shapes: tuple[Hashable, ShapeElementList | None] = (None, None)
        self.geometry: hexdraw.MapGeometry | None = None
        self.show_labels = False
        self.zoom = 1.0
        self.fit_zoom = 1.0
        self.position: tuple[float, float] = (0.0, 0.0)
        self.hover: Hex | None = None
        self.camera = arcade.Camera2D(window=window)
        self.label_camera = arcade.Camera2D(window=window)
        self._fitted = False
        self._press: tuple[float, float] | None = None
        self._dragging = False
        self._label_batches: dict[tuple[int, float], tuple[pyglet.graphics.Batch, list[arcade.Text]]] = {}

    # --- board and camera --------------------------------------------------------------------------
    def set_geometry(self, geometry: hexdraw.MapGeometry) -> None:
        self.geometry = geometry
        self._label_batches.clear()
        if self.cursor is not None and not self.on_map(self.cursor):
            self.cursor, self.keyboard = None, False  # another map without that hex
        self.fit()

    @property
    def board(self) -> hexdraw.BoardLike | None:
        return self.geometry.board if self.geometry else None

    def place(self, box: Box) -> None:
        # whole pixels and an even size: the box's centre (the camera's) then falls on a pixel corner
        box = Box(round(box.left), round(box.bottom), round(box.width) // 2 * 2, round(box.height) // 2 * 2)
        resized = (box.width, box.height) != (self.box.width, self.box.height)
        super().place(box)
        if box.width <= 0 or box.height <= 0:
            return
        for camera in (self.camera, self.label_camera):
            aim_camera(camera, box, clip=True)
        if resized or not self._fitted:
            self.fit()
        self._sync_camera()

    def fit(self) -> None:
        """Zoom and centre so the whole map fits the box."""
        if self.geometry is None or self.box.width <= 0:
            return
        edge = self.geometry.edge
        margin = 16
        self.fit_zoom = min((self.box.width - margin) / edge.width, (self.box.height - margin) / edge.height)
        self.zoom = self.fit_zoom
        self.position = edge.centre
        self._fitted = True
        self._sync_camera()

    @property
    def min_zoom(self) -> float:
        return self.fit_zoom * 0.5

    @property
    def max_zoom(self) -> float:
        return max(self.fit_zoom * 4, 3.0)

    def zoom_by(self, steps: float, anchor: tuple[float, float] | None = None) -> None:
        """Zoom in (steps > 0) or out, keeping the world point under `anchor` (default: the centre) still."""
        anchor = anchor or self.box.centre
        world = self.screen_to_world(*anchor)
        self.zoom = max(self.min_zoom, min(self.max_zoom, self.zoom * ZOOM_STEP**steps))
        cx, cy = self.box.centre
        self.position = (world[0] - (anchor[0] - cx) / self.zoom, world[1] - (anchor[1] - cy) / self.zoom)
        self._clamp()
        self._sync_camera()

    def pan(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) screen pixels (the map follows the mouse)."""
        self.position = (self.position[0] - dx / self.zoom, self.position[1] - dy / self.zoom)
        self._clamp()
        self._sync_camera()

    def _clamp(self) -> None:
        """Keep the map filling the box (a map smaller than the box stays centred in it)."""
        if self.geometry is None or self.zoom <= 0:
            return
        edge = self.geometry.edge
        slack = 24 / self.zoom  # a little background may show beyond the map's edge

        def axis(value: float, low: float, high: float, view: float) -> float:
            half = view / 2 / self.zoom
            if high - low + 2 * slack <= 2 * half:
                return (low + high) / 2
            return min(max(value, low - slack + half), high + slack - half)

        x = axis(self.position[0], edge.left, edge.right, self.box.width)
        y = axis(self.position[1], edge.bottom, edge.top, self.box.height)
        self.position = (x, y)

    def _sync_camera(self) -> None:
        self.camera.position = self.position
        self.camera.zoom = self.zoom
        # labels sit on whole pixels (in label space, one unit is one pixel), so glyphs stay crisp
        x, y = self.position
        self.label_camera.position = (round(x * self.zoom), round(y * self.zoom))
        self.label_camera.zoom = 1.0

    def screen_to_world(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.box.centre
        return (self.position[0] + (x - cx) / self.zoom, self.position[1] + (y - cy) / self.zoom)

    def world_to_screen(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.box.centre
        return (cx + (x - self.position[0]) * self.zoom, cy + (y - self.position[1]) * self.zoom)

    def hex_centre_on_screen(self, hex_: Hex) -> tuple[float, float]:
        return self.world_to_screen(*hexdraw.centre(hex_))

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The full or half hex under screen point (x, y), or None."""
        board = self.board
        if board is None or not self.box.contains(x, y):
            return None
        wx, wy = self.screen_to_world(x, y)
        edge = self.geometry.edge if self.geometry else None
        if edge and not (edge.left <= wx <= edge.right and edge.bottom <= wy <= edge.top):
            return None
        hex_ = hexdraw.hex_at(wx, wy)
        if hex_ in board.hexes or hex_ in board.half_hexes:
            return hex_
        return None

    def toggle_labels(self) -> None:
        self.show_labels = not self.show_labels

    # --- drawing -----------------------------------------------------------------------------------
    @contextmanager
    def world(self) -> Iterator[None]:
        """Draw in world coordinates, clipped to the map's box."""
        with self.camera.activate():
            yield
        self.window.ctx.scissor = None  # the default camera does not reset the scissor box

    def _label_size(self) -> float:
        return 0.3 * hexdraw.SIZE * self.zoom

    def _labels(self) -> pyglet.graphics.Batch | None:
        """The label batch for the current zoom (labels laid out at their final pixel size)."""
        if self.geometry is None or self._label_size() < 6.5:
            return None
        key = (id(self.geometry), round(self.zoom, 4))
        if key not in self._label_batches:
            batch = pyglet.graphics.Batch()
            size = min(self._label_size(), 16)
            texts = []  # a batch draws its texts only while they live
            for hex_, text in self.geometry.labels.items():
                x, y = hexdraw.centre(hex_)
                texts.append(
                    arcade.Text(
                        text,
                        round(x * self.zoom),
                        round((y + 0.6 * hexdraw.SIZE) * self.zoom),
                        LABEL_COLOUR,
                        size,
                        font_name=theme.FONT,
                        anchor_x="center",
                        anchor_y="center",
                        batch=batch,
                    )
                )
            if len(self._label_batches) >= 12:
                self._label_batches.clear()
            self._label_batches[key] = (batch, texts)
        return self._label_batches[key][0]

    def _render_static(self) -> None:
        assert self.geometry is not None
        with self.world():
            self.geometry.draw()
            self.draw_cursor()
        if self.show_labels:
            batch = self._labels()
            if batch is not None:
                with self.label_camera.activate():
                    batch.draw()
                self.window.ctx.scissor = None

    def look(self) -> Hashable:
        cursor = self.cursor if self.cursor_shown else None
        return (super().look(), id(self.geometry), self.zoom, self.position, self.show_labels, cursor)

    def draw(self) -> None:
        """The static map (the screen keeps the picture until the camera or the board changes)."""
        if self.geometry is not None and self.box.width > 0 and self.box.height > 0:
            self._render_static()

    def draw_dynamic(self) -> None:
        """Hover marks, sight lines and the like: drawn every frame over the kept picture."""
        if self.geometry is not None and self.overlay is not None and self.box.width > 0:
            with self.world():
                self.overlay()

    # --- input -------------------------------------------------------------------------------------
    def pointed_hex(self, x: float, y: float) -> Hex | None:
        """The hex the pointer at screen point (x, y) stands for (see `pointing`)."""
        hex_ = self.hex_at(x, y)
        return hex_ if self.pointing is None else self.pointing(x, y, hex_)

    def on_mouse_motion(self, x: float, y: float) -> bool:
        self.keyboard = False  # the mouse moved last: it points, the cursor hides
        hover = self.pointed_hex(x, y)
        if hover != self.hover:
            self.hover = hover
            if self.on_hover is not None:
                self.on_hover(hover)
        return False

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.box.contains(x, y):
            return False
        self._press = (x, y)
        self._dragging = False
        return True

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        if self._press is None:
            return False
        if not self._dragging and abs(x - self._press[0]) + abs(y - self._press[1]) > DRAG_SLOP:
            self._dragging = True
            dx, dy = x - self._press[0], y - self._press[1]  # catch up with the slop
        if self._dragging:
            self.pan(dx, dy)
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self._press is None:
            return False
        dragged, self._press, self._dragging = self._dragging, None, False
        if not dragged:
            hex_ = self.pointed_hex(x, y)
            if hex_ is not None and self.cursor_enabled:
                self.cursor = hex_  # the keyboard goes on from the last click
            if hex_ is not None and self.on_click is not None:
                self.on_click(hex_, button)
        return True

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        if not self.box.contains(x, y) or scroll_y == 0:
            return False
        self.zoom_by(1 if scroll_y > 0 else -1, (x, y))
        return True

    def on_shortcut(self, symbol: int, modifiers: int) -> bool:
        key = arcade.key
        pans = {
            key.LEFT: (PAN_PIXELS, 0),
            key.RIGHT: (-PAN_PIXELS, 0),
            key.UP: (0, -PAN_PIXELS),
            key.DOWN: (0, PAN_PIXELS),
        }
        if symbol in pans:
            self.pan(*pans[symbol])
        elif symbol in (key.PLUS, key.EQUAL, key.NUM_ADD):
            self.zoom_by(1, self._cursor_anchor())
        elif symbol in (key.MINUS, key.NUM_SUBTRACT):
            self.zoom_by(-1, self._cursor_anchor())
        elif symbol in (key.KEY_0, key.NUM_0, key.HOME):
            self.fit()
        elif symbol == key.L:
            self.toggle_labels()
        elif self.cursor_enabled and symbol in CURSOR_KEYS and not modifiers & COMMAND_MODIFIERS:
            self.move_cursor(CURSOR_KEYS[symbol])
        elif self.cursor_enabled and (
            symbol == key.SPACE or (self.enter_clicks and symbol in (key.ENTER, key.NUM_ENTER))
        ):
            self.click_cursor()
        else:
            return False
        return True

    def claims_focus(self) -> bool:
        return self.cursor_enabled

    # --- the keyboard cursor -----------------------------------------------------------------------
    @property
    def cursor_shown(self) -> bool:
        return self.cursor_enabled and self.keyboard and self.cursor is not None

    def on_map(self, hex_: Hex) -> bool:
        """Whether the cursor may stand on `hex_` (the hexes a click reaches: full and half hexes)."""
        board = self.board
        return board is not None and (hex_ in board.hexes or hex_ in board.half_hexes)

    def _middle_hex(self) -> Hex | None:
        """The hex of the map nearest the middle of the view (where a cursor starts)."""
        board = self.board
        if board is None or not board.hexes:
            return None
        x, y = self.position
        return min(
            board.hexes,
            key=lambda h: ((hexdraw.centre(h)[0] - x) ** 2 + (hexdraw.centre(h)[1] - y) ** 2, h.r, h.q),
        )

    def show_cursor(self, hex_: Hex) -> None:
        """Put the cursor on `hex_`, show it, scroll it into view; it becomes the hovered hex."""
        if not self.cursor_enabled or not self.on_map(hex_):
            return
        self.cursor = hex_
        self.keyboard = True
        self.scroll_into_view(hex_)
        if self.hover != hex_:
            self.hover = hex_
            if self.on_hover is not None:
                self.on_hover(hex_)

    def _cursor_start(self) -> tuple[Hex | None, bool]:
        """Where a hidden cursor comes back: the hex under the mouse, else where it was, else the middle
        of the view; and whether the key that brings it back should also move it (not from the middle,
        where the player has not seen it yet)."""
        if self.hover is not None and self.on_map(self.hover):
            return self.hover, True
        if self.cursor is not None and self.on_map(self.cursor):
            return self.cursor, True
        return self._middle_hex(), False

    def move_cursor(self, way: str) -> None:
        """One step of the cursor: left/right are the W and E neighbours; up/down the NW or NE (SW or
        SE) neighbour, whichever stays nearer the column the cursor keeps, so it zig-zags up a column
        (from the column itself it goes right first). A step off the map keeps it where it is."""
        here = self.cursor if self.cursor_shown else None
        if here is None:
            start, move = self._cursor_start()
            if start is None:
                return
            self._goal_x = None
            if not move:
                self.show_cursor(start)
                return
            here = start
        x = 2 * here.q + here.r  # doubled-width column
        if way in ("left", "right"):
            steps = [Facing.W if way == "left" else Facing.E]
        else:
            goal = x if self._goal_x is None else self._goal_x
            right, left = (Facing.NE, Facing.NW) if way == "up" else (Facing.SE, Facing.SW)
            steps = [right, left] if abs(x + 1 - goal) <= abs(x - 1 - goal) else [left, right]
        for facing in steps:
            step = facing.step
            there = Hex(here.q + step.q, here.r + step.r)
            if self.on_map(there):
                break
        else:
            there = here
        if way in ("left", "right"):
            self._goal_x = 2 * there.q + there.r
        elif self._goal_x is None:
            self._goal_x = x
        self.show_cursor(there)

    def click_cursor(self) -> None:
        """Space: a left click on the cursor hex (the same call a mouse click makes); a hidden cursor is
        shown first instead, so the player sees what the next press will click."""
        if not self.cursor_shown:
            start, _ = self._cursor_start()
            if start is not None:
                self.show_cursor(start)
            return
        assert self.cursor is not None
        if self.on_click is not None:
            self.on_click(self.cursor, arcade.MOUSE_BUTTON_LEFT)

    def scroll_into_view(self, hex_: Hex) -> None:
        """Pan so that `hex_` sits at least a hex and a half inside the box (as far as the map allows)."""
        if self.box.width <= 0 or self.box.height <= 0:
            return
        x, y = self.hex_centre_on_screen(hex_)
        margin_x = min(1.5 * hexdraw.SIZE * self.zoom, self.box.width / 3)
        margin_y = min(1.5 * hexdraw.SIZE * self.zoom, self.box.height / 3)
        dx = dy = 0.0
        if x < self.box.left + margin_x:
            dx = self.box.left + margin_x - x
        elif x > self.box.right - margin_x:
            dx = self.box.right - margin_x - x
        if y < self.box.bottom + margin_y:
            dy = self.box.bottom + margin_y - y
        elif y > self.box.top - margin_y:
            dy = self.box.top - margin_y - y
        if dx or dy:
            self.pan(dx, dy)

    def _cursor_anchor(self) -> tuple[float, float] | None:
        """Zoom keys keep the shown cursor still (None: the middle of the box)."""
        if self.cursor_shown:
            assert self.cursor is not None
            x, y = self.hex_centre_on_screen(self.cursor)
            if self.box.contains(x, y):
                return (x, y)
        return None

    def draw_cursor(self) -> None:
        """The cursor's rim, in world coordinates (part of the kept picture: `look` names the cursor)."""
        key = self.cursor if self.cursor_shown else None
        if key != self._cursor_shapes[0]:
            shapes: ShapeElementList | None = None
            if key is not None:
                mesh = hexdraw.Mesh()
                points = hexdraw.corners(*hexdraw.centre(key), 0.97)
                mesh.outline(points, 7.0, CURSOR_EDGE)
                mesh.outline(points, 4.0, CURSOR)
                shapes = ShapeElementList(blend=False)
                shapes.append(mesh.shape())
            self._cursor_shapes = (key, shapes)
        if self._cursor_shapes[1] is not None:
            self._cursor_shapes[1].draw()
