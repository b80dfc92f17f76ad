"""Where minis finds the files it ships and where it keeps a player's own files.

The shipped data (stat cards, maps, scenarios, the sample armies, the lab's studies and the card-values
table the computer builds its armies with) live at the top of the repository, where designers browse and
edit them. A built wheel carries copies of those folders inside the package
as `minis/_data/` (the build step in `setup.py`), read through `importlib.resources`; a checkout or an
editable install (`pip install -e .`) has no `_data` and reads the repository's folders directly.

A player's files (saves, armies) never go into the installed package: they go to a user folder,
`$XDG_DATA_HOME/minis/KIND` (by default `~/.local/share/minis/KIND`), or where an environment variable
says (docs/playing.md, "Where files live").
"""

from __future__ import annotations

import os
import shutil
from importlib import resources
from pathlib import Path

from minis.base.paths import exists, files_in, is_dir, is_file, resolved

#: The folders of shipped data, at the top of the repository and under `minis/_data/` in a wheel.
#: setup.py reads this and PACKAGED as literals (minis cannot be imported while the wheel is built).
SHIPPED = ("cards", "maps", "scenarios", "armies", "studies")
#: The shipped data's folder inside the installed package.
PACKAGED = "_data"


def package_folder() -> Path:
    """The folder of the `minis` package (installed or in a checkout), links followed."""
    root = resources.files("minis")
    # a package installed as files (what pip does) answers with a Path; a zipped one cannot be played
    return resolved(root) if isinstance(root, Path) else resolved(Path(__file__).parent.parent)


def packaged_data() -> Path | None:
    """`minis/_data` of an installed wheel, or None in a checkout or an editable install."""
    folder = package_folder() / PACKAGED
    return folder if is_dir(folder) else None


def shipped_folder(name: str) -> Path:
    """The shipped folder `name` (one of SHIPPED): the wheel's copy, else the repository's own."""
    if name not in SHIPPED:
        raise ValueError(f"{name!r} is not a shipped folder (one of {', '.join(SHIPPED)})")
    packaged = packaged_data()
    return packaged / name if packaged is not None else package_folder().parent / name


def shipped_file(path: str | Path, kind: str) -> Path:
    """`path`, or the shipped file it names: a bare name that is no file here (`sample-axis`,
    `breakout`) means `NAME.toml` in the shipped folder `kind`, so it works from any folder."""
    path = Path(path)
    if path.suffix or path.parent != Path(".") or exists(path):
        return path
    candidate = shipped_folder(kind) / f"{path}.toml"
    return candidate if is_file(candidate) else path


def in_packaged_data(path: str | Path) -> bool:
    """True when `path` is inside an installed wheel's shipped data, which is never written to."""
    packaged = packaged_data()
    return packaged is not None and resolved(path).is_relative_to(packaged)


def user_folder(kind: str, variable: str) -> Path:
    """Where a player's files of one kind go: $`variable` if set, else $XDG_DATA_HOME/minis/`kind`,
    else ~/.local/share/minis/`kind` (not created here: the first save creates it)."""
    explicit = os.environ.get(variable)
    if explicit:
        return Path(explicit).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "minis" / kind


def user_armies() -> Path:
    """The player's own army files ($MINIS_ARMIES, else the user folder's `armies`), made on first use
    with a copy of the sample armies, so that the army builder's dialogs show them too. OSError when
    the folder can't be made."""
    folder = user_folder("armies", "MINIS_ARMIES")
    if not is_dir(folder):
        folder.mkdir(parents=True, exist_ok=True)
        for sample in files_in(shipped_folder("armies")):
            shutil.copyfile(sample, folder / sample.name)
    return folder
