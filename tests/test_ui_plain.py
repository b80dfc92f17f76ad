"""Plain words for players (issue 13): units named by their cards in the log and the engine's reasons,
the winner as "the Allies win". No window (and no arcade)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from minis.base.sides import Side
from minis.engine.events import Event, describe
from minis.hexgrid import Hex
from minis.ui.demo import demo_game
from minis.ui.plain import plain, unit_names
from minis.ui.session import Session

GAME = demo_game(large=True, stop="deployed")
NAMES = unit_names(GAME.state.units.values())


def test_units_are_named_by_their_cards_and_copies_numbered() -> None:
    assert NAMES["panzer-iv-ausf-g"] == "Panzer IV Ausf. G"
    assert NAMES["mauser-kar-98k"] == "Mauser Kar 98k"
    assert NAMES["mauser-kar-98k#2"] == "the second Mauser Kar 98k"
    assert NAMES["mauser-kar-98k#3"] == "the third Mauser Kar 98k"
    assert len(set(NAMES.values())) == len(NAMES)  # every unit of the battle told apart


def test_plain_replaces_the_battles_unit_ids_in_an_engine_reason() -> None:
    reason = "No attack: panzer-iv-ausf-g has no line of sight to m4a1-sherman."
    assert plain(reason, NAMES) == "No attack: Panzer IV Ausf. G has no line of sight to M4A1 Sherman."
    assert (
        plain("mauser-kar-98k#2 and mauser-kar-98k", NAMES) == "the second Mauser Kar 98k and Mauser Kar 98k"
    )
    # only whole ids of units in the battle: a fourth copy, a card not in it, a longer token stay
    assert (
        plain("mauser-kar-98k#4, tiger-i, x-pioneers-y", NAMES) == "mauser-kar-98k#4, tiger-i, x-pioneers-y"
    )
    assert plain("'pioneers' (pioneers).", NAMES) == "'Pioneers' (Pioneers)."
    assert plain("pioneers", {}) == "pioneers"


@given(
    st.lists(st.sampled_from(sorted(NAMES)), min_size=1, max_size=6),
    st.sampled_from([" ", ", ", ": ", " -> "]),
)
def test_plain_leaves_no_id_of_the_battle_behind(ids: list[str], glue: str) -> None:
    text = glue.join(ids) + "."
    assert plain(text, NAMES) == glue.join(NAMES[i] for i in ids) + "."


def test_the_log_names_units_and_says_the_allies_win() -> None:
    def label(hex_: Hex) -> str:
        return GAME.label(hex_)

    roll = Event("roll", unit="panzer-iii-ausf-f", dice=(2,), note="stream", value=0)
    assert describe(roll, label, NAMES.__getitem__) == "Panzer III Ausf. F movement roll for stream: 2 fails"
    assert describe(roll, label).startswith("panzer-iii-ausf-f ")  # the records' form: ids
    attack = Event("attack", unit="mauser-kar-98k#2", target="m4a1-sherman", dice=(6, 1), value=1)
    assert (
        describe(attack, label, NAMES.__getitem__)
        == "the second Mauser Kar 98k attacks M4A1 Sherman: 6 1 -> 1 successes"
    )
    assert describe(Event("winner", side=Side.ALLIES, note="controls the objective"), label) == (
        "the Allies win (controls the objective)"
    )
    assert describe(Event("first", side=Side.AXIS), label) == "the Axis are the first player"
    assert describe(Event("coin", side=Side.AXIS, dice=(2,)), label) == "coin flip (2): the Axis win"
    assert describe(Event("phase", side=Side.AXIS, note="movement"), label) == "Axis movement phase"


def test_the_sessions_lines_name_units(tmp_path: Path) -> None:
    session = Session(GAME, saves=tmp_path)
    assert session.describe([Event("removed", unit="mauser-kar-98k#2")]) == [
        "the second Mauser Kar 98k is destroyed"
    ]
