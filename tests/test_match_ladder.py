"""The ladder's tools in `minis match` (issue 35): twin-pair counts, records, balanced, mirrored and
folder armies, the hidden test armies, chunk summaries and tools/ladder_pool.py."""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from minis.ai import learned, playout, sharp
from minis.ai.fingerprint import play_fingerprint
from minis.ai.heuristic import HeuristicBot
from minis.ai.ladder_armies import BALANCE, ladder_folder, measured_strength, read_folder
from minis.ai.registry import make_bot
from minis.army import rule_problems
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.cli import main
from minis.commands import match as match_module
from minis.commands.match import (
    GameSpec,
    TwinPairs,
    command_line,
    game_specs,
    played_game,
    record_name,
    settings,
)
from minis.engine import actions as A
from minis.game import Game
from minis.record import parse_record, replay_record

ROOT = Path(__file__).resolve().parent.parent
CARDS = card_catalogue()
NONE: dict[Side, Any] = {Side.AXIS: None, Side.ALLIES: None}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["match", *args])
    out, err = capsys.readouterr()
    return code, out, err


def namespace(**given: Any) -> argparse.Namespace:
    args = {"games": 4, "seed": 5, "config": None, "all_configs": True, "budget": None, "armies": "built"}
    return argparse.Namespace(**{**args, **given})


def pool_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder_pool", ROOT / "tools" / "ladder_pool.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- twin pairs ------------------------------------------------------------------------------------------


def test_twin_pairs_are_counted_from_bot_as_scores() -> None:
    pairs = TwinPairs.of([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 1.0, 1.0])
    assert pairs == TwinPairs(a_won_both=1, split=3, b_won_both=1, unpaired=1)
    assert pairs.line() == (
        "twin pairs: A won both 1, split 3, B won both 1 (1 game without its twin: --games is odd)"
    )
    assert TwinPairs.of([0.0, 0.0]).line() == "twin pairs: A won both 0, split 0, B won both 1"


def test_the_line_before_the_last_counts_the_twin_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    # random against random: the twins are the same game with the names swapped, so every pair splits
    code, out, _ = run(capsys, "random", "random", "--games", "4", "--seed", "3", "--workers", "0", "--quiet")
    lines = out.splitlines()
    assert code == 0 and lines[-2] == "twin pairs: A won both 0, split 2, B won both 0"
    assert lines[-1].startswith("random vs random: random scores 0.50 (2-2-0 of 4)")
    code, out, _ = run(
        capsys, "heuristic", "random", "--games", "3", "--seed", "3", "--workers", "0", "--quiet"
    )
    assert code == 0
    assert out.splitlines()[-2].endswith("B won both 0 (1 game without its twin: --games is odd)")


# --- records ---------------------------------------------------------------------------------------------


def test_a_record_replays_to_the_games_final_state() -> None:
    (spec, *_) = game_specs(
        namespace(games=1, records=Path("x")), ("heuristic", "random"), NONE, in_process=True
    )
    assert spec.record
    game, result = played_game(spec)
    assert game.over and result.record is not None
    replayed = replay_record(parse_record(result.record, "game.rec"))
    assert replayed.state == game.state
    assert replayed.winner == game.winner


def test_records_are_written_one_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "deep" / "records"
    args = (
        "--games",
        "3",
        "--seed",
        "8",
        "--quiet",
        "--records",
        str(folder),
        "--summary",
        str(tmp_path / "s.json"),
    )
    code, _, _ = run(capsys, "heuristic", "random", *args, "--workers", "2")
    assert code == 0
    names = sorted(path.name for path in folder.iterdir())
    assert names == [record_name(8, n) for n in range(3)] == [f"seed-8-game-000{n}.rec" for n in range(3)]
    results = json.loads((tmp_path / "s.json").read_text())["results"]
    assert [entry["record"] for entry in results] == names
    for entry, name in zip(results, names, strict=True):
        game = replay_record(parse_record((folder / name).read_text(), name))
        a_side = Side(entry["a_side"])
        assert game.winner == (a_side if entry["score"] == 1.0 else a_side.other)
    assert main(["replay", str(folder / names[0])]) == 0
    # the same seed in this process writes the same records
    again = tmp_path / "again"
    run(
        capsys,
        "heuristic",
        "random",
        "--games",
        "3",
        "--seed",
        "8",
        "--quiet",
        "--records",
        str(again),
        "--workers",
        "0",
    )
    assert [(again / n).read_text() for n in names] == [(folder / n).read_text() for n in names]


def test_a_records_folder_that_cannot_be_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run(capsys, "random", "random", "--games", "2", "--records", str(blocker / "records"))
    assert (code, out) == (2, "")
    assert err.startswith(f"{blocker / 'records'}:0:0: cannot make the records folder: ")
    code, _, err = run(capsys, "random", "random", "--games", "2", "--records", str(blocker))
    assert code == 2 and err.startswith(f"{blocker}:0:0: cannot make the records folder")
    code, _, err = run(
        capsys, "random", "random", "--games", "2", "--summary", str(tmp_path / "no" / "s.json")
    )
    assert code == 2 and err == f"{tmp_path / 'no' / 's.json'}:0:0: no such folder to write in\n"


# --- balanced and mirrored armies ------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["balanced", "mirrored"])
def test_drawn_pairs_keep_the_army_rules_and_repeat_for_a_seed(source: str) -> None:
    args = namespace(games=6, seed=21, armies=source)
    specs = game_specs(args, ("random", "random"), NONE, in_process=True)
    again = game_specs(args, ("random", "random"), NONE, in_process=True)
    assert [(s.axis.units, s.allies.units) for s in specs] == [(s.axis.units, s.allies.units) for s in again]
    assert len({(spec.axis.units, spec.allies.units) for spec in specs}) == 3  # one for each pair of twins
    for spec in specs:
        assert (spec.axis.side, spec.allies.side) == (Side.AXIS, Side.ALLIES)
        assert rule_problems(spec.axis, CARDS) == [] and rule_problems(spec.allies, CARDS) == []
    built = game_specs(namespace(games=6, seed=21), ("random", "random"), NONE, in_process=True)
    assert [s.dice_seed for s in built] == [s.dice_seed for s in specs]  # the same dice whatever the armies


def test_balanced_armies_are_within_a_few_percent() -> None:
    specs = game_specs(
        namespace(games=8, seed=2, armies="balanced"), ("random", "random"), NONE, in_process=True
    )
    built = game_specs(namespace(games=8, seed=2), ("random", "random"), NONE, in_process=True)
    gaps = []
    for spec in specs[::2]:
        axis, allies = measured_strength(spec.axis.units, CARDS), measured_strength(spec.allies.units, CARDS)
        gaps.append(abs(axis - allies) / max(axis, allies))
    plain = [
        abs(measured_strength(s.axis.units, CARDS) - measured_strength(s.allies.units, CARDS))
        / max(measured_strength(s.axis.units, CARDS), measured_strength(s.allies.units, CARDS))
        for s in built[::2]
    ]
    assert max(gaps) <= BALANCE < max(plain)


def test_mirrored_armies_are_counterparts_unit_by_unit() -> None:
    specs = game_specs(
        namespace(games=4, seed=3, armies="mirrored"), ("random", "random"), NONE, in_process=True
    )
    for spec in specs[::2]:
        axis, allies = spec.axis.units, spec.allies.units
        assert len(axis) == len(allies)
        assert Counter(CARDS[u].type for u in axis) == Counter(CARDS[u].type for u in allies)
        assert sum(CARDS[u].is_commander for u in axis) == sum(CARDS[u].is_commander for u in allies)
        assert all(CARDS[u].side is Side.ALLIES for u in allies)


# --- folders of army files and the hidden test armies ---------------------------------------------------


def test_the_hidden_test_armies_keep_every_rule() -> None:
    folder = read_folder(ladder_folder(), strict=True)
    assert (len(folder.axis), len(folder.allies)) == (8, 8)
    for army in (*folder.axis, *folder.allies):
        assert army.points_limit == 100 and rule_problems(army, CARDS) == []
        assert len({CARDS[u].type for u in army.units}) >= 2  # not all infantry, not all tanks
    assert "no tuning has seen" in (ROOT / "armies" / "ladder" / "README.md").read_text()


def test_nothing_but_the_ladder_reads_the_hidden_armies() -> None:
    """The hidden armies are kept out of tuning: no module, study or benchmark names them but the
    ladder's own (a bot tuned on them would be measured on its training set)."""
    allowed = {"minis/ai/ladder_armies.py", "tools/make_ladder_armies.py"}
    readers = [
        path.relative_to(ROOT).as_posix()
        for folder in ("minis", "studies", "benchmarks", "tools")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".toml")
        and any(
            word in path.read_text(encoding="utf-8")
            for word in ("armies/ladder", "ladder_folder", '"ladder"')
        )
    ]
    assert sorted(set(readers) - allowed) == ["minis/commands/match.py"]


def copy_army(source: str, folder: Path, name: str) -> None:
    (folder / name).write_text((ROOT / "armies" / source).read_text())


def test_a_folder_plays_every_axis_army_against_every_allied_one(tmp_path: Path) -> None:
    copy_army("sample-axis.toml", tmp_path, "a.toml")
    copy_army("sample-german.toml", tmp_path, "b.toml")
    copy_army("sample-allies.toml", tmp_path, "c.toml")
    copy_army("sample-soviet.toml", tmp_path, "d.toml")
    folder = read_folder(tmp_path)
    specs = game_specs(
        namespace(games=10, first_pair=1), ("random", "random"), NONE, in_process=True, folder=folder
    )
    order = [(s.axis.source.name, s.allies.source.name) for s in specs[::2]]  # type: ignore[union-attr]
    assert order == [
        ("a.toml", "d.toml"),
        ("b.toml", "c.toml"),
        ("b.toml", "d.toml"),
        ("a.toml", "c.toml"),
        ("a.toml", "d.toml"),
    ]
    assert [s.configuration for s in specs[::2]] == [
        2,
        3,
        4,
        5,
        6,
    ]  # --first-pair moves the configurations too


def test_the_ladder_armies_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "random", "random", "--games", "2", "--armies", "ladder", "--workers", "0", "--quiet"
    )
    assert code == 0 and out.splitlines()[-2] == "twin pairs: A won both 0, split 1, B won both 0"


def test_bad_army_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none"
    assert run(capsys, "random", "random", "--armies", str(missing)) == (
        2,
        "",
        f"{missing}:0:0: no such folder of army files "
        "(hint: built, balanced, mirrored, ladder or a folder of army files)\n",
    )
    code, _, err = run(capsys, "random", "random", "--armies", "balance")
    assert (code, err) == (2, "balance:0:0: no such folder of army files (hint: did you mean 'balanced'?)\n")
    copy_army("sample-axis.toml", tmp_path, "a.toml")
    code, _, err = run(capsys, "random", "random", "--armies", str(tmp_path))
    assert (code, err) == (1, f"{tmp_path}:0:0: no Allies army file (*.toml) in the folder\n")
    (tmp_path / "b.toml").write_text(
        'name = "x"\nside = "allies"\nscenario = "standard"\nunits = [\n  "no-such-card",\n]\n'
    )
    code, _, err = run(capsys, "random", "random", "--armies", str(tmp_path))
    assert code == 1 and err.startswith(f"{tmp_path / 'b.toml'}:5:4: unknown card 'no-such-card'")
    (tmp_path / "b.toml").write_text('name = "x"\nside = allies\n')
    code, _, err = run(capsys, "random", "random", "--armies", str(tmp_path))
    assert code == 2 and err.startswith(f"{tmp_path / 'b.toml'}:2:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--armies", "balanced", "--axis", "sample-axis"),
            "match:0:0: --armies cannot be given with --axis or --allies",
        ),
        (("--first-pair", "-1"), "match:0:0: --first-pair must be 0 or more"),
    ],
)
def test_bad_ladder_arguments(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    assert run(capsys, "random", "random", *args) == (1, "", message + "\n")


# --- chunk summaries and pooling -------------------------------------------------------------------------


def chunk(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, *args: str) -> Path:
    path = tmp_path / name
    code, _, _ = run(
        capsys,
        "heuristic",
        "random",
        "--games",
        "2",
        "--workers",
        "0",
        "--quiet",
        "--config",
        "2",
        "--summary",
        str(path),
        *args,
    )
    assert code == 0
    return path


def test_a_summary_holds_the_chunks_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = chunk(tmp_path, capsys, "one.json", "--seed", "4")
    data = json.loads(path.read_text())
    assert data["settings"]["bots"] == ["heuristic", "random"] and data["seed"] == 4 and data["games"] == 2
    assert data["wins"] + data["losses"] + data["draws"] == 2
    assert (
        data["twin_pairs"]["a_won_both"] + data["twin_pairs"]["split"] + data["twin_pairs"]["b_won_both"] == 1
    )
    assert data["times"]["A"]["decisions"] == sum(data["times"]["A"]["buckets"].values()) > 0
    assert data["command"] == "minis match heuristic random --games 2 --seed 4 --config 2 --workers 0"
    assert data["last_line"].startswith("heuristic vs random: heuristic scores ")


def test_a_summary_s_command_carries_the_environment_s_leaf(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk played with `MINIS_LEAF` set in the environment is played again only with it."""
    args = namespace(
        axis=None, allies=None, playouts=None, rules=None, workers=2, records=None, first_pair=10
    )
    monkeypatch.setattr(playout, "LEAF_FROM_ENVIRONMENT", False)
    plain = command_line(args, ("hard", "heuristic"))
    assert plain.startswith("minis match hard heuristic ")
    monkeypatch.setattr(playout, "EVALUATION", "both")
    monkeypatch.setattr(playout, "LEAF_FROM_ENVIRONMENT", True)
    assert command_line(args, ("hard", "heuristic")) == f"MINIS_LEAF=both {plain}"
    # Set to the hand-set leaf it matters too: `hard` scores by both leaves unless told.
    monkeypatch.setattr(playout, "EVALUATION", "hand")
    assert command_line(args, ("hard", "heuristic")) == f"MINIS_LEAF=hand {plain}"


def test_chunks_pool_into_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = pool_tool()
    first = chunk(tmp_path, capsys, "one.json", "--seed", "4")
    second = chunk(tmp_path, capsys, "two.json", "--seed", "5")
    assert tool.main([str(first), str(second)]) == 0
    line = capsys.readouterr().out.strip()
    wins = sum(json.loads(p.read_text())["wins"] for p in (first, second))
    assert line.startswith(
        f"heuristic vs random: heuristic scores {wins / 4:.2f} ({wins}-{4 - wins}-0 of 4), 95% CI ["
    )
    assert (
        "; twin pairs: A won both " in line
        and "; random (B): median " in line
        and line.endswith("2 chunks, seeds 4, 5")
    )
    # the same games twice, other settings, and what is no summary are refused
    assert tool.main([str(first), str(first)]) == 1
    assert "the same games as" in capsys.readouterr().err
    other = tmp_path / "other.json"
    run(
        capsys,
        "heuristic",
        "random",
        "--games",
        "2",
        "--workers",
        "0",
        "--quiet",
        "--config",
        "3",
        "--seed",
        "6",
        "--summary",
        str(other),
    )
    assert tool.main([str(first), str(other)]) == 1
    assert capsys.readouterr().err == f"{other}:1:1: not the same ladder as {first}: config 3 here, 2 there\n"
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": 1,\n  oops\n}\n')
    assert tool.main([str(broken)]) == 2
    assert capsys.readouterr().err.startswith(f"{broken}:3:3: not a ladder summary: ")
    data = json.loads(first.read_text())
    data["times"]["B"]["buckets"] = {"x": 1}
    broken.write_text(json.dumps(data))
    assert tool.main([str(broken)]) == 1
    assert (
        capsys.readouterr().err
        == f"{broken}:1:1: not a ladder summary: 'times.B.buckets' is missing or wrong\n"
    )
    data["times"]["B"] = 3
    broken.write_text(json.dumps(data))
    assert tool.main([str(broken)]) == 1
    assert "'times.B' is missing or wrong" in capsys.readouterr().err


def test_chunks_of_code_that_plays_otherwise_do_not_pool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk keeps the fingerprint of the rules' and the bots' play; code that plays otherwise (a bot
    tuned since, a broken fast build) makes another ladder."""
    first = chunk(tmp_path, capsys, "one.json", "--seed", "4")
    played = json.loads(first.read_text())["settings"]["play"]
    assert played == play_fingerprint(["heuristic", "random"]) != play_fingerprint(["search", "random"])
    assert play_fingerprint(["heuristic", "random"], playouts=8) == played  # neither bot searches
    assert play_fingerprint(["search", "random"], playouts=8) != play_fingerprint(["search", "random"])
    real = HeuristicBot.choose

    def other_taste(self: HeuristicBot, game: Game) -> A.Action:
        actions = game.legal_actions()
        return actions[-1] if len(actions) > 3 else real(self, game)

    hard = play_fingerprint(["hard", "heuristic"])
    with monkeypatch.context() as off:  # the exact end of the turn switched off: other play, another print
        off.setattr(sharp, "best_ending", lambda *args, **kwargs: None)
        assert play_fingerprint(["hard", "heuristic"]) != hard
    monkeypatch.setattr(HeuristicBot, "choose", other_taste)
    second = chunk(tmp_path, capsys, "two.json", "--seed", "5")
    assert pool_tool().main([str(first), str(second)]) == 1
    assert ": play '" in capsys.readouterr().err


def test_the_learned_table_a_leaf_reads_is_part_of_the_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hard` scoring by both leaves: a table refitted so slightly that every choice stays the same still
    makes another fingerprint (its chunks play other games), while the hand-set leaf's fingerprint
    does not read the table (the chunks played before keep theirs)."""
    monkeypatch.setattr(sharp, "HARD_LEAF", None)
    hand = play_fingerprint(["hard"], playouts=4)
    monkeypatch.setattr(sharp, "HARD_LEAF", "both")
    both = play_fingerprint(["hard"], playouts=4)
    assert both != hand
    model = learned.shipped_model()
    assert model is not None
    refitted = attrs.evolve(model, weights={name: w * (1 + 1e-9) for name, w in model.weights.items()})
    monkeypatch.setattr(learned, "shipped_model", lambda: refitted)
    assert play_fingerprint(["hard"], playouts=4) != both
    monkeypatch.setattr(sharp, "HARD_LEAF", None)
    assert play_fingerprint(["hard"], playouts=4) == hand


def test_a_strengths_count_of_playouts_is_part_of_its_ladder(monkeypatch: pytest.MonkeyPatch) -> None:
    """`normal` at 24 and at 40 playouts chose alike in every position the fingerprint looks at, so a
    summary keeps each bot's count too: chunks of another count never pool."""
    args = namespace(axis=None, allies=None, playouts=None, rules=None)
    assert settings(args, ("hard", "heuristic"))["counts"] == [sharp.HARD_PLAYOUTS, None]
    assert settings(namespace(**{**vars(args), "playouts": 9}), ("search", "normal"))["counts"] == [9, 9]
    before = settings(args, ("normal", "random"))
    monkeypatch.setattr(sharp, "NORMAL_PLAYOUTS", sharp.NORMAL_PLAYOUTS + 1)
    after = settings(args, ("normal", "random"))
    assert after["counts"] == [sharp.NORMAL_PLAYOUTS, None] != before["counts"]


def test_playouts_of_more_turns_are_another_ladder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--turns N` makes the searches' playouts play N turns: the summary keeps each bot's turns (and
    only then, so the chunks of one-turn playouts played before the option pool with today's), the
    fingerprint plays the bots so, and the command that plays the chunk again says it."""
    monkeypatch.setattr(match_module, "play_fingerprint", lambda names, playouts, turns=None: f"{turns}")
    args = namespace(axis=None, allies=None, playouts=None, rules=None)
    assert "turns" not in settings(args, ("hard", "heuristic"))
    assert "turns" not in settings(namespace(**{**vars(args), "turns": 1}), ("hard", "heuristic"))
    deeper = settings(namespace(**{**vars(args), "turns": 2}), ("hard", "heuristic"))
    assert deeper["turns"] == [2, None] and deeper["play"] == "2"
    assert settings(namespace(**{**vars(args), "turns": 3}), ("random", "heuristic")).get("turns") is None
    path = tmp_path / "deep.json"
    code, _, _ = run(
        capsys, "search", "random", "--games", "2", "--workers", "0", "--quiet", "--config", "2",
        "--playouts", "2", "--turns", "2", "--summary", str(path),
    )  # fmt: skip
    assert code == 0
    data = json.loads(path.read_text())
    assert data["settings"]["turns"] == [2, None]
    assert data["command"].endswith("--config 2 --playouts 2 --turns 2 --workers 0")
    refused = (1, "", "match:0:0: --turns must be at least 1\n")
    assert run(capsys, "search", "random", "--turns", "0") == refused


def test_a_count_asked_for_and_the_same_count_by_default_are_one_ladder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks pool by each bot's count of playouts and turns as played, not by how they were asked for:
    `hard --playouts 64 --turns 2` today and plain `hard` once those are its defaults are one ladder;
    another count is not."""
    tool = pool_tool()
    first = chunk(tmp_path, capsys, "one.json", "--seed", "4")
    data = json.loads(first.read_text())
    asked = {**data, "settings": {**data["settings"], "playouts": 64, "counts": [64, None]}}
    by_default = {**data, "seed": 5, "settings": {**data["settings"], "playouts": None, "counts": [64, None]}}
    other = {**data, "seed": 6, "settings": {**data["settings"], "playouts": 40, "counts": [40, None]}}
    paths = []
    for name, summary in (("asked", asked), ("default", by_default), ("other", other)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(summary))
    assert tool.main([str(paths[0]), str(paths[1])]) == 0
    assert tool.main([str(paths[0]), str(paths[2])]) == 1
    assert "counts [40, None] here, [64, None] there" in capsys.readouterr().err
    monkeypatch.setattr(sharp, "HARD_TURNS", 2)  # a strength's default turns reach its bot and its ladder
    bot = make_bot("hard", 1, workers=0)
    assert isinstance(bot, sharp.SharpBot) and bot.turns == 2
    args = namespace(axis=None, allies=None, playouts=None, rules=None)
    monkeypatch.setattr(match_module, "play_fingerprint", lambda names, playouts, turns=None: "same")
    assert settings(args, ("hard", "heuristic"))["turns"] == [2, None]
    explicit = namespace(**{**vars(args), "turns": 2})
    assert settings(explicit, ("hard", "heuristic")) == settings(args, ("hard", "heuristic"))


def load_tool(name: str) -> ModuleType:
    """A tool of tools/ loaded as a module (it imports the tools beside it)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return module


def test_two_ladders_on_the_same_games_compare_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bots' chunks of the same seeds against the same opponent: the games that ended otherwise,
    both scores and the sign test on them; chunks of other games are refused."""
    tool = load_tool("ladder_compare")
    assert tool.sign_test(0, 0) == 1.0 and tool.sign_test(17, 16) == 1.0
    assert tool.sign_test(5, 0) == pytest.approx(2 / 32)
    assert tool.sign_test(2, 10) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    strong = chunk(tmp_path, capsys, "strong.json", "--seed", "4", "--games", "4")
    weak = tmp_path / "weak.json"
    code, _, _ = run(
        capsys, "random", "random", "--games", "4", "--workers", "0", "--quiet", "--config", "2",
        "--seed", "4", "--summary", str(weak),
    )  # fmt: skip
    assert code == 0
    assert tool.main([str(strong), "--vs", str(weak)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "A: heuristic; B: random; against random, the same 4 games (1 chunk, seed 4)"
    counts = [int(word.rstrip(";")) for word in lines[1].split() if word.rstrip(";").isdigit()]
    mine, theirs = (json.loads(path.read_text()) for path in (strong, weak))
    games = list(zip(mine["results"], theirs["results"], strict=True))
    assert counts == [
        sum(a["score"] == b["score"] for a, b in games),
        sum(a["score"] > b["score"] for a, b in games),
        sum(a["score"] < b["score"] for a, b in games),
    ]
    mean = [data["score"] / data["games"] for data in (mine, theirs)]
    assert lines[2].startswith(f"A scores {mean[0]:.2f}, B {mean[1]:.2f}; sign test on the ")
    other = chunk(tmp_path, capsys, "other.json", "--seed", "5", "--games", "4", "--config", "3")
    assert tool.main([str(strong), "--vs", str(other)]) == 1
    assert capsys.readouterr().err == f"{other}:1:1: not the same games as {strong}: config 3 here, 2 there\n"
    elsewhere = chunk(tmp_path, capsys, "elsewhere.json", "--seed", "5", "--games", "4")
    assert tool.main([str(strong), "--vs", str(elsewhere)]) == 1
    assert "no chunk of these is among the others" in capsys.readouterr().err
    assert tool.main([str(strong)]) == 1 and capsys.readouterr().err.startswith("usage: ")


def test_the_pooled_median_comes_from_the_buckets() -> None:
    tool = pool_tool()
    from minis.commands.match import time_buckets

    rng = random.Random(1)
    times = [rng.uniform(0.001, 0.5) for _ in range(1001)]
    one, two = time_buckets(times[:400]), time_buckets(times[400:])
    exact = sorted(times)[500] * 1000
    assert tool.pooled_median([one, two]) == pytest.approx(exact, rel=0.03)


def test_unused_spec_fields_keep_their_defaults() -> None:
    spec = game_specs(namespace(games=1), ("random", "random"), NONE, in_process=True)[0]
    assert isinstance(spec, GameSpec) and not spec.record  # records are made only when asked for


def test_read_folder_refuses_a_file(tmp_path: Path) -> None:
    path = tmp_path / "army.toml"
    path.write_text("")
    with pytest.raises(MinisError, match="no such folder of army files"):
        read_folder(path)


def test_chunks_of_a_changed_folder_do_not_pool(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "armies"
    folder.mkdir()
    copy_army("sample-axis.toml", folder, "a.toml")
    copy_army("sample-allies.toml", folder, "b.toml")
    common = ("random", "random", "--games", "2", "--workers", "0", "--quiet", "--armies", str(folder))
    assert run(capsys, *common, "--seed", "1", "--summary", str(tmp_path / "1.json"))[0] == 0
    copy_army("sample-soviet.toml", folder, "b.toml")
    assert run(capsys, *common, "--seed", "2", "--summary", str(tmp_path / "2.json"))[0] == 0
    assert pool_tool().main([str(tmp_path / "1.json"), str(tmp_path / "2.json")]) == 1
    err = capsys.readouterr().err
    assert "not the same ladder" in err and ": armies_version '" in err


def test_mirrored_armies_keep_a_nationality_group_where_the_rules_ask_it() -> None:
    from minis.content.rule_sets import NAMED

    args = namespace(games=2, seed=9, armies="mirrored")
    (spec, _) = game_specs(args, ("random", "random"), NONE, in_process=True, rules=NAMED["2008"])
    assert NAMED["2008"].nationality_required
    assert rule_problems(spec.allies, CARDS) == [] and rule_problems(spec.axis, CARDS) == []
    assert len(spec.allies.units) == len(spec.axis.units) > 15  # counterparts, not a plain draw


def test_a_ladders_games_are_played_on_from_a_late_turn_by_two_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two games of a kept chunk (one over at turn 7, one played to turn 10) replayed to turn 9 and
    played on twice: the one over sooner is left out; B set as A plays the same game; a constant the
    improved search does not have, and a record that is not there, are refused."""
    import tarfile

    tool = load_tool("late_games")
    folder = ROOT / "docs" / "ladder" / "hard-hand-256"  # `hard` with the hand-set leaf, at 256 playouts
    kept = json.loads((folder / "hard-heuristic-s3600.json").read_text())
    rows = [row for row in kept["results"] if row["game"] in (3, 12)]
    assert [row["score"] for row in rows] == [1.0, 0.0]
    kept.update(results=rows, games=2, wins=1, losses=1, draws=0)
    kept["settings"]["counts"] = [2, None]  # two playouts a decision: quick
    summary = tmp_path / "hard-heuristic-s3600.json"
    summary.write_text(json.dumps(kept), encoding="utf-8")
    records = tmp_path / "records"
    records.mkdir()
    with tarfile.open(folder / "records" / "hard-heuristic-s3600.tar.xz", "r:xz") as tar:
        for row in rows:
            member = tar.extractfile(row["record"])
            assert member is not None
            (records / row["record"]).write_bytes(member.read())
    common = [str(summary), "--records", str(records), "--from-turn", "9", "--workers", "1"]
    assert tool.main([*common, "--set", "TO_THE_END=0"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("from turn 9, 1 games: A scores ")
    assert (
        "B (TO_THE_END=0)" in last
        and "ended otherwise 0: only A won 0, only B won 0 (sign test p = 1.00)" in last
    )
    assert tool.main([*common, "--set", "TO_THE_END=2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("from turn 9, 1 games: A scores ")
    assert tool.main([*common, "--set", "TO_THE_ENDS=2"]) == 2
    assert "'TO_THE_ENDS' is no number constant of minis.ai.sharp" in capsys.readouterr().err
    (records / rows[0]["record"]).unlink()
    assert tool.main(common) == 2
    assert f"{records / rows[0]['record']}:0:0: cannot read the record" in capsys.readouterr().err
    assert tool.main([*common, "--set", "TO_THE_END=two"]) == 2
    assert "--set TO_THE_END=two: 'two' is not a number" in capsys.readouterr().err
