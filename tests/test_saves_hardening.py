"""Saves that cannot be abused or broken: fresh dice after a load, no leftovers of killed saves, and a
scenario and its map that a kill never leaves mixed (issue 11).

The kills are real: a child process saves with `os.replace`/`os.unlink` wrapped so that it dies with
`os._exit` at a chosen step, then this process opens what is on the disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minis.ai.random_bot import RandomBot, play
from minis.army import load_army
from minis.base.atomic import write_atomic
from minis.base.errors import EXIT_UNREADABLE, MinisError
from minis.dice import Dice
from minis.engine.scenario import load_scenario
from minis.game import Game
from minis.record import load, parse_record, record_text, replay_record, save
from minis.ui.editor.model import Editor

ROOT = Path(__file__).resolve().parent.parent
AXIS = load_army(ROOT / "armies" / "sample-axis.toml")
ALLIES = load_army(ROOT / "armies" / "sample-allies.toml")

#: Runs `STEP` (Python source) in a child whose `STOP`-th os.replace/os.unlink call kills it first.
KILLER = """
import os, sys
from pathlib import Path
stop, steps = int(sys.argv[1]), [0]
def dying(real):
    def call(*args, **kwargs):
        steps[0] += 1
        if steps[0] == stop:
            os._exit(9)
        return real(*args, **kwargs)
    return call
os.replace, os.unlink = dying(os.replace), dying(os.unlink)
exec(sys.argv[2])
"""


def killed(step: str, stop: int, cwd: Path) -> int:
    """Run `step` in a child process that dies at its `stop`-th rename or removal; its exit code."""
    child = subprocess.run(
        [sys.executable, "-c", KILLER, str(stop), step],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode in (0, 9), child.stderr
    return child.returncode


# --- dice after a load -----------------------------------------------------------------------------------


def half_played(path: Path) -> Game:
    """A seeded game 120 actions in, saved at `path`."""
    game = Game.new(AXIS, ALLIES, dice=Dice(seed=11), turn_limit=20)
    bot = RandomBot(4)
    for _ in range(120):
        game.apply(bot.choose(game))
    save(game, path)
    return game


def test_a_loaded_save_rolls_fresh_dice_not_the_saved_games_next_ones(tmp_path: Path) -> None:
    path = tmp_path / "game.save"
    game = half_played(path)
    would_have_rolled = game.dice.roll_many(64)
    first, second = load(path), load(path)
    assert first.state.snapshot() == second.state.snapshot() == game.state.snapshot()
    first_rolls, second_rolls = first.dice.roll_many(64), second.dice.roll_many(64)
    assert first_rolls != would_have_rolled  # else: save, see the roll, load, give it to another unit
    assert first_rolls != second_rolls  # every load is a new draw


def test_a_game_played_on_after_a_load_still_replays_exactly_and_drops_the_seed(tmp_path: Path) -> None:
    path = tmp_path / "game.save"
    half_played(path)
    resumed = play(load(path), RandomBot(5))
    assert resumed.over
    text = record_text(resumed)
    assert "seed" not in resumed.header and "\nseed =" not in text  # it no longer made every die
    replayed = replay_record(parse_record(text))
    assert replayed.state.snapshot() == resumed.state.snapshot()
    assert record_text(replayed) == text


def test_a_save_of_a_game_being_played_holds_no_seed_and_a_finished_record_does(tmp_path: Path) -> None:
    path = tmp_path / "game.save"
    game = half_played(path)
    assert not game.over and "seed" not in path.read_text()  # it would tell every die to come
    finished = play(game, RandomBot(4))
    assert finished.over and "\nseed = 11\n" in record_text(finished)


def test_dice_a_save_was_waiting_for_are_not_rolled_again_identically(tmp_path: Path) -> None:
    """A save whose set-up still waited for its dice (no `start` line yet) draws them anew per load."""
    waiting = Game.new(AXIS, ALLIES, dice=Dice.scripted(), turn_limit=20)
    assert waiting.waiting_for_dice()
    path = tmp_path / "waiting.save"
    path.write_text(record_text(waiting).replace("format = 1\n", "format = 1\nseed = 7\n"))
    starts = set()
    for _ in range(12):
        game = load(path)
        assert not game.waiting_for_dice() and game.record[0].action is None
        starts.add(game.record[0].dice)
        again = replay_record(parse_record(record_text(game)))
        assert again.state.snapshot() == game.state.snapshot()
    assert len(starts) > 1


# --- temporary files of killed saves ---------------------------------------------------------------------

FOREIGN = (
    ".game.rec.tmp",
    ".game.rec.abc.tmp",
    ".game.rec.ABCDEFGH.tmp",
    ".game.rec.abcdefgh.tmp.bak",
    "game.rec.abcdefgh.tmp",
    ".other.rec.abcdefgh.tmp",
    ".game.rec.abcdefghi.tmp",
)


def test_a_killed_save_leaves_a_temporary_file_that_the_next_good_save_removes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "game.rec"
    target.write_text("old")
    for name in FOREIGN:
        (tmp_path / name).write_text("not ours")
    step = "from minis.base.atomic import write_atomic; write_atomic('game.rec', 'killed')"
    assert killed(step, 1, tmp_path) == 9
    left = sorted(set(os.listdir(tmp_path)) - {*FOREIGN, "game.rec"})
    assert len(left) == 1 and left[0].startswith(".game.rec.") and target.read_text() == "old"

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:  # a save that fails removes nothing
        patch.setattr(os, "fsync", full)
        with pytest.raises(OSError):
            write_atomic(target, "failed")
    assert sorted(os.listdir(tmp_path)) == sorted([*FOREIGN, "game.rec", *left])

    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == sorted([*FOREIGN, "game.rec"])  # only ours, only stale ones


def test_a_temporary_file_a_running_save_holds_is_not_taken_away(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    target = tmp_path / "army.toml"
    busy = tmp_path / ".army.toml.k2j4h6g8.tmp"
    with busy.open("wb") as stream:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX)  # what a save in another process holds
        write_atomic(target, "one")
        assert busy.exists()
    write_atomic(target, "two")  # its writer is gone: a leftover now
    assert sorted(os.listdir(tmp_path)) == ["army.toml"]


# --- a scenario and its map, saved together ---------------------------------------------------------------

EDIT = """
from minis.ui.editor.model import Editor
editor = Editor.open("field-scenario.toml")
board = editor.board
editor.paint(board.parse("C3"), "F")
editor.zone("west", board.parse("B6"))
editor.save()
"""


def field(folder: Path) -> tuple[bytes, bytes]:
    """A small map and a scenario on it, saved; their bytes."""
    folder.mkdir(exist_ok=True)
    editor = Editor.new(7, 12, title="Field")
    editor.place_objective(editor.board.parse("D6"))
    editor.save(map_path=folder / "field.toml")
    editor.zone("west", editor.board.parse("A1"))
    editor.save()
    return pair(folder)


def pair(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "field.toml").read_bytes(), (folder / "field-scenario.toml").read_bytes()


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """The pair after the edit, saved without a kill."""
    folder = tmp_path_factory.mktemp("whole")
    field(folder)
    assert killed(EDIT, 0, folder) == 0
    return pair(folder)


@pytest.mark.parametrize("opener", ["editor", "loader"])
@pytest.mark.parametrize("stop", range(1, 7))  # every rename and removal, then none
def test_a_save_killed_at_any_step_leaves_the_old_or_the_new_pair_never_a_mix(
    tmp_path: Path, edited: tuple[bytes, bytes], stop: int, opener: str
) -> None:
    old = field(tmp_path)
    assert old != edited and old[0] != edited[0] and old[1] != edited[1]
    killed(EDIT, stop, tmp_path)
    scenario = tmp_path / "field-scenario.toml"
    if opener == "editor":
        editor = Editor.open(scenario)
        assert editor.problems() == []
    else:
        load_scenario(scenario)
    assert pair(tmp_path) in (old, edited)
    assert not (tmp_path / ".field-scenario.toml.journal").exists()
    editor = Editor.open(scenario)  # the next good save of both leaves nothing of the killed one
    editor.paint(editor.board.parse("D4"), "F")
    editor.set_scenario_title("Field again")
    assert editor.save() == [tmp_path / "field.toml", scenario]
    assert sorted(os.listdir(tmp_path)) == ["field-scenario.toml", "field.toml"]


def test_opening_finishes_an_interrupted_save_from_its_journal_and_only_from_ours(
    tmp_path: Path, edited: tuple[bytes, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = field(tmp_path)
    journal = tmp_path / ".field-scenario.toml.journal"
    foreign = json.dumps({"renames": [[".x.abcdefgh.tmp", "field-scenario.toml"]]})
    for text in ("{not json", '{"renames": 3}', "[" * 60_000, foreign):
        journal.write_text(text)
        assert Editor.open(tmp_path / "field-scenario.toml").recovered == []
        assert pair(tmp_path) == old and journal.exists()

    temporaries = (".field.toml.aaaaaaaa.tmp", ".field-scenario.toml.bbbbbbbb.tmp")
    for name, data in zip(temporaries, edited, strict=True):
        (tmp_path / name).write_bytes(data)
    journal.write_text(
        json.dumps({"renames": [[temporaries[0], "field.toml"], [temporaries[1], "field-scenario.toml"]]})
    )

    def refused(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", refused)
        with pytest.raises(MinisError) as caught:
            Editor.open(tmp_path / "field-scenario.toml")
    assert caught.value.exit_code == EXIT_UNREADABLE
    assert str(caught.value).startswith(f"{tmp_path / 'field-scenario.toml'}:0:0: cannot finish the save")

    editor = Editor.open(tmp_path / "field-scenario.toml")
    assert editor.recovered == [tmp_path / "field.toml", tmp_path / "field-scenario.toml"]
    assert pair(tmp_path) == edited and not journal.exists()
