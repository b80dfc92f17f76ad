"""The battle map with what lies on it: highlights, paths, counters and their texts, over the cached terrain.

`MapView` draws the static terrain; a battle adds layers that change only when the game or the
player's selection changes. The screen hands them over in named groups (`set_group`); a group's
triangles are turned into GPU geometry only when its key changes, and its texts (laid out at their
final pixel size, so they stay sharp) only when its key or the zoom changes. All of it belongs to the
screen's kept picture (`app.FrameCache`): a frame in which nothing happens copies that picture. A
`dynamic` group (the marks that follow the mouse) is drawn over the kept picture instead, so moving the
mouse to another hex rebuilds that small group and nothing else.
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
#: The most laid-out texts a group keeps hidden for reuse (a selection's costs are a few dozen).
MAX_HIDDEN_TEXTS = 200


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
        self,
        name: str,
        key: Hashable,
        meshes: Sequence[tuple[Mesh, bool]],
        texts: Sequence[TextSpec],
        *,
        dynamic: bool = False,
    ) -> None:
        """Replace a group's triangles (each mesh with whether it needs blending) and texts, unless `key`
        is the one it has. A `dynamic` group (what follows the mouse) is left out of the kept picture
        and drawn over it every frame, so changing it costs no new picture."""
        group = self._groups.get(name)
        if group is not None and group.key == key:
            return
        if group is None:
            group = self._groups[name] = _Group()
        group.dynamic = dynamic
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
        return tuple((name, group.key) for name, group in self._groups.items() if not group.dynamic)

    def look(self) -> Hashable:
        return (super().look(), self.layer_key)

    def _text_batch(self, group: _Group) -> pyglet.graphics.Batch | None:
        """The group's texts laid out at the zoom's pixel size. A text already laid out (the same
        words, size, colour and weight) is moved to its new place instead of laid out again: laying
        out is the slow part, and a new selection mostly shows the same names and costs elsewhere."""
        zoom = round(self.zoom, 4)
        key = (group.key, zoom)
        if key == group.text_key:
            return group.batch if group.objects else None
        spare: dict[Hashable, list[arcade.Text]] = {}
        if group.batch is not None and group.zoom == zoom:
            for style, text in group.objects:
                spare.setdefault(style, []).append(text)
            for style, texts in group.hidden.items():
                spare.setdefault(style, []).extend(texts)
        else:
            for _, text in group.objects:
                text.label.delete()
            for texts in group.hidden.values():
                for text in texts:
                    text.label.delete()
            group.batch = pyglet.graphics.Batch()
            group.zoom = zoom
        group.text_key = key
        objects: list[tuple[Hashable, arcade.Text]] = []
        for spec in group.texts:
            pixels = spec.size * zoom
            if pixels < MIN_TEXT_PIXELS:
                continue
            style = (spec.text, spec.colour, min(pixels, 22), spec.bold)
            where = (round(spec.x * zoom), round(spec.y * zoom))
            kept = spare.get(style)
            if kept:
                text = kept.pop()
                text.position = where
                text.visible = True
            else:
                text = arcade.Text(
                    spec.text,
                    *where,
                    spec.colour,
                    min(pixels, 22) / PIXELS_PER_POINT,
                    font_name=theme.FONT,
                    bold=spec.bold,
                    anchor_x="center",
                    anchor_y="center",
                    batch=group.batch,
                )
            objects.append((style, text))
        # Texts not needed now are hidden and kept for the group's next key (a unit let go and another
        # one selected shows the same costs again), up to a bound; the rest leave the batch.
        group.hidden = {}
        room = MAX_HIDDEN_TEXTS
        for style, unused in spare.items():
            for text in unused:
                if room > 0:
                    text.visible = False
                    group.hidden.setdefault(style, []).append(text)
                    room -= 1
                else:
                    text.label.delete()
        group.objects = objects  # a batch draws its texts only while they live
        return group.batch if objects else None

    def draw(self) -> None:
        if self.geometry is None or self.box.width <= 0 or self.box.height <= 0:
            return
        groups = [g for g in self._groups.values() if not g.dynamic]
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
        self._draw_texts(batches)

    def draw_dynamic(self) -> None:
        """The dynamic groups, over the kept picture (every drawn frame)."""
        super().draw_dynamic()
        groups = [g for g in self._groups.values() if g.dynamic]
        if self.geometry is None or self.box.width <= 0 or self.box.height <= 0 or not groups:
            return
        with self.world():
            for group in groups:
                for shapes in group.shapes:
                    shapes.draw()
        self._draw_texts([b for b in (self._text_batch(g) for g in groups) if b is not None])

    def _draw_texts(self, batches: list[pyglet.graphics.Batch]) -> None:
        """Text batches laid out at their pixel size, through the label camera (clipped to the box)."""
        if batches:
            with self.label_camera.activate():
                for batch in batches:
                    batch.draw()
            self.window.ctx.scissor = None


class _Group:
    """One named layer of the battle map."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.dynamic = False
        self.shapes: list[ShapeElementList] = []
        self.texts: list[TextSpec] = []
        self.text_key: Hashable = None
        self.batch: pyglet.graphics.Batch | None = None
        self.zoom: float | None = None  # the zoom the batch's texts are laid out for
        #: The laid-out texts with their style (words, colour, pixel size, weight), for reuse.
        self.objects: list[tuple[Hashable, arcade.Text]] = []
        #: Laid-out texts not shown now (hidden in the batch), by style, for reuse.
        self.hidden: dict[Hashable, list[arcade.Text]] = {}
