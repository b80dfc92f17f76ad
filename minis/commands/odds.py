"""`minis odds DICE DEFENSE [options]`: the exact chance of 0, 1, 2 and 3 hits of an attack.

minis odds 11 5                      # the Sherman's 11 dice against the Panzer's front defense 5
minis odds 8 4 --penalty --cover soldier
minis odds 11 4 --cover vehicle --same-hex --defensive
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from minis.commands import Subparsers
from minis.engine.odds import hit_odds

COVER_WORDS = {"soldier": 4, "vehicle": 5}


def _cover(text: str) -> int:
    word = text.strip().lower()
    if word in COVER_WORDS:
        return COVER_WORDS[word]
    if word.rstrip("+").isdigit() and 1 <= int(word.rstrip("+")) <= 7:
        return int(word.rstrip("+"))
    raise argparse.ArgumentTypeError(f"'{text}' is not a cover roll: soldier (4+), vehicle (5+) or a number")


#: More dice than any attack rolls; the exact binomial of a huge count would run for hours.
MAX_DICE = 1000


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    return int(text)


def _dice(text: str) -> int:
    count = _count(text)
    if count > MAX_DICE:
        raise argparse.ArgumentTypeError(f"{text} dice is too many (at most {MAX_DICE})")
    return count


def _signed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (like -1 or 1)") from None


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="the exact chance of 0, 1, 2 and 3 hits of an attack",
        description="The exact odds of an attack (binomial, no simulation).",
    )
    parser.add_argument("dice", type=_dice, metavar="DICE", help="attack dice rolled")
    parser.add_argument("defense", type=_count, metavar="DEFENSE", help="the defense the attack must reach")
    parser.add_argument(
        "--penalty",
        action="store_true",
        help="the attacker is disrupted or damaged: -1 on each die (they never add)",
    )
    parser.add_argument(
        "--modifier",
        type=_signed,
        default=0,
        metavar="N",
        help="another modifier on each attack die (abilities), e.g. 1 or -1",
    )
    parser.add_argument(
        "--cover",
        type=_cover,
        metavar="ROLL",
        help="the target may make a cover roll: soldier (4+), vehicle (5+) or the number needed",
    )
    parser.add_argument(
        "--same-hex", action="store_true", help="the attacker is in the target's hex: -1 on cover"
    )
    parser.add_argument(
        "--cover-modifier",
        type=_signed,
        default=0,
        metavar="N",
        help="another modifier on the cover roll (abilities)",
    )
    parser.add_argument(
        "--defensive",
        action="store_true",
        help="defensive fire: any hit disrupts, a successful cover roll negates it",
    )
    parser.add_argument("--exact", action="store_true", help="print the fractions too")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    modifier = args.modifier - (1 if args.penalty else 0)
    cover_modifier = args.cover_modifier - (1 if args.same_hex else 0)
    odds = hit_odds(args.dice, args.defense, modifier, args.cover, cover_modifier, defensive=args.defensive)
    print(describe(args.dice, args.defense, modifier, args.cover, cover_modifier, args.defensive))
    labels = ("miss", "disrupted") if args.defensive else ("0 hits", "1 hit", "2 hits", "3 hits")
    for label, chance in zip(labels, odds, strict=False):
        text = f"{label:<10}{float(chance) * 100:7.2f}%"
        print(text + (f"  {chance}" if args.exact else ""))
    return 0


def describe(
    dice: int, defense: int, modifier: int, cover: int | None, cover_modifier: int, defensive: bool
) -> str:
    need = 4 - modifier
    need_text = f"{need}+" if 1 < need <= 6 else ("every die" if need <= 1 else "never")
    parts = [f"{dice} dice (success on {need_text})", f"defense {defense}"]
    if cover is None:
        parts.append("no cover roll")
    else:
        cover_need = cover - cover_modifier
        parts.append(f"cover on {cover_need}+" if cover_need <= 6 else "cover roll can't succeed")
    if defensive:
        parts.append("defensive fire")
    return ", ".join(parts)


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.2f}%"
