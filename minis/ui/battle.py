"""The battle screen: the map with the units, and whatever the game waits for, from the coin flip to the end.

The screen follows the engine: `game.decider()` says whose decision it is and the game's stage says
what kind; the screen shows the matching choice and turns the player's clicks and keys into actions
for `Session.apply` (the engine's `Game.apply`). It highlights only what the engine says is possible
(legal actions, `Game.unit_options`, and the questions of `minis.engine.queries`), and when the engine
refuses an action the refusal's reason is shown as it is. Nothing here decides a rule.

What the players see, stage by stage:

- coin flip and initiative: the dice, the winner, and the winner's choice of the first player;
- the choice of an end (both zones tinted), then deployment behind a hand-over screen: the deploying
  side's zone tinted, its units listed, a click places the selected unit (a Vehicle faces the way the
  keys Q/E or the mouse wheel turn it), refusals with the engine's reason, R when ready;
- movement and assault: click a unit; the hexes it can reach are tinted with their cost, the chance of
  their movement rolls is printed, a path follows the clicks (the engine's cheapest path to a hex, or
  hex by hex), steps where enemies could fire are marked with "!", Q/E choose a Vehicle's final
  facing, Enter (or a click on the path's end) moves. In an assault phase, hovering an enemy shows the
  sight line, range, dice, the defense used (front or rear) and the exact odds of 0-3 hits; a click
  attacks;
- defensive fire: the other player is asked, with each eligible unit and its odds: fire or hold;
- a hex over the stacking limit at the end of a player's phase (rule sets from 2008): the hex is ringed,
  its stack stays spread out beside it, and the other player chooses the unit that takes the hit (a
  click on its counter there, a button, or its number);
- aircraft (`minis.ui.airtray`): each side's aircraft wait in the tray beside the map; in a flight phase
  the player picks one there (or with N) and clicks a hex for it to fly over, and when enemy Antiair or
  an enemy Ace may shoot at it, the other player is asked, as for defensive fire; in an airstrike phase
  an aircraft attacks like a unit in an assault phase, its odds shown first. An aircraft over a hex is
  a tag on the hex's top point, above the units on the ground;
- the casualty phase's summary, and the victory screen (opened through the window's routes).

Every hex the screen asks for can also be chosen with the map's keyboard cursor (W A S D, then Space):
`MapView` hands the cursor hex to `on_hex_click` exactly as a mouse click does, and makes it the hovered
hex, so the previews follow it; the screen has no keyboard-only rule paths.

After an action the map shows what happened for a moment (`minis.ui.motion`): the unit slides along its
path, the dice tumble, a hit flashes, a miss is marked, a destroyed unit fades away; any key or click
skips to the end (and does nothing else). While the dice tumble, nothing says what they rolled: the
message line, the last action's lines and the log hold back the action's lines from its first roll on
(`held`) until the dice settle or the motion is skipped.

The map and everything on it belong to the screen's kept picture, rebuilt only when something changes.
The decisions (selection, path, what a click means, the panel as data) are `minis.ui.controller`'s:
the screen lays out and draws what its `BattleController` says. The map's layers over the terrain
are drawn by `minis.ui.battle_layers`, the dialogs come one at a time from `minis.ui.battle_dialogs`,
and the log beside the map is `minis.ui.logview`'s; this module keeps the screen's life (its widgets,
layout and look), the side panel and the routing of the input.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import arcade

from minis.base.sides import Side
from minis.board import Board
from minis.engine import actions as A
from minis.engine.events import Event
from minis.game import Game
from minis.hexgrid import Hex
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import airtray, hexdraw, theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.battle_dialogs import BattleDialogs, choice_button, key_code
from minis.ui.battle_layers import BattleLayers
from minis.ui.battlemap import BattleMap
from minis.ui.cardpanel import SIDE_TEXT, CardPanel
from minis.ui.computer import ComputerPlayer
from minis.ui.confirm import EarlyEnd, leave_dialog
from minis.ui.controller import BattleController
from minis.ui.dicerow import DiceRolls
from minis.ui.legend import MapKey
from minis.ui.logview import LogView
from minis.ui.motion import Motion
from minis.ui.readout import BattleReadout, Choice
from minis.ui.rolls import ROLLED, Roll
from minis.ui.session import SAVE_SUFFIX, Session, armies_revealed
from minis.ui.widgets import Box, Button, Dialog, Label, ListBox, fill, fit_lines, outline

PANEL_WIDTH = 340
STRIP = 26
#: The info box is at most this tall (pixels; the card below gives up the room): a longer text is cut
#: with "…" (`BattleScreen._fit_info`).
INFO_MOST = 240.0

#: The hint line for each stage: what to do next.
#: (Everywhere on the map, W A S D move the keyboard cursor and Space clicks the hex under it.)
HINTS: dict[Stage | None, str] = {
    Stage.DEPLOY: "Click (or W A S D + Space) a hex in the tinted zone · N: next unit · Q/E: facing · "
    "R: ready · U: undo · L: labels · Esc: leave",
    Stage.ACT: "Click (or W A S D + Space) a unit, then its path or an enemy · Enter: go · Q/E: facing · "
    "P: end phase · U: undo · Ctrl+S/O",
    Stage.DEFENSIVE_FIRE: "1-9 or a click (W A S D + Space) on a ringed unit: fire · H: hold",
    Stage.REACTION: "1-9 or a click (W A S D + Space) on a ringed unit: shoot at the aircraft · H: hold",
    Stage.PLACE: "Click (or W A S D + Space) a highlighted hex to place the Soldier",
    Stage.PENALTY: "1-9, a button or a click on a counter spread out beside the ringed hex: the unit that "
    "takes the hit",
    Stage.CHOOSE_OBJECTIVE: "Click (or W A S D + Space) a highlighted hex for the objective · L: labels · "
    "+/-: zoom",
    Stage.CHOOSE_FIRST: "A: the Axis go first · L: the Allies go first · Esc: leave (it asks)",
    Stage.CHOOSE_END: "W: the west end · E: the east end · Esc: leave (it asks)",
    None: "Ctrl+S: save · Ctrl+O: load · Esc: leave",
}
#: The hint line in the flight and airstrike phases (their stage is ACT, like movement and assault).
AIR_HINTS: dict[Phase, str] = {
    Phase.FLIGHT: "Click an aircraft in the tray (or N: next), then a hex (W A S D + Space) to fly over · "
    "P: end phase · U: undo · Ctrl+S/O",
    Phase.AIRSTRIKE: "Click (or W A S D + Space) an aircraft over the map, then an enemy · "
    "P: end phase · U: undo · Ctrl+S/O",
}


def hint_line(state: GameState, elsewhere: bool, remote: Side | None, computer: ComputerPlayer | None) -> str:
    """The hint line: the stage's keys (`HINTS`, `AIR_HINTS`), then what a network battle or the
    computer changes (`elsewhere`: the other side decides now), its pace and its hint first."""
    stage = state.stage
    hint = HINTS.get(stage, HINTS[None])
    if stage is Stage.ACT and state.phase in AIR_HINTS:
        hint = AIR_HINTS[state.phase]
    hint += " · T: map key · V: log notation"
    if remote is not None:  # a network battle: no save or load here, a chat and a menu
        hint = hint.replace("Ctrl+S/O", "M: chat · Esc: menu")
    if remote is not None and elsewhere:
        hint = f"The {remote.title} player's turn · M: chat · T: map key · V: log notation"
        hint += " · Esc: menu"
    if computer is not None:  # against the computer: its pace and the hint come first
        if elsewhere:
            hint = "The computer's turn · T: map key · V: log notation · Esc: leave"
        asks = "?: hint · " if stage in (Stage.DEFENSIVE_FIRE, Stage.REACTION) else "H: hint · "
        hint = ("Space: pause · " if computer.alone else asks) + "F: fast · " + hint
    return hint


def battle_geometry(window: MinisWindow, board: Board) -> hexdraw.MapGeometry:
    """The terrain of a board without zone rims (deployment zones are tinted only while deploying) and
    without its objective (the game's objective is drawn with the units: an Assault's is chosen).
    The window keeps it (it lives in the window's OpenGL context)."""
    key = ("battle", id(board))
    found = window.cache.get(key)
    if isinstance(found, tuple) and found[0] is board:
        return found[1]
    geometry = hexdraw.build(board.replace(objective=None), zones=False)
    window.cache[key] = (board, geometry)
    return geometry


#: Hover boxes kept laid out (`BattleScreen._show_tooltip`).
KEPT_TOOLTIPS = 64


class BattleScreen(Screen):
    """The battle at the table: it lays out and draws what its `BattleController` says, and hands it
    the map's clicks and the keys; its `BattleLayers` draw the map, its `BattleDialogs` say what comes
    next, and the window's routes stay here."""

    title = "Battle"

    def __init__(
        self,
        window: MinisWindow,
        session: Session,
        *,
        handed_over: Side | None = None,
        computer: ComputerPlayer | None = None,
    ) -> None:
        super().__init__(window)
        self.session = session
        #: The computer's sides, if it plays (`minis.ui.computer`): no hand-overs then (one player).
        self.computer = computer
        self.early_end = EarlyEnd()  # asks before a phase ends with units that could still act
        self.map = BattleMap(window, on_click=self.on_hex_click, on_hover=self.on_hex_hover, cursor=True)
        self.banner = Label("", size=theme.TEXT_SIZE + 3, bold=True, align="right")
        self.phase_title = Label("", size=theme.TEXT_SIZE + 2, bold=True, colour=theme.ACCENT)
        self.info = Label("", size=theme.TEXT_SIZE, multiline=True)
        self.units_list = ListBox(
            [], self.pick_listed, row_height=24, size=theme.SMALL_SIZE + 1, align="left", bold=False, gap=2
        )
        self.card = CardPanel()
        self.map_key = MapKey(window)  # T shows the terrain key over the map's corner
        self.last_title = Label("Last action", size=theme.SMALL_SIZE + 1, bold=True, colour=theme.TEXT_DIM)
        self.dice = DiceRolls()
        self.last = Label("", size=theme.SMALL_SIZE, multiline=True)
        self.log_title = Label("", size=theme.SMALL_SIZE + 1, bold=True, colour=theme.TEXT_DIM)
        #: The log in action notation (T) instead of plain words.
        self.notation = False
        self.log = LogView()
        self.pass_button = Button("End phase (P)", self.pass_phase, size=theme.SMALL_SIZE)
        self.undo_button = Button("Undo (U)", self.undo, size=theme.SMALL_SIZE + 1)
        self.save_button = Button("Save…", self.save_game, size=theme.SMALL_SIZE + 1)
        self.load_button = Button("Load…", self.load_game, size=theme.SMALL_SIZE + 1)
        self.message = Label("", size=theme.SMALL_SIZE + 1)
        self.tooltip = Label("", size=theme.SMALL_SIZE + 1, multiline=True)
        #: Hover boxes laid out lately, by their text: the mouse going back over a hex shows its box
        #: without laying the text out again (the slow part of a frame while the mouse moves).
        self._tooltips: dict[str, Label] = {}
        self.choices: list[Button] = []
        self.bar_widgets = [self.banner]
        self._panel_version: object = None
        self._tooltip_version: object = None
        self._laid_out_info = ""
        #: The info text the panel asks for; the box shows it cut to fit (`_fit_info`).
        self._info_source = ""
        self._choice_keys: dict[int, Callable[[], object]] = {}
        #: What happened, shown for a moment after each action (see `minis.ui.motion`).
        self.motion = Motion()
        #: The units after the last action (the next one's motion starts from their hexes: a destroyed
        #: unit leaves from there) and before it (while its dice tumble, the face-down counters shown
        #: are these: the hits are the dice's to tell).
        self._units_after: dict[str, Unit] = dict(session.game.state.units)
        self._units_before: dict[str, Unit] = self._units_after
        #: A click that skipped the motion: its release does nothing either.
        self._skipping_click = False
        #: What the player is doing, and what each input means: see `minis.ui.controller`.
        self.controller = BattleController(session, on_acted=self.after_action)
        #: What the panel, the hover box, the dice row and the dialogs say (read from the controller).
        self.readout = BattleReadout(self.controller)
        if computer is not None:
            self.controller.elsewhere = computer.sides
        #: The side played on another machine, over a game server (`minis.ui.netsession`): its
        #: decisions arrive from the server and are shown as the computer's are.
        self.remote = session.far_side
        if self.remote is not None:
            self.controller.elsewhere = frozenset({self.remote})
            self.controller.opponent_word = "the other player"
            # the server keeps the battle: no save or load here, but the chat and the battle's menu
            self.save_button = Button("Chat (M)", self.open_chat, size=theme.SMALL_SIZE + 1)
            self.load_button = Button("Menu (Esc)", self.on_back, size=theme.SMALL_SIZE + 1)
        #: The server's news already told (chat lines, an offer asked, the connection lost).
        self.told: dict[str, Any] = {"chat": 0}
        #: What the players must read or answer next, one dialog at a time (`minis.ui.battle_dialogs`).
        self.dialogs = BattleDialogs(self, handed_over, question_width=PANEL_WIDTH + 20)
        #: Each side's aircraft beside the map (only in a battle with aircraft): a click picks one.
        self.air_tray = airtray.AirTray(self.pick_aircraft)
        self.air_tray.visible = self.controller.aircraft.in_battle()
        board = self.state.board
        if board is not None:
            self.map.set_geometry(battle_geometry(window, board))
        #: The map's groups over the terrain, and what the pointer points at (`minis.ui.battle_layers`).
        self.layers = BattleLayers(self, session, self.controller, self.map)
        self._rebuild_widgets()
        self.card.prepare(unit.card for unit in self.state.units.values())  # laid out while idle
        self.after_action([])

    # --- shortcuts to the game ----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def state(self) -> GameState:
        return self.session.game.state

    @property
    def stage(self) -> Stage:
        return self.state.stage

    @property
    def version(self) -> int:
        """Goes up whenever anything shown may have changed (the controller's version)."""
        return self.controller.version

    def changed(self) -> None:
        self.controller.changed()

    def say(self, text: str, bad: bool = False) -> None:
        self.controller.say(text, bad)

    # --- doing things ---------------------------------------------------------------------------------
    def after_action(self, events: list[Event]) -> None:
        """After an action or an undo (the controller has brought the selection up to date): the
        motion of what it did, and the dialogs the players must read or answer."""
        before = self._units_after
        self.motion.play(events, {unit_id: u.hex for unit_id, u in before.items() if u.hex is not None})
        self._units_before, self._units_after = before, dict(self.state.units)
        self.dialogs.after_action(events)

    # --- dialogs --------------------------------------------------------------------------------------
    def place_dialog(self, dialog: Dialog) -> None:
        """Dialogs sit over the side panel, so the map stays in view (the ends, the dice's results)."""
        dialog.dim = False
        content = self.content_box
        width = min(dialog.width, PANEL_WIDTH + 2 * theme.MARGIN)
        height = dialog.height_for(width)
        left = content.right - width - theme.MARGIN / 2
        dialog.place(
            Box(round(left), round(content.top - height - theme.MARGIN), round(width), round(height))
        )

    def ask_to_leave(self, on_stay: Callable[[], object] | None = None) -> None:
        """Escape: 'Leave this battle?' (Stay calls `on_stay`); over the network, the battle's menu (the
        server keeps the battle)."""
        if self.remote is not None:
            from minis.ui import netbattle

            netbattle.battle_menu(self)
            return
        saved = f"The game is saved automatically at every phase ({self.session.autosave_path})."
        self.show_dialog(leave_dialog(self, saved, on_stay=on_stay))

    def show_rolls(self, rolls: list[Roll]) -> None:
        """The dice row shows `rolls` (laid out again if they need another height)."""
        self.dice.set_rolls(rolls)
        self._fit_dice()

    # --- the map's input -----------------------------------------------------------------------------
    def on_hex_hover(self, hex_: Hex | None) -> None:
        self.controller.hover_at(hex_)

    def on_hex_click(self, hex_: Hex, button: int) -> None:
        if self.dialog is not None or self.controller.elsewhere_decides():
            return
        if button == arcade.MOUSE_BUTTON_RIGHT:
            if not self.controller.step_back():
                self.controller.clear_selection()
        elif button == arcade.MOUSE_BUTTON_LEFT:
            self.controller.click(hex_)

    def pick_listed(self, row: int) -> None:
        self.controller.deployment.pick(row)

    def pick_aircraft(self, unit_id: str) -> None:
        """A click on an aircraft in the tray (while no dialog is open)."""
        if self.dialog is None:
            self.controller.aircraft.pick(unit_id)

    # --- decisions ------------------------------------------------------------------------------------
    def confirm(self) -> None:
        """Enter: do what is prepared (a move along the path, a turn in place, an attack)."""
        if self.dialog is None:
            self.controller.confirm()

    def pass_phase(self) -> None:
        """The end-of-step button: in a movement or assault phase with units that could still act, it
        asks first (once a phase)."""
        if self.stage is Stage.ACT:
            control = self.controller
            question = self.early_end.question(self, self.game, control.name, control.pass_phase)
            if question is not None:
                self.show_dialog(question)
                return
        self.controller.pass_phase()

    def undo(self) -> None:
        if self.remote is not None:  # over the network, the other player is asked
            from minis.ui import netbattle

            netbattle.ask_undo(self)
            return
        self.controller.undo()

    # --- files ------------------------------------------------------------------------------------------
    def save_game(self) -> None:
        if self.remote is not None:
            self.say("The server keeps this battle (resume it from Play over the network).", bad=True)
            return
        if not self.session.recordable:
            self.say("This battle began from a set position: it can't be saved.", bad=True)
            return
        if not armies_revealed(self.session.game):  # a save holds both armies: the other player could open it
            self.say("The game can be saved once both armies are on the map (a save shows both).", bad=True)
            return
        self.app.routes.save_game(
            self.session,
            title="Save the game",
            name=f"turn-{self.state.turn}{SAVE_SUFFIX}",
            saved=self.say,
        )

    def load_game(self) -> None:
        if self.remote is not None:
            self.say("Leave this network battle first (Esc): the server keeps it.", bad=True)
            return
        self.app.routes.load_game(self.session.saves, playing=not self.game.over)

    # --- keys -----------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """A key while motion plays only finishes it; saving and loading work at every decision, also
        while a question is open."""
        if self.dialog is None and self.computer is not None and self.computer_key(symbol):
            return True
        hint_key = symbol in (arcade.key.H, arcade.key.SLASH)
        if self.dialog is not None and self.computer is not None and hint_key and self.dialog_hint():
            return True  # the question of a dialog (the first player, the end), or a notice
        if self.motion.finish():
            return True
        if modifiers & arcade.key.MOD_CTRL and symbol in (arcade.key.S, arcade.key.O):
            (self.save_game if symbol == arcade.key.S else self.load_game)()
            return True
        return super().on_key_press(symbol, modifiers)

    def computer_key(self, symbol: int) -> bool:
        """The keys of a battle with the computer: F (fast pace), H or ? (a hint; H holds in the
        defensive-fire question), Space (pause, when it plays itself)."""
        computer = self.computer
        assert computer is not None
        key = arcade.key
        if symbol == key.F:
            fast = computer.toggle_fast()
            self.say(
                "Fast pace: the computer acts at once (F: normal)." if fast else "Normal pace (F: fast)."
            )
        elif symbol == key.SPACE and computer.alone:
            self.say("Paused (Space goes on)." if computer.toggle_pause() else "Going on.")
        elif symbol == key.SLASH or (
            symbol == key.H and self.stage not in (Stage.DEFENSIVE_FIRE, Stage.REACTION)
        ):
            self.show_hint()
        else:
            return False
        self.changed()
        return True

    def dialog_hint(self) -> bool:
        """H (or ?) while a dialog is open: the hint for the question it asks, in the dialog (made
        again with it); the casualty report asks nothing, and says so. False for other dialogs."""
        if self.dialog is None or self.dialog is not self.dialogs.asking:
            if self.dialog is not None and self.dialog.title.text.startswith("Casualty phase"):
                self.say(
                    "Nothing to decide here: the report says what the casualty phase did; Enter goes on."
                )
                return True
            return False
        self.show_hint()
        question = self.readout.question()
        if question is not None and self.controller.hint:
            self.show_dialog(self.dialogs.question_dialog(question))
        return True

    def show_hint(self) -> None:
        """What the computer would do in the player's place: shown (unit, path or target, a sentence),
        never done."""
        computer = self.computer
        side = self.game.decider()
        if computer is None or side is None or computer.plays(side):
            self.say("A hint is given when it is your decision.", bad=True)
            return
        hint = computer.hint(self.game, side)
        if hint is None:
            return
        where = self.controller.show_hint(hint.action, hint.text, hint.why)
        if where is not None:
            self.map.show_cursor(where)

    def _computer_turn(self) -> None:
        """Let the computer act when the game waits for it, nothing covers the battle and the motion of
        the last action is over; its action goes through the controller like a player's (the log,
        autosave, motion), and it can't be undone (`Session.seal`)."""
        computer = self.computer
        if computer is None or self.app.top_screen is not self:
            return

        def apply(action: A.Action) -> bool:
            done = self.controller.act(action)
            if done:
                self.session.seal()
            return done

        before = computer.status
        computer.tick(self.game, apply, busy=self.dialog is not None or self.motion.playing)
        if computer.status != before:
            self.controller.elsewhere_status = computer.status
            self.changed()

    def open_chat(self) -> None:
        """The battle's chat (a network battle): read and write."""
        from minis.ui import netbattle

        netbattle.open_chat(self)

    def _remote_turn(self) -> None:
        """Over the network: take in what the server sent, and show the next decision that arrived
        once nothing covers the battle and the last one's motion is over."""
        if self.remote is None:
            return
        from minis.ui import netbattle

        netbattle.follow_server(self)

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        key = arcade.key
        ctrl = modifiers & key.MOD_CTRL
        stage = self.stage
        control = self.controller
        if self.remote is not None and symbol == key.M and self.dialog is None:
            self.open_chat()
            return True
        if control.elsewhere_decides() and symbol not in (key.T, key.V) and not (ctrl and symbol == key.S):
            return True  # the computer's turn: the player's keys wait (Escape still leaves)
        if ctrl and symbol == key.S:
            self.save_game()
        elif ctrl and symbol == key.O:
            self.load_game()
        elif symbol == key.U or (ctrl and symbol == key.Z):
            self.undo()
        elif symbol in (key.ENTER, key.NUM_ENTER):
            self.confirm()
        elif (symbol, stage) in (
            (key.P, Stage.ACT),
            (key.R, Stage.DEPLOY),
            (key.H, Stage.DEFENSIVE_FIRE),
            (key.H, Stage.REACTION),
        ):
            self.pass_phase()
        elif symbol in self._choice_keys:
            self._choice_keys[symbol]()
        elif symbol == key.T:
            self.map_key.toggle()
        elif symbol in (key.Q, key.BRACKETLEFT):
            control.turn_facing(1)
        elif symbol in (key.E, key.BRACKETRIGHT):
            control.turn_facing(-1)
        elif symbol == key.BACKSPACE and control.path:
            control.step_back()
        elif symbol == key.V:
            self.toggle_notation()
        elif symbol == key.C and stage is not Stage.DEPLOY:
            control.choose_next(-1 if modifiers & key.MOD_SHIFT else 1)
        elif symbol == key.N and stage in (Stage.ACT, Stage.DEPLOY):
            unit = control.select_next()
            if unit is not None and unit.hex is not None:
                self.map.show_cursor(unit.hex)  # a keyboard player goes on from the unit
        else:
            return False
        return True

    def on_back(self) -> bool:
        if self.controller.selected is not None and self.stage is not Stage.DEPLOY:
            self.controller.clear_selection()
            return True
        self.ask_to_leave()
        return True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A click while motion plays only finishes it."""
        if self.motion.finish():
            self._skipping_click = True
            return True
        if (
            self.dialog is None
            and button == arcade.MOUSE_BUTTON_LEFT
            and not self.controller.elsewhere_decides()
            and (unit := self.layers.penalty_counter_at(x, y)) is not None
        ):
            self.controller.penalty.choose(unit.id)  # a counter of the overstacked hex, spread out beside it
            self._skipping_click = True  # its release clicks nothing else
            return True
        return super().on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if self._skipping_click:
            self._skipping_click = False
            return True
        return super().on_mouse_release(x, y, button, modifiers)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        turning = self.dialog is None and self.controller.can_turn() and self.map.box.contains(x, y)
        if turning and scroll_y:
            self.controller.turn_facing(1 if scroll_y > 0 else -1)
            return True
        return super().on_mouse_scroll(x, y, scroll_x, scroll_y)

    # --- the panel ------------------------------------------------------------------------------------
    def _rebuild_widgets(self) -> None:
        self.widgets = [
            self.map,
            self.air_tray,
            self.map_key,
            self.banner,
            self.phase_title,
            self.info,
            self.units_list,
            *self.choices,
            self.card,
            self.last_title,
            self.dice,
            self.last,
            self.log_title,
            self.log,
            self.pass_button,
            self.undo_button,
            self.save_button,
            self.load_button,
            self.message,
        ]

    def _set_choices(self, choices: tuple[Choice, ...]) -> None:
        """The context buttons; laid out again only when their captions or keys change."""
        self._choice_keys = {key_code(c.key): c.do for c in choices if c.key is not None}
        if [(b.text, b.shortcuts) for b in self.choices] == [
            (c.caption, (key_code(c.key),) if c.key is not None else ()) for c in choices
        ]:
            for button, choice in zip(self.choices, choices, strict=True):
                button.on_click = choice.do
                button.enabled = choice.enabled
            return
        self.choices = [choice_button(choice, size=theme.SMALL_SIZE + 1) for choice in choices]
        self._rebuild_widgets()
        self._layout_all()

    def show_log(self) -> None:
        """The log in plain words, or (T) in the records' action notation; while the dice tumble,
        without what they rolled (`held`)."""
        self.log_title.text = "Log in notation (V: plain words)" if self.notation else "Log (V: notation)"
        control = self.controller
        if not self.held():
            self.log.set_lines(control.texts.log(self.notation))
        elif self.notation:  # its line carries the dice: it waits whole
            self.log.set_lines(control.texts.log(True)[:-1])
        else:
            events = self.session.events
            self.log.set_lines(
                control.texts.summary(events[: len(events) - len(self.session.last_events)])
                + self._before_dice()
            )

    def held(self) -> bool:
        """True while the last action's dice tumble: what they rolled is not said yet."""
        frame = self.motion.frame()
        return frame is not None and frame.tumble is not None

    def _before_dice(self) -> list[str]:
        """The last action's lines before its first roll (a move before its movement roll)."""
        events = self.session.last_events
        first = next((i for i, e in enumerate(events) if e.kind in ROLLED and e.dice), len(events))
        return self.controller.texts.summary(events[:first])

    def toggle_notation(self) -> None:
        """V: the log in notation (the records' form, for players who know it), or back to plain words."""
        self.notation = not self.notation
        self.show_log()

    def _fit_dice(self) -> None:
        """Lay the panel out again when the dice need another height (every die is always shown)."""
        if round(self.dice.height_for(PANEL_WIDTH)) != round(self.dice.box.height):
            self._layout_all()

    def update_panel(self) -> None:
        """Texts and buttons from the readout's `panel()` (only when something changed)."""
        control = self.controller
        held = self.held()
        control.counters_from = self._units_before if held else None
        if self._tooltip_version != (control.version, control.hover_version, held):
            self._tooltip_version = (control.version, control.hover_version, held)
            self._show_tooltip("\n".join(self.readout.hover_lines()))
        # the hovered hex matters to the panel only through what `panel_hover` names: the mouse
        # crossing empty hexes lays nothing out again
        version = (control.version, self.readout.panel_hover(), held)
        if self._panel_version == version:
            return
        self._panel_version = version
        panel = self.readout.panel()
        stage = self.stage
        self.set_title(panel.title)
        self.banner.text = panel.banner
        self.banner.colour = SIDE_TEXT[panel.banner_side] if panel.banner_side else theme.TEXT_DIM
        self.phase_title.text = panel.heading
        self.phase_title.colour = SIDE_TEXT[panel.heading_side] if panel.heading_side else theme.ACCENT
        self._info_source = panel.info
        self.units_list.visible = stage is Stage.DEPLOY
        if stage is Stage.DEPLOY:
            self.units_list.set_items(
                [row.name for row in panel.listing],
                [row.where for row in panel.listing],
                [theme.ACCENT if row.selected else None for row in panel.listing],
            )
            chosen = [i for i, row in enumerate(panel.listing) if row.selected]
            if chosen:
                self.units_list.highlight(chosen[0])
        if self.air_tray.visible:
            self.air_tray.set_sides(control.aircraft.tray())
        self.pass_button.visible = panel.end_shown
        self.pass_button.enabled = panel.end_enabled
        self.pass_button.label.text = panel.end_caption
        self.undo_button.enabled = panel.undo_enabled
        self.undo_button.label.text = "Undo (U)"
        if panel.card is not None:
            self.card.show(*panel.card)
        else:
            self.card.show(None)
        self._set_choices(panel.choices)
        # last action and log
        if self.session.last_events:
            self.dice.set_rolls(self.readout.rolls())
            # the rolls show their own lines; the rest (moves, counters) read as text above them
            events = self.session.last_events
            lines = control.texts.summary([e for e in events if e.kind not in ROLLED and e.kind != "hits"])
            if held:  # what came of the dice (a unit destroyed, a stop) waits for them
                lines = [line for line in self._before_dice() if line in lines]
            fit_lines(self.last, lines, self.last.box.width, self.last.box.height)
        elif stage is not Stage.CHOOSE_FIRST:
            self.dice.set_rolls([])
            self.last.text = self.session.last_action
        self._fit_dice()
        self.show_log()
        hint = hint_line(self.state, control.elsewhere_decides(), self.remote, self.computer)
        self.set_hint(hint if not self.session.over else "")
        if self._info_source != self._laid_out_info:  # the info box grows and shrinks with its text
            self._laid_out_info = self._info_source
            self._layout_all()
        self.message.text = control.message
        self.message.colour = theme.BAD if control.message_bad else theme.TEXT
        last = self.session.last_events
        if held and (
            control.message in control.texts.summary(last)[:1]
            or control.message == control.penalty.warning(last)
        ):
            before = self._before_dice()  # the action's own line, with its dice, waits for them
            self.message.text = before[0] if before else "The dice are rolling…"
        if self.session.autosave_error:
            self.message.text = self.session.autosave_error
            self.message.colour = theme.BAD

    # --- layout and drawing ---------------------------------------------------------------------------
    def _fit_info(self, width: float) -> float:
        """Sets the info box's text, cut at a word with "…" where it is taller than `INFO_MOST` (its
        start matters most: the hint's reason, then what to do), so no line runs under the buttons;
        returns its height."""
        self.info.text = self._info_source
        height = self.info.height_for(width)
        if height <= INFO_MOST:
            return height
        words = self._info_source.split(" ")
        low, high = 1, len(words) - 1  # the most words that fit lie in [low, high]
        while low < high:
            middle = (low + high + 1) // 2
            self.info.text = " ".join(words[:middle]).rstrip(" ,;:") + "…"
            if self.info.height_for(width) <= INFO_MOST:
                low = middle
            else:
                high = middle - 1
        self.info.text = " ".join(words[:low]).rstrip(" ,;:") + "…"
        return self.info.height_for(width)

    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        self.banner.place(
            Box(width * 0.45, height - theme.BAR_HEIGHT, width * 0.55 - 2 * m, theme.BAR_HEIGHT)
        )
        panel_left = width - PANEL_WIDTH - m
        map_left = m
        if self.air_tray.visible:  # the aircraft wait beside the map, on its left
            tray = airtray.WIDTH
            self.air_tray.place(Box(m, content.bottom + m + STRIP, tray, content.height - 2 * m - STRIP))
            map_left = m + tray + m
        self.map.place(
            Box(
                map_left,
                content.bottom + m + STRIP,
                panel_left - m - map_left,
                content.height - 2 * m - STRIP,
            )
        )
        self.map_key.place(self.map_key.corner(self.map.box))
        self.message.place(Box(m + 4, content.bottom + m - 2, panel_left - 2 * m, STRIP))
        top = content.top - m
        w = PANEL_WIDTH
        self.phase_title.place(Box(panel_left, top - 24, w, 24))
        y = top - 30
        info_height = max(40.0, self._fit_info(w) + 6)
        self.info.place(Box(panel_left, y - info_height, w, info_height))
        y -= info_height + 4
        for button in self.choices:
            button.place(Box(panel_left, y - 30, w, 30))
            y -= 34
        bottom = content.bottom + m
        buttons_height = 34
        widths = (0.31, 0.23, 0.23, 0.23)
        x = float(panel_left)
        for share, button in zip(
            widths, (self.pass_button, self.undo_button, self.save_button, self.load_button), strict=True
        ):
            button.place(Box(round(x), bottom, round(share * (w - 18)), buttons_height))
            x += share * (w - 18) + 6
        # from the bottom up: the log, the last action, then the card (or the deployment list) gets the rest
        below = bottom + buttons_height + 8
        room = y - 4 - below
        dice_height = self.dice.height_for(w)  # every die shown: the card gives up the room
        log_height = max(54.0, min(140.0, room - dice_height - 60 - 22 - 22 - 260))
        self.log.place(Box(panel_left, below, w, log_height))
        self.log_title.place(Box(panel_left, below + log_height, w, 20))
        last_bottom = below + log_height + 24
        self.dice.place(Box(panel_left, last_bottom, w, dice_height))
        self.last.place(Box(panel_left, last_bottom + dice_height, w, 36))
        self.last_title.place(Box(panel_left, last_bottom + dice_height + 38, w, 20))
        card_bottom = last_bottom + dice_height + 62
        card_top = y - 4
        self.units_list.place(Box(panel_left, card_bottom, w, max(0, card_top - card_bottom)))
        self.card.place(Box(panel_left, card_bottom, w, max(0, card_top - card_bottom)))

    def look(self) -> Hashable:
        """The static picture's state; while motion plays it changes from moment to moment (so the
        window keeps drawing), and once the motion is over it stays the same again."""
        self.update_panel()
        self.card.visible = self.stage is not Stage.DEPLOY and self.card.box.height > 120
        self.card.dynamic = self.dialog is None  # the hovered unit's card follows the mouse
        self.dice.tumble(self.motion.faces(self.dice.count))
        self.layers.update(self.motion.frame(), self._units_before)
        return super().look()

    def content_look(self) -> Hashable:
        return self.version

    def on_update(self, delta_time: float) -> None:
        """The computer's turn, if it is; idle time lays out the next card of the battle, so a click
        shows it at once."""
        self._computer_turn()
        self._remote_turn()
        self.card.prepare_one()

    def draw_dynamic(self) -> None:
        """The tooltip: the hovered hex and the units in it, over the kept picture (it follows the mouse)."""
        if not self.tooltip.text or self.map.hover is None or self.dialog is not None:
            return
        longest = max(len(line) for line in self.tooltip.text.split("\n"))
        width = min(340, 24 + 7 * longest)
        height = self.tooltip.height_for(width - 16) + 10
        box = self.layers.hover_box(width, round(height))
        fill(box, (22, 25, 30, 235))
        outline(box, theme.PANEL_BORDER)
        self.tooltip.place(box.inset(8, 5))
        self.tooltip.draw()

    def _show_tooltip(self, text: str) -> None:
        """The hover box's label for `text`: one laid out before if it is still kept."""
        label = self._tooltips.pop(text, None)
        if label is None:
            label = Label(text, size=theme.SMALL_SIZE + 1, multiline=True)
            while len(self._tooltips) >= KEPT_TOOLTIPS:
                del self._tooltips[next(iter(self._tooltips))]  # the least recently shown
        self._tooltips[text] = label
        self.tooltip = label

    def on_show_view(self) -> None:
        super().on_show_view()
        self.changed()
        if self.dialog is None:
            self.dialogs.next_dialog()  # a hand-over, the victory screen or a question waiting for it
