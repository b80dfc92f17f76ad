"""The solver (`minis solve`, `minis.ai.solver`): exact values of small end positions checked against
values worked out by hand from the rulebook's odds, and its refusals.

The positions are in tests/solver-positions (the rules-test format without steps). Each is turn 10 of
a Standard game, where the end of the turn decides the game: the objective's holder wins, else the side
whose units on the map are worth more.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from minis.ai import endgame, solver
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.cli import main
from minis.engine import odds
from minis.engine.odds import die_classes, hit_odds
from minis.game import Game
from minis.rules import combat
from minis.rulestest import load_rules_test

POSITIONS = Path(__file__).parent / "solver-positions"


def position(name: str) -> Game:
    return load_rules_test(POSITIONS / f"{name}.toml").game()


def values(solution: solver.Solution) -> dict[str, Fraction]:
    return {choice.notation: choice.value for choice in solution.choices}


def at_least_two_hits(dice: int, cover: int | None = None) -> Fraction:
    """A Soldier of defense 4 is destroyed by two hits (8 successes of `dice` at 4+)."""
    chances = hit_odds(dice, 4, cover=cover)
    return chances[2] + chances[3]


def test_one_shot_at_the_last_enemy_unit_is_worth_the_kill_chance() -> None:
    # The Arisaka (3 points) fires its 8 dice at short range at the Garand (4 points): only a kill
    # (two hits, 8 successes of 8) turns the points the Axis way; nothing else can.
    solution = solver.solve(position("one-shot"))
    found = values(solution)
    assert solution.side is Side.AXIS
    assert solution.best.notation == "attack arisaka garand"
    assert found["attack arisaka garand"] == at_least_two_hits(8) == Fraction(93, 256)
    assert found["pass"] == 0
    assert solution.value == Fraction(93, 256)


def test_an_attack_s_dice_are_walked_as_one_batch_the_engine_names() -> None:
    # 8 attack dice walked die by die would be thousands of branches; told by the engine that they are
    # an attack's batch (`Dice.roll_many(..., batch=plan)`), the solver walks their success counts.
    solution = solver.solve(position("one-shot"), max_nodes=200)
    assert solution.value == Fraction(93, 256)


def test_the_target_beside_the_objective_is_the_one_to_shoot() -> None:
    # Destroying `near` leaves the Axis alone by the objective B1; destroying `away` wins nothing.
    found = values(solver.solve(position("two-targets")))
    assert found["attack arisaka near"] == at_least_two_hits(8)
    assert found["attack arisaka away"] == 0


def test_staying_in_the_forest_is_better_than_any_move() -> None:
    # The Sherman's 7 long-range dice kill only with two hits; in the forest the Arisaka rolls for
    # cover (4+), which limits them to one. Passing keeps it there: every move leaves the forest.
    solution = solver.solve(position("stay-in-cover"))
    found = values(solution)
    assert solution.best.notation == "pass"
    assert found["pass"] == 1 - at_least_two_hits(7, cover=4) == Fraction(227, 256)
    moves = [value for notation, value in found.items() if notation.startswith("move")]
    assert moves and all(value == 1 - at_least_two_hits(7) for value in moves)


def test_values_are_seen_from_the_side_asked_for() -> None:
    game = position("one-shot")
    allied = solver.solve(game, side=Side.ALLIES)
    assert allied.side is Side.ALLIES
    assert values(allied)["attack arisaka garand"] == 1 - Fraction(93, 256)
    assert solver.action_value(game, game.parse("pass"), Side.AXIS) == 0


def test_solving_leaves_the_game_unchanged() -> None:
    game = position("two-targets")
    before = game.state.snapshot()
    solver.solve(game)
    assert game.state.snapshot() == before
    assert game.decider() is Side.AXIS and not game.dice.history


def test_an_ability_that_reads_the_dice_is_walked_by_its_dice() -> None:
    # The two-targets position with a Flamethrower team (5 points; 10 dice at short range) for the
    # Arisaka: it destroys its target on three 6s whatever the hits, so its dice are walked as multisets
    # over the die classes, grouped by score. Only destroying `near` wins (else 5 points to 8), and the
    # value is the engine's exact odds of a kill (`minis.engine.odds.attack_distribution`).
    base = position("two-targets")
    flamer = attrs.evolve(base.state.units["arisaka"], card=card_catalogue()["flammenwerfer-35"])
    units = [flamer, base.state.units["near"], base.state.units["away"]]
    assert base.state.board is not None
    game = Game.from_position(
        base.state.board, units, turn=10, phase=base.state.phase, first=Side.ALLIES, active=Side.AXIS
    )
    state = game.state
    plan = combat.plan_attack(state, state.units["arisaka"], state.units["near"])
    assert isinstance(plan, combat.AttackPlan) and plan.dice == 10
    exact = odds.attack_distribution(state, plan)
    kill = exact.destroyed + exact.hits[2] + exact.hits[3]
    assert exact.destroyed > 0 and kill != at_least_two_hits(10)
    found = values(solver.solve(game))
    assert found["attack arisaka near"] == kill
    assert found["pass"] == 0


@pytest.mark.parametrize("modifier", [-1, 0, 1])
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_the_dice_chances_are_those_of_every_sequence_of_faces(count: int, modifier: int) -> None:
    # Every sequence of `count` faces, each 1/6, mapped to its die classes: the multisets' chances.
    classes = die_classes(modifier)
    lowest = [face for face, _chance in classes]

    def class_of(face: int) -> int:
        """The lowest face of the class of `face`: a 1, a 6, or the faces that fail or succeed alike."""
        succeeds = face + modifier >= 4
        return max(c for c in lowest if c <= face and (c in (1, 6) or (c + modifier >= 4) == succeeds))

    brute: Counter[tuple[int, ...]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=count):
        brute[tuple(sorted(class_of(f) for f in faces))] += 1
    walked = dict(odds.roll_multisets(count, modifier))
    assert walked == {key: Fraction(n, 6**count) for key, n in brute.items()}
    counts = solver._counts(count, modifier)
    assert sum(chance for _values, chance in counts) == 1
    for values_, chance in counts:
        successes = sum(1 for v in values_ if v + modifier >= 4)
        ways = sum(
            1
            for faces in itertools.product(range(1, 7), repeat=count)
            if sum(1 for f in faces if f + modifier >= 4) == successes
        )
        assert chance == Fraction(ways, 6**count)


# --- the command and its refusals ----------------------------------------------------------------------


def run_solve(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["solve", *words])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_the_decisions_and_the_best_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_solve(capsys, str(POSITIONS / "two-targets.toml"))
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[1].split() == ["attack", "arisaka", "near", "0.363281", "(93/256)"]
    assert "positions searched" in lines[-2]
    assert lines[-1] == "best: attack arisaka near, 0.363281 (93/256) for the Axis player"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_with_steps_is_refused_at_its_steps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (POSITIONS / "one-shot.toml").read_text(encoding="utf-8")
    lines = text.count("\n")
    path = write(tmp_path, "steps.toml", text + '\n[[steps]]\naction = "pass"\n')
    code, out, err = run_solve(capsys, str(path))
    assert code == 2 and not out
    message = "a position to solve has no [[steps]]: the solver plays it out"
    assert err.strip() == f"{path}:{lines + 2}:1: {message}"


def test_more_than_three_units_a_side_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (POSITIONS / "one-shot.toml").read_text(encoding="utf-8")
    more = "".join(
        f'\n[[units]]\nid = "garand{n}"\ncard = "m1-garand-rifle"\nside = "allies"\nat = "B{n}"\n'
        for n in (1, 2, 3)
    )
    path = write(tmp_path, "big.toml", text.replace("[start]", more + "\n[start]"))
    code, out, err = run_solve(capsys, str(path))
    assert code == 1 and not out
    assert "Allies: 4 units, and the solver takes at most 3 a side" in err
    assert err.startswith(f"{path}:")


def test_the_node_cap_stops_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_solve(capsys, str(POSITIONS / "stay-in-cover.toml"), "--max-nodes", "20")
    assert code == 1 and not out
    assert "needs more than 20 positions searched (--max-nodes)" in err
    with pytest.raises(solver.NodeCap):
        solver.solve(position("stay-in-cover"), max_nodes=20)


def test_a_game_that_may_go_on_is_refused_unless_it_is_the_last_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Turn 7: the objective decides from now on, the points only from turn 10, so if `near` survives
    # the game goes on to turn 8.
    text = (POSITIONS / "two-targets.toml").read_text(encoding="utf-8").replace("turn = 10", "turn = 7")
    path = write(tmp_path, "early.toml", text)
    code, out, err = run_solve(capsys, str(path))
    assert code == 1 and not out
    assert err.startswith(f"{path}:") and "the game goes on after turn 7" in err
    # As the last turn of a turn limit, an undecided game is a draw: the kill wins, else a draw.
    code, out, err = run_solve(capsys, str(path), "--last-turn")
    assert code == 0 and not err
    value = Fraction(93, 256) + (1 - Fraction(93, 256)) / 2
    assert out.splitlines()[-1] == "best: attack arisaka near, 0.681641 (349/512) for the Axis player"
    assert value == Fraction(349, 512)


# --- the end-position benchmark's positions ------------------------------------------------------------


def test_a_position_is_cut_to_three_units_a_side_nearest_the_enemy() -> None:
    # Four Garands against the Arisaka: the one farthest from it is taken off, and the turn is made
    # the last (at turn 7 the game could go on; cut, an undecided end is a draw).
    base = position("two-targets")
    garand = base.state.units["near"]
    board = base.state.board
    assert board is not None
    extra = [attrs.evolve(garand, id=f"g{n}", hex=board.parse(f"B{n}")) for n in (3, 5)]
    units = [*base.state.units.values(), *extra]
    game = Game.from_position(
        board, units, turn=7, phase=base.state.phase, first=Side.ALLIES, active=Side.AXIS
    )
    with pytest.raises(solver.OutOfScope):
        solver.solve(game)
    cut = endgame.reduce(game)
    assert cut is not None
    gone = sorted(u.id for u in cut.state.units.values() if u.removed)
    assert gone == ["g5"]  # B5 is the farthest from the Arisaka in A1
    assert cut.state.battle.terms.turn_limit == 7 and game.state.battle.terms.turn_limit is None
    assert values(solver.solve(cut))["attack arisaka near"] == Fraction(93, 256) + (1 - Fraction(93, 256)) / 2
