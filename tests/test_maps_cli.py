"""`minis map show | los | check` through the command line entry point: output and exit codes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from minis.cli import main
from minis.mapfile import MAPS_DIR, load_configuration

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_terrain_prints_the_eleven_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "show", "1", "--terrain")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 11
    assert lines[0] == "A F C C F C C F H C F F C C C C C"
    assert lines[1] == "B  F C C F C C F C C F C C C C C"
    assert lines[10] == "K C C C F F C C C C H H C C C C C"
    assert out.endswith("C\n")


def test_show_draws_the_map_for_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "show", "4")
    assert code == 0
    board = load_configuration(4)
    for hex_ in board.hexes:
        assert out.count(f" {board.label(hex_)} ") + out.count(f" {board.label(hex_)}\n") >= 1
    assert "*T*" in out  # the objective H9, a town
    assert "[H]" in out and "{C}" in out  # the two deployment zones
    assert "#" in out and "~" in out and "=" in out  # bridge, stream, road
    assert "Configuration 4: Urban Combat" in out and "Terrain:" in out
    assert "\x1b[" not in out  # no colours when the output is not a terminal


def test_show_png_writes_a_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "map.png"
    code, out, _ = run(capsys, "map", "show", "2", "--png", str(target))
    assert code == 0 and str(target) in out
    with Image.open(target) as image:
        assert image.format == "PNG" and image.width > 600 and image.height > 400
        colours = {
            image.getpixel((x, y)) for x in range(0, image.width, 7) for y in range(0, image.height, 7)
        }
    assert len(colours) > 8
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left behind
    code, _, err = run(capsys, "map", "show", "2", "--png", str(tmp_path / "missing" / "map.png"))
    assert code == 2 and "cannot write the picture" in err


def test_show_a_file_or_an_unknown_number(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "map", "show", str(MAPS_DIR / "sections" / "able-1.toml"), "--terrain")
    assert code == 0 and out.splitlines()[0] == "A H C C C C C C C" and len(out.splitlines()) == 5
    free = tmp_path / "ford.toml"
    free.write_text('kind = "map"\nterrain = """\n C C\nC F C\n"""\nobjective = "B2"\n')
    code, out, _ = run(capsys, "map", "show", str(free), "--terrain")
    assert (code, out) == (0, "A  C C\nB C F C\n")
    code, out, err = run(capsys, "map", "show", "7")
    assert code == 2 and out == "" and "there is no configuration 7" in err and "1 2 3 4 5 6" in err
    code, _, err = run(capsys, "map", "show", str(tmp_path / "nope.toml"))
    assert code == 2 and "no such file" in err


def test_los(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "los", "1", "A1:C1", "e8:e10", "E9:E10")
    assert (code, err) == (0, "")
    assert out == "A1 C1 visible\nE8 E10 blocked\nE9 E10 visible\n"


def test_los_refuses_bad_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "los", "1", "A1:C1", "A1-C1")
    assert code == 2 and out == "" and "'A1-C1' is not a pair of hexes" in err
    code, out, err = run(capsys, "map", "los", "1", "A1:Z9", "B0:A1")
    assert code == 1 and out == ""
    assert "off the map" in err and "half-hex" in err
    code, _, err = run(capsys, "map", "los", "1", "A1:9Z")
    assert code == 2 and "not a hex label" in err


def test_check_the_project_maps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "check", str(MAPS_DIR))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 14 and all(line.startswith("OK ") for line in lines)
    assert any("configuration: 171 hexes, objective E9" in line for line in lines)


def test_check_reports_problems_with_places(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copytree(MAPS_DIR, tmp_path / "maps")
    section = tmp_path / "maps" / "sections" / "dog-1.toml"
    section.write_text(section.read_text().replace(" C C F C C C T", " C C Q C C C T"))
    code, out, err = run(capsys, "map", "check", str(tmp_path / "maps"))
    assert code == 1
    assert f"{section}:7:6: unknown terrain letter 'Q' (hint: " in err
    assert "cannot be used" in err  # the configurations that use dog-1 say so
    assert out.count("OK ") == 14 - 1 - 2  # dog-1, and configurations 1 and 4 that use it
    code, _, err = run(capsys, "map", "check", str(tmp_path / "maps"), str(tmp_path / "missing.toml"))
    assert code == 2 and "missing.toml:0:0: no such file" in err


def test_check_an_empty_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "map", "check", str(tmp_path))
    assert code == 1 and "no .toml map files" in err


def test_colours_paint_terrain_not_labels() -> None:
    from minis.commands.map import draw_text

    plain, coloured = draw_text(load_configuration(4)), draw_text(load_configuration(4), colour=True)
    assert len(plain) == len(coloured)
    for n, (a, b) in enumerate(zip(plain, coloured, strict=True)):
        assert re.sub(r"\x1b\[[0-9;]*m", "", b) == a
        if n % 3 == 0:
            assert "\x1b[" not in b, "hex labels such as F3 are not painted as forests"
    assert any("\x1b[32mF" in line for line in coloured)


def test_check_on_a_scenario_file_points_to_the_editor_s_check(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13: not "unknown kind 'scenario'", but what the file is and the command that checks it."""
    path = Path(__file__).parent.parent / "scenarios" / "breakout.toml"
    code, out, err = run(capsys, "map", "check", str(path))
    assert code == 1 and out == ""
    line = next(n for n, text in enumerate(path.read_text().split("\n"), 1) if text.startswith("kind"))
    assert err.strip() == (
        f"{path}:{line}:8: this is a scenario file, not a map: check it with `minis edit --check {path}`"
    )
