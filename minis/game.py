"""Game: a battle as a state machine over decisions and dice (docs/engine.md#the-state-machine).

    game.decider()        -> the side whose decision the game waits for (None: dice, or the end)
    game.legal_actions()  -> what that side may do
    game.apply(action)    -> the events it caused; IllegalAction (with the reason) leaves the game unchanged

Every die comes from `game.dice`, in the documented order. Each applied action is kept in `game.record`
with the dice it consumed (and the automatic steps that followed it), so a record replays the game.

With a scripted dice source the game may run out of dice half-way through an action: it then keeps
the partly advanced state for inspection (`waiting_for_dice()` is True, `decider()` None) and, when
`push_dice` adds values, replays the action from the position before it with all the dice, which gives
exactly the result the action would have had with all its dice at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs
from mypy_extensions import mypyc_attr

from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.content import rule_sets
from minis.content import unit_ids as unit_id_schemes
from minis.content.rule_sets import RuleSet
from minis.dice import Dice, NeedDice
from minis.engine import actions as A
from minis.engine.ability_api import AbilityRegistry
from minis.engine.ability_loader import standard_abilities
from minis.engine.battle import Battle
from minis.engine.events import Event
from minis.engine.terms import Terms, rulebook
from minis.hexgrid import Hex
from minis.rules import activation, legal, obstacles, sequence, setup
from minis.rules.errors import IllegalAction
from minis.rules.stacking import overstacked
from minis.state import BattleKind, GameState, Phase, Stage, Unit

if TYPE_CHECKING:
    from minis.army import Army
    from minis.board import Board
    from minis.cards import StatCard

__all__ = ["Game", "IllegalAction", "RecordEntry"]


@attrs.frozen
class RecordEntry:
    """One line of a game record: an action (None for the automatic start) and the dice it consumed."""

    action: str | None
    dice: tuple[int, ...]


@attrs.frozen
class _Pending:
    """An action (None: the automatic steps) waiting for dice, and the position before it."""

    before: GameState
    action: A.Action | None
    mark: int


# the fast build: a plain Python class (its methods compiled), as `copy` and positions make games
# without `__init__` (`Game.__new__`), which a compiled class runs
@mypyc_attr(native_class=False)
class Game:
    """One battle. Build it with `Game.new` (a real game) or `Game.from_position` (tests, editors)."""

    def __init__(
        self,
        state: GameState,
        dice: Dice,
        header: dict[str, object] | None = None,
        load_board: sequence.BoardLoader | None = None,
    ) -> None:
        self.state = state
        self.dice = dice
        self.header: dict[str, object] = dict(header or {})
        self._log: list[tuple[A.Action | None, tuple[int, ...]]] = []
        self._record: list[RecordEntry] = []
        self.load_board = load_board or sequence.default_loader
        self._pending: _Pending | None = None
        self._run(None)

    # --- construction -------------------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        board: Board,
        units: Iterable[Unit],
        *,
        scenario: BattleKind = BattleKind.STANDARD,
        attacker: Side | None = None,
        turn: int = 1,
        phase: Phase = Phase.MOVEMENT,
        first: Side = Side.AXIS,
        active: Side | None = None,
        objective: Hex | None = None,
        dice: Dice | None = None,
        turn_limit: int | None = None,
        terms: Terms | None = None,
        abilities: AbilityRegistry | None = None,
        rules: RuleSet | None = None,
    ) -> Game:
        """A game at the start of a phase with the given units (rules tests, scenario editors).

        Phases: movement, flight, airstrike or assault (the `active` player's, nothing done yet),
        initiative (the game rolls at once) or casualty (it runs at once). Raises ValueError for an
        impossible position.
        `terms`: a scenario's (then `scenario`, `attacker` and `turn_limit` are theirs); `abilities`: the
        rule set's abilities (the shipped ones by default).
        """
        registry = abilities if abilities is not None else standard_abilities()
        table: dict[str, Unit] = {}
        for unit in units:
            if unit.id in table:
                raise ValueError(f"two units are called '{unit.id}'")
            registry.require_implemented(unit.card)  # no card is played with an ability ignored
            table[unit.id] = unit
        if terms is None:
            if scenario is BattleKind.ASSAULT and attacker is None:
                raise ValueError("an Assault position needs the attacker's side")
            terms = rulebook(scenario, attacker, turn_limit)
        if rules is not None:
            terms = attrs.evolve(terms, rules=rules)
        placed_obstacles = obstacles.split_units(table)  # obstacles are not units (minis.rules.obstacles)
        battle = Battle.make(board, table.values(), terms, registry)
        state = GameState(
            battle=battle,
            units=table,
            turn=turn,
            first=first,
            objective=objective if objective is not None else board.objective,
        )
        if placed_obstacles:
            state.obstacles = placed_obstacles
        state.ends = {Side.AXIS: "west", Side.ALLIES: "east"}
        for unit in table.values():
            _check_unit(state, unit)
        bad = overstacked(state)
        if bad:
            raise ValueError(f"{', '.join(board.label(h) for h in bad)} break the stacking limit")
        state.phase = phase
        if phase in (Phase.MOVEMENT, Phase.FLIGHT, Phase.AIRSTRIKE, Phase.ASSAULT):
            state.active = active or first
            state.stage = Stage.ACT
        elif phase is Phase.INITIATIVE:
            state.stage = Stage.INITIATIVE
            if turn == 1:  # right after deployment: moves before turn 1 (Vanguard) come first
                sequence.begin_before_turn_1(state, [first, first.other], [])
                state.turn = 1
        elif phase is Phase.CASUALTY:
            state.stage = Stage.CASUALTY
        else:
            raise ValueError(
                "a position starts in the initiative, movement, flight, airstrike, assault or casualty "
                f"phase, not {phase.value}"
            )
        header: dict[str, object] = {"start": "position"}
        return cls(state, dice if dice is not None else Dice.scripted(), header)

    @classmethod
    def new(
        cls,
        axis: Army,
        allies: Army,
        *,
        scenario: BattleKind = BattleKind.STANDARD,
        attacker: Side | None = None,
        configuration: int | None = None,
        dice: Dice | None = None,
        cards: Mapping[str, StatCard] | None = None,
        load_board: sequence.BoardLoader | None = None,
        turn_limit: int | None = None,
        terms: Terms | None = None,
        abilities: AbilityRegistry | None = None,
        rules: RuleSet | None = None,
        unit_ids: int = unit_id_schemes.ARMY_IDS,
    ) -> Game:
        """A new battle between two armies, from the set-up on (the map roll unless `configuration`).

        Assault: `attacker` is the attacking side; the defender then chooses the configuration.
        `terms`: a scenario's terms (`minis.engine.scenario.Scenario.terms`; start one with
        `minis.engine.scenario.start_game`), which set up its map, objective, ends and preset units here;
        without them, the rulebook's Standard or Assault. `turn_limit` ends the game as a draw.
        `abilities`: the rule set's abilities (the shipped ones by default). `rules`: the rule set played
        under, over the terms' own (`minis.content.rule_sets`; the 2005 rulebook's by default). `unit_ids`:
        how the units are named (`minis.content.unit_ids`; OLD_IDS replays a record of format 1).
        """
        registry = abilities if abilities is not None else standard_abilities()
        catalogue = cards if cards is not None else card_catalogue()
        fielded: list[list[StatCard]] = []
        for army, side in ((axis, Side.AXIS), (allies, Side.ALLIES)):
            fielded.append([])
            for card_id in army.units:
                card = catalogue.get(card_id)
                if card is None:
                    raise ValueError(f"unknown card '{card_id}' in the {side.title} army")
                registry.require_implemented(card)  # no card is played with an ability ignored
                fielded[-1].append(card)
        if terms is None:
            terms = rulebook(scenario, attacker, turn_limit)
        elif turn_limit is not None:
            terms = attrs.evolve(terms, turn_limit=turn_limit)
        if rules is not None:
            terms = attrs.evolve(terms, rules=rules)
        for preset in terms.presets:
            registry.require_implemented(preset.card)
        terms, names, record_format = _unit_ids(terms, fielded, catalogue, unit_ids)
        units: dict[str, Unit] = {}
        for side, army_cards, ids in zip((Side.AXIS, Side.ALLIES), fielded, names, strict=True):
            for unit_id, card in zip(ids, army_cards, strict=True):
                units[unit_id] = Unit(unit_id, card, side)
        army_obstacles = obstacles.split_units(units)  # obstacles are not units (minis.rules.obstacles)
        state = GameState(battle=Battle.make(None, units.values(), terms, registry), units=units)
        if army_obstacles:
            state.obstacles = army_obstacles
        loader = load_board or sequence.default_loader
        if terms.kind is BattleKind.ASSAULT:
            state.chooser = terms.attacker.other if terms.attacker is not None else None
            state.stage = Stage.CHOOSE_CONFIGURATION
            if configuration is not None:
                sequence.set_configuration(state, configuration, loader)
                state.stage = Stage.CHOOSE_OBJECTIVE
        elif configuration is not None:
            sequence.set_configuration(state, configuration, loader)
            state.stage = Stage.COIN
        header: dict[str, object] = {
            "format": record_format,
            "scenario": terms.kind.value,
            "attacker": terms.attacker.value if terms.attacker else "",
            "configuration": configuration if configuration is not None else "roll",
            "axis": list(axis.units),
            "allies": list(allies.units),
            "axis_name": axis.name,
            "allies_name": allies.name,
        }
        if turn_limit is not None:
            header["turn_limit"] = turn_limit
        header.update(terms.source)
        header.update(rule_sets.file_values(terms.rules))  # nothing for the 2005 rulebook's
        setup.start(state)
        dice = dice if dice is not None else Dice()
        if not dice.is_scripted:
            header["seed"] = dice.seed
        return cls(state, dice, header, loader)

    # --- the state machine --------------------------------------------------------------------------

    def decider(self) -> Side | None:
        """Whose decision the game waits for; None while it waits for dice and once it is over."""
        if self._pending is not None:
            return None
        return sequence.decider(self.state)

    def waiting_for_dice(self) -> bool:
        return self._pending is not None

    @property
    def over(self) -> bool:
        return self.state.stage is Stage.OVER and self._pending is None

    @property
    def winner(self) -> Side | None:
        return self.state.winner

    def legal_actions(self, unit: str | None = None) -> list[A.Action]:
        """Every action the decider may take (one cheapest path per destination for moves).

        With `unit`, only that unit's actions (what a front end or a bot asks after picking a unit).
        """
        if self._pending is not None:
            return []
        return legal.legal_actions(self.state, unit)

    def unit_options(self, unit: str, with_attacks: bool = True) -> legal.UnitOptions | None:
        """What a ready unit of the active player may do, grouped (None when it may do nothing now; an
        aircraft off the map may be placed in its flight phase)."""
        if self._pending is not None or self.state.stage is not Stage.ACT:
            return None
        found = self.state.units.get(unit)
        if (
            found is None
            or found.side is not self.state.active
            or (unit in self.state.activated and not activation.offers(self.state, unit))
            or not (found.on_map or (found.card.is_aircraft and self.state.phase is Phase.FLIGHT))
        ):
            return None
        return legal.unit_options(self.state, found, with_attacks)

    def can_attack(self, unit: str, target: str) -> bool:
        """Whether `attack unit target` would be accepted now (a quick check, no dice)."""
        if self._pending is not None or unit not in self.state.units or target not in self.state.units:
            return False
        return legal.can_attack(self.state, self.state.units[unit], self.state.units[target])

    def ready_units(self) -> list[str]:
        """Units of the decider that may still act this phase (cheap; their actions may still be none)."""
        if self._pending is not None:
            return []
        return legal.ready_units(self.state)

    def is_legal(self, action: A.Action | str) -> str | None:
        """None if `action` would be accepted now, else the reason; nothing of this game changes.

        Asked without copying the game (its record, header and a fork of its dice): the action runs on
        a clone of the state with no dice at all. Most actions are refused or done before any die is
        drawn, and the answer is then the one `apply` would give, by the same code. An action that
        needs a die first (an attack, a move with a roll, holding a window whose mover rolls) is tried
        again with a fork of the dice, as `apply` on a copy would: one code path decides legality."""
        if isinstance(action, str):
            try:
                action = self.parse(action)
            except IllegalAction as error:
                return error.reason
        if self._pending is not None:
            return "the game is waiting for dice"
        try:
            try:
                sequence.apply(self.state.clone(), action, Dice.scripted(), [], self.load_board)
            except NeedDice:
                sequence.apply(self.state.clone(), action, self.dice.fork(), [], self.load_board)
        except NeedDice:
            return None  # a scripted source ran out part-way: accepted, as `apply` waits for dice then
        except IllegalAction as error:
            return error.reason
        return None

    def apply(self, action: A.Action | str) -> list[Event]:
        """Do `action` (or its notation) for the decider; IllegalAction leaves everything unchanged."""
        if isinstance(action, str):
            action = self.parse(action)
        if self._pending is not None:
            raise IllegalAction("the game is waiting for dice")
        return self._run(action)

    def push_dice(self, values: Iterable[int]) -> list[Event]:
        """Add dice to a scripted source; a game waiting for dice goes on with them."""
        self.dice.push(values)
        pending = self._pending
        if pending is None:
            return []
        self._pending = None
        self.state = pending.before
        self.dice.restore(pending.mark)
        try:
            return self._run(pending.action)
        except IllegalAction:
            self.state = pending.before
            raise

    def _run(self, action: A.Action | None) -> list[Event]:
        before = self.state
        mark = self.dice.mark()
        work = before.clone()
        events: list[Event] = []
        try:
            if action is None:
                sequence.advance(work, self.dice, events, self.load_board)
            else:
                sequence.apply(work, action, self.dice, events, self.load_board)
        except IllegalAction:
            self.dice.restore(mark)
            raise
        except NeedDice:
            self._pending = _Pending(before, action, mark)
            self.state = work
            return events
        self.state = work
        drawn = tuple(self.dice.drawn_since(mark))
        if action is not None or drawn:
            self._log.append((action, drawn))
        return events

    @property
    def record(self) -> list[RecordEntry]:
        """Every action so far in the action notation, with the dice it consumed (formatted on demand)."""
        for action, drawn in self._log[len(self._record) :]:
            self._record.append(RecordEntry(self.format(action) if action is not None else None, drawn))
        return list(self._record)

    # --- notation -----------------------------------------------------------------------------------

    def parse(self, text: str) -> A.Action:
        """An action from its notation; IllegalAction (with the reason) for text that is not an action."""
        board = self.state.board
        parse_hex: Callable[[str], Hex] = board.parse if board is not None else _no_board
        try:
            return A.parse(text, parse_hex)
        except A.NotationError as error:
            raise IllegalAction(f"'{text}': {error}") from None

    def format(self, action: A.Action) -> str:
        board = self.state.board
        return A.format_action(action, board.label if board is not None else str)

    def label(self, hex_: Hex) -> str:
        return self.state.board.label(hex_) if self.state.board is not None else str(hex_)

    def copy(self, record: bool = True, dice: Dice | None = None) -> Game:
        """An independent copy (state cloned; dice forked so the copy never disturbs this game's dice).

        `record=False` leaves the record behind (the copy's starts empty): a search that plays many
        copies forward never reads it, and copying it costs more the longer the game. `dice`: the
        copy's dice instead of a fork of this game's (a playout gives its copy dice of its own, and
        seeding a fork it would throw away at once cost about 3% of a random playout).
        """
        twin = Game.__new__(Game)
        twin.state = self.state.clone()
        twin.dice = self.dice.fork() if dice is None else dice
        twin.header = dict(self.header)
        twin._log = list(self._log) if record else []
        twin._record = list(self._record) if record else []
        twin.load_board = self.load_board
        twin._pending = self._pending
        return twin


def _unit_ids(
    terms: Terms, armies: list[list[StatCard]], catalogue: Mapping[str, StatCard], scheme: int
) -> tuple[Terms, list[list[str]], int]:
    """The terms (their presets' ids made unique among the presets), the armies' unit ids, and the
    record format the game is written in: 1 when its ids are the same under format 1's numbering
    (a file older versions read, and the same bytes as before), else 2 (`minis.content.unit_ids`)."""
    given = [preset.id for preset in terms.presets]
    old, old_presets = unit_id_schemes.old_ids(armies, [(p.id, p.card) for p in terms.presets])
    if scheme == unit_id_schemes.OLD_IDS:
        return terms, old, 1
    presets = unit_id_schemes.preset_ids(given)
    names = [
        unit_id_schemes.army_ids(cards, side, presets, catalogue)
        for cards, side in zip(armies, (Side.AXIS, Side.ALLIES), strict=True)
    ]
    if presets != given:  # terms made by hand with two presets of one id (a scenario file has none)
        unique = (attrs.evolve(p, id=i) for p, i in zip(terms.presets, presets, strict=True))
        terms = attrs.evolve(terms, presets=tuple(unique))
    return terms, names, 1 if (old, old_presets) == (names, presets) else 2


def _no_board(text: str) -> Hex:
    raise ValueError(f"there is no battle map yet, so '{text}' names no hex")


def _check_unit(state: GameState, unit: Unit) -> None:
    board = state.battle.board
    assert board is not None
    if unit.removed:
        return
    if unit.hex is None and unit.card.is_aircraft:
        return  # an aircraft off the map (it flies in the flight phase)
    if unit.hex is None:
        raise ValueError(f"unit '{unit.id}' has no hex")
    if not board.is_playable(unit.hex):
        raise ValueError(f"unit '{unit.id}' is not on a playable hex")
    if unit.card.is_vehicle and unit.facing is None:
        raise ValueError(f"Vehicle '{unit.id}' needs a facing")
    if unit.carried_by is not None:
        carrier = state.units.get(unit.carried_by)
        if carrier is None:
            raise ValueError(f"unit '{unit.id}' is carried by an unknown unit '{unit.carried_by}'")
        if carrier.hex != unit.hex:
            raise ValueError(f"unit '{unit.id}' is boarded on '{carrier.id}' but not in its hex")


def replay(game: Game, entries: Sequence[RecordEntry]) -> Game:
    """Apply recorded actions with their dice to `game` (which must use a scripted dice source)."""
    for entry in entries:
        game.push_dice(entry.dice)
        if entry.action is not None:
            game.apply(entry.action)
    return game
