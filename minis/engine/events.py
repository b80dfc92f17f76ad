"""What `Game.apply` reports: the things that happened, in order, for the log and the front end.

Events are plain data; `describe` turns one into a line of text with the board's hex labels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple, assert_never, get_args

from minis.base.grammar import plural, verb
from minis.base.sides import Side
from minis.content.ability_catalogue import ability_name
from minis.hexgrid import Hex

EventKind = Literal[
    "configuration",  # value: the configuration number (dice: the roll, if rolled)
    "coin",  # side: the winner; dice: the die
    "first",  # side: the first player
    "end",  # side, note: west/east
    "deploy",  # unit, hexes: (hex,)
    "turn",  # value: the turn number
    "initiative",  # side: the winner (None for a tie that is rerolled); dice: Axis two, Allies two
    "phase",  # side: the active player; note: movement/assault/casualty
    "move",  # unit, hexes: (from, to)
    "face",  # unit, note: facing
    "roll",  # unit, dice: (die,), note: what for ("stream", "forest"), value: 1 success / 0 failure
    "stop",  # unit, hexes: (where it stopped,), note: why
    "retrace",  # unit, hexes: (where it is put back,)
    "attack",  # unit, target, dice, value: successes, note: "defensive" for defensive fire, need, defense
    "hits",  # unit: the target, value: hits scored
    "cover",  # unit: the target, dice: (die,) or (), value: 1 success / 0 failure, note: "automatic", need
    "counter",  # unit, note: disrupted/damaged/destroyed, value: 1 face up / 0 face down
    "flip",  # unit, note: the counters turned face up
    "recover",  # unit: a unit whose face-up Disrupted counter is removed
    "removed",  # unit: destroyed and taken off the map
    "board",  # unit, target: the transport
    "dismount",  # unit, hexes: (hex,)
    "hold",  # side: the player who holds fire
    "pass",  # side
    "winner",  # side (None for a draw), note: why
    "ability",  # unit, target, hexes, dice, note: the ability id (an ability's own effect)
    "spot",  # unit: the friendly unit whose sight an indirect-fire attack uses, target: the target
    "exit",  # unit, hexes: (the edge hex it left from,): got off the enemy's side (scenario files)
    "arrive",  # unit, hexes: (hex,): a Hero or Paratrooper waiting off the map enters the battle
    "stranded",  # unit: it could deploy nowhere in its zone (a boat, no water; note "crowded": no room left)
    # unit, target: the obstacle, hexes; note "mine" (dice, value 1: disrupted) or "removed"
    "obstacle",
    "place",  # unit, hexes: (hex,): an aircraft flies over a hex (the flight phase)
    "land",  # unit: an aircraft leaves the map at the end of the turn
]
"""What an event is about; mypy checks every `event.kind == "..."` against it (strict equality), so a
misspelt kind is an error, not a comparison that is never true. What each kind fills is noted above."""

#: Every kind, in the order above (one list: the Literal's own).
KINDS: tuple[EventKind, ...] = get_args(EventKind)


class Event(NamedTuple):
    """One thing that happened. `kind` is one of KINDS; the other fields are filled as it needs.

    A named tuple: events are made by the hundred in every game, and a tuple is the cheapest immutable
    record to build."""

    kind: EventKind
    side: Side | None = None
    unit: str | None = None
    target: str | None = None
    hexes: tuple[Hex, ...] = ()
    dice: tuple[int, ...] = ()
    value: int | None = None
    note: str = ""
    #: An attack's or a cover roll's number: a die (after modifiers) at or above it succeeds.
    need: int | None = None
    #: An attack's defense (after modifiers), for the dice row's "successes against defense".
    defense: int | None = None


def initiative_outcome(event: Event) -> str:
    """Who won an initiative roll and how (rulebook: the higher total wins; on a tie the better
    initiative bonus; with equal bonuses the tie is rolled again): "the Axis win", "a tie at 7: the
    Allies win it with the better initiative bonus (+2 to +0)", "a tie at 7 and equal initiative bonuses:
    both roll again"."""
    side = f"the {event.side.title}" if event.side else ""
    axis, _, allies = event.note.partition(" to ")
    if len(event.dice) != 4 or not (axis.isdigit() and allies.isdigit()) or axis != allies:
        return f"{side} win" if side else "a tie: both roll again"
    d = event.dice
    bonuses = int(axis) - d[0] - d[1], int(allies) - d[2] - d[3]
    if not side:
        return f"a tie at {axis} and equal initiative bonuses: both roll again"
    better = f"+{max(bonuses)} to +{min(bonuses)}"
    return f"a tie at {axis}: {side} win it with the better initiative bonus ({better})"


def describe(event: Event, label: Callable[[Hex], str], name: Callable[[str], str] | None = None) -> str:
    """One line of plain text for the game log: hexes by `label`, units by `name` (a player reads card
    names, "Mauser Kar 98k 2"; without `name`, the unit ids of the records)."""
    if name is not None:
        event = event._replace(
            unit=name(event.unit) if event.unit else event.unit,
            target=name(event.target) if event.target else event.target,
        )
    hexes = " ".join(label(h) for h in event.hexes)
    unit = event.unit or ""

    def does(singular: str) -> str:
        """The verb as the unit's name needs it ("Soviet Grenadiers move", "a Panzer moves")."""
        return verb(unit, singular)

    dice = " ".join(str(d) for d in event.dice)
    side = f"the {event.side.title}" if event.side else ""
    match event.kind:
        case "configuration":
            return f"battle map: configuration {event.value}" + (f" (rolled {dice})" if dice else "")
        case "coin":
            return f"coin flip ({dice}): {side} win"
        case "first":
            return f"{side} are the first player"
        case "end":
            return f"{side} take the {event.note} end"
        case "deploy" if len(event.hexes) == 2:  # an obstacle on a hexside
            return f"{event.unit} {does('is')} laid between {hexes.replace(' ', ' and ')}"
        case "deploy" if event.note == "obstacle":
            return f"{event.unit} {does('is')} placed in {hexes}"
        case "deploy":
            return f"{event.unit} {does('deploys')} in {hexes}"
        case "turn":
            return f"turn {event.value}"
        case "initiative":
            totals = f", {event.note}" if event.note else ""
            return f"initiative ({dice}{totals}): {initiative_outcome(event)}"
        case "phase":
            return f"{event.side.title} {event.note} phase" if event.side else f"{event.note} phase"
        case "move":
            return f"{event.unit} {does('moves')} {hexes.replace(' ', ' -> ')}"
        case "face":
            return f"{event.unit} {does('faces')} {event.note}"
        case "roll":
            return f"{event.unit} movement roll for {event.note}: {dice} " + (
                "succeeds" if event.value else "fails"
            )
        case "stop":
            return f"{event.unit} {does('stops')} in {hexes}" + (f" ({event.note})" if event.note else "")
        case "retrace":
            return f"{event.unit} {does('retraces')} to {hexes}"
        case "spot":
            return f"{event.unit} {does('sees')} {event.target} and {does('guides')} the indirect fire"
        case "attack":
            kind = f"{does('fires')} defensively at" if event.note == "defensive" else does("attacks")
            return f"{event.unit} {kind} {event.target}: {dice} -> {event.value} successes"
        case "hits":
            return f"{event.unit} {does('takes')} {event.value} hit{'s' if event.value != 1 else ''}"
        case "cover":
            how = "automatic" if event.note == "automatic" else dice
            return f"{event.unit} cover roll ({how}) " + ("succeeds" if event.value else "fails")
        case "counter":
            face = "face-up" if event.value else "face-down"
            return f"{event.unit} {does('gets')} a {face} {event.note} counter"
        case "flip":
            return f"{event.unit} {does('turns')} up {event.note}"
        case "recover":
            return f"{event.unit} {does('is')} no longer disrupted"
        case "removed":
            return f"{event.unit} {does('is')} destroyed"
        case "board":
            return f"{event.unit} {does('boards')} {event.target}"
        case "dismount":
            return f"{event.unit} {does('dismounts')} into {hexes}"
        case "hold":
            return f"{side} hold fire"
        case "pass":
            return f"{side} pass"
        case "ability":
            target = f" on {event.target}" if event.target else ""
            rolled = f" ({dice})" if dice else ""
            return f"{event.unit} {does('uses')} {ability_name(event.note)}{target}{rolled}"
        case "exit":
            return f"{event.unit} {does('gets')} off the map from {hexes}"
        case "arrive":
            return f"{event.unit} {does('arrives')} in {hexes}"
        case "place":
            return f"{event.unit} {does('flies')} over {hexes}"
        case "land":
            return f"{event.unit} {does('leaves')} the map"
        case "stranded":
            its, it = ("their", "they") if plural(unit) else ("its", "it")
            where = f"no hex of {its} deployment zone {it} may be in"
            if event.note == "crowded":
                where = f"no room left in {its} deployment zone"
            return f"{event.unit} {does('stays')} out of the battle: {where}"
        case "obstacle" if event.note == "mine":
            result = "disrupted" if event.value else "no harm"
            return f"{event.unit} {does('sets')} off {event.target} in {hexes} ({dice}): {result}"
        case "obstacle":
            by = f" by {event.unit}" if event.unit else ""
            is_ = verb(event.target or "", "is")
            return f"{event.target} in {hexes.replace(' ', '/')} {is_} destroyed{by}"
        case "winner":
            return (f"{side} win" if event.side else "the game is drawn") + (
                f" ({event.note})" if event.note else ""
            )
    # Every kind has its case: a kind left out (or a case misspelt) is a mypy error here.
    assert_never(event.kind)
