"""Paths the file system refuses: every command and the window answer in plain words, never a traceback.

A path part over 255 bytes, a NUL character (only from inside a file: argv cannot carry one), a
folder, a missing file, a loop of symbolic links and a file without permission (faked: root reads
anything) are tried on every command that takes a path (`minis odds` takes none). A path written
inside a file is reported at the key that names it. See `minis.base.paths`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minis.army import load_army
from minis.base.errors import MinisError
from minis.base.tomlfile import decode, read_toml
from minis.cards import load_cards
from minis.cli import main
from minis.engine.scenario import load_scenario
from minis.mapfile import check_file
from minis.record import read_record

ROOT = Path(__file__).resolve().parent.parent
AXIS = ROOT / "armies" / "sample-axis.toml"
ALLIES = ROOT / "armies" / "sample-allies.toml"
CONFIGURATION = ROOT / "maps" / "configurations" / "1-half-and-half.toml"
BREAKOUT = ROOT / "scenarios" / "breakout.toml"
LONG = "a" * 300  # one path part over the 255 bytes file systems allow

TOO_LONG = "the file name is too long: each part of a path may have at most 255 bytes"
NUL = "the file name holds a NUL character"
LOOP = "the path goes round a loop of symbolic links"
NO_PERMISSION = "you have no permission to read it"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str]:
    """Run `minis` in this process: its exit code and its error output (never a traceback)."""
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def refuse(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Make the system refuse to open or list `target` as it would for a user without permission."""
    for name in ("open", "scandir"):
        real = getattr(os, name)

        def fake(path: Any, *args: Any, _real: Callable[..., Any] = real, **kwargs: Any) -> Any:
            if os.fspath(path) == str(target):
                raise PermissionError(13, "Permission denied", str(target))
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, fake)


# --- every command, a path it should read --------------------------------------------------------------

#: The commands that read a file named on the command line, with that path put in.
FILE_COMMANDS: dict[str, Callable[[Path], list[str | Path]]] = {
    "map check": lambda p: ["map", "check", p],
    "map show": lambda p: ["map", "show", p],
    "map los": lambda p: ["map", "los", p, "A1:A2"],
    "rules-test": lambda p: ["rules-test", p],
    "replay": lambda p: ["replay", p],
    "army check": lambda p: ["army", "check", p],
    "army show": lambda p: ["army", "show", p],
    "edit --check": lambda p: ["edit", "--check", p],
    "edit": lambda p: ["edit", p],
    "play --scenario": lambda p: ["play", "--scenario", p],
    "simulate --axis": lambda p: ["simulate", "--axis", p, "--allies", ALLIES, "--games", "1", "--quiet"],
}
#: The commands that read a card folder named on the command line.
FOLDER_COMMANDS: dict[str, Callable[[Path], list[str | Path]]] = {
    "cards list --cards": lambda p: ["cards", "list", "--cards", p],
    "cards show --cards": lambda p: ["cards", "show", "m4a1-sherman", "--cards", p],
    "army check --cards": lambda p: ["army", "check", "--cards", p, AXIS],
}
#: Commands that search a folder they are given; an empty one is reported in their own words.
SEARCHING = {"map check": "no .toml map files in this folder", "rules-test": "no rules-test files"}


def bad_paths(tmp_path: Path) -> Iterator[tuple[str, Path, str]]:
    """(case, path, words the message must hold) for every path the system refuses."""
    yield "long", tmp_path / f"{LONG}.toml", TOO_LONG
    yield "missing", tmp_path / "missing.toml", "no such file"
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    yield "loop", loop, LOOP


@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_every_command_says_why_it_cannot_read_a_file(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = FILE_COMMANDS[command]
    for case, path, words in bad_paths(tmp_path):
        code, err = run(capsys, *argv(path))
        assert code == 2 and f"{path}:0:0: {words}" in err, (case, err)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    code, err = run(capsys, *argv(folder))
    words = SEARCHING.get(command, "is a folder, not a file")
    assert code in (1, 2) and f"{folder}:0:0: {words}" in err, err
    locked = tmp_path / "locked.toml"
    locked.write_bytes(AXIS.read_bytes())
    refuse(monkeypatch, locked)
    code, err = run(capsys, *argv(locked))
    assert code == 2 and f"{locked}:0:0: {NO_PERMISSION}" in err, err


@pytest.mark.parametrize("command", sorted(FOLDER_COMMANDS))
def test_every_card_folder_option_says_why_it_cannot_read_the_folder(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = FOLDER_COMMANDS[command]
    cases = [
        (tmp_path / LONG, TOO_LONG),
        (tmp_path / "missing", "no such card folder"),
        (AXIS, "a file, not a card folder"),
    ]
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    cases.append((loop, LOOP))
    for path, words in cases:
        code, err = run(capsys, *argv(path))
        assert code == 2 and f"{path}:0:0: {words}" in err, err
    locked = tmp_path / "locked"
    locked.mkdir()
    refuse(monkeypatch, locked)
    code, err = run(capsys, *argv(locked))
    assert code == 2 and f"{locked}:0:0: {NO_PERMISSION}" in err, err


def test_map_new_with_a_name_too_long_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / f"{LONG}.toml"
    code, err = run(capsys, "map", "new", "--rows", "3", "--cols", "3", target)
    assert code == 2 and err.startswith(f"{target}:0:0: cannot write the file")


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    result = subprocess.run(
        [sys.executable, "-m", "minis", "map", "check", str(pipe)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr == f"{pipe}:0:0: is not a file (a device or a pipe)\n"


# --- paths written inside files --------------------------------------------------------------------------

#: A map file name the system refuses, as written in TOML, and the words that say why.
NAMED = {"long": (f"{LONG}.toml", TOO_LONG), "nul": ("a\\u0000b.toml", NUL)}


@pytest.mark.parametrize("case", sorted(NAMED))
@pytest.mark.parametrize("command", ["edit --check", "play --scenario"])
def test_a_scenario_map_file_the_system_refuses_is_reported_at_map(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, words = NAMED[case]
    text = BREAKOUT.read_text(encoding="utf-8")
    scenario = tmp_path / "s.toml"
    scenario.write_text(text.replace('"maps/river-line.toml"', f'"{name}"'), encoding="utf-8")
    line = text.split("\n").index('map = "maps/river-line.toml"') + 1
    code, err = run(capsys, *FILE_COMMANDS[command](scenario))
    assert code == 1
    assert err.splitlines() == [f"{scenario}:{line}:1: the map file {shown(name)} cannot be read: {words}"]


def test_a_scenario_map_that_is_a_folder_or_a_loop_is_reported_at_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "loop.toml").symlink_to(tmp_path / "loop.toml")
    text = BREAKOUT.read_text(encoding="utf-8")
    for name, words in (("folder.toml", "is a folder, not a file"), ("loop.toml", LOOP)):
        scenario = tmp_path / "s.toml"
        scenario.write_text(text.replace('"maps/river-line.toml"', f'"{name}"'), encoding="utf-8")
        code, err = run(capsys, "edit", "--check", scenario)
        assert code == 1 and f":1: the map file '{name}' cannot be read: {words}" in err


@pytest.mark.parametrize("case", sorted(NAMED))
def test_a_section_name_the_system_refuses_is_reported_at_its_placement(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, words = NAMED[case]
    sections = tmp_path / "sections"
    sections.mkdir()
    for section in (ROOT / "maps" / "sections").glob("*.toml"):
        (sections / section.name).write_bytes(section.read_bytes())
    (tmp_path / "configurations").mkdir()
    configuration = tmp_path / "configurations" / "1-test.toml"
    written = name.removesuffix(".toml")
    text = CONFIGURATION.read_text(encoding="utf-8").replace('ne = "baker-1"', f'ne = "{written}"')
    configuration.write_text(text, encoding="utf-8")
    line = text.split("\n").index(f'ne = "{written}"') + 1
    for argv in (["map", "check", configuration], ["map", "show", configuration]):
        code, err = run(capsys, *argv)
        assert code == 1
        expected = f"{configuration}:{line}:7: section {shown(written)} cannot be read: {words}"
        assert err.splitlines() == [expected]


RECORD = """# minis game record
format = 1
scenario = "standard"
configuration = "roll"
axis = ["panzer-iv-ausf-g"]
allies = ["m4a1-sherman"]
seed = 1
scenario_file = "{name}"
---
"""


def save_naming(tmp_path: Path, name: str) -> Path:
    """A save whose `scenario_file` (line 8) is `name` as written in TOML."""
    save = tmp_path / "game.minis"
    save.write_text(RECORD.replace("{name}", name), encoding="utf-8")
    return save


def shown(name: str) -> str:
    """A TOML-written name as messages quote it (escaped, shortened past 60 characters)."""
    text = name.replace("\\u0000", "\0")
    return repr(text if len(text) <= 60 else text[:57] + "...")


@pytest.mark.parametrize("case", sorted(NAMED))
def test_replay_reports_a_scenario_file_it_cannot_read_at_its_key(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, words = NAMED[case]
    save = save_naming(tmp_path, name)
    code, err = run(capsys, "replay", save)
    assert code == 1
    assert err.splitlines() == [f"{save}:8:1: the scenario file {shown(name)} cannot be read: {words}"]


# --- the window ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(NAMED))
def test_session_load_reports_a_scenario_file_it_cannot_read(case: str, tmp_path: Path) -> None:
    from minis.ui.session import Session

    name, words = NAMED[case]
    save = save_naming(tmp_path, name)
    with pytest.raises(MinisError) as caught:
        Session.load(save, saves=tmp_path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.col) == (str(save), 8, 1)
    assert problem.message.endswith(words)


@pytest.mark.parametrize("case", sorted(NAMED))
def test_load_game_shows_why_a_save_cannot_be_loaded_and_the_window_goes_on(
    case: str, driver: Any, arcade: Any, tmp_path: Path
) -> None:
    from minis.ui.filedialog import FileDialog
    from minis.ui.menu import MainMenu

    name, words = NAMED[case]
    save = save_naming(tmp_path, name)
    driver.window.routes.load_game(tmp_path)
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    dialog.submit(str(save))
    driver.frame()
    assert driver.screen is dialog and dialog.message.text.startswith(f"{save}:8:1: the scenario file")
    assert words in dialog.message.text
    dialog.submit(str(tmp_path / f"{LONG}.minis"))  # a typed path the system refuses
    driver.frame()
    assert driver.screen is dialog and TOO_LONG in dialog.message.text
    driver.key(arcade.key.ESCAPE)
    assert isinstance(driver.screen, MainMenu)


def test_play_a_scenario_says_why_a_file_cannot_be_read(driver: Any, tmp_path: Path) -> None:
    from minis.ui.scenariochoice import open_scenario_dialog

    dialog = open_scenario_dialog(driver.window, tmp_path)
    long = tmp_path / f"{LONG}.toml"
    dialog.submit(str(long))
    driver.frame()
    assert driver.screen is dialog and dialog.message.text.startswith(f"{long}:0:0: {TOO_LONG}")


# --- the helpers ----------------------------------------------------------------------------------------


def test_a_bad_byte_is_placed_at_its_character_not_its_byte() -> None:
    with pytest.raises(MinisError) as caught:
        decode('title = "café'.encode() + b'\xff"\n', "f.toml")
    assert caught.value.problems[0].line == 1 and caught.value.problems[0].col == 14
    with pytest.raises(MinisError) as caught:
        decode(b"\xef\xbb\xbf" + b"x = 1\n\xff", "f.toml")  # the byte-order mark is not a column
    assert (caught.value.problems[0].line, caught.value.problems[0].col) == (2, 1)
    with pytest.raises(MinisError) as caught:
        decode(b"\xef\xbb\xbf\xff", "f.toml")
    assert (caught.value.problems[0].line, caught.value.problems[0].col) == (1, 1)


#: Every reader of a user's file, by the path it is given.
READERS: list[Callable[[str], object]] = [
    read_toml,
    read_record,
    check_file,
    load_army,
    load_scenario,
    load_cards,
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet=st.sampled_from("a/\0\n~é"), max_size=600))  # no ".": never above tmp_path
def test_any_path_is_read_or_refused_with_a_minis_error(name: str, tmp_path: Path) -> None:
    from minis.base import paths

    path = f"{tmp_path}/{name}"
    for reader in READERS:
        try:
            reader(path)
        except MinisError as error:
            assert error.problems[0].message
    found = paths.look(path)
    assert (found.kind is None) == bool(found.reason) and paths.exists(path) == (found.kind is not None)
    assert isinstance(paths.resolved(path), Path) and paths.files_in(path, recursive=True) == []
