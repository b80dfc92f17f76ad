"""Regression tests of the bad-input sweep: every case once gave a traceback or an unclear message.

Each drives `minis.cli.main` as a user would and checks the exit code
(docs/contracts.md#exit-codes-and-messages: 1 a failed check, 2 unreadable) and that the message names
the file and the line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from minis.base.atomic import write_atomic
from minis.cli import main

ROOT = Path(__file__).resolve().parent.parent
AXIS = ROOT / "armies" / "sample-axis.toml"
ALLIES = ROOT / "armies" / "sample-allies.toml"
SECTION = ROOT / "maps" / "sections" / "able-1.toml"
#: One quiet game of the sample armies.
SIMULATE = ("simulate", "--axis", str(AXIS), "--allies", str(ALLIES), "--games", "1", "--quiet")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def located(err: str, path: Path) -> list[tuple[int, int, str]]:
    """The (line, col, message) of every `FILE:LINE:COL: message` line about `path`."""
    found = []
    for text in err.splitlines():
        match = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): (.*)$", text)
        if match:
            found.append((int(match.group(1)), int(match.group(2)), match.group(3)))
    return found


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A complete game record made by `minis simulate` (one short game)."""
    folder = tmp_path_factory.mktemp("records")
    code = main([*SIMULATE, "--config", "1", "--seed", "5", "--records", str(folder)])
    assert code == 0
    return (folder / "game-0001.rec").read_text(encoding="utf-8")


# --- simulate ---------------------------------------------------------------------------------------


def test_simulate_army_with_an_unknown_card_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = tmp_path / "axis.toml"
    army.write_text(AXIS.read_text(encoding="utf-8").replace('"pioneers"', '"pioneerz"'), encoding="utf-8")
    code, _, err = run(capsys, "simulate", "--axis", army, "--allies", ALLIES, "--games", "1", "--quiet")
    assert code == 1
    [(line, col, message)] = located(err, army)
    assert army.read_text(encoding="utf-8").splitlines()[line - 1][col - 1 :].startswith('pioneerz"')
    assert "unknown card 'pioneerz'" in message and "did you mean 'pioneers'" in message


def test_simulate_army_with_a_card_of_the_other_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = tmp_path / "axis.toml"
    text = AXIS.read_text(encoding="utf-8").replace('"pioneers"', '"m4a1-sherman"')
    army.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "simulate", "--axis", army, "--allies", ALLIES, "--games", "1", "--quiet")
    [(line, _, message)] = located(err, army)
    assert code == 1 and line > 1 and "M4A1 Sherman is an Allied unit in an Axis army" in message


def test_simulate_army_without_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = tmp_path / "axis.toml"
    army.write_text('name = "Nobody"\nside = "axis"\nunits = []\n', encoding="utf-8")
    code, _, err = run(capsys, "simulate", "--axis", army, "--allies", ALLIES, "--games", "1", "--quiet")
    assert code == 1 and located(err, army) == [(3, 1, "no units: an army needs at least one")]


def test_simulate_records_folder_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "records"
    blocker.write_text("not a folder", encoding="utf-8")
    code, _, err = run(capsys, *SIMULATE, "--records", blocker)
    assert code == 2
    assert err.startswith(f"{blocker}:0:0: cannot make the records folder")
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize("limit", ["0", "-3"])
def test_simulate_turn_limit_below_one(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SIMULATE, "--turn-limit", limit)
    assert code == 1 and out == "" and "--turn-limit must be at least 1" in err


# --- odds -------------------------------------------------------------------------------------------


def test_odds_refuses_a_huge_dice_count_instead_of_running_for_hours(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["odds", "99999999999", "5"])
    assert stopped.value.code == 2
    assert "too many (at most 1000)" in capsys.readouterr().err


# --- records and saves ------------------------------------------------------------------------------


def test_record_saved_with_windows_line_ends_and_bom_replays(
    tmp_path: Path, record_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.rec"
    plain.write_text(record_text, encoding="utf-8")
    windows = tmp_path / "windows.rec"
    windows.write_bytes(b"\xef\xbb\xbf" + record_text.replace("\n", "\r\n").encode("utf-8"))
    code, expected, _ = run(capsys, "replay", plain)
    assert code == 0
    code, out, err = run(capsys, "replay", windows)
    assert code == 0 and err == "" and out == expected


def test_record_format_of_the_wrong_type_says_so(
    tmp_path: Path, record_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.rec"
    path.write_text(record_text.replace("format = 1", 'format = "1"'), encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    message = "unknown record format '1': 'format' must be the number 1 or 2"
    assert code == 1 and located(err, path) == [(2, 1, message)]


def test_record_with_an_unknown_card_names_the_header_line(
    tmp_path: Path, record_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.rec"
    path.write_text(record_text.replace('allies = ["', 'allies = ["kv-9", "', 1), encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    allies_line = next(n for n, t in enumerate(record_text.splitlines(), 1) if t.startswith("allies = "))
    [(line, col, message)] = located(err, path)
    assert code == 1 and (line, col) == (allies_line, 1)
    assert message.startswith("unknown card 'kv-9' in 'allies'")


def test_record_that_is_not_utf8_names_the_byte(
    tmp_path: Path, record_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.rec"
    path.write_bytes(record_text.encode("utf-8").replace(b"first axis", b"first \xffaxis", 1))
    code, _, err = run(capsys, "replay", path)
    bad_line = next(n for n, t in enumerate(record_text.splitlines(), 1) if t.startswith("first axis"))
    assert code == 2 and located(err, path) == [(bad_line, 7, "not UTF-8 text")]


def test_record_from_another_card_set_says_so(
    tmp_path: Path, record_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save whose cards changed since: a note, and the failing line's hint names the likely cause."""
    path = tmp_path / "game.rec"
    changed = re.sub(r'^cards_version = ".*"$', 'cards_version = "000000000000"', record_text, flags=re.M)
    path.write_text(changed, encoding="utf-8")
    code, out, _ = run(capsys, "replay", path)
    assert code == 0 and "played with other card files" in out
    lines = changed.splitlines()
    first = next(n for n, t in enumerate(lines) if t.startswith("deploy "))
    lines.insert(first, "deploy ghost A1 |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    [(line, _, message)] = located(err, path)
    assert code == 1 and line == first + 1
    assert "there is no unit 'ghost'" in message and "played with other card files" in message


# --- map files --------------------------------------------------------------------------------------


def test_map_file_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "able-1.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SECTION.read_bytes())
    code, out, err = run(capsys, "map", "check", path)
    assert code == 0 and err == "" and out.startswith(f"OK {path} (section")


def test_truncated_map_file_names_its_last_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SECTION.read_text(encoding="utf-8")
    cut = text[: text.index('"""') + 20]  # inside the terrain string: never closed
    path = tmp_path / "cut.toml"
    path.write_text(cut, encoding="utf-8")
    code, _, err = run(capsys, "map", "check", path)
    [(line, col, message)] = located(err, path)
    assert code == 2 and line == cut.count("\n") + 1 and col >= 1
    assert message.startswith("not valid TOML: Unterminated string")


def test_deeply_nested_map_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    code, _, err = run(capsys, "map", "check", path)
    [(line, col, message)] = located(err, path)
    assert (code, line, col) == (2, 1, len("a = ") + 33)  # the bracket past the nesting limit (32)
    assert message.startswith("values nested too deeply")


def test_negative_configuration_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "map", "show", "--", "-1")
    assert code == 2 and "there is no configuration -1" in err and "no such file" not in err


# --- card folders and rules-test folders ------------------------------------------------------------


def test_card_folder_without_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "README").write_text("cards go here", encoding="utf-8")
    code, out, err = run(capsys, "cards", "list", "--cards", tmp_path)
    assert code == 2 and out == ""
    assert err.startswith(f"{tmp_path}:0:0: no card files (*.toml) in this folder")
    code, _, err = run(capsys, "army", "check", "--cards", tmp_path, AXIS)
    assert code == 2 and "no card files" in err


def test_card_folder_that_is_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cards", "list", "--cards", AXIS)
    assert code == 2 and err.strip() == f"{AXIS}:0:0: a file, not a card folder"


def test_rules_test_folder_without_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules-test", tmp_path)
    assert code == 2 and "0 passed, 0 failed" in out
    assert err.strip() == f"{tmp_path}:0:0: no rules-test files (*.toml) in this folder"


# --- atomic writes ----------------------------------------------------------------------------------


def test_map_png_is_written_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "map.png"
    code, _, _ = run(capsys, "map", "show", "1", "--png", picture)
    assert code == 0 and picture.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.png"]  # no temporary file left over
    code, _, err = run(capsys, "map", "show", "1", "--png", tmp_path / "missing" / "map.png")
    assert code == 2 and "cannot write the picture" in err


def test_write_atomic_keeps_the_old_file_when_the_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "army.toml"
    target.write_text("the user's army", encoding="utf-8")
    os.chmod(target, 0o640)

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(target, "half a new army")
    assert target.read_text(encoding="utf-8") == "the user's army"
    assert [p.name for p in tmp_path.iterdir()] == ["army.toml"]
    monkeypatch.undo()
    write_atomic(target, b"\x89PNG bytes")
    assert target.read_bytes() == b"\x89PNG bytes"
    assert target.stat().st_mode & 0o777 == 0o640  # the replaced file's permissions are kept
