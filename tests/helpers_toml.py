"""Shared helpers of the TOML file fuzz tests (cards, armies): mutations of sample files, TOML written
back from mutated data, and the command line run on one mutated file.

Each test module keeps its own samples, snippets and keys, and its own assertions.
"""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from minis.base.tomlfile import toml_string
from minis.cli import main

#: Raw text edits: delete a few characters, insert a snippet, duplicate, drop or swap lines.
TEXT_OPERATIONS = ("delete", "insert", "dup-line", "drop-line", "swap-lines")
#: Bytes that make the text invalid UTF-8 (a lone 0xff, a cut sequence, a UTF-16 surrogate).
BAD_BYTES = (b"\xff", b"\xc3", b"\xed\xa0\x80")


def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


def toml_document(data: dict[str, Any]) -> str:
    """Data as valid TOML, one `key = value` line per top-level key (tables inline)."""
    return "".join(f"{toml_key(key)} = {toml_value(value)}\n" for key, value in data.items())


@st.composite
def mutate_text(
    draw: st.DrawFn,
    text: str,
    snippets: Sequence[str],
    operations: Sequence[str] = TEXT_OPERATIONS,
    bad_bytes: Sequence[bytes] = BAD_BYTES,
) -> bytes:
    """Raw edits of `text` (1-4 of `operations`), then maybe one of `bad_bytes` inserted."""
    for _ in range(draw(st.integers(1, 4))):
        operation = draw(st.sampled_from(list(operations)))
        lines = text.split("\n")
        if operation == "delete" and text:
            start = draw(st.integers(0, len(text) - 1))
            text = text[:start] + text[start + draw(st.integers(1, 8)) :]
        elif operation == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(list(snippets)) | st.text(max_size=4)) + text[at:]
        elif operation == "dup-line":
            index = draw(st.integers(0, len(lines) - 1))
            lines.insert(index, lines[index])
            text = "\n".join(lines)
        elif operation == "swap-lines":
            first, second = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[first], lines[second] = lines[second], lines[first]
            text = "\n".join(lines)
        else:  # drop-line, and a delete in empty text
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
    data = text.encode("utf-8")
    if draw(st.booleans()) and data:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(list(bad_bytes))) + data[at:]
    return data


def of_samples(samples: Mapping[str, str], mutate: Callable[[str], st.SearchStrategy[Any]]) -> Any:
    """A strategy: `mutate` applied to one of the sample texts (by name, in name order)."""
    return st.sampled_from(sorted(samples)).flatmap(lambda name: mutate(samples[name]))


def either_mutation(
    samples: Mapping[str, str],
    text_mutations: Callable[[str], st.SearchStrategy[bytes]],
    data_mutations: Callable[[str], st.SearchStrategy[str]],
) -> Any:
    """A strategy: a text or a data mutation of one of the samples, as bytes (for the command line)."""
    return st.one_of(
        of_samples(samples, text_mutations),
        of_samples(samples, data_mutations).map(str.encode),
    )


def run_on_file(name: str, data: bytes, command: Callable[[Path], list[str]]) -> tuple[Path, int, str, str]:
    """Write `data` to a file `name` in a new folder and run `minis` with `command(path)`.

    Returns the path the file had, the exit code, stdout and stderr (the folder is gone afterwards).
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(command(path))
    return path, code, out.getvalue(), err.getvalue()
