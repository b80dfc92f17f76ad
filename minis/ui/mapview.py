"""The battle map as a widget: cached drawing, zoom, pan, hex labels, and hexes under the mouse.

Speed: the map's static geometry (`hexdraw.MapGeometry`) is built once per board and drawn in one
call. The screen keeps its last picture (`app.FrameCache`) and draws the map again only when `look`
changes (camera, box, board, labels); the parts that change every frame (hover, the sight line,
later the units) are drawn by `draw_dynamic` over the kept picture.

Hex labels are drawn at the zoomed size (not scaled up glyphs), so they stay sharp: one text batch per
zoom level, built when first needed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

import arcade
import pyglet
from arcade.types import LBWH, LRBT

from minis.hexgrid import Hex
from minis.ui import hexdraw, theme
from minis.ui.widgets import Box, Widget

#: Each zoom step multiplies the scale by this.
ZOOM_STEP = 1.2
#: Arrow keys pan by this many pixels.
PAN_PIXELS = 80
#: A press that moves more than this many pixels is a drag (pan), not a click.
DRAG_SLOP = 5
LABEL_COLOUR = (40, 42, 36, 255)


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
    coordinates (see `hexdraw`) to draw what changes.
    """

    def __init__(
        self,
        window: arcade.Window,
        *,
        on_click: Callable[[Hex, int], object] | None = None,
        on_hover: Callable[[Hex | None], object] | None = None,
        overlay: Callable[[], object] | None = None,
    ) -> None:
        super().__init__()
        self.window = window
        self.on_click = on_click
        self.on_hover = on_hover
        self.overlay = overlay
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
        if self.show_labels:
            batch = self._labels()
            if batch is not None:
                with self.label_camera.activate():
                    batch.draw()
                self.window.ctx.scissor = None

    def look(self) -> Hashable:
        return (super().look(), id(self.geometry), self.zoom, self.position, self.show_labels)

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
    def on_mouse_motion(self, x: float, y: float) -> bool:
        hover = self.hex_at(x, y)
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
            hex_ = self.hex_at(x, y)
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
            self.zoom_by(1)
        elif symbol in (key.MINUS, key.NUM_SUBTRACT):
            self.zoom_by(-1)
        elif symbol in (key.KEY_0, key.NUM_0, key.HOME):
            self.fit()
        elif symbol == key.L:
            self.toggle_labels()
        else:
            return False
        return True
