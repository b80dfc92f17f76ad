"""How big a file we read may be, checked before parsing: no input may make us hang or fill memory.

The numbers are far above anything a real card, army, map, scenario, record or rules test holds, and
low enough that the slowest file within them still reads in about a second (the standard TOML parser is
quadratic on long dotted keys, and every later check walks every entry). docs/file-limits.md lists them.
A file past a limit is not read at all (exit code 2), with the problem at the place the limit is passed.
"""

from __future__ import annotations

import re

import attrs

from minis.base.errors import unreadable

#: The largest file we read, in bytes (a long game's record is about 30 KB).
MAX_FILE_BYTES = 1_000_000
#: The longest line, in characters (a free map of 100 hexes a row has lines of 199).
MAX_LINE_CHARS = 10_000
#: The most parts of one dotted key or table name (`a.b.c` has 3).
MAX_KEY_PARTS = 8
#: The most lists and inline tables inside one another.
MAX_NESTING = 32
#: The most entries in one file: keys, [table] headers and list items.
MAX_ENTRIES = 10_000
#: The longest number, date or other bare value, in characters (Python refuses to read an integer of
#: more than 4,300 digits, and no number in our files has more than a few).
MAX_BARE_VALUE = 100
#: The largest battle map: rows, and hexes in a row (`minis map new`, the editor and every map file).
MAX_MAP_ROWS = 100
MAX_MAP_COLUMNS = 100
#: The most points of one army a scenario, a study or a rule set's `point_levels` may ask for: the
#: largest army size of any rule set (2008 on: 200, 100 or 400). The work of drawing an army grows with
#: its points, and a 1,000-point army the computer draws (about 170 units) no longer fits the Standard
#: maps' deployment zones (55 hexes). A scenario's `units` and the `max_units` option: at most
#: MAX_ARMY_UNITS.
MAX_ARMY_POINTS = 400
MAX_ARMY_UNITS = 1000
#: The most turns a battle may be given: a scenario's `turns`, a study's `turn_limit` (the shipped
#: battles last 8 to 30). Two armies that can't hurt each other, at equal points, play on to the last.
MAX_TURNS = 1000
#: The most games one study may ask for (its list of games is held in memory; a million take about half
#: a day at the lab's rate on two cores).
MAX_STUDY_GAMES = 1_000_000

_SKIP = re.compile(r"(?:[ \t\r]+|#[^\n]*)+")
_NEWLINES = re.compile(r"\n(?:[ \t\r]*(?:#[^\n]*)?\n)*")  # blank and comment lines count as one
_BARE = re.compile(r"[A-Za-z0-9_+\-:.]+")  # bare keys, numbers, dates, true and false
_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"?|'[^'\n]*'?")  # an unclosed one ends at the line's end


def check_bytes(data: bytes, file: str, size: int | None = None) -> None:
    """Refuse a file over MAX_FILE_BYTES before it is decoded, at the first byte past the limit.

    `size` is the whole file's length when only its start was read (a reader stops one byte past the
    limit, so a huge file or an endless device never fills memory).
    """
    if len(data) <= MAX_FILE_BYTES:
        return
    size = max(len(data), size or 0)
    line_start = data.rfind(b"\n", 0, MAX_FILE_BYTES) + 1
    line = data.count(b"\n", 0, MAX_FILE_BYTES) + 1
    col = len(data[line_start:MAX_FILE_BYTES].decode("utf-8", "replace")) + 1
    raise unreadable(
        file,
        f"the file is {size:,} bytes long; a file may hold at most {MAX_FILE_BYTES:,} bytes",
        line,
        col,
        "is it the right file?",
    )


def check_text(text: str, file: str) -> None:
    """Refuse text over the size or line-length limits (any file we read, TOML or not)."""
    check_bytes(text.encode("utf-8", "surrogatepass"), file)
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise unreadable(
                file,
                f"line {number} is {len(line):,} characters long; a line may hold at most {MAX_LINE_CHARS:,}",
                number,
                MAX_LINE_CHARS + 1,
                "break it into several lines",
            )


def check_toml(text: str, file: str) -> None:
    """Refuse TOML text over any limit, before the parser sees it (its work then stays bounded)."""
    check_text(text, file)
    scan = _Scan(text)
    scan.run()
    if scan.passed is not None:
        offset, message, hint = scan.passed
        line, col = _spot(text, offset)
        raise unreadable(file, message, line, col, hint)


def deepest_spot(text: str) -> tuple[int, int]:
    """The line and column of the most deeply nested list or table (where 'nested too deeply' points)."""
    scan = _Scan(text, stop=False)
    scan.run()
    return _spot(text, scan.deepest)


def _spot(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


@attrs.define
class _Scan:
    """One pass over TOML text, token by token, following strings, keys and brackets.

    It counts what the limits are about and stops at the first one passed (unless `stop` is false). It
    also stops where the text is surely not TOML (a stray ']', two values on one line): the parser
    stops there too, with a syntax error, so nothing after it is ever parsed.
    """

    text: str
    stop: bool = True
    passed: tuple[int, str, str] | None = None  # offset, message, hint
    deepest: int = 0  # the offset of the most deeply nested bracket
    _stack: list[str] = attrs.Factory(list)  # the open '[' and '{' of a value
    _mode: str = "key"  # "key", "header", "value", or "done" (at the top level, after the value)
    _key_start: int = -1
    _dots: int = 0
    _part_next: bool = True  # in a key: a part may come next (at its start, or after a dot)
    _brackets: int = 0  # the '[' of a header still to close
    _entries: int = 0
    _max_depth: int = 0
    _broken: bool = False

    def run(self) -> None:
        text, i, n = self.text, 0, len(self.text)
        while i < n and not self._broken and (self.passed is None or not self.stop):
            char = text[i]
            if char in " \t\r#":
                i = _match_end(_SKIP, text, i)
            elif char == "\n":
                self._end_key()
                if not self._stack:
                    self._start_key()
                i = _match_end(_NEWLINES, text, i)
            elif self._mode == "done":
                self._broken = True  # a second value on the line
            elif text.startswith('"""', i) or text.startswith("'''", i):
                self._word(i, "")
                i = _multiline_end(text, i + 3, text[i : i + 3])
            elif char in "\"'":
                self._word(i, "")
                i = _match_end(_STRING, text, i)
            elif bare := _BARE.match(text, i):
                self._word(i, bare.group())
                i = bare.end()
            else:
                self._punctuation(char, i)
                i += 1
        self._end_key()

    def _start_key(self) -> None:
        self._mode, self._key_start, self._dots, self._part_next = "key", -1, 0, True

    def _word(self, offset: int, bare: str) -> None:
        """A string or a bare word (a bare key, possibly dotted, a number, a date, true or false)."""
        if self._mode in ("key", "header"):
            if not (self._part_next or bare.startswith(".")):
                self._broken = True  # two keys without a dot between them
            if self._key_start < 0:
                self._key_start = offset
            self._dots += bare.count(".")
            self._part_next = bare.endswith(".")
        else:
            if len(bare) > MAX_BARE_VALUE:
                self._pass(
                    offset,
                    f"this value is {len(bare):,} characters long; a number may have at most "
                    f"{MAX_BARE_VALUE}",
                    "is it the right value?",
                )
            if not self._stack and not _DATE.fullmatch(bare):  # a date's time may follow after a space
                self._mode = "done"

    def _end_key(self) -> None:
        """A key (or table name) ends: check how many parts it has."""
        if self._mode in ("key", "header") and self._key_start >= 0 and self._dots + 1 > MAX_KEY_PARTS:
            self._pass(
                self._key_start,
                f"this key has {self._dots + 1:,} parts; a key may have at most {MAX_KEY_PARTS} (like a.b.c)",
                "use a [table] or fewer dots",
            )
        self._key_start = -1

    def _entry(self, offset: int) -> None:
        self._entries += 1
        if self._entries == MAX_ENTRIES + 1:
            self._pass(
                offset,
                f"the file holds more than {MAX_ENTRIES:,} entries (keys, [tables] and list items) by here; "
                f"a file may hold at most {MAX_ENTRIES:,}",
                "is it the right file?",
            )

    def _open(self, bracket: str, offset: int) -> None:
        self._stack.append(bracket)
        if len(self._stack) > self._max_depth:
            self._max_depth, self.deepest = len(self._stack), offset
        if len(self._stack) == MAX_NESTING + 1:
            self._pass(
                offset,
                f"values nested too deeply: more than {MAX_NESTING} lists or tables inside one another here",
                "flatten the value",
            )

    def _punctuation(self, char: str, offset: int) -> None:
        self._end_key()  # nothing but '=' (or a header's ']') may follow a key: its parts are all here
        if char == "=" and self._mode == "key":
            self._entry(offset)
            self._mode = "value"
        elif char == "[" and self._mode == "key" and not self._stack:
            self._mode, self._key_start, self._dots, self._part_next = "header", -1, 0, True
            self._brackets = 1
        elif self._mode == "header":
            self._header(char, offset)
        elif char in "[{":
            self._open(char, offset)
            if char == "{":
                self._start_key()
        elif char in "]}" and self._stack:
            self._stack.pop()
            self._mode = "value" if self._stack else "done"
        elif char == "," and self._stack:
            if self._stack[-1] == "{":
                self._start_key()
            else:
                self._entry(offset)
        else:  # a stray ']', '}' or ',', a '=' without a key, or a character TOML does not have
            self._broken = True

    def _header(self, char: str, offset: int) -> None:
        """The brackets of a [table] or [[array]] header."""
        if char == "[" and self._brackets == 1 and not self._dots and self._part_next:
            self._brackets = 2
        elif char == "]":
            self._brackets -= 1
            if not self._brackets:
                self._entry(offset)
                self._mode = "done"
        else:
            self._broken = True

    def _pass(self, offset: int, message: str, hint: str) -> None:
        if self.passed is None:
            self.passed = (offset, message, hint)


def _match_end(pattern: re.Pattern[str], text: str, i: int) -> int:
    """Where `pattern` ends at `i`; the scanner calls it only where the pattern's first character is."""
    found = pattern.match(text, i)
    assert found is not None, (pattern.pattern, i)
    return found.end()


def _multiline_end(text: str, start: int, quotes: str) -> int:
    """The offset after a multi-line string whose contents start at `start` (the text's end if unclosed)."""
    i = start
    while (j := text.find(quotes, i)) >= 0:
        k = j
        while quotes == '"""' and k > start and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2:  # an escaped quote
            i = j + 1
            continue
        end = j + 3
        while end < len(text) and end - j < 5 and text[end] == quotes[0]:
            end += 1  # up to two quotes just before the closing ones belong to the string
        return end
    return len(text)
