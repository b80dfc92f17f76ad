"""The battle screen's decisions without a window: what the player has selected, the path being built,
what a click on a hex means in the current stage, and the messages it says (`minis.ui.readout` words the
side panel, the hover box and the questions from it).

`BattleController` sits beside `Session`: the screen owns one, hands it the map's input (`hover_at`,
`click`, `step_back`, `confirm`, ...) and draws what it exposes (`moves`, `costs`, `attacks`, `path`,
the selection, ...; the panel through a `BattleReadout`). Everything it knows comes from the engine:
the decider and the stage, `Game.ready_units` (which units may still act: also before turn 1, when
only some may, and a unit with follow-ups left after it acted), `Game.unit_options`,
`Game.legal_actions` and the questions of `minis.engine.queries`. It never decides a rule, and it imports no
arcade, so whole battles are played through it in tests without a window.

It owns the parts a player meets apart from the map's usual moves and attacks, each in its own module:
`deployment` (the list, a deploying click, the units that arrive later: `minis.ui.deployment`),
`aircraft` (the tray and its picks: `minis.ui.aircraft`), `penalty` (the overstack warning and
decision: `minis.ui.overstack`) and `texts` (a planned move, the events and the log in words:
`minis.ui.battle_texts`). The screen reaches them through the controller, which hands a click to the
part the stage belongs to.

Fresh state: `version` goes up whenever anything a player sees may have changed (an action, an
undo, a selection, a step of the path); after every action and undo the selection is cleared and
what hangs on the hovered hex (the target, its odds, the hover box) is worked out again from the
board, so nothing shown is left over from before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from minis.base.grammar import verb
from minis.base.sides import Side
from minis.engine import actions as A
from minis.engine import queries
from minis.engine.events import Event
from minis.engine.queries import AttackPreview, PathInfo
from minis.game import Game
from minis.hexgrid import FACINGS, Facing, Hex, direction_to, distance
from minis.rules import air, obstacles, setup
from minis.rules.defensive_fire import window_hex
from minis.rules.errors import IllegalAction
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import obstacles as obstacle_ui
from minis.ui.aircraft import AircraftChoices
from minis.ui.battle_texts import BattleTexts
from minis.ui.counters import battle_names, hex_order
from minis.ui.deployment import Deployment
from minis.ui.overstack import OverstackPenalty
from minis.ui.plain import plain, sentence, unit_names
from minis.ui.session import Session


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
        #: The parts of the battle met apart from the map's usual moves and attacks (each its module).
        self.deployment = Deployment(self)
        self.aircraft = AircraftChoices(self)
        self.penalty = OverstackPenalty(self)
        self.texts = BattleTexts(self)
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
        said = self.texts.summary(events)  # what happened in words; the notation stays in the log's V view
        self.say(said[0] if said else self.plain(self.session.last_action))
        warning = self.penalty.warning(events)
        if warning:  # the move left a hex over the stacking limit: say it now, not at the pass
            self.say(warning, bad=True)
        self.refresh()
        if self.on_acted is not None:
            self.on_acted(events)
        return True

    def arrived(self, events: list[Event]) -> None:
        """The other player's decision, applied elsewhere (a game server), shown as an action is: its
        events in words, the selection brought up to date, the screen's dialogs and motion."""
        said = self.texts.summary(events)
        self.say(said[0] if said else self.plain(self.session.last_action))
        self.refresh()
        if self.on_acted is not None:
            self.on_acted(events)

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
        self.deployment.wire_first = None
        if self.state.obstacles and obstacles.placing(self.state):  # obstacles first: nothing to select
            if self.state.deploying not in self.elsewhere:
                self.say(obstacle_ui.prompt(self.state, None))
        elif self.stage is Stage.DEPLOY and self.state.deploying not in self.elsewhere:
            waiting = self.deployment.to_deploy()
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

    def short_names(self) -> dict[str, str]:
        """Each unit's name on its counter, unique in the battle (worked out again only for new armies)."""
        key = tuple((u.id, u.card.name) for u in self.state.units.values())
        if self._names[0] != key:
            self._names = (key, battle_names(self.state))
        return self._names[1]

    # --- the stack under the pointer -----------------------------------------------------------------
    def enemies_at(self, hex_: Hex) -> list[Unit]:
        """The active player's enemies in `hex_` a click may aim at: those on the ground, then an
        aircraft over it."""
        active = self.state.active
        ground = [u for u in self.state.at(hex_) if u.side is not active]
        return ground + [u for u in self.aircraft.over(hex_) if u.side is not active]

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
        units = [*hex_order(state.at(hex_), self.selected), *self.aircraft.over(hex_)]  # as spread out
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
            ids = self.deployment.listed()
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
            self.deployment.click(hex_)
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
            self.penalty.click(hex_)

    def step_back(self) -> bool:
        """Take the path's last step back (right click, Backspace); False when there is no path."""
        if not self.path or self.selected is None:
            return False
        self.path = self.path[:-1]
        self.path_info = queries.path_info(self.state, self.selected, self.path) if self.path else None
        self.changed()
        return True

    def _act_click(self, hex_: Hex) -> None:
        state = self.state
        here = state.at(hex_)
        own_ready = [u for u in (*here, *self.aircraft.over(hex_)) if self.is_ready(u)]
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
        self.say(self.texts.path(info))

    def _fire_click(self, hex_: Hex) -> None:
        for preview in queries.defensive_fire_options(self.state):
            if self.state.units[preview.attacker].hex == hex_:
                self.fire(preview.attacker)
                return
        self.say("Click one of the units that may fire (yellow rings), or Hold.", bad=True)

    def _reaction_click(self, hex_: Hex) -> None:
        for preview in self.aircraft.reaction_options():
            if self.state.units[preview.attacker].hex == hex_:
                self.fire(preview.attacker)
                return
        self.say("Click one of the units that may shoot (yellow rings), or Hold.", bad=True)

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


def doing(do: Callable[..., object], *args: object) -> Callable[[], object]:
    """`do(*args)` as a button's action."""
    return lambda: do(*args)


def sentence_end(text: str) -> str:
    """`text` ending as a sentence does (a reason runs on into the panel's next line otherwise)."""
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."
