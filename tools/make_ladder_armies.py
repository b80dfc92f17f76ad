"""Write the ladder's hidden test armies (`armies/ladder/`): 8 Axis and 8 Allied Standard armies.

Run once from the repository's top: `python tools/make_ladder_armies.py [--check]`. Each army is one
seeded draw of the army maker (`minis.ai.army_maker.make_army`, at 100 points under the 2005 rules, with
the shipped card-values table of the day) from seeds 35_01_xx that nothing else in the repository uses,
some held to one nation's cards or to a year, so the set mixes nations, years, tanks,
guns and infantry. The files are then kept as they are: a later change of the army maker or of the
card values must not change the ladder's armies (`--check` says whether a draw today would differ,
and writes nothing). Nothing that tunes a bot or the lab reads these files (docs/ai.md).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from minis.ai.army_maker import make_army
from minis.army import dump_army, load_army, rule_problems
from minis.base.sides import Side
from minis.cards import Nation, card_catalogue

FOLDER = Path(__file__).resolve().parent.parent / "armies" / "ladder"

#: (file name, side, seed, year, nation): the ladder's armies. A nation keeps the draw to that nation's
#: cards (and cards of no nation); None draws from the whole side.
ARMIES = (
    ("axis-1", Side.AXIS, 350101, None, None),
    ("axis-2", Side.AXIS, 350102, 1944, None),
    ("axis-3", Side.AXIS, 350103, 1941, None),
    ("axis-4", Side.AXIS, 350104, None, Nation.GERMANY),
    ("axis-5", Side.AXIS, 350105, 1943, Nation.GERMANY),
    ("axis-6", Side.AXIS, 350106, None, Nation.JAPAN),
    ("axis-7", Side.AXIS, 350107, None, Nation.ITALY),
    ("axis-8", Side.AXIS, 350108, None, Nation.FINLAND),
    ("allies-1", Side.ALLIES, 350201, None, None),
    ("allies-2", Side.ALLIES, 350202, 1944, None),
    ("allies-3", Side.ALLIES, 350203, 1941, None),
    ("allies-4", Side.ALLIES, 350204, None, Nation.UNITED_STATES),
    ("allies-5", Side.ALLIES, 350205, 1944, Nation.UNITED_STATES),
    ("allies-6", Side.ALLIES, 350206, None, Nation.SOVIET_UNION),
    ("allies-7", Side.ALLIES, 350207, None, Nation.UNITED_KINGDOM),
    ("allies-8", Side.ALLIES, 350208, None, Nation.FRANCE),
)


def main(argv: list[str]) -> int:
    cards = card_catalogue()
    check = "--check" in argv
    differ = 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, side, seed, year, nation in ARMIES:
        pool = {key: card for key, card in cards.items() if nation is None or card.nation in (None, nation)}
        army = make_army(
            pool,
            side,
            100,
            rng=random.Random(seed),
            year=year,
            name=f"Ladder {name} (seed {seed})",
        )
        assert rule_problems(army, cards) == [], name
        path = FOLDER / f"{name}.toml"
        if check:
            if not path.exists() or load_army(path).units != army.units:
                print(f"{path}: a draw today differs")
                differ += 1
            continue
        costs = sum(cards[unit].cost for unit in army.units)
        nations = sorted({cards[u].nation_name for u in army.units if cards[u].nation is not None})
        head = f"# The ladder's hidden test army {name}: make_army seed {seed}, {costs:g} points, "
        head += f"{len(army.units)} units"
        head += f", {', '.join(nations)}. Kept out of all tuning (README.md).\n"
        path.write_text(head + dump_army(army), encoding="utf-8")
        print(path, costs, len(army.units), nations)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
