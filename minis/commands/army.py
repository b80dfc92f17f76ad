"""`minis army check FILE...` and `minis army show FILE`: army files validated and shown as a table.

Each file is checked under the rule set it names (`rules = "NAME"`; none: 2005), or under the one
`--rules NAME` gives, which wins over the file's own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from minis.army import Army, army_limit, army_points, load_army, locate, rule_problems
from minis.base.errors import EXIT_CHECK, MinisError, print_problems
from minis.cards import StatCard, card_catalogue, load_cards
from minis.commands import Subparsers
from minis.commands.cards import print_table
from minis.commands.simulate import add_rules_option, chosen_rules
from minis.content.rule_sets import RULEBOOK, RuleSet


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("army", help="check army files, or show one")
    parser.set_defaults(func=lambda _args: _help(parser))
    actions = parser.add_subparsers(dest="army_action", metavar="ACTION")

    check = actions.add_parser("check", help="validate army files: one line per problem")
    check.add_argument("files", metavar="FILE", nargs="+", type=Path, help="army files (docs/armies.md)")
    check.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    add_rules_option(check)
    check.set_defaults(func=run_check)

    show = actions.add_parser("show", help="an army as a table: units, costs, total, points left")
    show.add_argument("file", metavar="FILE", type=Path, help="an army file (docs/armies.md)")
    show.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    add_rules_option(show)
    show.set_defaults(func=run_show)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _cards(args: argparse.Namespace) -> dict[str, StatCard]:
    return load_cards(args.cards) if args.cards else card_catalogue()


def run_check(args: argparse.Namespace) -> int:
    """Every file is checked even when an earlier one fails; the exit code is the worst of them."""
    given = chosen_rules(args.rules, "army check")
    cards = _cards(args)
    code = 0
    for path in args.files:
        try:
            army = load_army(path)
        except MinisError as error:
            print_problems(error.problems)
            code = max(code, error.exit_code)
            continue
        rules = given or army.rules
        problems = locate(army, rule_problems(army, cards, rules=rules))
        print_problems(problems)
        if problems:
            code = max(code, EXIT_CHECK)
        else:
            print(
                f"{path}: ok, {army_points(army, cards)} points, {len(army.units)} units "
                f"({army.scenario.value}, up to {army_limit(army, rules)} points{_under(rules)})"
            )
    return code


def _under(rules: RuleSet) -> str:
    """', rules 2010' after an army's limits, for any set but the rulebook's (whose lines stay as ever)."""
    return "" if rules == RULEBOOK else f", rules {rules.title}"


def army_table(army: Army, cards: dict[str, StatCard], rules: RuleSet | None = None) -> list[list[str]]:
    """The rows of `minis army show`: one per unit, then the total and the points left."""
    rows = [["#", "Unit", "Id", "Nation", "Type", "Year", "Cost"]]
    for number, unit in enumerate(army.units, start=1):
        card = cards.get(unit)
        if card is None:
            rows.append([str(number), "(unknown card)", unit, "?", "?", "?", "?"])
        else:
            rows.append(
                [
                    str(number),
                    card.name,
                    card.id,
                    card.nation_name,
                    card.type_line,
                    str(card.year),
                    str(card.cost),
                ]
            )
    total, limit = army_points(army, cards), army_limit(army, rules or army.rules)
    left = limit - total
    rows.append(["", "Total", "", "", "", "", str(total)])
    rows.append(["", "Left" if left >= 0 else f"Left ({-left} over)", "", "", "", "", str(left)])
    return rows


def run_show(args: argparse.Namespace) -> int:
    given = chosen_rules(args.rules, "army show")
    cards = _cards(args)
    army = load_army(args.file)
    rules = given or army.rules
    limit = army_limit(army, rules)
    details = [army.side.title, f"{army.scenario.value} scenario, up to {limit} points"]
    if army.year is not None:
        details.append(f"year {army.year}")
    if army.historical:
        details.append("historical limits")
    if _under(rules):
        details.append(f"rules {rules.title}")
    count = (
        f"{len(army.units)} units"
        if rules.max_units is None
        else f"{len(army.units)} of {rules.max_units} units"
    )
    print(f"{army.name} ({', '.join(details)}; {count})")
    print()
    print_table(army_table(army, cards, rules), right=(0, 5, 6))
    problems = locate(army, rule_problems(army, cards, rules=rules))
    print_problems(problems)
    return EXIT_CHECK if problems else 0
