"""Counters a player reads at arm's length: short names, silhouettes, colours, stacks and the objective.

The names, kinds and colours are tested without a window; legibility (the name's size and width at the
default zoom), the hover box and the stack spread out on hover are measured in the demo battle's window,
driven by mouse moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minis.cards import card_catalogue
from minis.hexgrid import Hex
from minis.ui import hexdraw, silhouettes, theme
from minis.ui.counters import (
    CAP_HEIGHT,
    HALF_HEIGHT,
    HALF_WIDTH,
    NAME_SIZE,
    RIM,
    Slot,
    battle_names,
    counter_mesh,
    faces,
    fan_mesh,
    placements,
    units_mesh,
)
from minis.ui.demo import demo_game
from minis.ui.shortnames import LIMIT, MAX_EM, scale, short_names, text_em
from minis.ui.silhouettes import Kind, kind_of

# --- short names ---------------------------------------------------------------------------------------
card_names = st.sampled_from(sorted(card.name for card in card_catalogue().values()))
any_names = st.text(min_size=0, max_size=30)
battle_lists = st.lists(st.one_of(card_names, any_names), min_size=0, max_size=15).flatmap(
    lambda distinct: st.lists(st.sampled_from(distinct), max_size=30) if distinct else st.just([])
)


@given(battle_lists)
def test_short_names_are_unique_short_and_narrow(names: list[str]) -> None:
    shorts = short_names(names)
    assert len(shorts) == len(names)
    assert len(set(shorts)) == len(shorts)
    for short in shorts:
        assert 0 < len(short) <= LIMIT, short
        if len(names) <= 30 and max((names.count(n) for n in names), default=0) <= 15:
            assert text_em(short) <= MAX_EM, short


@given(st.lists(card_names, min_size=1, max_size=6, unique=True), st.integers(2, 15))
def test_copies_of_a_card_are_numbered_2_3(names: list[str], copies: int) -> None:
    units = [names[0]] * copies + names[1:]
    shorts = short_names(units)
    first = shorts[0]
    assert shorts[1:copies] == [f"{first} {n}" for n in range(2, copies + 1)]


def test_the_cards_have_telling_short_names() -> None:
    """Among the Base Set's cards (a battle names only its own units: the whole catalogue at once has
    five Panzer IVs for one 'Pz IV')."""
    base = sorted((c for c in card_catalogue().values() if c.set_name == "Base Set"), key=lambda c: c.id)
    names = dict(zip((c.name for c in base), short_names([c.name for c in base]), strict=True))
    assert names["Panzer IV Ausf. G"] == "Pz IV"
    assert names["SS Panzergrenadier"] != names["SS Haupsturmfuhrer"]
    assert names["Light Mortar"] == "Mortar"
    assert names["Wehrmacht Expert Sniper"] == "Sniper"
    assert short_names(["SS Panzergrenadier"] * 3) == ["PzGr", "PzGr 2", "PzGr 3"]


def _all_cards_named() -> list[tuple[Any, str]]:
    cards = sorted(card_catalogue().values(), key=lambda c: c.id)
    return list(zip(cards, short_names([c.name for c in cards]), strict=True))


def test_every_card_has_a_unique_short_name_even_all_in_one_battle() -> None:
    shorts = [short for _, short in _all_cards_named()]
    assert len(set(shorts)) == len(shorts)


def test_the_demo_battles_counters_have_unique_names() -> None:
    for large in (False, True):
        state = demo_game(large=large, stop="deployed").state
        names = battle_names(state)
        assert set(names) == set(state.units)
        assert len(set(names.values())) == len(names), names
        assert all(text_em(n) <= MAX_EM for n in names.values())


# --- silhouettes ------------------------------------------------------------------------------------------
EXPECTED_KINDS = {
    "mauser-kar-98k": Kind.RIFLE,
    "mg-42-machine-gun-team": Kind.MACHINE_GUN,
    "pak-38-anti-tank-gun": Kind.ANTITANK_GUN,
    "light-mortar": Kind.MORTAR,
    "ss-haupsturmfuhrer": Kind.COMMANDER,
    "panzer-iv-ausf-g": Kind.TANK,
    "sig-33": Kind.TANK_DESTROYER,
    "m18-hellcat": Kind.TANK_DESTROYER,
    "m3-half-track": Kind.HALF_TRACK,
    "sd-kfz-222": Kind.ARMOURED_CAR,
    "jeep": Kind.TRUCK,
    "kubelwagon-v": Kind.TRUCK,
}


@pytest.mark.parametrize("card_id", sorted(EXPECTED_KINDS))
def test_each_kind_of_unit_has_its_silhouette(card_id: str) -> None:
    assert kind_of(card_catalogue()[card_id]) is EXPECTED_KINDS[card_id]


def test_every_silhouette_looks_different() -> None:
    shapes = set()
    for kind in Kind:
        mesh = hexdraw.Mesh()
        silhouettes.draw(mesh, kind, (0.0, 0.0), 10.0, (255, 255, 255, 255))
        assert len(mesh) > 0
        shapes.add(tuple((round(x, 1), round(y, 1)) for x, y in mesh.points))
    assert len(shapes) == len(Kind)


# --- colours ----------------------------------------------------------------------------------------------
def _under_counters() -> list[theme.Colour]:
    """Every colour a counter can stand on: terrain, zone rims, the battle's zone and reach tints."""
    from minis.ui.battle_layers import LEGAL, REACH, REACH_ROLL, ZONE_TINT

    found = []
    for fill in hexdraw.FILL.values():
        found.append(fill)
        found += [hexdraw.mix(fill, zone, hexdraw.ZONE_MIX) for zone in hexdraw.ZONE.values()]
        found += [theme.blend(fill, tint) for tint in (*ZONE_TINT.values(), REACH, REACH_ROLL, LEGAL)]
    return found


@pytest.mark.parametrize("acted", [False, True])
def test_counters_stand_out_from_every_zone_tint_and_their_text_from_the_face(
    acted: bool, arcade: Any
) -> None:
    # `arcade`: the battle screen's tints come with arcade, which must come up headless (the fixture)
    state = demo_game(stop="deployed").state
    unit = next(iter(state.units.values()))
    grounds = _under_counters()
    for nation in theme.NATION_FACE:
        card = next((c for c in card_catalogue().values() if c.nation_name == nation), None)
        if card is None:
            continue  # a nation with aircraft cards only (Bulgaria), for now
        face, _, text = faces(attrs.evolve(unit, card=card), acted)
        assert min(theme.contrast(face, g) for g in grounds) >= 3.0, nation
        assert theme.contrast(text, face) >= (3.0 if acted else 7.0), nation


def test_the_contrast_ratio_is_wcags() -> None:
    assert theme.contrast((0, 0, 0, 255), (255, 255, 255, 255)) == pytest.approx(21.0)
    assert theme.contrast((118, 118, 118, 255), (255, 255, 255, 255)) == pytest.approx(4.54, abs=0.01)


# --- stacks and the objective -----------------------------------------------------------------------------
def _stacked_state() -> Any:
    state = demo_game().state
    stacks = [h for h, units in state.occupancy().items() if len(units) >= 2]
    assert stacks
    return state, stacks[0]


def test_the_selected_unit_is_on_top_of_its_stack_and_the_others_peek_out() -> None:
    state, hex_ = _stacked_state()
    units = state.occupancy()[hex_]
    for chosen in units:
        where = placements(state, top=chosen.id)
        cx, cy = hexdraw.centre(hex_)
        assert (where[chosen.id].x, where[chosen.id].y) == (cx, cy)
        assert all(where[u.id].y < cy for u in units if u is not chosen)
        _, texts, _ = units_mesh(state, top=chosen.id)
        names = battle_names(state)
        assert names[chosen.id] in {t.text for t in texts}


def test_a_stack_spreads_out_whole_with_every_name() -> None:
    state, hex_ = _stacked_state()
    names = battle_names(state)
    _, texts = fan_mesh(state, hex_, names=names)
    shown = {t.text for t in texts}
    assert {names[u.id] for u in state.occupancy()[hex_]} <= shown
    assert all(t.size == NAME_SIZE * scale(t.text) for t in texts if t.text in names.values())  # whole size
    single = next(h for h, units in state.occupancy().items() if len(units) == 1)
    lone, lone_texts = fan_mesh(state, single, names=names)
    assert len(lone) == 0 and lone_texts == []


def test_the_objective_is_drawn_over_a_counter_standing_on_it() -> None:
    state = demo_game().state
    unit = next(u for u in state.units.values() if u.hex is not None and not u.removed)
    state = attrs.evolve(state, objective=unit.hex)
    mesh, _, _ = units_mesh(state)
    gold = [i for i, colour in enumerate(mesh.colours) if colour == hexdraw.OBJECTIVE]
    face, _, _ = faces(unit, False)
    last_face = max(i for i, colour in enumerate(mesh.colours) if colour == face)
    assert gold and min(gold) > last_face  # drawn after (over) every counter


def test_a_whole_counter_fits_its_hex() -> None:
    state = demo_game().state
    unit = next(u for u in state.units.values() if u.card.is_soldier)
    mesh = hexdraw.Mesh()
    counter_mesh(mesh, unit, Slot(0.0, 0.0), "Pz IV")
    for x, y in mesh.points:  # inside the pointy-top hex: within its flat sides and under its slanted ones
        assert abs(x) <= hexdraw.HALF_WIDTH and abs(y) <= hexdraw.SIZE - abs(x) / 3**0.5 + 1e-6


# --- in the window: legibility, the hover box, the spread-out stack ----------------------------------------
def _demo_screen(driver: Any) -> Any:
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    driver.window.stack.clear()
    screen = BattleScreen(driver.window, Session(demo_game(), autosave=False))
    driver.window.open(screen)
    driver.frame(2)
    return screen


def _hover(driver: Any, screen: Any, hex_: Hex) -> None:
    driver.move(*screen.map.world_to_screen(*hexdraw.centre(hex_)))
    driver.frame()


def test_names_are_ten_pixels_tall_and_fit_their_counters_at_the_default_zoom(
    driver: Any, arcade: Any
) -> None:
    from minis.ui.battlemap import PIXELS_PER_POINT

    screen = _demo_screen(driver)
    zoom = screen.map.zoom
    assert driver.window.width == 1280 and driver.window.height == 800
    pixels = NAME_SIZE * zoom
    assert pixels * CAP_HEIGHT >= 10.0
    room = 2 * (HALF_WIDTH - RIM) * zoom
    theme.load_fonts()
    for name in battle_names(screen.state).values():
        size = pixels * scale(name)  # a long name is printed smaller, its capitals 7.5 pixels at least
        assert size * CAP_HEIGHT >= (10.0 if scale(name) == 1 else 7.5), name
        text = arcade.Text(
            name, 0, 0, (0, 0, 0, 255), size / PIXELS_PER_POINT, font_name=theme.FONT, bold=True
        )
        assert text.content_width <= room, name


def test_the_hover_box_names_the_objective_and_hides_no_counter(driver: Any, arcade: Any) -> None:
    screen = _demo_screen(driver)
    state = screen.state
    assert state.objective is not None
    _hover(driver, screen, state.objective)
    assert "the objective" in screen.tooltip.text.split("\n")[0]
    for hex_, units in state.occupancy().items():
        _hover(driver, screen, hex_)
        lines = screen.tooltip.text.split("\n")
        names = screen.controller.short_names()
        for unit in units:
            assert any(line.split(": ", 1)[1].startswith(names[unit.id]) for line in lines[1:]), lines
        box = screen.layers.hover_box(300, 20 * len(lines))
        for other in state.occupancy():
            x, y = hexdraw.centre(other)
            (left, bottom), (right, top) = (
                screen.map.world_to_screen(x - HALF_WIDTH, y - HALF_HEIGHT),
                screen.map.world_to_screen(x + HALF_WIDTH, y + HALF_HEIGHT),
            )
            assert not (left < box.right and right > box.left and bottom < box.top and top > box.bottom), (
                other
            )


def test_hovering_a_stack_spreads_it_out_on_screen(driver: Any, arcade: Any, shots: Path) -> None:
    screen = _demo_screen(driver)
    _, hex_ = _stacked_state()
    x, y = hexdraw.centre(hex_)
    above = screen.map.world_to_screen(x, y + 0.7 * hexdraw.SIZE + HALF_HEIGHT + 13)
    before = driver.image().getpixel((int(above[0]), driver.window.height - 1 - int(above[1])))
    _hover(driver, screen, hex_)
    image = driver.image()
    after = image.getpixel((int(above[0]), driver.window.height - 1 - int(above[1])))
    assert before != after
    driver.screenshot(shots / "stack-spread-out.png")
