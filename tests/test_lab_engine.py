"""The lab plays the same games on every run: the search bot decides by a count of playouts, never by the
clock; and every stored game says which engine (the package version and a digest of its sources) played it.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import duckdb
import pytest

import minis
from minis.ai.bot import play_out
from minis.base.errors import MinisError
from minis.cli import main
from minis.game import Game
from minis.lab import runner
from minis.lab.study import DEFAULT_PLAYOUTS, load_study
from minis.record import record_text

SEARCH_STUDY = """name = "search bots"
bots = ["search", "search"]
rules = "2005"
configurations = [1]
games = 2
seed = 3
batch = 2
turn_limit = 3

[armies]
points = 60
cards = [
    "panzergrenadier", "panzer-iv-ausf-g-early", "stug-iii-ausf-d", "guards-infantry", "bar-gunner",
    "sherman-vc-firefly",
]
"""


def _records(monkeypatch: pytest.MonkeyPatch, spec: runner.BatchSpec) -> list[str]:
    """Play the batch and keep every game's record (each action), not only its stored row."""
    played: list[str] = []

    def keep(game: Game, *args: object, **kwargs: object) -> Game:
        play_out(game, *args, **kwargs)  # type: ignore[arg-type]
        played.append(record_text(game))
        return game

    monkeypatch.setattr(runner, "play_out", keep)
    runner.play_batch(spec)
    return played


def test_search_games_are_the_same_on_a_machine_too_slow_for_the_time_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock that jumps a minute at every look would cut every timed decision at once: the lab's games
    must not notice (they are played by a count of playouts)."""
    path = tmp_path / "study.toml"
    path.write_text(SEARCH_STUDY)
    spec = runner.batch_specs(load_study(path), [0, 1], runner.versions())[0]
    quiet = _records(monkeypatch, spec)
    ticks = itertools.count(start=time.time(), step=60.0)
    monkeypatch.setattr(time, "time", lambda: next(ticks))
    loaded = _records(monkeypatch, spec)
    assert len(quiet) == 2 and quiet == loaded


def test_a_study_gives_playouts_never_seconds(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(SEARCH_STUDY + "")
    assert load_study(path).playouts == DEFAULT_PLAYOUTS
    path.write_text(SEARCH_STUDY.replace("turn_limit = 3", "turn_limit = 3\nplayouts = 8"))
    assert load_study(path).playouts == 8
    path.write_text(SEARCH_STUDY.replace("turn_limit = 3", "turn_limit = 3\nbudget = 1.5"))
    with pytest.raises(MinisError) as error:
        load_study(path)
    [problem] = error.value.problems
    assert (problem.line, problem.message) == (9, problem.message)
    assert "never by time" in problem.message and "playouts = " in problem.hint


def test_the_default_playouts_are_the_search_bots_own() -> None:
    from minis.ai.search import MAX_PLAYOUTS

    assert DEFAULT_PLAYOUTS == MAX_PLAYOUTS


def test_every_game_stores_its_engine_and_an_older_database_gets_the_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database of an older minis (no engine columns) opens; the games added say which engine played
    them, and the report says the study's games were played by two engines."""
    from test_lab_run import lab_run, study_text, write_study

    version, digest = runner.engine()
    assert version == minis.__version__ and len(digest) == 16 and int(digest, 16) >= 0
    study = write_study(tmp_path, study_text(games=6, batch=2))
    database = tmp_path / "study.duckdb"
    assert lab_run(study, "--workers", "0") == 0
    with duckdb.connect(str(database)) as con:  # as an older minis left it, without its last two games
        assert con.execute("SELECT DISTINCT engine_version, engine_digest FROM games").fetchall() == [
            (version, digest)
        ]
        con.execute("DELETE FROM games WHERE game >= 4")
        con.execute("ALTER TABLE games DROP COLUMN engine_version")
        con.execute("ALTER TABLE games DROP COLUMN engine_digest")
    assert lab_run(study, "--workers", "0") == 0
    assert "4 stored games were played by another engine" in capsys.readouterr().err
    with duckdb.connect(str(database), read_only=True) as con:
        found = con.execute("SELECT game, engine_version, engine_digest FROM games ORDER BY game").fetchall()
    assert found == [(game, None, None) for game in range(4)] + [(game, version, digest) for game in (4, 5)]
    assert main(["lab", "report", str(study), "--out", str(tmp_path / "out")]) == 0
    said = capsys.readouterr().out
    assert "this study's games were played by 2 different engines" in said
    assert f"4 by an engine not recorded (an older minis); 2 by minis {version}, sources {digest}" in said
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "played by 2 different engines" in page.split("<h2>")[0]


def test_a_counted_search_with_workers_decides_the_same_on_a_slow_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With workers the results are taken in the order they were sent: the same decision every time."""
    from test_ai_search import _movement

    from minis.ai.bot import view
    from minis.ai.search import SearchBot

    game = _movement()
    side = game.decider()
    assert side is not None
    decisions = []
    ticks = itertools.count(start=time.time(), step=60.0)
    for slow in (False, True):
        if slow:
            monkeypatch.setattr(time, "time", lambda: next(ticks))
        with SearchBot(7, workers=2, playouts=12, horizon=30) as bot:
            decisions.append((bot.choose(view(game, side, 99)), bot.playouts))
    assert decisions[0] == decisions[1] and decisions[0][1] >= 4
