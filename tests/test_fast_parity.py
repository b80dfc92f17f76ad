"""The compiled fast build plays die for die as the pure sources (minis/base/fast.py, docs/engine.md).

Skipped when there is no fast build from these sources: `make fast`, then
`pytest tests/test_fast_parity.py`. The same script (`tools/fast_parity.py`) runs twice, in a process
on the pure sources (`MINIS_FAST=0`) and in one on the fast build (`MINIS_FAST=1`): seeded random and
heuristic games (the digest of every record, event by event), seeded search playouts (their values,
to the last bit), a few search decisions and every rules-test file's outcome. Each process first
checks which build it runs: every module of `minis.base.fast.COMPILED` an extension module in the fast one,
a `.py` file in the pure one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minis.base import fast

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "fast_parity.py"


def _play(build: str) -> dict[str, object]:
    env = dict(os.environ, MINIS_FAST=build, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "stale" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    assert isinstance(result, dict)
    return result


@pytest.mark.skipif(
    fast.usable() is not None,
    reason=f"{fast.usable()}: run `make fast` to build the fast build, then this test compares it",
)
def test_fast_build_plays_as_the_pure_sources() -> None:
    pure, compiled = _play("0"), _play("1")
    assert pure.pop("build") == pure.pop("worker_build") == "pure"
    assert compiled.pop("build") == compiled.pop("worker_build") == "fast"  # the search's workers too
    assert compiled.pop("compiled") == sorted(fast.COMPILED)
    assert pure.pop("compiled") == []
    failed = {name: why for name, why in compiled["rules"].items() if why != pure["rules"].get(name)}
    assert not failed, f"{len(failed)} rules-test files go otherwise on the fast build: {failed}"
    failed_values = [name for name, held in compiled["values"].items() if held is not True]
    assert not failed_values, f"the engine's values do otherwise on the fast build: {failed_values}"
    assert pure == compiled


def test_the_parity_script_knows_its_build_when_the_fast_build_is_off() -> None:
    """The script runs (and reports the pure build) with or without a fast build: the skipped test's
    script cannot rot unseen."""
    env = dict(os.environ, MINIS_FAST="0", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["build"] == result["worker_build"] == "pure" and result["compiled"] == []
    assert len(result["random"]) == 1 and len(result["search"]) > 0
    assert len(result["rules"]) >= 20 and set(result["rules"].values()) == {"passed"}
    failed = [name for name, held in result["values"].items() if held is not True]
    assert not failed, f"the engine's values do otherwise on the pure build: {failed}"
