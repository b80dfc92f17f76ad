"""`minis cards list` and `minis cards show ID`: the stat cards as a table and as a readable card."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import TextIO

from minis.cards import Nation, RangeBand, StatCard, card_catalogue, card_id, load_cards
from minis.commands import Subparsers
from minis.errors import did_you_mean
from minis.sides import Side

#: Hexes covered by each range band, as printed under the attack grid.
_BAND_HEXES = {RangeBand.SHORT: "0-1", RangeBand.MEDIUM: "2-4", RangeBand.LONG: "5-8"}


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("cards", help="list the stat cards, or show one")
    parser.set_defaults(func=lambda _args: _help(parser))
    actions = parser.add_subparsers(dest="cards_action", metavar="ACTION")

    listing = actions.add_parser("list", help="one line per card: id, name, side, cost")
    listing.add_argument("--side", type=_side, help="axis or allies")
    listing.add_argument("--nation", type=_nation, help="e.g. germany, 'united states', usa, uk, ussr")
    listing.add_argument("--year", type=int, help="only cards available by this year")
    listing.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    listing.set_defaults(func=run_list)

    show = actions.add_parser("show", help="a card's numbers and abilities")
    show.add_argument("id", metavar="ID", help="card id (or name), e.g. m4a1-sherman")
    show.add_argument("--cards", metavar="DIR", type=Path, help="card folder (default: the shipped cards)")
    show.set_defaults(func=run_show)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _side(text: str) -> Side:
    try:
        return Side.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _nation(text: str) -> Nation:
    try:
        return Nation.parse(text)
    except ValueError as error:
        hint = Nation.hint(text)
        raise argparse.ArgumentTypeError(f"{error}" + (f" ({hint})" if hint else "")) from None


def _cards(args: argparse.Namespace) -> dict[str, StatCard]:
    return load_cards(args.cards) if args.cards else card_catalogue()


def run_list(args: argparse.Namespace) -> int:
    cards = sorted(_cards(args).values(), key=lambda card: card.id)
    if args.side:
        cards = [card for card in cards if card.side is args.side]
    if args.nation:
        cards = [card for card in cards if card.nation is args.nation]
    if args.year is not None:
        cards = [card for card in cards if card.year <= args.year]
    print_table([[card.id, card.name, card.side.title, str(card.cost)] for card in cards], right=(3,))
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
        f"{card.nation.value} ({card.side.title})  {card.type_line}  {card.year}",
        "=" * width,
        f"Speed {card.speed}    Defense {card.defense_text}"
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
    footer = [card.set_name]
    if card.collector:
        footer.append(card.collector)
    if card.rarity:
        footer.append(card.rarity)
    footer.append(f"id {card.id}")
    lines.append(" | ".join(footer))
    return "\n".join(lines)
