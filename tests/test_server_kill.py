"""Nothing acknowledged is lost: the server is killed with SIGKILL at random moments of a battle
between two `minis bot` processes and started again on the same data and port; the bots reconnect and
finish, and with the test-only server seed and seeded bots the record is the uninterrupted battle's,
no decision lost or played twice (issue 34). 3 kills here; 20 with --slow."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers_server import ServerProcess, environment, minis_command, stop_all, time_limit

SEED = 9


def new_battle(server: ServerProcess, turns: int) -> str:
    result = subprocess.run(
        minis_command("net", "new", server.url, "--config", "1", "--turn-limit", str(turns)),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("code=") and lines[-2].startswith("spectate=")
    return lines[-1].removeprefix("code=")


def bots(server: ServerProcess, code: str, pause: float) -> list[subprocess.Popen[str]]:
    """The two seats' bots; each thinks `pause` seconds a decision (on average), so that a battle
    lasts through its kills however fast the server is."""
    return [
        subprocess.Popen(
            minis_command(
                "bot",
                server.url,
                code,
                "--side",
                side,
                "--strength",
                "random",
                "--seed",
                str(seed),
                "--pause",
                str(pause),
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        for side, seed in (("axis", 1), ("allies", 2))
    ]


def finish(players: list[subprocess.Popen[str]], timeout: float) -> list[str]:
    results = []
    for player in players:
        out, err = player.communicate(timeout=timeout)
        assert player.returncode == 0, err[-3000:]
        assert "Traceback" not in err
        results.append(out.strip().splitlines()[-1])
    return results


def record_of(server: ServerProcess, code: str, path: Path) -> str:
    result = subprocess.run(
        minis_command("net", "record", server.url, code, str(path)),
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return path.read_text()


def battle(data: Path, kills: int, rng: random.Random, turns: int) -> tuple[str, list[str], int]:
    """One battle, the server killed `kills` times: its record, the bots' last lines, kills done."""
    data.mkdir()
    server = ServerProcess(data, SEED)
    players: list[subprocess.Popen[str]] = []
    done = 0
    try:
        server.start()
        code = new_battle(server, turns)
        players = bots(server, code, pause=0.05 if kills > 3 else 0.0)  # the long run outlasts its kills
        if kills:  # the first kill may come while the seats are taken and the armies sent
            time.sleep(rng.uniform(0.3, 1.5))
        while done < kills and all(p.poll() is None for p in players):
            time.sleep(rng.uniform(0.05, 0.5))
            if any(p.poll() is not None for p in players):
                break
            server.kill()
            done += 1
            time.sleep(rng.uniform(0.0, 0.5))
            server.start_again()
        lines = finish(players, timeout=90)
        text = record_of(server, code, data / "battle.rec")
    finally:
        stop_all(players, server)
    log = server.log()
    assert "Traceback" not in log, log[-3000:]
    return text, lines, done


@pytest.mark.parametrize(("kills", "turns"), [(3, 4), pytest.param(20, 30, marks=pytest.mark.slow)])
def test_a_battle_survives_kill_9(tmp_path: Path, kills: int, turns: int) -> None:
    with time_limit(900 if kills > 3 else 300):
        calm, calm_lines, _ = battle(tmp_path / "calm", 0, random.Random(0), turns)
        rough, rough_lines, done = battle(tmp_path / "rough", kills, random.Random(kills), turns)
    assert done == kills, f"only {done} kills before the battle ended"
    assert rough_lines == calm_lines and calm_lines[0].startswith("winner=")
    assert rough == calm  # the same decisions, the same dice: none lost, none played twice
    assert len(calm.splitlines()) > 40
