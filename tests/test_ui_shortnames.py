"""Short names that read as the unit, for every card of the catalogue (issue 33).

Counters showed "III" (a StuG III), "SSPa", "Panz." (a Panzerfaust) and "M13/." (an M13/40). Every card's
short name, alone, among its nation's cards and among all 473 at once, must pass `readable` (not only
numbers or Roman numerals, no cut through a model number or a part of a compound), be unique, and fit
the counter's name plate at the size it is printed (`scale`). Screenshot: `counter-names.png`.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from minis.cards import card_catalogue
from minis.ui.shortnames import FULL_EM, MAX_EM, readable, scale, short_names, text_em

CARDS = sorted(card_catalogue().values(), key=lambda c: c.id)
#: What the issue saw, and what it is now.
ISSUE = {
    "Elite StuG III Ausf. G": "StuG III",
    "Panzerfaust 30": "Faust 30",
    "Panzerschreck": "Schreck",
    "Carro Armato M13/40": "M13/40",
    "SS Panzergrenadier": "PzGr",
    "Panzer IV Ausf. G": "Pz IV",
    "Marder III Ausf. M": "Mard III",
    "Sd Kfz 222": "Kfz 222",
    "Bf 109 E Ace": "Bf 109",
    "Vickers Machine-Gun Team": "Vickers",
    "King Tiger": "Tiger II",
    "Light Mortar": "Mortar",
    # cut before, each word short of room ("Elep.", "Inte.", "Engi.", "Croc.", "Part.", "Obse.", "Gnr")
    "Elephant": "Elefant",
    "Typhoon Interceptor": "Typhoon",
    "US Engineer": "Engr",
    "Churchill Crocodile": "Croc",
    "Communist Partisans": "Partisan",
    "Concealed Foreward Observer": "FO",
    "Thompson Gunner": "Tommy",
}


def test_the_rules_of_a_readable_short_name() -> None:
    for bad in ("III", "IV", "109", "47/32", "7/1", "M13/.", "SS-S.", "Mk. 2", "109 E", "Pz.", "Pa. 2"):
        assert not readable(bad), bad
    for good in ("Pz IV", "98k", "StuG III", "Kfz 222", "Vick.", "Faust 30", "MG-42", "PzGr 2", "Schreck"):
        assert readable(good), good


def test_each_card_alone_has_a_readable_short_name() -> None:
    alone = {c.name: short_names([c.name])[0] for c in CARDS}
    assert [name for name, short in alone.items() if not readable(short)] == []
    for name, short in ISSUE.items():
        assert alone[name] == short, (name, alone[name])
    assert not {"III", "SSPa", "Panz.", "M13/."} & set(alone.values())


def test_a_nations_cards_together_have_distinct_readable_short_names() -> None:
    by_nation: dict[object, list[str]] = defaultdict(list)
    for card in CARDS:
        by_nation[card.nation].append(card.name)
    for nation, names in by_nation.items():
        distinct = sorted(set(names))  # a name printed on two cards is one card to a player
        shorts = short_names(distinct)
        assert len(set(shorts)) == len(shorts), nation
        assert [s for s in shorts if not readable(s)] == [], nation
    together = short_names(["StuG III Ausf. D", "StuG III Ausf. G", "Elite StuG III Ausf. G"])
    assert together == ["StuG III", "StuG G", "StuG III G"] or all(readable(s) for s in together)
    assert all(readable(s) and not s.startswith("III") for s in together)


def test_all_the_cards_at_once_stay_distinct_and_readable() -> None:
    names = sorted({c.name for c in CARDS})
    shorts = short_names(names)
    assert len(set(shorts)) == len(shorts)
    assert [(n, s) for n, s in zip(names, shorts, strict=True) if not readable(s)] == []


def test_every_short_name_fits_the_counter_at_its_size(arcade: Any) -> None:
    """Printed in the counters' font at the default zoom of a 1280x800 window (one world unit a pixel):
    the name plate is the counter inside its rim; a name wider than FULL_EM is printed smaller."""
    from minis.ui import theme
    from minis.ui.battlemap import PIXELS_PER_POINT
    from minis.ui.counters import HALF_WIDTH, NAME_SIZE, RIM

    window = arcade.Window(200, 100, visible=False)
    try:
        theme.load_fonts()
        room = 2 * (HALF_WIDTH - RIM)
        shorts = {short for c in CARDS for short in short_names([c.name] * 3)}  # copies: " 2", " 3"
        for short in shorts:
            assert text_em(short) <= MAX_EM, short
            size = NAME_SIZE * scale(short)
            assert scale(short) == 1 or text_em(short) > FULL_EM
            text = arcade.Text(
                short, 0, 0, (0, 0, 0, 255), size / PIXELS_PER_POINT, font_name=theme.FONT, bold=True
            )
            assert text.content_width <= room, short
    finally:
        window.close()


def test_a_picture_of_counters_with_their_names(
    driver: Any, arcade: Any, tmp_path: Path, shots: Path
) -> None:
    """German and Italian armour and guns on the map, their names as the issue saw them done right."""
    from minis.dice import Dice
    from minis.mapfile import load_configuration
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session
    from tests.engine_support import position, unit

    board = load_configuration(1)
    ids = [
        ("stug", "elite-stug-iii-ausf-g", "F3"),
        ("stug-d", "stug-iii-ausf-d", "F4"),
        ("faust", "panzerfaust-30", "G4"),
        ("schreck", "panzerschreck", "G3"),
        ("m13", "veteran-carro-armato-m13-40", "E4"),
        ("pzgr", "ss-panzergrenadier", "E3"),
        ("kfz", "sd-kfz-222", "H3"),
        ("marder", "marder-iii-ausf-m", "H4"),
    ]
    catalogue = card_catalogue()
    units = [unit(board, uid, card, "axis", at) for uid, card, at in ids if card in catalogue]
    assert len(units) == len(ids), [card for _, card, _ in ids if card not in catalogue]
    units.append(unit(board, "sherman", "m4a1-sherman", "allies", "F12"))
    game = position(board, units, phase="movement", active="axis", dice=Dice.scripted([]))
    screen = BattleScreen(driver.window, Session(game, saves=tmp_path, autosave=False))
    driver.window.open(screen)
    driver.frame()
    names = screen.controller.short_names()
    assert {names[uid] for uid, _, _ in ids} >= {"StuG III", "Faust 30", "Schreck", "M13/40", "Kfz 222"}
    assert all(readable(n) for n in names.values())
    driver.screenshot(shots / "counter-names.png")
