"""`minis play` as a user runs it, in a fresh process with no X server (DISPLAY unset)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import PIL.Image

from minis.ui import theme

ROOT = Path(__file__).resolve().parent.parent


def minis(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")
    clean = {k: v for k, v in os.environ.items() if k not in hidden}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "minis", "play", *args],
        capture_output=True,
        text=True,
        env=clean,
        timeout=120,
        cwd=ROOT,
    )


def test_screenshot_renders_a_battle_map_without_a_display(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    result = minis("--screenshot", str(out), "--map", "4")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    image = PIL.Image.open(out).convert("RGB")
    assert image.size == (1280, 800)
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 50  # a drawn map, not an empty window
    # the selected tab is configuration 4's (the accent colour sits in the 4th of six tabs)
    tab_row = [image.getpixel((x, 14)) for x in range(0, 1280)]
    accent = tuple(theme.BUTTON_SELECTED[:3])
    xs = [x for x, colour in enumerate(tab_row) if colour == accent]
    assert xs and 740 < sum(xs) / len(xs) < 930


def test_play_without_a_display_says_what_to_do() -> None:
    result = minis()
    assert result.returncode == 1
    assert "DISPLAY" in result.stderr and "--screenshot" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unwritable_screenshot_path_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    result = minis("--screenshot", str(tmp_path / "missing" / "map.png"))
    assert result.returncode == 1
    assert "cannot write" in result.stderr and "Traceback" not in result.stderr


def test_a_broken_configuration_is_reported_with_file_line_and_column(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    shutil.copytree(ROOT / "maps", maps)
    config = next((maps / "configurations").glob("2-*.toml"))
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('ne = "', 'ne = "nonexistent-', 1), encoding="utf-8")
    result = minis("--screenshot", str(tmp_path / "map.png"), "--map", "2", env={"MINIS_MAPS": str(maps)})
    assert result.returncode in (1, 2)
    assert f"{config}:" in result.stderr or f"{config.name}:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "map.png").exists()


def test_demo_screenshot_shows_a_battle_in_progress(tmp_path: Path, arcade: Any) -> None:
    # `arcade`: the card panel's colours import arcade, which must then come up headless (the fixture)
    # for the window tests that may run after this one in the same process.
    from minis.cards import Nation
    from minis.ui.theme import NATION_FACE

    out = tmp_path / "demo.png"
    result = minis("--demo", "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    image = PIL.Image.open(out).convert("RGB")
    assert image.size == (1280, 800)
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 18)}
    # German and American counters are on the map (their nationality colours, drawn unblended)
    for nation in (Nation.GERMANY, Nation.UNITED_STATES):
        assert tuple(NATION_FACE[nation.value][:3]) in colours, nation


def test_a_broken_scenario_file_is_reported_not_a_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('kind = "scenario"\ntitle = "Broken"\nmap = 9\n', encoding="utf-8")
    result = minis("--scenario", str(broken))
    assert result.returncode in (1, 2)
    assert "broken.toml:" in result.stderr and "Traceback" not in result.stderr
