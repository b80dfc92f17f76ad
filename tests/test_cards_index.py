"""The card catalogue's index (minis.content.card_index): the same cards as the files give, an edited card
counts at once, a card file's problems as without an index, and a bad or foreign index is ignored and made
again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import attrs
import pytest

from minis import cards
from minis.base.errors import MinisError
from minis.cards import StatCard, card_catalogue, cards_folder, load_cards
from minis.content import card_index

SOME = ("3-inch-mortar", "m4a1-sherman", "elite-panzer-iv-ausf-d", "barbed-wire", "m4a1-sherman-commander")


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index in the test's own cache folder; files count as settled at once (RACY_NS 0)."""
    monkeypatch.setenv("MINIS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(card_index, "RACY_NS", 0)
    found = card_index.index_file(tmp_path / "cards", "cards")
    assert found is not None and found.parent == tmp_path / "cache"
    return found


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A few shipped cards, copied."""
    folder = tmp_path / "cards"
    folder.mkdir()
    for name in SOME:
        shutil.copyfile(cards_folder() / f"{name}.toml", folder / f"{name}.toml")
    return folder


def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The card files parsed from now on (by name), as the loader asks `load_card`."""
    parsed: list[str] = []
    real = cards.load_card

    def counting(path: str | Path) -> StatCard:
        parsed.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(cards, "load_card", counting)
    return parsed


def fields(catalogue: dict[str, StatCard]) -> list[tuple[str, dict[str, object]]]:
    """Every card with every field (the derived ones too), in the catalogue's order."""
    return [(key, attrs.asdict(card, recurse=True)) for key, card in catalogue.items()]


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_the_whole_catalogue_from_the_index_is_the_one_the_files_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINIS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(card_index, "RACY_NS", 0)
    index = card_index.index_file(cards_folder(), "cards")
    plain = load_cards(cards_folder())
    first = load_cards(cards_folder(), index)  # parses every file and writes the index
    assert index is not None and index.is_file()
    parsed = parses(monkeypatch)
    second = load_cards(cards_folder(), index)
    assert parsed == []  # every card came from the index
    assert fields(second) == fields(first) == fields(plain)
    assert second == plain and list(second) == list(plain) == list(card_catalogue())
    for card in second.values():  # the same types too (enums, tuples, whole and half points)
        assert type(card.cost) is type(plain[card.id].cost)
        assert type(card.abilities) is tuple and card.nation is plain[card.id].nation
        assert hash(card) == hash(plain[card.id])


def test_an_edited_card_counts_at_once(folder: Path, index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_cards(folder, index)
    mortar = folder / "3-inch-mortar.toml"
    edit(mortar, "cost = 11", "cost = 12")  # the same size: its times tell
    parsed = parses(monkeypatch)
    assert load_cards(folder, index)["3-inch-mortar"].cost == 12
    assert parsed == ["3-inch-mortar.toml"]  # the others from the index
    shutil.copyfile(mortar, folder / "another-mortar.toml")
    (folder / "m4a1-sherman.toml").unlink()
    again = load_cards(folder, index)
    assert "another-mortar" in again and "m4a1-sherman" not in again
    assert fields(again) == fields(load_cards(folder))


def test_a_broken_card_is_reported_as_without_an_index(folder: Path, index: Path) -> None:
    load_cards(folder, index)
    edit(folder / "3-inch-mortar.toml", "year = 1940", "year = 1840")
    with pytest.raises(MinisError) as plain:
        load_cards(folder)
    with pytest.raises(MinisError) as indexed:
        load_cards(folder, index)
    assert indexed.value.problems == plain.value.problems
    assert indexed.value.exit_code == plain.value.exit_code
    problem = indexed.value.problems[0]
    assert problem.file.endswith("3-inch-mortar.toml") and problem.line == 5


@pytest.mark.parametrize(
    "damage",
    ["garbage", "cut short", "one byte changed", "empty", "a folder", "wrong shapes", "other code"],
)
def test_a_bad_index_is_ignored_and_made_again(
    folder: Path, index: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    expected = fields(load_cards(folder))
    load_cards(folder, index)
    data = index.read_bytes()
    version = card_index.loader_version(cards._LOADER_MODULES)
    if damage == "garbage":
        index.write_bytes(os.urandom(5000))
    elif damage == "cut short":
        index.write_bytes(data[: len(data) // 2])
    elif damage == "one byte changed":
        at = len(data) - 40
        index.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :])
    elif damage == "empty":
        index.write_bytes(b"")
    elif damage == "a folder":
        index.unlink()
        index.mkdir()
    elif damage == "wrong shapes":  # a whole index of this version whose cards are not cards
        body = b'[["3-inch-mortar.toml",[1,2,3],{"name":1}],["x.toml",[1,2],[]],7]'
        index.write_bytes(card_index._header(version, body) + b"\n" + body)
    elif damage == "other code":
        body = data.partition(b"\n")[2]
        index.write_bytes(card_index._header("0" * 32, body) + b"\n" + body)
    assert card_index.read_index(index, version) == {}
    parsed = parses(monkeypatch)
    assert fields(load_cards(folder, index)) == expected
    assert len(parsed) == len(expected)  # every file read again
    if damage != "a folder":
        assert card_index.read_index(index, version).keys() == {f"{key}.toml" for key, _ in expected}


def test_an_entry_that_does_not_make_a_card_is_read_from_its_file(
    folder: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole index of this version whose entry for a file names an ability no longer known."""
    load_cards(folder, index)
    version = card_index.loader_version(cards._LOADER_MODULES)
    entries = card_index.read_index(index, version)
    _, plain = entries["3-inch-mortar.toml"]
    plain[11][0][0] = "no-such-ability"
    card_index.write_index(index, version, entries)
    parsed = parses(monkeypatch)
    assert fields(load_cards(folder, index)) == fields(load_cards(folder))
    assert parsed.count("3-inch-mortar.toml") == 2


def test_no_index_where_none_can_be_written(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MINIS_CACHE", str(blocker / "cache"))
    index = card_index.index_file(folder, "cards")
    assert fields(load_cards(folder, index)) == fields(load_cards(folder))
    monkeypatch.setenv("MINIS_CACHE", "off")
    assert card_index.index_file(folder, "cards") is None


def test_files_changed_just_now_wait_for_the_next_index(folder: Path, tmp_path: Path) -> None:
    """A file changed within the clock's tick of the index could change again with the same stamp: it
    is left out (read again next time) until it has settled."""
    index = tmp_path / "index.json"
    load_cards(folder, index)  # the copies were made just now (RACY_NS as shipped)
    version = card_index.loader_version(cards._LOADER_MODULES)
    assert card_index.read_index(index, version) == {}
    assert index.is_file()
