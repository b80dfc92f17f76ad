"""Checking big files full of unknown card ids (issue 33): each unknown id once got a did-you-mean hint
that compared it with all 473 card ids (about 2.3 ms), so a 180 KB army took seconds and the Load dialog
froze while it listed a folder holding a 41 KB save of them. Now the first `MAX_HINTS` ids of a file
get a hint and the matcher compares letter counts first (`minis.base.errors.did_you_mean`).

Run with `make bench`; nothing here asserts a time. The same file run against the code before the
change (a second checkout on PYTHONPATH) gives the figures of docs/file-limits.md side by side.
"""

from __future__ import annotations

import contextlib
import io
import random
import string
from pathlib import Path
from typing import Any

import pytest

from minis.cards import card_catalogue
from minis.cli import main


def _unknown_ids(size: int, seed: int) -> list[str]:
    """Card-id-like words of 8-20 letters (almost none close to a real id) filling about `size` bytes."""
    rng = random.Random(seed)
    words, total = [], 0
    while total < size:
        word = "".join(rng.choice(string.ascii_lowercase + "-") for _ in range(rng.randint(8, 20)))
        words.append(word)
        total += len(word) + 8
    return words


@pytest.fixture(scope="module")
def big_army(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 180 KB army file of unknown card ids, one a line."""
    path = tmp_path_factory.mktemp("bad-input") / "big-army.toml"
    units = "".join(f'    "{word}",\n' for word in _unknown_ids(180_000, 1))
    path.write_text(
        f'name = "big"\nside = "axis"\nscenario = "standard"\nunits = [\n{units}]\n', encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def big_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 41 KB save whose Axis army is unknown card ids (what the Load dialog replays to list it)."""
    path = tmp_path_factory.mktemp("bad-input") / "big.minis"
    ids = "".join(f'\n    "{word}",' for word in _unknown_ids(41_000, 2))
    header = f'# minis game record\nformat = 1\naxis = [{ids}\n]\nallies = ["m4a1-sherman"]\n---\n'
    path.write_text(header, encoding="utf-8")
    return path


def _check(argv: list[str]) -> None:
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 1


def test_check_a_180_kb_army_of_unknown_ids(benchmark: Any, big_army: Path) -> None:
    card_catalogue()  # read once, as any command has
    benchmark.pedantic(
        _check, args=(["army", "check", str(big_army)],), rounds=3, iterations=1, warmup_rounds=1
    )


def test_replay_a_41_kb_save_of_unknown_ids(benchmark: Any, big_save: Path) -> None:
    card_catalogue()
    benchmark.pedantic(_check, args=(["replay", str(big_save)],), rounds=3, iterations=1, warmup_rounds=1)
