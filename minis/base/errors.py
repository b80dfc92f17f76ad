"""The project's one error type for bad user input: every problem, each with file, line and column.

Loaders collect all the problems of a file before raising, so a designer fixes a file in one pass.
The command line prints each problem as `FILE:LINE:COL: message` and never shows a traceback; a problem
is always one line (control characters are shown escaped) and at most MAX_SHOWN_PROBLEMS are printed.
"""

from __future__ import annotations

import collections
import functools
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

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


#: The most words of one file that get a "did you mean" hint; the rest get their message without one.
#: Each hint compares the word with every known one (473 card ids): uncapped, a file of thousands of
#: unknown ids took seconds (issue 33). A person fixes the first few and checks again.
MAX_HINTS = 20


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A hint naming the closest known word, or '' when nothing is close (or `word` is not text).

    The same word as `difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)` names, found
    faster: the choices' letter counts give every choice's `quick_ratio` (an upper bound of its
    similarity) in one step, and only the few choices that could beat the best so far are compared in
    full. A file with many unknown words still asks through `Hints`, which caps them.
    """
    if not isinstance(word, str):
        return ""
    close = _closest(word, tuple(sorted(choices)))
    return f"did you mean '{close}'?" if close else ""


class Hints:
    """The did-you-mean hints of one file: the first MAX_HINTS words asked about get one, later words
    none, so that the work of the hints stays bounded however many unknown words a file holds."""

    def __init__(self, limit: int = MAX_HINTS) -> None:
        self.left = limit

    def __call__(self, word: str, choices: Iterable[str]) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        return did_you_mean(word, choices)


#: Similarity a choice needs to be hinted (difflib's default).
_CUTOFF = 0.6
#: Words longer than this get no hint, and choices longer than this are never hinted: no id or key is
#: so long, and comparing two long words in full takes time that grows with the product of their lengths.
_HINT_LENGTH = 100
#: Columns of the letter counts: the commonest letters of the choices get one each, the rest share the
#: last one (still an upper bound of what a choice shares with the word, however many letters a file's
#: words use).
_COLUMNS = 64


@functools.lru_cache(maxsize=16)
def _letters(choices: tuple[str, ...]) -> tuple[dict[str, int], Any, Any]:
    """Each choice's letter counts as a row of a matrix (a column per letter, see `_COLUMNS`), and the
    choices' lengths."""
    import numpy as np

    frequency = collections.Counter(char for choice in choices for char in choice)
    alphabet = {char: min(i, _COLUMNS - 1) for i, (char, _) in enumerate(frequency.most_common())}
    counts = np.zeros((len(choices), _COLUMNS), dtype=np.int32)
    for row, choice in enumerate(choices):
        for char, count in collections.Counter(choice).items():
            counts[row, alphabet[char]] += count
    lengths = np.array([len(choice) for choice in choices], dtype=np.int64)
    return alphabet, counts, lengths


def _closest(word: str, choices: tuple[str, ...]) -> str | None:
    """The choice most like `word` (ties: the later in order, as difflib), or None below the cutoff."""
    import difflib

    import numpy as np

    choices = tuple(choice for choice in choices if len(choice) <= _HINT_LENGTH)
    if not choices or len(word) > _HINT_LENGTH:
        return None
    alphabet, counts, lengths = _letters(choices)
    wanted = np.zeros(_COLUMNS, dtype=np.int32)
    for char, count in collections.Counter(word).items():
        if char in alphabet:
            wanted[alphabet[char]] += count
    # difflib's quick_ratio of every choice at once (2 * letters in common / both lengths), or more
    both = lengths + len(word)
    common = np.minimum(counts, wanted).sum(axis=1)
    bound = np.where(both > 0, 2.0 * common / np.maximum(both, 1), 1.0)
    hopeful = np.flatnonzero(bound >= _CUTOFF)
    best: tuple[float, str] | None = None
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    for index in hopeful[np.argsort(-bound[hopeful], kind="stable")]:
        if best is not None and bound[index] < best[0]:
            break  # no choice from here on can be as close as the best one
        matcher.set_seq1(choices[index])
        found = (matcher.ratio(), choices[index])
        if found[0] >= _CUTOFF and (best is None or found > best):
            best = found
    return best[1] if best is not None else None
