"""`minis cards list` and `minis cards show` through the command line's main()."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis.base.sides import Side
from minis.cards import Nation, card_catalogue
from minis.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_prints_one_aligned_line_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "list")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert len(lines) == len(card_catalogue()) == 473
    sherman = next(line for line in lines if line.startswith("m4a1-sherman "))
    assert sherman.split() == ["m4a1-sherman", "M4A1", "Sherman", "Allies", "21"]
    assert not any("needs:" in line for line in lines)  # every card plays since aircraft (issue 19)
    # the columns line up: every name starts at the same position, every line has the same width
    name_column = {
        line.index(card.name)
        for card in card_catalogue().values()
        for line in lines
        if line.startswith(card.id + " ")
    }
    assert len(name_column) == 1
    assert len({len(line) for line in lines if "needs:" not in line}) == 1


def test_list_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "list", "--side", "axis")
    ids = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and "tiger-i" in ids and "m4a1-sherman" not in ids
    cards = card_catalogue()
    assert all(cards[i].serves(Side.AXIS) for i in ids) and "headquarters" in ids  # no nation: either side
    _, out, _ = run(capsys, "cards", "list", "--nation", "USSR")
    ids = sorted(line.split()[0] for line in out.splitlines())
    assert {"commissar", "kv-1", "mosin-nagant-1891-30", "t-34-76"} <= set(ids)
    assert ids == sorted(i for i, card in cards.items() if card.nation is Nation.SOVIET_UNION)
    _, out, _ = run(capsys, "cards", "list", "--nation", "united states", "--year", "1941")
    ids = [line.split()[0] for line in out.splitlines()]
    assert "jeep" in ids and "m4a1-sherman" not in ids and "bazooka" not in ids


def test_list_refuses_an_unknown_nation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "list", "--nation", "Germny"]) == 1
    assert "unknown nation 'Germny' (hint: did you mean 'Germany'?)" in capsys.readouterr().err


def test_show_prints_the_whole_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "show", "red-devil-captain")
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith('"Red Devil" Captain') and out.splitlines()[0].endswith("7 points")
    assert "United States (Allies)  Soldier - Commander  1942" in out
    assert "Speed 1    Defense 4" in out
    grid = {line.split()[1]: line.split()[2:] for line in out.splitlines() if line.strip().startswith("vs ")}
    assert grid == {"Soldiers": ["8", "6", "-"], "Vehicles": ["2", "-", "-"]}
    assert "Close Assault 7: Against a Vehicle in its own hex" in out
    assert "Commander: Initiative +2 (commander)" in out
    assert "Pinpointer (commander)" in out


def test_show_vehicle_defense_and_name_lookup(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "show", "M4A1 Sherman")
    assert code == 0
    assert "Defense 5/4  (front/rear)" in out
    assert "Special abilities: none" in out


def test_show_unknown_card_suggests_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "show", "m4a1-shermann")
    assert code == 1 and out == ""
    assert err.strip() == "unknown card 'm4a1-shermann' (did you mean 'm4a1-sherman'?)"


def test_a_broken_card_folder_reports_problems_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.toml").write_text('name = "x"\nspeed = "fast"\n', encoding="utf-8")
    code, out, err = run(capsys, "cards", "list", "--cards", str(tmp_path))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert any(line.startswith(f"{tmp_path / 'bad.toml'}:2:1: 'speed' must be an integer") for line in lines)
    assert "Traceback" not in err
