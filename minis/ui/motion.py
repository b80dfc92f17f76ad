"""Motion at the table: after an action, what moves on the map, when, and how far along (no window).

When `Game.apply` returns, the position is already final: a unit stands on its last hex, a destroyed
unit is off the map. For a moment (a few hundred ms) the screen draws what happened instead of jumping
to it: a unit slides along its path hex by hex (and stops where the engine stopped it), the dice row
shows tumbling faces before the true ones, a hit flashes on its target, a miss is marked, a destroyed
unit fades and shrinks away at its hex. An aircraft placed in the flight phase glides down onto its hex
as it fades in; at the end of the turn each aircraft climbs away from its hex as it fades out. Motion
changes only what is drawn, never the game.

`scene` turns an action's events into a `Scene` (pure); `Motion` plays it against an injectable clock
(tests step a clock of their own: no sleeps) and answers, for the moment the screen draws, a `Frame`:
hashable, so it goes into the screen's `look()` (the window draws while motion plays, and stops after).
The tumbling faces come from the motion's own `random.Random`, never the game's dice.

Motion is on by default; `MINIS_MOTION=0` (or `off`, `no`, `false`) in the environment turns it off,
and so does `Motion.enabled = False` (the test suite turns it off, see tests/conftest.py).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from minis.engine.events import Event, EventKind
from minis.hexgrid import Hex
from minis.ui.rolls import ROLLED

#: A slide takes this long per hex (seconds) ...
STEP = 0.12
#: ... and never longer than this in all, however long the path: long moves go faster.
SLIDE_MAX = 0.6
#: How long the dice tumble; what the dice decide (a hit, a miss, a unit destroyed) shows after.
DICE = 0.25
#: How long a hit's flash, a miss's mark and a destroyed unit's leaving last.
FLASH = 0.4
MISS = 0.6
LEAVE = 0.45
#: How long an aircraft takes to glide onto its hex (placed) or to climb away from it (the turn's end).
FLY = 0.4
#: The tumbling dice show new faces this often.
TUMBLE_TICK = 0.05
#: The events that slide a unit from hex to hex.
_GLIDES: tuple[EventKind, ...] = ("move", "retrace", "dismount")

#: The environment variable that turns motion off ("0", "off", "no", "false").
ENVIRONMENT = "MINIS_MOTION"
_OFF = ("0", "off", "no", "false")


def wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether players get motion: yes, unless `MINIS_MOTION` says off."""
    environ = os.environ if environ is None else environ
    return environ.get(ENVIRONMENT, "").strip().lower() not in _OFF


@attrs.frozen
class Slide:
    """A unit walking `path` (two hexes or more), one hex every `step` seconds from `start`."""

    unit: str
    path: tuple[Hex, ...]
    start: float
    step: float

    @property
    def end(self) -> float:
        return self.start + self.step * (len(self.path) - 1)

    def at(self, t: float) -> tuple[Hex, Hex, float]:
        """The step under way at time `t` (from, to) and how far along it (0-1); before it starts, the
        first step at 0; after it ends, the last at 1."""
        done = min(max(0.0, (t - self.start) / self.step), len(self.path) - 1)
        i = min(int(done), len(self.path) - 2)
        return self.path[i], self.path[i + 1], done - i


@attrs.frozen
class Mark:
    """Something shown at a hex for a moment: a hit's flash ("hit"), a miss ("miss"), a destroyed
    unit leaving ("leave", drawn fading and shrinking where it stood), an aircraft flying in ("fly",
    drawn gliding down onto the hex) or away at the end of the turn ("land", climbing off it)."""

    kind: str
    unit: str
    hex: Hex
    start: float
    length: float

    @property
    def end(self) -> float:
        return self.start + self.length


@attrs.frozen
class Scene:
    """What one action shows: its slides, its marks, and how long its dice tumble (0: no dice)."""

    slides: tuple[Slide, ...] = ()
    marks: tuple[Mark, ...] = ()
    dice: float = 0.0

    @property
    def length(self) -> float:
        return max((self.dice, *(s.end for s in self.slides), *(m.end for m in self.marks)))


@attrs.frozen
class Frame:
    """What is drawn differently at one moment. `slides`: (unit, from, to, how far along that step);
    `marks`: (mark, how far along it, 0-1); `tumble`: the tumbling dice's tick, None once settled."""

    slides: tuple[tuple[str, Hex, Hex, float], ...] = ()
    marks: tuple[tuple[Mark, float], ...] = ()
    tumble: int | None = None

    @property
    def moving(self) -> frozenset[str]:
        """The units drawn by the motion instead of at their hexes (sliding units, aircraft flying in)."""
        flying = (mark.unit for mark, _ in self.marks if mark.kind == "fly")
        return frozenset((*(unit for unit, *_ in self.slides), *flying))

    def hex_of(self, unit: str) -> Hex | None:
        """The hex a sliding unit is nearest to (None if it is not sliding)."""
        for who, a, b, along in self.slides:
            if who == unit:
                return a if along < 0.5 else b
        return None


def scene(events: Sequence[Event], seen: Mapping[str, Hex]) -> Scene:
    """The motion of an action's `events`; `seen`: where each unit stood before the action (a destroyed
    unit's hex is no longer in the game). The dice tumble first; what the dice decide (a hit, a miss,
    a unit destroyed) and a move that comes after dice (a movement roll, defensive fire) start when
    they settle, so a player sees the cause before the effect."""
    where = dict(seen)
    paths: dict[str, list[Hex]] = {}
    starts: dict[str, float] = {}
    marks: list[Mark] = []
    rolled = False
    for event in events:
        after = DICE if rolled else 0.0
        unit = event.unit or ""
        if event.kind in ROLLED and event.dice:
            rolled = True
        elif event.kind in _GLIDES and event.hexes:
            path = paths.setdefault(unit, [])
            starts.setdefault(unit, after)
            start = event.hexes[0] if event.kind == "move" else where.get(unit)
            if start is not None:  # `_walked` drops it where the path is already there
                path.append(start)
            path.append(event.hexes[-1])
            where[unit] = event.hexes[-1]
        elif event.kind == "hits" and unit in where:
            hit = bool(event.value)
            marks.append(Mark("hit" if hit else "miss", unit, where[unit], after, FLASH if hit else MISS))
        elif event.kind == "removed" and unit in where:
            marks.append(Mark("leave", unit, where.pop(unit), after, LEAVE))
        elif event.kind == "place" and event.hexes:  # an aircraft flies in over its hex
            where[unit] = event.hexes[-1]
            marks.append(Mark("fly", unit, event.hexes[-1], after, FLY))
        elif event.kind == "land" and unit in where:  # an aircraft leaves at the end of the turn
            marks.append(Mark("land", unit, where.pop(unit), after, FLY))
    slides = []
    for unit, path in paths.items():
        hexes = _walked(path)
        if len(hexes) >= 2:
            step = min(STEP, SLIDE_MAX / (len(hexes) - 1))
            slides.append(Slide(unit, hexes, starts[unit], step))
    return Scene(tuple(slides), tuple(marks), DICE if rolled else 0.0)


def _rounded(step: tuple[Hex, Hex, float]) -> tuple[Hex, Hex, float]:
    """A step with how far along it to a thousandth (a frame changes only when the picture does)."""
    return step[0], step[1], round(step[2], 3)


def _walked(path: Iterable[Hex]) -> tuple[Hex, ...]:
    """A path without standing still (the same hex twice in a row)."""
    hexes: list[Hex] = []
    for hex_ in path:
        if not hexes or hexes[-1] != hex_:
            hexes.append(hex_)
    return tuple(hexes)


class Motion:
    """The motion of the last action, played against `clock` (seconds; `time.monotonic` by default).

    `play` starts an action's scene (nothing when `enabled` is off, or when nothing moves), `frame`
    says what to draw now, `finish` skips to the end (a key or a click does)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        enabled: bool | None = None,
        dice: random.Random | None = None,
    ) -> None:
        self.clock = clock
        self.enabled = wanted() if enabled is None else enabled
        #: The tumbling faces' source: the UI's own, never the game's dice.
        self.random = dice if dice is not None else random.Random()
        self.scene: Scene | None = None
        self.began = 0.0
        self._faces: tuple[object, tuple[int, ...]] = (None, ())
        self._played = 0

    def play(self, events: Sequence[Event], seen: Mapping[str, Hex]) -> None:
        """Show what an action did (`seen`: where the units stood before it); an earlier scene ends."""
        self.scene = None
        if not self.enabled:
            return
        found = scene(events, seen)
        if found.length > 0:
            self.scene = found
            self.began = self.clock()
            self._played += 1

    def finish(self) -> bool:
        """Skip to the end; True if something was playing (the key or click that asked does nothing else)."""
        playing = self.frame() is not None
        self.scene = None
        return playing

    @property
    def playing(self) -> bool:
        return self.frame() is not None

    def frame(self) -> Frame | None:
        """What to draw now (None: nothing moves, draw the game as it is)."""
        if self.scene is None:
            return None
        t = self.clock() - self.began
        if t >= self.scene.length:
            self.scene = None
            return None
        slides = tuple((s.unit, *_rounded(s.at(t))) for s in self.scene.slides if t < s.end)
        marks = tuple(
            (m, round((t - m.start) / m.length, 3)) for m in self.scene.marks if m.start <= t < m.end
        )
        tumble = int(t / TUMBLE_TICK) if t < self.scene.dice else None
        return Frame(slides, marks, tumble)

    def faces(self, count: int) -> tuple[int, ...] | None:
        """The faces `count` tumbling dice show now (the same all through a tick), None once they have
        settled (the dice row then shows the true faces)."""
        frame = self.frame()
        if frame is None or frame.tumble is None:
            return None
        key = (self._played, frame.tumble, count)
        if self._faces[0] != key:
            self._faces = (key, tuple(self.random.randint(1, 6) for _ in range(count)))
        return self._faces[1]
