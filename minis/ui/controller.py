"""The battle screen's decisions without a window: what the player has selected, the path being built,
what a click on a hex means in the current stage, and the messages it says (`minis.ui.readout` words the
side panel, the hover box and the questions from it).

`BattleController` sits beside `Session`: the screen owns one, hands it the map's input (`hover_at`,
`click`, `step_back`, `confirm`, ...) and draws what it exposes (`moves`, `costs`, `attacks`, `path`,
the selection, ...; the panel through a `BattleReadout`). Everything it knows comes from the engine:
the decider and the stage, `Game.ready_units` (which units may still act: also before turn 1, when
only some may, and a unit with follow-ups left after it acted), `Game.unit_options`,
`Game.legal_actions` and the questions of `minis.queries`. It never decides a rule, and it imports no
arcade, so whole battles are played through it in tests without a window.

Fresh state: `version` goes up whenever anything a player sees may have changed (an action, an
undo, a selection, a step of the path); after every action and undo the selection is cleared and
what hangs on the hovered hex (the target, its odds, the hover box) is worked out again from the
board, so nothing shown is left over from before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from minis import actions as A
from minis import queries
from minis.ability_catalogue import ability_name
from minis.events import Event, EventKind
from minis.game import Game
from minis.grammar import verb
from minis.hexgrid import FACINGS, Facing, Hex, direction_to, distance
from minis.queries import AttackPreview, PathInfo, percent
from minis.rules import air, arrivals, obstacles, overstack, setup
from minis.rules.defensive_fire import window_hex
from minis.rules.errors import IllegalAction
from minis.rules.movement import speed
from minis.sides import Side
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import obstacles as obstacle_ui
from minis.ui.counters import battle_names, hex_order
from minis.ui.plain import plain, sentence, unit_names
from minis.ui.rulewords import phrase
from minis.ui.session import Session, armies_revealed


@attrs.frozen
class TrayRow:
    """An aircraft in the tray beside the map: its name, where it is in words, whether a click on it
    selects it (it may fly now), whether it is greyed (destroyed) and whether it is the selected one."""

    unit: str
    name: str
    status: str
    may_fly: bool = False
    greyed: bool = False
    selected: bool = False


@attrs.frozen
class TraySide:
    """One side's aircraft in the tray (a heading in the side's colour, then one row an aircraft)."""

    side: Side
    rows: tuple[TrayRow, ...]


@attrs.frozen
class Reach:
    """The selected unit's options from the engine: destinations with paths and costs, targets."""

    moves: dict[Hex, tuple[Hex, ...]] = attrs.field(factory=dict)
    costs: dict[Hex, PathInfo] = attrs.field(factory=dict)
    attacks: tuple[str, ...] = ()


class BattleController:
    """The state of the player's choices in one battle, and what each input means (no window)."""

    def __init__(self, session: Session, on_acted: Callable[[list[Event]], object] | None = None) -> None:
        self.session = session
        #: While the dice of the last action still roll on screen, the units as they were before it (the
        #: screen sets it): what the panel and the hover box say of a unit's face-down counters waits
        #: for the dice, as the counters on the map do. None: the game's own.
        self.counters_from: Mapping[str, Unit] | None = None
        #: Called after every action and undo with its events (the screen opens its dialogs).
        self.on_acted = on_acted
        self.selected: str | None = None
        self.path: tuple[Hex, ...] = ()
        self.facing: Facing | None = None
        self.target: str | None = None
        self.preview: AttackPreview | str | None = None
        self.path_info: PathInfo | None = None
        self.hover: Hex | None = None
        #: The unit of the hovered hex's stack the player picked (its counter in the stack spread out
        #: under the mouse, or C): the enemy a click or Enter attacks, the unit a click selects, the card
        #: shown. None: the stack's first (the top one, or the first the selected unit may attack).
        self.chosen: str | None = None
        #: Barbed Wire being placed: the first of the two hexes of its hexside (minis.ui.obstacles).
        self.wire_first: Hex | None = None
        self.message = ""
        self.message_bad = False
        #: The hint shown (its sentence) and its reason, until the selection changes or the game moves on.
        self.hint = ""
        self.hint_why = ""
        #: Goes up whenever anything shown may have changed; `hover_version` when only the hover did.
        self.version = 0
        self.hover_version = 0
        #: Goes up when the position may have changed (an action, an undo): what is drawn from the
        #: board alone (the counters, the tints) is keyed on it, never on an object's id (which a
        #: new position can reuse).
        self.board_version = 0
        self._reach: tuple[object, Reach] = (None, Reach())
        self._ready: tuple[object, frozenset[str]] = (None, frozenset())
        self._names: tuple[object, dict[str, str]] = (None, {})
        self._unit_names: tuple[object, dict[str, str]] = (None, {})
        #: The sides decided elsewhere than at this screen: by the computer (`minis.ui.computer`) or,
        #: over the network, by the other player (`minis.ui.netsession`). No question, list or
        #: selection of theirs is shown, the player's input waits while they decide, and
        #: `elsewhere_status` says what is happening meanwhile.
        self.elsewhere: frozenset[Side] = frozenset()
        self.elsewhere_status = ""
        #: Who decides for those sides, in the panel's words.
        self.opponent_word = "the computer"
        self.refresh()

    # --- the game ------------------------------------------------------------------------------------
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

    def plain(self, text: str) -> str:
        """An engine's sentence (a refusal, a reason) with the battle's ids as the players' names
        (`Session.words`: units, obstacles and cards, whatever the sentence)."""
        return plain(text, self.session.words())

    def names(self) -> dict[str, str]:
        """Every unit's name for players (`minis.ui.plain.unit_names`), worked out again only for new
        armies."""
        key = tuple(self.state.units)
        if self._unit_names[0] != key:
            self._unit_names = (key, unit_names(self.state.units.values()))
        return self._unit_names[1]

    def name(self, unit: Unit) -> str:
        """A unit's name as the log and every line of the window say it ("the second Rangers")."""
        return self.names().get(unit.id, unit.card.name)

    def use_words(self, use: A.Use) -> str:
        """An ability's own action as a player reads it: "Headshot: M4A1 Sherman", never its ids."""
        name = ability_name(use.ability)
        return f"{name}: {self.plain(', '.join(use.args))}" if use.args else name

    def say(self, text: str, bad: bool = False) -> None:
        self.message = sentence(text)
        self.message_bad = bad
        self.changed()

    # --- doing things --------------------------------------------------------------------------------
    def act(self, action: A.Action) -> bool:
        """Hand an action to the engine; a refusal is shown with its reason, nothing else changes."""
        try:
            events = self.session.apply(action)
        except IllegalAction as error:
            self.say(f"Not allowed: {self.plain(error.reason)}", bad=True)
            return False
        said = self.summary(events)  # what happened in words; the notation stays in the log's V view
        self.say(said[0] if said else self.plain(self.session.last_action))
        warning = self.stacking_warning(events)
        if warning:  # the move left a hex over the stacking limit: say it now, not at the pass
            self.say(warning, bad=True)
        self.refresh()
        if self.on_acted is not None:
            self.on_acted(events)
        return True

    def arrived(self, events: list[Event]) -> None:
        """The other player's decision, applied elsewhere (a game server), shown as an action is: its
        events in words, the selection brought up to date, the screen's dialogs and motion."""
        said = self.summary(events)
        self.say(said[0] if said else self.plain(self.session.last_action))
        self.refresh()
        if self.on_acted is not None:
            self.on_acted(events)

    def stacking_warning(self, events: list[Event]) -> str | None:
        """What a hex left over the stacking limit by a unit that just ended its move (or arrived, or
        got off) will cost its player at his pass, in words; None if nothing (or the computer moved)."""
        state = self.state
        moving = state.move.unit if state.move is not None else None
        for event in events:
            if event.kind not in _ENDS_A_MOVE or event.unit is None or event.unit == moving:
                continue
            unit = state.units.get(event.unit)
            if unit is None or unit.hex is None or unit.side in self.elsewhere:
                continue
            warning = queries.stacking_warning(state, unit.hex)
            if warning:
                return self.plain(warning)
        return None

    def undo(self) -> None:
        if not self.session.can_undo:
            self.say("Nothing to undo: the last action rolled dice or asked the other player.", bad=True)
            return
        text = self.session.undo()
        self.refresh()
        if self.on_acted is not None:
            self.on_acted([])
        self.say(f"Undone: {self.plain(text)}")

    def refresh(self) -> None:
        """After an action, an undo or a load: nothing selected (the next unit to deploy while
        deploying), and the hovered hex's target and box worked out again from the board."""
        self.board_version += 1
        self.clear_selection(keep_message=True)
        self.wire_first = None
        if self.state.obstacles and obstacles.placing(self.state):  # obstacles first: nothing to select
            if self.state.deploying not in self.elsewhere:
                self.say(obstacle_ui.prompt(self.state, None))
        elif self.stage is Stage.DEPLOY and self.state.deploying not in self.elsewhere:
            waiting = self.to_deploy()
            if waiting:
                self.select(waiting[0].id)
        self.hover_at(self.hover)
        self.changed()

    def elsewhere_decides(self) -> bool:
        """True while the game waits for a side decided elsewhere (the player's input waits too)."""
        return self.game.decider() in self.elsewhere

    def show_hint(self, action: A.Action, text: str, why: str = "") -> Hex | None:
        """Show what a hint proposes without doing it: its unit selected, its path or target set, its
        sentence in the message line and its reason on top of the panel (and in the question, when it
        is one). Returns the hex to point at (the path's end, the target...)."""
        state = self.state
        self.clear_selection()
        where: Hex | None = None
        match action:
            case A.Move(unit=unit, path=path) if path:
                self.select(unit)
                self._set_path(queries.path_info(state, unit, path))
                where = path[-1]
            case A.Attack(unit=unit, target=target):
                self.select(unit)
                where = state.units[target].hex
            case A.Deploy(unit=unit, hex=hex_) | A.Place(unit=unit, hex=hex_):
                self.select(unit)
                where = hex_
            case A.Fire(unit=unit) | A.Face(unit=unit) | A.BoardTransport(unit=unit) | A.Use(unit=unit):
                if self.stage is Stage.ACT:
                    self.select(unit)
                where = state.units[unit].hex
            case A.Dismount(hex=hex_) | A.Objective(hex=hex_) | A.Arrive(hex=hex_):
                where = hex_
        self.say(text)
        self.hint, self.hint_why = text, why
        return where

    def _key(self) -> object:
        """What the engine's answers depend on: the position (the record's length changes with every
        action, and `session.game` with an undo)."""
        return (id(self.game), id(self.state), len(self.game.record))

    # --- what the engine says ------------------------------------------------------------------------
    def ready_ids(self) -> frozenset[str]:
        """The units that may still act in a movement or assault phase (`Game.ready_units`)."""
        key = self._key()
        if self._ready[0] != key:
            ids = frozenset(self.game.ready_units()) if self.stage is Stage.ACT else frozenset()
            self._ready = (key, ids)
        return self._ready[1]

    def is_ready(self, unit: Unit) -> bool:
        return unit.id in self.ready_ids()

    def reach(self) -> Reach:
        """The selected unit's moves (with costs) and targets, from the engine; kept per position."""
        key = (self._key(), self.selected)
        if self._reach[0] != key:
            found = Reach()
            options = (
                self.game.unit_options(self.selected) if self.selected and self.stage is Stage.ACT else None
            )
            if options is not None and self.selected is not None:
                moves = dict(options.moves)
                found = Reach(
                    moves, queries.move_costs(self.state, self.selected, moves), tuple(options.attacks)
                )
            self._reach = (key, found)
        return self._reach[1]

    @property
    def moves(self) -> dict[Hex, tuple[Hex, ...]]:
        return self.reach().moves

    @property
    def costs(self) -> dict[Hex, PathInfo]:
        return self.reach().costs

    @property
    def attacks(self) -> tuple[str, ...]:
        return self.reach().attacks

    def to_deploy(self) -> list[Unit]:
        """The deploying side's units not yet on the map, Vehicles first."""
        side = self.state.deploying
        return sorted(
            (
                u
                for u in self.state.units.values()
                if u.side is side
                and u.hex is None
                and not u.removed
                and not u.card.is_aircraft  # aircraft are never deployed: they fly in
                and not arrivals.arrives_later(self.state, u)  # Heroes, Paratroopers: later
            ),
            key=lambda u: (not u.card.is_vehicle, u.id),
        )

    def waiting_to_arrive(self) -> list[Unit]:
        """The active player's units still off the map that may arrive later (Heroes, Paratroopers)."""
        state = self.state
        side = state.active if self.stage is Stage.ACT else state.deploying
        return arrivals.waiting(state, side) if side is not None else []

    def special_hexes(self) -> list[Hex]:
        """Where the selected unit may go besides the usual: while deploying, a Partisan's or a
        Gliderborne's wider area (the empty hexes of it); in a movement phase, a waiting unit's arrival
        hexes. The screen tints them."""
        state = self.state
        unit = state.units.get(self.selected or "")
        if unit is None or unit.hex is not None or not arrivals.any_special(state):
            return []
        if self.stage is Stage.DEPLOY:
            return sorted(h for h in arrivals.extra_area(state, unit) if not state.at(h))
        if self.stage is Stage.ACT:
            return arrivals.arrival_hexes(state, unit)
        return []

    def listed_ids(self) -> list[str]:
        """The deployment list: the deploying side's units a player may place or pick up again (a
        scenario's fixed units stay put), those still to deploy first."""
        side = self.state.deploying
        fixed = self.state.fixed
        units = [
            u
            for u in self.state.units.values()
            if u.side is side and not u.removed and u.id not in fixed and not u.card.is_aircraft
        ]
        return [u.id for u in sorted(units, key=lambda u: (u.hex is not None, not u.card.is_vehicle, u.id))]

    def short_names(self) -> dict[str, str]:
        """Each unit's name on its counter, unique in the battle (worked out again only for new armies)."""
        key = tuple((u.id, u.card.name) for u in self.state.units.values())
        if self._names[0] != key:
            self._names = (key, battle_names(self.state))
        return self._names[1]

    # --- aircraft ------------------------------------------------------------------------------------
    def has_aircraft(self) -> bool:
        """Whether the battle has aircraft at all (the tray beside the map is shown only then)."""
        return any(u.card.is_aircraft for u in self.state.units.values())

    def aircraft_over(self, hex_: Hex) -> list[Unit]:
        """The aircraft over `hex_` (one at most: aircraft don't stack with the units under them)."""
        return [
            u for u in self.state.units.values() if u.card.is_aircraft and u.hex == hex_ and not u.removed
        ]

    def enemies_at(self, hex_: Hex) -> list[Unit]:
        """The active player's enemies in `hex_` a click may aim at: those on the ground, then an
        aircraft over it."""
        active = self.state.active
        ground = [u for u in self.state.at(hex_) if u.side is not active]
        return ground + [u for u in self.aircraft_over(hex_) if u.side is not active]

    def _aim(self, hex_: Hex) -> Unit | None:
        """The enemy in `hex_` a click attacks: the one the player chose in its stack, else the first the
        selected unit may attack, else the first."""
        enemies = self.enemies_at(hex_)
        chosen = [u for u in enemies if u.id == self.chosen]
        legal = [u for u in enemies if u.id in self.attacks]
        found = chosen or legal or enemies
        return found[0] if found else None

    def stack_at(self, hex_: Hex) -> list[Unit]:
        """The units of `hex_` one may pick among (`chosen`): the enemies there while a selected unit
        attacks, else every unit in the hex and an aircraft over it."""
        state = self.state
        attacking = state.phase is Phase.ASSAULT or state.phase is Phase.AIRSTRIKE
        units = [*hex_order(state.at(hex_), self.selected), *self.aircraft_over(hex_)]  # as spread out
        if self.selected and self.stage is Stage.ACT and attacking:
            return [u for u in units if u.side is not state.active]
        return units

    def choose(self, unit_id: str | None) -> None:
        """Pick a unit of the hovered hex's stack (a spread-out counter under the mouse): the target,
        its odds, the card in the panel follow it."""
        if unit_id != self.chosen:
            self.chosen = unit_id
            self.hover_at(self.hover)

    def choose_next(self, step: int = 1) -> Unit | None:
        """C (Shift+C back): the next unit of the stack under the mouse or the keyboard cursor."""
        if self.hover is None:
            self.say("Point at a stack first (the mouse, or the cursor: W A S D).", bad=True)
            return None
        units = self.stack_at(self.hover)
        if len(units) < 2:
            self.say(f"Only one unit to choose in {self.label(self.hover)}." if units else "No unit here.")
            return units[0] if units else None
        ids = [u.id for u in units]
        current = self.target or self.chosen
        index = (ids.index(current) + step) % len(ids) if current in ids else 0
        self.choose(ids[index])
        unit = units[index]
        self.say(f"{self.name(unit)}: {index + 1} of {len(ids)} in {self.label(self.hover)} (C: the next)")
        return unit

    def tray_sides(self) -> tuple[Side, ...]:
        """Whose aircraft the tray shows: both armies once both are on the map; before that (each army
        a secret at one screen) only the army of the player at the screen."""
        if armies_revealed(self.game):
            return (Side.AXIS, Side.ALLIES)
        if self.elsewhere:
            return tuple(s for s in (Side.AXIS, Side.ALLIES) if s not in self.elsewhere)
        side = self.state.deploying
        return (side,) if side is not None else ()

    def tray(self) -> tuple[TraySide, ...]:
        """The tray beside the map: each shown side's aircraft, where each is in words."""
        state = self.state
        found = []
        for side in self.tray_sides():
            rows = []
            for unit in sorted(
                (u for u in state.units.values() if u.side is side and u.card.is_aircraft), key=lambda u: u.id
            ):
                may_fly = state.phase is Phase.FLIGHT and self.is_ready(unit)
                if unit.removed:
                    status = "destroyed"
                elif unit.hex is not None:
                    status = f"over {self.label(unit.hex)}" + (" · disrupted" if unit.disrupted else "")
                elif unit.disrupted:
                    status = "disrupted: grounded this turn"
                elif may_fly:
                    status = "ready to fly"
                else:
                    status = "off the map"
                rows.append(
                    TrayRow(unit.id, self.name(unit), status, may_fly, unit.removed, unit.id == self.selected)
                )
            if rows:
                found.append(TraySide(side, tuple(rows)))
        return tuple(found)

    def pick_aircraft(self, unit_id: str) -> None:
        """A click on an aircraft in the tray: it is selected if it may act now (fly, or attack from
        over the map), else the player reads why not."""
        unit = self.state.units.get(unit_id)
        if unit is None or self.elsewhere_decides():
            return
        if self.is_ready(unit):
            self.select(unit.id)
            if unit.hex is None:
                self.say(f"{self.name(unit)}: click a hex for it to fly over (any hex without an aircraft).")
            return
        self.say(self.grounded_reason(unit), bad=True)

    def grounded_reason(self, unit: Unit) -> str:
        """Why an aircraft can't be chosen now, in a player's words."""
        state = self.state
        name = self.name(unit)
        if unit.removed:
            return f"{name} has been destroyed."
        if unit.hex is None and unit.disrupted:
            return f"{name} is disrupted: it is grounded this turn and can't fly."
        if state.phase is Phase.AIRSTRIKE and unit.id in state.activated:
            return f"{name} has already attacked this phase."
        if unit.hex is not None:
            return f"{name} is already over {self.label(unit.hex)} this turn."
        if self.stage is Stage.ACT and state.phase is Phase.FLIGHT and state.active is not unit.side:
            return f"{name} flies in the {unit.side.title}' own flight phase."
        return f"{name} flies only in a flight phase (after both movement phases)."

    def reaction_options(self) -> list[AttackPreview]:
        """The shots the non-acting player may take at the aircraft just placed, each with its odds."""
        state = self.state
        aircraft = air.reacting_to(state)
        if aircraft is None:
            return []
        found = []
        for unit in air.reactors(state, aircraft):
            preview = queries.attack_preview(state, unit.id, aircraft.id, defensive=True)
            if isinstance(preview, AttackPreview):
                found.append(preview)
        return found

    # --- selection -----------------------------------------------------------------------------------
    def clear_selection(self, keep_message: bool = False) -> None:
        self.hint = self.hint_why = ""
        self.selected = None
        self.path = ()
        self.facing = None
        self.target = None
        self.preview = None
        self.path_info = None
        if not keep_message:
            self.message = ""
        self.changed()

    def select(self, unit_id: str | None) -> None:
        """Select a unit; a Vehicle being deployed faces its end's default way unless already turned."""
        self.hint = self.hint_why = ""
        self.selected = unit_id
        self.path = ()
        self.target = None
        self.preview = None
        self.path_info = None
        unit = self.state.units.get(unit_id) if unit_id else None
        self.facing = None
        if unit is not None and unit.card.is_vehicle:
            if self.stage is Stage.DEPLOY:
                end = self.state.ends.get(unit.side, "west")
                self.facing = unit.facing or Facing.parse(setup.default_facing_end(end))
            else:
                self.facing = unit.facing
        self.changed()

    def select_next(self) -> Unit | None:
        """N: the next unit of the deployment list, or the next that may act; returns it."""
        if self.stage is Stage.DEPLOY:
            ids = self.listed_ids()
        elif self.stage is Stage.ACT:
            ids = sorted(self.ready_ids())
        else:
            return None
        if not ids:
            return None
        index = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.select(ids[index])
        return self.state.units[ids[index]]

    # --- the map's input -----------------------------------------------------------------------------
    def hover_at(self, hex_: Hex | None) -> None:
        """The mouse (or the keyboard cursor) is over `hex_`: in an assault phase with a unit selected,
        an enemy there is the target whose odds are shown."""
        if hex_ != self.hover:
            self.chosen = None  # another hex: its own stack
        self.hover = hex_
        self.target = None
        self.preview = None
        state = self.state
        attacking = state.phase is Phase.ASSAULT or state.phase is Phase.AIRSTRIKE
        if hex_ is not None and self.selected and self.stage is Stage.ACT and attacking:
            aimed = self._aim(hex_)
            if aimed is not None:
                self.target = aimed.id
                self.preview = queries.attack_preview(state, self.selected, self.target)
        self.hover_version += 1

    def click(self, hex_: Hex) -> None:
        """A left click (or Space on the keyboard cursor) on `hex_`: what it means in this stage."""
        stage = self.stage
        if stage is Stage.DEPLOY:
            self._deploy_click(hex_)
        elif stage is Stage.ACT:
            self._act_click(hex_)
        elif stage is Stage.DEFENSIVE_FIRE:
            self._fire_click(hex_)
        elif stage is Stage.REACTION:
            self._reaction_click(hex_)
        elif stage is Stage.PLACE:
            soldier = self.state.placing
            if soldier is not None:
                self.act(A.Dismount(soldier, hex_))
        elif stage is Stage.CHOOSE_OBJECTIVE:
            self.act(A.Objective(hex_))
        elif stage is Stage.PENALTY:
            self._penalty_click(hex_)

    def step_back(self) -> bool:
        """Take the path's last step back (right click, Backspace); False when there is no path."""
        if not self.path or self.selected is None:
            return False
        self.path = self.path[:-1]
        self.path_info = queries.path_info(self.state, self.selected, self.path) if self.path else None
        self.changed()
        return True

    def _obstacle_click(self, hex_: Hex) -> None:
        """Place the next obstacle: in the clicked hex, or (Barbed Wire) on the hexside between the
        clicked hex and the one clicked before it."""
        state = self.state
        obstacle = obstacle_ui.next_to_place(state)
        if obstacle is None:
            return
        if obstacles.kind(state, obstacle) != obstacles.WIRE:
            self.act(A.Deploy(obstacle.id, hex_))
            return
        first = self.wire_first
        if first is None or first == hex_ or distance(first, hex_) != 1:
            self.wire_first = hex_
            self.say(obstacle_ui.prompt(state, hex_))
            return
        self.wire_first = None
        if not self.act(A.Deploy(obstacle.id, first, None, hex_)):
            self.wire_first = None

    def _deploy_click(self, hex_: Hex) -> None:
        state = self.state
        side = state.deploying
        if state.obstacles and obstacles.placing(state):  # obstacles are placed first (minis.ui.obstacles)
            self._obstacle_click(hex_)
            return
        own = [u for u in state.at(hex_) if u.side is side and u.id not in state.fixed]
        if own and (self.selected is None or state.units[self.selected].hex is not None):
            # a placed unit of yours: pick it up again (another click places it)
            if self.selected == own[-1].id and len(own) > 1:
                self.select(own[0].id)
            elif self.selected != own[-1].id:
                self.select(own[-1].id)
                self.say(f"{self.name(own[-1])} picked up: click a hex to move it, Q/E turn it.")
                return
        if self.selected is None:
            self.say("Choose a unit to deploy first (the list on the right).", bad=True)
            return
        unit = state.units[self.selected]
        self.act(A.Deploy(unit.id, hex_, self.facing if unit.card.is_vehicle else None))

    def _act_click(self, hex_: Hex) -> None:
        state = self.state
        here = state.at(hex_)
        own_ready = [u for u in (*here, *self.aircraft_over(hex_)) if self.is_ready(u)]
        selected = state.units.get(self.selected) if self.selected else None
        if selected is not None and selected.hex is None and not selected.removed:  # waiting off the map
            if selected.card.is_aircraft:
                self.act(A.Place(selected.id, hex_))  # it flies over the hex
            else:
                self.act(A.Arrive(selected.id, hex_))
            return
        if state.phase is Phase.FLIGHT:
            self.say("Choose one of your aircraft first (the tray beside the map, or N).", bad=True)
            return
        if selected is not None and selected.carried_by is not None:  # ashore from a boat afloat (water)
            aboard = self.game.unit_options(selected.id)
            if aboard is not None and hex_ in aboard.landings:
                self.act(A.Dismount(selected.id, hex_))
                return
        attacking = state.phase is Phase.ASSAULT or state.phase is Phase.AIRSTRIKE
        if selected is not None and attacking:  # attack a target
            target = self._aim(hex_)
            if target is not None:
                if target.id in self.attacks:
                    self.act(A.Attack(selected.id, target.id))
                else:
                    preview = queries.attack_preview(state, selected.id, target.id)
                    reason = preview if isinstance(preview, str) else "that attack is not allowed now"
                    self.say(f"Not allowed: {self.plain(reason)}", bad=True)
                return
        if own_ready and (selected is None or hex_ not in self.moves or hex_ == selected.hex):
            picked = [u for u in own_ready if u.id == self.chosen and hex_ == self.hover]
            if picked:  # a counter of the stack spread out, or chosen with C
                if selected is None or picked[0].id != selected.id:
                    self.select(picked[0].id)
                return
            if selected is not None and selected.hex == hex_:
                others = [u for u in own_ready if u.id != selected.id]
                if not others:
                    self.clear_selection()
                    return
                self.select(others[0].id)
            else:
                self.select(own_ready[0].id)
            return
        if selected is None and state.phase is Phase.AIRSTRIKE:
            self.say(
                "Only aircraft attack in the airstrike phase: click one of yours over the map.", bad=True
            )
            return
        if selected is not None and selected.card.is_aircraft:
            self.say(
                f"{self.name(selected)} attacks an enemy in range (ringed in orange): click one.", bad=True
            )
            return
        if selected is None:
            mine = [u for u in here if u.side is state.active]
            if not mine:
                self.say("Click one of your units first.", bad=True)
            elif mine[0].id in state.activated:
                name = self.name(mine[0])
                self.say(f"{name} {verb(name, 'has')} already acted this phase.", bad=True)
            else:
                self.say(f"{self.name(mine[0])} can't act now.", bad=True)
            return
        if self.path and hex_ == self.path[-1]:
            self.confirm()
            return
        start = self.path[-1] if self.path else selected.hex
        if start is not None and distance(start, hex_) == 1:
            info = queries.path_info(state, selected.id, (*self.path, hex_))
            if info.problem is None:
                self._set_path(info)
                return
        if hex_ in self.moves:
            self._set_path(queries.path_info(state, selected.id, self.moves[hex_]))
            return
        full = queries.no_room(state, selected.id, hex_)
        why = f": {self.plain(full)}" if full else ""  # a full hex: the stacking rule, in words
        self.say(f"{self.name(selected)} can't end a move in {self.label(hex_)}{why}.", bad=True)

    def _set_path(self, info: PathInfo) -> None:
        """The path becomes `info`'s; a Vehicle will face the way of its last step."""
        self.path = info.path
        self.path_info = info
        unit = self.state.units[info.unit]
        if unit.card.is_vehicle and self.path:
            before = self.path[-2] if len(self.path) > 1 else unit.hex
            assert before is not None
            self.facing = direction_to(before, self.path[-1])
        self.say(self.path_text(info))

    def _fire_click(self, hex_: Hex) -> None:
        for preview in queries.defensive_fire_options(self.state):
            if self.state.units[preview.attacker].hex == hex_:
                self.fire(preview.attacker)
                return
        self.say("Click one of the units that may fire (yellow rings), or Hold.", bad=True)

    def _reaction_click(self, hex_: Hex) -> None:
        for preview in self.reaction_options():
            if self.state.units[preview.attacker].hex == hex_:
                self.fire(preview.attacker)
                return
        self.say("Click one of the units that may shoot (yellow rings), or Hold.", bad=True)

    # --- the overstack penalty ----------------------------------------------------------------------
    def penalty_hex(self) -> Hex | None:
        """The overstacked hex whose hit the game waits for (None outside that decision)."""
        return overstack.current(self.state) if self.stage is Stage.PENALTY else None

    def penalty_units(self) -> list[Unit]:
        """The units the deciding player may give the hit to: the engine's legal `penalty U` actions."""
        if self.stage is not Stage.PENALTY:
            return []
        units = self.state.units
        return [units[a.unit] for a in self.game.legal_actions() if isinstance(a, A.Penalty)]

    def penalty(self, unit_id: str) -> None:
        """The deciding player's choice: this unit of the overstacked hex takes the hit."""
        if unit_id not in {u.id for u in self.penalty_units()}:
            hex_ = self.penalty_hex()
            where = self.label(hex_) if hex_ is not None else "the hex"
            side = self.state.active.title if self.state.active else ""
            self.say(f"Choose one of the {side} units in {where} (the buttons, or their numbers).", bad=True)
            return
        self.act(A.Penalty(unit_id))

    def _penalty_click(self, hex_: Hex) -> None:
        """A click on the overstacked hex itself: its counters are spread out above it to be clicked."""
        where = self.penalty_hex()
        if where is not None and hex_ == where and len(self.penalty_units()) == 1:
            self.penalty(self.penalty_units()[0].id)
            return
        label = self.label(where) if where is not None else "the ringed hex"
        self.say(
            f"Click one of the counters spread out beside {label}, a button on the right, or its number.",
            bad=True,
        )

    def penalty_prompt(self) -> str:
        """What the deciding player reads: whose hex is over the limit, why, and what to choose."""
        state = self.state
        hex_ = self.penalty_hex()
        owner = state.active
        if hex_ is None or owner is None:
            return ""
        units = self.penalty_units()
        limit = state.rules.stack_per_army
        where = self.label(hex_)
        if len(units) > limit:
            why = f"{_count(len(units))} units in {where}, more than {_count(limit)}"
        else:
            why = f"a Vehicle too many in {where} ({phrase(state.rules, 'vehicle_scope')})"
        return f"The {owner.title} have {why}: choose the one that takes a hit"

    def pick_listed(self, row: int) -> None:
        ids = self.listed_ids()
        if 0 <= row < len(ids):
            self.select(ids[row])

    # --- decisions -----------------------------------------------------------------------------------
    def confirm(self) -> None:
        """Enter: do what is prepared (a move along the path, a turn in place, an attack)."""
        unit = self.state.units.get(self.selected or "")
        if unit is None:
            return
        if self.stage is Stage.DEPLOY:
            if unit.hex is not None and unit.card.is_vehicle:
                self.act(A.Deploy(unit.id, unit.hex, self.facing))
            return
        if self.stage is not Stage.ACT:
            return
        assault = self.state.phase is Phase.ASSAULT or self.state.phase is Phase.AIRSTRIKE
        if self.path:
            self.act(A.Move(unit.id, self.path, self.facing if unit.card.is_vehicle else None))
        elif self.target is not None and assault:
            self.act(A.Attack(unit.id, self.target))
        elif unit.card.is_vehicle and self.facing is not None and self.facing is not unit.facing:
            self.act(A.Face(unit.id, self.facing))
        elif unit.card.is_aircraft:
            self.say("Click an enemy to attack (hover it first for the odds).", bad=True)
        else:
            self.say(
                "Click a hex to plan a move" + (" or an enemy to attack" if assault else "") + ".", bad=True
            )

    def turn_facing(self, step: int) -> None:
        """Q/E or the wheel: the selected Vehicle's facing, one side round (1: counter-clockwise)."""
        unit = self.state.units.get(self.selected or "")
        if unit is None or not unit.card.is_vehicle:
            return
        current = self.facing or unit.facing or Facing.E
        self.facing = FACINGS[(FACINGS.index(current) + step) % len(FACINGS)]
        self.say(
            f"{self.name(unit)} will face {self.facing.name}"
            + (" (Enter to turn in place)" if self.stage is Stage.ACT and not self.path else "")
        )

    def can_turn(self) -> bool:
        """Whether the wheel turns the selected unit now (a Vehicle being deployed or moved)."""
        unit = self.state.units.get(self.selected or "")
        return (
            unit is not None
            and unit.card.is_vehicle
            and (self.stage is Stage.DEPLOY or (self.stage is Stage.ACT and bool(self.path)))
        )

    def pass_phase(self) -> None:
        """Ready (deployment), end the phase (movement, assault), hold (defensive fire)."""
        ends: dict[Stage, A.Action] = {
            Stage.DEPLOY: A.Ready(),
            Stage.ACT: A.Pass(),
            Stage.DEFENSIVE_FIRE: A.Hold(),
            Stage.REACTION: A.Hold(),
        }
        action = ends.get(self.stage)
        if action is not None:
            self.act(action)

    def fire(self, unit_id: str) -> None:
        if self.stage is Stage.REACTION:  # a shot at the aircraft just placed
            aircraft = air.reacting_to(self.state)
            if aircraft is not None and aircraft.hex is not None:
                self.act(A.Fire(unit_id, aircraft.hex))
            return
        move = self.state.move
        if move is not None:
            self.act(A.Fire(unit_id, window_hex(move)))

    # --- texts ---------------------------------------------------------------------------------------
    def path_text(self, info: PathInfo) -> str:
        """A planned move: where, its cost against the unit's speed, its rolls, who could fire."""
        state = self.state
        unit = state.units[info.unit]
        if info.problem:
            problem = self.plain(info.problem)
            name = self.name(unit)
            return sentence(problem) if problem.startswith(name) else f"{sentence(name)}: {problem}"
        hexes = " → ".join(self.label(h) for h in info.path)
        text = f"{sentence(self.name(unit))} to {hexes}: costs {info.cost} of speed {speed(state, unit)}."
        if info.rolls:
            text += (
                f" {info.rolls} movement roll{'s' if info.rolls > 1 else ''} "
                f"({', '.join(r for s in info.steps for r in s.rolls)}): "
                f"{percent(info.roll_odds)} to get through."
            )
        exposed = [s for s in info.steps if s.shooters]
        if exposed:
            names = sorted({self.name(state.units[u]) for s in exposed for u in s.shooters})
            steps = ", ".join(self.label(s.end) for s in exposed)
            text += f" Defensive fire possible (!) entering {steps}, from {', '.join(names)}."
        return text

    def summary(self, events: list[Event]) -> list[str]:
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

    def log_lines(self, notation: bool = False) -> list[str]:
        """The log: plain words by default (the events of this session, a unit's steps on one line);
        with `notation`, the game record's action notation, one line per action with its dice."""
        return self.session.log_lines() if notation else self.summary(self.session.events)


#: The events after which a unit stands where its move ended (it may have left a hex over the limit).
_ENDS_A_MOVE: tuple[EventKind, ...] = ("move", "arrive", "dismount")
_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _count(n: int) -> str:
    """A small number in words ("four")."""
    return _COUNTS.get(n, str(n))


def doing(do: Callable[..., object], *args: object) -> Callable[[], object]:
    """`do(*args)` as a button's action."""
    return lambda: do(*args)


def sentence_end(text: str) -> str:
    """`text` ending as a sentence does (a reason runs on into the panel's next line otherwise)."""
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."
