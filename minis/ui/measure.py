"""`minis play --demo --measure`: how fast the battle screen answers a player, in milliseconds.

A fixed script of input events is played on the demo battle (`minis.ui.demo`) in a hidden window: the
mouse across the map, a click on each unit that may still act, a path, the mouse over its reach and its
targets (an attack hover). Every timed frame is one turn of the window's own event loop: the input
events, an update, then `window.draw` (what pyglet's loop calls: `on_draw` and the buffer swap), up to
`ctx.finish()`, so the GPU's (Mesa's) share is counted too. Four medians come out as one line:

- `empty_ms`: an empty screen of the same window after a mouse move (the least a frame costs);
- `frame_ms`: the battle with nothing happening (what an idle window spends per frame);
- `hover_ms`: the mouse moved to another hex of the battle map;
- `click_ms`: a click on a unit, until its reachable hexes are drawn.

The script asks the screen nothing but where hexes are (`map.hex_centre_on_screen`) and reads the
engine's game, so it measures older versions of the screen as well.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import arcade

from minis.hexgrid import Hex
from minis.ui.app import MinisWindow, Screen

#: The time a loop turn reports to `on_update` and `draw` (pyglet's loop runs at 60 Hz).
FRAME = 1 / 60
#: Passes over the units that may act (each: a click, hovers, a path, target hovers).
ROUNDS = 2


@dataclass(frozen=True)
class Figures:
    """The medians of one measurement, in milliseconds."""

    empty_ms: float
    frame_ms: float
    hover_ms: float
    click_ms: float

    def line(self) -> str:
        """The one line `minis play --demo --measure` prints."""
        return (
            f"empty_ms={self.empty_ms:.2f} frame_ms={self.frame_ms:.2f} "
            f"hover_ms={self.hover_ms:.2f} click_ms={self.click_ms:.2f}"
        )


class Loop:
    """Turns of the window's event loop, with input delivered as the real loop delivers it."""

    def __init__(self, window: MinisWindow) -> None:
        self.window = window
        # pyglet's event loop dispatches events at once instead of queueing them (EventLoop.run sets
        # this for every window); do the same, so `window.draw` draws as it does in `minis play`.
        window._enable_event_queue = False
        self.mouse = (0, 0)

    def turn(self) -> None:
        """One loop turn: an update, then the window's draw (which may keep the last picture)."""
        self.window.dispatch_event("on_update", FRAME)
        self.window.draw(FRAME)
        self.window.ctx.finish()

    def timed(self, events: Callable[[], object]) -> float:
        """Milliseconds from the input events to the end of the frame that shows them."""
        start = time.perf_counter()
        events()
        self.turn()
        return (time.perf_counter() - start) * 1000

    def move(self, x: float, y: float) -> None:
        dx, dy = int(x) - self.mouse[0], int(y) - self.mouse[1]
        self.mouse = (int(x), int(y))
        self.window.dispatch_event("on_mouse_motion", int(x), int(y), dx, dy)

    def click(self, x: float, y: float) -> None:
        self.move(x, y)
        for event in ("on_mouse_press", "on_mouse_release"):
            self.window.dispatch_event(event, int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)

    def key(self, symbol: int) -> None:
        self.window.dispatch_event("on_key_press", symbol, 0)
        self.window.dispatch_event("on_key_release", symbol, 0)


def _across(screen: Any) -> list[Hex]:
    """The hexes of the map's middle row, west to east: the mouse's way across the map."""
    board = screen.session.game.state.board
    rows = sorted({h.r for h in board.hexes})
    middle = rows[len(rows) // 2]
    return sorted((h for h in board.hexes if h.r == middle), key=lambda h: h.q)


def _units(screen: Any) -> Iterator[tuple[Hex, list[Hex], list[Hex]]]:
    """Each unit that may act with somewhere to go, one per hex: its hex, a few hexes it reaches
    (furthest last) and its targets' hexes (from the engine)."""
    game = screen.session.game
    state = game.state
    seen: set[Hex] = set()
    for unit_id in game.ready_units():
        unit = state.units[unit_id]
        options = game.unit_options(unit_id)
        if unit.hex is None or unit.hex in seen or options is None or not options.moves:
            continue
        seen.add(unit.hex)
        reach = sorted(options.moves, key=lambda h: (len(options.moves[h]), h.q, h.r))
        targets = [state.units[t].hex for t in options.attacks]
        yield unit.hex, reach[-4:], [h for h in targets if h is not None][:3]


def _nothing() -> None:
    """No input at all: an idle frame."""


def measure(window: MinisWindow, screen: Screen, *, rounds: int = ROUNDS) -> Figures:
    """Play the script on `screen` (the demo battle, shown in `window`) and return the medians."""
    loop = Loop(window)
    where = screen.map.hex_centre_on_screen  # type: ignore[attr-defined]  # the battle screen's map
    for _ in range(60):  # a second of the loop: the player looks at the battle first
        loop.turn()
    empty = Screen(window)
    window.open(empty)
    loop.turn()
    empties = [loop.timed(partial(loop.move, 200 + i % 2, 300)) for i in range(30)]
    window.back()
    loop.turn()
    idle = [loop.timed(_nothing) for _ in range(30)]
    hovers: list[float] = []
    clicks: list[float] = []
    units = list(_units(screen))
    for _ in range(rounds):
        for hex_ in _across(screen):
            hovers.append(loop.timed(partial(loop.move, *where(hex_))))
        for here, reach, targets in units:
            clicks.append(loop.timed(partial(loop.click, *where(here))))
            for hex_ in reach:
                hovers.append(loop.timed(partial(loop.move, *where(hex_))))
            loop.click(*where(reach[-1]))  # a path to the furthest hex
            loop.turn()
            for hex_ in targets:  # the attack hover: odds and the sight line
                hovers.append(loop.timed(partial(loop.move, *where(hex_))))
            loop.key(arcade.key.ESCAPE)  # let go of the unit
            loop.turn()
    return Figures(
        empty_ms=statistics.median(empties),
        frame_ms=statistics.median(idle),
        hover_ms=statistics.median(hovers),
        click_ms=statistics.median(clicks),
    )


def measure_demo(window: MinisWindow, *, rounds: int = ROUNDS) -> Figures:
    """Open the demo battle in `window` (hidden, 1280x800) and measure it."""
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.session import Session

    screen = BattleScreen(window, Session(demo_game(), autosave=False))
    window.open(screen)
    return measure(window, screen, rounds=rounds)
