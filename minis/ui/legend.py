"""The map key: each terrain, feature and mark of the battle maps beside its name, drawn by the same
geometry code as the map (`hexdraw.legend_mesh`), so the key can never disagree with the board.

`Legend` is the key itself (the "Battle maps" screen shows it in its panel); `MapKey` is the key in a
framed box the battle screen draws over a corner of its map while the player asks for it (T).
"""

from __future__ import annotations

import arcade
from arcade.shape_list import ShapeElementList

from minis.ui import hexdraw, theme
from minis.ui.mapview import aim_camera
from minis.ui.widgets import Box, Label, Widget, fill, outline


class Legend(Widget):
    """Swatches drawn exactly as on the map (same geometry code), with their names.

    `row` (pixels per row) shrinks in short windows; the swatches shrink with it.
    """

    ROW = 27
    SWATCH = 11.0  # pixels from a swatch's centre to a corner, at ROW

    def __init__(self, window: arcade.Window) -> None:
        super().__init__()
        self.window = window
        self.row = float(self.ROW)
        self.spacing = self.ROW * hexdraw.SIZE / self.SWATCH  # world units between rows (any `row`)
        self.shapes: ShapeElementList = ShapeElementList(blend=False)
        self.shapes.append(hexdraw.legend_mesh(self.spacing).shape())
        self.camera = arcade.Camera2D(window=window)
        self.names = [Label(name, size=theme.SMALL_SIZE) for name in hexdraw.LEGEND]

    def height_for(self, row: float) -> float:
        return row * len(hexdraw.LEGEND)

    def place(self, box: Box) -> None:
        """Fill `box` top down, with rows of box.height / rows pixels (at most ROW)."""
        super().place(box)
        if box.width <= 0 or box.height <= 0:
            return
        self.row = min(float(self.ROW), box.height / len(hexdraw.LEGEND))
        swatch = self.SWATCH * self.row / self.ROW
        aim_camera(self.camera, box)
        self.camera.zoom = scale = swatch / hexdraw.SIZE
        # world (0, 0) is the first swatch: put it at the box's top left
        first_x = box.left + swatch + 2
        first_y = box.top - self.row / 2
        cx, cy = box.centre
        self.camera.position = ((cx - first_x) / scale, (cy - first_y) / scale)
        for row, label in enumerate(self.names):
            y = first_y - row * self.row
            label.place(Box(first_x + swatch + 10, y - self.row / 2, box.width, self.row))

    def draw(self) -> None:
        if self.box.width <= 0:
            return
        with self.camera.activate():
            self.shapes.draw()
        for label in self.names:
            label.draw()


class MapKey(Widget):
    """The key in a framed box over a map's corner, hidden until `toggle` (the battle screen's T)."""

    TITLE = "Map key (T hides it)"
    WIDTH = 210

    def __init__(self, window: arcade.Window) -> None:
        super().__init__()
        self.visible = False
        self.title = Label(self.TITLE, size=theme.SMALL_SIZE + 1, bold=True, colour=theme.ACCENT)
        self.legend = Legend(window)

    def toggle(self) -> None:
        self.visible = not self.visible

    def corner(self, area: Box) -> Box:
        """The key's box in the bottom left corner of `area` (a map), as tall as its rows allow."""
        height = min(self.legend.height_for(Legend.ROW) + 36, max(0.0, area.height - 12))
        return Box(area.left + 6, area.bottom + 6, min(self.WIDTH, area.width - 12), height)

    def place(self, box: Box) -> None:
        super().place(box)
        inner = box.inset(8, 6)
        self.title.place(Box(inner.left, inner.top - 20, inner.width, 20))
        self.legend.place(Box(inner.left, inner.bottom, inner.width, max(0.0, inner.height - 24)))

    def parts(self) -> list[Widget]:
        return [self.title, *self.legend.names]

    def draw(self) -> None:
        if not self.visible or self.box.width <= 0:
            return
        fill(self.box, (22, 25, 30, 235))
        outline(self.box, theme.PANEL_BORDER)
        self.title.draw()
        self.legend.draw()
