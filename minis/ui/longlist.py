"""A `ListBox` for hundreds of entries (the army builder's 473 cards): text only for the rows in view.

`ListBox` makes a label for every entry when its items change and places every label whenever it
scrolls. With the whole catalogue that is hundreds of texts laid out on each key typed into a search
box, and hundreds moved on each turn of the wheel. `LongList` keeps the entries as plain strings and
makes the labels of a row only when the row comes into view (kept until the items change), and
places only the rows in view. Its `look` is a counter of changes, not the items themselves, so an
idle frame does not hash hundreds of strings.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from minis.ui import theme
from minis.ui.widgets import Box, Label, ListBox, Widget, fit_text


class LongList(ListBox):
    """A left-aligned list whose entries (a text, a dim detail at the right, a colour) are laid out
    only when shown."""

    def __init__(
        self,
        on_choose: Callable[[int], object],
        *,
        row_height: float = 28,
        size: float = theme.TEXT_SIZE,
        gap: float = 3,
    ) -> None:
        #: Each shown row's labels (the entry's text, its detail), made when the row first comes into view.
        self._rows: dict[int, tuple[Label, Label | None]] = {}
        #: Counts changes of the items (what `look` compares instead of the items).
        self.version = 0
        #: How many row labels were made since the list was built (tests check that it stays small).
        self.made = 0
        super().__init__([], on_choose, row_height=row_height, size=size, align="left", bold=False, gap=gap)

    def set_items(
        self,
        items: Sequence[str],
        details: Sequence[str] | None = None,
        colours: Sequence[theme.Colour | None] | None = None,
    ) -> None:
        """Replace the entries (the list starts again at its first); no label is made until its row is
        shown."""
        self.items = list(items)
        self.details = list(details) if details is not None else []
        self.colours = list(colours) if colours is not None else [None] * len(self.items)
        self._rows = {}
        self.version += 1
        self.index = self.top_row = 0
        self.place(self.box)

    def set_details(self, details: Sequence[str]) -> None:
        """Replace the dim texts at the right of the rows (a resized list shows shorter ones), keeping
        the entries, the highlighted one and the scroll position."""
        self.details = list(details)
        self._rows = {}
        self.version += 1
        self._place_labels()

    def look(self) -> Hashable:
        return (Widget.look(self), self.index, self.top_row, self._hover, self._pressed, self.version)

    def shown_rows(self) -> range:
        """The rows in view now."""
        return range(self.top_row, min(len(self.items), self.top_row + self.visible_rows))

    def _labels_of(self, row: int) -> tuple[Label, Label | None]:
        """The row's labels, made (and fitted to the row) the first time it is shown."""
        found = self._rows.get(row)
        if found is None:
            colour = self.colours[row] if row < len(self.colours) else None
            label = Label(self.items[row], size=self.size, colour=colour or theme.TEXT)
            detail_text = self.details[row] if row < len(self.details) else ""
            detail = (
                Label(detail_text, size=self.size - 1, align="right", colour=theme.TEXT_DIM)
                if detail_text
                else None
            )
            self.made += 1
            found = (label, detail)
            self._rows[row] = found
            self._fit(row, found)
        return found

    def _text_box(self, row: int, detail: Label | None) -> Box:
        """Where the entry's text goes: the row but for its detail at the right end."""
        box = self.row_box(row).inset(8, 0)
        room = box.width - (detail.text_width + 12 if detail is not None else 0)
        return Box(box.left, box.bottom, max(0.0, room), box.height)

    def _fit(self, row: int, labels: tuple[Label, Label | None]) -> None:
        """The entry's text ends where its detail starts (cut with "…" if it is too long)."""
        label, detail = labels
        fit_text(label, self._text_box(row, detail).width, self.items[row])

    def place(self, box: Box) -> None:
        if box.width != self.box.width:
            self._rows = {}  # fitted to another width
        super().place(box)

    def _place_labels(self) -> None:
        for row in self.shown_rows():
            label, detail = self._labels_of(row)
            label.place(self._text_box(row, detail))
            if detail is not None:
                detail.place(self.row_box(row).inset(8, 0))

    def parts(self) -> Sequence[Widget]:
        found: list[Widget] = []
        for row in self.shown_rows():
            label, detail = self._labels_of(row)
            found.append(label)
            if detail is not None:
                found.append(detail)
        return found

    def draw(self) -> None:
        if not self.visible:
            return
        for row in self.shown_rows():
            self.draw_row_frame(row)
            label, detail = self._labels_of(row)
            label.draw()
            if detail is not None:
                detail.draw()
