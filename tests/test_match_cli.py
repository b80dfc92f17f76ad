"""`minis match` (minis/commands/match.py): twin games, the same result with any number of workers,
the Wilson interval, and clear errors."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from minis.ai.registry import BOT_NAMES, UnknownBot, make_bot
from minis.base.sides import Side
from minis.cli import main
from minis.commands.match import game_specs, summary, wilson

LAST = re.compile(
    r"^random vs random: random scores (\d\.\d\d) \((\d+)-(\d+)-(\d+) of (\d+)\), "
    r"95% CI \[(\d\.\d\d), (\d\.\d\d)\]$"
)


@pytest.mark.parametrize(
    ("score", "games", "low", "high"),
    [(0.5, 100, 0.4038, 0.5962), (0.8, 10, 0.4902, 0.9433), (0.0, 10, 0.0, 0.2775), (1.0, 10, 0.7225, 1.0)],
)
def test_wilson_interval_known_values(score: float, games: int, low: float, high: float) -> None:
    found = wilson(score, games)
    assert found == pytest.approx((low, high), abs=1e-4)


def test_the_last_line_counts_wins_losses_and_draws() -> None:
    line = summary(("heuristic", "random"), [1.0, 1.0, 0.5, 0.0, 1.0])
    assert line == "heuristic vs random: heuristic scores 0.70 (3-1-1 of 5), 95% CI [0.30, 0.93]"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["match", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_random_against_random_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "random", "random", "--games", "4", "--seed", "2", "--workers", "0")
    assert code == 0
    lines = out.splitlines()
    found = LAST.match(lines[-1])
    assert found, lines[-1]
    wins, losses, draws, games = map(int, found.group(2, 3, 4, 5))
    assert (wins + losses + draws, games) == (4, 4)
    assert lines[0].startswith("random (A): median ") and "decisions)" in lines[0]
    assert "4/4" in err  # the progress bar


def test_the_result_is_the_same_whatever_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("random", "random", "--games", "5", "--seed", "9", "--all-configs", "--quiet")
    outputs = []
    for workers in ("0", "2"):
        code, out, _ = run(capsys, *args, "--workers", workers)
        assert code == 0
        counts = [re.search(r"\((\d+) decisions\)", line) for line in out.splitlines()[:2]]
        outputs.append(([c.group(1) if c else None for c in counts], out.splitlines()[-1]))
    assert outputs[0] == outputs[1]


def test_twin_games_share_seeds_and_armies_with_sides_swapped() -> None:
    args = argparse.Namespace(games=5, seed=4, config=None, all_configs=True, budget=None)
    specs = game_specs(args, ("random", "heuristic"), {Side.AXIS: None, Side.ALLIES: None}, in_process=True)
    assert [spec.number for spec in specs] == [0, 1, 2, 3, 4]
    assert [spec.configuration for spec in specs] == [1, 1, 2, 2, 3]
    for first, second in (specs[0:2], specs[2:4]):
        assert (first.a_side, second.a_side) == (Side.AXIS, Side.ALLIES)
        assert (first.dice_seed, first.view_seed, first.bot_seeds) == (
            second.dice_seed,
            second.view_seed,
            second.bot_seeds,
        )
        assert (first.axis, first.allies) == (second.axis, second.allies)
    assert specs[0].dice_seed != specs[2].dice_seed
    assert specs[0].axis.units != specs[2].axis.units


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--games", "0"), 1, "match:0:0: --games must be at least 1"),
        (("--workers", "-1"), 1, "match:0:0: --workers must be 0 (this process) or more"),
        (("--budget", "0"), 1, "match:0:0: --budget must be more than 0 seconds"),
    ],
)
def test_bad_arguments(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], code: int, message: str
) -> None:
    assert run(capsys, "random", "random", *args) == (code, "", message + "\n")


def test_an_unknown_bot_is_named_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "random", "heurstic", "--games", "2")
    assert (code, out) == (1, "")
    assert err == (
        "match:0:0: unknown bot 'heurstic': the bots are random, heuristic, search, easy, normal, hard "
        "(did you mean 'heuristic'?)\n"
    )


def test_unreadable_and_wrong_side_armies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.toml"
    code, _, err = run(capsys, "random", "random", "--axis", str(missing), "--games", "2")
    assert code == 2 and err.startswith(f"{missing}:")
    code, _, err = run(capsys, "random", "random", "--axis", "sample-allies", "--games", "2")
    assert code == 1 and err.endswith(":5:1: this is an Allies army, not an Axis one\n")


def test_given_armies_are_played(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--axis", "sample-axis", "--allies", "sample-allies", "--games", "2", "--config", "3", "--quiet")
    code, out, _ = run(capsys, "random", "random", *args, "--workers", "0")
    assert code == 0 and LAST.match(out.splitlines()[-1])


def test_bots_by_name() -> None:
    assert BOT_NAMES == ("random", "heuristic", "search", "easy", "normal", "hard")
    bot = make_bot("random", 3)
    assert bot.name == "random"
    with pytest.raises(UnknownBot, match="unknown bot 'randon'"):
        make_bot("randon", 3)
