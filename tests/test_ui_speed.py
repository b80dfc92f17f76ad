"""Speed at the table, held by counting work, never by timing it: the card panel lays a card's text out
once, the mouse moving over the map rebuilds no static picture, an idle window draws nothing, and
`minis play --demo --measure` prints its one line of figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def battle(driver: Any) -> Iterator[Any]:
    """The demo battle (the Axis assault phase of turn 2) in the test's window."""
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(demo_game(), autosave=False))
    driver.window.open(screen)
    driver.frame()
    yield screen


def _movers(screen: Any) -> list[Any]:
    """The units that may still act and have somewhere to go, one per hex (from the engine)."""
    game = screen.session.game
    units, seen = [], set()
    for unit_id in game.ready_units():
        unit = game.state.units[unit_id]
        options = game.unit_options(unit_id)
        if unit.hex not in seen and options is not None and options.moves:
            seen.add(unit.hex)
            units.append(unit)
    return units


def test_the_card_panel_lays_each_card_out_once(driver: Any, battle: Any, arcade: Any) -> None:
    where = battle.map.hex_centre_on_screen
    units = _movers(battle)
    enemies = [u for u in battle.state.units.values() if u.side is not units[0].side and u.hex is not None]
    assert len(units) >= 3 and enemies

    def round_of_clicks() -> None:
        for unit in units:
            driver.click(*where(unit.hex))
            assert battle.card.card is unit.card  # the selected unit's card is shown
            driver.key(arcade.key.ESCAPE)
        for enemy in enemies:
            driver.move(*where(enemy.hex))
            driver.frame()
            assert battle.card.card in [u.card for u in battle.state.at(enemy.hex)]  # the hovered unit's

    round_of_clicks()
    laid_out = battle.card.layouts
    cards = {u.card.id for u in battle.state.units.values()}
    assert 0 < laid_out <= len(cards)
    round_of_clicks()
    round_of_clicks()
    assert battle.card.layouts == laid_out  # shown again and again, laid out never again


def test_hovering_the_map_rebuilds_no_static_picture(driver: Any, battle: Any) -> None:
    """The mouse across the map with a unit selected, over its reach and over units (an enemy under
    the mouse is an attack: its odds in the panel are a new picture, so the row leaves enemies out)."""
    where = battle.map.hex_centre_on_screen
    unit = _movers(battle)[0]
    driver.click(*where(unit.hex))  # a unit selected: its reach is tinted
    driver.frame()
    board = battle.state.board
    enemy = {u.hex for u in battle.state.units.values() if u.side is not unit.side}
    row = sorted((h for h in board.hexes if h.r == unit.hex.r and h not in enemy), key=lambda h: h.q)
    renders = driver.window.frames.renders
    tooltips = set()
    for hex_ in row:
        driver.move(*where(hex_))
        driver.frame()
        assert battle.map.hover == hex_
        tooltips.add(battle.tooltip.text)
    assert len(tooltips) > len(row) // 2  # the hover box followed the mouse
    assert driver.window.frames.renders == renders  # but the kept picture was never drawn again


def test_the_mouse_back_over_a_hex_shows_its_hover_box_without_laying_it_out_again(
    driver: Any, battle: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Laying the hover box's text out is the slow part of a frame while the mouse moves: a box shown
    lately is kept, so going back over a hex lays no text out (empty hexes: no card changes)."""
    import pyglet

    where = battle.map.hex_centre_on_screen
    board = battle.state.board
    taken = {u.hex for u in battle.state.units.values()}
    row = sorted((h for h in board.hexes if h.r == 3 and h not in taken), key=lambda h: h.q)[:6]
    shown = []
    for hex_ in row:
        driver.move(*where(hex_))
        driver.frame()
        shown.append(battle.tooltip.text)
    assert len(set(shown)) == len(row)
    layouts: list[str] = []
    real = pyglet.text.layout.TextLayout._update

    def counting(self: Any) -> None:
        if self._update_enabled:
            layouts.append(self.document.text)
        real(self)

    monkeypatch.setattr(pyglet.text.layout.TextLayout, "_update", counting)
    for hex_ in reversed(row):
        driver.move(*where(hex_))
        driver.frame()
        assert battle.map.hover == hex_
    assert not set(layouts) & set(shown)  # every box came back laid out already


def _empty_row(screen: Any, count: int) -> list[Any]:
    """`count` hexes side by side in the map's middle row with no unit in them or next to them (no
    stack to spread out, no unit's card)."""
    from minis.hexgrid import neighbours

    board = screen.state.board
    taken = {u.hex for u in screen.state.units.values() if u.hex is not None}
    near = taken | {n for h in taken for n in neighbours(h)}
    rows = sorted({h.r for h in board.hexes})
    for r in sorted(rows, key=lambda r: abs(r - rows[len(rows) // 2])):
        row = sorted((h for h in board.hexes if h.r == r and h not in near), key=lambda h: h.q)
        for i in range(len(row) - count + 1):
            run = row[i : i + count]
            if all(b.q - a.q == 1 for a, b in pairwise(run)):
                return run
    raise AssertionError("no empty row on the demo map")


def test_crossing_empty_hexes_lays_out_no_panel(
    driver: Any, battle: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The side panel shows nothing of an empty hex: the mouse crossing empty hexes asks the controller
    for no panel (what the readout shows is worked out again only when a target or a hovered unit's card
    changes), while the hover box follows the mouse; the mouse onto a unit shows its card."""
    where = battle.map.hex_centre_on_screen
    row = _empty_row(battle, 5)
    driver.move(*where(row[0]))
    driver.frame()
    asked: list[object] = []
    real = battle.readout.panel

    def counting() -> object:
        asked.append(None)
        return real()

    monkeypatch.setattr(battle.readout, "panel", counting)
    boxes = set()
    for hex_ in row[1:]:
        driver.move(*where(hex_))
        driver.frame()
        boxes.add(battle.tooltip.text)
    assert len(boxes) == len(row) - 1  # the hover box followed the mouse
    assert asked == []  # but the panel was never worked out again
    unit = next(u for u in battle.state.units.values() if u.hex is not None)
    driver.move(*where(unit.hex))
    driver.frame()
    assert asked and battle.card.card is battle.state.at(unit.hex)[0].card  # a unit: its card


def test_the_hover_marks_reuse_their_buffers_and_are_kept_by_hex(
    driver: Any, battle: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hovered hex's outline changes on every hex the mouse crosses: it is written into the GPU
    buffers the group already has (no new shape list), and the mouse back over a hex builds no
    triangles at all; the picture is the same as when the marks were first built."""
    from minis.ui import battlemap, hexdraw

    where = battle.map.hex_centre_on_screen
    row = _empty_row(battle, 5)
    driver.move(*where(row[0]))
    driver.frame()
    first = driver.image()
    made: list[object] = []
    built: list[object] = []

    real_list = battlemap.ShapeElementList

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(None)
        return real_list(*args, **kwargs)

    real_shape = hexdraw.Mesh.shape

    def shape(self: Any) -> Any:
        built.append(None)
        return real_shape(self)

    monkeypatch.setattr(battlemap, "ShapeElementList", counted)
    monkeypatch.setattr(hexdraw.Mesh, "shape", shape)
    for hex_ in row[1:]:
        driver.move(*where(hex_))
        driver.frame()
        assert battle.map.hover == hex_
    assert made == []  # new marks in the group's buffers
    built.clear()
    for hex_ in reversed(row):
        driver.move(*where(hex_))
        driver.frame()
    assert built == []  # back over hexes it has shown: nothing built
    assert driver.image().tobytes() == first.tobytes()  # and the same picture


def test_an_idle_window_skips_its_drawing(driver: Any, battle: Any) -> None:
    from minis.ui.measure import Loop

    window = driver.window
    drawn: list[object] = []
    real = window.frames.draw

    def counted(look: object, render: Any) -> None:
        drawn.append(look)
        real(look, render)

    window.frames.draw = counted  # counts the frames drawn
    loop = Loop(window)  # turns of the window's own event loop, as `minis play` runs them
    loop.turn()
    drawn.clear()
    for _ in range(10):
        loop.turn()
    assert drawn == []  # nothing happened: no frame drawn, the last picture stays
    loop.move(*battle.map.hex_centre_on_screen(_movers(battle)[0].hex))
    loop.turn()
    loop.turn()
    assert len(drawn) == 1  # the mouse moved: exactly one frame shows it


def _play(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`minis play ARGS` in a fresh process with no display, started in `folder` (the installed
    package runs, wherever the checkout is)."""
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    return subprocess.run(
        [sys.executable, "-m", "minis", "play", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        cwd=folder,
    )


def test_measure_prints_one_line_of_four_figures(tmp_path: Path) -> None:
    result = _play(tmp_path, "--demo", "--measure")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    number = r"(\d+\.\d+)"
    pattern = rf"empty_ms={number} frame_ms={number} hover_ms={number} click_ms={number}"
    match = re.fullmatch(pattern, result.stdout.strip())
    assert match is not None, result.stdout
    assert all(float(figure) > 0 for figure in match.groups())


def test_measure_goes_with_the_demo_only(tmp_path: Path) -> None:
    result = _play(tmp_path, "--measure")
    assert result.returncode == 2
    assert "--measure goes with --demo" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_wrapped_label_is_laid_out_once_at_its_width(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new multiline label (a hover box, an ability of a card) is laid out when it is first placed or
    measured, at that width: not first at a stand-in width and then again."""
    import pyglet

    from minis.ui.widgets import Box, Label

    text = "E7 open ground · the objective\nAxis: Pz III = Panzer III Ausf. F, facing E (disrupted)"
    layouts: list[str] = []
    real = pyglet.text.layout.TextLayout._update

    def counting(self: Any) -> None:
        if self._update_enabled and self.document.text:
            layouts.append(self.document.text)
        real(self)

    monkeypatch.setattr(pyglet.text.layout.TextLayout, "_update", counting)
    label = Label(text, multiline=True)
    height = label.height_for(300)
    label.place(Box(10, 10, 300, height))
    assert len(layouts) == 1
    assert label.text == text and height > 0


def test_the_card_is_drawn_in_one_batch(driver: Any, battle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hovered unit's card is drawn on every frame the mouse moves: its column heads, text and
    status line go to the GPU in one batch, not one draw per part."""
    import pyglet

    unit = next(u for u in battle.state.units.values() if u.hex is not None)
    driver.move(*battle.map.hex_centre_on_screen(unit.hex))
    driver.frame()
    assert battle.card.card is not None and battle.card.extra  # a card with its status line
    drawn: list[object] = []
    real = pyglet.graphics.Batch.draw

    def counting(self: Any) -> None:
        drawn.append(self)
        real(self)

    monkeypatch.setattr(pyglet.graphics.Batch, "draw", counting)
    battle.card.draw_dynamic()
    assert len(drawn) == 1
