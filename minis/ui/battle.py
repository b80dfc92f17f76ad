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
- the casualty phase's summary, and the victory screen (opened through the window's routes).

Every hex the screen asks for can also be chosen with the map's keyboard cursor (W A S D, then Space):
`MapView` hands the cursor hex to `on_hex_click` exactly as a mouse click does, and makes it the hovered
hex, so the previews follow it; the screen has no keyboard-only rule paths.

The map and everything on it belong to the screen's kept picture, rebuilt only when something changes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable

import arcade

from minis import actions as A
from minis import queries
from minis.board import ZONE_DEPTH, Board
from minis.events import Event
from minis.game import Game
from minis.hexgrid import FACINGS, Facing, Hex, distance
from minis.queries import AttackPreview, PathInfo, percent
from minis.rules import setup
from minis.rules.errors import IllegalAction
from minis.rules.zones import zone_hexes
from minis.sides import Side
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import hexdraw, theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.battlemap import BattleMap
from minis.ui.cardpanel import SIDE_TEXT, CardPanel
from minis.ui.confirm import EarlyEnd, leave_dialog
from minis.ui.counters import (
    HALF_HEIGHT,
    HALF_WIDTH,
    TextSpec,
    battle_names,
    fan_mesh,
    pending_summary,
    units_mesh,
)
from minis.ui.handover import HandOver
from minis.ui.hexdraw import Mesh
from minis.ui.session import SAVE_SUFFIX, Session, armies_revealed
from minis.ui.widgets import Box, Button, Dialog, DiceRow, Label, ListBox, Widget, fill, fit_lines, outline

PANEL_WIDTH = 340
STRIP = 26

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
MOVER: hexdraw.Colour = (230, 50, 40, 255)
SHOOTER: hexdraw.Colour = (255, 214, 40, 255)
TARGET_RANGE: hexdraw.Colour = (240, 120, 40, 255)
TEXT_ON_MAP: hexdraw.Colour = (16, 16, 16, 255)


#: The hint line for each stage: what to do next.
#: (Everywhere on the map, W A S D move the keyboard cursor and Space clicks the hex under it.)
HINTS: dict[Stage | None, str] = {
    Stage.DEPLOY: "Click (or W A S D + Space) a hex in the tinted zone · N: next unit · Q/E: facing · "
    "R: ready · U: undo · L: labels · Esc: leave",
    Stage.ACT: "Click (or W A S D + Space) a unit, then its path or an enemy · Enter: go · Q/E: facing · "
    "P: end phase · U: undo · Ctrl+S/O",
    Stage.DEFENSIVE_FIRE: "1-9 or a click (W A S D + Space) on a ringed unit: fire · H: hold",
    Stage.PLACE: "Click (or W A S D + Space) a highlighted hex to place the Soldier",
    Stage.CHOOSE_OBJECTIVE: "Click (or W A S D + Space) a highlighted hex for the objective · L: labels · "
    "+/-: zoom",
    Stage.CHOOSE_FIRST: "A: the Axis go first · L: the Allies go first",
    Stage.CHOOSE_END: "W: the west end · E: the east end",
    None: "Ctrl+S: save · Ctrl+O: load · Esc: leave",
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


def unit_title(unit: Unit) -> str:
    """How the screen names a unit: the card's name, with the copy number for a second copy."""
    number = unit.id.partition("#")[2]
    return f"{unit.card.name} #{number}" if number else unit.card.name


def _outline(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour, width: float = 3.0, scale: float = 0.93) -> None:
    mesh.outline(hexdraw.corners(*hexdraw.centre(hex_), scale), width, colour)


def _tint(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour) -> None:
    mesh.polygon(hexdraw.corners(*hexdraw.centre(hex_)), colour)


class LogView(Widget):
    """The game's lines (action notation), newest at the bottom; the wheel scrolls back."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.back = 0
        self.text = Label("", size=theme.SMALL_SIZE, multiline=True, colour=theme.TEXT)

    @property
    def rows(self) -> int:
        return max(1, int((self.box.height - 6) // 17))

    def set_lines(self, lines: list[str]) -> None:
        self.lines = lines
        self.back = min(self.back, max(0, len(lines) - self.rows))
        self._update()

    def _update(self) -> None:
        end = len(self.lines) - self.back
        shown = self.lines[max(0, end - self.rows) : end]
        self.text.text = "\n".join(line if len(line) <= 44 else line[:42] + "…" for line in shown)

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
        self.back = max(0, min(len(self.lines) - self.rows, self.back + int(scroll_y)))
        self._update()
        return True


class BattleScreen(Screen):
    title = "Battle"

    def __init__(self, window: MinisWindow, session: Session, *, handed_over: Side | None = None) -> None:
        super().__init__(window)
        self.session = session
        self.early_end = EarlyEnd()  # asks before a phase ends with units that could still act
        self.map = BattleMap(window, on_click=self.on_hex_click, on_hover=self.on_hex_hover, cursor=True)
        self.banner = Label("", size=theme.TEXT_SIZE + 3, bold=True, align="right")
        self.phase_title = Label("", size=theme.TEXT_SIZE + 2, bold=True, colour=theme.ACCENT)
        self.info = Label("", size=theme.TEXT_SIZE, multiline=True)
        self.units_list = ListBox(
            [], self.pick_listed, row_height=24, size=theme.SMALL_SIZE + 1, align="left", bold=False, gap=2
        )
        self.card = CardPanel()
        self.last_title = Label("Last action", size=theme.SMALL_SIZE + 1, bold=True, colour=theme.TEXT_DIM)
        self.dice = DiceRow()
        self.last = Label("", size=theme.SMALL_SIZE, multiline=True)
        self.log_title = Label(
            "Log (action notation)", size=theme.SMALL_SIZE + 1, bold=True, colour=theme.TEXT_DIM
        )
        self.log = LogView()
        self.pass_button = Button("End phase (P)", self.pass_phase, size=theme.SMALL_SIZE)
        self.undo_button = Button("Undo (U)", self.undo, size=theme.SMALL_SIZE + 1)
        self.save_button = Button("Save…", self.save_game, size=theme.SMALL_SIZE + 1)
        self.load_button = Button("Load…", self.load_game, size=theme.SMALL_SIZE + 1)
        self.message = Label("", size=theme.SMALL_SIZE + 1)
        self.tooltip = Label("", size=theme.SMALL_SIZE + 1, multiline=True)
        self.choices: list[Button] = []
        self.bar_widgets = [self.banner]
        # what the player is doing
        self.selected: str | None = None
        self.path: tuple[Hex, ...] = ()
        self.facing: Facing | None = None
        self.target: str | None = None
        self.handed_over = handed_over
        self.notices: list[Callable[[], Dialog]] = []
        self.version = 0
        #: Bumped when the mouse (or the keyboard cursor) moves to another hex: the hover marks and the
        #: tooltip follow it over the kept picture; the panel is brought up to date (it may show the
        #: hovered unit's card or the attack's odds) without a new picture unless its text changed.
        self.hover_version = 0
        self._options_key: object = None
        self._moves: dict[Hex, tuple[Hex, ...]] = {}
        self._costs: dict[Hex, PathInfo] = {}
        self._attacks: tuple[str, ...] = ()
        self._path_info: PathInfo | None = None
        self._preview: AttackPreview | str | None = None
        self._panel_version: object = None
        self._layers_version: object = None
        self._counters_key: object = None
        self._fan_key: object = None
        self._names: tuple[object, dict[str, str]] = (None, {})
        self._under_key: object = None
        self._hover_key: object = None
        self._laid_out_info = ""
        self._choice_keys: dict[int, Callable[[], object]] = {}
        board = self.state.board
        if board is not None:
            self.map.set_geometry(battle_geometry(window, board))
        for group in ("under", "counters", "over", "hover", "fan"):  # the drawing order of the map's layers
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

    def label(self, hex_: Hex) -> str:
        return self.game.label(hex_)

    def changed(self) -> None:
        self.version += 1

    def say(self, text: str, bad: bool = False) -> None:
        self.message.text = text
        self.message.colour = theme.BAD if bad else theme.TEXT
        self.changed()

    # --- doing things ---------------------------------------------------------------------------------
    def act(self, action: A.Action) -> bool:
        """Hand an action to the engine; a refusal is shown with its reason, nothing else changes."""
        try:
            events = self.session.apply(action)
        except IllegalAction as error:
            self.say(f"Not allowed: {error.reason}", bad=True)
            return False
        self.say(f"{self.session.last_action}")
        self.after_action(events)
        self._update_tooltip(self.map.hover)
        return True

    def after_action(self, events: list[Event]) -> None:
        """Bring selection, panel and dialogs up to date with the game after something happened."""
        self._after_events(events)
        self.clear_selection(keep_message=True)
        state = self.state
        if state.stage is Stage.DEPLOY:
            self._select_next_undeployed()
        self.changed()
        self.next_dialog()

    def _after_events(self, events: list[Event]) -> None:
        """Things the players must read before the next decision: the casualty phase's summary."""
        for i, event in enumerate(events):
            if event.kind == "phase" and event.note == "casualty":
                self.notices.append(functools.partial(self._casualty_dialog, events[i:]))
                break

    def next_dialog(self) -> None:
        """Show the next thing the players must read or decide in a dialog (or none)."""
        if self.notices:
            self.show_dialog(self.notices.pop(0)())
            return
        if self.game.over:
            self.show_dialog(None)
            if self.app.top_screen is self:
                self.app.routes.victory(self.session)
            return
        stage = self.stage
        if stage is Stage.CHOOSE_FIRST:
            self.show_dialog(self._first_dialog())
        elif stage is Stage.CHOOSE_END:
            self.show_dialog(self._end_dialog())
        else:
            self.show_dialog(None)
            deploying = self.state.deploying
            if (
                stage is Stage.DEPLOY
                and deploying is not None
                and deploying is not self.handed_over
                and self.app.top_screen is self
            ):
                self._hand_over(deploying)
        self.changed()

    def _hand_over(self, side: Side) -> None:
        self.handed_over = side
        end = self.state.ends.get(side, "")
        then = f"to deploy the {side.title} army at the {end} end of the map"

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

    def _first_dialog(self) -> Dialog:
        state = self.state
        chooser = state.chooser
        assert chooser is not None
        if state.phase is Phase.SETUP:
            start = self.game.record[0] if self.game.record and self.game.record[0].action is None else None
            die = start.dice[-1] if start and start.dice else None
            rolled = f"The coin flip die shows {die} (1-3 Axis, 4-6 Allies): " if die else ""
            if start is not None and len(start.dice) == 2 and state.configuration is not None:
                rolled = (
                    f"The battle map die showed {start.dice[0]}: configuration {state.configuration}.\n"
                    + rolled
                )
            title = "Coin flip"
            text = f"{rolled}the {chooser.title} win the flip.\n\n{chooser.title}: who is the first player?"
        else:
            rolls = []
            for event in self.session.events[::-1]:
                if event.kind == "initiative":
                    rolls.append(event)
                elif event.kind == "turn":
                    break
            lines = []
            for event in reversed(rolls):
                d = event.dice
                outcome = f"{event.side.title} win" if event.side else "a tie: roll again"
                lines.append(
                    f"Axis {d[0]} + {d[1]}, Allies {d[2]} + {d[3]} "
                    f"(totals with commanders {event.note}): {outcome}"
                )
            title = f"Turn {state.turn}: initiative"
            text = "\n".join(lines) + f"\n\n{chooser.title}: who moves first this turn?"
        if state.phase is Phase.SETUP:
            self.dice.set_dice([(die, theme.ACCENT)] if die else [])
        else:
            self.dice.set_dice(self._dice_of(reversed(rolls)))
        buttons = [
            Button("Axis first (A)", lambda: self.act(A.First(Side.AXIS)), shortcuts=[arcade.key.A]),
            Button("Allies first (L)", lambda: self.act(A.First(Side.ALLIES)), shortcuts=[arcade.key.L]),
        ]
        return Dialog(title, text, buttons, width=PANEL_WIDTH + 20)

    def _end_dialog(self) -> Dialog:
        chooser = self.state.chooser
        assert chooser is not None
        text = (
            f"{chooser.title}: choose the end of the map to deploy at. The tinted hexes are the two "
            "deployment zones: west (left, purple) and east (right, red)."
        )
        if self.state.scenario.value == "assault":
            text = f"{chooser.title} (the defender): choose your end of the map; you deploy in its half."
        buttons = [
            Button("West (W)", lambda: self.act(A.End("west")), shortcuts=[arcade.key.W]),
            Button("East (E)", lambda: self.act(A.End("east")), shortcuts=[arcade.key.E]),
        ]
        return Dialog("Choose an end", text, buttons, width=PANEL_WIDTH + 20)

    def _casualty_dialog(self, events: list[Event]) -> Dialog:
        lines = []
        names = {u.id: unit_title(u) for u in self.state.units.values()}
        for event in events:
            name = names.get(event.unit or "", event.unit or "")
            if event.kind == "recover":
                lines.append(f"{name}: the Disrupted counter is removed")
            elif event.kind == "flip":
                lines.append(f"{name}: turns up {event.note}")
            elif event.kind == "removed":
                lines.append(f"{name} is destroyed and removed")
            elif event.kind == "winner":
                lines.append(
                    f"The battle ends: {event.side.title + ' win' if event.side else 'a draw'} ({event.note})"
                )
        text = "\n".join(lines) if lines else "No counters to turn up: nothing changes."
        turn = self.state.turn if self.state.stage is Stage.OVER else self.state.turn - 1
        return Dialog(
            f"Casualty phase, end of turn {turn}",
            text,
            [Button("Continue (Enter)", self.next_dialog)],
            on_cancel=self.next_dialog,
            width=520,
        )

    def _dice_of(self, events: Iterable[Event]) -> list[tuple[int, theme.Colour]]:
        dice: list[tuple[int, theme.Colour]] = []
        for event in events:
            colour = {
                "attack": (120, 120, 128, 255),
                "cover": (70, 130, 220, 255),
                "roll": (90, 180, 90, 255) if event.value else (220, 70, 60, 255),
                "initiative": SIDE_TEXT[Side.AXIS],
                "coin": theme.ACCENT,
                "configuration": theme.ACCENT,
            }.get(event.kind)
            if colour is None:
                continue
            for i, die in enumerate(event.dice):
                if event.kind == "initiative" and i >= 2:
                    colour = SIDE_TEXT[Side.ALLIES]
                dice.append((die, colour))
        return dice[:20]

    # --- selection -----------------------------------------------------------------------------------
    def clear_selection(self, keep_message: bool = False) -> None:
        self.selected = None
        self.path = ()
        self.facing = None
        self.target = None
        self._preview = None
        self._path_info = None
        if not keep_message:
            self.message.text = ""
        self.changed()

    def _select_next_undeployed(self) -> None:
        waiting = self._to_deploy()
        if waiting:
            self.select(waiting[0].id)

    def _to_deploy(self) -> list[Unit]:
        side = self.state.deploying
        return sorted(
            (u for u in self.state.units.values() if u.side is side and u.hex is None and not u.removed),
            key=lambda u: (not u.card.is_vehicle, u.id),
        )

    def select(self, unit_id: str | None) -> None:
        self.selected = unit_id
        self.path = ()
        self.target = None
        self._preview = None
        self._path_info = None
        unit = self.state.units.get(unit_id) if unit_id else None
        self.facing = None
        if unit is not None and unit.card.is_vehicle:
            if self.stage is Stage.DEPLOY:
                end = self.state.ends.get(unit.side, "west")
                self.facing = unit.facing or Facing.parse(setup.default_facing_end(end))
            else:
                self.facing = unit.facing
        self.changed()

    def _options(self) -> None:
        """The selected unit's moves (with costs) and targets, from the engine; cached per position."""
        key = (id(self.state), len(self.game.record), self.selected)
        if key == self._options_key:
            return
        self._options_key = key
        self._moves, self._costs, self._attacks = {}, {}, ()
        if self.selected is None or self.stage is not Stage.ACT:
            return
        options = self.game.unit_options(self.selected)
        if options is None:
            return
        self._moves = dict(options.moves)
        self._costs = queries.move_costs(self.state, self.selected, self._moves)
        self._attacks = tuple(options.attacks)

    def _ready(self, unit: Unit) -> bool:
        return (
            self.stage is Stage.ACT
            and unit.side is self.state.active
            and unit.on_map
            and unit.id not in self.state.activated
        )

    # --- the map's input -----------------------------------------------------------------------------
    def on_hex_hover(self, hex_: Hex | None) -> None:
        self.target = None
        self._preview = None
        if (
            hex_ is not None
            and self.selected
            and self.stage is Stage.ACT
            and self.state.phase is Phase.ASSAULT
        ):
            enemies = [u for u in self.state.at(hex_) if u.side is not self.state.active]
            if enemies:
                self.target = enemies[0].id
                self._preview = queries.attack_preview(self.state, self.selected, self.target)
        self._update_tooltip(hex_)
        self.hover_version += 1

    def on_hex_click(self, hex_: Hex, button: int) -> None:
        if self.dialog is not None:
            return
        if button == arcade.MOUSE_BUTTON_RIGHT:
            if self.path:
                self.path = self.path[:-1]
                self._path_info = None
                self.changed()
            else:
                self.clear_selection()
            return
        if button != arcade.MOUSE_BUTTON_LEFT:
            return
        stage = self.stage
        if stage is Stage.DEPLOY:
            self._deploy_click(hex_)
        elif stage is Stage.ACT:
            self._act_click(hex_)
        elif stage is Stage.DEFENSIVE_FIRE:
            self._fire_click(hex_)
        elif stage is Stage.PLACE:
            soldier = self.state.placing
            if soldier is not None:
                self.act(A.Dismount(soldier, hex_))
        elif stage is Stage.CHOOSE_OBJECTIVE:
            self.act(A.Objective(hex_))

    def _deploy_click(self, hex_: Hex) -> None:
        side = self.state.deploying
        own = [u for u in self.state.at(hex_) if u.side is side and u.id not in self.state.fixed]
        if own and (self.selected is None or (self.state.units[self.selected].hex is not None)):
            # a placed unit of yours: pick it up again (another click places it)
            if self.selected == own[-1].id and len(own) > 1:
                self.select(own[0].id)
            elif self.selected != own[-1].id:
                self.select(own[-1].id)
                self.say(f"{unit_title(own[-1])} picked up: click a hex to move it, Q/E turn it.")
                return
        if self.selected is None:
            self.say("Choose a unit to deploy first (the list on the right).", bad=True)
            return
        unit = self.state.units[self.selected]
        face = self.facing if unit.card.is_vehicle else None
        self.act(A.Deploy(unit.id, hex_, face))

    def _act_click(self, hex_: Hex) -> None:
        state = self.state
        here = state.at(hex_)
        own_ready = [u for u in here if self._ready(u)]
        selected = state.units.get(self.selected) if self.selected else None
        # attack a target in an assault phase
        if selected is not None and state.phase is Phase.ASSAULT:
            enemies = [u for u in here if u.side is not state.active]
            if enemies:
                target = enemies[0]
                if target.id in self._attacks_now():
                    self.act(A.Attack(selected.id, target.id))
                else:
                    preview = queries.attack_preview(state, selected.id, target.id)
                    reason = preview if isinstance(preview, str) else "that attack is not allowed now"
                    self.say(f"Not allowed: {reason}", bad=True)
                return
        if own_ready and (selected is None or hex_ not in self._moves or hex_ == selected.hex):
            if selected is not None and selected.hex == hex_:
                others = [u for u in own_ready if u.id != selected.id]
                if not others:
                    self.clear_selection()
                    return
                self.select(others[0].id)
            else:
                self.select(own_ready[0].id)
            return
        if selected is None:
            mine = [u for u in here if u.side is state.active]
            if mine:
                self.say(f"{unit_title(mine[0])} has already acted this phase.", bad=True)
            else:
                self.say("Click one of your units first.", bad=True)
            return
        self._options()
        if self.path and hex_ == self.path[-1]:
            self.confirm()
            return
        start = self.path[-1] if self.path else selected.hex
        if start is not None and distance(start, hex_) == 1:
            extended = (*self.path, hex_)
            info = queries.path_info(state, selected.id, extended)
            if info.problem is None:
                self.path = extended
                self._path_info = info
                self._follow_path_facing()
                self.say(self._path_text(info))
                return
        if hex_ in self._moves:
            self.path = self._moves[hex_]
            self._path_info = queries.path_info(state, selected.id, self.path)
            self._follow_path_facing()
            self.say(self._path_text(self._path_info))
            return
        self.say(f"{unit_title(selected)} can't end a move in {self.label(hex_)}.", bad=True)

    def _attacks_now(self) -> tuple[str, ...]:
        self._options()
        return self._attacks

    def _follow_path_facing(self) -> None:
        unit = self.state.units.get(self.selected or "")
        if unit is not None and unit.card.is_vehicle and self.path:
            before = self.path[-2] if len(self.path) > 1 else unit.hex
            assert before is not None
            from minis.hexgrid import direction_to

            self.facing = direction_to(before, self.path[-1])
        self.changed()

    def _fire_click(self, hex_: Hex) -> None:
        options = queries.defensive_fire_options(self.state)
        for preview in options:
            unit = self.state.units[preview.attacker]
            if unit.hex == hex_:
                self.fire(preview.attacker)
                return
        self.say("Click one of the units that may fire (yellow rings), or Hold.", bad=True)

    def pick_listed(self, row: int) -> None:
        ids = self._listed_ids()
        if 0 <= row < len(ids):
            self.select(ids[row])

    def _listed_ids(self) -> list[str]:
        side = self.state.deploying
        fixed = self.state.fixed  # a scenario's units that stay put: nothing to pick up
        units = [u for u in self.state.units.values() if u.side is side and not u.removed]
        units = [u for u in units if u.id not in fixed]
        return [u.id for u in sorted(units, key=lambda u: (u.hex is not None, not u.card.is_vehicle, u.id))]

    # --- decisions ------------------------------------------------------------------------------------
    def confirm(self) -> None:
        """Enter: do what is prepared (a move along the path, a turn in place, an attack)."""
        if self.dialog is not None:
            return
        unit = self.state.units.get(self.selected or "")
        if unit is None:
            return
        if self.stage is Stage.DEPLOY:
            if unit.hex is not None and unit.card.is_vehicle:
                self.act(A.Deploy(unit.id, unit.hex, self.facing))
            return
        if self.stage is not Stage.ACT:
            return
        if self.path:
            face = self.facing if unit.card.is_vehicle else None
            self.act(A.Move(unit.id, self.path, face))
        elif self.target is not None and self.state.phase is Phase.ASSAULT:
            self.act(A.Attack(unit.id, self.target))
        elif unit.card.is_vehicle and self.facing is not None and self.facing is not unit.facing:
            self.act(A.Face(unit.id, self.facing))
        else:
            self.say(
                "Click a hex to plan a move"
                + (" or an enemy to attack" if self.state.phase is Phase.ASSAULT else "")
                + ".",
                bad=True,
            )

    def turn_facing(self, step: int) -> None:
        unit = self.state.units.get(self.selected or "")
        if unit is None or not unit.card.is_vehicle:
            return
        current = self.facing or unit.facing or Facing.E
        self.facing = FACINGS[(FACINGS.index(current) + step) % len(FACINGS)]
        self.say(
            f"{unit_title(unit)} will face {self.facing.name}"
            + (" (Enter to turn in place)" if self.stage is Stage.ACT and not self.path else "")
        )

    def pass_phase(self) -> None:
        if self.stage is Stage.DEPLOY:
            self.act(A.Ready())
        elif self.stage is Stage.ACT:  # units that could still act: asks first, once a phase
            question = self.early_end.question(self, self.game, unit_title, lambda: self.act(A.Pass()))
            if question is not None:
                self.show_dialog(question)
            else:
                self.act(A.Pass())
        elif self.stage is Stage.DEFENSIVE_FIRE:
            self.act(A.Hold())

    def fire(self, unit_id: str) -> None:
        move = self.state.move
        if move is None:
            return
        from minis.rules.defensive_fire import window_hex

        self.act(A.Fire(unit_id, window_hex(move)))

    def undo(self) -> None:
        if not self.session.can_undo:
            self.say("Nothing to undo: the last action rolled dice or asked the other player.", bad=True)
            return
        text = self.session.undo()
        self.after_action([])
        self.say(f"Undone: {text}")

    # --- files ------------------------------------------------------------------------------------------
    def save_game(self) -> None:
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
        self.app.routes.load_game(self.session.saves, playing=not self.game.over)

    # --- keys -----------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Saving and loading work at every decision, also while a question is open."""
        if modifiers & arcade.key.MOD_CTRL and symbol in (arcade.key.S, arcade.key.O):
            (self.save_game if symbol == arcade.key.S else self.load_game)()
            return True
        return super().on_key_press(symbol, modifiers)

    def on_command_key(self, symbol: int, modifiers: int) -> bool:
        key = arcade.key
        ctrl = modifiers & key.MOD_CTRL
        stage = self.stage
        if ctrl and symbol == key.S:
            self.save_game()
        elif ctrl and symbol == key.O:
            self.load_game()
        elif symbol == key.U or (ctrl and symbol == key.Z):
            self.undo()
        elif symbol in (key.ENTER, key.NUM_ENTER):
            self.confirm()
        elif (symbol, stage) in ((key.P, Stage.ACT), (key.R, Stage.DEPLOY), (key.H, Stage.DEFENSIVE_FIRE)):
            self.pass_phase()
        elif symbol in self._choice_keys:
            self._choice_keys[symbol]()
        elif symbol in (key.Q, key.BRACKETLEFT):
            self.turn_facing(1)
        elif symbol in (key.E, key.BRACKETRIGHT):
            self.turn_facing(-1)
        elif symbol == key.BACKSPACE and self.path and self.selected is not None:
            self.path = self.path[:-1]
            self._path_info = queries.path_info(self.state, self.selected, self.path) if self.path else None
            self.changed()
        elif symbol == key.N and stage in (Stage.ACT, Stage.DEPLOY):
            self._select_next_ready()
            unit = self.state.units.get(self.selected or "")
            if unit is not None and unit.hex is not None:
                self.map.show_cursor(unit.hex)  # a keyboard player goes on from the unit
        else:
            return False
        return True

    def _select_next_ready(self) -> None:
        if self.stage is Stage.DEPLOY:
            ids = self._listed_ids()
        else:
            ids = sorted(u.id for u in self.state.units.values() if self._ready(u))
        if not ids:
            return
        index = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.select(ids[index])

    def on_back(self) -> bool:
        if self.selected is not None and self.stage is not Stage.DEPLOY:
            self.clear_selection()
            return True
        self.show_dialog(
            leave_dialog(
                self, f"The game is saved automatically at every phase ({self.session.autosave_path})."
            )
        )
        return True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        unit = self.state.units.get(self.selected or "")
        turning = (
            self.dialog is None
            and unit is not None
            and unit.card.is_vehicle
            and self.map.box.contains(x, y)
            and (self.stage is Stage.DEPLOY or (self.stage is Stage.ACT and self.path))
        )
        if turning and scroll_y:
            self.turn_facing(1 if scroll_y > 0 else -1)
            return True
        return super().on_mouse_scroll(x, y, scroll_x, scroll_y)

    # --- the panel ------------------------------------------------------------------------------------
    def _rebuild_widgets(self) -> None:
        self.widgets = [
            self.map,
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

    def _set_choices(self, choices: list[tuple[str, Callable[[], object], int | None]]) -> None:
        """The context buttons: (caption, action, shortcut key); laid out again only when they change."""
        self._choice_keys = {k: action for _, action, k in choices if k is not None}
        if [(b.text, b.shortcuts) for b in self.choices] == [
            (text, (k,) if k is not None else ()) for text, _, k in choices
        ]:
            for button, (_, action, _) in zip(self.choices, choices, strict=True):
                button.on_click = action
            return
        self.choices = [
            Button(text, action, shortcuts=[k] if k is not None else [], size=theme.SMALL_SIZE + 1)
            for text, action, k in choices
        ]
        self._choice_keys = {k: action for _, action, k in choices if k is not None}
        self._rebuild_widgets()
        self._layout_all()

    def update_panel(self) -> None:
        """Texts and buttons for the current stage (only when something changed)."""
        if self._panel_version == (self.version, self.hover_version):
            return
        self._panel_version = (self.version, self.hover_version)
        state = self.state
        stage = state.stage
        decider = self.game.decider()
        phase_name = state.phase.value
        if state.turn:
            self.set_title(
                f"Turn {state.turn} · {phase_name}" + (f" · {state.active.title}" if state.active else "")
            )
        else:
            self.set_title("Set-up")
        if decider is not None:
            self.banner.text = f"{decider.title} to decide"
            self.banner.colour = SIDE_TEXT[decider]
        else:
            self.banner.text = "game over" if self.game.over else "waiting for dice"
            self.banner.colour = theme.TEXT_DIM
        choices: list[tuple[str, Callable[[], object], int | None]] = []
        selected = state.units.get(self.selected or "")
        self.phase_title.colour = theme.ACCENT
        self.units_list.visible = stage is Stage.DEPLOY
        self.pass_button.visible = stage in (Stage.ACT, Stage.DEPLOY, Stage.DEFENSIVE_FIRE)
        self.pass_button.label.text = {Stage.DEPLOY: "Ready (R)", Stage.DEFENSIVE_FIRE: "Hold (H)"}.get(
            stage, "End phase (P)"
        )
        self.undo_button.enabled = self.session.can_undo
        self.undo_button.label.text = "Undo (U)"
        if stage is Stage.DEPLOY:
            self._deploy_panel(selected)
        elif stage is Stage.ACT:
            choices = self._act_panel(selected)
        elif stage is Stage.DEFENSIVE_FIRE:
            choices = self._fire_panel()
        elif stage is Stage.PLACE:
            soldier = state.units[state.placing] if state.placing else None
            self.phase_title.text = f"{decider.title if decider else ''}: place a Soldier"
            self.info.text = (
                f"{unit_title(soldier) if soldier else 'A Soldier'} gets off its transport but does not fit "
                "there. "
                "Click one of the highlighted hexes (the nearest where it fits)."
            )
        elif stage is Stage.CHOOSE_OBJECTIVE:
            self.phase_title.text = f"{decider.title if decider else ''}: the objective"
            self.info.text = (
                "The defender chooses the objective: click a highlighted hex (not next to the map edge)."
            )
        elif stage in (Stage.CHOOSE_FIRST, Stage.CHOOSE_END):
            self.phase_title.text = (
                "Set-up" if state.phase is Phase.SETUP else f"Turn {state.turn}: initiative"
            )
            self.info.text = "Answer the question on the right."
        elif self.game.waiting_for_dice():
            self.phase_title.text = "Waiting for dice"
            self.info.text = "This game uses scripted dice and has run out of them."
        else:
            self.phase_title.text = "The battle is over" if self.game.over else ""
            self.info.text = ""
        if selected is not None and stage is not Stage.DEFENSIVE_FIRE:
            where = self.label(selected.hex) if selected.hex is not None else "not deployed"
            extra = f"{where}" + (f", facing {selected.facing.name}" if selected.facing else "")
            status = pending_summary(selected)
            self.card.show(selected.card, extra + (f" · {status}" if status else ""))
        elif self.target is not None:
            target = state.units[self.target]
            self.card.show(target.card, pending_summary(target))
        elif stage is not Stage.DEFENSIVE_FIRE:
            hovered = [u for u in state.at(self.map.hover)] if self.map.hover is not None else []
            if hovered:
                unit = hovered[0]
                where = self.label(unit.hex) if unit.hex is not None else ""
                status = pending_summary(unit)
                self.card.show(unit.card, f"{unit.side.title} · {where}" + (f" · {status}" if status else ""))
            else:
                self.card.show(None)
        self._set_choices(choices)
        # last action and log
        if self.session.last_events:
            self.dice.set_dice(self._dice_of(self.session.last_events))
            lines = self._summary(self.session.last_events)
            fit_lines(self.last, lines, self.last.box.width, self.last.box.height)
        elif stage is not Stage.CHOOSE_FIRST:
            self.dice.set_dice([])
            self.last.text = self.session.last_action
        self.log.set_lines(self.session.log_lines())
        self.set_hint(HINTS.get(stage, HINTS[None]) if not self.game.over else "")
        if self.info.text != self._laid_out_info:  # the info box grows and shrinks with its text
            self._laid_out_info = self.info.text
            self._layout_all()
        if self.session.autosave_error:
            self.message.text = self.session.autosave_error
            self.message.colour = theme.BAD

    def _summary(self, events: list[Event]) -> list[str]:
        """The events as lines, a unit's steps joined into one line ('moves F13 -> F12 -> F11')."""
        lines: list[str] = []
        last_move: Event | None = None
        for event in events:
            if event.kind == "move" and last_move is not None and last_move.unit == event.unit:
                lines[-1] += f" -> {self.label(event.hexes[-1])}"
                last_move = event
                continue
            last_move = event if event.kind == "move" else None
            lines.extend(self.session.describe([event]))
        return lines

    def _deploy_panel(self, selected: Unit | None) -> None:
        state = self.state
        side = state.deploying
        assert side is not None
        end = state.ends.get(side, "")
        waiting = self._to_deploy()
        self.phase_title.text = f"{side.title}: deployment at the {end} end"
        facing = f" It will face {self.facing.name} (Q/E or the wheel turn it)." if self.facing else ""
        if waiting:
            self.info.text = (
                f"Click a hex in the tinted zone to place the selected unit.{facing} "
                f"{len(waiting)} to deploy. Click a placed unit to move it again."
            )
        else:
            self.info.text = f"Every unit is placed.{facing} Press R (Ready) to finish, or move units again."
        ids = self._listed_ids()
        names = []
        details = []
        colours: list[theme.Colour | None] = []
        for unit_id in ids:
            unit = state.units[unit_id]
            names.append(unit_title(unit))
            details.append(self.label(unit.hex) if unit.hex is not None else "to deploy")
            colours.append(theme.ACCENT if unit_id == self.selected else None)
        self.units_list.set_items(names, details, colours)
        if self.selected in ids:
            self.units_list.highlight(ids.index(self.selected))
        self.pass_button.enabled = not waiting

    def _act_panel(self, selected: Unit | None) -> list[tuple[str, Callable[[], object], int | None]]:
        state = self.state
        active = state.active
        assert active is not None
        phase = state.phase.value
        self.phase_title.text = f"{active.title} {phase} phase"
        choices: list[tuple[str, Callable[[], object], int | None]] = []
        ready = sum(1 for u in state.units.values() if self._ready(u))
        self.pass_button.enabled = True
        if selected is None:
            what = "move" if state.phase is Phase.MOVEMENT else "move or attack"
            self.info.text = (
                f"Click one of your units to {what} ({ready} may still act; greyed ones have acted). "
                "P ends the phase."
            )
            return choices
        self._options()
        lines = [f"{unit_title(selected)}: "]
        if self.path:
            info = self._path_info or queries.path_info(state, selected.id, self.path)
            self._path_info = info
            lines = [self._path_text(info)]
            if selected.card.is_vehicle and self.facing is not None:
                lines.append(f"Final facing {self.facing.name} (Q/E or the wheel).")
            lines.append("Enter or a click on the last hex moves; right-click takes a step back.")
            choices.append(("Move (Enter)", self.confirm, None))
        elif self._preview is not None:
            lines = [self._attack_text(self._preview)]
            if isinstance(self._preview, AttackPreview):
                choices.append(
                    (f"Attack {unit_title(state.units[self._preview.target])}", self.confirm, None)
                )
        else:
            if self._moves:
                rolls = sum(1 for p in self._costs.values() if p.rolls)
                lines[0] += f"{len(self._moves)} hexes in reach (tinted, with their cost"
                lines[0] += "; amber ones need movement rolls)." if rolls else ")."
            else:
                reason = self._cannot_move(selected)
                lines[0] += f"can't move ({reason})." if reason else "has nowhere to move."
            if self._attacks:
                lines.append(
                    f"{len(self._attacks)} enemies in range: hover one for the odds, click to attack."
                )
            elif state.phase is Phase.ASSAULT:
                lines.append("No enemy it can attack from here.")
            if selected.card.is_vehicle:
                lines.append("Q/E and Enter turn it in place.")
        options = self.game.unit_options(selected.id)
        if options is not None:
            for use in getattr(options, "uses", ()):  # an ability's own action
                words = " ".join((use.ability.replace("-", " "), *use.args))
                choices.append((f"Use {words}", functools.partial(self.act, use), None))
            for transport in options.boards:
                choices.append(
                    (
                        f"Board {unit_title(state.units[transport])}",
                        functools.partial(self.act, A.BoardTransport(selected.id, transport)),
                        None,
                    )
                )
            if options.dismount is not None:
                choices.append(
                    ("Dismount", functools.partial(self.act, A.Dismount(selected.id, options.dismount)), None)
                )
        self.info.text = "\n".join(lines)
        return choices

    def _cannot_move(self, unit: Unit) -> str:
        from minis.rules.movement import cannot_move

        return cannot_move(self.state, unit) or ""

    def _path_text(self, info: PathInfo) -> str:
        unit = self.state.units[info.unit]
        hexes = " → ".join(self.label(h) for h in info.path)
        if info.problem:
            return f"{unit_title(unit)}: {info.problem}"
        from minis.rules.movement import speed

        text = f"{unit_title(unit)} to {hexes}: costs {info.cost} of speed {speed(self.state, unit)}."
        if info.rolls:
            text += (
                f" {info.rolls} movement roll{'s' if info.rolls > 1 else ''} "
                f"({', '.join(r for s in info.steps for r in s.rolls)}): "
                f"{percent(info.roll_odds)} to get through."
            )
        exposed = [s for s in info.steps if s.shooters]
        if exposed:
            names = sorted({unit_title(self.state.units[u]) for s in exposed for u in s.shooters})
            steps = ", ".join(self.label(s.end) for s in exposed)
            text += f" Defensive fire possible (!) entering {steps}, from {', '.join(names)}."
        return text

    def _attack_text(self, preview: AttackPreview | str) -> str:
        if isinstance(preview, str):
            return f"No attack: {preview}"
        state = self.state
        target = state.units[preview.target]
        band = preview.band.value if preview.band else "no"
        need = 4 - preview.modifier
        defense = f"defense {preview.defense}" + (f" ({preview.facing_side})" if preview.facing_side else "")
        if preview.cover is None:
            cover = "no cover roll"
        elif preview.cover_fixed is not None:
            cover = "cover roll: automatic " + ("success" if preview.cover_fixed else "failure")
        else:
            cover = f"cover roll on {preview.cover - preview.cover_modifier}+"
        odds = ", ".join(f"{k} hit{'s' if k != 1 else ''} {percent(p)}" for k, p in enumerate(preview.odds))
        return (
            f"Attack {unit_title(target)}: {preview.distance} hex{'es' if preview.distance != 1 else ''}, "
            f"{band} range, {preview.dice} dice hitting on {need}+, {defense}, {cover}.\n{odds}."
        )

    def _fire_panel(self) -> list[tuple[str, Callable[[], object], int | None]]:
        state = self.state
        move = state.move
        assert move is not None and state.active is not None
        firer_side = state.active.other
        mover = state.units[move.unit]
        from minis.rules.defensive_fire import window_hex

        where = window_hex(move)
        self.phase_title.text = f"{firer_side.title}: defensive fire?"
        self.phase_title.colour = SIDE_TEXT[firer_side]
        a, b = move.path[move.step], move.path[move.step + 1]
        self.info.text = (
            f"The {state.active.title} {unit_title(mover)} moves {self.label(a)} → {self.label(b)} and is in "
            f"{self.label(where)}. {firer_side.title}: fire with one of these (each may fire once this "
            "phase; a hit disrupts it and stops the move), or hold."
        )
        choices: list[tuple[str, Callable[[], object], int | None]] = []
        for i, preview in enumerate(queries.defensive_fire_options(state)[:8]):
            unit = state.units[preview.attacker]
            key = getattr(arcade.key, f"KEY_{i + 1}")
            choices.append(
                (
                    f"{i + 1}: fire {unit_title(unit)} · {preview.dice} dice · "
                    f"hit {percent(preview.odds[1])}",
                    functools.partial(self.fire, unit.id),
                    key,
                )
            )
        self.card.show(mover.card, pending_summary(mover))
        return choices

    def _update_tooltip(self, hex_: Hex | None) -> None:
        board = self.state.board
        if hex_ is None or board is None or hex_ not in board.hexes:
            self.tooltip.text = ""
            return
        self.tooltip.text = "\n".join(self.hover_lines(hex_))

    def hover_lines(self, hex_: Hex) -> list[str]:
        """The hover box: the hex, its terrain and whether it is the objective, then each unit in it from
        the top of the stack down, by its counter's name and its card's."""
        state = self.state
        board = state.board
        assert board is not None
        objective = " · the objective" if hex_ == state.objective else ""
        lines = [f"{self.label(hex_)} {hexdraw.terrain_name(board.terrain(hex_))}{objective}"]
        names = self.short_names()
        top = self.selected
        units = [u for u in state.units.values() if u.hex == hex_ and not u.removed]
        for unit in sorted(
            units, key=lambda u: (u.carried_by is not None, u.id != top, u.side.value == "axis")
        ):
            short = names.get(unit.id, unit.card.name)
            title = unit_title(unit)
            called = title if short == title else f"{short} = {title}"
            facing = f", facing {unit.facing.name}" if unit.facing else ""
            carrier = state.units.get(unit.carried_by or "")
            aboard = f", aboard {names.get(carrier.id, carrier.card.name)}" if carrier else ""
            status = pending_summary(unit)
            lines.append(f"{unit.side.title}: {called}{facing}{aboard}" + (f" ({status})" if status else ""))
        return lines

    # --- the map's layers -----------------------------------------------------------------------------
    def update_layers(self) -> None:
        """The map's layers: `under`, `counters` and `over` in the kept picture; `hover` (what follows
        the mouse: its outline, an attack's line and odds, the deployment ghost) drawn over it."""
        self._update_hover_layer()
        self._update_fan()
        version = (self.version, self.map.cursor_shown)
        if self._layers_version == version:
            return
        self._layers_version = version
        state = self.state
        if state.board is None:
            return
        over = Mesh()  # outlines, paths, marks
        texts: list[TextSpec] = []
        stage = state.stage
        selected = state.units.get(self.selected or "")
        under_key = (id(state), stage, self.selected, state.deploying, state.objective)
        if under_key != self._under_key:
            self._under_key = under_key
            self.map.set_group("under", under_key, [(self._tints(), True)], self._cost_texts())
        if selected is not None and selected.hex is not None:
            _outline(over, selected.hex, SELECT, 3.5, 0.95)
        if self.path and selected is not None and selected.hex is not None:
            points = [hexdraw.centre(h) for h in (selected.hex, *self.path)]
            over.polyline(points, 7, PATH_EDGE)
            over.polyline(points, 4, PATH)
            for p in points[1:]:
                over.disc(p, 5, PATH, 10)
            end = points[-1]
            over.disc(end, 8, PATH_EDGE, 12)
            over.disc(end, 6, SELECT, 12)
            info = self._path_info
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
        # the counters, with previews of a facing being chosen (rebuilt only when they change)
        acted = (
            frozenset(state.activated)
            if stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK)
            else frozenset()
        )
        preview_facing: dict[str, Facing] = {}
        if selected is not None and selected.card.is_vehicle and self.facing is not None and not self.path:
            preview_facing[selected.id] = self.facing
        facings = tuple(sorted((k, f.name) for k, f in preview_facing.items()))
        counters_key = (id(state), acted, facings, self.selected)
        if counters_key != self._counters_key:
            self._counters_key = counters_key
            counters, counter_texts, _ = units_mesh(
                state, acted=acted, facing=preview_facing, top=self.selected, names=self.short_names()
            )
            self.map.set_group("counters", counters_key, [(counters, False)], counter_texts)
        ghost = Mesh()
        if self.path and selected is not None and selected.card.is_vehicle and self.facing is not None:
            self._ghost(ghost, selected, self.path[-1])
        self.map.set_group("over", version, [(over, True), (ghost, True)], texts)

    def short_names(self) -> dict[str, str]:
        """Each unit's name on its counter, unique in the battle (worked out again only for new armies)."""
        key = tuple((u.id, u.card.name) for u in self.state.units.values())
        if self._names[0] != key:
            self._names = (key, battle_names(self.state))
        return self._names[1]

    def _update_fan(self) -> None:
        """The `fan` group: the hovered hex's stack spread out whole beside it, names and all."""
        hover = self.map.hover
        key = (self.version, hover, self.dialog is None)
        if key == self._fan_key:
            return
        self._fan_key = key
        mesh, texts = Mesh(), list[TextSpec]()
        board = self.state.board
        if hover is not None and board is not None and self.dialog is None:
            edge = hexdraw.map_edge(board)
            top_row = hexdraw.centre(hover)[1] + 2.6 * hexdraw.SIZE > edge.top
            acted = (
                self.state.activated if self.stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK) else ()
            )
            mesh, texts = fan_mesh(
                self.state, hover, acted=acted, names=self.short_names(), top=self.selected, below=top_row
            )
        self.map.set_group("fan", key, [(mesh, True)], texts, dynamic=True)

    def _update_hover_layer(self) -> None:
        """The `hover` group: the hovered hex's outline, the attack line with its odds, the ghost of a
        unit being deployed (rebuilt when the hovered hex or anything else changes)."""
        key = (self.version, self.hover_version, self.map.cursor_shown, self.map.hover)
        if key == self._hover_key:
            return
        self._hover_key = key
        state = self.state
        selected = state.units.get(self.selected or "")
        marks = Mesh()
        texts: list[TextSpec] = []
        if self.target is not None and selected is not None and selected.hex is not None:
            target = state.units[self.target]
            if target.hex is not None:
                ok = isinstance(self._preview, AttackPreview)
                colour = TARGET_OK if ok else TARGET_NO
                a, b = hexdraw.centre(selected.hex), hexdraw.centre(target.hex)
                marks.line(a, b, 6, (20, 20, 20, 220))
                marks.line(a, b, 3.5, colour)
                _outline(marks, target.hex, colour, 3.5, 0.92)
                if ok:
                    assert isinstance(self._preview, AttackPreview)
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    texts.append(
                        TextSpec(
                            f"{percent(self._preview.hit_chance)}",
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
            state.stage is Stage.DEPLOY
            and selected is not None
            and self.map.hover is not None
            and selected.hex is None
        ):
            self._ghost(ghost, selected, self.map.hover)
        self.map.set_group("hover", key, [(marks, True), (ghost, True)], texts, dynamic=True)

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
        elif stage is Stage.ACT and self.selected is not None:
            self._options()
            for hex_, info in self._costs.items():
                _tint(under, hex_, REACH_ROLL if info.rolls else REACH)
        if stage is Stage.ACT:
            # units that may still act: a thin ring; the selected unit's targets: an orange one
            for unit in state.units.values():
                if self._ready(unit) and unit.hex is not None and unit.id != self.selected:
                    _outline(under, unit.hex, (255, 255, 255, 150), 1.6, 0.97)
            for target in self._attacks if self.selected is not None else ():
                target_hex = state.units[target].hex
                if target_hex is not None:
                    _outline(under, target_hex, TARGET_RANGE, 2.4, 0.9)
        return under

    def _cost_texts(self) -> list[TextSpec]:
        """The cost of each reachable hex (at its top) and the chance of its movement rolls (at its foot)."""
        if self.stage is not Stage.ACT or self.selected is None:
            return []
        self._options()
        texts = []
        size = hexdraw.SIZE
        for hex_, info in self._costs.items():
            x, y = hexdraw.centre(hex_)
            texts.append(TextSpec(str(info.cost), x, y + 0.62 * size, 0.34 * size, TEXT_ON_MAP, bold=True))
            if info.rolls:
                texts.append(
                    TextSpec(percent(info.roll_odds), x, y - 0.66 * size, 0.3 * size, TEXT_ON_MAP, bold=True)
                )
        return texts

    def _ghost(self, mesh: Mesh, unit: Unit, hex_: Hex) -> None:
        """Where a unit would go, facing the chosen way: a translucent counter with its arrow."""
        from minis.ui.counters import ARROW, facing_angle

        cx, cy = hexdraw.centre(hex_)
        half = 0.5 * hexdraw.SIZE
        mesh.polygon(
            [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)],
            (255, 255, 255, 90),
        )
        if unit.card.is_vehicle and self.facing is not None:
            angle = facing_angle(self.facing)
            tip = (cx + 1.3 * half * math.cos(angle), cy + 1.3 * half * math.sin(angle))
            nx, ny = -math.sin(angle), math.cos(angle)
            base = (cx + 0.5 * half * math.cos(angle), cy + 0.5 * half * math.sin(angle))
            mesh.triangle(
                tip,
                (base[0] + nx * 0.4 * half, base[1] + ny * 0.4 * half),
                (base[0] - nx * 0.4 * half, base[1] - ny * 0.4 * half),
                ARROW,
            )

    # --- layout and drawing ---------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        content = self.content_box
        m = theme.MARGIN
        self.banner.place(
            Box(width * 0.45, height - theme.BAR_HEIGHT, width * 0.55 - 2 * m, theme.BAR_HEIGHT)
        )
        panel_left = width - PANEL_WIDTH - m
        self.map.place(Box(m, content.bottom + m + STRIP, panel_left - 2 * m, content.height - 2 * m - STRIP))
        self.message.place(Box(m + 4, content.bottom + m - 2, panel_left - 2 * m, STRIP))
        top = content.top - m
        w = PANEL_WIDTH
        self.phase_title.place(Box(panel_left, top - 24, w, 24))
        y = top - 30
        info_height = max(40.0, min(170.0, self.info.height_for(w) + 6))
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
        log_height = max(54.0, min(140.0, room - 96 - 22 - 22 - 260))
        self.log.place(Box(panel_left, below, w, log_height))
        self.log_title.place(Box(panel_left, below + log_height, w, 20))
        last_bottom = below + log_height + 24
        self.last.place(Box(panel_left, last_bottom, w, 56))
        self.dice.place(Box(panel_left, last_bottom + 58, w, 32))
        self.last_title.place(Box(panel_left, last_bottom + 92, w, 20))
        card_bottom = last_bottom + 116
        card_top = y - 4
        self.units_list.place(Box(panel_left, card_bottom, w, max(0, card_top - card_bottom)))
        self.card.place(Box(panel_left, card_bottom, w, max(0, card_top - card_bottom)))

    def look(self) -> Hashable:
        self.update_panel()
        self.card.visible = self.stage is not Stage.DEPLOY and self.card.box.height > 120
        self.card.dynamic = self.dialog is None  # the hovered unit's card follows the mouse
        self.update_layers()
        return super().look()

    def content_look(self) -> Hashable:
        return self.version

    def on_update(self, delta_time: float) -> None:
        """Idle time lays out the next card of the battle, so a click shows it at once."""
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

    def hover_box(self, width: float, height: float) -> Box:
        """Where the hover box goes: the corner of the map that hides the fewest counters (never the
        hovered hex or a stack spread out from it), the top corners first."""
        area = self.map.box
        state = self.state
        hover = self.map.hover
        spots: list[tuple[float, float, float, float]] = []  # counters on screen: left, bottom, right, top
        for hex_ in state.occupancy():
            x, y = hexdraw.centre(hex_)
            spots.append((x - HALF_WIDTH, y - HALF_HEIGHT, x + HALF_WIDTH, y + HALF_HEIGHT))
        if hover is not None:
            x, y = hexdraw.centre(hover)
            reach = 4.2 * hexdraw.SIZE  # the hex, and a stack spread out above or below it
            spots += [(x - reach, y - reach, x + reach, y + reach)] * 100
        screen = []
        for left, bottom, right, top in spots:
            (l_, b_), (r_, t_) = self.map.world_to_screen(left, bottom), self.map.world_to_screen(right, top)
            screen.append((l_, b_, r_, t_))
        m = 6
        corners = [
            Box(area.left + m, area.top - height - m, width, height),
            Box(area.right - width - m, area.top - height - m, width, height),
            Box(area.left + m, area.bottom + m, width, height),
            Box(area.right - width - m, area.bottom + m, width, height),
        ]

        def hidden(box: Box) -> int:
            return sum(
                1
                for l_, b_, r_, t_ in screen
                if l_ < box.right and r_ > box.left and b_ < box.top and t_ > box.bottom
            )

        best = min(corners, key=hidden)  # the first of the least hidden
        return Box(round(best.left), round(best.bottom), round(best.width), round(best.height))

    def on_show_view(self) -> None:
        super().on_show_view()
        self.changed()
        if self.dialog is None:
            self.next_dialog()  # a hand-over, the victory screen or a question waiting for this screen
