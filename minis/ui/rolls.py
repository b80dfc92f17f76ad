"""The dice of an action as a player checks them: each roll's dice, which of them succeeded and why.

The engine's events carry every die and, for an attack and a cover roll, the number a die needs and the
defense (`Event.need`, `Event.defense`); this module turns them into `Roll`s for the dice row, in plain
words and without a window (the battle controller hands them to the screen, tests read them directly).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from minis.base.grammar import verb
from minis.base.sides import Side
from minis.content.ability_catalogue import ability_name
from minis.engine.events import Event, EventKind, initiative_outcome
from minis.rules.combat import hits_for

#: The events whose dice the dice row shows.
ROLLED: tuple[EventKind, ...] = ("attack", "cover", "roll", "initiative", "coin", "configuration", "ability")


@attrs.frozen
class Roll:
    """One roll: what it was for, its dice, whether each die succeeded (None: no number to reach),
    and what came of it, as a player reads it."""

    kind: EventKind  # one of ROLLED
    caption: str  # "Panzer IV Ausf. G attacks M4A1 Sherman: 15 dice, 4+ succeeds"
    dice: tuple[int, ...]
    success: tuple[bool | None, ...]  # one per die
    result: str  # "3 successes against defense 5: no hits"
    side: Side | None = None  # the roller's side (an initiative roll: each die's side is by position)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 'es' if word.endswith('s') else 's'}"


def _hits(count: int) -> str:
    return "no hits" if count == 0 else _plural(count, "hit")


def rolls(events: Sequence[Event], name: Callable[[str], str]) -> list[Roll]:
    """The rolls of `events` in order, units by `name` (their card names)."""
    found: list[Roll] = []
    for i, event in enumerate(events):
        if event.kind not in ROLLED or (not event.dice and event.kind != "cover"):
            continue
        unit = name(event.unit) if event.unit else ""
        target = name(event.target) if event.target else ""
        match event.kind:
            case "attack":
                found.append(_attack(event, events[i + 1 : i + 2], unit, target))
            case "cover":
                found.append(_cover(event, unit))
            case "roll":
                outcome = "succeeds" if event.value else "fails"
                caption = f"{unit}: movement roll for {event.note}"
                found.append(Roll("roll", caption, event.dice, (bool(event.value),), outcome, event.side))
            case "initiative":
                d = event.dice
                caption = "Initiative: Axis (first two), Allies (last two)"
                result = f"Axis {d[0]} + {d[1]}, Allies {d[2]} + {d[3]}: {initiative_outcome(event)}"
                found.append(Roll("initiative", caption, d, (None,) * len(d), result))
            case "coin":
                result = f"the {event.side.title} win" if event.side else ""
                found.append(Roll("coin", "Coin flip (1-3 Axis, 4-6 Allies)", event.dice, (None,), result))
            case "configuration":
                result = f"configuration {event.value}"
                found.append(Roll("configuration", "Battle map", event.dice, (None,), result))
            case _:
                on = f" on {target}" if target else ""
                caption = f"{unit} {verb(unit, 'uses')} {ability_name(event.note)}{on}"
                found.append(Roll("ability", caption, event.dice, (None,) * len(event.dice), "", event.side))
    return found


def _attack(event: Event, after: Sequence[Event], unit: str, target: str) -> Roll:
    """An attack: each die against the number needed; the successes against the defense, and the hits
    (from the "hits" event that follows; an ability's own attack, a headshot, has none)."""
    if event.note == "defensive":
        does = f"{verb(unit, 'fires')} defensively at"
    elif event.note:
        does = f"{verb(unit, 'uses')} {ability_name(event.note)} on"
    else:
        does = verb(unit, "attacks")
    need = event.need
    caption = f"{unit} {does} {target}: {len(event.dice)} dice" + (f", {need}+ succeeds" if need else "")
    success = tuple(None if need is None else die >= need for die in event.dice)
    successes = event.value or 0
    result = _plural(successes, "success")
    if event.defense is not None:
        result += f" against defense {event.defense}"
    if after and after[0].kind == "hits":
        result += f": {_hits(after[0].value or 0)}"
        result += _changes(event, after[0])
    return Roll("attack", caption, event.dice, success, result, event.side)


def _changes(event: Event, hits: Event) -> str:
    """What the abilities named in the "hits" event's note ("ID:what" words) did to what the dice
    scored, in words: " (no hits by the table; Sirens makes it 1 hit)"; "" when none did."""
    by: dict[str, list[str]] = {}
    for item in hits.note.split():
        ability, _, what = item.partition(":")
        by.setdefault(what, []).append(ability_name(ability))
    if not by:
        return ""
    parts = []
    successes = event.value or 0
    if "successes" in by and event.need is not None:
        raw = sum(1 for die in event.dice if die >= event.need)
        names = " and ".join(by["successes"])
        parts.append(
            f"{_plural(raw, 'die')} succeed; {names} make{'s' if len(by['successes']) == 1 else ''} it "
            f"{_plural(successes, 'success')}"
        )
    if "hits" in by and event.defense is not None:
        table = hits_for(successes, event.defense)
        names = " and ".join(by["hits"])
        parts.append(
            f"{_hits(table)} by the table; {names} make{'s' if len(by['hits']) == 1 else ''} it "
            f"{_hits(hits.value or 0)}"
        )
    if "destroys" in by:
        parts.append(f"{' and '.join(by['destroys'])}: destroyed at once")
    return f" ({'; '.join(parts)})" if parts else ""


def _cover(event: Event, unit: str) -> Roll:
    """A cover roll: its die against the number needed, or automatic (no die)."""
    outcome = "succeeds" if event.value else "fails"
    if not event.dice:
        return Roll("cover", f"{unit}: cover roll (automatic)", (), (), outcome, event.side)
    need = f", {event.need}+ succeeds" if event.need is not None else ""
    return Roll("cover", f"{unit}: cover roll{need}", event.dice, (bool(event.value),), outcome, event.side)
