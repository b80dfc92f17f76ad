"""The card panel in a short box: the first ability shown is cut short ("…") rather than drawn over the
status line under it, and its whole text comes back when the box is tall enough again."""

from __future__ import annotations

from typing import Any

from minis.cards import card_catalogue


def test_a_long_first_ability_is_cut_short_not_drawn_over_the_status_line(driver: Any, arcade: Any) -> None:
    from minis.ui.cardpanel import CardPanel
    from minis.ui.widgets import Box

    card = card_catalogue()["mauser-kar-98k"]  # Close Assault's text takes three lines at this width
    panel = CardPanel()
    panel.place(Box(0, 0, 340, 236))  # the battle's panel under four prompt buttons
    panel.show(card, "Axis · D5")
    page = panel._page
    assert page is not None and page.shown
    first = page.shown[0]
    assert first.text.endswith("…")
    assert first.box.bottom >= page.status.box.top - 1  # above the status line, not over it
    panel.place(Box(0, 0, 340, 480))  # a tall box: the whole text again
    page = panel._page
    assert page is not None and page.shown[0].text == page.ability_texts[0]


def test_a_card_with_no_room_for_an_ability_shows_none_over_its_other_lines(driver: Any, arcade: Any) -> None:
    """Under a tall attack preview the card keeps its numbers and status line; an ability with no room
    is not drawn over them (it was, with "4 more" and the status line on top of each other)."""
    from minis.ui.cardpanel import CardPanel
    from minis.ui.widgets import Box
    from tests.test_ui_layout import assert_no_text_overlaps

    card = card_catalogue()["3-inch-mortar"]
    panel = CardPanel()
    panel.place(Box(0, 0, 340, 200))  # the battle's card under a 240-pixel preview and one button
    panel.show(card, "Allies · D3")
    page = panel._page
    assert page is not None and not page.shown and not page.more.text
    assert_no_text_overlaps(panel.parts())
    panel.place(Box(0, 0, 340, 300))  # room again: its abilities come back
    page = panel._page
    assert page is not None and page.shown
    assert_no_text_overlaps(panel.parts())
