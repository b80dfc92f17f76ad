"""The project's one error type for bad user input: every problem, each with file, line and column.

Loaders collect all the problems of a file before raising, so a designer fixes a file in one pass.
The command line prints each problem as `FILE:LINE:COL: message` and never shows a traceback; a problem
is always one line (control characters are shown escaped) and at most MAX_SHOWN_PROBLEMS are printed.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Sequence

import attrs

#: Exit code for input that is well formed but fails a check.
EXIT_CHECK = 1
#: Exit code for input that cannot be read at all (missing file, bad encoding, broken syntax).
EXIT_UNREADABLE = 2
#: How many problems of one error are printed or shown; one more line counts the rest.
MAX_SHOWN_PROBLEMS = 50

_NAMED_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: Characters that reorder the text around them on screen (they could move a message before its file).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def escaped(text: str) -> str:
    """Text with control characters, line and paragraph separators and bidi controls shown as escapes.

    A quoted value or a file name could otherwise break a message over lines or overwrite its start.
    """
    if text.isprintable():
        return text
    return "".join(_escape(char) for char in text)


def _escape(char: str) -> str:
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    if unicodedata.category(char) not in ("Cc", "Zl", "Zp") and char not in _BIDI_CONTROLS:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@attrs.frozen
class Problem:
    """One mistake in one file; line and column count from 1 (0 when unknown)."""

    file: str
    line: int
    col: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        """`FILE:LINE:COL: message (hint: ...)`, always one line: the one place that guarantees it."""
        text = f"{escaped(self.file)}:{self.line}:{self.col}: {escaped(self.message)}"
        return f"{text} (hint: {escaped(self.hint)})" if self.hint else text


class MinisError(Exception):
    """Bad input: one or more problems. `exit_code` says whether the file could be read at all."""

    def __init__(self, problems: list[Problem] | Problem, exit_code: int = EXIT_CHECK) -> None:
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else list(problems)
        if not self.problems:
            raise ValueError("MinisError needs at least one problem")
        self.exit_code = exit_code
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(problem_lines(self.problems))


def problem_lines(problems: Sequence[Problem], limit: int = MAX_SHOWN_PROBLEMS) -> list[str]:
    """The problems as printed or shown: the first `limit`, then one line that counts the others.

    A file can have thousands of problems (a grid of wrong letters); the first ones are enough to start
    fixing it. The last line points at the first problem not shown, so it keeps the FILE:LINE:COL form.
    """
    lines = [str(problem) for problem in problems[:limit]]
    hidden = len(problems) - limit
    if hidden > 0:
        first = problems[limit]
        more = f"and {hidden} more problem{'s' if hidden > 1 else ''}"
        lines.append(str(Problem(first.file, first.line, first.col, more)))
    return lines


def print_problems(problems: Sequence[Problem]) -> None:
    """Print problems for the command line: on stderr, one a line, capped like `problem_lines`."""
    for line in problem_lines(problems):
        print(line, file=sys.stderr)


def unreadable(file: str, message: str, line: int = 0, col: int = 0, hint: str = "") -> MinisError:
    """An error for a file that cannot be read at all (exit code 2)."""
    return MinisError(Problem(file, line, col, message, hint), exit_code=EXIT_UNREADABLE)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...] | set[str]) -> str:
    """A hint naming the closest known word, or '' when nothing is close."""
    import difflib

    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
