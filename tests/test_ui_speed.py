"""Speed at the table, held by counting work, never by timing it: the card panel lays a card's text out
once, the mouse moving over the map rebuilds no static picture, an idle window draws nothing, and
`minis play --demo --measure` prints its one line of figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
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
