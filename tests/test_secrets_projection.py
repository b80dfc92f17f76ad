"""What a side may see (issue 33): a side's view holds nothing of the hidden army and no dice seed.

Each test walks the view (every object reachable from it, the way `gc` sees them) and pickles it the
way the search ships it to its workers, and searches both for the other army's hidden units and
obstacles (ids, cards, their number) and for the game's dice seed and dice state, at every set-up
decision and through the battle, for several armies, rule sets and scenarios.
"""

from __future__ import annotations

import gc
import io
import pickle
import random
import types
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from minis.ai.bot import view
from minis.ai.playout import _DISPATCH
from minis.ai.random_bot import RandomBot
from minis.army import Army, load_army
from minis.base.sides import Side
from minis.board import Board
from minis.cards import StatCard
from minis.content.rule_sets import named
from minis.dice import SEED_BITS, Dice
from minis.engine import actions as A
from minis.engine import projection
from minis.engine.ability_api import AbilityRegistry
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.game import Game
from minis.record import parse_record, record_text
from minis.rules import obstacles
from minis.rules.obstacles import Obstacle
from minis.state import BattleKind, GameState, Phase, Unit

ARMIES = Path(__file__).resolve().parent.parent / "armies"
SAMPLE_AXIS = load_army(ARMIES / "sample-axis.toml")
SAMPLE_ALLIES = load_army(ARMIES / "sample-allies.toml")
#: Armies with obstacles (a pillbox on each side: the card both may field), aircraft and a Hero.
AXIS_FORTIFIED = Army(
    "Fortified Axis",
    Side.AXIS,
    units=("mauser-kar-98k", "mauser-kar-98k", "pak-38-anti-tank-gun", "bf-110-c", "pillbox", "minefield"),
)
ALLIES_FORTIFIED = Army(
    "Fortified Allies",
    Side.ALLIES,
    units=("m1-garand-rifle", "m4a1-sherman", "resourceful-hero", "barbed-wire", "tank-obstacle", "pillbox"),
)


def _seed(index: int) -> int:
    """A game's dice seed as big as a real game's (a small one would be found in any view by chance)."""
    return random.Random(index).getrandbits(SEED_BITS)


def _games(first: int = 0) -> Iterator[tuple[str, Game]]:
    """Games of several kinds, each seeded with a 128-bit seed (kept in the header, as a real game's)."""
    n = first

    def dice() -> Dice:
        nonlocal n
        n += 1
        return Dice(seed=_seed(n))

    yield "standard", Game.new(SAMPLE_AXIS, SAMPLE_ALLIES, dice=dice())
    yield (
        "config 3, 2008",
        Game.new(SAMPLE_AXIS, SAMPLE_ALLIES, configuration=3, dice=dice(), rules=named("2008")),
    )
    yield "fortified", Game.new(AXIS_FORTIFIED, ALLIES_FORTIFIED, configuration=1, dice=dice())
    yield (
        "fortified assault, 2010",
        Game.new(
            AXIS_FORTIFIED,
            ALLIES_FORTIFIED,
            scenario=BattleKind.ASSAULT,
            attacker=Side.ALLIES,
            dice=dice(),
            rules=named("2010"),
        ),
    )
    river = Army(
        "Far bank", Side.AXIS, units=("mauser-kar-98k", "pak-38-anti-tank-gun", "barbed-wire", "minefield")
    )
    yield (
        "river crossing",
        start_game(
            load_scenario(SCENARIOS_DIR / "river-crossing.toml"),
            river,
            Army("Assault wave", Side.ALLIES, units=("m1-garand-rifle", "m1-garand-rifle")),
            dice=dice(),
        ),
    )
    from test_scenario_airborne import armies

    axis, allies = armies()
    yield (
        "airborne drop",
        start_game(load_scenario(SCENARIOS_DIR / "airborne-drop.toml"), axis, allies, dice=dice()),
    )


# --- what a side may not know, worked out here from the rules (not from the projection) -------------


@attrs.frozen
class Secrets:
    unit_ids: frozenset[str]
    obstacle_ids: frozenset[str]
    card_ids: frozenset[str]  # cards of the hidden units and obstacles that the side sees nowhere else
    seen_cards: frozenset[str]  # the cards it sees (an obstacle's id may be its card's: "pillbox")
    seen_units: int
    seed: int | None
    rng_state: object


def secrets_of(game: Game, side: Side) -> Secrets:
    state = game.state
    setup = state.phase is Phase.SETUP
    hidden = {
        u.id: u.card.id
        for u in state.units.values()
        if setup
        and u.side is not side
        and u.hex is None
        and not u.removed
        and u.id not in state.battle.presets
    }
    hidden_obstacles = {
        o.id: o.card.id for o in obstacles.all_obstacles(state) if o.side is not side and o.hex is None
    }
    seen_cards = {u.card.id for u in state.units.values() if u.id not in hidden}
    seen_cards |= {o.card.id for o in obstacles.all_obstacles(state) if o.id not in hidden_obstacles}
    seen_cards |= {p.card.id for p in state.battle.terms.presets}
    seed = game.header.get("seed")
    assert isinstance(seed, int) and seed == game.dice.seed
    rng = game.dice._rng
    return Secrets(
        frozenset(hidden),
        frozenset(hidden_obstacles),
        frozenset((set(hidden.values()) | set(hidden_obstacles.values())) - seen_cards),
        frozenset(seen_cards),
        len(state.units) - len(hidden),
        seed,
        rng.getstate() if rng is not None else None,
    )


@attrs.define
class Reachable:
    """Everything reachable from a view that could carry a secret."""

    strings: set[str] = attrs.Factory(set)
    ints: set[int] = attrs.Factory(set)
    units: set[str] = attrs.Factory(set)
    obstacles: set[str] = attrs.Factory(set)
    cards: set[str] = attrs.Factory(set)
    rng_states: list[object] = attrs.Factory(list)


def walk(root: object) -> Reachable:
    """Every object reachable from `root` (`gc.get_referents`), not into classes, modules or functions'
    globals (functions: their closures and defaults), nor the rule set's table of ability classes (every
    ability's id, the same in every game), nor a board's speed caches (tables of the public map that
    `Board.__getstate__` leaves out of every pickle; walking them cost seconds a view)."""
    found = Reachable()
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.CodeType):
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            found.strings.add(obj)
            continue
        if isinstance(obj, bool):
            continue
        if isinstance(obj, int):
            found.ints.add(obj)
            continue
        if isinstance(obj, Unit):
            found.units.add(obj.id)
        elif isinstance(obj, Obstacle):
            found.obstacles.add(obj.id)
        elif isinstance(obj, StatCard):
            found.cards.add(obj.id)
        elif isinstance(obj, random.Random):
            found.rng_states.append(obj.getstate())
        elif isinstance(obj, AbilityRegistry):
            seen.add(id(obj.classes))
        elif isinstance(obj, Board):
            seen.add(id(obj._cache))
        if isinstance(obj, types.FunctionType):
            stack.extend(cell.cell_contents for cell in obj.__closure__ or ())
            stack.extend(obj.__defaults__ or ())
            continue
        stack.extend(gc.get_referents(obj))
    return found


def shipped(game: Game) -> bytes:
    """The view as bytes, the way the search sends it to a worker, with its dice."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump((game.state, game.header, game.dice))
    return buffer.getvalue()


def leaks(game: Game, side: Side, seen: Game) -> list[str]:
    """What `seen` (a view of `game` for `side`) holds that `side` may not know."""
    secret = secrets_of(game, side)
    found = walk(seen)
    problems = []
    words = found.strings - secret.seen_cards  # a hidden unit's id that is a card id seen tells nothing
    if secret.unit_ids & (found.units | words):
        problems.append(f"hidden units {sorted(secret.unit_ids & (found.units | words))}")
    if secret.obstacle_ids & (found.obstacles | words):
        problems.append(f"hidden obstacles {sorted(secret.obstacle_ids & (found.obstacles | words))}")
    if secret.card_ids & (found.cards | found.strings):
        problems.append(f"hidden cards {sorted(secret.card_ids & (found.cards | found.strings))}")
    if len(seen.state.units) != secret.seen_units:
        problems.append(f"{len(seen.state.units)} units, where {secret.seen_units} are seen")
    if secret.unit_ids and any(key in seen.header for key in (side.other.value, "cards_version")):
        problems.append("the hidden army's card list")
    seed = secret.seed
    assert seed is not None
    data = shipped(seen)
    if seed in found.ints or any(str(seed) in text for text in found.strings):
        problems.append("the seed")
    if (
        str(seed).encode() in data
        or seed.to_bytes((seed.bit_length() + 8) // 8, "little", signed=True) in data
    ):
        problems.append("the seed in the pickle")
    if secret.rng_state is not None and secret.rng_state in found.rng_states:
        problems.append("the dice's state")
    upcoming = game.dice.fork()  # the game's next dice: no view rolls them
    coming = [upcoming.roll() for _ in range(40)]
    if [seen.dice.roll() for _ in range(40)] == coming:
        problems.append("the dice to come")
    return problems


# --- the tests --------------------------------------------------------------------------------------


def _decisions(game: Game, limit: int = 3000) -> Iterator[Side]:
    """Play `game` with a random bot (from its views), yielding before each decision."""
    bot = RandomBot(7)
    draw = random.Random(11)
    for _ in range(limit):
        side = game.decider()
        if side is None:
            return
        yield side
        game.apply(bot.choose(view(game, side, draw.randrange(2**63))))


@pytest.mark.parametrize("first", [0, 100, 200])
@pytest.mark.parametrize("name", [name for name, _ in _games()])
def test_no_view_holds_the_hidden_army_or_the_seed(name: str, first: int) -> None:
    game = dict(_games(first))[name]
    hidden_seen = obstacles_seen = 0
    for count, side in enumerate(_decisions(game)):
        setup = game.state.phase is Phase.SETUP
        if not setup and count % 5:
            continue  # through the battle, every 5th decision (the walk takes a while)
        for who in (side, side.other) if setup else (side,):
            seen = view(game, who, seed=count)
            assert not leaks(game, who, seen), (name, count, who, leaks(game, who, seen))
            secret = secrets_of(game, who)
            hidden_seen += bool(secret.unit_ids)
            obstacles_seen += bool(secret.obstacle_ids)
    assert hidden_seen  # the games did hide something
    if name in ("fortified", "fortified assault, 2010"):
        assert obstacles_seen


def test_the_old_leaks_are_found() -> None:
    """The search finds what the old view left in: the header's seed, the hidden obstacles in the
    flags, the hidden cards in the registry's memo (a view made by copying and deleting)."""
    game = Game.new(AXIS_FORTIFIED, ALLIES_FORTIFIED, configuration=1, dice=Dice(seed=_seed(99)))
    for side in _decisions(game):
        if obstacles.placing(game.state) and side is Side.AXIS:
            break
    twin = game.copy(record=False)
    twin.dice = Dice(seed=5)
    twin.state.units = {u.id: u for u in twin.state.units.values() if u.side is Side.AXIS}
    found = leaks(game, Side.AXIS, twin)
    assert "the seed" in found and "the seed in the pickle" in found
    assert any(p.startswith("hidden obstacles") for p in found)
    assert any(p.startswith("hidden cards") for p in found)  # the memo (and the battle's card table)


def test_a_view_does_not_depend_on_the_seed() -> None:
    """Two games at the same position with different seeds (and dice drawn) give the same view."""
    game = Game.new(AXIS_FORTIFIED, ALLIES_FORTIFIED, configuration=1, dice=Dice(seed=_seed(1)))
    checked = 0
    for count, _side in enumerate(_decisions(game, 200)):
        if count % 7:
            continue
        other = game.copy(record=False)
        other.dice = Dice(seed=_seed(1000 + count))
        other.dice.skip(count)
        other.header["seed"] = other.dice.seed
        for who in Side:
            assert shipped(view(game, who, seed=3)) == shipped(view(other, who, seed=3))
        checked += 1
    assert checked > 5


@pytest.mark.parametrize(
    ("small", "large", "least"),
    [
        (("m1-garand-rifle", "tank-obstacle"), ("m1-garand-rifle", "kv-1", "bazooka", "barbed-wire"), 2),
        (("m1-garand-rifle", "tank-obstacle"), ("m1-garand-rifle", "kv-1", "bazooka", "tank-obstacle"), 4),
    ],
)
def test_a_view_does_not_depend_on_the_hidden_army(
    small: tuple[str, ...], large: tuple[str, ...], least: int
) -> None:
    """The same position but for what the Allies keep hidden (more units, another obstacle): the
    Axis views are the same until the Allies reveal them (an obstacle placed, a unit deployed)."""
    axis = Army("a", Side.AXIS, units=("mauser-kar-98k", "pak-38-anti-tank-gun", "minefield"))
    games = [
        Game.new(axis, Army("b", Side.ALLIES, units=units), configuration=2, dice=Dice(seed=_seed(5)))
        for units in (small, large)
    ]
    compared = 0
    while all(g.state.phase is Phase.SETUP for g in games):
        side = games[0].decider()
        assert side is games[1].decider()
        if side is Side.ALLIES:  # the set-up choices, the same in both games: the Axis goes first
            legal = games[0].legal_actions()
            if isinstance(legal[0], A.Deploy | A.Ready) and not obstacles.placing(games[0].state):
                break  # the Allies deploy their units: the armies differ from here
            action = A.First(Side.AXIS) if A.First(Side.AXIS) in legal else legal[0]
            if games[1].is_legal(action) is not None:
                break  # the Allies place an obstacle of another kind: the views differ from here
        else:
            views = [shipped(view(g, Side.AXIS, seed=1)) for g in games]
            assert views[0] == views[1]
            compared += 1
            action = RandomBot(compared).choose(view(games[0], Side.AXIS, seed=2))
        for g in games:
            g.apply(action)
    assert compared >= least, compared  # the set-up choices, the Axis obstacle (and units: 4)


def test_the_projection_lists_every_field_of_the_state() -> None:
    """A new `GameState` field must be listed by the projection (else it would be left unset)."""
    game = Game.new(AXIS_FORTIFIED, ALLIES_FORTIFIED, configuration=1, dice=Dice(seed=_seed(2)))
    seen = projection.project_state(game.state, Side.AXIS)
    for field in attrs.fields(GameState):
        getattr(seen, field.name)  # AttributeError for a field the projection never set


def test_every_header_key_of_a_record_is_decided_on() -> None:
    """A new record header key must be listed as public, an army's, both armies' or secret."""
    from minis.record import HEADER_KEYS

    armies = {side.value for side in Side} | {f"{side.value}_name" for side in Side}
    listed = {*projection.PUBLIC_HEADER, *projection.BOTH_ARMIES_HEADER, *projection.SECRET_HEADER, *armies}
    assert set(HEADER_KEYS) <= listed, set(HEADER_KEYS) - listed
    assert "seed" not in {*projection.PUBLIC_HEADER, *projection.BOTH_ARMIES_HEADER}


def test_a_seed_drawn_for_a_real_game_has_128_bits_and_records_keep_it() -> None:
    seeds = [Dice().seed for _ in range(8)]
    assert all(isinstance(s, int) for s in seeds)
    assert max(s.bit_length() for s in seeds if s is not None) > 100  # 32-bit seeds: at most 32
    game = Game.new(SAMPLE_AXIS, SAMPLE_ALLIES, configuration=1)
    seed = game.header["seed"]
    assert isinstance(seed, int) and seed.bit_length() > 64
    for _ in _decisions(game):
        pass
    assert game.over
    assert parse_record(record_text(game)).header["seed"] == seed  # written whole, read back whole


def test_a_record_with_a_small_seed_still_replays() -> None:
    from minis.record import replay_record

    game = Game.new(SAMPLE_AXIS, SAMPLE_ALLIES, configuration=1, dice=Dice(seed=1234))
    for _ in _decisions(game):
        pass
    record = parse_record(record_text(game))
    assert record.header["seed"] == 1234
    again = replay_record(record, resume=False)
    assert again.state.snapshot() == game.state.snapshot()


def test_the_window_hands_the_computer_and_its_hints_a_projection() -> None:
    """The window's computer player decides (and hints) from the side's projection: no seed, no
    hidden army (the window draws its new battles' dice with a 128-bit seed)."""
    from minis.ui.computer import ComputerPlayer, InlineExecutor

    class Watching:
        name = "watching"

        def __init__(self) -> None:
            self.given: list[Game] = []

        def choose(self, game: Game) -> A.Action:
            self.given.append(game)
            return RandomBot(1).choose(game)

    game = Game.new(AXIS_FORTIFIED, ALLIES_FORTIFIED, configuration=1, dice=Dice())
    bot, advisor = Watching(), Watching()
    time = iter(range(0, 10**9, 10))
    player = ComputerPlayer(
        {Side.AXIS: bot}, executor=InlineExecutor(), clock=lambda: next(time), advisor=advisor
    )
    other = RandomBot(2)
    for _ in range(40):
        side = game.decider()
        if side is Side.AXIS:
            while player.tick(game, lambda action: bool(game.apply(action) or True)) is None:
                pass
        elif side is Side.ALLIES:
            assert player.hint(game, side) is not None
            game.apply(other.choose(view(game, side, 1)))
    for watcher in (bot, advisor):
        assert watcher.given
        for seen in watcher.given:
            assert "seed" not in seen.header
            assert seen.dice.seed != game.dice.seed
    assert any(_no_allied_unit(g) for g in bot.given)


def _no_allied_unit(seen: Game) -> bool:
    """True if an Axis view left out some Allied unit (set-up: the Allies' army was still hidden)."""
    return not any(u.side is Side.ALLIES for u in seen.state.units.values())


# --- ids that depend only on public facts and the side's own army (minis.content.unit_ids) ------------------


def _obstacle_ids(game: Game, side: Side) -> set[str]:
    return {o.id for o in obstacles.all_obstacles(view(game, side, seed=1).state) if o.side is side}


def test_own_ids_do_not_depend_on_the_other_army() -> None:
    """An obstacle card both sides may field: the Allied copy is `pillbox#2` when the Axis army has one
    (it is numbered after the Axis army's), so the Allies' own ids tell them what the Axis hides."""
    allies = Army("b", Side.ALLIES, units=("m1-garand-rifle", "pillbox"))
    ids = []
    for axis_units in (("mauser-kar-98k",), ("mauser-kar-98k", "pillbox")):
        game = Game.new(
            Army("a", Side.AXIS, units=axis_units), allies, configuration=1, dice=Dice(seed=_seed(3))
        )
        ids.append(_obstacle_ids(game, Side.ALLIES))
    assert ids[0] == ids[1]


def test_preset_ids_do_not_depend_on_the_hidden_army() -> None:
    """River Crossing's preset DUKW is `dukw#2` when the Allied army has a DUKW of its own: the Axis sees
    the preset's id before the Allies deploy."""
    scenario = load_scenario(SCENARIOS_DIR / "river-crossing.toml")
    axis = Army("a", Side.AXIS, units=("mauser-kar-98k",))
    presets = []
    for allied_units in (("m1-garand-rifle",), ("m1-garand-rifle", "dukw")):
        allies = Army("b", Side.ALLIES, units=allied_units)
        game = start_game(scenario, axis, allies, dice=Dice(seed=_seed(4)), check_armies=False)
        seen = view(game, Side.AXIS, seed=1)
        presets.append(sorted(seen.state.battle.presets))
    assert presets[0] == presets[1]


def _implemented(side: Side) -> list[StatCard]:
    from minis.cards import card_catalogue
    from minis.engine.ability_loader import standard_abilities

    registry, found = standard_abilities(), []
    for card in card_catalogue().values():
        try:
            registry.require_implemented(card)
        except ValueError:
            continue
        if card.serves(side):
            found.append(card)
    return sorted(found, key=lambda c: c.id)


def _own(game: Game, side: Side) -> tuple[object, ...]:
    """What `side` sees of its own ids at the start (its units and obstacles, the presets) and the header."""
    seen = view(game, side, seed=1)
    units = sorted((u.id, u.card.id) for u in seen.state.units.values() if u.side is side)
    placed = sorted((o.id, o.card.id) for o in obstacles.all_obstacles(seen.state) if o.side is side)
    return units, placed, sorted(seen.state.battle.presets), seen.header


def test_a_sides_own_ids_are_the_same_whatever_the_other_army_holds() -> None:
    """Random armies, with the cards of no nation (obstacles, depots) and cards named like River
    Crossing's presets (`dukw`, `higgins-boat`) often in them: each side's own ids, the presets' and its
    header are the same against two different other armies, in a Standard battle and in River Crossing."""
    river = load_scenario(SCENARIOS_DIR / "river-crossing.toml")
    pools = {side: _implemented(side) for side in Side}
    shared = [c.id for c in pools[Side.AXIS] if c.side is None]
    assert shared
    tricky = {Side.AXIS: shared, Side.ALLIES: [*shared, "dukw", "higgins-boat", "m1-garand-rifle"]}

    def army(rng: random.Random, side: Side) -> Army:
        units = [c.id for c in rng.sample(pools[side], rng.randint(0, 4))] + rng.choices(tricky[side], k=3)
        rng.shuffle(units)
        return Army(side.title, side, units=tuple(units))

    for trial in range(12):
        rng = random.Random(trial)
        for side in Side:
            own = army(rng, side)
            seen = set()
            for _ in range(2):
                other = army(rng, side.other)
                axis, allies = (own, other) if side is Side.AXIS else (other, own)
                standard = Game.new(axis, allies, configuration=1, dice=Dice(seed=_seed(trial)))
                crossing = start_game(river, axis, allies, dice=Dice(seed=_seed(trial)), check_armies=False)
                seen.add(repr((_own(standard, side), _own(crossing, side))))
            assert len(seen) == 1, (side, own.units)


def test_the_editor_shows_the_presets_under_the_ids_the_engine_gives_them() -> None:
    """The scenario editor's preset ids (`Scenario.preset_units`) are the battle's, whatever the armies
    hold: River Crossing (an Axis pillbox among its presets) against armies with a DUKW, a Higgins boat
    and pillboxes of their own, which are numbered past the presets' ids."""
    river = load_scenario(SCENARIOS_DIR / "river-crossing.toml")
    board = river.board
    assert board is not None
    allies = Army("b", Side.ALLIES, units=("dukw", "higgins-boat", "m1-garand-rifle", "pillbox"))
    axis = Army("a", Side.AXIS, units=("mauser-kar-98k", "pillbox"))
    game = start_game(river, axis, allies, dice=Dice(seed=_seed(5)), check_armies=False)
    shown = {(unit_id, card_id) for unit_id, _, card_id, _, _ in river.preset_units(board)}
    state = game.state
    everything = {(u.id, u.card.id) for u in state.units.values()}
    everything |= {(o.id, o.card.id) for o in obstacles.all_obstacles(state)}
    assert shown <= everything and {("dukw", "dukw"), ("pillbox", "pillbox")} <= shown
    army = " ".join(unit_id for unit_id, _ in sorted(everything - shown))
    assert army == "allied-pillbox dukw#2 higgins-boat m1-garand-rifle mauser-kar-98k pillbox#2"


def test_the_allied_mark_is_never_a_cards_id() -> None:
    """`allied-pillbox` is marked again if some card were called so: the Axis could field that card."""
    from minis.content.unit_ids import marked, preset_ids

    assert marked("pillbox", {"pillbox"}) == "allied-pillbox"
    assert marked("pillbox", {"allied-pillbox"}) == "allied-allied-pillbox"
    assert preset_ids(["boat", "boat", "boat#2", "rifle"]) == ["boat", "boat#2", "boat#2#2", "rifle"]
