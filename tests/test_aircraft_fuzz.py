"""Random play with aircraft on both sides (issue 19): invariants after every action, records replaying.

Each side's army is drawn from the card catalogue around the air game: one to three aircraft, ground
units with Antiair, a Spotter, a unit with Bombardment, the rest any card of the side, within 100
points and 15 units. Games cycle through the six configurations, played by the random bot (a few of
its reaction shots and airstrikes made eager, so the air rules are met often). After every action the
engine's invariants hold (`engine_support.check_invariants`) and those of the air: at most one
aircraft a hex, none over the map in a movement phase or after the turn's end, none placed while
disrupted, none in `state.at`/`occupancy`, none faced, carried or damaged. At the end the record
replays to the identical state. MINIS_AIR_FUZZ_GAMES sets how many games (default 200: under a
minute; the issue's run is 500 or more). Also: heuristic against random to the end on each
configuration, and one search game with a short budget.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from engine_support import check_invariants

from minis.ai.bot import play_out
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.ai.search import SearchBot
from minis.army import Army, validate_army
from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine.ability_loader import standard_abilities
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules import air
from minis.state import Phase, Stage

GAMES = int(os.environ.get("MINIS_AIR_FUZZ_GAMES", "200"))
POINTS = 100
MAX_UNITS = 15
TURNS = 8

USED: Counter[str] = Counter()


def _side_cards(side: Side) -> list[StatCard]:
    playable = standard_abilities().playable
    return sorted(
        (c for c in card_catalogue().values() if c.serves(side) and playable(c)), key=lambda c: c.id
    )


def air_army(rng: random.Random, side: Side) -> Army:
    """A legal army of `side` with aircraft and the ground cards that deal with them (see the module)."""
    cards = _side_cards(side)
    aircraft = [c for c in cards if c.is_aircraft]
    antiair = [c for c in cards if not c.is_aircraft and (c.has("antiair") or c.has("antiair-support"))]
    spotters = [c for c in cards if c.has("spotter")]
    bombard = [c for c in cards if c.has("bombardment")]
    ground = [c for c in cards if not c.is_aircraft]
    for _ in range(50):
        wanted = rng.sample(aircraft, rng.randint(1, 3)) + rng.sample(antiair, rng.randint(1, 2))
        wanted += [rng.choice(spotters)] if spotters and rng.random() < 0.7 else []
        wanted += [rng.choice(bombard)] if bombard and rng.random() < 0.7 else []
        units: list[str] = []
        total = 0.0
        for card in wanted:
            if total + card.cost <= POINTS and len(units) < MAX_UNITS:
                units.append(card.id)
                total += card.cost
        for _ in range(40):
            card = rng.choice(ground)
            if total + card.cost <= POINTS and len(units) < MAX_UNITS:
                units.append(card.id)
                total += card.cost
        army = Army(f"air {side.value}", side, units=tuple(units))
        if any(card_catalogue()[u].is_aircraft for u in units) and not validate_army(army, card_catalogue()):
            return army
    raise AssertionError(f"no {side.value} army with aircraft could be drawn")


def air_invariants(game: Game) -> None:
    """What must hold of aircraft after every action."""
    state = game.state
    flying = [u for u in state.units.values() if u.card.is_aircraft and u.hex is not None]
    hexes = [u.hex for u in flying]
    assert len(hexes) == len(set(hexes)), f"two aircraft over one hex: {hexes}"
    if state.phase not in (*air.AIR_PHASES, Phase.ASSAULT, Phase.CASUALTY) or state.stage is Stage.OVER:
        assert not flying, f"aircraft over the map in {state.phase} ({state.stage}): {[u.id for u in flying]}"
    grounded = air.grounded(state)
    for u in flying:
        assert not u.removed and u.facing is None and u.carried_by is None and not u.damaged, u
        assert u not in state.at(u.hex), f"{u.id} counted in state.at"
        assert state.phase is not Phase.FLIGHT or u.id in state.activated or u.side is not state.active
        if u.disrupted:  # only a reaction shot, or the casualty phase turning its counter face up
            assert u.id in grounded or state.phase is Phase.CASUALTY, f"{u.id} flies disrupted"
    assert all(not u.card.is_aircraft for units in state.occupancy().values() for u in units)
    for u in state.units.values():
        if u.card.is_aircraft:
            assert u.carried_by is None and not u.damaged, u


def check_all(game: Game) -> None:
    check_invariants(game)
    air_invariants(game)


class AirEagerBot(RandomBot):
    """The random bot, firing every reaction shot it may half the time, and in the assault phase often
    attacking an enemy aircraft over the map when one of its units may (random play seldom does)."""

    def choose(self, game: Game) -> A.Action:
        state = game.state
        if state.stage is Stage.REACTION and self.rng.random() < 0.5:
            fire = [a for a in game.legal_actions() if isinstance(a, A.Fire)]
            if fire:
                return self.rng.choice(fire)
        if state.stage is Stage.ACT and state.phase is Phase.ASSAULT and self.rng.random() < 0.5:
            targets = [u.id for u in state.units.values() if u.card.is_aircraft and u.on_map]
            shots = [
                A.Attack(uid, t)
                for uid in game.ready_units()
                for t in targets
                if uid not in state.activated and game.can_attack(uid, t)
            ]
            if shots:
                return self.rng.choice(shots)
        action = super().choose(game)
        if isinstance(action, A.Place):  # never a disrupted aircraft: the engine refuses it
            assert not state.units[action.unit].disrupted
        return action


def _new_game(seed: int) -> Game:
    rng = random.Random(seed)
    axis, allies = air_army(rng, Side.AXIS), air_army(rng, Side.ALLIES)
    return Game.new(axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=TURNS)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_with_aircraft_keep_the_invariants_and_replay(seed: int) -> None:
    game = _new_game(seed)
    bot = AirEagerBot(seed)
    rng = random.Random(seed)
    check_all(game)
    while game.decider() is not None:
        stage = game.state.stage
        if stage is Stage.REACTION or (stage is Stage.ACT and game.state.phase in air.AIR_PHASES):
            listed = game.legal_actions()  # short: an air phase's or a reaction window's actions
            assert listed
            for action in rng.sample(listed, min(2, len(listed))):
                assert game.is_legal(action) is None, game.format(action)
        game.apply(bot.choose(game))
        check_all(game)
    assert game.over
    for entry in game.record:
        if entry.action:
            USED[entry.action.split()[0]] += 1
    replayed = replay_record(parse_record(record_text(game)))
    assert replayed.state.snapshot() == game.state.snapshot(), f"seed {seed}: replay differs"


def test_the_random_games_fly_strike_and_react() -> None:
    """The games above meet the air rules (placements, reaction shots) at all; run after them."""
    if sum(USED.values()) == 0:
        pytest.skip("run with the random games")
    assert USED["place"] > 0 and USED["fire"] > 0 and USED["attack"] > 0, USED


@pytest.mark.parametrize("configuration", range(1, 7))
def test_heuristic_against_random_with_aircraft(configuration: int) -> None:
    axis, allies = _armies(100 + configuration)
    game = Game.new(
        axis, allies, configuration=configuration, dice=Dice(seed=configuration), turn_limit=TURNS
    )
    side = Side.AXIS if configuration % 2 else Side.ALLIES
    bots = {side: HeuristicBot(configuration), side.other: RandomBot(configuration)}
    play_out(game, bots, seeds=random.Random(configuration), after=check_all)
    assert game.over
    flown = [e.action.split()[1] for e in game.record if e.action and e.action.startswith("place ")]
    assert any(game.state.units[u].side is side for u in flown), "the heuristic never flew"


def _armies(seed: int) -> tuple[Army, Army]:
    rng = random.Random(seed)
    return air_army(rng, Side.AXIS), air_army(rng, Side.ALLIES)


def test_search_plays_a_game_with_aircraft_to_its_end() -> None:
    axis, allies = _armies(7)
    game = Game.new(axis, allies, configuration=3, dice=Dice(seed=7), turn_limit=3)
    with SearchBot(7, budget=10.0, workers=0, max_playouts=2) as search:  # playouts, not time, bound it
        play_out(
            game, {Side.AXIS: search, Side.ALLIES: HeuristicBot(8)}, seeds=random.Random(7), after=check_all
        )
    assert game.over
    assert search.playouts > 0
