"""Did-you-mean hints (issue 33): each costs a comparison with every known word (473 card ids), so a file
of thousands of unknown ids took seconds to check (a 180 KB army 37 s) and froze the Load dialog. The
first MAX_HINTS words of a file get a hint, the rest a plain message; and the matcher, which compares
letter counts first, names the very word difflib names."""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.base import errors
from minis.base.errors import MAX_HINTS, MAX_SHOWN_PROBLEMS, Hints, did_you_mean
from minis.cards import card_catalogue
from minis.cli import main

CARD_IDS = sorted(card_catalogue())
KEYS = ["cost", "games", "fair", "low", "high", "study", "cards"]


def difflib_hint(word: str, choices: list[str]) -> str:
    """What the hint was before: difflib's closest match."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def near_misses(count: int, seed: int = 1) -> list[str]:
    """Card ids with one letter changed: each has a close match."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        word = list(rng.choice(CARD_IDS))
        word[rng.randrange(len(word))] = rng.choice("qxz")
        if "".join(word) not in card_catalogue():
            found.append("".join(word))
    return found


@settings(max_examples=300, deadline=None)
@given(
    base=st.sampled_from(CARD_IDS),
    cut=st.integers(0, 40),
    extra=st.text(alphabet="abcdefghijklmnopqrstuvwxyz-0123456789é", max_size=12),
)
def test_the_hint_names_what_difflib_names(base: str, cut: int, extra: str) -> None:
    for word in (base[:cut] + extra, extra + base[cut:], extra):
        assert did_you_mean(word, CARD_IDS) == difflib_hint(word, CARD_IDS)
        assert did_you_mean(word, KEYS) == difflib_hint(word, KEYS)


def test_a_value_that_is_not_text_gets_no_hint() -> None:
    """A file's value may be a number or a list (`rules = 2010`): no hint, and no exception."""
    assert did_you_mean(2010, ["2005", "2010"]) == ""  # type: ignore[arg-type]  # what a file may hold
    assert did_you_mean(["2010"], ["2005", "2010"]) == ""  # type: ignore[arg-type]


def test_hints_stop_after_the_cap() -> None:
    hints = Hints()
    given_ = [hints(word, CARD_IDS) for word in near_misses(MAX_HINTS + 5)]
    assert all(given_[:MAX_HINTS]) and not any(given_[MAX_HINTS:])


def test_a_big_army_of_unknown_ids_gets_the_capped_number_of_hints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 180 KB army of near-miss ids: MAX_HINTS comparisons, not one for each of its 8,000 ids."""
    words = near_misses(8000)
    path = tmp_path / "big.toml"
    units = "".join(f'    "{word}",\n' for word in words)
    path.write_text(
        f'name = "big"\nside = "axis"\nscenario = "standard"\nunits = [\n{units}]\n', encoding="utf-8"
    )
    assert len(path.read_bytes()) > 180_000
    compared = []
    closest = errors._closest
    monkeypatch.setattr(
        errors, "_closest", lambda word, choices: compared.append(word) or closest(word, choices)
    )
    assert main(["army", "check", str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == MAX_SHOWN_PROBLEMS + 1
    hinted = [line for line in lines if "(did you mean '" in line]
    assert len(hinted) == MAX_HINTS and len(compared) == MAX_HINTS
    assert lines[MAX_HINTS + 5].endswith(f"unknown card '{words[MAX_HINTS + 4]}'")  # past the cap: plain


def test_a_save_of_unknown_ids_gets_the_capped_number_of_hints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save's armies are checked when it is listed in the Load dialog too: a 41 KB one took 6 s."""
    words = near_misses(300, seed=2)
    path = tmp_path / "game.rec"
    ids = ", ".join(f'"{word}"' for word in words)
    path.write_text(
        f'# minis game record\nformat = 1\naxis = [{ids}]\nallies = ["m4a1-sherman"]\n---\n', encoding="utf-8"
    )
    assert main(["replay", str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert sum("(hint: did you mean '" in line for line in lines) == MAX_HINTS


def test_a_study_of_unknown_cards_gets_the_capped_number_of_hints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = near_misses(100, seed=3)
    path = tmp_path / "study.toml"
    cards = ", ".join(f'"{word}"' for word in words)
    path.write_text(
        f'name = "x"\nbots = ["random", "random"]\ngames = 1\nseed = 1\n\n[armies]\ncards = [{cards}]\n',
        encoding="utf-8",
    )
    assert main(["lab", "run", str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert sum("(hint: did you mean '" in line for line in lines) == MAX_HINTS


def test_words_of_over_100_characters_are_never_compared() -> None:
    """No id or key is so long; comparing two long words in full takes time that grows with the product
    of their lengths (a rules test may name thousands of units of 10,000 characters)."""
    long = "a" * 5000
    assert did_you_mean(long, [long, "b"]) == ""
    assert did_you_mean(long[:100], [long[:99] + "b", long]) == f"did you mean '{long[:99]}b'?"
