"""The engine's commands: rules-test, odds, replay, simulate (exit codes and output)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from minis.cli import main

ROOT = Path(__file__).resolve().parent.parent
PASSING = """
title = "A Soldier moves one hex"
board = \"\"\"
C C C
 C C
\"\"\"
[[units]]
id = "rifle"
card = "m1-garand-rifle"
side = "allies"
at = "A1"
[start]
phase = "movement"
first = "allies"
active = "allies"
[[steps]]
action = "move rifle A2"
[[steps]]
action = "move rifle A3"
expect = "illegal"
[[checks]]
unit = "rifle"
at = "A2"
[[checks]]
decider = "allies"
turn = 1
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_rules_test_passes_fails_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.toml", PASSING)
    assert main(["rules-test", str(good)]) == 0
    assert capsys.readouterr().out == f"PASS {good}\n1 passed, 0 failed\n"
    write(tmp_path, "bad.toml", PASSING.replace('at = "A2"', 'at = "A3"'))
    write(
        tmp_path,
        "dice.toml",
        PASSING.replace('action = "move rifle A2"', 'action = "move rifle A2"\ndice = [4]'),
    )
    assert main(["rules-test", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"FAIL {tmp_path / 'bad.toml'}: check at line")
    assert "rifle is in A2, expected A3" in out[0]
    assert "dice left unused: [4]" in out[1]
    assert out[-1] == "1 passed, 2 failed"


def test_rules_test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = write(tmp_path, "broken.toml", 'title = "x\n')
    typo = write(
        tmp_path, "typo.toml", PASSING.replace('card = "m1-garand-rifle"', 'card = "m1-garand-rifl"')
    )
    assert main(["rules-test", str(broken), str(typo), str(tmp_path / "missing.toml")]) == 2
    captured = capsys.readouterr()
    assert f"{broken}:1:" in captured.err
    assert f"{typo}:" in captured.err and "did you mean 'm1-garand-rifle'" in captured.err
    assert "no such file" in captured.err
    assert captured.out.splitlines()[-1] == "0 passed, 3 failed"


def test_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "11", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "11 dice (success on 4+), defense 5, no cover roll"
    assert out[1].split() == ["0", "hits", "27.44%"]
    assert main(["odds", "8", "4", "--penalty", "--cover", "soldier", "--same-hex", "--defensive"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "success on 5+" in out[0] and "cover on 5+" in out[0] and out[1].startswith("miss")


def test_simulate_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    armies = ROOT / "armies"
    thresholds = gc.get_threshold()
    code = main(
        [
            "simulate",
            "--config",
            "1",
            "--axis",
            str(armies / "sample-axis.toml"),
            "--allies",
            str(armies / "sample-allies.toml"),
            "--games",
            "3",
            "--seed",
            "5",
            "--records",
            str(tmp_path),
        ]
    )
    assert code == 0
    # simulate collects garbage less often while it plays, then puts the collector back as it was
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
    out = capsys.readouterr().out
    assert "3 games on configuration 1, seed 5" in out and "games/second" in out and "average length" in out
    wins = sum(
        int(line.split()[2]) for line in out.splitlines() if " wins " in line or line.startswith("draws")
    )
    assert wins == 3
    records = sorted(tmp_path.glob("*.rec"))
    assert len(records) == 3
    assert main(["replay", str(records[0])]) == 0
    out = capsys.readouterr().out
    assert out.startswith("turn ") and "winner:" in out and "configuration 1" in out


def test_replay_of_a_bad_file_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(
        tmp_path, "bad.rec", "# minis game record\nformat = 1\naxis = []\nallies = []\n---\nfly away |\n"
    )
    assert main(["replay", str(bad)]) == 1
    assert "bad.rec:6:1:" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "none.rec")]) == 2
