"""Names that are types, not strings: event kinds and worded rule options are Literal types mypy checks
(a misspelt `event.kind == "atack"` is a mypy error), and `Scenario` means one thing (docs/engine.md)."""

from __future__ import annotations

import ast
import random
import typing
from pathlib import Path

import attrs
from engine_support import random_army

from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.content.rule_sets import CHOICES, NAMED, RuleSet
from minis.dice import Dice
from minis.engine.ability_api import FollowUp
from minis.engine.events import KINDS, Event, EventKind
from minis.game import Game
from minis.state import BattleKind

ROOT = Path(__file__).resolve().parent.parent


def test_kinds_is_the_literal_of_event_kinds() -> None:
    assert typing.get_args(EventKind) == KINDS
    assert len(set(KINDS)) == len(KINDS)
    assert typing.get_type_hints(Event)["kind"] == EventKind


def test_every_event_of_random_games_has_a_listed_kind() -> None:
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
        if seed == 2:
            game = Game.new(
                axis,
                allies,
                scenario=BattleKind.ASSAULT,
                attacker=Side.AXIS,
                dice=Dice(seed=seed),
                turn_limit=4,
            )
        else:
            game = Game.new(axis, allies, configuration=seed + 1, dice=Dice(seed=seed), turn_limit=4)
        bot = RandomBot(seed)
        while game.decider() is not None:
            seen.update(event.kind for event in game.apply(bot.choose(game)))
    assert seen <= set(KINDS), seen - set(KINDS)
    assert {"turn", "move", "attack", "winner"} <= seen


def test_worded_rule_options_are_literals_the_readers_check_against() -> None:
    hints = typing.get_type_hints(RuleSet)
    for option, choices in CHOICES.items():
        assert typing.get_origin(hints[option]) is typing.Literal, option
        assert choices == typing.get_args(hints[option]), option
    for rules in NAMED.values():
        for field in attrs.fields(RuleSet):
            if field.name in CHOICES:
                assert getattr(rules, field.name) in CHOICES[field.name], (rules.name, field.name)


def test_follow_up_kinds_are_a_literal() -> None:
    assert typing.get_args(typing.get_type_hints(FollowUp)["kind"]) == ("attack", "move", "face")


def _trees() -> list[tuple[Path, ast.Module]]:
    files = [*(ROOT / "minis").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(files)]


def test_one_class_is_called_scenario_and_no_import_renames_it() -> None:
    classes = [
        path.relative_to(ROOT).as_posix()
        for path, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name == "Scenario"
    ]
    assert classes == ["minis/engine/scenario.py"]
    renamed = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name} as {alias.asname}"
        for path, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("minis")
        for alias in node.names
        if alias.asname is not None and "Scenario" in alias.name + alias.asname
    ]
    assert renamed == []
