"""The battle map with what lies on it: highlights, paths, counters and their texts, over the cached terrain.

`MapView` draws the static terrain; a battle adds layers that change only when the game or the
player's selection changes. The screen hands them over in named groups (`set_group`); a group's
triangles are turned into GPU geometry only when its key changes, and its texts (laid out at their
final pixel size, so they stay sharp) only when its key or the zoom changes. All of it belongs to the
screen's kept picture (`app.FrameCache`): a frame in which nothing happens copies that picture.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import arcade
import pyglet
from arcade.shape_list import ShapeElementList

from minis.hexgrid import Hex
from minis.ui import theme
from minis.ui.counters import TextSpec
from minis.ui.hexdraw import Mesh
from minis.ui.mapview import MapView

#: Texts smaller than this many pixels are left out (the tooltip names the units instead).
MIN_TEXT_PIXELS = 6.0
#: arcade's font sizes are points; one point is this many pixels.
PIXELS_PER_POINT = 96 / 72


class BattleMap(MapView):
    """A MapView that also draws the screen's layers (in world space) and their texts.

    Layers come in named groups (`set_group`), each with its own key: a group is rebuilt only when its
    key changes (the counters when the position changes, the highlights when the mouse moves), and its
    texts only when its key or the zoom changes. Groups are drawn in the order they were first set.
    """

    def __init__(
        self,
        window: arcade.Window,
        *,
        on_click: Callable[[Hex, int], object] | None = None,
        on_hover: Callable[[Hex | None], object] | None = None,
        cursor: bool = False,
    ) -> None:
        super().__init__(window, on_click=on_click, on_hover=on_hover, cursor=cursor)
        self._groups: dict[str, _Group] = {}

    def set_group(
        self, name: str, key: Hashable, meshes: Sequence[tuple[Mesh, bool]], texts: Sequence[TextSpec]
    ) -> None:
        """Replace a group's triangles (each mesh with whether it needs blending) and texts, unless `key`
        is the one it has."""
        group = self._groups.get(name)
        if group is not None and group.key == key:
            return
        if group is None:
            group = self._groups[name] = _Group()
        group.key = key
        group.shapes = []
        for mesh, blend in meshes:
            if len(mesh):
                shape_list: ShapeElementList = ShapeElementList(blend=blend)
                shape_list.append(mesh.shape())
                group.shapes.append(shape_list)
        group.texts = list(texts)
        group.text_key = None

    @property
    def layer_key(self) -> Hashable:
        return tuple((name, group.key) for name, group in self._groups.items())

    def look(self) -> Hashable:
        return (super().look(), self.layer_key)

    def _text_batch(self, group: _Group) -> pyglet.graphics.Batch | None:
        key = (group.key, round(self.zoom, 4))
        if key != group.text_key:
            group.text_key = key
            batch = pyglet.graphics.Batch()
            objects = []
            for spec in group.texts:
                pixels = spec.size * self.zoom
                if pixels < MIN_TEXT_PIXELS:
                    continue
                objects.append(
                    arcade.Text(
                        spec.text,
                        round(spec.x * self.zoom),
                        round(spec.y * self.zoom),
                        spec.colour,
                        min(pixels, 22) / PIXELS_PER_POINT,
                        font_name=theme.FONT,
                        bold=spec.bold,
                        anchor_x="center",
                        anchor_y="center",
                        batch=batch,
                    )
                )
            group.batch = batch if objects else None
            group.objects = objects  # a batch draws its texts only while they live
        return group.batch

    def draw(self) -> None:
        if self.geometry is None or self.box.width <= 0 or self.box.height <= 0:
            return
        groups = list(self._groups.values())
        with self.world():
            self.geometry.draw()
            for group in groups:
                for shapes in group.shapes:
                    shapes.draw()
            self.draw_cursor()  # over the counters, under their names
        batches = [b for b in (self._text_batch(g) for g in groups) if b is not None]
        if self.show_labels:
            labels = self._labels()
            if labels is not None:
                batches.insert(0, labels)
        if batches:
            with self.label_camera.activate():
                for batch in batches:
                    batch.draw()
            self.window.ctx.scissor = None


class _Group:
    """One named layer of the battle map."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.shapes: list[ShapeElementList] = []
        self.texts: list[TextSpec] = []
        self.text_key: Hashable = None
        self.batch: pyglet.graphics.Batch | None = None
        self.objects: list[arcade.Text] = []
