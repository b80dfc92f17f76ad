"""Start-up (issue 33): `minis cards list` and `minis simulate --games 1` in a fresh interpreter, and the
card catalogue read from its 473 files against read through its index (`minis.content.card_index`).

`tools/edge_speed.py OLD` measures the same side by side with older code in one run (CPU and memory);
the figures are in docs/engine.md, "Speed".

Run: `.venv/bin/python -m pytest benchmarks/test_bench_startup.py --benchmark-only -q`
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from minis.cards import cards_folder, load_cards
from minis.content import card_index

ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ["simulate", "--config", "1", "--axis", "sample-axis", "--allies", "sample-allies", "--seed", "1"]


@pytest.mark.parametrize(
    "command", [["cards", "list"], [*SIMULATE, "--games", "1"]], ids=["cards", "simulate"]
)
def test_bench_command_start(benchmark: Any, command: list[str], tmp_path: Path) -> None:
    """A fresh `python -m minis COMMAND` (bytecode cached; the card index made by a first run)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["MINIS_CACHE"] = str(tmp_path)

    def run() -> None:
        subprocess.run(
            [sys.executable, "-m", "minis", *command], check=True, capture_output=True, cwd=ROOT, env=env
        )

    run()
    benchmark.pedantic(run, rounds=5, iterations=1)


@pytest.mark.parametrize("index", [False, True], ids=["card files", "index"])
def test_bench_catalogue_load(benchmark: Any, index: bool, tmp_path: Path, monkeypatch: Any) -> None:
    """The 473 shipped cards: every file parsed, or taken from a current index (stamps checked)."""
    monkeypatch.setenv("MINIS_CACHE", str(tmp_path))
    path = card_index.index_file(cards_folder(), "cards") if index else None
    first = load_cards(cards_folder(), path)
    cards = benchmark.pedantic(load_cards, args=(cards_folder(), path), rounds=5, iterations=1)
    assert cards == first and len(cards) > 400
