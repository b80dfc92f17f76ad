"""Issue 13: the card, the odds and the map explain themselves.

The attack preview names each modifier that applies (and why) and what the sight line's percentage
is; the card panel shows every ability with its description (the wheel brings those that don't fit);
T shows a key of the map's terrain over its corner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from engine_support import board, position, unit

from minis.engine import queries
from minis.engine.queries import AttackPreview
from minis.ui.readout import BattleReadout

B = board(
    """
C C C C C C
 C T C C C
C C C C C C
 C C F C C
"""
)


def _preview(disrupt: tuple[str, ...]) -> AttackPreview:
    units = [
        unit(B, "rifle", "mauser-kar-98k", "axis", "A1"),
        unit(B, "enemy", "m1-garand-rifle", "allies", "A3"),
    ]
    units = [attrs.evolve(u, disrupted=True) if u.id in disrupt else u for u in units]
    game = position(B, units, phase="assault")
    preview = queries.attack_preview(game.state, "rifle", "enemy")
    assert isinstance(preview, AttackPreview)
    return preview


def test_the_preview_names_a_disrupted_target_and_attacker() -> None:
    plain = _preview(())
    assert plain.modifiers == () and plain.defense == plain.card_defense
    both = _preview(("rifle", "enemy"))
    texts = [m.text for m in both.modifiers]
    assert "-1 to hit: the attacker is disrupted" in texts
    assert "-1 defense: the target is disrupted" in texts
    assert both.card_defense == plain.defense and both.defense == plain.defense - 1


def test_the_odds_text_says_the_modifiers_and_the_sight_line_percentage(driver: Any) -> None:
    from minis.ui.controller import BattleController
    from minis.ui.session import Session

    units = [
        unit(B, "rifle", "mauser-kar-98k", "axis", "A1"),
        attrs.evolve(unit(B, "enemy", "m1-garand-rifle", "allies", "A3"), disrupted=True),
    ]
    control = BattleController(Session(position(B, units, phase="assault"), autosave=False))
    preview = queries.attack_preview(control.state, "rifle", "enemy")
    assert isinstance(preview, AttackPreview)
    text = BattleReadout(control).attack_text(preview)
    assert f"defense {preview.defense} (card {preview.card_defense})" in text
    assert "-1 defense: the target is disrupted" in text
    assert f"{queries.percent(preview.hit_chance)} (on the sight line): at least one hit" in text


def _battle(driver: Any) -> Any:
    from minis.ui.battle import BattleScreen
    from minis.ui.demo import demo_game
    from minis.ui.session import Session

    screen = BattleScreen(driver.window, Session(demo_game(), autosave=False))
    driver.window.open(screen)
    driver.frame()
    return screen


def test_a_selected_units_card_shows_its_abilities_described_and_scrolls(driver: Any, arcade: Any) -> None:
    from test_ui_layout import overflows

    screen = _battle(driver)
    units = [u for u in screen.state.units.values() if u.hex is not None]
    many = max(units, key=lambda u: len(u.card.abilities))
    assert len(many.card.abilities) >= 2
    screen.card.place(screen.card.box)  # as laid out
    screen.card.show(many.card)
    driver.frame()
    page = screen.card._page
    shown = [label.text for label in page.shown]
    first = many.card.abilities[0]
    assert shown[0] == f"{first.text}: {first.description}"
    assert not overflows(screen)
    seen = set(shown)
    for _ in many.card.abilities:  # the wheel over the card brings the others
        driver.scroll(*screen.card.box.centre, -1)
        seen |= {label.text for label in page.shown}
        assert not overflows(screen)
    assert seen == {f"{a.text}: {a.description}" for a in many.card.abilities}


def test_t_shows_the_map_key_over_the_maps_corner(driver: Any, arcade: Any, shots: Path) -> None:
    from test_ui_layout import overflows

    screen = _battle(driver)
    assert "T: map key" in screen._hint.text
    assert not screen.map_key.visible
    before = driver.image()
    driver.key(arcade.key.T)
    driver.frame()
    key = screen.map_key
    assert key.visible and screen.map.box.left <= key.box.left and key.box.right <= screen.map.box.right
    assert [label.text for label in key.legend.names][:3] == ["clear", "forest", "hill"]
    assert not overflows(screen)
    assert driver.image() != before  # drawn
    driver.screenshot(shots / "battle-map-key.png")
    driver.key(arcade.key.T)
    driver.frame()
    assert not key.visible
