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

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager

import arcade
import attrs
import pyglet
from arcade.shape_list import Shape, ShapeElementList

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
        keep: int = 0,
    ) -> None:
        """Replace a group's triangles (each mesh with whether it needs blending) and texts, unless `key`
        is the one it has. A `dynamic` group (what follows the mouse) is left out of the kept picture
        and drawn over it every frame, so changing it costs no new picture. With `keep`, the group keeps
        its last `keep` contents by key (the key must then be hashable) for `show_kept`."""
        group = self._groups.get(name)
        if group is not None and group.key == key:
            return
        if group is None:
            group = self._groups[name] = _Group()
        group.dynamic = dynamic
        content = _Content(
            [(slot, blend, mesh.shape()) for slot, (mesh, blend) in enumerate(meshes) if len(mesh)],
            list(texts),
        )
        group.show(key, content)
        if keep:
            group.kept[key] = content
            while len(group.kept) > keep:
                del group.kept[next(iter(group.kept))]  # the least recently shown

    def show_kept(self, name: str, key: Hashable) -> bool:
        """Show the group's content for `key` again if it kept it (`set_group`'s `keep`): the mouse back
        over a hex builds no triangles. False if it has none for `key`."""
        group = self._groups.get(name)
        if group is None:
            return False
        if group.key == key:
            return True
        content = group.kept.pop(key, None)
        if content is None:
            return False
        group.kept[key] = content  # the most recently shown last
        group.show(key, content)
        return True

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
        batches = [b for b in (self._text_batch(g) for g in groups) if b is not None]
        if self.show_labels:
            labels = self._labels()
            if labels is not None:
                batches.insert(0, labels)
        with self._cameras():
            self.camera.use()
            self.geometry.draw()
            for group in groups:
                for shapes in group.shapes:
                    shapes.draw()
            self.draw_cursor()  # over the counters, under their names
            self._draw_texts(batches)

    def draw_dynamic(self) -> None:
        """The dynamic groups, over the kept picture (every drawn frame)."""
        super().draw_dynamic()
        groups = [g for g in self._groups.values() if g.dynamic]
        if self.geometry is None or self.box.width <= 0 or self.box.height <= 0 or not groups:
            return
        shapes = [shape_list for group in groups for shape_list in group.shapes]
        batches = [b for b in (self._text_batch(g) for g in groups) if b is not None]
        if not shapes and not batches:
            return
        with self._cameras():
            self.camera.use()
            for shape_list in shapes:
                shape_list.draw()
            self._draw_texts(batches)

    @contextmanager
    def _cameras(self) -> Iterator[None]:
        """Draw through the map's cameras (`camera.use()`, then the label camera for texts) and come
        back to the window's camera once at the end: every camera switch sets the projection, the
        viewport and the scissor box, and the map is drawn every frame the mouse moves."""
        window = self.window
        previous = window.current_camera
        framebuffer = window.ctx.active_framebuffer
        try:
            yield
        finally:
            framebuffer.use()
            previous.use()
            window.ctx.scissor = None  # the default camera does not reset the scissor box

    def _draw_texts(self, batches: list[pyglet.graphics.Batch]) -> None:
        """Text batches laid out at their pixel size, through the label camera (clipped to the box);
        inside `_cameras`."""
        if batches:
            self.label_camera.use()
            for batch in batches:
                batch.draw()


@attrs.define
class _Content:
    """What a group shows: its shapes (each with its slot and whether it blends) and its texts."""

    shapes: list[tuple[int, bool, Shape]]
    texts: list[TextSpec]


class _Group:
    """One named layer of the battle map."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.dynamic = False
        self.shapes: list[ShapeElementList] = []
        #: The group's shape lists by slot and blending, kept from key to key: a new key writes its
        #: triangles into their GPU buffers instead of making new buffers (the hover group changes on
        #: every hex the mouse crosses).
        self.pool: dict[tuple[int, bool], ShapeElementList] = {}
        self.texts: list[TextSpec] = []
        self.text_key: Hashable = None
        self.batch: pyglet.graphics.Batch | None = None
        self.zoom: float | None = None  # the zoom the batch's texts are laid out for
        #: The laid-out texts with their style (words, colour, pixel size, weight), for reuse.
        self.objects: list[tuple[Hashable, arcade.Text]] = []
        #: Laid-out texts not shown now (hidden in the batch), by style, for reuse.
        self.hidden: dict[Hashable, list[arcade.Text]] = {}
        #: Contents shown lately, by key (`BattleMap.set_group`'s `keep`).
        self.kept: dict[Hashable, _Content] = {}

    def show(self, key: Hashable, content: _Content) -> None:
        """Put `content` into the group's shape lists (their GPU buffers are written again, not made
        anew) and its texts in place of the old ones."""
        self.key = key
        for pooled in self.pool.values():
            pooled.update()  # a shape appended and never drawn is not in its batch yet
            for old in list(pooled.shape_list):
                pooled.remove(old)
        self.shapes = []
        for slot, blend, shape in content.shapes:
            shape_list = self.pool.get((slot, blend))
            if shape_list is None:
                shape_list = self.pool[(slot, blend)] = ShapeElementList(blend=blend)
            shape_list.append(shape)
            self.shapes.append(shape_list)
        self.texts = content.texts
        self.text_key = None
