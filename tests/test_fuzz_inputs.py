"""The small fuzz run of every kind of user file (issue 11): no mutant may fail the checker.

A few dozen mutants of each kind (cards, armies, sections, configurations, free maps, scenarios,
records, saves, rules tests), each read through the `minis` command that reads that kind, in-process.
None may end in a traceback, run over 5 s, print a problem without `FILE:LINE:COL` (LINE >= 1), print
a control character raw, or exit with a code other than 0, 1 and 2. The mutators and the checker are in
tests/fuzzing.py; the large run is tools/fuzz_inputs.py (docs/fuzzing.md).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from fuzzing import KINDS, MUTATORS, Result, Run, Seed, all_seeds, check, fuzz_one, mutate, run_call
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

#: MINIS_FUZZ_INPUTS=500 for a longer hunt; the default keeps the file near 20 seconds.
EXAMPLES = int(os.environ.get("MINIS_FUZZ_INPUTS", "100"))


class Bench:
    """The seeds of every kind and the folder the mutants are written in; its repr is short, as
    hypothesis prints it with a failing example."""

    def __init__(self, seeds: dict[str, list[Seed]], work: Path) -> None:
        self.seeds, self.work = seeds, work

    def __repr__(self) -> str:
        return f"Bench(work={self.work})"


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    return Bench(all_seeds(tmp_path_factory.mktemp("seeds")), tmp_path_factory.mktemp("mutants"))


def report(result: Result) -> str:
    """What a failing mutant did, enough to reproduce it."""
    return (
        f"{result.kind} mutant of {result.seed} by {', '.join(result.mutators)}: {result.verdict.flags}\n"
        f"mutant starts {result.data[:300]!r}\nstderr: {result.run.err[:1000]}\n"
        f"{result.run.error or result.run.stopped}"
    )


@pytest.mark.parametrize("kind", list(KINDS))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same mutants on every run: a failure here is a defect, not a flake
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a slow mutant would be retried for minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rng=st.randoms(use_true_random=False))
def test_no_mutant_fails(kind: str, bench: Bench, rng: random.Random) -> None:
    result = fuzz_one(rng, kind, bench.seeds[kind], bench.work)
    failed = result.verdict.failed
    assert not failed, report(result)


# --- the checker and the mutators themselves ---------------------------------------------------------------


def test_checker_flags_what_issue_11_forbids(tmp_path: Path) -> None:
    path = tmp_path / "army.toml"
    good = check(Run(1, "", f"{path}:3:7: unknown card 'tigr' (hint: did you mean 'tiger'?)\n"), path)
    assert not good.failed and check(Run(0, "ok\n", ""), path).flags == ()
    crashed = check(run_call(lambda: int("x")), path)
    assert crashed.has("traceback") and "ValueError" in crashed.flags[0][1]
    slow = run_call(lambda: time.sleep(3), limit=0.2)
    assert slow.timed_out and slow.seconds < 2 and check(slow, path).has("slow")
    assert check(Run(2, "", f"{path}:0:0: values nested too deeply\n"), path).has("unpositioned")
    assert check(Run(1, "", f"{path}: 110 points: over the limit\n"), path).has("unpositioned")
    assert check(Run(1, "", ""), path).has("unpositioned")
    assert not check(Run(1, "FAIL test: expected legal\n", ""), path, needs_problem=False).failed
    assert check(Run(1, "", f"{path}:2:1: unknown card 'a\x1b[2Jb'\n"), path).has("control")
    assert check(Run(3, "", ""), path).has("exit code")


def test_mutants_are_reproducible_from_their_seed() -> None:
    data = b'name = "x"\nside = "axis"\nunits = ["a", "b"]\nyear = 1942\n'
    others = [data, b"kind = 'map'\nterrain = '''\nC C\n'''\n"]
    for number in range(200):
        first = mutate(random.Random(number), data, others)
        assert first == mutate(random.Random(number), data, others)
    for name, mutator in MUTATORS.items():
        changed = [mutator(random.Random(n), data, others[1]) != data for n in range(20)]
        assert any(changed), f"{name} never changes the file"
