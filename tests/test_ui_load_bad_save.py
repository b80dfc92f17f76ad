"""The Load game dialog and a save it can't load (issue 33): choosing it shows the file's problem in the
dialog, which stays open, instead of an exception that closes the window. Driven through input events
in a headless window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minis import record
from minis.game import Game


def _save_of_2010(tmp_path: Path) -> str:
    """A save's text from a demo game, its header naming the 2010 set."""
    from minis.content.rule_sets import NAMED
    from minis.ui.demo import demo_game

    game: Game = demo_game()
    game.header["rules"] = NAMED["2010"].name
    path = tmp_path / "good.minis"
    record.save(game, path)
    text = path.read_text(encoding="utf-8")
    path.unlink()
    return text


def _choose(driver: Any, arcade: Any, folder: Path, name: str) -> Any:
    """The main menu's Load game dialog on `folder`, with `name` clicked: the dialog afterwards."""
    from minis.ui.filedialog import FileDialog
    from minis.ui.gamefiles import open_load_dialog

    open_load_dialog(driver.window, folder)
    driver.frame()
    dialog = driver.screen
    assert isinstance(dialog, FileDialog)
    names = dialog.files.items
    driver.click_box(dialog.files.row_box(names.index(name)))
    driver.frame()
    return dialog


def test_a_save_naming_its_rule_set_with_a_number_shows_why_in_the_load_dialog(
    driver: Any, arcade: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    text = _save_of_2010(tmp_path)
    assert 'rules = "2010"\n' in text
    bad = folder / "numbered.minis"
    bad.write_text(text.replace('rules = "2010"\n', "rules = 2010\n"), encoding="utf-8")
    dialog = _choose(driver, arcade, folder, "numbered.minis")
    assert driver.screen is dialog  # still open: nothing was loaded
    line = text.split("\n").index('rules = "2010"') + 1
    assert dialog.message.text.startswith(
        f"{bad}:{line}:1: 'rules' is the name of a rule set in quotes, not the integer 2010"
    )
    details = dict(zip(dialog.files.items, dialog.files.details, strict=True))
    assert details["numbered.minis"].startswith("cannot be read · ")
    driver.screenshot(tmp_path / "load-bad-save.png")


def test_a_save_that_fails_where_no_check_reaches_still_gets_a_message(
    driver: Any, arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should a mistake slip past every check of the file (a bug), the dialog says the file can't be
    loaded and stays open: the window does not close on it."""
    from minis.ui import session

    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "odd.minis"
    path.write_text(_save_of_2010(tmp_path), encoding="utf-8")

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise TypeError("'int' object is not iterable")

    monkeypatch.setattr(session.record, "replay_record", broken)
    dialog = _choose(driver, arcade, folder, "odd.minis")
    assert driver.screen is dialog
    assert (
        dialog.message.text == f"{path}:1:1: this file can't be loaded: it is not a save this game can read"
    )
