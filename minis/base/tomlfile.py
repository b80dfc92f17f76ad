"""Reading our TOML data files so that every mistake can be reported with its line and column.

`tomllib` gives positions only for syntax errors, so the text is scanned once more (`TomlLayout`) for
where each key, table header, value and string sits. Cards, armies, rules tests, game records and map
files all locate their problems through it. Structuring goes through a strict cattrs converter: no silent
conversions (`"5"` is not 5, `true` is not 1), unknown keys refused with a did-you-mean hint, and every
problem of the file collected instead of the first only.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
import tomllib
import typing
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn

from minis.base.errors import Hints, Problem, unreadable
from minis.base.limits import MAX_KEY_PARTS, MAX_LINE_CHARS, check_bytes, check_toml, deepest_spot
from minis.base.paths import read_bytes

#: A key path into a TOML document: table keys and array indexes, e.g. ("abilities", 2, "ability").
KeyPath = tuple[str | int, ...]
#: A line and column in a file, both from 1.
Spot = tuple[int, int]

_T = typing.TypeVar("_T")

_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_KEY = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_KEY_LINE = re.compile(rf"^\s*(?P<key>{_KEY})\s*=\s*(?P<value>.*)$")
_HEADER_LINE = re.compile(rf"^\s*(\[\[|\[)\s*({_KEY})\s*(\]\]|\])\s*(#.*)?$")
_SPLIT_KEY = re.compile(_KEY_PART)
_DECODE_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


# --- where things are in the text ---------------------------------------------------------------


@attrs.frozen
class TomlLayout:
    """Where each key, table header, value and string sits in TOML text (offsets into `text`).

    It follows the layouts people write by hand: `key = value` lines (dotted keys too), `[table]` and
    `[[array]]` headers, arrays and strings over several lines. What it cannot find is simply absent.
    """

    text: str
    starts: tuple[int, ...]  # the offset of each line
    keys: Mapping[KeyPath, int]  # the first character of each key (every prefix of a dotted key) and header
    values: Mapping[KeyPath, int]  # the first character of each key's value
    _strings: dict[KeyPath, tuple[int, ...]] = attrs.field(factory=dict, init=False, repr=False, eq=False)

    @classmethod
    def scan(cls, text: str) -> TomlLayout:
        keys: dict[KeyPath, int] = {}
        values: dict[KeyPath, int] = {}
        array_counts: dict[KeyPath, int] = {}
        table: KeyPath = ()
        state = _ScanState()
        lines = text.split("\n")  # TOML lines end at \n only
        starts = tuple(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        for start, line in zip(starts, lines, strict=True):
            if len(line) > MAX_LINE_CHARS:
                continue  # such a file is refused (minis.base.limits): its layout need not be known
            if state.depth or state.open_string:
                _advance(line, state)
                continue
            header = _HEADER_LINE.match(line)
            if header:
                name = _within_arrays(tuple(_split_key(header.group(2))), array_counts)
                offset = start + header.start(1)
                if header.group(1) == "[[":
                    index = array_counts.get(name, 0)
                    array_counts[name] = index + 1
                    keys.setdefault(name, offset)
                    table = (*name, index)
                else:
                    table = name
                keys.setdefault(table, offset)
                continue
            key_line = _KEY_LINE.match(line)
            if key_line:
                parts = _split_key(key_line.group("key"))
                for end in range(1, min(len(parts), MAX_KEY_PARTS) + 1):  # bounded: no key is longer
                    keys.setdefault((*table, *parts[:end]), start + key_line.start("key"))
                values.setdefault((*table, *parts), start + key_line.start("value"))
                _advance(key_line.group("value"), state)
        return cls(text, starts, keys, values)

    def spot(self, offset: int) -> Spot:
        """The line and column of an offset into the text."""
        line = bisect.bisect_right(self.starts, offset)
        return (line, offset - self.starts[line - 1] + 1)

    def key(self, path: KeyPath) -> Spot | None:
        """Where the key (or table header) at `path` is written, if it is."""
        found = self.keys.get(path)
        return None if found is None else self.spot(found)

    def value(self, path: KeyPath) -> Spot | None:
        """Where the value of the key at `path` starts, if the key is written as `key = value`."""
        found = self.values.get(path)
        return None if found is None else self.spot(found)

    def strings(self, path: KeyPath) -> tuple[int, ...]:
        """Offsets of the contents of the string(s) in a key's value, in order (top-level array items)."""
        if path not in self._strings:
            found = self.values.get(path)
            self._strings[path] = () if found is None else _string_offsets(self.text, found)
        return self._strings[path]


@attrs.frozen
class TomlSource:
    """A parsed TOML file with the layout of its text, for precise problem reports."""

    file: str
    text: str
    data: dict[str, Any]
    layout: TomlLayout
    #: The file's did-you-mean hints, capped (`minis.base.errors.Hints`): ask them through `source.hints`.
    hints: Hints = attrs.field(factory=Hints, eq=False, repr=False)

    @property
    def positions(self) -> dict[KeyPath, Spot]:
        """The line and column of every key and table header."""
        return {path: self.layout.spot(offset) for path, offset in self.layout.keys.items()}

    def where(self, path: KeyPath) -> Spot:
        """Line and column of the key at `path`, or of its nearest enclosing key or table (root: 1, 1)."""
        for end in range(len(path), 0, -1):
            found = self.layout.key(tuple(path[:end]))
            if found:
                return found
        return (1, 1)

    def problem(self, path: KeyPath, message: str, hint: str = "") -> Problem:
        line, col = self.where(path)
        return Problem(self.file, line, col, message, hint)


def key_positions(text: str) -> dict[KeyPath, Spot]:
    """The line and column (from 1) of every key and table header in TOML text."""
    layout = TomlLayout.scan(text)
    return {path: layout.spot(offset) for path, offset in layout.keys.items()}


def key_on_line(line: str) -> tuple[str, int] | None:
    """The key a `key = value` line sets (dotted as written, without quotes) and its column."""
    match = _KEY_LINE.match(line)
    if not match:
        return None
    return ".".join(_split_key(match.group("key"))), match.start("key") + 1


def _within_arrays(name: KeyPath, array_counts: Mapping[KeyPath, int]) -> KeyPath:
    """`[[steps.checks]]` belongs to the latest `[[steps]]`: the index of each enclosing array goes in."""
    path: KeyPath = ()
    for part in name[:-1]:
        path = (*path, part)
        if path in array_counts:
            path = (*path, array_counts[path] - 1)
    return (*path, *name[-1:])


def _split_key(key: str) -> list[str]:
    parts = []
    for match in _SPLIT_KEY.finditer(key):
        part = match.group(0)
        if part[0] in "\"'":
            part = part[1:-1]
        parts.append(part)
    return parts


@attrs.define
class _ScanState:
    depth: int = 0
    open_string: str | None = None  # the closing quotes of a multi-line string being read


def _advance(text: str, state: _ScanState) -> None:
    """Follow brackets and strings through one line of value text, so continuation lines are skipped."""
    i = 0
    while i < len(text):
        if state.open_string:
            end = text.find(state.open_string, i)
            if end < 0:
                return
            i = end + 3
            state.open_string = None
            continue
        char = text[i]
        if text.startswith('"""', i) or text.startswith("'''", i):
            state.open_string = text[i : i + 3]
            i += 3
            continue
        if char == "#":
            return
        if char in "\"'":
            i += 1
            while i < len(text) and text[i] != char:
                i += 2 if (char == '"' and text[i] == "\\") else 1
        elif char in "[{":
            state.depth += 1
        elif char in "]}":
            state.depth = max(0, state.depth - 1)
        i += 1


def _string_offsets(text: str, i: int) -> tuple[int, ...]:
    """Offsets of the contents of the string value starting at `i`, or of the strings of an array there."""
    depth, result = 0, []
    while i < len(text):
        char = text[i]
        if char == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif char == "[":
            depth += 1
            i += 1
        elif char == "]":
            depth -= 1
            i += 1
            if depth <= 0:
                break
        elif char in "\"'":
            triple = text.startswith(char * 3, i)
            quote = char * 3 if triple else char
            content = i + len(quote)
            if triple and text.startswith("\r\n", content):
                content += 2
            elif triple and text.startswith("\n", content):
                content += 1
            if depth <= 1:
                result.append(content)
            j = i + len(quote)
            while j < len(text) and not text.startswith(quote, j):
                if not triple and text[j] == "\n":
                    break
                j += 2 if char == '"' and text[j] == "\\" else 1
            i = j + len(quote)
            if depth == 0:
                break
        elif char in " \t\r\n,":
            i += 1
        else:
            if depth == 0:
                break
            i += 1
    return tuple(result)


# --- reading ------------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string for any text (JSON's escapes are valid TOML; DEL must be escaped too)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def is_one_line(text: str) -> bool:
    """Text fit for one line of a table or message: not blank, no line breaks or control characters."""
    return bool(text.strip()) and not any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in text)


def leading_comments(text: str) -> tuple[str, ...]:
    """The comment lines at the top of a file, kept so that writing the file back keeps them."""
    notes = []
    for line in text.split("\n"):
        stripped = line.rstrip("\r").rstrip()
        if stripped.startswith("#") or not stripped:
            notes.append(stripped)
            continue
        break
    while notes and not notes[-1]:
        notes.pop()
    while notes and not notes[0]:
        notes.pop(0)
    return tuple(notes)


def decode(data: bytes, file: str, message: str = "not UTF-8 text", hint: str = "") -> str:
    """UTF-8 bytes as text; anything else raises an exit-2 MinisError at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        before = data[data.rfind(b"\n", 0, error.start) + 1 : error.start].decode("utf-8")
        col = len(before.removeprefix("\ufeff") if line == 1 else before) + 1  # characters, as elsewhere
        raise unreadable(file, message, line, col, hint) from None


def syntax_position(message: str) -> tuple[str, int, int]:
    """A tomllib error message without its '(at line L, column C)' ending, then L and C (0, 0 if none)."""
    match = _DECODE_POSITION.search(message)
    if not match:
        return message, 0, 0
    return message[: match.start()], int(match.group(1)), int(match.group(2))


def read_toml(path: str | Path) -> TomlSource:
    """Read and parse a TOML file; a missing, unreadable or malformed file raises an exit-2 MinisError."""
    return parse_toml(read_bytes(path), str(path))


def parse_toml(data: bytes | str, file: str) -> TomlSource:
    """Parse TOML text (bytes must be UTF-8); syntax errors raise an exit-2 MinisError with the position.

    The text is checked against `minis.base.limits` first, so that no file can make the parser hang.
    """
    if isinstance(data, bytes):
        check_bytes(data, file)  # before decoding a file that may be huge
    text = decode(data, file) if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    check_toml(text, file)
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message, line, col = syntax_position(str(error))
        if line:
            col = max(1, col)
        elif message.endswith("(at end of document)"):
            line, col = text.count("\n") + 1, len(text) - text.rfind("\n")
            message = message.removesuffix("(at end of document)").rstrip()
        raise unreadable(file, f"TOML syntax: {message}", line, col) from None
    except RecursionError:  # only if the call stack was already deep: the limits keep nesting shallow
        raise unreadable(file, "TOML syntax: values nested too deeply", *deepest_spot(text)) from None
    return TomlSource(file, text, parsed, TomlLayout.scan(text))


# --- strict structuring -------------------------------------------------------------------------


class WrongType(TypeError):
    """A value of the wrong TOML type; `expected` reads like 'an integer'."""

    def __init__(self, expected: str, value: object) -> None:
        self.expected = expected
        self.value = value
        super().__init__(f"expected {expected}, not {describe(value)}")


def describe(value: object) -> str:
    """How a TOML value is named in messages: by its kind, with a short quote."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _strict(kind: type, expected: str) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _type: Any) -> Any:
        if type(value) is not kind:
            raise WrongType(expected, value)
        return value

    return hook


def _list_hook_factory(list_type: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    (element_type,) = typing.get_args(list_type) or (Any,)

    def hook(value: Any, _type: Any) -> list[Any]:
        if not isinstance(value, list):
            raise WrongType("a list", value)
        result, errors = [], []
        for index, element in enumerate(value):
            try:
                result.append(converter.structure(element, element_type))
            except Exception as error:
                error.__notes__ = [
                    *getattr(error, "__notes__", []),
                    IterableValidationNote(f"Structuring @ index {index}", index, element_type),
                ]
                errors.append(error)
        if errors:
            raise IterableValidationError(f"While structuring {list_type}", errors, list_type)
        return result

    return hook


def _attrs_hook_factory(cls: type[_T], converter: cattrs.Converter) -> Callable[[object, object], _T]:
    structure = make_dict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )

    def hook(value: object, _type: object) -> _T:
        if not isinstance(value, dict):
            raise WrongType("a table", value)
        return structure(value, cls)

    return hook


def _is_list(t: object) -> bool:
    """Whether cattrs is asked for a list (bare `list` or `list[X]`), which gets the strict list hook."""
    return t is list or typing.get_origin(t) is list


def strict_converter() -> cattrs.Converter:
    """A cattrs converter that refuses unknown keys and any conversion between TOML types."""
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    converter.register_structure_hook(int, _strict(int, "an integer"))
    converter.register_structure_hook(str, _strict(str, "a string"))
    converter.register_structure_hook(bool, _strict(bool, "true or false"))
    converter.register_structure_hook_factory(_is_list, lambda t: _list_hook_factory(t, converter))
    converter.register_structure_hook_factory(attrs.has, lambda t: _attrs_hook_factory(t, converter))
    return converter


def structure(
    source: TomlSource, cls: type, converter: cattrs.Converter, value: Any = None, path: KeyPath = ()
) -> tuple[Any, list[Problem]]:
    """Structure `value` (default: the whole document) into `cls`: (result or None, all problems)."""
    value = source.data if value is None else value
    try:
        return converter.structure(value, cls), []
    except (ClassValidationError, IterableValidationError, WrongType) as error:
        problems: list[Problem] = []
        _collect(source, error, path, cls, problems)
        return None, problems


def subject(path: KeyPath) -> str:
    """How messages name the value at `path`.

    'cost', 'vs_soldiers.long', entry 2 of 'units', 'ability' in abilities entry 2.
    """
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        return f"entry {last + 1} of {subject(path[:-1])}"
    last_index = max((i for i, part in enumerate(path) if isinstance(part, int)), default=-1)
    name = "'" + ".".join(str(part) for part in path[last_index + 1 :]) + "'"
    return name if last_index < 0 else f"{name} in {container(path[: last_index + 1])}"


def container(path: KeyPath) -> str:
    """How messages name a table: 'vs_soldiers', or abilities entry 2 for an array of tables."""
    if path and isinstance(path[-1], int):
        return f"{'.'.join(str(part) for part in path[:-1])} entry {path[-1] + 1}"
    return "'" + ".".join(str(part) for part in path) + "'"


def _collect(source: TomlSource, error: BaseException, path: KeyPath, cls: Any, out: list[Problem]) -> None:
    if isinstance(error, ClassValidationError | IterableValidationError):
        with_notes, without = error.group_exceptions()
        for sub, note in with_notes:
            step = note.index if isinstance(note, IterableValidationNote) else note.name
            _collect(source, sub, (*path, step), note.type, out)
        for sub in without:
            _collect(source, sub, path, getattr(error, "cl", cls), out)
    elif isinstance(error, ForbiddenExtraKeysError):
        allowed = [field.name for field in attrs.fields(error.cl)] if attrs.has(error.cl) else []
        for key in sorted(error.extra_fields):
            where = f" in {container(path)}" if path else ""
            out.append(
                source.problem((*path, key), f"unknown key '{key}'{where}", source.hints(key, allowed))
            )
    elif isinstance(error, KeyError):
        where = f" in {container(path[:-1])}" if len(path) > 1 else ""
        out.append(source.problem(path[:-1], f"missing key '{path[-1] if path else error}'{where}"))
    elif isinstance(error, WrongType):
        out.append(
            source.problem(path, f"{subject(path)} must be {error.expected}, not {describe(error.value)}")
        )
    else:
        out.append(source.problem(path, f"{subject(path)}: {error}"))
