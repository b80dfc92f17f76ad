"""Game records and saves: round trips, resuming mid-turn, atomic writes, clear errors for bad files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.ai.random_bot import RandomBot, play
from minis.army import load_army
from minis.base.errors import MinisError
from minis.dice import Dice
from minis.game import Game
from minis.record import load, parse_record, record_text, replay_record, save, write_atomic

ROOT = Path(__file__).resolve().parent.parent
AXIS = load_army(ROOT / "armies" / "sample-axis.toml")
ALLIES = load_army(ROOT / "armies" / "sample-allies.toml")


def finished_game(seed: int) -> Game:
    game = Game.new(AXIS, ALLIES, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=20)
    return play(game, RandomBot(seed))


@pytest.fixture(scope="module")
def game() -> Game:
    return finished_game(3)


@pytest.fixture(scope="module")
def text(game: Game) -> str:
    return record_text(game)


def test_a_record_replays_to_the_identical_state(game: Game, text: str) -> None:
    assert game.over
    replayed = replay_record(parse_record(text))
    assert replayed.state.snapshot() == game.state.snapshot()
    assert replayed.winner is game.winner
    assert record_text(replayed) == text


def test_save_in_the_middle_of_a_turn_and_resume(tmp_path: Path) -> None:
    whole = Game.new(AXIS, ALLIES, dice=Dice(seed=11), turn_limit=20)
    half = Game.new(AXIS, ALLIES, dice=Dice(seed=11), turn_limit=20)
    bot_a, bot_b = RandomBot(4), RandomBot(4)
    for _ in range(120):
        half.apply(bot_b.choose(half))
    path = tmp_path / "game.save"
    save(half, path)
    dice = Dice(seed=11)  # a load draws fresh dice; this test continues the seeded ones on purpose
    dice.skip(half.dice.used)
    resumed = load(path, dice=dice)
    assert resumed.state.snapshot() == half.state.snapshot()
    assert resumed.state.turn >= 1 and resumed.decider() is not None
    play(whole, bot_a)
    play(resumed, bot_b)
    assert resumed.state.snapshot() == whole.state.snapshot()


def test_writes_are_atomic(tmp_path: Path, game: Game) -> None:
    path = tmp_path / "game.rec"
    path.write_text("old")
    save(game, path)
    assert path.read_text().startswith("# minis game record")
    assert os.listdir(tmp_path) == ["game.rec"]  # no temporary file left behind

    with pytest.raises(TypeError):
        write_atomic(path, None)  # type: ignore[arg-type]
    assert path.read_text().startswith("# minis game record") and os.listdir(tmp_path) == ["game.rec"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda ls: ls[:1] + ls[2:], "unknown record format"),
        (lambda ls: [ls[0], "format = 1", "colour = 3", *ls[2:]], "unknown header key"),
        (lambda ls: [line.replace("first ", "frist ") for line in ls], "unknown action 'frist'"),
        (
            lambda ls: [line.replace(" |", "") if line.startswith("end ") else line for line in ls],
            "expected 'ACTION",
        ),
        (lambda ls: [line + " 9" if line.startswith("start") else line for line in ls], "not a die"),
        (
            lambda ls: [line + " 4" if line.startswith("start") else line for line in ls],
            "more dice than the game used",
        ),
        (lambda ls: [line for line in ls if not line.startswith("start")], "needs dice"),
        (
            lambda ls: [line.replace("end east", "end up").replace("end west", "end up") for line in ls],
            "unknown end",
        ),
        (
            lambda ls: [
                line.replace("first axis", "first allies").replace("first allies |", "ready |", 1)
                for line in ls
            ],
            "not legal here",
        ),
        (lambda ls: [line for line in ls if line != "---"], "no '---' line"),
    ],
)
def test_malformed_records_name_the_line(text: str, change, words: str) -> None:
    bad = "\n".join(change(_lines(text)))
    with pytest.raises(MinisError) as caught:
        replay_record(parse_record(bad, "bad.rec"))
    message = str(caught.value)
    assert words in message
    assert message.startswith("bad.rec:")


MUTATIONS = st.sampled_from(["delete", "duplicate", "swap", "edit", "truncate"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_mutated_records_give_only_minis_errors(text: str, data: st.DataObject) -> None:
    lines = _lines(text)
    for _ in range(data.draw(st.integers(1, 3))):
        kind = data.draw(MUTATIONS)
        index = data.draw(st.integers(0, len(lines) - 1))
        if kind == "delete" and len(lines) > 1:
            del lines[index]
        elif kind == "duplicate":
            lines.insert(index, lines[index])
        elif kind == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        elif kind == "edit":
            line = lines[index]
            position = data.draw(st.integers(0, len(line)))
            insert = data.draw(st.text(alphabet="abcAB12 |#=-[]\"'\t", max_size=4))
            cut = data.draw(st.integers(0, 3))
            lines[index] = line[:position] + insert + line[position + cut :]
        elif kind == "truncate":
            lines = lines[: index + 1]
    try:
        replay_record(parse_record("\n".join(lines), "mutant.rec"))
    except MinisError as error:
        assert all(problem.file == "mutant.rec" for problem in error.problems)


# --- unit ids: format 1's numbering across both armies still replays (minis.content.unit_ids) ---------------

#: The start of a save written before the ids were made per army (format 1, by the code of fe8ca68):
#: the Allied pillbox is `pillbox#2` because the Axis army has one too.
FORMAT_1_SAVE = """\
# minis game record
format = 1
scenario = "standard"
attacker = ""
configuration = 1
axis = ["mauser-kar-98k", "pillbox"]
allies = ["m1-garand-rifle", "pillbox"]
axis_name = "a"
allies_name = "b"
---
start | 4
first axis |
end west |
deploy pillbox J15 |
deploy pillbox#2 B8 |
deploy mauser-kar-98k D2 |
ready |
deploy m1-garand-rifle E15 |
ready | 4 5 2 4
first allies |
move m1-garand-rifle D15 |
pass |
move mauser-kar-98k E2 |
pass |
move m1-garand-rifle C16 |
pass |
pass | 6 6 2 4
"""


def test_a_format_1_save_with_the_old_ids_replays_to_the_same_state(tmp_path: Path) -> None:
    from minis.rules import obstacles

    game = replay_record(parse_record(FORMAT_1_SAVE))
    state = game.state
    assert state.turn == 2 and set(state.units) == {"mauser-kar-98k", "m1-garand-rifle"}
    board = state.battle.board
    placed = {(o.id, o.side.value, board.label(o.hex)) for o in obstacles.all_obstacles(state) if o.hex}
    assert placed == {("pillbox", "axis", "J15"), ("pillbox#2", "allies", "B8")}
    assert board.label(state.units["m1-garand-rifle"].hex) == "C16"
    written = [line for line in record_text(game).splitlines() if "_version = " not in line]
    assert written == FORMAT_1_SAVE.splitlines()  # written again as format 1, with the old ids
    path = tmp_path / "old.minis"
    path.write_text(FORMAT_1_SAVE, encoding="utf-8")
    resumed = load(path, dice=Dice(seed=5))
    assert resumed.header["format"] == 1 and "pillbox#2" in record_text(resumed)


def test_a_game_with_new_ids_is_written_in_format_2_and_replays() -> None:
    """An Allied copy of a card of no nation is marked (`allied-pillbox`): format 2, which replays."""
    from minis.army import Army
    from minis.base.sides import Side

    game = Game.new(
        Army("a", Side.AXIS, units=("mauser-kar-98k", "pillbox")),
        Army("b", Side.ALLIES, units=("m1-garand-rifle", "pillbox")),
        configuration=1,
        dice=Dice(seed=33),
    )
    play(game, RandomBot(4))
    text = record_text(game)
    assert "format = 2\n" in text and "allied-pillbox" in text and "pillbox#2" not in text
    again = replay_record(parse_record(text))
    assert again.state.snapshot() == game.state.snapshot()
    assert record_text(again) == text


def test_a_game_whose_ids_are_the_same_either_way_is_still_written_in_format_1(game: Game, text: str) -> None:
    assert game.header["format"] == 1 and text.startswith("# minis game record\nformat = 1\n")
