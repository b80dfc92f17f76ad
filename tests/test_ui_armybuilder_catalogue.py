"""The army builder with the whole catalogue (issue 15), driven by input events in a headless window.

The search box filters as the player types, the filter buttons (side, nation, type, subtype, year,
cost, playable only) and the sort order are clicked, an army is built from what they show; a card this
rule set cannot play yet is greyed, says what it needs and is refused; the scroll bar moves the list
and only the rows in view are laid out; hovering a row shows its card. Which cards are playable is
asked of the rule set, never written here: other abilities arrive all the time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minis.army import ArmyScenario
from minis.base.sides import Side
from minis.engine.ability_loader import standard_abilities
from tests.test_ui_layout import overflows


def open_builder(driver: Any) -> Any:
    """The Axis player's builder for a standard battle, alone in the window."""
    from minis.ui.armybuilder import ArmyBuilder

    driver.window.stack.clear()
    screen = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
    driver.window.open(screen)
    driver.frame()
    return screen


@pytest.fixture
def builder(driver: Any) -> Iterator[Any]:
    yield open_builder(driver)


def needs(card: Any) -> tuple[str, ...]:
    return standard_abilities().needs(card)


def search_for(driver: Any, arcade: Any, text: str) -> None:
    """Ctrl+F, empty the box, type `text` one key at a time."""
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)
    driver.key(arcade.key.BACKSPACE, arcade.key.MOD_CTRL)
    driver.type_text(text)


def click_until(driver: Any, cycle: Any, done: Any, limit: int = 40) -> None:
    """Click a filter button until `done()`, as a player steps through its choices."""
    for _ in range(limit):
        if done():
            return
        driver.click_box(cycle.box)
    assert done(), f"{cycle.text} clicked {limit} times without reaching the goal"


def test_searching_filtering_and_sorting_build_an_army(driver: Any, arcade: Any, builder: Any) -> None:
    everything = len(builder.shown)
    assert everything == sum(1 for card in builder.catalogue.values() if card.serves(Side.AXIS))
    # typing filters as one types: each key narrows the list
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)
    assert builder.focused is builder.search
    counts = []
    for ch in "tiger":
        driver.type_text(ch)
        counts.append(len(builder.shown))
    assert counts == sorted(counts, reverse=True) and counts[0] < everything
    assert builder.shown and all(
        "tiger" in (card.name + " ".join(a.text for a in card.abilities)).lower() for card in builder.shown
    )
    assert "Tiger I" in builder.cards.items
    # Down hands the keys to the list; Enter adds the highlighted card
    driver.key(arcade.key.DOWN)
    assert builder.focused is builder.cards
    while builder.cards.items[builder.cards.index] != "Tiger I":
        driver.key(arcade.key.DOWN)
    driver.key(arcade.key.ENTER)
    assert builder.units == ["tiger-i"]
    # a search for an ability's words finds cards that have it (any case)
    search_for(driver, arcade, "CLOSE assault")
    assert builder.shown and all(
        any(a.id == "close-assault" for a in card.abilities) for card in builder.shown
    )
    search_for(driver, arcade, "")
    assert len(builder.shown) == everything
    # the filters, clicked: vehicles, then tank destroyers among them
    click_until(driver, builder.type_filter, lambda: builder.type_filter.text.endswith("Vehicles"))
    assert all(card.is_vehicle for card in builder.shown)
    click_until(driver, builder.subtype_filter, lambda: builder.subtype_filter.value == "Tank Destroyer")
    assert builder.shown and all(card.subtype == "Tank Destroyer" for card in builder.shown)
    # the nations offered are the side's (and only those that have cards)
    nations = {value for _, value in builder.nation_filter.choices if value is not None}
    assert nations and all(nation.side is Side.AXIS for nation in nations)
    click_until(driver, builder.year_filter, lambda: builder.year_filter.value == 1942)
    assert all(card.year <= 1942 for card in builder.shown)
    click_until(driver, builder.cost_filter, lambda: builder.cost_filter.text.endswith("11 to 20"))
    assert builder.shown and all(11 <= card.cost <= 20 for card in builder.shown)
    click_until(driver, builder.sort_order, lambda: builder.sort_order.value == "cost")
    costs = [card.cost for card in builder.shown]
    assert costs == sorted(costs)
    click_until(driver, builder.playable_filter, lambda: builder.playable_filter.value is True)
    playable = [card for card in builder.shown if not needs(card)]
    assert builder.shown == playable and playable
    driver.click_box(builder.cards.row_box(0))
    chosen = builder.shown[0]
    assert builder.units == ["tiger-i", chosen.id]
    # everything back to all: right-click steps back; a soldier by its name
    for cycle in (builder.type_filter, builder.year_filter, builder.cost_filter, builder.playable_filter):
        while cycle.index:
            driver.click_box(cycle.box, button=arcade.MOUSE_BUTTON_RIGHT)
    assert len(builder.shown) == everything
    search_for(driver, arcade, "mauser")
    driver.key(arcade.key.ENTER)  # the list gets the keys, its first card highlighted
    driver.key(arcade.key.ENTER)
    assert builder.units[-1] == builder.shown[0].id and "Mauser" in builder.shown[0].name
    assert builder.problems.text == "The army is legal.", builder.problems.text


@pytest.fixture
def waiting_builder(driver: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The builder while one ability waits for a rule system again (every card plays since issue 19)."""
    import attrs

    from minis.content.ability_catalogue import ABILITIES

    waiting = attrs.evolve(ABILITIES["antiair-support"], needs="aircraft")
    monkeypatch.setitem(ABILITIES, "antiair-support", waiting)
    yield open_builder(driver)


def test_a_card_not_yet_playable_is_greyed_says_what_it_needs_and_is_refused(
    driver: Any, arcade: Any, waiting_builder: Any
) -> None:
    from minis.ui.armybuilder import UNPLAYABLE

    builder = waiting_builder
    row = next(i for i, card in enumerate(builder.shown) if needs(card))
    card = builder.shown[row]
    said = ", ".join(needs(card))
    assert builder.cards.colours[row] == UNPLAYABLE and builder.cards.details[row].startswith("not playable")
    builder.cards.highlight(row)
    driver.move(*builder.cards.row_box(row).centre)
    driver.frame()
    assert builder.panel.card is card and builder.panel.extra == f"Not playable yet: it needs {said}."
    driver.click_box(builder.cards.row_box(row))
    assert builder.units == []
    assert builder.message.text.startswith(f"{card.name} can't be played yet"), builder.message.text
    # a playable card is neither greyed nor refused
    good = next(i for i, c in enumerate(builder.shown) if not needs(c))
    assert builder.cards.colours[good] is None
    builder.cards.highlight(good)
    driver.click_box(builder.cards.row_box(good))
    assert builder.units == [builder.shown[good].id]
    # an army that has one anyway (a file made by hand) is not legal, and says why
    builder.units.append(card.id)
    builder.changed()
    assert f"{card.name} can't be played yet: it needs {said}" in builder.verdict
    assert not builder.done_button.enabled
    # playable only: none of them is listed
    click_until(driver, builder.playable_filter, lambda: builder.playable_filter.value is True)
    assert card not in builder.shown and all(not needs(c) for c in builder.shown)


def test_the_scroll_bar_moves_the_list_and_only_rows_in_view_are_laid_out(
    driver: Any, arcade: Any, builder: Any
) -> None:
    cards, bar = builder.cards, builder.card_bar
    assert len(cards.items) > 3 * cards.visible_rows and bar.needed
    made = cards.made
    driver.click(bar.box.centre[0], bar.box.bottom + 2)  # below the thumb: a page down
    assert cards.top_row == cards.visible_rows
    thumb = bar.thumb()
    driver.drag(thumb.centre, (thumb.centre[0], bar.box.bottom + 1), steps=2)  # the thumb to the bottom
    assert cards.top_row == len(cards.items) - cards.visible_rows
    # the rows of the four screens shown (a page, half way, the end, and the first), not the whole list
    assert cards.made - made <= 3 * cards.visible_rows < len(cards.items) - cards.visible_rows
    driver.drag(bar.thumb().centre, (thumb.centre[0], bar.box.top + 40))
    assert cards.top_row == 0
    driver.scroll(*cards.box.centre, -3)  # the wheel too
    assert cards.top_row == 3
    # each key typed into the search box lays out only the rows it shows
    driver.key(arcade.key.F, arcade.key.MOD_CTRL)
    for ch in "panzer":
        made = cards.made
        driver.type_text(ch)
        assert 0 < cards.made - made <= cards.visible_rows


def test_hovering_a_row_or_a_unit_shows_its_card(driver: Any, arcade: Any, builder: Any) -> None:
    cards = builder.cards
    driver.scroll(*cards.box.centre, -10)
    for slot in (0, 3, cards.visible_rows - 1):
        row = cards.top_row + slot
        driver.move(*cards.row_box(row).centre)
        driver.frame()
        assert builder.panel.card is builder.shown[row]
        assert builder.panel.name.text == builder.shown[row].name
    tiger = builder.catalogue["tiger-i"]
    builder.add(tiger.id)
    driver.move(*builder.army_list.row_box(0).centre)
    driver.frame()
    assert builder.panel.card is tiger


@pytest.mark.parametrize("size", [(1280, 800), (900, 600)])
def test_the_builder_s_controls_fit_and_are_pictured(arcade: Any, shots: Path, size: tuple[int, int]) -> None:
    """Every text in its box at the largest and the smallest usual window; the pictures show the
    search box and the filters in use (army-builder-catalogue*.png)."""
    from minis.ui.armybuilder import ArmyBuilder
    from minis.ui.driver import Driver

    driver = Driver.open(*size)
    try:
        builder = ArmyBuilder(driver.window, Side.AXIS, ArmyScenario.STANDARD, lambda army: None)
        driver.window.open(builder)
        driver.frame()
        assert not overflows(builder)
        for card_id in ("panzer-iv-ausf-g", "mauser-kar-98k"):
            builder.add(card_id)
        click_until(driver, builder.type_filter, lambda: builder.type_filter.text.endswith("Vehicles"))
        search_for(driver, arcade, "tiger")
        assert builder.shown
        row = next((i for i, card in enumerate(builder.shown) if needs(card)), 0)  # greyed, if one is
        builder.cards.highlight(row)
        driver.move(*builder.cards.row_box(row).centre)
        driver.frame()
        assert not overflows(builder), overflows(builder)
        small = size[0] < 1280
        driver.screenshot(
            shots / ("army-builder-catalogue-small.png" if small else "army-builder-catalogue.png")
        )
    finally:
        driver.close()
