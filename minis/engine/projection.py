"""What a side may see: a battle rebuilt from the parts a player at the table may know.

A side's projection is a new `Game` built by listing what the side may see, never a copy of the game
with its secrets deleted, so anything added to the game later stays out of it until it is listed here.
The bots decide from it (`minis.ai.bot.view`); a network server sends it to each player.

What a side may see (docs/engine.md, "What a side may see"):

- Everything public: the battle's terms, the rule set, the map and the objective, the turn, the phase,
  who decides, the ends, the winner, the bookkeeping of what happened on the table (activations,
  defensive fire, broken roads, losses, abilities used) and the scenario's preset units and obstacles.
- Its own army: every unit and obstacle card, placed or not, its name and card list.
- The other army only as the rules reveal it: armies are built in secret and revealed as they deploy
  (rulebook, "Setting up"). During set-up the other side's units still off the map and its obstacles
  not yet placed are not seen, nor is their number, its army's card list, name and cards fingerprint;
  once the battle starts every unit has been revealed (those off the map included: aircraft, Heroes,
  Paratroopers).
- The abilities' hooks (`AbilityRegistry`) only for the card kinds it may see: the projection's
  battle has a registry of its own whose memo is filled from the visible cards.
- Never a dice seed, a dice source's state or the record with its dice: the projection's dice are
  the ones its caller gives it (a bot's own seed), and the header has no `seed`.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from minis import abilities
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.battle import Battle
from minis.game import Game
from minis.rules import obstacles
from minis.state import GameState, Phase, Unit

__all__ = [
    "BOTH_ARMIES_HEADER",
    "PUBLIC_HEADER",
    "SECRET_HEADER",
    "hidden_obstacles",
    "hidden_units",
    "project",
    "project_header",
    "project_state",
]

#: Header entries every side may see (the seed never: it tells every die to come). Each army's card
#: list and name are its side's own, and the other's once it is revealed; the cards' fingerprint is
#: made from both armies' cards, so it too waits for the other army, and so does the record format
#: (1 or 2: whether the ids would be the same under format 1's numbering, which looked at both armies).
PUBLIC_HEADER = (
    "start",
    "scenario",
    "attacker",
    "configuration",
    "turn_limit",
    "scenario_file",
    "maps_version",
    "rules",
    "rule_options",
    "computer",
    "strength",
    "ended",  # a battle a player resigned or both agreed to draw (a network battle's record)
    "winner",
)
#: Header entries made from both armies: seen once neither army hides anything.
BOTH_ARMIES_HEADER = ("format", "cards_version")
#: Header entries no side sees (listed so that a test finds every record key decided on).
SECRET_HEADER = ("seed",)


def hidden_units(state: GameState, side: Side) -> frozenset[str]:
    """The units `side` may not see yet: during set-up, the other army's units not on the map.

    Armies are chosen in secret and revealed as they deploy (rulebook, "Setting up"); once the
    battle has started every unit has been seen. Preset units are the scenario's, known to both.
    """
    if state.phase is not Phase.SETUP:
        return frozenset()
    presets = state.battle.presets
    return frozenset(
        unit.id
        for unit in state.units.values()
        if unit.side is not side and unit.hex is None and not unit.removed and unit.id not in presets
    )


def hidden_obstacles(state: GameState, side: Side) -> frozenset[str]:
    """The other side's obstacles `side` may not see: those not yet placed (they are placed openly)."""
    return frozenset(o.id for o in obstacles.all_obstacles(state) if o.side is not side and o.hex is None)


def _visible_units(state: GameState, side: Side) -> dict[str, Unit]:
    """The units `side` may see, in the game's order: its own, the presets, the other army's once
    revealed (on the map, or every one once set-up is over)."""
    units = state.units
    if state.phase is not Phase.SETUP:
        return units.copy()
    presets = state.battle.presets
    return {
        uid: unit
        for uid, unit in units.items()
        if unit.side is side or unit.hex is not None or unit.removed or uid in presets
    }


def _of_a_seen_unit(key: str, seen: Mapping[str, Unit]) -> bool:
    """A note kept under the name of a unit the side sees (`NAME:UNIT`: Coordinated Fire's)."""
    _, colon, unit_id = key.partition(":")
    return bool(colon) and unit_id in seen


def _project_bookkeeping(new: GameState, state: GameState, side: Side, seen: Mapping[str, Unit]) -> None:
    """The rules' bookkeeping `side` may see, field by field. From turn 1 on every unit and obstacle has
    been revealed and all of it is the table's public bookkeeping. During set-up: the obstacles placed and
    its own; those destroyed, the sides still to move before turn 1, the unit acting, who fired at the
    step under way and the hexes overstacked; the uses and notes of the units it sees; nothing else."""
    new.obstacles = tuple(o for o in state.obstacles if o.side is side or o.hex is not None)
    setup = state.phase is Phase.SETUP
    new.obstacles_gone = state.obstacles_gone
    new.activation = state.activation
    new.step_fired = state.step_fired
    new.overstacked = state.overstacked
    new.before_turn_1 = state.before_turn_1
    if setup:
        new.used = frozenset(u for u in state.used if u[1] in seen)
        new.overheated = frozenset(u for u in state.overheated if u[1] in seen)
        new.notes = {name: note for name, note in state.notes.items() if _of_a_seen_unit(name, seen)}
    else:
        new.used = state.used
        new.overheated = state.overheated
        new.notes = state.notes
    # The rest is bookkeeping of the battle's turns, seen once set-up is over.
    new.landed = None if setup else state.landed
    new.reaction = None if setup else state.reaction
    new.declined = () if setup else state.declined
    new.grounded = () if setup else state.grounded
    new.exited = () if setup else state.exited
    new.smoke = None if setup else state.smoke
    new.overrun = None if setup else state.overrun
    new.improvised = () if setup else state.improvised
    new.rapid_fire_held = None if setup else state.rapid_fire_held


def project_state(state: GameState, side: Side) -> GameState:
    """The state as `side` may know it, built field by field from what it may see (a test checks
    that every field of `GameState` is listed here)."""
    seen = _visible_units(state, side)
    complete = len(seen) == len(state.units)
    new = GameState.__new__(GameState)
    _project_bookkeeping(new, state, side, seen)
    new.battle = _project_battle(state.battle, side, seen, new.obstacles, complete)
    new.units = seen
    new.turn = state.turn
    new.phase = state.phase
    new.stage = state.stage
    new.first = state.first
    new.active = state.active
    new.chooser = state.chooser
    new.deploying = state.deploying
    new.ends = state.ends.copy()
    new.objective = state.objective
    new.winner = state.winner
    new.activated = state.activated.copy() if complete else {u for u in state.activated if u in seen}
    new.fired = state.fired.copy() if complete else {u: n for u, n in state.fired.items() if u in seen}
    new.road_bonus = state.road_bonus.copy() if complete else {u for u in state.road_bonus if u in seen}
    move = state.move
    new.move = move.but() if move is not None and move.unit in seen else None
    new.placing = state.placing if state.placing in seen else None
    new.broken_roads = state.broken_roads
    new.entry_counter = state.entry_counter
    new.losses = state.losses
    return new


def project_header(header: Mapping[str, object], side: Side, revealed: bool) -> dict[str, object]:
    """The header entries `side` may see: the public ones, its own army's, the other's once `revealed`."""
    allowed = [*PUBLIC_HEADER, side.value, f"{side.value}_name"]
    if revealed:
        allowed += [side.other.value, f"{side.other.value}_name", *BOTH_ARMIES_HEADER]
    return {key: header[key] for key in allowed if key in header}


def project(game: Game, side: Side, dice: Dice) -> Game:
    """`side`'s projection of `game`: its state and header as the side may know them, `dice` its dice
    (the caller's own: never derived from the game's), no record and nothing waiting for dice."""
    state = game.state
    revealed = not hidden_units(state, side) and not hidden_obstacles(state, side)
    twin = Game.__new__(Game)
    twin.state = project_state(state, side)
    twin.dice = dice
    twin.header = project_header(game.header, side, revealed)
    twin._log = []
    twin._record = []
    twin.load_board = game.load_board
    twin._pending = None
    return twin


# --- the projected battle ----------------------------------------------------------------------------

#: Projected battles by (true battle, the units seen): a search makes a projection at every action of
#: its playouts, so the battle (its hooks worked out per card) is made once per battle and units seen.
_BATTLES: OrderedDict[tuple[int, Side, tuple[str, ...]], tuple[Battle, Battle]] = OrderedDict()
_BATTLES_KEPT = 16
#: The battles made here (by id), so a projection of a projection may keep its battle (and the caches
#: keyed by it: the heuristic's evaluators) when it sees all of it.
_MADE: weakref.WeakValueDictionary[int, Battle] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()


def _project_battle(
    battle: Battle,
    side: Side,
    seen: Mapping[str, Unit],
    seen_obstacles: Iterable[obstacles.Obstacle],
    complete: bool,
) -> Battle:
    """The battle for the units seen, with an ability registry whose memo holds only the cards seen (the
    true battle's registry is shared by every game of the process and knows every card it was asked)."""
    cards = {unit.card.id: unit.card for unit in seen.values()}
    for obstacle in seen_obstacles:
        cards[obstacle.card.id] = obstacle.card
    for preset in battle.terms.presets:  # the scenario's own cards (its obstacles too) are public
        cards[preset.card.id] = preset.card
    if complete and _MADE.get(id(battle)) is battle and abilities.registry(battle).knows_only(cards):
        return battle  # a projection's own battle, every unit seen (a search's playout): kept as it is
    key = (id(battle), side, tuple(seen))
    with _LOCK:
        found = _BATTLES.get(key)
        if found is not None and found[0] is battle:
            _BATTLES.move_to_end(key)
            return found[1]
    registry = abilities.registry(battle).only(cards.values())
    projected = Battle.make(
        battle.board,
        seen.values(),
        battle.terms,
        registry,
        battle.configuration,
        battle.presets,
        battle.fixed,
    )
    with _LOCK:
        _MADE[id(projected)] = projected
        _BATTLES[key] = (battle, projected)  # the true battle is kept, so its id is not reused meanwhile
        while len(_BATTLES) > _BATTLES_KEPT:
            _BATTLES.popitem(last=False)
    return projected
