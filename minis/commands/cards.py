"""`minis cards list` and `minis cards show ID`: the stat cards as a table and as a readable card."""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
from pathlib import Path
from typing import TextIO

from minis.base.errors import MinisError, Problem, did_you_mean
from minis.base.sides import Side
from minis.cards import SUBTYPES, Nation, RangeBand, StatCard, UnitType, card_catalogue, card_id, load_cards
from minis.commands import Subparsers
from minis.content.card_search import NO_SUBTYPE, SORTS, TYPE_WORDS, CardFilter, needs_text, sort_cards
from minis.engine.ability_loader import standard_abilities

#: Hexes covered by each range band, as printed under the attack grid.
_BAND_HEXES = {RangeBand.SHORT: "0-1", RangeBand.MEDIUM: "2-4", RangeBand.LONG: "5-8"}


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("cards", help="list the stat cards, or show one")
    parser.set_defaults(func=lambda _args: _help(parser))
    actions = parser.add_subparsers(dest="cards_action", metavar="ACTION")

    listing = actions.add_parser(
        "list",
        help="one line per card: id, name, side, cost (and what an unplayable card needs)",
        description="One line per card: id, name, side, cost; a card this rule set cannot play yet "
        "ends with 'needs: WHAT'. The filters combine.",
    )
    listing.add_argument("--search", metavar="TEXT", help="words in the card's name or abilities (any case)")
    listing.add_argument("--side", help="axis or allies: the cards that side's army may take")
    listing.add_argument("--nation", help="e.g. germany, 'united states', usa, uk, ussr")
    listing.add_argument("--type", help="soldier, vehicle, obstacle or aircraft")
    listing.add_argument("--subtype", help=f"e.g. tank, artillery, commander ({NO_SUBTYPE!r}: none)")
    listing.add_argument("--year", help="only cards available by this year")
    listing.add_argument("--min-cost", metavar="POINTS", help="only cards costing at least this")
    listing.add_argument("--max-cost", metavar="POINTS", help="only cards costing at most this")
    listing.add_argument("--playable", action="store_true", help="only cards this rule set can play")
    listing.add_argument("--sort", default="name", help="name (default), cost, year or nation")
    listing.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    listing.set_defaults(func=run_list)

    show = actions.add_parser("show", help="a card's numbers and abilities")
    show.add_argument("id", metavar="ID", help="card id (or name), e.g. m4a1-sherman")
    show.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    show.set_defaults(func=run_show)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _bad(message: str, hint: str = "") -> MinisError:
    """A bad option value, reported like every command's: `cards:0:0: message`."""
    return MinisError(Problem("cards", 0, 0, message, hint))


def _side(text: str) -> Side:
    try:
        return Side.parse(text)
    except ValueError as error:
        raise _bad(f"--side: {error}") from None


def _nation(text: str) -> Nation:
    try:
        return Nation.parse(text)
    except ValueError as error:
        raise _bad(f"--nation: {error}", Nation.hint(text)) from None


def _type(text: str) -> UnitType:
    found = TYPE_WORDS.get(text.strip().lower())
    if found is None:
        raise _bad(
            f"--type: unknown unit type '{text}' (soldier, vehicle, obstacle or aircraft)",
            did_you_mean(text.strip().lower(), list(TYPE_WORDS)),
        )
    return found


def _subtype(text: str) -> str:
    known = {subtype.lower(): subtype for subtype in SUBTYPES} | {NO_SUBTYPE: NO_SUBTYPE}
    found = known.get(" ".join(text.lower().replace("_", " ").split()))
    if found is None:
        raise _bad(f"--subtype: unknown subtype '{text}'", did_you_mean(text.strip().title(), list(SUBTYPES)))
    return found


def _year(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise _bad(f"--year: '{text}' is not a year (like 1942)") from None


def _points(option: str, text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise _bad(f"{option}: '{text}' is not a number of points (like 5 or 0.5)")
    return value


def list_filter(args: argparse.Namespace) -> CardFilter:
    """The filter the options of `minis cards list` ask for; a bad value is a MinisError."""
    min_cost = _points("--min-cost", args.min_cost) if args.min_cost is not None else None
    max_cost = _points("--max-cost", args.max_cost) if args.max_cost is not None else None
    if min_cost is not None and max_cost is not None and min_cost > max_cost:
        raise _bad(f"--min-cost {args.min_cost} is more than --max-cost {args.max_cost}: no card costs that")
    return CardFilter(
        search=args.search or "",
        side=_side(args.side) if args.side is not None else None,
        nation=_nation(args.nation) if args.nation is not None else None,
        type=_type(args.type) if args.type is not None else None,
        subtype=_subtype(args.subtype) if args.subtype is not None else None,
        year=_year(args.year) if args.year is not None else None,
        min_cost=min_cost,
        max_cost=max_cost,
        playable=args.playable,
    )


def _cards(args: argparse.Namespace) -> dict[str, StatCard]:
    return load_cards(args.cards) if args.cards else card_catalogue()


def run_list(args: argparse.Namespace) -> int:
    if args.sort not in SORTS:
        raise _bad(
            f"--sort: unknown order '{args.sort}' (name, cost, year or nation)",
            did_you_mean(args.sort, list(SORTS)),
        )
    wanted = list_filter(args)
    needs = standard_abilities().needs
    cards = sort_cards((card for card in _cards(args).values() if wanted.matches(card, needs)), args.sort)
    rows = []
    for card in cards:
        missing = needs(card)
        rows.append(
            [
                card.id,
                card.name,
                card.side_name,
                card.cost_text,
                f"needs: {needs_text(missing)}" if missing else "",
            ]
        )
    print_table(rows, right=(3,))
    return 0


def print_table(rows: list[list[str]], right: tuple[int, ...] = (), file: TextIO | None = None) -> None:
    """Rows as aligned columns separated by two spaces; columns in `right` are right-aligned."""
    if not rows:
        return
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(width) if column in right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip(), file=file or sys.stdout)


def run_show(args: argparse.Namespace) -> int:
    cards = _cards(args)
    wanted = args.id if args.id in cards else card_id(args.id)
    card = cards.get(wanted)
    if card is None:
        hint = did_you_mean(wanted, list(cards))
        print(f"unknown card '{args.id}'" + (f" ({hint})" if hint else ""), file=sys.stderr)
        return 1
    print(render_card(card))
    return 0


def _dice(value: int | None) -> str:
    return "-" if value is None else str(value)


def render_card(card: StatCard) -> str:
    """A stat card as terminal text: header, the numbers in a grid, abilities with descriptions."""
    title = f"{card.name}"
    cost = f"{card.cost} points"
    width = max(56, len(title) + len(cost) + 2)
    lines = [
        title + cost.rjust(width - len(title)),
        f"{card.nation_name} ({card.side_name})  {card.type_line}  {card.year}",
        "=" * width,
        f"Speed {card.speed_text}    Defense {card.defense_text}"
        + ("  (front/rear)" if "/" in card.defense_text else ""),
        "",
        "Attack dice        " + "".join(f"{band.value.capitalize():>8}" for band in RangeBand),
        "  hexes            " + "".join(f"{_BAND_HEXES[band]:>8}" for band in RangeBand),
        "  vs Soldiers      " + "".join(f"{_dice(card.vs_soldiers.at(band)):>8}" for band in RangeBand),
        "  vs Vehicles      " + "".join(f"{_dice(card.vs_vehicles.at(band)):>8}" for band in RangeBand),
        "",
    ]
    if card.abilities:
        lines.append("Special abilities")
        for ability in card.abilities:
            marker = " (commander)" if ability.commander else ""
            text = f"{ability.text}{marker}: {ability.description}"
            lines.append(textwrap.fill(text, width=78, initial_indent="  ", subsequent_indent="      "))
    else:
        lines.append("Special abilities: none")
    lines.append("-" * width)
    footer = [card.set_name] if card.set_name else []
    if card.collector:
        footer.append(card.collector)
    if card.rarity:
        footer.append(card.rarity)
    footer.append(f"id {card.id}")
    lines.append(" | ".join(footer))
    return "\n".join(lines)
