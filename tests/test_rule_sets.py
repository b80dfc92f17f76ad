"""The rule sets themselves (`minis.content.rule_sets`): the named sets, a file's `rules` and `[rule_options]`
(read with their lines and columns, written back the same), custom sets, and records that carry them."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from minis import record
from minis.ai.random_bot import RandomBot, play
from minis.army import load_army
from minis.base.errors import MinisError, Problem
from minis.base.tomlfile import parse_toml
from minis.content import rule_sets
from minis.content.rule_sets import NAMED, RULEBOOK, RuleSet, read, rules_toml, with_options
from minis.dice import Dice
from minis.game import Game

ARMIES = Path(__file__).resolve().parent.parent / "armies"


def _read(text: str) -> tuple[RuleSet, list[Problem]]:
    problems: list[Problem] = []
    return read(parse_toml(text, "f.toml"), problems), problems


def test_the_named_sets_and_the_default() -> None:
    assert list(NAMED) == ["2005", "2008", "2009", "2010"]
    assert NAMED["2005"] is RULEBOOK and RULEBOOK.name == rule_sets.DEFAULT
    assert _read('title = "x"\n') == (RULEBOOK, [])
    for name, rules in NAMED.items():
        assert _read(f'rules = "{name}"\n') == (rules, []) and rules.title == name
    # every set differs from the one before in something the reference lists
    sets = list(NAMED.values())
    assert all(a != b for a, b in itertools.pairwise(sets))


def test_an_unknown_set_or_option_is_named_at_its_line_with_the_names_that_exist() -> None:
    rules, problems = _read('rules = "2011"\n\n[rule_options]\nstack_per_arm = 3\nmax_units = -1\n')
    assert rules == RULEBOOK
    text = [str(p) for p in problems]
    assert text[0] == (
        "f.toml:1:1: unknown rule set '2011' (the rule sets: 2005, 2008, 2009, 2010)"
        " (hint: did you mean '2010'?)"
    )
    assert (
        text[1].startswith("f.toml:4:1: unknown rule option 'stack_per_arm'") and "stack_per_army" in text[1]
    )
    assert text[2].startswith("f.toml:5:1: max_units is a number of units")
    assert _read("rules = 2010\n")[1][0].message.startswith("'rules' is the name of a rule set")


def test_options_over_a_named_set_make_a_custom_set_written_back_the_same() -> None:
    text = (
        'rules = "2010"\n\n[rule_options]\nstack_per_army = 2\nmax_units = 15\n'
        'single_nation_points = { "Finland" = 120 }\n'
    )
    rules, problems = _read(text)
    assert problems == []
    assert rules.name == "2010" and rules.stack_per_army == 2 and rules.max_units == 15
    assert rules.changed == ("max_units", "single_nation_points", "stack_per_army")
    assert rules.title == (
        "2010 (custom: max_units 15, single_nation_points { Finland = 120 }, stack_per_army 2)"
    )
    again, problems = _read(rules_toml(rules))
    assert problems == [] and again == rules
    # an option set to the named set's own value changes nothing
    assert with_options(NAMED["2009"], {"stack_per_army": 3}) == NAMED["2009"]
    assert rules_toml(RULEBOOK) == ""


def test_the_cap_while_moving_is_a_number_of_units_or_any() -> None:
    """`overstack_while_moving`: 2008 sets none ("any"), 2009 and 2010 one extra unit."""
    assert NAMED["2008"].overstack_while_moving is None
    assert NAMED["2009"].overstack_while_moving == NAMED["2010"].overstack_while_moving == 1
    rules, problems = _read('rules = "2010"\n\n[rule_options]\noverstack_while_moving = "any"\n')
    assert problems == [] and rules.overstack_while_moving is None
    assert rules.title == "2010 (custom: overstack_while_moving any)"
    assert _read(rules_toml(rules)) == (rules, [])
    _, problems = _read('rules = "2008"\n\n[rule_options]\noverstack_while_moving = 0\n')
    assert [str(p) for p in problems] == [
        'f.toml:4:1: overstack_while_moving is a number of units (1-6) or "any"'
    ]


def test_a_record_replays_under_its_rule_set(tmp_path: Path) -> None:
    custom = with_options(NAMED["2009"], {"aircraft_placement": "own-phase"})
    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"),
        load_army(ARMIES / "sample-allies.toml"),
        configuration=2,
        dice=Dice(seed=3),
        rules=custom,
    )
    assert game.state.rules == custom
    play(game, RandomBot(3), max_actions=400)
    path = tmp_path / "game.txt"
    record.save(game, path)
    text = path.read_text()
    assert 'rules = "2009"' in text and 'rule_options = { aircraft_placement = "own-phase" }' in text
    again = record.load(path, resume=False)
    assert again.state.rules == custom and again.state.snapshot() == game.state.snapshot()


def test_a_record_naming_an_unknown_set_is_refused_at_its_line(tmp_path: Path) -> None:
    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml"), dice=Dice(seed=1)
    )
    path = tmp_path / "game.txt"
    record.save(game, path)
    lines = path.read_text().splitlines()
    lines.insert(2, 'rules = "1999"')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MinisError) as caught:
        record.load(path)
    assert f"{path}:3:1: unknown rule set '1999'" in str(caught.value)


def test_a_2005_record_has_no_rules_line(tmp_path: Path) -> None:
    game = Game.new(
        load_army(ARMIES / "sample-axis.toml"), load_army(ARMIES / "sample-allies.toml"), dice=Dice(seed=1)
    )
    path = tmp_path / "game.txt"
    record.save(game, path)
    assert "rules" not in path.read_text()
