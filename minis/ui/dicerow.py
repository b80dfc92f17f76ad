"""The dice of the last action, drawn so a player can check them: every die, wrapped into rows that fit
the panel, each success marked (a green frame and a tick) against the number needed, each roll with what
it was for above its dice and its result below ("3 successes against defense 5: no hits").

For a moment after a roll (`tumble`, from `minis.ui.motion`) the dice show tumbling faces, unmarked and
without their results, then settle on the true faces."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from minis.ui import theme
from minis.ui.rolls import Roll
from minis.ui.widgets import Box, Label, Widget, fill

DIE = 24
GAP = 4
#: Die faces: a success stands out, a failure is greyed, a die with no number to reach is plain.
FACE = {True: (236, 250, 232, 255), False: (150, 150, 146, 255), None: (246, 244, 236, 255)}
FRAME = {True: theme.GOOD, False: (96, 96, 100, 255)}
AXIS_FRAME: theme.Colour = (150, 158, 168, 255)
ALLIES_FRAME: theme.Colour = (120, 150, 90, 255)
INK: theme.Colour = (20, 20, 20, 255)


def frame_of(roll: Roll, index: int, success: bool | None) -> theme.Colour:
    """A die's frame: green for a success, dark for a failure, else by whose die it is."""
    if success is not None:
        return FRAME[success]
    if roll.kind == "initiative":
        return AXIS_FRAME if index % 4 < 2 else ALLIES_FRAME
    return theme.ACCENT


class DiceRolls(Widget):
    """The rolls of the last action (see the module docstring); `height_for` says how tall they are."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: list[Roll] = []
        self._captions: list[Label] = []
        self._results: list[Label] = []
        self._faces: list[Label] = []
        #: The faces shown while the dice tumble (None: the true faces).
        self.tumbling: tuple[int, ...] | None = None

    @property
    def count(self) -> int:
        """How many dice the rolls have, all told."""
        return sum(len(roll.dice) for roll in self.rolls)

    def tumble(self, faces: Sequence[int] | None) -> None:
        """Show `faces` (one per die) as the dice tumble, or (None) the true faces, marked."""
        shown = tuple(faces) if faces is not None and len(faces) == len(self._faces) else None
        if shown == self.tumbling:
            return
        self.tumbling = shown
        true = [die for roll in self.rolls for die in roll.dice]
        for label, die in zip(self._faces, shown if shown is not None else true, strict=True):
            label.text = str(die)

    def set_rolls(self, rolls: Sequence[Roll]) -> None:
        if list(rolls) == self.rolls:
            return
        self.rolls = list(rolls)
        self.tumbling = None
        small = theme.SMALL_SIZE
        self._captions = [Label(r.caption, size=small, multiline=True, colour=theme.TEXT_DIM) for r in rolls]
        self._results = [Label(r.result, size=small, multiline=True, bold=True) for r in rolls]
        self._faces = [
            Label(str(die), size=theme.TEXT_SIZE, bold=True, colour=INK, align="center")
            for r in rolls
            for die in r.dice
        ]
        self.place(self.box)

    def per_row(self, width: float) -> int:
        return max(1, int((width + GAP) // (DIE + GAP)))

    def _dice_height(self, roll: Roll, width: float) -> float:
        rows = -(-len(roll.dice) // self.per_row(width))
        return rows * (DIE + GAP)

    def height_for(self, width: float) -> float:
        """The height every roll needs at `width` (captions and results wrapped, dice in rows)."""
        total = 0.0
        for i, roll in enumerate(self.rolls):
            total += self._part_height(self._captions[i], width) + self._dice_height(roll, width)
            total += self._part_height(self._results[i], width) + GAP
        return total

    @staticmethod
    def _part_height(label: Label, width: float) -> float:
        return label.height_for(width) + 2 if label.text else 0.0

    def die_boxes(self) -> list[Box]:
        """Where each die is drawn, all rolls' dice in order (for drawing, and for tests to check)."""
        return [box for _, _, box in self._layout()[2]]

    def _layout(self) -> tuple[list[Box], list[Box], list[tuple[int, int, Box]]]:
        """The captions', results' and dice's boxes from the top down; dice as (roll, die, box)."""
        box, width = self.box, self.box.width
        per_row = self.per_row(width)
        top = box.top
        captions, results, dice = [], [], []
        for i, roll in enumerate(self.rolls):
            height = self._part_height(self._captions[i], width)
            captions.append(Box(box.left, top - height, width, height))
            top -= height
            for j in range(len(roll.dice)):
                row, col = divmod(j, per_row)
                dice.append(
                    (i, j, Box(box.left + col * (DIE + GAP), top - row * (DIE + GAP) - DIE, DIE, DIE))
                )
            top -= self._dice_height(roll, width)
            height = self._part_height(self._results[i], width)
            results.append(Box(box.left, top - height, width, height))
            top -= height + GAP
        return captions, results, dice

    def place(self, box: Box) -> None:
        super().place(box)
        captions, results, dice = self._layout()
        for label, at in zip(self._captions, captions, strict=True):
            label.place(at)
        for label, at in zip(self._results, results, strict=True):
            label.place(at)
        for label, (_, _, at) in zip(self._faces, dice, strict=True):
            label.place(at)

    def parts(self) -> Sequence[Widget]:
        return [*self._captions, *self._results, *self._faces]

    def look(self) -> Hashable:
        return (super().look(), tuple(self.rolls), self.tumbling)

    def draw(self) -> None:
        if not self.visible:
            return
        settled = self.tumbling is None  # a roll's result shows once its dice have settled
        for label in (*self._captions, *(self._results if settled else ())):
            if label.box.bottom >= self.box.bottom - 1:
                label.draw()
        for (i, j, at), face in zip(self._layout()[2], self._faces, strict=True):
            if at.bottom < self.box.bottom - 1:
                continue
            roll = self.rolls[i]
            success = roll.success[j] if settled and j < len(roll.success) else None
            fill(at, frame_of(roll, j, success))
            fill(at.inset(3 if success else 2), FACE[success])
            face.draw()
