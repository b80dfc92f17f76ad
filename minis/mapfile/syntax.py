"""Reading a map file's text and TOML, and saying where in it each problem is.

Map files are written by hand by scenario designers, so problems reading them are phrased with hints
(`read_text`, `parse_toml`), and every later problem is placed on the line and column of the key, value or
character it is about (`Where`, over `minis.base.tomlfile.TomlLayout`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from minis.base.errors import Hints, MinisError, Problem, unreadable
from minis.base.limits import check_bytes, check_toml, deepest_spot
from minis.base.paths import read_bytes
from minis.base.tomlfile import KeyPath, Spot, TomlLayout, decode, key_on_line, syntax_position


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """TOML text to a dict; a syntax error (a key given twice included) or a file over the limits of
    `minis.base.limits` (checked first, so that no file makes the parser hang) is an unreadable-file error."""
    check_toml(text, file)
    try:
        return tomllib.loads(text)
    except RecursionError:  # only if the call stack was already deep: the limits keep nesting shallow
        raise unreadable(file, "not valid TOML: values nested too deeply", *deepest_spot(text)) from None
    except (tomllib.TOMLDecodeError, ValueError) as error:
        message, line, col = syntax_position(str(error) or "not valid TOML")
        lines = text.split("\n")
        if not line and message.endswith("(at end of document)"):  # a truncated file: its last line
            message = message.removesuffix("(at end of document)").rstrip()
            line, col = len(lines), len(lines[-1]) + 1
        if "overwrite" in message and 0 < line <= len(lines):
            key = key_on_line(lines[line - 1])
            name, col = key if key else ("", col)
            raise unreadable(
                file,
                f"'{name}' is given twice" if name else "a key is given twice",
                line,
                col,
                "each key may appear only once; keys after a [table] header belong to that table",
            ) from None
        if "declare" in message and "twice" in message:
            raise unreadable(file, "a [table] is given twice", line, col, "merge the two tables") from None
        raise unreadable(
            file,
            f"not valid TOML: {message}",
            line,
            col,
            'strings need quotes, like name = "x"; multi-line strings use """',
        ) from None


def read_text(path: Path | str) -> str:
    """The text of a file, or an unreadable-file error (missing, a folder, not UTF-8)."""
    path = Path(path)
    raw = read_bytes(path, missing_hint="check the path", cannot_read="cannot read the file")
    check_bytes(raw, str(path))  # before decoding a file that may be huge
    text = decode(raw, str(path), "the file is not UTF-8 text", "save it as UTF-8")
    return text.removeprefix("\ufeff")  # the byte-order mark some Windows editors write


@attrs.frozen
class Where:
    """Turns 'the 3rd road, 7th character' into file, line and column; collects the problems.

    Without a layout (a document built in code, not read from a file) every place is line 0.
    """

    file: str
    layout: TomlLayout | None
    problems: list[Problem] = attrs.field(factory=list, eq=False)
    table: str | None = None
    #: The file's did-you-mean hints, capped (`minis.base.errors.Hints`).
    hints: Hints = attrs.field(factory=Hints, eq=False)

    def within(self, table: str) -> Where:
        return Where(self.file, self.layout, self.problems, table, self.hints)

    def _path(self, key: str) -> KeyPath:
        return (key,) if self.table is None else (self.table, key)

    def key(self, key: str) -> Spot:
        """Where the key is written; else its table's header; else the file's start (line 0 without a
        layout). A key the scanner can't place (written as a table, say) still gets a real line."""
        if not self.layout:
            return (0, 0)
        found = self.layout.key(self._path(key))
        if found is None and self.table is not None:
            found = self.layout.key((self.table,))
        return found or (1, 1)

    def value(self, key: str) -> Spot:
        """Where the key's value starts; else where the key is (a value that is a [table])."""
        found = self.layout.value(self._path(key)) if self.layout else None
        return found or self.key(key)

    def item(self, key: str, index: int | None, char: int = 0) -> Spot:
        """The `char`-th character of string number `index` of an array (None: the key's own string)."""
        if not self.layout:
            return (0, 0)
        offsets = self.layout.strings(self._path(key))
        position = 0 if index is None else index
        if position >= len(offsets):
            return self.value(key)
        line, col = self.layout.spot(offsets[position])
        return (line, col + char)

    def block(self, key: str) -> Callable[[int, int], Spot]:
        """Position of line i, character k of a multi-line string value (a grid)."""
        if not self.layout:
            return lambda i, k: (i + 1, k + 1)
        offsets = self.layout.strings(self._path(key))
        if not offsets:
            spot = self.value(key)
            return lambda i, k: spot
        line0, col0 = self.layout.spot(offsets[0])
        return lambda i, k: (line0 + i, col0 + k if i == 0 else k + 1)

    def add(self, spot: Spot, message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.file, spot[0], spot[1], message, hint))

    def raise_if_any(self) -> None:
        if self.problems:
            raise MinisError(sorted(self.problems, key=lambda p: (p.file, p.line, p.col)))
