"""Plain words for players: units named by their cards, not by the ids the engine and records use.

The engine names a unit by its id ("panzer-iv-ausf-g", and "mauser-kar-98k#2" for a second copy), and
its reasons for refusing an action say those ids. A player reads card names: "Panzer IV Ausf. G",
"Mauser Kar 98k 2". `unit_names` makes those names for a battle's units, and `plain` puts them in
place of the ids in any text. Records and the action notation keep the ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from minis.state import Unit


def unit_name(unit: Unit) -> str:
    """The card's name, and the copy number for a second or later copy ("Mauser Kar 98k 2")."""
    number = unit.id.partition("#")[2]
    return f"{unit.card.name} {number}" if number else unit.card.name


def unit_names(units: Iterable[Unit]) -> dict[str, str]:
    """Each unit's id and its name for players (see `unit_name`)."""
    return {unit.id: unit_name(unit) for unit in units}


def plain(text: str, names: Mapping[str, str]) -> str:
    """`text` with every id of `names` replaced by its name. Only whole ids count: a longer token that
    merely contains one ("pioneers-2", "mauser-kar-98k#3" when only the first copy is in the battle)
    is left as it is."""
    if not names:
        return text
    ids = sorted(names, key=len, reverse=True)  # "x#2" before "x"
    pattern = r"(?<![\w#-])(" + "|".join(re.escape(unit_id) for unit_id in ids) + r")(?![\w#-])"
    return re.sub(pattern, lambda match: names[match.group(1)], text)
