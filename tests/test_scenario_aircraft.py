"""Aircraft in scenario files: a preset aircraft starts off the map (`at = "off"`) and flies every turn;
a preset aircraft on a hex, or a ground unit "off" the map, is a FILE:LINE:COL problem; the shipped
Air cover scenario plays to its end with the invariants after every action, and its records replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from minis import record
from minis.ai.random_bot import RandomBot
from minis.army import load_army
from minis.base.errors import MinisError
from minis.dice import Dice
from minis.engine.scenario import SCENARIOS_DIR, load_scenario, start_game
from minis.state import Phase
from tests.engine_support import check_invariants

AIR_COVER = SCENARIOS_DIR / "air-cover.toml"
ARMIES = Path(__file__).resolve().parent.parent / "armies"


def _problems(tmp_path: Path, preset: str) -> str:
    text = AIR_COVER.read_text().split("[[units]]")[0] + "[[units]]\n" + preset
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    with pytest.raises(MinisError) as caught:
        load_scenario(path)
    return str(caught.value)


def test_a_preset_aircraft_on_a_hex_is_refused_with_its_line(tmp_path: Path) -> None:
    message = _problems(tmp_path, 'id = "bf"\nside = "axis"\ncard = "bf-110-c"\nat = "C5"\n')
    assert "scenario.toml:" in message and "it starts off the map" in message
    assert 'at = "off"' in message


def test_a_ground_unit_off_the_map_is_refused(tmp_path: Path) -> None:
    message = _problems(tmp_path, 'id = "mg"\nside = "axis"\ncard = "mg-42-machine-gun-team"\nat = "off"\n')
    assert "only aircraft start off the map" in message


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_air_cover_plays_to_its_end_and_its_aircraft_fly(seed: int, tmp_path: Path) -> None:
    scenario = load_scenario(AIR_COVER)
    axis = load_army(ARMIES / "sample-axis.toml")
    allies = load_army(ARMIES / "sample-allies.toml")
    game = start_game(scenario, axis, allies, dice=Dice(seed=seed))
    aircraft = {u.id for u in game.state.units.values() if u.card.is_aircraft}
    assert aircraft == {"bf-110", "wildcat"}
    assert all(game.state.units[a].hex is None for a in aircraft)  # never deployed
    bot = RandomBot(seed)
    placed = 0
    phases = set()
    while game.decider() is not None:
        events = game.apply(bot.choose(game))
        check_invariants(game)
        placed += sum(1 for e in events if e.kind == "place")
        phases.add(game.state.phase)
    assert placed > 0 and Phase.FLIGHT in phases
    path = tmp_path / "game.txt"
    record.save(game, path)
    assert record.load(path, resume=False).state.snapshot() == game.state.snapshot()
