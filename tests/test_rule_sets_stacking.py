"""Stacking under every rule set, and the overstack penalty (rule-editions.md rows 8-9).

The rules tests in tests/rules/rule-sets/stacking-*.toml play each option in both states; these check
the pieces around them: the limits a position may start with, the one-unit allowance as an invariant,
the rulebook's fast counting against the general one, the penalty's decisions (order, notation,
decider, the bots' choices) and random games under each named set that keep the invariants and replay.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.base.sides import Side
from minis.board import Board
from minis.content.rule_sets import EACH_MOVE, NAMED, RULEBOOK, RuleSet, with_options
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine import queries
from minis.game import Game
from minis.record import parse_record, record_text, replay_record
from minis.rules import overstack, stacking
from minis.state import Counter, Phase, Stage, Unit
from tests.engine_support import board, check_invariants, random_army, unit

BOARD = """
C C C C C
 C C C C
C C C C C
"""


def _rifles(b: Board, where: str, count: int, first: int = 1) -> list[Unit]:
    """`count` Allied Soldiers in `where`, called al<first>, al<first + 1>, ..."""
    return [unit(b, f"al{i}", "smle-no-4-rifleman", "allies", where) for i in range(first, first + count)]


def _game(rules: RuleSet, make: Callable[[Board], list[Unit]], phase: str = "movement") -> Game:
    """A position on BOARD under `rules`; `make(b)` gives its units."""
    b = board(BOARD)
    units = make(b)
    return Game.from_position(
        b, units, phase=Phase(phase), active=Side.ALLIES, first=Side.ALLIES, turn=1, rules=rules
    )


def _axis_far(b: Board) -> list[Unit]:
    """An Axis Soldier out of the way (disrupted: it opens no defensive-fire decision)."""
    return [unit(b, "mauser", "mauser-kar-98k", "axis", "C5", status=("disrupted",))]


# --- the limits a position may start with ---------------------------------------------------------------


def test_a_position_may_hold_three_of_an_army_only_where_the_set_allows() -> None:
    three = lambda b: [*_rifles(b, "B2", 3), *_axis_far(b)]  # noqa: E731
    with pytest.raises(ValueError, match="stacking"):
        _game(RULEBOOK, three)
    game = _game(NAMED["2010"], three)
    assert stacking.overstacked(game.state) == []
    with pytest.raises(ValueError, match="stacking"):
        _game(NAMED["2010"], lambda b: [*_rifles(b, "B2", 4), *_axis_far(b)])


def test_vehicles_of_two_armies_share_a_hex_only_under_the_per_army_scope() -> None:
    def two(b: Board) -> list[Unit]:
        return [
            unit(b, "sherman", "m4a1-sherman", "allies", "B2"),
            unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B2", facing="W"),
        ]

    for name in ("2005", "2009", "2010"):
        with pytest.raises(ValueError, match="stacking"):
            _game(NAMED[name], two)
    assert stacking.overstacked(_game(NAMED["2008"], two).state) == []


def test_one_extra_unit_is_within_the_allowance_and_two_are_not() -> None:
    game = _game(
        NAMED["2010"], lambda b: [*_rifles(b, "B2", 3), *_rifles(b, "A2", 2, first=4), *_axis_far(b)]
    )
    b2 = game.state.battle.board.parse("B2")  # type: ignore[union-attr]
    mover = game.state.units["al4"]
    assert stacking.room_for(game.state, mover, b2) and not stacking.fits(game.state, mover, b2)
    game.apply("move al4 B2")
    state = game.state
    assert stacking.overstacked(state) == [b2]
    assert stacking.beyond_allowance(state) == []
    assert game.is_legal("move al5 B2") is not None  # the hex is already over the limit
    # Under a set that checks each move the same hex would break the invariant at once.
    strict = with_options(NAMED["2010"], {"stacking_checked": EACH_MOVE})
    state.battle = attrs.evolve(state.battle, terms=attrs.evolve(state.terms, rules=strict))
    assert stacking.beyond_allowance(state) == [b2]


def _three_and_two(b: Board) -> list[Unit]:
    """Three Allied Soldiers in B2, and two more beside it (A2, A3) that can step in."""
    return [*_rifles(b, "B2", 3), *_rifles(b, "A2", 1, first=4), *_rifles(b, "A3", 1, first=5), *_axis_far(b)]


def test_2008_sets_no_cap_while_moving_and_only_the_end_of_the_half_phase_counts() -> None:
    game = _game(NAMED["2008"], _three_and_two)
    b2 = game.state.battle.board.parse("B2")  # type: ignore[union-attr]
    game.apply("move al4 B2")
    game.apply("move al5 B2")  # two over the limit: allowed while the Allies move
    state = game.state
    assert stacking.overstacked(state) == [b2] and stacking.beyond_allowance(state) == []
    assert stacking.hexes_broken_by(state, Side.ALLIES) == [b2]
    # 2009 keeps its one extra unit: the same second move is refused, saying why
    capped = _game(NAMED["2009"], _three_and_two)
    capped.apply("move al4 B2")
    refused = capped.is_legal("move al5 B2")
    assert refused is not None and "at most three units of an army may be in a hex" in refused
    assert refused.endswith("(B2 is over the limit already) (stacking limit)")


def test_a_custom_cap_while_moving_counts_the_units_over_the_limit() -> None:
    """`overstack_while_moving = 2`: a hex may be two units over, not three (`stacking._excess`)."""
    two = with_options(NAMED["2010"], {"overstack_while_moving": 2})
    game = _game(
        two,
        lambda b: [
            *_rifles(b, "B2", 3),
            *_rifles(b, "A2", 1, first=4),
            *_rifles(b, "A3", 1, first=5),
            *_rifles(b, "B1", 1, first=6),
            *_axis_far(b),
        ],
    )
    game.apply("move al4 B2")
    game.apply("move al5 B2")
    assert stacking.beyond_allowance(game.state) == []
    refused = game.is_legal("move al6 B2")
    assert refused is not None and "(B2 is over the limit already)" in refused
    state = game.state
    state.battle = attrs.evolve(state.battle, terms=attrs.evolve(state.terms, rules=NAMED["2009"]))
    assert stacking.beyond_allowance(state) == [state.battle.board.parse("B2")]  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "moves"), [("2010", 1), ("2009", 1), ("2008", 2)])
def test_the_warning_comes_as_soon_as_a_move_leaves_a_hex_over_the_limit(name: str, moves: int) -> None:
    game = _game(NAMED[name], _three_and_two)
    b2 = game.state.battle.board.parse("B2")  # type: ignore[union-attr]
    assert queries.stacking_warning(game.state, b2) is None  # three: within the limit
    for mover in ("al4", "al5")[:moves]:
        game.apply(f"move {mover} B2")
    assert queries.stacking_warning(game.state, b2) == (
        "B2 is over the stacking limit (three units of an army): if it still is when you pass, a unit of"
        " yours there takes a hit."
    )
    a2 = game.state.battle.board.parse("A2")  # type: ignore[union-attr]
    assert queries.stacking_warning(game.state, a2) is None


def test_the_warning_names_the_vehicle_rule_and_never_comes_under_2005() -> None:
    def tanks(b: Board) -> list[Unit]:
        return [
            unit(b, "panzer", "panzer-iv-ausf-g", "axis", "B2", facing="W", status=("disrupted",)),
            unit(b, "sherman", "m4a1-sherman", "allies", "A2", facing="E"),
        ]

    game = _game(NAMED["2010"], tanks)
    b2 = game.state.battle.board.parse("B2")  # type: ignore[union-attr]
    game.apply("move sherman B2")
    warning = queries.stacking_warning(game.state, b2)
    assert warning is not None and warning.startswith("B2 is over the stacking limit (one Vehicle a hex)")
    plain = _game(RULEBOOK, lambda b: [*_rifles(b, "B2", 1), *_rifles(b, "A2", 1, first=2), *_axis_far(b)])
    plain.apply("move al2 B2")
    assert queries.stacking_warning(plain.state, b2) is None


# --- the rulebook's fast counting is the general counting --------------------------------------------


@pytest.mark.parametrize("seed", range(2))
def test_the_rulebook_fast_path_agrees_with_the_general_count(seed: int) -> None:
    rng = random.Random(seed)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=1 + seed % 6, dice=Dice(seed=seed), turn_limit=2)
    bot = RandomBot(seed)
    checked = 0
    while game.decider() is not None:
        game.apply(bot.choose(game))
        state = game.state
        if state.battle.board is None:
            continue
        table = state.occupancy()
        for mover in state.units.values():
            if mover.hex is None or mover.removed or mover.card.is_aircraft:
                continue
            for hex_, present in table.items():
                general = stacking._room_by_set(state, RULEBOOK, mover, present)
                assert stacking.room_for(state, mover, hex_) == general, (mover.id, hex_)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("name", ["2008", "2010"])
def test_full_hexes_agree_with_room_under_the_later_sets(name: str) -> None:
    rng = random.Random(7)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=3, dice=Dice(seed=7), turn_limit=2, rules=NAMED[name])
    bot = RandomBot(7)
    checked = 0
    while game.decider() is not None:
        game.apply(bot.choose(game))
        state = game.state
        if state.battle.board is None:
            continue
        occupied = {u.hex for u in state.units.values() if u.hex is not None}
        for mover in state.units.values():
            if mover.hex is None or mover.removed or mover.card.is_aircraft:
                continue
            full = stacking.full_hexes(state, mover)
            for hex_ in occupied:
                assert (hex_ in full) == (not stacking.room_for(state, mover, hex_))
                checked += 1
    assert checked > 500


# --- the penalty ---------------------------------------------------------------------------------------


def _two_overstacked() -> Game:
    """Allied hexes A4 and B2 each over the limit by one unit (3 + the one that moved in)."""
    game = _game(
        NAMED["2010"],
        lambda b: [
            *_rifles(b, "B2", 3),
            *_rifles(b, "A2", 1, first=4),
            *_rifles(b, "A4", 3, first=5),
            *_rifles(b, "A5", 1, first=8),
            *_axis_far(b),
        ],
    )
    game.apply("move al4 B2")
    game.apply("move al8 A4")
    return game


def test_the_penalty_goes_hex_by_hex_in_board_order_and_the_opponent_decides() -> None:
    game = _two_overstacked()
    game.apply("pass")
    state = game.state
    assert state.stage is Stage.PENALTY and game.decider() is Side.AXIS
    assert overstack.current(state) == state.battle.board.parse("A4")  # type: ignore[union-attr]
    assert [game.format(a) for a in game.legal_actions()] == [
        "penalty al5",
        "penalty al6",
        "penalty al7",
        "penalty al8",
    ]
    assert game.is_legal("penalty al1") is not None  # a unit of the other hex
    assert game.is_legal("pass") is not None
    game.apply("penalty al8")
    assert game.state.stage is Stage.PENALTY
    assert overstack.current(game.state) == game.state.battle.board.parse("B2")  # type: ignore[union-attr]
    events = game.apply("penalty al1")
    assert [(e.kind, e.unit, e.note, e.value) for e in events if e.kind == "counter"] == [
        ("counter", "al1", "disrupted", 0)
    ]
    state = game.state
    assert state.stage is Stage.ACT and state.active is Side.AXIS
    assert state.units["al8"].pending == (Counter.DISRUPTED,)
    assert state.units["al1"].pending == (Counter.DISRUPTED,)
    assert state.overstacked == () and overstack.current(state) is None


def test_penalty_notation_round_trips() -> None:
    b = board(BOARD)
    action = A.parse("penalty al1", b.parse)
    assert action == A.Penalty("al1")
    assert A.format_action(action, b.label) == "penalty al1"
    with pytest.raises(A.NotationError):
        A.parse("penalty", b.parse)


def test_no_penalty_under_the_rulebook_or_within_the_limits() -> None:
    game = _game(
        NAMED["2010"], lambda b: [*_rifles(b, "B2", 2), *_rifles(b, "A2", 1, first=3), *_axis_far(b)]
    )
    game.apply("move al3 B2")
    game.apply("pass")
    assert game.state.stage is Stage.ACT and game.state.active is Side.AXIS


def test_the_heuristic_puts_the_counter_where_it_harms_most_and_random_picks_a_listed_unit() -> None:
    game = _two_overstacked()
    game.apply("pass")
    # al6 already has a face-down Disrupted counter: one more destroys it.
    state = game.state
    state.update("al6", pending=(Counter.DISRUPTED,))
    assert HeuristicBot(1).choose(game) == A.Penalty("al6")
    listed = game.legal_actions()
    assert RandomBot(3).choose(game) in listed


def test_a_game_with_penalties_replays_from_its_record() -> None:
    found = 0
    for seed in range(8):
        rng = random.Random(seed)
        axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
        game = Game.new(
            axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=6, rules=NAMED["2009"]
        )
        bot = RandomBot(seed, pass_chance=0.05)
        while game.decider() is not None:
            if game.state.stage is Stage.PENALTY:
                found += 1
            game.apply(bot.choose(game))
            check_invariants(game)
        text = record_text(game)
        assert 'rules = "2009"' in text
        assert replay_record(parse_record(text)).state.snapshot() == game.state.snapshot(), seed
        if found and seed >= 2:
            break
    assert found, "no game met the overstack penalty"


@pytest.mark.parametrize("name", list(NAMED))
def test_random_games_under_each_set_keep_the_stacking_invariant(name: str) -> None:
    for seed in range(100, 103):
        rng = random.Random(seed)
        axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
        game = Game.new(
            axis, allies, configuration=seed % 6 + 1, dice=Dice(seed=seed), turn_limit=5, rules=NAMED[name]
        )
        bot = RandomBot(seed)
        check_invariants(game)
        while game.decider() is not None:
            game.apply(bot.choose(game))
            check_invariants(game)


def test_the_heuristic_deploys_three_in_a_hex_at_most_under_2010() -> None:
    """The AI's deployment asks the set's limits (through `setup.deploy_problem`)."""
    rng = random.Random(5)
    axis, allies = random_army(rng, Side.AXIS), random_army(rng, Side.ALLIES)
    game = Game.new(axis, allies, configuration=2, dice=Dice(seed=5), rules=NAMED["2010"])
    bot = HeuristicBot(5)
    while game.state.stage not in (Stage.INITIATIVE, Stage.ACT) and game.decider() is not None:
        game.apply(bot.choose(game))
    assert stacking.overstacked(game.state) == []
