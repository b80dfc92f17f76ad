"""Boards from the project's map files: the six configurations by number, or any section, configuration
or map file (the command line's N). Boards are cached until their files change."""

from __future__ import annotations

import functools
import os
import tomllib
from pathlib import Path

from minis.base.data import shipped_folder
from minis.base.errors import EXIT_UNREADABLE, MinisError, Problem
from minis.base.paths import files_in, is_file
from minis.base.tomlfile import TomlLayout
from minis.board import Board
from minis.mapfile.assembly import assemble, section_board
from minis.mapfile.documents import Configuration, MapDoc, Section
from minis.mapfile.freemap import map_board
from minis.mapfile.labels import entry_spot
from minis.mapfile.reading import file_stamp, parse_document, read_document, sections_for
from minis.mapfile.syntax import Where, read_text

#: Where the shipped maps live (minis.base.data); MINIS_MAPS overrides it (experiments, tests).
MAPS_DIR = Path(os.environ.get("MINIS_MAPS") or shipped_folder("maps"))


def configuration_path(number: int) -> Path:
    """The file of configuration `number` in MAPS_DIR (named `N-title.toml`)."""
    folder = MAPS_DIR / "configurations"
    found = files_in(folder, f"{number}-*.toml")
    if len(found) != 1:
        known = sorted(p.name.split("-")[0] for p in files_in(folder))
        message = (
            f"there is no configuration {number}"
            if not found
            else f"configuration {number} has {len(found)} files"
        )
        raise MinisError(
            Problem(str(folder), 0, 0, message, f"known: {' '.join(known)}" if known else ""),
            exit_code=EXIT_UNREADABLE,
        )
    return found[0]


def configuration_board(path: Path | str) -> Board:
    """Read a configuration file and its sections, and assemble the battle map."""
    path = Path(path)
    text = read_text(path)
    document = parse_document(text, str(path), expected="configuration")
    assert isinstance(document, Configuration)
    where = Where(str(path), TomlLayout.scan(text))
    sections = sections_for(document.placements(), path.parent.parent / "sections", where)
    where.raise_if_any()
    data = tomllib.loads(text)
    spots = {key: entry_spot(data, key, where) for key in ("roads", "streams")}
    title = document.title
    name = f"Configuration {document.number}: {title}" if document.number else title
    return assemble(document, sections, where=where, spots=spots, name=name)


@functools.lru_cache(maxsize=32)
def _cached_board(path: str, stamps: tuple[tuple[str, tuple[int, int]], ...]) -> Board:
    return configuration_board(path)


def load_configuration(number_or_path: int | str | Path) -> Board:
    """Configuration 1-6 by number (from MAPS_DIR), or a configuration file, assembled into a Board.

    Boards are cached until the configuration file or a file of its sections folder changes.
    """
    path = configuration_path(number_or_path) if isinstance(number_or_path, int) else Path(number_or_path)
    if not is_file(path):
        read_text(path)  # raises the unreadable-file error
    files = files_in(path.parent.parent / "sections")
    stamps = tuple((str(f), file_stamp(f)) for f in [path, *files])
    return _cached_board(str(path), stamps)


def load_map(path: Path | str) -> Board:
    """A free map file as a Board."""
    document = read_document(path, expected="map")
    assert isinstance(document, MapDoc)
    return map_board(document, source=str(path))


def load_board(spec: int | str | Path) -> Board:
    """A configuration number, or a section, configuration or map file, as a Board (the CLI's N)."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return load_configuration(int(spec))
    document = read_document(spec)
    if isinstance(document, Configuration):
        return load_configuration(spec)
    if isinstance(document, Section):
        return section_board(document)
    return map_board(document, source=str(spec))


def check_file(path: Path | str) -> tuple[str, Board | None]:
    """Validate one file completely (a configuration with its sections); returns its kind and board."""
    document = read_document(path)
    if isinstance(document, Section):
        return "section", section_board(document)
    if isinstance(document, Configuration):
        return "configuration", configuration_board(path)
    return "map", load_map(path)
