"""Speed at the edges (issue 33), side by side: start-up, the card catalogue, a big map's first sight
line and a battle's memory, for two checkouts in one run, each figure the median of a few fresh processes
run alternately (the machine's speed drifts between runs, so only figures of one run compare).

    python tools/edge_speed.py OLD_TREE [NEW_TREE] [--rounds 3]

NEW_TREE defaults to this checkout; make an old one with `git worktree add /tmp/old-edge c456276`. Each
process runs with its tree first on PYTHONPATH, bytecode caching on (a warm-up run fills `__pycache__`,
as an installed package has it) and its own card index folder (MINIS_CACHE, filled by the warm-up).
CPU is user + system seconds of the child process, memory its peak resident set (ru_maxrss).

- `cards list`, `simulate --games 1`: the whole command, `minis ...` in a fresh interpreter;
- `menu frame / bare window`: a fresh process up to the main menu's first drawn frame (headless, as
  `benchmarks/test_bench_ui.py::test_start_to_main_menu`), against one that opens a bare arcade window;
- `catalogue load`: `card_catalogue()` alone, in-process CPU milliseconds;
- `sight, configuration 1` and `sight, 100x100 map`: `minis map los` of one pair at distance 6, on
  configuration 1 and on a 100x100 map with 15% forest (benchmarks/test_bench_los.py's map);
- `battle`: `minis play --demo --measure`, the demo battle played through its script in a hidden window.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

MENU = """
from minis.ui import boot
boot.import_arcade(headless=True)
from minis.ui.driver import Driver
driver = Driver.open()
driver.window.ctx.finish()
"""
BARE = """
from minis.ui import boot
arcade = boot.import_arcade(headless=True)
window = arcade.Window(1280, 800, "bare", visible=False)
window.clear()
window.ctx.finish()
"""
CATALOGUE = """
import time
from minis.cards import card_catalogue
start = time.process_time()
card_catalogue()
print("ms", (time.process_time() - start) * 1000)
"""


def child(tree: Path, args: list[str], cache: Path) -> tuple[float, float, str]:
    """Run `python ARGS` in `tree`: (CPU seconds, peak RSS MiB, its output)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(tree), MINIS_CACHE=str(cache), ARCADE_HEADLESS="1")
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen([sys.executable, *args], cwd=tree, env=env, stdout=out, stderr=out)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    if process.returncode != 0:
        return float("nan"), float("nan"), text
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


def measures(big_map: Path) -> dict[str, tuple[list[str], Callable[[tuple[float, float, str]], float]]]:
    """Each figure: the child's arguments, and what to take from (cpu, rss, output)."""
    cpu: Callable[[tuple[float, float, str]], float] = lambda r: r[0]  # noqa: E731
    rss: Callable[[tuple[float, float, str]], float] = lambda r: r[1]  # noqa: E731

    def printed_ms(result: tuple[float, float, str]) -> float:
        lines = [line for line in result[2].splitlines() if line.startswith("ms ")]
        return float(lines[-1].split()[1]) if lines else float("nan")

    simulate = ["simulate", "--config", "1", "--axis", "sample-axis", "--allies", "sample-allies"]
    return {
        "cards list, CPU s": (["-m", "minis", "cards", "list"], cpu),
        "cards list, MiB": (["-m", "minis", "cards", "list"], rss),
        "simulate --games 1, CPU s": (["-m", "minis", *simulate, "--games", "1", "--seed", "1"], cpu),
        "menu frame, CPU s": (["-c", MENU], cpu),
        "bare window, CPU s": (["-c", BARE], cpu),
        "catalogue load, CPU ms": (["-c", CATALOGUE], printed_ms),
        "sight, configuration 1, CPU s": (["-m", "minis", "map", "los", "1", "E8:B4"], cpu),
        "sight, configuration 1, MiB": (["-m", "minis", "map", "los", "1", "E8:B4"], rss),
        "sight, 100x100 map, CPU s": (["-m", "minis", "map", "los", str(big_map), "AX50:AR46"], cpu),
        "sight, 100x100 map, MiB": (["-m", "minis", "map", "los", str(big_map), "AX50:AR46"], rss),
        "battle (play --demo --measure), MiB": (["-m", "minis", "play", "--demo", "--measure"], rss),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the older checkout")
    parser.add_argument("new", type=Path, nargs="?", default=ROOT, help="the newer one (default: this)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="only the figures whose name contains this")
    args = parser.parse_args()
    from test_bench_los import big_map_text  # the benchmark's map, so both measure the same

    with tempfile.TemporaryDirectory() as scratch:
        big_map = Path(scratch) / "big-map.toml"
        big_map.write_text(big_map_text(), encoding="utf-8")
        trees = {"old": args.old.resolve(), "new": args.new.resolve()}
        caches = {name: Path(scratch) / f"cache-{name}" for name in trees}
        chosen = {k: v for k, v in measures(big_map).items() if not args.only or args.only in k}
        figures: dict[tuple[str, str], list[float]] = {}
        for name, tree in trees.items():  # warm-up: bytecode and the card index
            child(tree, ["-m", "minis", "cards", "list"], caches[name])
        for _ in range(args.rounds):
            for label, (argv, take) in chosen.items():
                for name, tree in trees.items():
                    result = child(tree, argv, caches[name])
                    figures.setdefault((label, name), []).append(take(result))
        print(
            f"{'':40} {'old':>9} {'new':>9} {'new/old':>8}   (medians of {args.rounds}; old: {trees['old']})"
        )
        for label in chosen:
            old = statistics.median(figures[(label, "old")])
            new = statistics.median(figures[(label, "new")])
            print(f"{label:40} {old:9.3f} {new:9.3f} {new / old:8.2f}")
        ratios = [
            ("menu frame, CPU s", "bare window, CPU s"),
            ("sight, 100x100 map, CPU s", "sight, configuration 1, CPU s"),
            ("sight, 100x100 map, MiB", "sight, configuration 1, MiB"),
        ]
        for top, bottom in ratios:
            if top in chosen and bottom in chosen:
                line = [f"{top} / {bottom}:"]
                for name in trees:
                    ratio = statistics.median(figures[(top, name)]) / statistics.median(
                        figures[(bottom, name)]
                    )
                    line.append(f"{name} {ratio:.2f}x")
                print("  ".join(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
