"""Writing map files: canonical files come back byte for byte; anything read comes back as the same thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.mapfile import (
    MAPS_DIR,
    Configuration,
    MapDoc,
    Section,
    dump,
    load_configuration,
    map_board,
    map_document,
    parse_document,
    read_document,
)

FILES = sorted(MAPS_DIR.rglob("*.toml"))


def test_there_are_fourteen_map_files() -> None:
    assert len(FILES) == 14


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_canonical_files_are_written_back_byte_for_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    document = read_document(path)
    assert dump(document) == text
    assert document.notes and document.notes[0].startswith("# ")


MESSY_SECTION = '''# Notes are kept.
#
# Even over two paragraphs.
kind = "section"   # a comment that is not kept
terrain = """
H C C C C C C C
 H C F C C C C
C C C C M C F C
 C C C M C F C
H H C C M C C H
"""
roads = [ "c0   c1 C2", ]   # lower case labels are fine
streams = ['A1/A2']

[half-hexes]
south = "C F C C C C C"
'''


def test_load_dump_load_is_stable() -> None:
    first = parse_document(MESSY_SECTION, "messy.toml")
    assert isinstance(first, Section)
    assert first.notes == ("# Notes are kept.", "#", "# Even over two paragraphs.")
    assert first.roads == (("c0", "c1", "C2"),)
    assert first.south == "CFCCCCC" and first.north == "CCCCCCC"
    text = dump(first)
    assert parse_document(text, "messy.toml") == first
    assert dump(parse_document(text, "messy.toml")) == text
    assert '[half-hexes]\nnorth = "C C C C C C C"\nsouth = "C F C C C C C"\n' in text
    assert "# a comment that is not kept" not in text


def test_configuration_and_map_documents() -> None:
    configuration = read_document(MAPS_DIR / "configurations" / "1-half-and-half.toml")
    assert isinstance(configuration, Configuration)
    assert (configuration.number, configuration.title, configuration.objective) == (1, "Half and Half", "E9")
    assert str(configuration.sw) == "dog-1 turned" and not configuration.nw.turned
    document = MapDoc(terrain=("CC", "C"), title='Say "hi"\tthere\x7f', objective="b1", roads=(("A1", "A2"),))
    text = dump(document)
    assert parse_document(text, "m.toml") == document


@pytest.mark.parametrize("number", range(1, 7))
def test_a_configuration_saved_as_a_free_map(number: int) -> None:
    board = load_configuration(number)
    document = map_document(board)
    again = map_board(parse_document(dump(document), "m.toml"))  # type: ignore[arg-type]
    full = set(board.hexes)
    assert set(again.hexes) == full and not again.half_hexes
    assert all(again.terrain(h) is board.terrain(h) for h in full)
    assert again.roads == {link for link in board.roads if link <= full}
    assert again.streams == {side for side in board.streams if side <= full}
    assert again.objective == board.objective
    assert len(document.roads) < len(again.roads)  # links are joined into longer roads
