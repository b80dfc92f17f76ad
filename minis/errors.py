"""The project's one error type for bad user input: every problem, each with file, line and column.

Loaders collect all the problems of a file before raising, so a designer fixes a file in one pass.
The command line prints each problem as `FILE:LINE:COL: message` and never shows a traceback.
"""

from __future__ import annotations

import attrs

#: Exit code for input that is well formed but fails a check.
EXIT_CHECK = 1
#: Exit code for input that cannot be read at all (missing file, bad encoding, broken syntax).
EXIT_UNREADABLE = 2


@attrs.frozen
class Problem:
    """One mistake in one file; line and column count from 1 (0 when unknown)."""

    file: str
    line: int
    col: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.col}: {self.message}"
        return f"{text} (hint: {self.hint})" if self.hint else text


class MinisError(Exception):
    """Bad input: one or more problems. `exit_code` says whether the file could be read at all."""

    def __init__(self, problems: list[Problem] | Problem, exit_code: int = EXIT_CHECK) -> None:
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else list(problems)
        if not self.problems:
            raise ValueError("MinisError needs at least one problem")
        self.exit_code = exit_code
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)


def unreadable(file: str, message: str, line: int = 0, col: int = 0, hint: str = "") -> MinisError:
    """An error for a file that cannot be read at all (exit code 2)."""
    return MinisError(Problem(file, line, col, message, hint), exit_code=EXIT_UNREADABLE)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...] | set[str]) -> str:
    """A hint naming the closest known word, or '' when nothing is close."""
    import difflib

    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
