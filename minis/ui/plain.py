"""Plain words for players: units named by their cards, not by the ids the engine and records use.

The engine names a unit by its id ("panzer-iv-ausf-g", "mauser-kar-98k#2" for a second copy, or a
scenario's own id such as "rifle-2"), and its reasons for refusing an action say those ids. A player
reads card names: "Panzer IV Ausf. G", and where two units of an army share a name, "the second Mauser
Kar 98k". `unit_names` makes those names for a battle's units, `plain` puts them in place of the ids in
any text (with the verb after a plural name agreeing: "Soviet Grenadiers have already acted"), and
`words` is the window's wording of any engine sentence about a position: every unit and obstacle id of
the battle, and any card id, by name, whatever sentence the engine says now or is given later. Records
and the action notation keep the ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from minis.base.grammar import VERBS, verb
from minis.rules import obstacles
from minis.state import GameState, Unit

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """1 -> "first", 2 -> "second" ... ("11th" past ten)."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


def called(name: str, n: int) -> str:
    """The name of the `n`th unit of that name in an army: the first keeps its name, the others are
    "the second Mauser Kar 98k", "the third ..."."""
    return name if n <= 1 else f"the {ordinal(n)} {name}"


def _copy(unit: Unit) -> int:
    """The copy number in the engine's id ("x#3" -> 3; a first copy or a scenario's own id: 1)."""
    number = unit.id.partition("#")[2]
    return int(number) if number.isdigit() else 1


def unit_name(unit: Unit) -> str:
    """The card's name, and for a second or later copy "the second Mauser Kar 98k" (from the id; a
    battle's names, which also tell apart units the ids don't, are `unit_names`)."""
    return called(unit.card.name, _copy(unit))


def unit_names(units: Iterable[Unit]) -> dict[str, str]:
    """Each unit's id and its name for players: the card's name, and where units of one army share
    a name, "the second ...", "the third ..." in the order of their ids (copies by their number). Each
    army is counted on its own, so a name never tells anything of the other army."""
    groups: dict[tuple[str, str], list[Unit]] = {}
    for unit in units:
        groups.setdefault((unit.side.value, unit.card.name), []).append(unit)
    names: dict[str, str] = {}
    for (_, name), group in groups.items():
        plain_ids = all(u.id.partition("#")[0] == u.card.id for u in group)
        if plain_ids and len({u.card.id for u in group}) == 1:  # the ids' numbers tell them apart
            names.update((u.id, unit_name(u)) for u in group)
        else:  # a scenario's own ids, or two cards of one name: counted in order
            names.update((u.id, called(name, i + 1)) for i, u in enumerate(sorted(group, key=_order)))
    return names


def _order(unit: Unit) -> tuple[int, str, int]:
    """Copies of the card's own id first (by number), then other ids in order."""
    base = unit.id.partition("#")[0]
    return (0 if base == unit.card.id else 1, base, _copy(unit))


def battle_words(state: GameState) -> dict[str, str]:
    """Every id a sentence about this battle may say and its name for players: the units', the
    obstacles' (which are not units) and the cards' of both ("m1-garand-rifle" -> "M1 Garand Rifle")."""
    names = {unit.card.id: unit.card.name for unit in state.units.values()}
    if state.obstacles or state.obstacles_gone:
        names.update(obstacles.names(state))
    names.update(unit_names(state.units.values()))
    return names


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    """Whole ids (longest first: "x#2" before "x"), each with the word after it (for the verb)."""
    found = _PATTERNS.get(ids)
    if found is None:
        coined = "|".join(re.escape(i) for i in ids if not i.isalpha()) or "(?!)"
        # An id that is a plain word ("boat", "observer": a scenario's own) after an article is the
        # engine's common noun ("a boat afloat"): the engine never puts an article before an id.
        worded = "|".join(re.escape(i) for i in ids if i.isalpha()) or "(?!)"
        common = r"(?<!\ba )(?<!\ban )(?<!\bthe )"
        verbs = "|".join(re.escape(word) for word in sorted(VERBS, key=len, reverse=True))
        found = re.compile(
            rf"(?<![\w#-])(?:({coined})|{common}({worded}))(?![\w#-])( (?:{verbs})(?![\w'-]))?"
        )
        if len(_PATTERNS) > 64:
            _PATTERNS.clear()
        _PATTERNS[ids] = found
    return found


def plain(text: str, names: Mapping[str, str]) -> str:
    """`text` with every id of `names` replaced by its name, and a verb right after a plural name put
    in the plural ("Soviet Grenadiers have already acted"). Only whole ids count: a longer token that
    merely contains one ("pioneers-2", "mauser-kar-98k#3" when only the first copy is in the battle)
    is left as it is."""
    if not names:
        return text
    pattern = _pattern(tuple(sorted(names, key=len, reverse=True)))

    def named(match: re.Match[str]) -> str:
        name = names[match.group(1) or match.group(2)]
        after = match.group(3)
        return name + (" " + verb(name, after[1:]) if after else "")

    return pattern.sub(named, text)


def words(text: str, state: GameState) -> str:
    """An engine sentence about `state` (a refusal, a reason, a log line) as the window says it: every
    id of the battle by its name (`battle_words`)."""
    return plain(text, battle_words(state))


def the(name: str) -> str:
    """A name with its article: "the Panzer IV Ausf. G", "the second Mauser Kar 98k" (not "the the")."""
    return name if name.startswith("the ") else f"the {name}"


def of_side(side_title: str, name: str) -> str:
    """ "The Allies M4A1 Sherman", "The Axis' second Mauser Kar 98k": a unit with its army's name."""
    if name.startswith("the "):
        return f"The {side_title}' {name[4:]}"
    return f"The {side_title} {name}"


def sentence(text: str) -> str:
    """`text` with its first letter upper case ("the second Rangers ..." starting a message)."""
    return text[:1].upper() + text[1:]
