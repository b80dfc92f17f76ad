"""The action notation (docs/contracts.md#action-notation): parse and format round-trip; bad text is
refused clearly."""

from __future__ import annotations

import contextlib

import pytest
from engine_support import board
from hypothesis import given
from hypothesis import strategies as st

from minis.base.sides import Side
from minis.engine import actions as A
from minis.hexgrid import FACINGS

BOARD = board("""
C C C C C
 C C C C
C C C C C
""")
HEXES = st.sampled_from(BOARD.hexes)
IDS = st.from_regex(r"[a-z0-9][a-z0-9#-]{0,12}", fullmatch=True).filter(
    lambda w: w not in ("at", "face", "overrun")
)
FACING = st.sampled_from(FACINGS)

ACTIONS = st.one_of(
    st.builds(
        A.Move, IDS, st.lists(HEXES, min_size=1, max_size=6).map(tuple), st.none() | FACING, st.none() | IDS
    ),
    st.builds(A.Face, IDS, FACING),
    st.builds(A.Attack, IDS, IDS),
    st.builds(A.Fire, IDS, HEXES),
    st.just(A.Hold()),
    st.builds(A.BoardTransport, IDS, IDS),
    st.builds(A.Dismount, IDS, HEXES),
    st.just(A.Pass()),
    st.builds(A.First, st.sampled_from(list(Side))),
    st.builds(A.Configuration, st.integers(1, 6)),
    st.builds(A.Objective, HEXES),
    st.builds(A.End, st.sampled_from(["west", "east"])),
    st.builds(A.Deploy, IDS, HEXES, st.none() | FACING),
    st.just(A.Ready()),
    st.builds(A.Arrive, IDS, HEXES),
)


@given(ACTIONS)
def test_format_then_parse_gives_the_action_back(action: A.Action) -> None:
    text = A.format_action(action, BOARD.label)
    assert A.parse(text, BOARD.parse) == action


def test_the_contract_examples_parse() -> None:
    assert A.parse("move sherman B2 face E", BOARD.parse) == A.Move(
        "sherman", (BOARD.parse("B2"),), FACINGS[0]
    )
    assert A.parse("move pak A2 B2 C3", BOARD.parse).path == tuple(BOARD.parse(x) for x in ("A2", "B2", "C3"))
    assert A.parse("fire pak at B2", BOARD.parse) == A.Fire("pak", BOARD.parse("B2"))
    assert A.parse("first allies", BOARD.parse) == A.First(Side.ALLIES)
    assert A.parse("  PASS ", BOARD.parse) == A.Pass()
    assert A.parse("arrive fallschirmjager B2", BOARD.parse) == A.Arrive("fallschirmjager", BOARD.parse("B2"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("jump sherman B2", "unknown action 'jump'"),
        ("move sherman", "at least one hex"),
        ("move sherman Z9", "off the map"),
        ("move sherman B2 face Q", "unknown facing"),
        ("fire pak B2", "fire U at H"),
        ("attack sherman", "attack U T"),
        ("first nobody", "unknown side"),
        ("end north", "unknown end"),
        ("configuration x", "not a configuration number"),
        ("hold now", "hold"),
    ],
)
def test_bad_text_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(A.NotationError, match=words):
        A.parse(text, BOARD.parse)


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    with contextlib.suppress(A.NotationError):
        A.parse(text, BOARD.parse)
