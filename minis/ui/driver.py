"""Drive the game window by hand: input events, frame stepping and screenshots.

For the UI tests and `minis play --screenshot`. In arcade's headless mode pyglet's clock never fires,
so nothing draws by itself: `frame()` runs one update and one draw, the way arcade's own loop does.
Input goes through the window's real event dispatch (queued, then delivered by `dispatch_events`),
so the screens see exactly what a player's mouse and keyboard would send.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import arcade
import PIL.Image

from minis.ui.app import HEIGHT, WIDTH, MinisWindow, Screen
from minis.ui.widgets import Box

FRAME = 1 / 60


class Driver:
    def __init__(self, window: MinisWindow) -> None:
        self.window = window
        self.mouse = (0.0, 0.0)
        #: The window's clock while driven: a frame is 1/60 s, and each `click` starts a second after
        #: the last (a click by hand, never half of a double-click: `double_click` makes one).
        self.now = 0.0
        window.clock = lambda: self.now

    @classmethod
    def open(cls, width: int = WIDTH, height: int = HEIGHT) -> Driver:
        """A hidden window showing the main menu, its screens wired (`router.new_window`)."""
        from minis.ui.router import new_window

        window = new_window(width, height, visible=False)
        window.routes.main_menu()
        driver = cls(window)
        driver.frame()
        return driver

    @property
    def screen(self) -> Screen | None:
        """The screen the window shows."""
        return self.window.top_screen

    @property
    def closed(self) -> bool:
        return self.window.closed

    def close(self) -> None:
        if not self.window.closed:
            self.window.close()

    # --- time --------------------------------------------------------------------------------------
    def _deliver(self, *event: object) -> None:
        self.window.dispatch_event(*event)
        self.window.dispatch_events()

    def draw(self) -> None:
        """One update and one draw (no buffer swap, so the picture can still be read)."""
        if self.window.closed:
            return
        self.window.switch_to()
        self._deliver("on_update", FRAME)
        if not self.window.closed:
            self._deliver("on_draw")

    def frame(self, count: int = 1) -> None:
        for _ in range(count):
            self.now += FRAME
            self.draw()
            if not self.window.closed:
                self.window.flip()

    # --- input -------------------------------------------------------------------------------------
    def move(self, x: float, y: float) -> None:
        dx, dy = x - self.mouse[0], y - self.mouse[1]
        self.mouse = (x, y)
        self._deliver("on_mouse_motion", int(x), int(y), int(dx), int(dy))

    def click(self, x: float, y: float, button: int = arcade.MOUSE_BUTTON_LEFT) -> None:
        """Move there, press and release, then draw a frame."""
        self.now += 1.0
        self.move(x, y)
        self._deliver("on_mouse_press", int(x), int(y), button, 0)
        self._deliver("on_mouse_release", int(x), int(y), button, 0)
        self.frame()

    def double_click(self, x: float, y: float, button: int = arcade.MOUSE_BUTTON_LEFT) -> None:
        """Two clicks on the same spot, a tenth of a second apart (as a player's double-click)."""
        self.click(x, y, button)
        self.now += 0.1 - 1.0  # the second click's own second, taken back
        self.click(x, y, button)

    def click_box(self, box: Box, button: int = arcade.MOUSE_BUTTON_LEFT) -> None:
        self.click(*box.centre, button=button)

    def drag(
        self,
        start: tuple[float, float],
        end: tuple[float, float],
        steps: int = 8,
        button: int = arcade.MOUSE_BUTTON_LEFT,
    ) -> None:
        self.now += 1.0
        self.move(*start)
        self._deliver("on_mouse_press", int(start[0]), int(start[1]), button, 0)
        previous = start
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            dx, dy = int(x) - int(previous[0]), int(y) - int(previous[1])
            self._deliver("on_mouse_drag", int(x), int(y), dx, dy, button, 0)
            previous = (x, y)
        self.mouse = end
        self._deliver("on_mouse_release", int(end[0]), int(end[1]), button, 0)
        self.frame()

    def scroll(self, x: float, y: float, clicks: float) -> None:
        self.move(x, y)
        self._deliver("on_mouse_scroll", int(x), int(y), 0, clicks)
        self.frame()

    def key(self, symbol: int, modifiers: int = 0) -> None:
        """Press and release a key, then draw a frame."""
        self._deliver("on_key_press", symbol, modifiers)
        if not self.window.closed:
            self._deliver("on_key_release", symbol, modifiers)
        self.frame()

    def type_text(self, text: str) -> None:
        """Type text (as pyglet's on_text events, one per character), then draw a frame."""
        for ch in text:
            self._deliver("on_text", ch)
        self.frame()

    # --- pictures ----------------------------------------------------------------------------------
    def image(self) -> PIL.Image.Image:
        """The current picture, drawn afresh."""
        self.draw()
        image = arcade.get_image(components=3)
        self.window.flip()
        return image

    def screenshot(self, path: str | Path) -> Path:
        """Save the current picture as a PNG (the folder must exist), atomically: never half a file."""
        from minis.base.atomic import write_atomic

        path = Path(path)
        buffer = io.BytesIO()
        self.image().save(buffer, format="PNG")
        write_atomic(path, buffer.getvalue())
        return path


def save_screenshot(
    window: MinisWindow,
    path: Path,
    *,
    command: str,
    failed: int,
    before: Callable[[Driver], object] | None = None,
) -> int:
    """Draw `window` into the PNG file `path`, then close it: the `--screenshot` of `minis play` and
    `minis edit`. `before(driver)` may move the mouse first. Returns 0, or `failed` after saying on
    stderr why the file can't be written."""
    driver = Driver(window)
    try:
        if before is not None:
            before(driver)
        driver.screenshot(path)
    except OSError as error:
        print(f"{command}: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return failed
    finally:
        driver.close()
    print(f"wrote {path}")
    return 0
