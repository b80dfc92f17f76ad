"""Game records and saves: a header, then every action with the dice it consumed.

    # minis game record
    format = 1
    scenario = "standard"
    configuration = "roll"            # or the agreed configuration number
    axis = ["panzer-iv-ausf-g", ...]  # card ids, as in army files
    allies = [...]
    seed = 1234                       # the seed every die came from (only once the game is over,
                                      # and not after a load)
    cards_version = "3f0c..."         # fingerprints of the cards and maps the game was played with
    maps_version = "a81e..."
    computer = ["allies"]             # against the computer: its sides (both when it played itself)
    strength = "normal"               # and how strongly it plays (easy, normal, hard)
    ---
    start | 4 2                       # the automatic start: the map roll and the coin flip
    first allies |
    end west |
    deploy m4a1-sherman A3 face E |
    attack m4a1-sherman pak-38-anti-tank-gun | 6 5 4 4 3 3 2 1 1 1 1 6

The header is TOML; each later line is an action in the action notation
(docs/contracts.md#action-notation), a `|`, and the dice it consumed, including those of the automatic
steps that followed it. Replaying applies the actions with exactly those dice, so a record rebuilds the
identical state. A save is the same file written in the middle of a game: resuming replays it and goes
on with fresh dice, never the ones the saved game would have rolled next (else a player could save, see
a roll, load and choose who gets it). Files are written atomically (temporary file, flush, fsync,
rename). Every mistake in a record is a MinisError naming the line (and the action), never a traceback.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from minis.army import Army
from minis.base.atomic import write_atomic
from minis.base.errors import EXIT_UNREADABLE, Hints, MinisError, Problem
from minis.base.limits import check_text
from minis.base.paths import UnreadablePath, read_bytes
from minis.base.sides import Side
from minis.base.tomlfile import decode, parse_toml, toml_string
from minis.cards import card_catalogue, dump_card
from minis.content import rule_sets
from minis.dice import Dice
from minis.engine.events import Event
from minis.engine.scenario import load_scenario
from minis.game import Game, RecordEntry
from minis.mapfile import MAPS_DIR
from minis.rules.errors import IllegalAction
from minis.state import BattleKind

#: The computer's strengths a save may name (`strength = ...`), weakest first: the computer opponent's
#: (`minis.ai.strength`) vocabulary, kept with the file format that stores it.
STRENGTHS = ("easy", "normal", "hard")

#: The newest record format, and every one this version reads. Format 2 names the units as
#: `minis.content.unit_ids` does (each army on its own); format 1 numbered them across both armies. A game is
#: written in format 1 when its ids are the same either way (`Game.new` puts the format in its header).
FORMAT = 2
FORMATS = (1, 2)
MAGIC = "# minis game record"
SEPARATOR = "---"
#: How a die is written after the bar (not `str.isdigit`: it takes '²' and numbers too long to convert).
_DIE_FACES = frozenset("123456")
HEADER_KEYS = (
    "format",
    "scenario",
    "attacker",
    "configuration",
    "axis",
    "allies",
    "axis_name",
    "allies_name",
    "seed",
    "cards_version",
    "maps_version",
    "turn_limit",
    "scenario_file",
    "computer",
    "strength",
    "rules",  # the rule set played under (left out: the 2005 rulebook's)
    "rule_options",  # an inline table of the options set over it (a custom set)
    "ended",  # a player ended the battle: "resigned" or "draw agreed" (a network battle's record)
    "winner",  # with "resigned": the side that won (the other resigned)
)
#: How a player may end a battle before the rules do (`ended`).
ENDINGS = ("resigned", "draw agreed")


@attrs.frozen
class Record:
    """A read record: its header and its entries, each with the line it came from."""

    file: str
    header: dict[str, Any]
    entries: tuple[tuple[int, RecordEntry], ...]
    #: Line and column of each header key, for problems found after parsing (unknown cards).
    spots: dict[str, tuple[int, int]] = attrs.field(factory=dict, eq=False)


# --- fingerprints --------------------------------------------------------------------------------------


def cards_version(card_ids: Iterable[str]) -> str:
    """A short fingerprint of the cards used (their canonical file text)."""
    catalogue = card_catalogue()
    digest = hashlib.sha256()
    for card_id in sorted(set(card_ids)):
        card = catalogue.get(card_id)
        digest.update(card_id.encode())
        digest.update(dump_card(card).encode() if card is not None else b"?")
    return digest.hexdigest()[:12]


def maps_version() -> str:
    """A short fingerprint of the shipped map files (sections and configurations)."""
    digest = hashlib.sha256()
    folder = Path(MAPS_DIR)
    for path in sorted(folder.rglob("*.toml")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


# --- writing -------------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return rule_sets.toml_value(value)
    raise TypeError(f"can't write {value!r} in a record header")


def _ids(value: object) -> list[str]:
    """A header's list of card ids (an army), or none."""
    return [str(item) for item in value] if isinstance(value, list) else []


def record_text(game: Game) -> str:
    """The record of a game so far (a save when the game is not over)."""
    header = dict(game.header)
    header.setdefault("format", FORMAT)
    if not game.over:  # the seed tells every die to come: a save must not let a player read them ahead
        header.pop("seed", None)
    if "axis" in header and "cards_version" not in header:
        ids = [*_ids(header.get("axis")), *_ids(header.get("allies"))]
        header["cards_version"] = cards_version(ids)
        header["maps_version"] = maps_version()
    lines = [MAGIC]
    for key in HEADER_KEYS:
        if key in header and header[key] is not None:
            lines.append(f"{key} = {_toml_value(header[key])}")
    lines.append(SEPARATOR)
    for entry in game.record:
        dice = " ".join(str(d) for d in entry.dice)
        action = entry.action if entry.action is not None else "start"
        lines.append(f"{action} | {dice}".rstrip())
    return "\n".join(lines) + "\n"


def save(game: Game, path: str | Path) -> None:
    """Write the game's record (its save) atomically."""
    if game.header.get("start") == "position":
        raise ValueError("only games started with Game.new can be recorded")
    write_atomic(path, record_text(game))


# --- reading -------------------------------------------------------------------------------------------


def parse_record(text: str, file: str = "record") -> Record:
    """Split and check a record's text; MinisError with every problem of the header and the lines."""
    check_text(text, file)  # the size and line limits of every file (the header gets the TOML ones)
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")  # as Windows editors save it
    lines = text.split("\n")
    problems: list[Problem] = []
    try:
        end = next(i for i, line in enumerate(lines) if line.strip() == SEPARATOR)
    except StopIteration:
        raise MinisError(
            Problem(file, 1, 1, f"not a game record: no '{SEPARATOR}' line after the header"),
            exit_code=EXIT_UNREADABLE,
        ) from None
    if not lines or lines[0].strip() != MAGIC:
        problems.append(Problem(file, 1, 1, f"not a game record: the first line must be '{MAGIC}'"))
    source = parse_toml("\n".join(lines[:end]), file)
    header = dict(source.data)
    for key in header:
        if key not in HEADER_KEYS:
            line, col = source.where((key,))
            problems.append(Problem(file, line, col, f"unknown header key '{key}'"))
    problems.extend(_check_header(header, source, file))
    entries: list[tuple[int, RecordEntry]] = []
    for number, text_line in enumerate(lines[end + 1 :], start=end + 2):
        stripped = text_line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "|" not in stripped:
            problems.append(Problem(file, number, 1, f"'{stripped}': expected 'ACTION | DICE'"))
            continue
        action = stripped.partition("|")[0].strip()
        dice: list[int] = []
        bar = text_line.index("|")
        for found in re.finditer(r"\S+", text_line[bar + 1 :]):
            word = found.group()
            if word in _DIE_FACES:
                dice.append(int(word))
            else:
                col = bar + 1 + found.start() + 1  # the bad word itself
                problems.append(Problem(file, number, col, f"'{word}' is not a die (1 to 6) in '{stripped}'"))
                break
        if not action:
            problems.append(Problem(file, number, 1, "an empty action"))
            continue
        entries.append((number, RecordEntry(None if action == "start" else action, tuple(dice))))
    if problems:
        raise MinisError(problems)
    spots = {key: source.where((key,)) for key in header}
    return Record(file, header, tuple(entries), spots)


def _check_header(header: dict[str, Any], source: Any, file: str) -> list[Problem]:
    problems: list[Problem] = []

    def bad(key: str, message: str, hint: str = "") -> None:
        line, col = source.where((key,))
        problems.append(Problem(file, line, col, message, hint))

    record_format = header.get("format")
    if record_format is None:
        bad("format", f"unknown record format: no 'format' line (this version reads formats 1 and {FORMAT})")
    elif isinstance(record_format, bool) or not isinstance(record_format, int):
        bad("format", f"unknown record format {record_format!r}: 'format' must be the number 1 or {FORMAT}")
    elif record_format not in FORMATS:
        bad("format", f"unknown record format {record_format!r} (this version reads formats 1 and {FORMAT})")
    for key in ("axis", "allies"):
        value = header.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            bad(key, f"'{key}' must be a list of card ids")
    if header.get("scenario", "standard") not in ("standard", "assault"):
        bad("scenario", '\'scenario\' must be "standard" or "assault"')
    attacker = header.get("attacker", "")
    if attacker not in ("", "axis", "allies"):
        bad("attacker", '\'attacker\' must be "axis", "allies" or ""')
    if header.get("scenario") == "assault" and attacker == "":
        bad("attacker", "an Assault record needs the attacker")
    configuration = header.get("configuration", "roll")
    if configuration != "roll" and (isinstance(configuration, bool) or configuration not in range(1, 7)):
        bad("configuration", "'configuration' must be \"roll\" or a number from 1 to 6")
    for key in ("seed", "turn_limit"):
        value = header.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            bad(key, f"'{key}' must be a whole number")
    for key in ("axis_name", "allies_name", "cards_version", "maps_version", "scenario_file"):
        if key in header and not isinstance(header[key], str):
            bad(key, f"'{key}' must be a string")
    computer = header.get("computer", [])
    sides = [side.value for side in Side]
    if (
        not isinstance(computer, list)
        or not all(isinstance(v, str) and v in sides for v in computer)
        or len(set(computer)) != len(computer)
    ):
        bad("computer", '\'computer\' must list the sides the computer plays: ["axis"], ["allies"] or both')
    if "strength" in header and header["strength"] not in STRENGTHS:
        bad("strength", f"'strength' must be one of {', '.join(repr(s) for s in STRENGTHS)}")
    ended, winner = header.get("ended"), header.get("winner")
    if ended is not None and ended not in ENDINGS:
        bad("ended", '\'ended\' must be "resigned" or "draw agreed"')
    if winner is not None and (ended != "resigned" or winner not in sides):
        bad("winner", '\'winner\' is "axis" or "allies", and only with ended = "resigned"')
    if ended == "resigned" and winner is None:
        bad("ended", 'a resigned battle names its winner: winner = "axis" or "allies"')
    if "rules" in header or "rule_options" in header:
        try:
            rule_sets.from_values(header.get("rules", rule_sets.DEFAULT), header.get("rule_options"))
        except ValueError as error:
            name = rule_sets.name_problem(header.get("rules", rule_sets.DEFAULT))
            if name is not None:
                bad("rules", *name)
            else:
                bad("rule_options" if "rule_options" in header else "rules", str(error))
    return problems


def new_game(record: Record, dice: Dice) -> Game:
    """The game a record starts from, before any entry is applied."""
    header = record.header
    catalogue = card_catalogue()
    problems = []
    hints = Hints()  # the first few unknown ids get a did-you-mean (a save may hold thousands)
    for key in ("axis", "allies"):
        for card_id in header[key]:
            if card_id not in catalogue:
                line, col = record.spots.get(key, (1, 1))
                hint = hints(card_id, catalogue)
                problems.append(Problem(record.file, line, col, f"unknown card '{card_id}' in '{key}'", hint))
    if problems:
        raise MinisError(problems)
    armies = {
        side: Army(header.get(f"{side.value}_name", side.title), side, units=tuple(header[side.value]))
        for side in Side
    }
    configuration = header.get("configuration", "roll")
    attacker = Side(header["attacker"]) if header.get("attacker") else None
    try:
        terms = None
        if isinstance(header.get("scenario_file"), str):  # a scenario file's game: its terms again
            try:
                scenario = load_scenario(header["scenario_file"])
            except UnreadablePath as error:  # reported at the header line that names the file
                spot, name = record.spots.get("scenario_file", (1, 1)), header["scenario_file"]
                raise error.named_in(record.file, spot, "the scenario file", name) from None
            terms = scenario.terms(attacker, catalogue)
        rules = None
        if "rules" in header or "rule_options" in header:  # the rule set it was played under
            rules = rule_sets.from_values(header.get("rules", rule_sets.DEFAULT), header.get("rule_options"))
        return Game.new(
            armies[Side.AXIS],
            armies[Side.ALLIES],
            scenario=BattleKind(header.get("scenario", "standard")),
            attacker=attacker,
            configuration=None if configuration == "roll" else int(configuration),
            dice=dice,
            cards=catalogue,
            turn_limit=header.get("turn_limit"),
            terms=terms,
            rules=rules,
            unit_ids=header["format"],  # format 1's games number their units the old way
        )
    except ValueError as error:
        raise MinisError(Problem(record.file, 1, 1, str(error))) from None


def replay_record(
    record: Record, resume: bool = False, events: list[Event] | None = None, dice: Dice | None = None
) -> Game:
    """Replay every entry with its dice; with `resume`, the game then goes on with `dice`.

    `dice` defaults to a fresh system-random source: a loaded game never repeats the rolls the saved
    one would have made. Tests and tools that need a known continuation pass their own.
    `events`, if given, receives every event of the replayed game. A record that fails and was played
    with other card or map files says so in its hint: that, not a broken file, is the likely cause.
    """
    try:
        return _replay(record, resume, events, dice)
    except MinisError as error:
        hint = changed_files(record.header)
        if not hint:
            raise
        problems = [attrs.evolve(p, hint=p.hint or hint) for p in error.problems]
        raise MinisError(problems, exit_code=error.exit_code) from None


def changed_files(header: dict[str, Any]) -> str:
    """Which of the card and map files differ from those the record was played with ('' if none)."""
    changed = []
    units = [u for key in ("axis", "allies") if isinstance(header.get(key), list) for u in header[key]]
    if header.get("cards_version") not in (None, cards_version(units)):
        changed.append("card")
    if header.get("maps_version") not in (None, maps_version()):
        changed.append("map")
    if not changed:
        return ""
    return f"this game was played with other {' and '.join(changed)} files than these"


def _replay(record: Record, resume: bool, events: list[Event] | None, dice: Dice | None) -> Game:
    log: list[Event] = events if events is not None else []
    game = new_game(record, Dice.scripted())
    game.header.update(record.header)
    for line, entry in record.entries:
        where = f"'{entry.action or 'start'}'"
        if entry.action is None:
            if not game.waiting_for_dice():
                raise MinisError(
                    Problem(record.file, line, 1, "'start' here: the game is not waiting for dice")
                )
            log.extend(game.push_dice(entry.dice))
        else:
            if game.waiting_for_dice():
                raise MinisError(
                    Problem(record.file, line, 1, f"{where}: the game still needs dice for the line before")
                )
            game.dice.push(entry.dice)
            try:
                log.extend(game.apply(entry.action))
            except IllegalAction as error:
                raise MinisError(
                    Problem(record.file, line, 1, f"{where} is not legal here: {error.reason}")
                ) from None
        if game.dice.remaining():
            raise MinisError(
                Problem(
                    record.file,
                    line,
                    1,
                    f"{where}: the record gives more dice than the game used "
                    f"({game.dice.remaining()} left over)",
                )
            )
        if game.waiting_for_dice():
            raise MinisError(
                Problem(record.file, line, 1, f"{where}: the game needs more dice than the record gives")
            )
    if not record.entries and game.waiting_for_dice() and not resume:
        raise MinisError(Problem(record.file, 0, 0, "the record has no start line with the set-up dice"))
    if resume:
        _resume(game, dice if dice is not None else Dice(), log)
    return game


def _resume(game: Game, dice: Dice, log: list[Event]) -> None:
    """Let a replayed save go on with `dice`, including an action that was waiting for its dice.

    The record keeps every die as rolled, so what is played from here still replays exactly; the
    header's seed no longer made every die, so it is dropped.
    """
    pending = game._pending
    game.dice = dice
    game.header.pop("seed", None)
    if pending is not None:
        game._pending = None
        game.state = pending.before
        log.extend(game._run(pending.action))


def read_record(path: str | Path) -> Record:
    file = str(path)
    return parse_record(decode(read_bytes(path), file), file)  # not UTF-8: exit 2 at the first bad byte


def load(path: str | Path, resume: bool = True, dice: Dice | None = None) -> Game:
    """Read a save (or record) and resume the game where it stopped, with fresh dice unless given."""
    return replay_record(read_record(path), resume=resume, dice=dice)
