"""The game window, its stack of screens, and the base class of every screen.

Each screen is an `arcade.View`. The window keeps them on a stack: opening a screen pushes it, and
Escape pops it, back to the one below (Escape on the main menu quits). A screen opens another through
the window's `routes` (`minis.ui.navigation`), never by importing it. A `Screen` has a title bar, a
hint line at the bottom that always says what to do next, and a list of widgets that get the input
events in order; Tab moves the keyboard focus between the widgets that take it.

The UI changes a game only through the engine's actions; nothing here decides a rule.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from minis.dice import Dice
from minis.ui import theme
from minis.ui.widgets import Box, Dialog, Label, Widget, fill

if TYPE_CHECKING:
    from minis.ui.navigation import Routes

WIDTH = 1280
HEIGHT = 800
TITLE = "minis"

#: No mouse button is held (`Screen._press_target`).
NO_PRESS = object()
#: A point outside every widget: a release there ends a press and clicks nothing.
OUTSIDE = -1_000_000
#: A second click this soon (seconds) and this near (pixels) to a click that changed what is in front
#: is the second half of a double-click: it is dropped, not given to what the first click opened.
DOUBLE_CLICK_TIME = 0.5
DOUBLE_CLICK_SLOP = 6


class Screen(arcade.View):
    """One screen of the game: title bar, widgets, hint line, Escape to go back.

    Subclasses build their widgets in `__init__`, lay them out in `layout` (called on show and on
    every resize) and may draw more in `draw_content` (under the widgets) and `draw_overlay` (over them).
    """

    title = ""
    hint = ""
    #: The hint for narrow windows (when `hint` does not fit).
    short_hint = ""

    def __init__(self, window: MinisWindow) -> None:
        super().__init__(window)
        self.app = window
        self.widgets: list[Widget] = []
        #: Those of `widgets` that sit in the title bar (drawn after it).
        self.bar_widgets: list[Widget] = []
        self.focus_index: int | None = None
        #: A modal dialog over the screen: while it is open it gets every input event.
        self.dialog: Dialog | None = None
        #: Where the mouse button now held went when pressed: a dialog, None (the widgets) or NO_PRESS.
        self._press_target: Dialog | object | None = NO_PRESS
        self._title = Label(self.title, size=theme.TITLE_SIZE, bold=True)
        self._hint = Label(self.hint, size=theme.SMALL_SIZE + 1, colour=theme.TEXT_DIM)

    # --- layout ------------------------------------------------------------------------------------
    @property
    def content_box(self) -> Box:
        """The window below the title bar and above the hint line."""
        width, height = self.app.get_size()
        return Box(0, theme.HINT_HEIGHT, width, max(0, height - theme.BAR_HEIGHT - theme.HINT_HEIGHT))

    def layout(self, width: int, height: int) -> None:
        """Place the widgets for a window of this size."""

    def _layout_all(self) -> None:
        width, height = self.app.get_size()
        self._title.place(Box(theme.MARGIN * 2, height - theme.BAR_HEIGHT, width / 2, theme.BAR_HEIGHT))
        self._hint.place(Box(theme.MARGIN, 0, width - 2 * theme.MARGIN, theme.HINT_HEIGHT))
        if self.short_hint:
            self._hint.text = self.hint
            if self._hint.text_width > width - 2 * theme.MARGIN:
                self._hint.text = self.short_hint
        self.layout(width, height)
        if self.dialog is not None:
            self.place_dialog(self.dialog)

    def modal(self) -> object | None:
        """What takes all input over the screen now (its dialog), or None: the window's `InputGate`
        keeps a press's release and a key's text from reaching anything else when this changes."""
        return self.dialog

    def show_dialog(self, dialog: Dialog | None) -> None:
        """Open a modal dialog (None closes it)."""
        self.dialog = dialog
        if dialog is not None:
            self.place_dialog(dialog)

    def place_dialog(self, dialog: Dialog) -> None:
        """Where dialogs go: the middle of the screen (screens with a map may prefer beside it)."""
        dialog.place_centred(self.content_box)

    def set_title(self, text: str) -> None:
        self._title.text = text

    def set_hint(self, text: str) -> None:
        self._hint.text = text

    @property
    def hint_text(self) -> str:
        return self._hint.text

    # --- focus -------------------------------------------------------------------------------------
    def focusables(self) -> list[Widget]:
        return [w for w in self.widgets if w.focusable and w.visible]

    def set_focus(self, widget: Widget | None) -> None:
        for w in self.widgets:
            w.focused = w is widget
        self.focus_index = self.widgets.index(widget) if widget is not None else None

    @property
    def focused(self) -> Widget | None:
        return self.widgets[self.focus_index] if self.focus_index is not None else None

    def _cycle_focus(self, step: int) -> None:
        order = self.focusables()
        if not order:
            return
        current = self.focused
        index = order.index(current) if current in order else (-1 if step > 0 else 0)
        self.set_focus(order[(index + step) % len(order)])

    # --- arcade.View events ------------------------------------------------------------------------
    def on_show_view(self) -> None:
        self._layout_all()

    def on_resize(self, width: int, height: int) -> None:
        self._layout_all()

    def on_update(self, delta_time: float) -> None:
        """Advance animations; nothing to do yet."""

    def look(self) -> Hashable:
        """Everything the static picture depends on (see `widgets.Widget.look`)."""
        return (
            self.app.get_size(),
            self._title.look(),
            self._hint.look(),
            tuple(widget.look() for widget in self.widgets),
            self.content_look(),
            self.dialog.look() if self.dialog is not None else None,
        )

    def content_look(self) -> Hashable:
        """What `draw_content` and `draw_overlay` depend on, for screens that draw more than widgets."""
        return None

    def on_draw(self) -> bool:
        # the window has just asked for this frame's look (MinisWindow.draw): asking again costs the
        # screen's updates twice
        look = self.app.frame_look if self.app.frame_look is not None else self.look()
        self.app.frames.draw(look, self.draw_static)
        for widget in self.widgets:
            if widget.visible:
                widget.draw_dynamic()
        self.draw_dynamic()
        return True

    def draw_dynamic(self) -> None:
        """Draw over the kept picture and the widgets' dynamic parts, every drawn frame: what follows
        the mouse (a tooltip), so moving it does not cost a new static picture."""

    def draw_static(self) -> None:
        """The whole picture apart from `draw_dynamic` parts: drawn again only when `look` changes."""
        # the active framebuffer: the frame cache's while it renders (View.clear always clears the screen)
        self.app.ctx.active_framebuffer.clear(color=theme.BACKGROUND)
        self.draw_content()
        for widget in self.widgets:
            if widget not in self.bar_widgets:
                widget.draw()
        self.draw_overlay()
        self._draw_chrome()
        for widget in self.bar_widgets:
            widget.draw()
        if self.dialog is not None:
            if self.dialog.dim:
                width, height = self.app.get_size()
                arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (0, 0, 0, 110))
            self.dialog.draw()

    def _draw_chrome(self) -> None:
        width, height = self.app.get_size()
        fill(Box(0, height - theme.BAR_HEIGHT, width, theme.BAR_HEIGHT), theme.BAR)
        fill(Box(0, 0, width, theme.HINT_HEIGHT), theme.BAR)
        self._title.draw()
        self._hint.draw()

    def draw_content(self) -> None:
        """Draw under the widgets (a map, for example)."""

    def draw_overlay(self) -> None:
        """Draw over the widgets."""

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        if self.dialog is not None:
            self.dialog.on_mouse_motion(x, y)
            return True
        for widget in self.widgets:
            widget.on_mouse_motion(x, y)
        return True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        self._press_target = self.dialog
        if self.dialog is not None:
            return self.dialog.on_mouse_press(x, y, button, modifiers)
        for widget in self.widgets:
            if widget.visible and widget.on_mouse_press(x, y, button, modifiers):
                if widget.focusable:
                    self.set_focus(widget)
                return True
        return True

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        target, self._press_target = self._press_target, NO_PRESS
        if target is not NO_PRESS and target is not self.dialog:
            # a dialog opened or closed while the button was held: the release reaches neither the
            # dialog nor the screen behind it; what the press went to hears only that it is over
            self.release_outside(target, button)
            return True
        if self.dialog is not None:
            return self.dialog.on_mouse_release(x, y, button, modifiers)
        for widget in self.widgets:
            widget.on_mouse_release(x, y, button, modifiers)
        return True

    def release_outside(self, target: object, button: int) -> None:
        """The button is up, away from everything: `target` (a dialog, or None: the widgets) forgets its
        press without clicking (a release outside a button clicks nothing)."""
        for widget in [target] if isinstance(target, Widget) else self.widgets:
            widget.on_mouse_release(OUTSIDE, OUTSIDE, button, 0)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        if self.dialog is not None or self._press_target not in (NO_PRESS, None):
            return True
        for widget in self.widgets:
            if widget.visible and widget.on_mouse_drag(x, y, dx, dy):
                return True
        return True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        if self.dialog is not None:
            return True
        for widget in self.widgets:
            if widget.visible and widget.on_mouse_scroll(x, y, scroll_y):
                return True
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if self.dialog is not None:
            if symbol == arcade.key.ESCAPE:
                if self.dialog.on_cancel is not None:
                    self.dialog.on_cancel()
                return True
            return self.dialog.on_key_press(symbol, modifiers)
        if symbol == arcade.key.ESCAPE:
            if not self.on_back():
                self.app.back()
            return True
        if symbol == arcade.key.TAB:
            self._cycle_focus(-1 if modifiers & arcade.key.MOD_SHIFT else 1)
            return True
        focused = self.focused
        if focused is not None and focused.visible and focused.on_key_press(symbol, modifiers):
            return True
        if self.on_command_key(symbol, modifiers):
            return True
        for widget in self.widgets:
            if widget.visible and widget.on_shortcut(symbol, modifiers):
                if widget.focusable and widget.claims_focus() and self.focused is not widget:
                    self.set_focus(widget)
                return True
        return False

    def on_text(self, text: str) -> bool:
        """Typed text goes to the focused widget (a text field)."""
        focused = self.focused
        if self.dialog is None and focused is not None and focused.visible:
            focused.on_text(text)
        return True

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        """Keys of the screen itself (after the focused widget had its chance)."""
        return False

    def on_back(self) -> bool:
        """Escape was pressed: return True to handle it here (close a dialog) instead of leaving."""
        return False


class FrameCache:
    """The last static picture of the window, kept in an offscreen framebuffer.

    A screen's picture changes only when something happens (input, a game event), but it has to be
    presented every frame. In Mesa's software renderer, filling the window costs milliseconds per
    layer; copying the kept picture costs one layer. So `draw` renders the static picture only when
    its `look` changed, and otherwise copies it. Without an offscreen framebuffer of the window's size
    (HiDPI scaling, or `enabled = False`) it simply draws every frame.
    """

    def __init__(self, window: arcade.Window) -> None:
        self.window = window
        self.enabled = True
        self.renders = 0  # how many times the static picture was drawn (tests check the cache with it)
        self._fbo: arcade.gl.Framebuffer | None = None
        self._look: Hashable = None

    def invalidate(self) -> None:
        self._look = None

    def _ready(self) -> bool:
        size = tuple(self.window.get_framebuffer_size())
        if not self.enabled or size != tuple(self.window.get_size()):
            return False
        if self._fbo is None or tuple(self._fbo.size) != size:
            ctx = self.window.ctx
            self._fbo = ctx.framebuffer(color_attachments=[ctx.texture(size, components=4)])
            self._look = None
        return True

    def draw(self, look: Hashable, render: Callable[[], None]) -> None:
        if not self._ready():
            self.renders += 1
            render()
            return
        assert self._fbo is not None
        if look != self._look or look is None:
            self.renders += 1
            with self._fbo.activate():
                render()
            self._look = look
        ctx = self.window.ctx
        ctx.copy_framebuffer(self._fbo, ctx.screen, depth=False)
        ctx.screen.use(force=True)  # the copy leaves raw framebuffer bindings behind


class InputGate:
    """Every press belongs to what was in front when it began; nothing else hears the rest of it.

    A click or key given to a dialog must never reach the screen behind it, also when that click or
    key closes the dialog: the button's release, a drag, the key's text (pyglet sends a key's
    `on_text` right after its `on_key_press`: the N that answers a question would be typed into the
    search box behind it) and its release go only where the press went, or nowhere if that is gone.
    The second click of a double-click whose first click opened or closed something is dropped too
    (a player double-clicking Open would otherwise add the card under the pointer in the army builder
    behind the file dialog). The window keeps this object's handlers above the shown screen's
    (`MinisWindow.show_view`), so it holds for every screen and dialog without their help; a screen
    says what is in front of it with `Screen.modal`, and sorts a release between its dialog and its
    widgets itself (`Screen.on_mouse_release`).
    """

    def __init__(self, window: MinisWindow) -> None:
        self.window = window
        #: For each mouse button held: the view it was pressed on, and what was in front of it (None as
        #: the view: the press was dropped, and so is the rest of it).
        self.buttons: dict[int, tuple[arcade.View | None, object]] = {}
        #: For each key held: the view it was pressed on.
        self.keys: dict[int, arcade.View | None] = {}
        #: What was in front at the last key press: its text (sent with it) goes there only.
        self.typing: tuple[arcade.View | None, object] | None = None
        #: The last click: (time, x, y, what was in front when it ended).
        self.last_click: tuple[float, float, float, tuple[arcade.View | None, object]] | None = None
        #: Events dropped (tests check the gate with it).
        self.dropped = 0

    def front(self) -> tuple[arcade.View | None, object]:
        view = self.window.current_view
        return (view, view.modal() if isinstance(view, Screen) else None)

    def handlers(self) -> dict[str, Callable[..., bool]]:
        return {
            "on_mouse_press": self.on_mouse_press,
            "on_mouse_release": self.on_mouse_release,
            "on_mouse_drag": self.on_mouse_drag,
            "on_key_press": self.on_key_press,
            "on_key_release": self.on_key_release,
            "on_text": self.on_text,
            "on_text_motion": self.on_text_motion,
            "on_text_motion_select": self.on_text_motion,
            "on_update": self.on_update,
        }

    def _drop(self) -> bool:
        self.dropped += 1
        return True

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        front = self.front()
        last, self.last_click = self.last_click, None
        if last is not None:
            at, lx, ly, then = last
            if (
                then != front
                and self.window.clock() - at <= DOUBLE_CLICK_TIME
                and abs(x - lx) <= DOUBLE_CLICK_SLOP
                and abs(y - ly) <= DOUBLE_CLICK_SLOP
            ):
                self.buttons[button] = (None, None)  # its release and drags go with it
                return self._drop()
        self.buttons[button] = front
        return False

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        pressed = self.buttons.pop(button, None)
        if pressed is None:
            return False  # a press this window never saw
        view, _ = pressed
        if view is None:
            return self._drop()
        self.last_click = (self.window.clock(), x, y, pressed)
        if view is not self.window.current_view:
            # pressed on a screen that has gone or is covered: it ends the press, nothing is clicked
            view.on_mouse_release(OUTSIDE, OUTSIDE, button, modifiers)
            return self._drop()
        # a dialog that opened or closed since the press: the screen drops the release itself
        return False

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> bool:
        front = self.front()
        for button, (view, _) in self.buttons.items():
            if buttons & button and view is not front[0]:
                return self._drop()
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        front = self.front()
        self.keys[symbol] = front[0]
        self.typing = front
        return False

    def on_key_release(self, symbol: int, modifiers: int) -> bool:
        self.typing = None
        if symbol in self.keys and self.keys.pop(symbol) is not self.window.current_view:
            return self._drop()
        return False

    def on_update(self, delta_time: float) -> bool:
        """A frame: text from now on is typed, not the last key press's own (pyglet sends that at once)."""
        self.typing = None
        return False

    def on_text(self, text: str) -> bool:
        if self.typing is not None and self.typing != self.front():
            return self._drop()
        return False

    def on_text_motion(self, motion: int) -> bool:
        return self.on_text("")


#: Events of the loop itself; every other event (input, resize, expose) may change the picture.
LOOP_EVENTS = frozenset({"on_draw", "on_refresh", "on_update", "on_fixed_update"})


class MinisWindow(arcade.Window):
    """The one game window: resizable, 1280x800 to start, with a stack of screens.

    pyglet's loop calls `draw` 60 times a second. A frame in which no event arrived and the top
    screen's `look` stayed the same is skipped (no `on_draw`, no buffer swap: the last picture stays
    on screen), so an idle window costs next to nothing. Anything that changes the picture without an
    event (an animation advanced in `on_update`) must therefore show in `look`.
    """

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, *, visible: bool = True) -> None:
        # Multisampling costs three times the frame time in Mesa's software renderer; the map is
        # drawn from cached geometry with crisp one-pixel edges instead.
        super().__init__(width, height, TITLE, resizable=True, visible=visible, antialiasing=False)
        theme.load_fonts()
        self.set_minimum_size(800, 560)
        self.background_color = theme.BACKGROUND
        self.stack: list[Screen] = []
        self.frames = FrameCache(self)
        #: Where new battles get their dice (tests put scripted dice here).
        self.new_dice: Callable[[], Dice] = Dice
        #: The folder for saves and the autosave (None: `session.saves_folder()`).
        self.saves: Path | None = None
        #: GPU geometry kept between screens (map drawings); it belongs to this window's OpenGL context.
        self.cache: dict[Hashable, object] = {}
        self._routes: Routes | None = None
        #: An event arrived since the last drawn frame (see `needs_redraw`).
        self._stale = True
        self._shown_look: Hashable = None
        #: Frames `draw` skipped because nothing changed (tests check the idle window with it).
        self.skipped_frames = 0
        #: The top screen's look while `draw` draws it (None outside a frame).
        self.frame_look: Hashable = None
        #: Seconds, for telling a double-click (the test driver steps a clock of its own).
        self.clock: Callable[[], float] = time.monotonic
        #: Keeps every press, its release and a key's text with what was in front when it began.
        self.gate = InputGate(self)

    def dispatch_event(self, *args: object) -> None:
        if args and args[0] not in LOOP_EVENTS:
            self._stale = True
        super().dispatch_event(*args)

    def needs_redraw(self) -> bool:
        """Whether the next frame must be drawn: an event arrived, or the screen's `look` changed."""
        screen = self.top_screen
        if self._stale or screen is None or screen is not self.current_view:
            return True
        return screen.look() != self._shown_look

    def draw(self, dt: float) -> None:
        """pyglet's loop draws through here: skip the frame (keep the last picture) if nothing changed."""
        if not self.needs_redraw():
            self.skipped_frames += 1
            return
        self._stale = False
        screen = self.top_screen
        self._shown_look = screen.look() if screen is not None else None
        self.frame_look = self._shown_look
        try:
            super().draw(dt)
        finally:
            self.frame_look = None

    @property
    def routes(self) -> Routes:
        """Where screens send the player (`minis.ui.router.new_window` sets them). A window that shows
        one screen only, like `minis edit`'s, needs none."""
        if self._routes is None:
            raise RuntimeError("this window has no routes: make it with minis.ui.router.new_window")
        return self._routes

    @routes.setter
    def routes(self, routes: Routes) -> None:
        self._routes = routes

    @property
    def top_screen(self) -> Screen | None:
        """The screen on top of the stack (the one shown). (`screen` is pyglet's: the monitor.)"""
        return self.stack[-1] if self.stack else None

    def show_view(self, new_view: arcade.View) -> None:
        self.frames.invalidate()
        self._stale = True
        self.remove_handlers(**self.gate.handlers())
        super().show_view(new_view)
        self.push_handlers(**self.gate.handlers())  # above the view's: it hears every input event first

    def open(self, screen: Screen) -> None:
        """Show `screen` on top of the current one; Escape comes back."""
        self.stack.append(screen)
        self.show_view(screen)

    def replace(self, screen: Screen) -> None:
        """Show `screen` in place of the current one."""
        if self.stack:
            self.stack.pop()
        self.open(screen)

    def back(self) -> None:
        """Leave the current screen; leaving the last one quits."""
        if self.stack:
            self.stack.pop()
        if self.stack:
            self.show_view(self.stack[-1])
        else:
            self.quit()

    def quit(self) -> None:
        self.stack.clear()
        self.close()
