"""Rule sets in files and on the command line (issue 20): scenario files, records and saves, `minis
simulate --rules` and `minis match --rules`, and the computer's armies under each set's limits."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import pytest

from minis.ai.army_maker import army_for_scenario, make_army
from minis.ai.random_bot import RandomBot, play
from minis.army import Army, rule_problems
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.cards import Nation, card_catalogue
from minis.cli import main
from minis.content.nationalities import table
from minis.content.rule_sets import NAMED, RULEBOOK, RuleSet, with_options
from minis.dice import Dice
from minis.engine.scenario import dump_scenario, load_scenario, parse_scenario_doc, start_game
from minis.game import Game
from minis.record import load, parse_record, read_record, record_text, replay_record, save

CARDS = card_catalogue()
AXIS = Army("Axis", Side.AXIS, units=("mauser-kar-98k", "mauser-kar-98k", "panzer-iv-ausf-g"))
ALLIES = Army("Allies", Side.ALLIES, units=("m1-garand-rifle", "m1-garand-rifle", "m4a1-sherman"))

HEAD = """kind = "scenario"
title = "Rules"
map = 1
turns = 3
{rules}
[axis]
points = 100
end = "west"
zone = 5

[allies]
points = 100
zone = 5

[[victory]]
kind = "points"
from_turn = 10
"""


def scenario_file(tmp_path: Path, rules: str, *units: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(HEAD.format(rules=rules) + "".join(units))
    return path


def preset(side: str, card: str, at: str) -> str:
    facing = 'facing = "E"\n' if CARDS[card].is_vehicle else ""
    return f'\n[[units]]\nside = "{side}"\ncard = "{card}"\nat = "{at}"\n{facing}'


def line_of(path: Path, start: str, nth: int = 0) -> int:
    """The line (from 1) of the `nth` line of a file that starts with `start`."""
    found = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if line.startswith(start)]
    return found[nth]


def problems(path: Path) -> list[str]:
    with pytest.raises(MinisError) as raised:
        load_scenario(path)
    assert raised.value.exit_code == 1
    return [str(p).replace(f"{path.parent}/", "") for p in raised.value.problems]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


# --- scenario files ---------------------------------------------------------------------------------------


def test_a_scenario_names_its_rule_set_and_its_battle_plays_under_it(tmp_path: Path) -> None:
    scenario = load_scenario(scenario_file(tmp_path, 'rules = "2009"\n'))
    assert scenario.doc.rules == NAMED["2009"]
    assert scenario.terms(None, CARDS).rules == NAMED["2009"]
    game = start_game(scenario, AXIS, ALLIES, dice=Dice(seed=3))
    assert game.state.rules == NAMED["2009"]
    assert game.header["rules"] == "2009" and "rule_options" not in game.header


def test_a_scenario_without_rules_is_the_2005_rulebook(tmp_path: Path) -> None:
    scenario = load_scenario(scenario_file(tmp_path, ""))
    assert scenario.doc.rules is RULEBOOK
    game = start_game(scenario, AXIS, ALLIES, dice=Dice(seed=3))
    assert game.state.rules is RULEBOOK and "rules" not in game.header


def test_a_custom_set_over_a_named_one(tmp_path: Path) -> None:
    text = 'rules = "2010"\n\n[rule_options]\nstacking_checked = "each-move"\nmax_units = 20\n'
    scenario = load_scenario(scenario_file(tmp_path, text))
    rules = scenario.doc.rules
    assert (rules.name, rules.stacking_checked, rules.max_units) == ("2010", "each-move", 20)
    assert rules.stack_per_army == 3 and rules.changed == ("max_units", "stacking_checked")
    assert rules.title == "2010 (custom: max_units 20, stacking_checked each-move)"


def test_a_wrong_rule_set_or_option_is_reported_at_its_line_with_the_names_that_exist(tmp_path: Path) -> None:
    text = 'rules = "2011"\n\n[rule_options]\nstack_per_army = 9\nstacking_check = "each-move"\n'
    path = scenario_file(tmp_path, text)
    found = problems(path)
    assert found == [
        f"s.toml:{line_of(path, 'rules')}:1: unknown rule set '2011' (the rule sets: 2005, 2008, 2009, 2010)"
        " (hint: did you mean '2010'?)",
        f"s.toml:{line_of(path, 'stack_per_army')}:1: stack_per_army is a number from 1 to 6",
        f"s.toml:{line_of(path, 'stacking_check')}:1: unknown rule option 'stacking_check'"
        " (hint: did you mean 'stacking_checked'?)",
    ]
    code, out, err = run("edit", "--check", str(path))
    assert (code, out) == (1, "")
    assert err.splitlines()[0].startswith(f"{path}:{line_of(path, 'rules')}:1: unknown rule set '2011'")


@pytest.mark.parametrize(
    "rules",
    [
        "",
        'rules = "2005"\n',
        'rules = "2009"\n',
        'rules = "2010"\n\n[rule_options]\nmax_units = 20\nhero_cap = "one-per-army"\nstack_per_army = 2\n',
        'rules = "2008"\n\n[rule_options]\nobstacle_percent = "any"\n'
        "single_nation_points = { Finland = 110 }\n",
    ],
)
def test_a_scenario_with_rules_round_trips_byte_for_byte(rules: str) -> None:
    text = HEAD.format(rules=rules)
    assert dump_scenario(parse_scenario_doc(text)) == text


def test_a_rule_option_equal_to_the_sets_own_is_not_written_back() -> None:
    doc = parse_scenario_doc(HEAD.format(rules='rules = "2009"\n\n[rule_options]\nstack_per_army = 3\n'))
    assert doc.rules == NAMED["2009"]
    assert dump_scenario(doc) == HEAD.format(rules='rules = "2009"\n')


# --- preset units keep the scenario's stacking limits ------------------------------------------------------


def test_three_presets_of_one_army_in_a_hex_only_where_the_set_allows_three(tmp_path: Path) -> None:
    three = [preset("axis", "mauser-kar-98k", "F8") for _ in range(3)]
    path = scenario_file(tmp_path, "", *three)
    assert problems(path) == [
        f"s.toml:{line_of(path, 'at', 2)}:1: no room for Mauser Kar 98k in F8: a hex holds at most two units"
        " of each army and one Vehicle in all (the stacking limit)"
    ]
    assert load_scenario(scenario_file(tmp_path, 'rules = "2010"\n', *three)).doc.rules == NAMED["2010"]
    path = scenario_file(tmp_path, 'rules = "2010"\n', *three, preset("axis", "mauser-kar-98k", "F8"))
    assert problems(path) == [
        f"s.toml:{line_of(path, 'at', 3)}:1: no room for Mauser Kar 98k in F8: a hex holds at most three"
        " units of each army and one Vehicle in all (the stacking limit)"
    ]


def test_two_armies_vehicles_share_a_hex_only_where_the_set_counts_vehicles_per_army(tmp_path: Path) -> None:
    tanks = (preset("axis", "panzer-iv-ausf-g", "F8"), preset("allies", "m4a1-sherman", "F8"))
    load_scenario(scenario_file(tmp_path, 'rules = "2008"\n', *tanks))  # one Vehicle of each army
    path = scenario_file(tmp_path, 'rules = "2009"\n', *tanks)
    assert problems(path) == [
        f"s.toml:{line_of(path, 'at', 1)}:1: no room for M4A1 Sherman in F8: a hex holds at most three units"
        " of each army and one Vehicle in all (the stacking limit)"
    ]
    path = scenario_file(tmp_path, 'rules = "2008"\n', *tanks, preset("axis", "tiger-i", "F8"))
    assert problems(path) == [
        f"s.toml:{line_of(path, 'at', 2)}:1: no room for Tiger I in F8: a hex holds at most three units"
        " of each army and one Vehicle of each army (the stacking limit)"
    ]


# --- records and saves ------------------------------------------------------------------------------------


def played(game: Game, seed: int) -> Game:
    play(game, RandomBot(seed))
    assert game.over
    return game


def test_a_scenarios_battle_records_its_set_and_replays_under_it(tmp_path: Path) -> None:
    scenario = load_scenario(scenario_file(tmp_path, 'rules = "2009"\n'))
    game = played(start_game(scenario, AXIS, ALLIES, dice=Dice(seed=5)), 5)
    target = tmp_path / "battle.rec"
    save(game, target)
    header = target.read_text().split("---")[0]
    assert 'rules = "2009"' in header and "scenario_file = " in header
    replayed = replay_record(read_record(target))
    assert replayed.state.rules == NAMED["2009"]
    assert replayed.state.snapshot() == game.state.snapshot()


@pytest.mark.parametrize(
    "rules",
    [NAMED["2009"], NAMED["2010"], with_options(NAMED["2010"], {"stack_per_army": 2, "max_units": 15})],
    ids=["2009", "2010", "custom"],
)
def test_a_record_and_a_save_replay_to_the_identical_state_under_their_set(
    tmp_path: Path, rules: RuleSet
) -> None:
    game = Game.new(AXIS, ALLIES, configuration=2, dice=Dice(seed=8), turn_limit=6, rules=rules)
    bot = RandomBot(8)
    for _ in range(60):  # a save in the middle of the battle
        game.apply(bot.choose(game))
    target = tmp_path / "save.rec"
    save(game, target)
    loaded = load(target, dice=Dice(seed=1))
    assert loaded.state.rules == rules
    assert loaded.state.snapshot() == game.state.snapshot()
    play(game, bot)
    text = record_text(game)
    replayed = replay_record(parse_record(text))
    assert replayed.state.rules == rules and replayed.state.snapshot() == game.state.snapshot()


def test_a_custom_set_is_written_in_the_record_header() -> None:
    rules = with_options(NAMED["2010"], {"stack_per_army": 2, "single_nation_points": {"Greece": 120}})
    game = Game.new(AXIS, ALLIES, configuration=2, dice=Dice(seed=8), rules=rules)
    header = record_text(game).split("---")[0]
    assert 'rules = "2010"\n' in header
    assert "rule_options = { single_nation_points = { Greece = 120 }, stack_per_army = 2 }" in header
    assert (
        replay_record(parse_record(record_text(game))).state.rules.single_nation_limit(Nation.GREECE) == 120
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('rules = "2011"', "unknown rule set '2011' (the rule sets: 2005, 2008, 2009, 2010)"),
        ('rules = "2009"\nrule_options = { stack_per_armies = 2 }', "unknown rule option 'stack_per_armies'"),
        ('rules = "2009"\nrule_options = { stack_per_army = 9 }', "stack_per_army is a number from 1 to 6"),
    ],
)
def test_a_record_with_an_unknown_set_or_option_is_refused_at_its_line(line: str, message: str) -> None:
    text = record_text(Game.new(AXIS, ALLIES, configuration=2, dice=Dice(seed=8)))
    head, rest = text.split("---\n", 1)
    lines = head.splitlines()
    text = "\n".join([*lines, line]) + "\n---\n" + rest
    with pytest.raises(MinisError) as raised:
        parse_record(text, "game.rec")
    (problem,) = raised.value.problems
    # the header line of the mistake: the set's name, or the options for a wrong option
    key = "rule_options" if "rule_options" in line else "rules"
    number = next(i for i, text_line in enumerate(text.splitlines(), start=1) if text_line.startswith(key))
    assert (problem.file, problem.line, problem.col, problem.message) == ("game.rec", number, 1, message)


# --- the command line -------------------------------------------------------------------------------------


def test_simulate_plays_under_the_named_set_and_its_records_say_so(tmp_path: Path) -> None:
    armies = Path(__file__).resolve().parent.parent / "armies"
    code, out, _ = run(
        "simulate",
        "--config",
        "3",
        "--axis",
        str(armies / "sample-axis.toml"),
        "--allies",
        str(armies / "sample-allies.toml"),
        "--games",
        "2",
        "--seed",
        "4",
        "--rules",
        "2010",
        "--records",
        str(tmp_path),
        "--quiet",
    )
    assert code == 0 and "2 games on configuration 3, seed 4, rules 2010" in out
    for path in sorted(tmp_path.glob("*.rec")):
        assert 'rules = "2010"' in path.read_text().split("---")[0]
        assert replay_record(read_record(path)).state.rules == NAMED["2010"]


@pytest.mark.parametrize("command", ["simulate", "match"])
def test_an_unknown_rule_set_on_the_command_line_names_the_sets(tmp_path: Path, command: str) -> None:
    armies = Path(__file__).resolve().parent.parent / "armies"
    args = ["random", "random"] if command == "match" else []
    given = ["--axis", str(armies / "sample-axis.toml"), "--allies", str(armies / "sample-allies.toml")]
    code, out, err = run(command, *args, *given, "--games", "1", "--rules", "2007")
    assert (code, out) == (2, "")
    assert err.strip().startswith(
        f"{command}:0:0: unknown rule set '2007' (the rule sets: 2005, 2008, 2009, 2010)"
    )


def test_match_plays_under_the_named_set_with_armies_built_for_it() -> None:
    code, out, _ = run("match", "random", "random", "--games", "2", "--config", "4", "--workers", "0")
    assert code == 0
    code, out, _ = run(
        "match",
        "random",
        "random",
        "--games",
        "2",
        "--config",
        "4",
        "--workers",
        "0",
        "--rules",
        "2009",
        "--quiet",
    )
    assert code == 0 and "random vs random: random scores" in out.splitlines()[-1]


def test_the_match_armies_keep_the_sets_limits_at_its_usual_size() -> None:
    from argparse import Namespace

    from minis.commands.match import game_specs

    args = Namespace(games=2, seed=2, config=None, all_configs=True, budget=None)
    none = {Side.AXIS: None, Side.ALLIES: None}
    specs = game_specs(args, ("random", "random"), none, in_process=True, rules=NAMED["2010"])
    for spec in specs:
        assert spec.rules == NAMED["2010"]
        for army in (spec.axis, spec.allies):
            assert army.rules == NAMED["2010"] and army.points_limit == 200
            assert rule_problems(army, CARDS) == []
    assert max(len(spec.axis.units) for spec in specs) > 15  # no 15-unit limit from 2008 on
    default = game_specs(args, ("random", "random"), none, in_process=True)
    assert all(spec.rules is None and len(spec.axis.units) <= 15 for spec in default)


# --- the computer's armies --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(NAMED))
@pytest.mark.parametrize("points", [100, 200])
def test_the_computers_armies_are_legal_under_every_set(name: str, points: int) -> None:
    rules = NAMED[name]
    for seed in range(2):
        for side in Side:
            for historical in (False, True):
                army = make_army(
                    CARDS, side, points, rng=random.Random(seed), historical=historical, rules=rules
                )
                found = rule_problems(army, CARDS, points_limit=points, rules=rules)
                assert found == [], (name, points, seed, side, historical, found)


def test_the_2008_table_holds_every_army_the_computer_builds_and_2005_does_not() -> None:
    groups = table("2008").groups

    def kept(army: Army) -> bool:
        units = [CARDS[u] for u in army.units if CARDS[u].nation is not None]
        return any(all(g.admits(c.nation, c.year) for c in units) for g in groups)  # type: ignore[arg-type]

    built = [make_army(CARDS, Side.ALLIES, 100, rng=random.Random(s), rules=NAMED["2008"]) for s in range(4)]
    assert all(kept(army) for army in built)
    free = [make_army(CARDS, Side.ALLIES, 100, rng=random.Random(s)) for s in range(4)]
    assert not all(kept(army) for army in free)  # a free 2005 army mixes nations


def test_the_computers_heroes_keep_the_sets_cap() -> None:
    """Only Heroes and one rifle to choose from: as many Heroes as the set's cap allows at 200 points."""
    heroes = ("grizzled-veteran", "stalwart-hero")
    cards = {card: CARDS[card] for card in (*heroes, "mauser-kar-98k")}

    def count(name: str) -> int:
        army = make_army(cards, Side.AXIS, 200, rng=random.Random(1), rules=NAMED[name])
        return sum(unit in heroes for unit in army.units)

    assert (count("2005"), count("2010")) == (1, 2)  # one per army; one per 100 points


def test_a_scenarios_computer_army_is_built_under_its_set(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(HEAD.format(rules='rules = "2010"\n').replace("points = 100\nend", "points = 200\nend"))
    scenario = load_scenario(path)
    army = army_for_scenario(scenario, Side.AXIS, random.Random(1), cards=CARDS)
    assert army.rules == NAMED["2010"] and len(army.units) > 15
    assert scenario.army_rule_problems(army, CARDS, Side.AXIS) == []
