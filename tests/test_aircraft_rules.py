"""Aircraft at the engine level (issue 19): the `place` notation, records, refusals, rules-test file
errors and the listing of placements. The rules themselves are rules-test files in tests/rules/aircraft/
(docs/aircraft.md); these tests cover what a rules-test file can't see.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from engine_support import board

from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.events import Event
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules import legal
from minis.rules.errors import IllegalAction
from minis.rulestest import load_rules_test
from minis.state import Phase, Stage, Unit

BOARD = board("""
C F T W C C
 C C C C C
C C C C C C
""")
CARDS = card_catalogue()
AIR_PHASES = {Phase.FLIGHT.value, Phase.AIRSTRIKE.value}

#: Small armies with aircraft on both sides (plain aircraft, an Antiair aircraft, a ground Antiair gun).
AXIS_AIR = Army(
    "Axis with aircraft",
    Side.AXIS,
    units=("panzer-iv-ausf-g", "mauser-kar-98k", "mauser-kar-98k", "bf-110-c", "messerschmitt-me-110"),
)
ALLIES_AIR = Army(
    "Allies with aircraft",
    Side.ALLIES,
    units=("m4a1-sherman", "smle-no-4-rifleman", "40mm-bofors-l60", "guards-yak-1", "fm-1-wildcat"),
)
AXIS_GROUND = Army("Axis", Side.AXIS, units=("panzer-iv-ausf-g", "mauser-kar-98k", "mauser-kar-98k"))
ALLIES_GROUND = Army(
    "Allies", Side.ALLIES, units=("m4a1-sherman", "smle-no-4-rifleman", "smle-no-4-rifleman")
)


def unit(unit_id: str, card: str, side: Side, at: str | None) -> Unit:
    return Unit(unit_id, CARDS[card], side, hex=BOARD.parse(at) if at else None)


def flight_game() -> Game:
    """The Axis flight phase: two Axis aircraft off the map, a disrupted one, an Allied one over C6."""
    units = [
        unit("zeke", "bf-110-c", Side.AXIS, None),
        unit("zeke2", "bf-110-c", Side.AXIS, None),
        Unit("grounded", CARDS["bf-110-c"], Side.AXIS, disrupted=True),
        unit("yak", "guards-yak-1", Side.ALLIES, "C6"),
        unit("rifle", "smle-no-4-rifleman", Side.ALLIES, "C5"),
        unit("mauser", "mauser-kar-98k", Side.AXIS, "A6"),
    ]
    return Game.from_position(BOARD, units, phase=Phase.FLIGHT, first=Side.AXIS, active=Side.AXIS)


# --- notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("label", ["A1", "B3", "C6"])
def test_place_notation_round_trips(label: str) -> None:
    action = A.Place("zeke", BOARD.parse(label))
    text = A.format_action(action, BOARD.label)
    assert text == f"place zeke {label}"
    assert A.parse(text, BOARD.parse) == action
    assert A.parse(f"  PLACE zeke {label.lower()} ", BOARD.parse) == action


@pytest.mark.parametrize("text", ["place zeke", "place zeke A1 B2", "place", "place zeke Z9"])
def test_bad_place_notation_is_refused(text: str) -> None:
    with pytest.raises(A.NotationError):
        A.parse(text, BOARD.parse)


# --- records -----------------------------------------------------------------------------------------


def played_with_aircraft(seed: int) -> tuple[Game, list[Event]]:
    game = Game.new(AXIS_AIR, ALLIES_AIR, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=4)
    bot = RandomBot(seed)
    events: list[Event] = []
    for _ in range(20_000):
        if game.decider() is None:
            break
        events.extend(game.apply(bot.choose(game)))
    assert game.over
    return game, events


def test_a_record_of_a_game_with_aircraft_replays_to_the_identical_state() -> None:
    game, events = played_with_aircraft(5)
    assert any(e.kind == "place" for e in events), "the game should have placed aircraft"
    assert any(e.kind == "land" for e in events)
    text = record_text(game)
    assert "place " in text
    replayed = replay_record(parse_record(text))
    assert replayed.state.snapshot() == game.state.snapshot()
    assert record_text(replayed) == text


# --- refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("place zeke C6", "one aircraft a hex"),  # the Allied aircraft is over C6
        ("place grounded A1", "disrupted"),
        ("place mauser A1", "not an aircraft"),
        ("place yak A1", "not one of the Axis units"),
        ("move zeke A1", "aircraft are placed"),
    ],
)
def test_a_bad_placement_leaves_the_state_unchanged(action: str, words: str) -> None:
    game = flight_game()
    before = game.state.snapshot()
    used = game.dice.used
    with pytest.raises(IllegalAction, match=words):
        game.apply(action)
    assert game.state.snapshot() == before
    assert game.dice.used == used
    game.apply("place zeke A2")  # the game goes on
    assert game.state.units["zeke"].hex == BOARD.parse("A2")


def test_a_placement_outside_the_flight_phase_is_refused() -> None:
    units = [
        unit("zeke", "bf-110-c", Side.AXIS, None),
        unit("rifle", "smle-no-4-rifleman", Side.ALLIES, "C5"),
    ]
    game = Game.from_position(BOARD, units, phase=Phase.ASSAULT, first=Side.AXIS, active=Side.AXIS)
    before = game.state.snapshot()
    with pytest.raises(IllegalAction, match="flight phase"):
        game.apply("place zeke A1")
    assert game.state.snapshot() == before


# --- rules-test files --------------------------------------------------------------------------------

OFF_ON_THE_GROUND = """title = "a Soldier can't be off the map"
source = "test"
board = \"\"\"
C C C
 C C
\"\"\"

[[units]]
id = "rifle"
card = "smle-no-4-rifleman"
side = "allies"
at = "off"

[start]
turn = 1
phase = "flight"
first = "axis"
active = "axis"
"""


def test_off_the_map_for_a_ground_unit_is_a_file_error(tmp_path: Path) -> None:
    path = tmp_path / "ground-off.toml"
    path.write_text(OFF_ON_THE_GROUND, encoding="utf-8")
    with pytest.raises(MinisError) as caught:
        load_rules_test(path)
    text = [str(p) for p in caught.value.problems]
    line = OFF_ON_THE_GROUND.splitlines().index('at = "off"') + 1
    assert any(re.match(rf".*ground-off\.toml:{line}:\d+: .*aircraft", t) for t in text), text
    assert all("rifle" not in t.split(": ", 1)[1] or "aircraft" in t for t in text)


def test_off_the_map_is_read_for_an_aircraft(tmp_path: Path) -> None:
    path = tmp_path / "air-off.toml"
    path.write_text(OFF_ON_THE_GROUND.replace("smle-no-4-rifleman", "guards-yak-1"), encoding="utf-8")
    load_rules_test(path)  # no error


# --- legal actions -----------------------------------------------------------------------------------


def test_legal_actions_list_every_open_hex_for_each_aircraft_that_may_fly() -> None:
    game = flight_game()
    found = game.legal_actions()
    open_hexes = [h for h in BOARD.hexes if h != BOARD.parse("C6")]
    places = {a for a in found if isinstance(a, A.Place)}
    expected = {A.Place(u, h) for u in ("zeke", "zeke2") for h in open_hexes}
    assert places == expected  # not the disrupted aircraft, not the hex under the Allied aircraft
    assert A.Pass() in found
    assert not [a for a in found if not isinstance(a, A.Place | A.Pass)]
    options = legal.unit_options(game.state, game.state.units["zeke"])
    assert set(options.places) == set(open_hexes)
    game.apply("place zeke A2")
    after = {a for a in game.legal_actions() if isinstance(a, A.Place)}
    assert after == {A.Place("zeke2", h) for h in open_hexes if h != BOARD.parse("A2")}


def test_a_reaction_window_lists_the_shots_and_hold() -> None:
    units = [
        unit("zeke", "bf-110-c", Side.AXIS, None),
        unit("flak", "40mm-bofors-l60", Side.ALLIES, "A3"),
    ]
    game = Game.from_position(BOARD, units, phase=Phase.FLIGHT, first=Side.AXIS, active=Side.AXIS)
    game.apply("place zeke A4")
    assert game.state.stage is Stage.REACTION
    assert game.decider() is Side.ALLIES
    assert game.legal_actions() == [A.Fire("flak", BOARD.parse("A4")), A.Hold()]


# --- battles without aircraft ------------------------------------------------------------------------


def phases_played(events: list[Event]) -> set[str]:
    return {e.note for e in events if e.kind == "phase"}


def test_a_battle_without_aircraft_never_enters_the_air_phases() -> None:
    for seed in (1, 2):
        game = Game.new(AXIS_GROUND, ALLIES_GROUND, configuration=seed, dice=Dice(seed=seed), turn_limit=3)
        bot = RandomBot(seed)
        events: list[Event] = []
        while game.decider() is not None:
            events.extend(game.apply(bot.choose(game)))
        assert game.over
        played = phases_played(events)
        assert {"movement", "assault", "casualty"} <= played
        assert not played & AIR_PHASES
        assert not any(e.kind in ("place", "land") for e in events)


def test_a_battle_with_aircraft_enters_them() -> None:
    """The control of the test above: the same loop sees the air phases when aircraft are in the battle."""
    _, events = played_with_aircraft(7)
    assert phases_played(events) >= AIR_PHASES


def test_random_play_with_aircraft_keeps_them_off_the_ground_rules() -> None:
    """Every state of a few random games: aircraft are over the map only in the air and assault phases,
    never two over one hex, never with a facing, and always off the map when a turn begins."""
    for seed in (11, 12):
        game = Game.new(AXIS_AIR, ALLIES_AIR, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=3)
        rng = random.Random(seed)
        bot = RandomBot(rng.randrange(1000))
        while game.decider() is not None:
            game.apply(bot.choose(game))
            state = game.state
            flying = [u for u in state.units.values() if u.card.is_aircraft and u.hex is not None]
            assert len({u.hex for u in flying}) == len(flying)
            assert all(u.facing is None for u in flying)
            if flying:
                assert state.phase in (Phase.FLIGHT, Phase.AIRSTRIKE, Phase.ASSAULT, Phase.OVER), state.phase
            if state.phase in (Phase.INITIATIVE, Phase.MOVEMENT):
                assert not flying
        assert game.over


def test_game_unit_options_gives_the_places_of_an_aircraft_off_the_map() -> None:
    small = board("""
C C C
 C C
""")
    cards = card_catalogue()
    units = [
        Unit("zeke", cards["bf-110-c"], Side.AXIS),
        Unit("rifle", cards["smle-no-4-rifleman"], Side.ALLIES, hex=small.parse("B2")),
    ]
    game = Game.from_position(small, units, phase=Phase.FLIGHT, first=Side.AXIS, active=Side.AXIS)
    options = game.unit_options("zeke")
    assert options is not None and set(options.places) == set(small.hexes)
