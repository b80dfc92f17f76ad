"""`minis army check FILE...` and `minis army show FILE`: army files validated and shown as a table."""

from __future__ import annotations

import argparse
from pathlib import Path

from minis.army import MAX_UNITS, Army, army_points, load_army, locate, rule_problems
from minis.cards import StatCard, card_catalogue, load_cards
from minis.commands import Subparsers
from minis.commands.cards import print_table
from minis.errors import EXIT_CHECK, MinisError, print_problems


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("army", help="check army files, or show one")
    parser.set_defaults(func=lambda _args: _help(parser))
    actions = parser.add_subparsers(dest="army_action", metavar="ACTION")

    check = actions.add_parser("check", help="validate army files: one line per problem")
    check.add_argument("files", metavar="FILE", nargs="+", type=Path, help="army files (docs/armies.md)")
    check.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    check.set_defaults(func=run_check)

    show = actions.add_parser("show", help="an army as a table: units, costs, total, points left")
    show.add_argument("file", metavar="FILE", type=Path, help="an army file (docs/armies.md)")
    show.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    show.set_defaults(func=run_show)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _cards(args: argparse.Namespace) -> dict[str, StatCard]:
    return load_cards(args.cards) if args.cards else card_catalogue()


def run_check(args: argparse.Namespace) -> int:
    """Every file is checked even when an earlier one fails; the exit code is the worst of them."""
    cards = _cards(args)
    code = 0
    for path in args.files:
        try:
            army = load_army(path)
        except MinisError as error:
            print_problems(error.problems)
            code = max(code, error.exit_code)
            continue
        problems = locate(army, rule_problems(army, cards))
        print_problems(problems)
        if problems:
            code = max(code, EXIT_CHECK)
        else:
            print(
                f"{path}: ok, {army_points(army, cards)} points, {len(army.units)} units "
                f"({army.scenario.value}, up to {army.points_limit} points)"
            )
    return code


def army_table(army: Army, cards: dict[str, StatCard]) -> list[list[str]]:
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
    total, limit = army_points(army, cards), army.points_limit
    left = limit - total
    rows.append(["", "Total", "", "", "", "", str(total)])
    rows.append(["", "Left" if left >= 0 else f"Left ({-left} over)", "", "", "", "", str(left)])
    return rows


def run_show(args: argparse.Namespace) -> int:
    cards = _cards(args)
    army = load_army(args.file)
    details = [army.side.title, f"{army.scenario.value} scenario, up to {army.points_limit} points"]
    if army.year is not None:
        details.append(f"year {army.year}")
    if army.historical:
        details.append("historical limits")
    print(f"{army.name} ({', '.join(details)}; {len(army.units)} of {MAX_UNITS} units)")
    print()
    print_table(army_table(army, cards), right=(0, 5, 6))
    problems = locate(army, rule_problems(army, cards))
    print_problems(problems)
    return EXIT_CHECK if problems else 0
