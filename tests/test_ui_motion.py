"""Motion at the table: a moved unit slides hex by hex to where the engine put it (and stops where
defensive fire stopped it), dice tumble for a moment from the UI's own random numbers, a hit flashes,
a miss is marked, a destroyed unit fades away at its hex; a key or a click skips to the end; the
setting turns it off. The model is tested without a window against a clock the test steps; one
window test drives it through input events (motion on, the clock injected) and takes the pictures."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minis.base.sides import Side
from minis.dice import Dice
from minis.engine.events import Event
from minis.game import Game
from minis.hexgrid import Hex
from minis.ui import motion
from minis.ui.motion import Frame, Motion
from minis.ui.session import Session
from tests.engine_support import board, position, unit
from tests.helpers_window import end_phase

FIELD = board("""
C C C F C C C C
 C C C C C C C C
C C C C C C C C
""")

GUN_FIELD = board("""
C C C C C C
 C T C C C
C C C C C C
""")


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def hexes(b: Any, *labels: str) -> tuple[Hex, ...]:
    return tuple(b.parse(label) for label in labels)


def seen(game: Game) -> dict[str, Hex]:
    """Where each unit stands (what the screen keeps from one action to the next)."""
    return {u.id: u.hex for u in game.state.units.values() if u.hex is not None}


def played(game: Game, action: str, clock: Clock) -> tuple[Motion, list[Event]]:
    """`action` applied, and its motion started at the clock's time."""
    before = seen(game)
    events = game.apply(action)
    shown = Motion(clock, enabled=True, dice=random.Random(1))
    shown.play(events, before)
    return shown, events


def frames(shown: Motion, clock: Clock, step: float = 0.004) -> Iterator[Frame]:
    """Every moment of the motion, `step` seconds apart, until it is over."""
    for _ in range(1000):
        frame = shown.frame()
        if frame is None:
            return
        yield frame
        clock.now += step
    raise AssertionError("the motion never ended")


def sherman_in_the_open(dice: list[int]) -> Game:
    """A Sherman in the Allied movement phase, the only enemy far away: its moves open no window."""
    units = [
        unit(FIELD, "sherman", "m4a1-sherman", "allies", "A1", "E"),
        unit(FIELD, "pak", "pak-38-anti-tank-gun", "axis", "C8"),
    ]
    return position(FIELD, units, dice=Dice.scripted(dice))


def pak_and_sherman() -> Game:
    """A Sherman moving past a PaK 38: each step next to the gun opens a defensive-fire window."""
    units = [
        unit(GUN_FIELD, "pak", "pak-38-anti-tank-gun", "axis", "A3"),
        unit(GUN_FIELD, "sherman", "m4a1-sherman", "allies", "A1", "E"),
    ]
    return position(GUN_FIELD, units, dice=Dice.scripted([]))


# --- the model, without a window ---------------------------------------------------------------------
def test_a_move_slides_through_every_hex_of_its_path_in_order_and_ends_at_its_destination() -> None:
    clock = Clock()
    game = sherman_in_the_open([5])  # the forest's movement roll succeeds
    shown, _ = played(game, "move sherman A2 A3 A4", clock)
    visited: list[Hex] = []
    for frame in frames(shown, clock):
        assert frame.moving == {"sherman"}  # drawn by the motion, not at its hex
        where = frame.hex_of("sherman")
        assert where is not None
        if not visited or visited[-1] != where:
            visited.append(where)
    assert tuple(visited) == hexes(FIELD, "A1", "A2", "A3", "A4")
    assert game.state.units["sherman"].hex == FIELD.parse("A4")  # where the slide ended
    assert clock.now - 100.0 <= motion.SLIDE_MAX + motion.DICE + 0.01  # a few hundred ms


@given(st.integers(min_value=1, max_value=30))
def test_a_slide_takes_120_ms_a_hex_and_never_more_than_600_ms(steps: int) -> None:
    path = [Hex(q, 0) for q in range(steps + 1)]
    events = [Event("move", Side.AXIS, "u", hexes=(a, b)) for a, b in itertools.pairwise(path)]
    (slide,) = motion.scene(events, {"u": path[0]}).slides
    assert slide.path == tuple(path)
    assert slide.end == pytest.approx(min(steps * motion.STEP, motion.SLIDE_MAX))


def test_defensive_fire_stops_the_slide_where_the_engine_stopped_the_unit_and_a_miss_is_marked() -> None:
    clock = Clock()
    game = pak_and_sherman()
    shown, _ = played(game, "move sherman A2 B2 C3", clock)  # a window opens in A2
    (slide,) = shown.scene.slides if shown.scene else ()
    assert slide.path == hexes(GUN_FIELD, "A1", "A2") == (slide.path[0], game.state.units["sherman"].hex)
    game.push_dice([1] * 30)  # every die misses
    shown, _ = played(game, "fire pak at A2", clock)
    first = shown.frame()
    assert first is not None and first.tumble is not None  # the dice tumble first
    assert [m.kind for m, _ in first.marks] == []  # the miss shows once they settle
    assert first.hex_of("sherman") == GUN_FIELD.parse("A2")  # it waits for the dice
    moments = list(frames(shown, clock))
    misses = [m for f in moments for m, _ in f.marks if m.kind == "miss"]
    assert misses and {m.hex for m in misses} == {GUN_FIELD.parse("A2")}
    assert all(f.tumble is None for f in moments if f.marks)
    walked = [f.hex_of("sherman") for f in moments if f.slides]
    # the gun has fired: no window stops it again, and it walks on to the end of its path
    assert walked[-1] == GUN_FIELD.parse("C3") == game.state.units["sherman"].hex
    assert list(dict.fromkeys(walked)) == list(hexes(GUN_FIELD, "A2", "B2", "C3"))


def test_a_hit_flashes_on_its_target_and_the_unit_stops_there() -> None:
    clock = Clock()
    game = pak_and_sherman()
    game.apply("move sherman A2 B2 C3")
    game.push_dice([6] * 30)
    shown, events = played(game, "fire pak at A2", clock)
    assert any(e.kind == "hits" and e.value for e in events)
    moments = list(frames(shown, clock))
    flashes = [(m.hex, along) for f in moments for m, along in f.marks if m.kind == "hit"]
    assert {h for h, _ in flashes} == {GUN_FIELD.parse("A2")} == {game.state.units["sherman"].hex}
    assert flashes[0][1] < flashes[-1][1]  # it plays out
    assert not any(f.slides for f in moments)  # disrupted: it goes no further


def test_a_destroyed_unit_is_drawn_leaving_at_its_hex_until_the_motion_ends() -> None:
    clock = Clock()
    gone = FIELD.parse("B3")
    shown = Motion(clock, enabled=True)
    shown.play([Event("removed", Side.ALLIES, "sherman")], {"sherman": gone, "pak": FIELD.parse("C8")})
    moments = list(frames(shown, clock))
    leaving = [(m.hex, along) for f in moments for m, along in f.marks if m.kind == "leave"]
    assert len(leaving) == len(moments) >= 100  # every moment of it (0.45 s at 4 ms)
    assert {h for h, _ in leaving} == {gone}
    assert [along for _, along in leaving] == sorted(along for _, along in leaving)
    assert shown.frame() is None  # then it is gone


def test_a_key_or_click_finishes_the_motion_at_once() -> None:
    clock = Clock()
    shown, _ = played(sherman_in_the_open([5]), "move sherman A2 A3 A4", clock)
    assert shown.playing
    assert shown.finish() is True  # the screen then lets that key or click do nothing else
    assert shown.frame() is None and not shown.playing
    assert shown.finish() is False  # nothing playing: keys and clicks do what they always do


def test_the_dice_tumble_from_the_ui_s_own_random_numbers_then_settle() -> None:
    clock = Clock()
    game = sherman_in_the_open([5])
    shown, _ = played(game, "move sherman A2 A3 A4", clock)
    used = game.dice.used
    first = shown.faces(15)
    assert first is not None and len(first) == 15 and set(first) <= set(range(1, 7))
    assert shown.faces(15) == first  # the same all through a tick
    clock.now += 1.5 * motion.TUMBLE_TICK  # the next tick
    assert shown.faces(15) != first
    clock.now = 100.0 + motion.DICE
    assert shown.faces(15) is None  # settled: the true faces
    assert game.dice.used == used  # never the game's dice


def test_with_the_setting_off_nothing_moves() -> None:
    assert motion.wanted({}) is True  # on for players
    for off in ("0", "off", "No", "false"):
        assert motion.wanted({"MINIS_MOTION": off}) is False
    assert Motion().enabled is False  # tests/conftest.py sets MINIS_MOTION=0
    clock = Clock()
    game = sherman_in_the_open([5])
    before = seen(game)
    shown = Motion(clock, enabled=False)
    shown.play(game.apply("move sherman A2 A3 A4"), before)
    assert shown.frame() is None and shown.faces(1) is None


# --- through the window ------------------------------------------------------------------------------
@pytest.fixture
def moving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Motion on, as a player has it."""
    monkeypatch.setenv("MINIS_MOTION", "1")


def test_the_window_animates_a_move_and_an_attack_and_input_skips_them(
    driver: Any, arcade: Any, moving: None, tmp_path: Path, shots: Path
) -> None:
    """A move by clicks slides the Sherman (the picture changes from moment to moment, the dice
    tumble), a key ends it and does nothing else; after it, frames are skipped again. Then an
    attack by the PaK: its dice tumble; a click ends it and selects nothing."""
    from minis.ui.battle import BattleScreen
    from minis.ui.measure import Loop

    clock = Clock()
    game = sherman_in_the_open([5])
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    screen.motion.clock = clock
    driver.window.open(screen)
    driver.frame()
    where = screen.map.hex_centre_on_screen
    driver.click(*where(FIELD.parse("A1")))
    driver.click(*where(FIELD.parse("A4")))  # the path
    driver.key(arcade.key.ENTER)  # go
    assert game.state.units["sherman"].hex == FIELD.parse("A4")  # the game is final at once
    assert screen.motion.playing
    looks = []
    for _ in range(4):
        clock.now += 0.05
        looks.append(screen.look())
    assert len(set(looks)) == 4  # every moment is a new picture
    clock.now = 100.0 + 0.15  # the Sherman between A2 and A3, the forest's die still tumbling
    frame = screen.motion.frame()
    assert frame is not None and frame.hex_of("sherman") in hexes(FIELD, "A2", "A3")
    assert screen.dice.tumbling is not None or screen.look() is not None
    screen.look()
    assert screen.dice.tumbling is not None and len(screen.dice.tumbling) == 1
    driver.screenshot(shots / "motion-slide.png")
    driver.key(arcade.key.N)  # N would select the next unit: here it only ends the motion
    assert not screen.motion.playing and screen.controller.selected is None
    assert screen.dice.tumbling is None  # the true face, marked
    loop = Loop(driver.window)
    loop.turn()
    skipped = driver.window.skipped_frames
    for _ in range(3):
        loop.turn()
    assert driver.window.skipped_frames == skipped + 3  # motion over: an idle window draws nothing

    # the Axis assault phase: the PaK fires at the Sherman; its dice tumble, a click ends it
    for _ in range(4):  # P (and Y if asked) to the Axis assault phase
        if game.decider() is Side.AXIS and game.state.phase.value == "assault":
            break
        end_phase(driver)
    assert game.decider() is Side.AXIS and game.state.phase.value == "assault"
    game.push_dice([6] * 30)
    clock.now = 200.0
    driver.click(*where(FIELD.parse("C8")))
    driver.click(*where(FIELD.parse("A4")))  # the attack
    assert any(e.kind == "attack" for e in screen.session.last_events)
    assert screen.motion.playing
    screen.look()
    assert screen.dice.tumbling is not None and len(screen.dice.tumbling) == screen.dice.count
    assert game.state.units["sherman"].pending  # the game has the hits at once...
    assert not face_down_marks(screen)  # ...the counters show them only when the dice have told
    sherman = game.state.units["sherman"]
    assert screen.readout.counters_of(sherman) == ""  # nor do the card and the hover box
    driver.move(*where(FIELD.parse("A4")))
    screen.look()
    assert "face-down" not in screen.tooltip.text
    driver.screenshot(shots / "motion-dice.png")
    driver.click(*where(FIELD.parse("C8")))  # a click: ends the motion, selects nothing
    assert not screen.motion.playing and screen.controller.selected is None
    assert screen.dice.tumbling is None
    screen.look()
    assert face_down_marks(screen)
    assert screen.readout.counters_of(sherman) != ""


def face_down_marks(screen: Any) -> list[str]:
    """The face-down counters' marks ("?" or their number) the counters layer draws."""
    from minis.ui.counters import FACE_DOWN_EDGE

    return [t.text for t in screen.map._groups["counters"].texts if t.colour == FACE_DOWN_EDGE]


def test_the_ghost_of_a_unit_being_moved_is_a_counter_of_the_counters_size(arcade: Any) -> None:
    from minis.ui import counters, hexdraw
    from minis.ui.battle_layers import ghost_mesh

    rifle = unit(FIELD, "rifle", "mauser-kar-98k", "axis", "B2")
    at = FIELD.parse("B2")
    mesh, texts = ghost_mesh(rifle, at, None, "98k")
    cx, cy = hexdraw.centre(at)
    xs = [x for x, _ in mesh.points]
    ys = [y for _, y in mesh.points]
    assert min(xs) == pytest.approx(cx - counters.HALF_WIDTH) and max(xs) == pytest.approx(
        cx + counters.HALF_WIDTH
    )
    assert min(ys) == pytest.approx(cy - counters.HALF_HEIGHT) and max(ys) == pytest.approx(
        cy + counters.HALF_HEIGHT
    )
    assert all(0 < colour[3] < 255 for colour in mesh.colours)  # translucent
    assert "98k" in [t.text for t in texts]
