"""The battle screen: the map with the units, and whatever the game waits for, from the coin flip to the end.

The screen follows the engine: `game.decider()` says whose decision it is and the game's stage says
what kind; the screen shows the matching choice and turns the player's clicks and keys into actions
for `Session.apply` (the engine's `Game.apply`). It highlights only what the engine says is possible
(legal actions, `Game.unit_options`, and the questions of `minis.queries`), and when the engine
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
the screen lays out and draws what its `BattleController` says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import arcade
import attrs

from minis import actions as A
from minis import queries
from minis.board import ZONE_DEPTH, Board
from minis.events import Event
from minis.game import Game
from minis.hexgrid import Facing, Hex, direction_to
from minis.queries import AttackPreview, percent
from minis.rules import air, setup
from minis.rules.zones import zone_hexes
from minis.sides import Side
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import airtray, hexdraw, theme
from minis.ui import effects as effect_ui
from minis.ui import obstacles as obstacle_ui
from minis.ui.app import MinisWindow, Screen
from minis.ui.battlemap import BattleMap
from minis.ui.cardpanel import SIDE_TEXT, CardPanel
from minis.ui.computer import ComputerPlayer
from minis.ui.confirm import EarlyEnd, leave_dialog
from minis.ui.controller import BattleController
from minis.ui.counters import (
    AIR_HALF_HEIGHT,
    AIR_HALF_WIDTH,
    HALF_HEIGHT,
    HALF_WIDTH,
    Slot,
    TextSpec,
    air_slot,
    air_tag,
    aircraft_over,
    counter_mesh,
    fan_box,
    fan_mesh,
    fan_unit_at,
    units_mesh,
)
from minis.ui.dicerow import DiceRolls
from minis.ui.handover import HandOver
from minis.ui.hexdraw import Mesh
from minis.ui.legend import MapKey
from minis.ui.motion import Frame, Motion
from minis.ui.readout import BattleReadout, Choice, Question
from minis.ui.rolls import ROLLED, Roll
from minis.ui.session import SAVE_SUFFIX, Session, armies_revealed
from minis.ui.widgets import Box, Button, Dialog, Label, ListBox, Widget, fill, fit_lines, outline

PANEL_WIDTH = 340
STRIP = 26
#: The info box is at most this tall (pixels; the card below gives up the room): a longer text is cut
#: with "…" (`BattleScreen._fit_info`).
INFO_MOST = 240.0

REACH: hexdraw.Colour = (120, 230, 120, 80)
REACH_ROLL: hexdraw.Colour = (250, 190, 60, 110)
LEGAL: hexdraw.Colour = (120, 230, 120, 95)
ZONE_TINT: dict[str, hexdraw.Colour] = {"west": (140, 90, 240, 70), "east": (236, 70, 70, 70)}
PATH: hexdraw.Colour = (255, 255, 255, 235)
PATH_EDGE: hexdraw.Colour = (20, 20, 20, 200)
DANGER: hexdraw.Colour = (224, 40, 32, 255)
HOVER: hexdraw.Colour = (255, 255, 255, 255)
SELECT: hexdraw.Colour = (255, 236, 90, 255)
TARGET_OK: hexdraw.Colour = (60, 210, 80, 255)
TARGET_NO: hexdraw.Colour = (230, 50, 40, 255)
#: Indirect fire: the spotter's sight line to the target and its hex.
SPOTTER_LINE: hexdraw.Colour = (90, 200, 255, 255)
MOVER: hexdraw.Colour = (230, 50, 40, 255)
SHOOTER: hexdraw.Colour = (255, 214, 40, 255)
TARGET_RANGE: hexdraw.Colour = (240, 120, 40, 255)
TEXT_ON_MAP: hexdraw.Colour = (16, 16, 16, 255)
#: How solid the ghost of a unit being placed or moved is (a share of a counter's opacity).
GHOST = 0.5
FLASH_FILL: hexdraw.Colour = (255, 236, 140, 110)
FLASH_RING: hexdraw.Colour = (255, 70, 40, 255)
MISS_BACK: hexdraw.Colour = (20, 20, 20, 215)
MISS_TEXT: hexdraw.Colour = (255, 255, 255, 255)
#: How far above its hex an aircraft's tag starts gliding down (and climbs to when it leaves).
AIR_GLIDE = 1.6 * hexdraw.SIZE


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


def _outline(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour, width: float = 3.0, scale: float = 0.93) -> None:
    mesh.outline(hexdraw.corners(*hexdraw.centre(hex_), scale), width, colour)


def _tint(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour) -> None:
    mesh.polygon(hexdraw.corners(*hexdraw.centre(hex_)), colour)


def _faded(colour: hexdraw.Colour, share: float) -> hexdraw.Colour:
    return (colour[0], colour[1], colour[2], round(colour[3] * max(0.0, min(1.0, share))))


def _add_faded(mesh: Mesh, part: Mesh, texts: list[TextSpec], share: float) -> list[TextSpec]:
    """`part` added to `mesh` and `texts` returned, each made `share` as solid (a ghost, a unit leaving)."""
    mesh.points += part.points
    mesh.colours += [_faded(colour, share) for colour in part.colours]
    return [attrs.evolve(text, colour=_faded(text.colour, share)) for text in texts]


def ghost_mesh(unit: Unit, hex_: Hex, facing: Facing | None, name: str) -> tuple[Mesh, list[TextSpec]]:
    """Where a unit would go, facing the chosen way: its counter (an aircraft's tag), translucent."""
    part, mesh = Mesh(), Mesh()
    if unit.card.is_aircraft:
        texts = air_tag(part, unit, air_slot(hex_), name)
        return mesh, _add_faded(mesh, part, texts, GHOST)
    texts = counter_mesh(part, unit, Slot(*hexdraw.centre(hex_)), name, facing=facing)
    return mesh, _add_faded(mesh, part, texts, GHOST)


def motion_mesh(state: GameState, frame: Frame, names: Mapping[str, str]) -> tuple[Mesh, list[TextSpec]]:
    """A moment of motion (`minis.ui.motion.Frame`): sliding units between two hexes of their path, a
    hit's flash, a miss's mark, a destroyed unit fading and shrinking where it stood."""
    mesh = Mesh()
    texts: list[TextSpec] = []
    for unit_id, a, b, along in frame.slides:
        unit = state.units[unit_id]
        (ax, ay), (bx, by) = hexdraw.centre(a), hexdraw.centre(b)
        at = Slot(ax + (bx - ax) * along, ay + (by - ay) * along)
        facing = direction_to(a, b) if unit.card.is_vehicle else None
        texts += counter_mesh(mesh, unit, at, names.get(unit_id, unit.card.name), facing=facing)
    for mark, along in frame.marks:
        x, y = hexdraw.centre(mark.hex)
        fade = min(1.0, 2.5 * (1.0 - along))  # solid for most of its time, then fading out
        if mark.kind == "leave":
            unit = state.units[mark.unit]
            part = Mesh()
            shown = counter_mesh(part, unit, Slot(x, y, 1.0 - 0.7 * along), names.get(mark.unit, ""))
            texts += _add_faded(mesh, part, shown, 1.0 - along)
        elif mark.kind in ("fly", "land"):  # an aircraft gliding down onto its hex, or climbing away
            unit = state.units[mark.unit]
            share = along if mark.kind == "fly" else 1.0 - along
            slot = air_slot(mark.hex)
            part = Mesh()
            shown = air_tag(
                part, unit, Slot(slot.x, slot.y + AIR_GLIDE * (1.0 - share)), names.get(mark.unit, "")
            )
            texts += _add_faded(mesh, part, shown, share)
        elif mark.kind == "hit":
            mesh.polygon(hexdraw.corners(x, y, 0.95), _faded(FLASH_FILL, 1.0 - along))
            mesh.outline(hexdraw.corners(x, y, 0.85 + 0.3 * along), 5.0, _faded(FLASH_RING, fade))
        else:  # a miss: a mark over the target's counter, rising a little
            cy = y + 0.62 * hexdraw.SIZE + 8.0 * along
            mesh.polygon(
                [(x - 22, cy - 9), (x + 22, cy - 9), (x + 22, cy + 9), (x - 22, cy + 9)],
                _faded(MISS_BACK, fade),
            )
            texts.append(TextSpec("Miss", x, cy, 13.0, _faded(MISS_TEXT, fade), bold=True))
    return mesh, texts


#: Hover boxes kept laid out (`BattleScreen._show_tooltip`).
KEPT_TOOLTIPS = 64
#: The hover group's marks kept built, by what they show (`BattleScreen._update_hover_layer`).
KEPT_HOVER_MARKS = 64


class LogView(Widget):
    """The game's lines, newest at the bottom, each wrapped whole (never cut short); the wheel scrolls
    back a line at a time."""

    #: The most lines laid out at once (the box shows fewer; the wheel reaches the rest).
    WINDOW = 24

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.back = 0
        self.text = Label("", size=theme.SMALL_SIZE, multiline=True, colour=theme.TEXT)

    def set_lines(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.lines = lines
        self.back = min(self.back, max(0, len(lines) - 1))
        self._update()

    def _update(self) -> None:
        end = len(self.lines) - self.back
        inner = self.text.box
        fit_lines(self.text, self.lines[max(0, end - self.WINDOW) : end], inner.width, inner.height)

    def place(self, box: Box) -> None:
        super().place(box)
        self.text.place(box.inset(6, 2))
        self._update()

    def look(self) -> Hashable:
        return (super().look(), self.text.text)

    def draw(self) -> None:
        fill(self.box, theme.BAR)
        outline(self.box, theme.PANEL_BORDER)
        self.text.draw()

    def on_mouse_scroll(self, x: float, y: float, scroll_y: float) -> bool:
        if not self.box.contains(x, y):
            return False
        self.back = max(0, min(len(self.lines) - 1, self.back + int(scroll_y)))
        self._update()
        return True


class BattleScreen(Screen):
    """The battle at the table: it lays out and draws what its `BattleController` says, and hands it
    the map's clicks and the keys; the dialogs and the window's routes stay here."""

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
        self.map.pointing = self._pointing  # a stack spread out stays open under the pointer
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
        self.handed_over = handed_over
        self.notices: list[Callable[[], Dialog]] = []
        #: The dialog of the question the stage asks (the first player, the end), while it is made.
        self._asking: Dialog | None = None
        self._panel_version: object = None
        self._tooltip_version: object = None
        #: The counters' boxes on screen for the hover box, with what they were worked out for.
        self._spots: tuple[Hashable, list[tuple[float, float, float, float]]] = (None, [])
        self._layers_version: object = None
        self._counters_key: object = None
        self._fan_key: object = None
        #: The hex whose stack is spread out now (None: none).
        self._fan_hex: Hex | None = None
        self._under_key: object = None
        #: The drawing of the map's effects (smoke, blown bridges), rebuilt only when they change.
        self.effects = effect_ui.picture(())
        self._hover_key: object = None
        self._laid_out_info = ""
        #: The info text the panel asks for; the box shows it cut to fit (`_fit_info`).
        self._info_source = ""
        self._choice_keys: dict[int, Callable[[], object]] = {}
        #: What happened, shown for a moment after each action (see `minis.ui.motion`).
        self.motion = Motion()
        self._motion_key: object = None
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
        #: Each side's aircraft beside the map (only in a battle with aircraft): a click picks one.
        self.air_tray = airtray.AirTray(self.pick_aircraft)
        self.air_tray.visible = self.controller.has_aircraft()
        board = self.state.board
        if board is not None:
            self.map.set_geometry(battle_geometry(window, board))
        for group in (
            "effects",  # smoke and blown bridges: over the terrain, under the tints and counters
            "under",
            "counters",
            "effects-over",  # a blown bridge's cross: seen beside the counters at the bridge
            "motion",
            "over",
            "hover",
            "fan",
        ):  # the drawing order of the map's layers
            self.map.set_group(group, None, [], [])
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
        dialogs the players must read or answer, and the motion of what it did."""
        before = self._units_after
        self.motion.play(events, {unit_id: u.hex for unit_id, u in before.items() if u.hex is not None})
        self._units_before, self._units_after = before, dict(self.state.units)
        report = self.readout.casualty_report(events)
        if report is not None and not (self.computer is not None and self.computer.alone):
            self.notices.append(functools.partial(self._casualty_dialog, *report))
        self.next_dialog()

    def next_dialog(self) -> None:
        """Show the next thing the players must read or decide in a dialog (or none)."""
        if self.notices:
            self.show_dialog(self.notices.pop(0)())
            return
        if self.session.over:
            self.show_dialog(None)
            if self.computer is not None:
                self.computer.close()
            if self.app.top_screen is self:
                self.app.routes.victory(self.session)
            return
        question = self.readout.question()
        if question is not None:
            self.show_dialog(self._question_dialog(question))
        else:
            self.show_dialog(None)
            deploying = self.state.deploying
            if (
                self.stage is Stage.DEPLOY
                and deploying is not None
                and deploying is not self.handed_over
                and self.computer is None  # one player at the screen: nothing to hand over
                and self.remote is None
                and self.app.top_screen is self
            ):
                self._hand_over(deploying)
        self.changed()

    def _hand_over(self, side: Side) -> None:
        self.handed_over = side
        end = self.state.ends.get(side, "")
        then = f"to deploy the {side.title} army at the {end} end of the map"
        if self.state.obstacles and obstacle_ui.next_to_place(self.state) is not None:
            then = f"to place a {side.title} obstacle (obstacles go on the map before the units)"

        def back() -> None:
            if self.app.top_screen is not self:
                self.app.back()

        self.app.open(HandOver(self.app, side, then, back))

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

    def _question_dialog(self, question: Question) -> Dialog:
        """The first-player or end question, with the dice behind it in the dice row."""
        if self.stage is Stage.CHOOSE_FIRST:
            dice = self.readout.first_dice()
            coin = bool(dice) and dice[0][0] == "coin"
            caption = (
                "Coin flip (1-3 Axis, 4-6 Allies)" if coin else "Initiative: Axis, Allies (two dice each)"
            )
            rolled = tuple(die for _, die in dice)
            roll = Roll("coin" if coin else "initiative", caption, rolled, (None,) * len(rolled), "")
            self.dice.set_rolls([roll] if rolled else [])
            self._fit_dice()
        buttons = [_button(choice) for choice in question.choices]
        self._asking = Dialog(
            question.title, question.text, buttons, on_cancel=self._leave_question, width=PANEL_WIDTH + 20
        )
        return self._asking

    def _leave_question(self) -> None:
        """Escape on a question the game waits for (the coin flip's or initiative's first player, the
        end): nothing can be put off, so Escape does what it does everywhere in a battle, it asks
        'Leave this battle?'; Stay brings the question back."""
        if self.remote is not None:
            from minis.ui import netbattle

            netbattle.battle_menu(self)
            return
        self.show_dialog(leave_dialog(self, self._leave_text(), on_stay=self.next_dialog))

    def _leave_text(self) -> str:
        if self.remote is not None:
            return "The server keeps this battle: resume it from Play over the network."
        return f"The game is saved automatically at every phase ({self.session.autosave_path})."

    def _casualty_dialog(self, title: str, text: str) -> Dialog:
        return Dialog(
            title, text, [Button("Continue (Enter)", self.next_dialog)], on_cancel=self.next_dialog, width=520
        )

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
        self.controller.pick_listed(row)

    def pick_aircraft(self, unit_id: str) -> None:
        """A click on an aircraft in the tray (while no dialog is open)."""
        if self.dialog is None:
            self.controller.pick_aircraft(unit_id)

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
        if self.dialog is None or self.dialog is not self._asking:
            if self.dialog is not None and self.dialog.title.text.startswith("Casualty phase"):
                self.say(
                    "Nothing to decide here: the report says what the casualty phase did; Enter goes on."
                )
                return True
            return False
        self.show_hint()
        question = self.readout.question()
        if question is not None and self.controller.hint:
            self.show_dialog(self._question_dialog(question))
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
        if self.remote is not None:
            from minis.ui import netbattle

            netbattle.battle_menu(self)
            return True
        self.show_dialog(leave_dialog(self, self._leave_text()))
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
            and (unit := self._penalty_counter_at(x, y)) is not None
        ):
            self.controller.penalty(unit.id)  # a counter of the overstacked hex, spread out beside it
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
        self._choice_keys = {_key_code(c.key): c.do for c in choices if c.key is not None}
        if [(b.text, b.shortcuts) for b in self.choices] == [
            (c.caption, (_key_code(c.key),) if c.key is not None else ()) for c in choices
        ]:
            for button, choice in zip(self.choices, choices, strict=True):
                button.on_click = choice.do
                button.enabled = choice.enabled
            return
        self.choices = [_button(choice, size=theme.SMALL_SIZE + 1) for choice in choices]
        self._rebuild_widgets()
        self._layout_all()

    def show_log(self) -> None:
        """The log in plain words, or (T) in the records' action notation; while the dice tumble,
        without what they rolled (`held`)."""
        self.log_title.text = "Log in notation (V: plain words)" if self.notation else "Log (V: notation)"
        control = self.controller
        if not self.held():
            self.log.set_lines(control.log_lines(self.notation))
        elif self.notation:  # its line carries the dice: it waits whole
            self.log.set_lines(control.log_lines(True)[:-1])
        else:
            events = self.session.events
            self.log.set_lines(
                control.summary(events[: len(events) - len(self.session.last_events)]) + self._before_dice()
            )

    def held(self) -> bool:
        """True while the last action's dice tumble: what they rolled is not said yet."""
        frame = self.motion.frame()
        return frame is not None and frame.tumble is not None

    def _before_dice(self) -> list[str]:
        """The last action's lines before its first roll (a move before its movement roll)."""
        events = self.session.last_events
        first = next((i for i, e in enumerate(events) if e.kind in ROLLED and e.dice), len(events))
        return self.controller.summary(events[:first])

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
            self.air_tray.set_sides(control.tray())
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
            lines = control.summary([e for e in events if e.kind not in ROLLED and e.kind != "hits"])
            if held:  # what came of the dice (a unit destroyed, a stop) waits for them
                lines = [line for line in self._before_dice() if line in lines]
            fit_lines(self.last, lines, self.last.box.width, self.last.box.height)
        elif stage is not Stage.CHOOSE_FIRST:
            self.dice.set_rolls([])
            self.last.text = self.session.last_action
        self._fit_dice()
        self.show_log()
        hint = HINTS.get(stage, HINTS[None])
        if stage is Stage.ACT and self.game.state.phase in AIR_HINTS:
            hint = AIR_HINTS[self.game.state.phase]
        hint += " · T: map key · V: log notation"
        if self.remote is not None:  # a network battle: no save or load here, a chat and a menu
            hint = hint.replace("Ctrl+S/O", "M: chat · Esc: menu")
        if self.remote is not None and control.elsewhere_decides():
            hint = f"The {self.remote.title} player's turn · M: chat · T: map key · V: log notation"
            hint += " · Esc: menu"
        if self.computer is not None:  # against the computer: its pace and the hint come first
            if control.elsewhere_decides():
                hint = "The computer's turn · T: map key · V: log notation · Esc: leave"
            asks = "?: hint · " if stage in (Stage.DEFENSIVE_FIRE, Stage.REACTION) else "H: hint · "
            hint = ("Space: pause · " if self.computer.alone else asks) + "F: fast · " + hint
        self.set_hint(hint if not self.session.over else "")
        if self._info_source != self._laid_out_info:  # the info box grows and shrinks with its text
            self._laid_out_info = self._info_source
            self._layout_all()
        self.message.text = control.message
        self.message.colour = theme.BAD if control.message_bad else theme.TEXT
        last = self.session.last_events
        if held and (
            control.message in control.summary(last)[:1] or control.message == control.stacking_warning(last)
        ):
            before = self._before_dice()  # the action's own line, with its dice, waits for them
            self.message.text = before[0] if before else "The dice are rolling…"
        if self.session.autosave_error:
            self.message.text = self.session.autosave_error
            self.message.colour = theme.BAD

    # --- the map's layers -----------------------------------------------------------------------------
    def update_layers(self, frame: Frame | None = None) -> None:
        """The map's layers: `effects` (smoke, blown bridges), `under`, `counters`, `motion` (`frame`: the
        moment of motion shown, its sliding units left out of `counters`) and `over` in the kept picture;
        `hover` (what follows the mouse: its outline, an attack's line and odds, the deployment ghost)
        drawn over it."""
        self._update_hover_layer()
        self._update_fan()
        self._update_motion(frame)
        moving = frame.moving if frame is not None else frozenset()
        tumbling = frame is not None and frame.tumble is not None
        version = (self.version, self.map.cursor_shown, moving, tumbling)
        if self._layers_version == version:
            return
        self._layers_version = version
        state = self.state
        if state.board is None:
            return
        over = Mesh()  # outlines, paths, marks
        texts: list[TextSpec] = []
        stage = state.stage
        selected = state.units.get(self.controller.selected or "")
        under_key = (
            self.controller.board_version,
            stage,
            self.controller.selected,
            state.deploying,
            state.objective,
        )
        effects = tuple(queries.map_effects(state))
        if effects != self.effects.effects:
            self.effects = effect_ui.picture(effects)
        self.map.set_group("effects", effects, [(self.effects.mesh, True)], [])
        self.map.set_group("effects-over", effects, [(self.effects.over, True)], [])
        if under_key != self._under_key:
            self._under_key = under_key
            layers = [(self._tints(), True)]
            if state.obstacles:
                layers.append((obstacle_ui.mesh(state), True))  # obstacles (minis.ui.obstacles)
            self.map.set_group("under", under_key, layers, self._cost_texts())
        if selected is not None and selected.hex is not None:
            _outline(over, selected.hex, SELECT, 3.5, 0.95)
        if self.controller.path and selected is not None and selected.hex is not None:
            points = [hexdraw.centre(h) for h in (selected.hex, *self.controller.path)]
            over.polyline(points, 7, PATH_EDGE)
            over.polyline(points, 4, PATH)
            for p in points[1:]:
                over.disc(p, 5, PATH, 10)
            end = points[-1]
            over.disc(end, 8, PATH_EDGE, 12)
            over.disc(end, 6, SELECT, 12)
            info = self.controller.path_info
            if info is not None and info.problem is None:
                for step in info.steps:
                    if step.shooters:
                        x, y = hexdraw.centre(step.end)
                        mark = (x + 0.45 * hexdraw.SIZE, y + 0.3 * hexdraw.SIZE)
                        over.disc(mark, 9, (20, 20, 20, 255), 12)
                        over.disc(mark, 7.5, DANGER, 12)
                        texts.append(TextSpec("!", mark[0], mark[1], 12, (255, 255, 255, 255), bold=True))
        if stage is Stage.DEFENSIVE_FIRE and state.move is not None:
            mover = state.units[state.move.unit]
            if mover.hex is not None:
                _outline(over, mover.hex, MOVER, 4, 0.95)
                for preview in queries.defensive_fire_options(state):
                    shooter = state.units[preview.attacker]
                    if shooter.hex is not None:
                        _outline(over, shooter.hex, SHOOTER, 3.5, 0.9)
                        a, b = hexdraw.centre(shooter.hex), hexdraw.centre(mover.hex)
                        over.line(a, b, 3, SHOOTER)
        crowded = self.controller.penalty_hex()
        if crowded is not None:  # the hex over the limit whose hit the other player chooses
            _outline(over, crowded, MOVER, 4, 0.95)
        flying = air.reacting_to(state) if stage is Stage.REACTION else None
        if flying is not None and flying.hex is not None:  # who may shoot at the aircraft just placed
            _outline(over, flying.hex, MOVER, 4, 0.95)
            for preview in self.controller.reaction_options():
                shooter = state.units[preview.attacker]
                if shooter.hex is not None:
                    _outline(over, shooter.hex, SHOOTER, 3.5, 0.9)
                    over.line(hexdraw.centre(shooter.hex), hexdraw.centre(flying.hex), 3, SHOOTER)
        # the counters, with previews of a facing being chosen (rebuilt only when they change)
        acted = (
            frozenset(state.activated)
            if stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK, Stage.REACTION)
            else frozenset()
        )
        preview_facing: dict[str, Facing] = {}
        if (
            selected is not None
            and selected.card.is_vehicle
            and self.controller.facing is not None
            and not self.controller.path
        ):
            preview_facing[selected.id] = self.controller.facing
        facings = tuple(sorted((k, f.name) for k, f in preview_facing.items()))
        counters_key = (
            self.controller.board_version,
            acted,
            facings,
            self.controller.selected,
            moving,
            tumbling,
        )
        if counters_key != self._counters_key:
            self._counters_key = counters_key
            counters, counter_texts, _ = units_mesh(
                self._before_the_dice(state) if tumbling else state,
                acted=acted,
                hidden=moving,
                facing=preview_facing,
                top=self.controller.selected,
                names=self.controller.short_names(),
            )
            self.map.set_group("counters", counters_key, [(counters, False)], counter_texts)
        ghost = Mesh()
        if (
            self.controller.path
            and selected is not None
            and selected.card.is_vehicle
            and self.controller.facing is not None
        ):
            ghost, ghost_texts = self._ghost(selected, self.controller.path[-1])
            texts += ghost_texts
        self.map.set_group("over", version, [(over, True), (ghost, True)], texts)

    def _before_the_dice(self, state: GameState) -> GameState:
        """The state with each unit's face-down counters as they were before the last action."""
        shown = state.clone()
        for unit_id, before in self._units_before.items():
            unit = shown.units.get(unit_id)
            if unit is not None and unit.pending != before.pending:
                shown.units[unit_id] = attrs.evolve(unit, pending=before.pending)
        return shown

    def _update_motion(self, frame: Frame | None) -> None:
        """The `motion` group: what the last action did, for a moment (nothing once it is over)."""
        key = (frame, self.controller.board_version)
        if key == self._motion_key:
            return
        self._motion_key = key
        mesh, texts = Mesh(), list[TextSpec]()
        if frame is not None and self.state.board is not None:
            mesh, texts = motion_mesh(self.state, frame, self.controller.short_names())
        self.map.set_group("motion", frame, [(mesh, True)], texts)

    def _update_fan(self) -> None:
        """The `fan` group: the hovered hex's stack spread out whole beside it, names and all."""
        hover = self.map.hover
        pinned = self.controller.penalty_hex() if not self.controller.elsewhere_decides() else None
        if pinned is not None:
            hover = pinned  # the overstacked hex's counters stay spread out, to be clicked
        if hover is not None and len(self.state.at(hover)) < 2:
            hover = None  # no stack to spread out: crossing such hexes leaves the group as it is
        place = self._fan_place(hover) if hover is not None else None
        chosen = self.controller.target or self.controller.chosen
        key = (self.version, hover, self.dialog is None, place, chosen)
        if key == self._fan_key:
            return
        self._fan_key = key
        mesh, texts = Mesh(), list[TextSpec]()
        board = self.state.board
        self._fan_hex = None
        if hover is not None and place is not None and board is not None and self.dialog is None:
            self._fan_hex = hover
            acted = (
                self.state.activated if self.stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK) else ()
            )
            mesh, texts = fan_mesh(
                self.state,
                hover,
                acted=acted,
                names=self.controller.short_names(),
                top=self.controller.selected,
                below=place[0],
                shift=place[1],
                chosen=chosen,
            )
        self.map.set_group("fan", key, [(mesh, True)], texts, dynamic=True)

    def _fan_below(self, hex_: Hex) -> bool:
        """Whether a stack spread out from `hex_` goes under it (no room above: see `_fan_place`)."""
        return self._fan_place(hex_)[0]

    def _fan_place(self, hex_: Hex) -> tuple[bool, float]:
        """Where a stack spread out from `hex_` goes: under it when there is no room above (the map's top
        row, or the top of the map's view), and how far sideways (world units) to stay whole inside the
        map's view at its left or right edge."""
        board = self.state.board
        assert board is not None
        count = max(2, len(self.state.at(hex_)))
        left, bottom = self.map.screen_to_world(self.map.box.left, self.map.box.bottom)
        right, top = self.map.screen_to_world(self.map.box.right, self.map.box.top)
        margin = 3.0
        above = fan_box(hex_, count)
        below = hexdraw.centre(hex_)[1] + 2.6 * hexdraw.SIZE > hexdraw.map_edge(board).top or (
            above[3] > top - margin and fan_box(hex_, count, below=True)[1] >= bottom + margin
        )
        box_left, _, box_right, _ = fan_box(hex_, count, below=below)
        shift = 0.0
        if box_left < left + margin:
            shift = left + margin - box_left
        elif box_right > right - margin:
            shift = max(right - margin - box_right, left + margin - box_left)
        return below, round(shift, 1)

    def _pointing(self, x: float, y: float, hex_: Hex | None) -> Hex | None:
        """What the pointer points at: over the stack spread out beside a hex (or the hex itself, the
        one area), that hex, so the stack stays open while the pointer moves onto it; a spread-out
        counter under the pointer is the unit picked in the stack (the target, its odds, its card)."""
        fan = self._fan_hex
        if fan is None or self.dialog is not None or self.state.board is None:
            return hex_
        if not self.map.box.contains(x, y) or len(self.state.at(fan)) < 2:
            return hex_
        below, shift = self._fan_place(fan)
        wx, wy = self.map.screen_to_world(x, y)
        left, bottom, right, top = fan_box(fan, len(self.state.at(fan)), below=below, shift=shift)
        if not (left <= wx <= right and bottom <= wy <= top):
            return hex_
        unit = fan_unit_at(self.state, fan, wx, wy, top=self.controller.selected, below=below, shift=shift)
        if unit is not None:
            if self.map.hover != fan:
                self.controller.hover_at(fan)  # the hex first: choosing keeps to its stack
            self.controller.choose(unit.id)
        return fan

    def _penalty_counter_at(self, x: float, y: float) -> Unit | None:
        """The unit whose counter, spread out beside the overstacked hex, is at screen point (x, y)."""
        hex_ = self.controller.penalty_hex()
        if hex_ is None or self.state.board is None or not self.map.box.contains(x, y):
            return None
        wx, wy = self.map.screen_to_world(x, y)
        below, shift = self._fan_place(hex_)
        return fan_unit_at(self.state, hex_, wx, wy, top=self.controller.selected, below=below, shift=shift)

    def _update_hover_layer(self) -> None:
        """The `hover` group: the hovered hex's outline, the attack line with its odds, the ghost of a
        unit being deployed (rebuilt only when one of them changes: the key names what is drawn)."""
        state = self.state
        selected = state.units.get(self.controller.selected or "")
        hover = self.map.hover
        aimed = state.units.get(self.controller.target or "")
        preview = self.controller.preview
        aim = None
        if aimed is not None and selected is not None:
            odds = percent(preview.hit_chance) if isinstance(preview, AttackPreview) else None
            spotter = preview.spotter if isinstance(preview, AttackPreview) else ""
            aim = (selected.hex, aimed.hex, odds, spotter)
        placing = (
            state.stage is Stage.DEPLOY or (state.stage is Stage.ACT and state.phase is Phase.FLIGHT)
        ) and (selected is not None and selected.hex is None)
        ghost_key = (self.version, hover) if placing and hover is not None else None
        key = (aim, None if self.map.cursor_shown else hover, ghost_key)
        if key == self._hover_key:
            return
        self._hover_key = key
        if self.map.show_kept("hover", key):
            return  # the mouse back over a hex: its marks were built before
        marks = Mesh()
        texts: list[TextSpec] = []
        if self.controller.target is not None and selected is not None and selected.hex is not None:
            target = state.units[self.controller.target]
            if target.hex is not None:
                ok = isinstance(self.controller.preview, AttackPreview)
                colour = TARGET_OK if ok else TARGET_NO
                a, b = hexdraw.centre(selected.hex), hexdraw.centre(target.hex)
                eye_hex = self._spotter_hex()
                if eye_hex is not None:  # indirect fire: the sight line used is the spotter's
                    eye = hexdraw.centre(eye_hex)
                    marks.line(eye, b, 6, (20, 20, 20, 220))
                    marks.line(eye, b, 3.5, SPOTTER_LINE)
                    _outline(marks, eye_hex, SPOTTER_LINE, 3.0, 0.86)
                marks.line(a, b, 6, (20, 20, 20, 220))
                marks.line(a, b, 3.5, colour)
                _outline(marks, target.hex, colour, 3.5, 0.92)
                if ok:
                    assert isinstance(self.controller.preview, AttackPreview)
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    texts.append(
                        TextSpec(
                            f"{percent(self.controller.preview.hit_chance)}",
                            mid[0],
                            mid[1] + 9,
                            13,
                            (255, 255, 255, 255),
                            bold=True,
                        )
                    )
        if self.map.hover is not None and not self.map.cursor_shown:  # the keyboard cursor marks it instead
            _outline(marks, self.map.hover, HOVER, 2.2, 0.96)
        ghost = Mesh()
        if (
            placing and selected is not None and self.map.hover is not None
        ):  # a unit deployed, an aircraft flown
            ghost, ghost_texts = self._ghost(selected, self.map.hover)
            texts += ghost_texts
        self.map.set_group(
            "hover", key, [(marks, True), (ghost, True)], texts, dynamic=True, keep=KEPT_HOVER_MARKS
        )

    def _spotter_hex(self) -> Hex | None:
        """Indirect fire: the hex of the friendly unit whose sight the previewed attack uses."""
        preview = self.controller.preview
        if not isinstance(preview, AttackPreview) or not preview.spotter:
            return None
        spotter = self.state.units.get(preview.spotter)
        return spotter.hex if spotter is not None else None

    def _tints(self) -> Mesh:
        """Hexes tinted under the counters: a deployment zone, the ends, legal hexes, a unit's reach."""
        state = self.state
        board = state.board
        assert board is not None
        under = Mesh()
        stage = state.stage
        if stage is Stage.DEPLOY and state.deploying is not None:
            colour = ZONE_TINT.get(state.ends.get(state.deploying, "west"), LEGAL)
            for hex_ in setup.zone(state, state.deploying):
                _tint(under, hex_, colour)
            for hex_ in self.controller.special_hexes():  # a Partisan's edge, a Gliderborne's area
                _tint(under, hex_, LEGAL)
        elif stage is Stage.CHOOSE_END:  # the chooser's zone at either end (an Assault defender's: a half)
            chooser = self.game.decider()
            zone = state.battle.terms.side(chooser).zone if chooser is not None else ZONE_DEPTH
            for end in ("west", "east"):
                for hex_ in zone_hexes(board, zone, end):
                    _tint(under, hex_, ZONE_TINT[end])
        elif stage in (Stage.CHOOSE_OBJECTIVE, Stage.PLACE):
            for action in self.game.legal_actions():
                if isinstance(action, A.Objective | A.Dismount):
                    _tint(under, action.hex, LEGAL)
        elif stage is Stage.ACT and self.controller.selected is not None:
            for hex_, info in self.controller.costs.items():
                _tint(under, hex_, REACH_ROLL if info.rolls else REACH)
            for hex_ in self.controller.special_hexes():  # where a waiting Hero or Paratrooper may arrive
                _tint(under, hex_, LEGAL)
        if stage is Stage.ACT:
            # units that may still act: a thin ring; the selected unit's targets: an orange one
            for unit in state.units.values():
                if (
                    self.controller.is_ready(unit)
                    and unit.hex is not None
                    and unit.id != self.controller.selected
                ):
                    _outline(under, unit.hex, (255, 255, 255, 150), 1.6, 0.97)
            for target in self.controller.attacks if self.controller.selected is not None else ():
                target_hex = state.units[target].hex
                if target_hex is not None:
                    _outline(under, target_hex, TARGET_RANGE, 2.4, 0.9)
        return under

    def _cost_texts(self) -> list[TextSpec]:
        """The cost of each reachable hex (at its top) and the chance of its movement rolls (at its foot)."""
        if self.stage is not Stage.ACT or self.controller.selected is None:
            return []
        texts = []
        size = hexdraw.SIZE
        for hex_, info in self.controller.costs.items():
            x, y = hexdraw.centre(hex_)
            texts.append(TextSpec(str(info.cost), x, y + 0.62 * size, 0.34 * size, TEXT_ON_MAP, bold=True))
            if info.rolls:
                texts.append(
                    TextSpec(percent(info.roll_odds), x, y - 0.66 * size, 0.3 * size, TEXT_ON_MAP, bold=True)
                )
        return texts

    def _ghost(self, unit: Unit, hex_: Hex) -> tuple[Mesh, list[TextSpec]]:
        """Where a unit would go, facing the chosen way (a Vehicle's): its counter, translucent."""
        facing = self.controller.facing if unit.card.is_vehicle else None
        return ghost_mesh(unit, hex_, facing, self.controller.short_names().get(unit.id, unit.card.name))

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
        self.update_layers(self.motion.frame())
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
        box = self.hover_box(width, round(height))
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

    def hover_box(self, width: float, height: float) -> Box:
        """Where the hover box goes: the corner of the map that hides the fewest counters (never the
        hovered hex or a stack spread out from it), the top corners first."""
        area = self.map.box
        hover = self.map.hover
        counters = self._counter_spots()
        covers_hover: tuple[float, float, float, float] | None = None
        if hover is not None:
            x, y = hexdraw.centre(hover)
            reach = 4.2 * hexdraw.SIZE  # the hex, and a stack spread out above or below it
            (l_, b_), (r_, t_) = (
                self.map.world_to_screen(x - reach, y - reach),
                self.map.world_to_screen(x + reach, y + reach),
            )
            covers_hover = (l_, b_, r_, t_)
        m = 6
        corners = [
            Box(area.left + m, area.top - height - m, width, height),
            Box(area.right - width - m, area.top - height - m, width, height),
            Box(area.left + m, area.bottom + m, width, height),
            Box(area.right - width - m, area.bottom + m, width, height),
        ]

        def over(box: Box, spot: tuple[float, float, float, float]) -> bool:
            l_, b_, r_, t_ = spot
            return l_ < box.right and r_ > box.left and b_ < box.top and t_ > box.bottom

        def hidden(box: Box) -> int:
            """Counters the box would hide; the hovered hex counts as a hundred (never hide it)."""
            hides_hover = covers_hover is not None and over(box, covers_hover)
            return sum(1 for spot in counters if over(box, spot)) + (100 if hides_hover else 0)

        best = min(corners, key=hidden)  # the first of the least hidden
        return Box(round(best.left), round(best.bottom), round(best.width), round(best.height))

    def _counter_spots(self) -> list[tuple[float, float, float, float]]:
        """The counters' boxes on screen (left, bottom, right, top), kept while the board and the view
        stay as they are (the hover box asks on every frame the mouse moves)."""
        key = (self.controller.board_version, self.map.look())
        if self._spots[0] != key:
            spots = []
            for hex_ in self.state.occupancy():
                x, y = hexdraw.centre(hex_)
                (l_, b_) = self.map.world_to_screen(x - HALF_WIDTH, y - HALF_HEIGHT)
                (r_, t_) = self.map.world_to_screen(x + HALF_WIDTH, y + HALF_HEIGHT)
                spots.append((l_, b_, r_, t_))
            for plane in aircraft_over(self.state):  # an aircraft's tag at the top of its hex
                assert plane.hex is not None
                slot = air_slot(plane.hex)
                (l_, b_) = self.map.world_to_screen(slot.x - AIR_HALF_WIDTH, slot.y - AIR_HALF_HEIGHT)
                (r_, t_) = self.map.world_to_screen(slot.x + AIR_HALF_WIDTH, slot.y + AIR_HALF_HEIGHT)
                spots.append((l_, b_, r_, t_))
            self._spots = (key, spots)
        return self._spots[1]

    def on_show_view(self) -> None:
        super().on_show_view()
        self.changed()
        if self.dialog is None:
            self.next_dialog()  # a hand-over, the victory screen or a question waiting for this screen


def _key_code(key: str) -> int:
    """The arcade key of a choice's key character ("1" -> KEY_1, "A" -> A)."""
    return int(getattr(arcade.key, f"KEY_{key}" if key.isdigit() else key.upper()))


def _button(choice: Choice, size: int | None = None) -> Button:
    """A choice as a button, with its key as a shortcut."""
    shortcuts = [_key_code(choice.key)] if choice.key is not None else []
    if size is None:
        button = Button(choice.caption, choice.do, shortcuts=shortcuts)
    else:
        button = Button(choice.caption, choice.do, shortcuts=shortcuts, size=size)
    button.enabled = choice.enabled
    return button
