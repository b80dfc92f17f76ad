"""No text past its box (issue 13): every text a screen lays out, checked against the box it was given.

`overflows` walks a screen's widgets after a frame (the title, the hint, the widgets, a dialog, and the
widgets each of them draws inside itself: `Widget.parts`) and compares each label's laid-out size
(pyglet's content width and height) with its box. The tests reach every screen of a real headless
1280x800 window and expect nothing to overflow.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: Pixels a text may pass its box by (pyglet rounds glyph advances).
SLACK = 1.0


def _walk(widget: Any, seen: set[int]) -> Iterator[Any]:
    """`widget` and everything it draws, skipping what is hidden."""
    if id(widget) in seen or not widget.visible:
        return
    seen.add(id(widget))
    yield widget
    for part in widget.parts():
        yield from _walk(part, seen)


def overflows_of(*roots: Any) -> list[str]:
    """Every shown text of the widgets `roots` (and what they draw) wider than its box, or (wrapped)
    taller, as readable lines."""
    from minis.ui.widgets import Label

    found = []
    seen: set[int] = set()
    for root in roots:
        for widget in _walk(root, seen):
            if not isinstance(widget, Label) or not widget.text:
                continue
            width, height = widget.text_width, widget.height_for(widget.box.width)
            too_wide = width > widget.box.width + SLACK
            too_tall = widget.multiline and height > widget.box.height + SLACK
            if too_wide or too_tall:
                found.append(
                    f"{widget.text[:60]!r} is {width:.0f}x{height:.0f}"
                    f" in a {widget.box.width:.0f}x{widget.box.height:.0f} box"
                )
    return found


def overflows(screen: Any) -> list[str]:
    """`overflows_of` the screen's title, hint, widgets and dialog."""
    roots = [screen._title, screen._hint, *screen.widgets]
    if screen.dialog is not None:
        roots.append(screen.dialog)
    return [f"{type(screen).__name__}: {found}" for found in overflows_of(*roots)]


def check(driver: Any) -> None:
    """The screen on top of the window, after a frame, has no text past its box."""
    driver.frame()
    found = overflows(driver.screen)
    import os

    if os.environ.get("LAYOUT_COLLECT"):
        for f in found:
            print("OVERFLOW", f)
        return
    assert not found, "\n".join(found)


def click_cards(driver: Any, card_ids: tuple[str, ...]) -> None:
    builder = driver.screen
    for card_id in card_ids:
        row = builder.card_row(card_id)
        builder.cards.highlight(row)
        driver.click_box(builder.cards.row_box(row))
        check(driver)


def click_hex(driver: Any, label: str) -> None:
    screen = driver.screen
    driver.click(*screen.map.hex_centre_on_screen(screen.state.board.parse(label)))


def deploy_by_clicking(driver: Any, zone: Any) -> None:
    """Deploy the deciding side's units: the first listed unit, clicked onto a hex the engine allows
    for every unit still to deploy (in `zone`, if given), until none is left; a check after each."""
    screen = driver.screen
    game = screen.session.game
    side = game.decider()
    while waiting := [u for u in screen.state.units.values() if u.side is side and u.hex is None]:
        hexes = set.intersection(*({a.hex for a in game.legal_actions(u.id)} for u in waiting))
        hexes = {h for h in hexes if zone is None or h in zone}
        driver.click_box(screen.units_list.row_box(0))
        check(driver)
        click_hex(driver, screen.state.board.label(min(hexes, key=lambda h: (h.r, -h.q))))
        check(driver)
        assert len([u for u in screen.state.units.values() if u.side is side and u.hex is None]) < len(
            waiting
        )


def test_an_assault_from_the_menu_to_the_first_move(driver: Any, arcade: Any) -> None:
    """Attacker choice, hand-overs, both builders (with an army broken on purpose), the defender's map,
    objective and end, deployment, the initiative."""
    from minis.dice import Dice

    driver.window.new_dice = Dice.scripted
    driver.click_box(driver.screen.entry_box("New Assault battle"))
    check(driver)
    driver.key(arcade.key.A)  # the Axis attack: its hand-over
    check(driver)
    driver.key(arcade.key.SPACE)
    check(driver)
    assert driver.screen.army_title.text == "Assault: attacker (up to 120 points)"
    click_cards(driver, ("tiger-i", "tiger-i", "panzer-iv-ausf-g", "ss-haupsturmfuhrer", "mauser-kar-98k"))
    builder = driver.screen
    for _ in range(2):  # the second Tiger out again: a legal army
        driver.click_box(builder.army_list.row_box(builder.army_row("tiger-i")))
    check(driver)
    driver.key(arcade.key.D)
    check(driver)
    driver.key(arcade.key.SPACE)
    check(driver)
    assert driver.screen.army_title.text == "Assault: defender (up to 80 points)"
    click_cards(driver, ("m4a1-sherman", "6-pounder-anti-tank-gun", "m1-garand-rifle"))
    driver.key(arcade.key.D)
    check(driver)
    driver.key(arcade.key.SPACE)
    check(driver)
    driver.key(arcade.key.KEY_3)
    check(driver)
    driver.key(arcade.key.ENTER)
    screen = driver.screen
    check(driver)
    click_hex(driver, "A1")  # refused, with the engine's reason
    check(driver)
    click_hex(driver, "F8")
    check(driver)  # the choice of an end
    driver.key(arcade.key.E)
    check(driver)
    driver.key(arcade.key.SPACE)
    deploy_by_clicking(driver, screen.state.board.half_of_map("east"))
    driver.key(arcade.key.R)
    check(driver)
    driver.key(arcade.key.SPACE)
    deploy_by_clicking(driver, None)
    screen.session.game.dice.push((1, 2, 6, 6))  # the initiative: the Allies win
    driver.key(arcade.key.R)
    check(driver)
    driver.key(arcade.key.L)
    check(driver)
    driver.key(arcade.key.ESCAPE)  # the leave dialog
    check(driver)


def open_battle(driver: Any, game: Any, tmp_path: Any) -> Any:
    from minis.ui.session import Session

    driver.window.routes.battle(Session(game, saves=tmp_path / "saves"), replace=False)
    driver.frame()
    return driver.screen


def hexes_on_screen(screen: Any) -> list[Any]:
    return [
        h for h in screen.state.board.hexes() if screen.map.box.contains(*screen.map.hex_centre_on_screen(h))
    ]


def test_the_demo_battle_moving_attacking_and_its_dialogs(driver: Any, arcade: Any, tmp_path: Any) -> None:
    """The large demo battle (15 units a side): each unit selected, the mouse over every unit's hex (the
    hover box), a path and an attack, the question before ending a phase, the leave dialog, and the
    save and load dialogs."""
    from minis.ui.demo import demo_game

    for stop in ("deployed", "assault"):
        driver.window.routes.main_menu()
        screen = open_battle(driver, demo_game(large=True, stop=stop), tmp_path)
        check(driver)
        occupied = sorted({u.hex for u in screen.state.units.values() if u.hex is not None}, key=str)
        for hex_ in occupied:
            driver.move(*screen.map.hex_centre_on_screen(hex_))
            driver.frame()
            check(driver)
            assert not overflows_of(screen.tooltip)
            driver.click(*screen.map.hex_centre_on_screen(hex_))
            check(driver)
            for other in occupied[::3]:  # an attack's odds, or a path toward it
                driver.move(*screen.map.hex_centre_on_screen(other))
                driver.frame()
                check(driver)
            driver.key(arcade.key.ESCAPE)
        driver.key(arcade.key.P)  # asks first: units could still act
        check(driver)
        driver.key(arcade.key.N)
        driver.key(arcade.key.ESCAPE)  # the leave dialog
        check(driver)
        driver.key(arcade.key.N)
        driver.key(arcade.key.S, arcade.key.MOD_CTRL)
        check(driver)
        driver.key(arcade.key.ESCAPE)
        driver.key(arcade.key.O, arcade.key.MOD_CTRL)
        check(driver)
        driver.key(arcade.key.ESCAPE)


def test_the_victory_screen_of_a_whole_battle(driver: Any, arcade: Any, tmp_path: Any) -> None:
    from minis.ai.random_bot import RandomBot, play
    from minis.ui.demo import demo_game
    from minis.ui.session import Session

    game = play(demo_game(large=True, stop="deployed"), RandomBot(1))
    assert game.over
    driver.window.routes.victory(Session(game, saves=tmp_path / "saves"))
    check(driver)
    victory = driver.screen
    assert victory.headline.text in ("The Axis win", "The Allies win", "The battle is drawn")
    axis_lines = victory.lines[0]  # 15 units: each by its card's name, copies numbered
    assert len(axis_lines) == 15 and len({line.split(": ")[1] for line in axis_lines}) == 15
    assert any("the third Mauser Kar 98k (3)" in line for line in axis_lines)


def test_the_menus_other_screens_and_the_file_dialogs(driver: Any, arcade: Any, tmp_path: Any) -> None:
    """Battle maps (each configuration), the scenario chooser, the Load dialog with long file names and
    a broken save, a Standard battle's start to its map choice, and the map editor."""
    from minis import record
    from minis.ui.demo import demo_game
    from tests.helpers_window import open_editor

    menu = driver.screen
    for _ in menu.entries:  # each entry highlighted: the line under the menu says what it does
        check(driver)
        driver.key(arcade.key.DOWN)
    driver.click_box(menu.entry_box("Battle maps"))
    for key in (arcade.key.KEY_1, arcade.key.KEY_2, arcade.key.KEY_6):
        driver.key(key)
        check(driver)
    driver.key(arcade.key.ESCAPE)
    driver.click_box(menu.entry_box("Play a scenario"))
    check(driver)
    driver.key(arcade.key.ESCAPE)
    saves = tmp_path / "saves"
    saves.mkdir()
    long_name = "a-battle-with-a-very-long-name-" * 5 + "x.minis"
    record.save(demo_game(), saves / long_name)
    (saves / "broken.minis").write_text("not a record\n", encoding="utf-8")
    driver.click_box(menu.entry_box("Load game"))
    check(driver)
    files = driver.screen.files
    row = files.items.index(long_name)
    assert files.parts()[row].text.endswith("…")  # cut to fit its row: the path field below shows it whole
    driver.click_box(files.row_box(row))  # and it is the file loaded
    assert type(driver.screen).__name__ == "BattleScreen"
    driver.window.routes.main_menu()
    menu = driver.screen
    driver.click_box(menu.entry_box("New Standard battle"))
    check(driver)  # the Axis player's hand-over
    driver.key(arcade.key.SPACE)
    army = tmp_path / ("an-army-file-with-a-long-name-" * 3 + "axis.toml")
    army.write_text(
        'name = "x"\nside = "axis"\nscenario = "assault-attacker"\nunits = ["tiger-i", "pioneers"]\n',
        encoding="utf-8",
    )
    builder = driver.screen
    driver.click_box(builder.load_button.box)
    driver.screen.path.set_value("")
    driver.type_text(str(army))
    check(driver)  # the path field, its end in view
    driver.key(arcade.key.ENTER)
    assert builder.message.text == "Loaded 2 units (made for Assault: attacker, checked here for Standard)."
    check(driver)
    click_cards(driver, ("panzer-iv-ausf-g", "light-mortar"))
    driver.key(arcade.key.D)
    driver.key(arcade.key.SPACE)
    click_cards(driver, ("m4a1-sherman", "6-pounder-anti-tank-gun"))
    driver.key(arcade.key.D)
    check(driver)  # both armies ready
    driver.key(arcade.key.SPACE)
    check(driver)  # the map choice
    open_editor(driver.window)
    check(driver)


def test_the_battle_log_fits_its_box(driver: Any, arcade: Any, tmp_path: Any) -> None:
    from minis.ui.demo import demo_game

    screen = open_battle(driver, demo_game(large=True, stop="deployed"), tmp_path)
    for unit in screen.state.units.values():  # a selected unit's buttons leave the log less room
        driver.click(*screen.map.hex_centre_on_screen(unit.hex))
        assert overflows_of(screen.log) == []
        driver.key(arcade.key.ESCAPE)


def test_the_check_finds_a_text_past_its_box(driver: Any) -> None:
    """The check itself: a line too wide, wrapped text too tall, and the same texts given room."""
    from minis.ui.widgets import Box, Button, Label, Panel

    wide = Button("A caption far too long for its button", lambda: None)
    tall = Label("Word " * 40, multiline=True)
    panel = Panel([wide, tall])
    wide.place(Box(10, 10, 80, 30))
    tall.place(Box(10, 50, 200, 40))
    assert len(overflows_of(panel)) == 2
    wide.place(Box(10, 10, 600, 30))
    tall.place(Box(10, 50, 200, 400))
    assert overflows_of(panel) == []
    wide.visible = False  # hidden: not checked
    wide.place(Box(10, 10, 80, 30))
    assert overflows_of(panel) == []


def test_a_long_info_text_is_cut_to_its_box_and_a_reason_ends_its_sentence(
    driver: Any, arcade: Any, tmp_path: Any
) -> None:
    """A hint's reason on top of a long phase text (a Hero waiting off the map, the units to move) ran
    under the buttons below the info box and on into the next sentence ("...may still move Click one")."""
    from minis.ui.battle import INFO_MOST
    from minis.ui.demo import demo_game

    screen = open_battle(driver, demo_game(large=True, stop="deployed"), tmp_path)
    control = screen.controller
    control.hint_why = "the Tiger is in two bazookas' range, " * 12 + "and nothing else covers it"
    control.version += 1  # what a hint asked for with H changes
    screen.update_panel()
    driver.frame()
    assert screen.info.text.startswith("Why: the Tiger is in two bazookas' range")
    assert screen.info.text.endswith("…")
    assert screen.info.height_for(screen.info.box.width) <= INFO_MOST
    assert overflows_of(screen.info) == []
    below = [b for b in screen.choices if b.visible] or [screen.card]
    assert screen.info.box.bottom >= below[0].box.top
    shown = next(u for u in screen.state.units.values() if u.hex and u.card.abilities)
    driver.move(*screen.map.hex_centre_on_screen(shown.hex))  # its card follows the pointer
    driver.frame()
    assert screen.card.card is shown.card and screen.info.text.endswith("…")
    assert_no_text_overlaps(screen.card.parts())  # the card below, shorter now, overlaps nothing
    control.hint_why = "the Tiger is in two bazookas' range"
    control.version += 1
    screen.update_panel()
    driver.frame()
    assert screen.info.text.startswith("Why: the Tiger is in two bazookas' range.\n")
    assert not screen.info.text.endswith("…")


def assert_no_text_overlaps(labels: Any) -> None:
    """No two shown texts of `labels` share a pixel (a card squeezed by a long text above it drew its
    first ability over its status line)."""
    boxes = [(label.text[:30], label.box) for label in labels if label.text and label.visible]
    for i, (text_a, a) in enumerate(boxes):
        for text_b, b in boxes[i + 1 :]:
            apart = a.right <= b.left or b.right <= a.left or a.top <= b.bottom or b.top <= a.bottom
            assert apart, f"{text_a!r} {a} overlaps {text_b!r} {b}"
