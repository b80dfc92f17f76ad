"""The sequence of play: phases, the casualty phase, initiative, victory, set-up and transport."""

from __future__ import annotations

import pytest
from engine_support import board, position, unit

from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.rules import victory
from minis.rules.errors import IllegalAction
from minis.state import BattleKind, Counter, Phase, Stage

B = board(
    """
C C C C C C C C
 C C C C C C C
C C C C C C C C
 C C C C C C C
C C C C C C C C
""",
    objective="C4",
)


def test_phases_follow_the_sequence_of_play() -> None:
    game = position(
        B,
        [unit(B, "a", "mauser-kar-98k", "axis", "A1"), unit(B, "b", "m1-garand-rifle", "allies", "E8")],
        active="allies",
        first="allies",
    )
    seen = []
    for _ in range(4):
        seen.append((game.state.phase, game.state.active))
        game.apply("pass")
    assert seen == [
        (Phase.MOVEMENT, Side.ALLIES),
        (Phase.MOVEMENT, Side.AXIS),
        (Phase.ASSAULT, Side.ALLIES),
        (Phase.ASSAULT, Side.AXIS),
    ]
    assert game.waiting_for_dice() and game.decider() is None  # casualty, end of turn, then initiative
    assert (game.state.turn, game.state.phase) == (2, Phase.INITIATIVE)
    game.push_dice([1, 1, 6, 6])
    assert game.decider() is Side.ALLIES and game.legal_actions() == [
        A.First(Side.AXIS),
        A.First(Side.ALLIES),
    ]
    game.apply("first axis")
    assert (game.state.phase, game.state.active, game.state.first) == (Phase.MOVEMENT, Side.AXIS, Side.AXIS)


def test_casualty_phase_five_steps() -> None:
    units = [
        unit(B, "recovering", "m1-garand-rifle", "allies", "A1", status=("disrupted",)),
        unit(B, "again", "m1-garand-rifle", "allies", "A2", status=("disrupted",), pending=("disrupted",)),
        unit(B, "tank", "m4a1-sherman", "allies", "A3", "E", pending=("disrupted", "damaged")),
        unit(
            B,
            "dead",
            "m4a1-sherman",
            "allies",
            "A4",
            "E",
            status=("damaged",),
            pending=("disrupted", "destroyed"),
        ),
        unit(B, "rider", "m1-garand-rifle", "allies", "A4", carried_by="dead"),
        unit(B, "enemy", "mauser-kar-98k", "axis", "E8"),
    ]
    game = position(B, units, phase="casualty")
    units_after = game.state.units
    assert not units_after["recovering"].disrupted
    assert units_after["again"].disrupted and units_after["again"].pending == ()
    assert units_after["tank"].damaged and units_after["tank"].disrupted
    assert units_after["dead"].removed and units_after["rider"].removed
    assert game.state.turn == 2 and game.waiting_for_dice()


def test_initiative_ties_go_to_the_better_bonus_then_reroll() -> None:
    units = [
        unit(B, "captain", "red-devil-captain", "allies", "A1"),
        unit(B, "rifle", "mauser-kar-98k", "axis", "E8"),
    ]
    game = position(B, units, phase="initiative")
    game.push_dice([6, 5, 4, 5])  # 11 to 9 + 2: a tie, the Allied bonus is better
    assert game.decider() is Side.ALLIES
    no_bonus = position(
        B,
        [unit(B, "a", "m1-garand-rifle", "allies", "A1"), unit(B, "b", "mauser-kar-98k", "axis", "E8")],
        phase="initiative",
    )
    no_bonus.push_dice([3, 4, 2, 5])  # 7 to 7, equal bonuses: roll again
    assert no_bonus.waiting_for_dice()
    no_bonus.push_dice([1, 1, 2, 1])
    assert no_bonus.decider() is Side.ALLIES and no_bonus.dice.remaining() == 0


def test_a_disrupted_commander_adds_nothing() -> None:
    units = [
        unit(B, "captain", "red-devil-captain", "allies", "A1", status=("disrupted",)),
        unit(B, "rifle", "mauser-kar-98k", "axis", "E8"),
    ]
    game = position(B, units, phase="initiative")
    game.push_dice([6, 5, 4, 5, 1, 1, 1, 2])  # 11 to 9: Axis wins (the captain counts 0)
    assert game.decider() is Side.AXIS and game.dice.remaining() == 4


def test_objective_control_from_turn_seven() -> None:
    def ending(turn: int, units: list) -> Game:
        game = position(B, units, phase="assault", active="axis", first="allies", turn=turn)
        game.apply("pass")
        return game

    near = [unit(B, "a", "mauser-kar-98k", "axis", "C5"), unit(B, "b", "m1-garand-rifle", "allies", "A1")]
    assert ending(6, near).winner is None
    assert ending(7, near).winner is Side.AXIS
    both = [unit(B, "a", "mauser-kar-98k", "axis", "C5"), unit(B, "b", "m1-garand-rifle", "allies", "C4")]
    assert ending(7, both).winner is None
    points = [unit(B, "a", "mauser-kar-98k", "axis", "A1"), unit(B, "b", "m1-garand-rifle", "allies", "E8")]
    assert ending(9, points).winner is None
    assert ending(10, points).winner is Side.ALLIES  # 4 points to 3
    tie = [unit(B, "a", "mauser-kar-98k", "axis", "A1"), unit(B, "b", "smle-no-4-rifleman", "allies", "E8")]
    tied = ending(10, tie)
    assert tied.winner is None and tied.state.turn == 11


def test_assault_victory_only_at_the_end_of_turn_ten() -> None:
    def ending(turn: int, at: str) -> Game:
        units = [unit(B, "a", "mauser-kar-98k", "axis", at), unit(B, "b", "m1-garand-rifle", "allies", "E8")]
        game = position(
            B,
            units,
            phase="assault",
            active="axis",
            first="allies",
            turn=turn,
            scenario=BattleKind.ASSAULT,
            attacker=Side.AXIS,
        )
        game.apply("pass")
        return game

    assert ending(9, "C4").winner is None
    assert ending(10, "C4").winner is Side.AXIS
    assert ending(10, "A1").winner is Side.ALLIES


def test_control_counts_the_objective_hex_itself() -> None:
    game = position(
        B, [unit(B, "a", "mauser-kar-98k", "axis", "C4"), unit(B, "b", "m1-garand-rifle", "allies", "A8")]
    )
    assert victory.controller(game.state) is Side.AXIS


def _loader(number: int):
    return B


def test_standard_set_up_sequence() -> None:
    axis = Army("a", Side.AXIS, units=("mauser-kar-98k", "panzer-iv-ausf-g"))
    allies = Army("b", Side.ALLIES, units=("m1-garand-rifle",))
    game = Game.new(axis, allies, dice=Dice.scripted([3, 5]), load_board=_loader)
    assert (
        game.state.configuration == 3 and game.decider() is Side.ALLIES
    )  # 5: the Allied player wins the flip
    game.apply("first axis")
    assert game.decider() is Side.AXIS and game.state.stage is Stage.CHOOSE_END
    game.apply("end east")
    with pytest.raises(IllegalAction, match="deploy every unit"):
        game.apply("ready")
    with pytest.raises(IllegalAction, match="deployment area"):
        game.apply("deploy mauser-kar-98k A1")
    game.apply("deploy mauser-kar-98k A8")
    game.apply("deploy panzer-iv-ausf-g E4 face W")
    game.apply("ready")
    assert game.decider() is Side.ALLIES
    with pytest.raises(IllegalAction):
        game.apply("deploy m1-garand-rifle A8")
    game.apply("deploy m1-garand-rifle A1")
    game.apply("ready")
    assert game.waiting_for_dice() and game.state.turn == 1 and game.state.phase is Phase.INITIATIVE


def test_vehicles_may_not_deploy_where_they_cannot_go() -> None:
    marsh = board("""
M C C C C C
 C C C C C
""")
    axis = Army("a", Side.AXIS, units=("panzer-iv-ausf-g",))
    allies = Army("b", Side.ALLIES, units=("m1-garand-rifle",))
    game = Game.new(axis, allies, dice=Dice.scripted([1, 1]), load_board=lambda n: marsh)
    game.apply("first axis")
    game.apply("end west")
    with pytest.raises(IllegalAction, match="can't enter"):
        game.apply("deploy panzer-iv-ausf-g A1")


def test_assault_set_up_sequence() -> None:
    axis = Army("a", Side.AXIS, units=("mauser-kar-98k",))
    allies = Army("b", Side.ALLIES, units=("m1-garand-rifle",))
    game = Game.new(
        axis,
        allies,
        scenario=BattleKind.ASSAULT,
        attacker=Side.AXIS,
        dice=Dice.scripted(),
        load_board=_loader,
    )
    assert game.decider() is Side.ALLIES and A.Configuration(6) in game.legal_actions()
    game.apply("configuration 2")
    with pytest.raises(IllegalAction, match="next to the map edge"):
        game.apply("objective A1")
    game.apply("objective C4")
    game.apply("end west")
    game.apply("deploy m1-garand-rifle C3")  # anywhere on the defender's half
    game.apply("ready")
    assert game.decider() is Side.AXIS
    game.apply("deploy mauser-kar-98k E4")
    game.apply("ready")
    assert game.state.objective == B.parse("C4") and game.waiting_for_dice()


def test_boarding_and_dismounting() -> None:
    units = [
        unit(B, "jeep", "jeep", "allies", "A2", "E"),
        unit(B, "rifle", "m1-garand-rifle", "allies", "A2"),
        unit(B, "gun", "6-pounder-anti-tank-gun", "allies", "A2"),
        unit(B, "e", "mauser-kar-98k", "axis", "E8"),
    ]
    with pytest.raises(ValueError, match="stacking"):
        position(B, units)
    game = position(B, units[:2] + units[3:])
    game.apply("board rifle jeep")
    assert game.state.units["rifle"].carried_by == "jeep"
    game.apply("move jeep A3 A4")
    assert game.state.units["rifle"].hex == B.parse("A4")
    for _ in range(4):
        game.apply("pass")
    game.push_dice([6, 6, 1, 1])
    game.apply("first allies")
    with pytest.raises(IllegalAction, match="transport's hex"):
        game.apply("dismount rifle A5")
    game.apply("dismount rifle A4")
    assert game.state.units["rifle"].carried_by is None


def test_artillery_cannot_board_a_plain_transport() -> None:
    units = [
        unit(B, "jeep", "jeep", "allies", "A2", "E"),
        unit(B, "gun", "6-pounder-anti-tank-gun", "allies", "A2"),
    ]
    game = position(B, units)
    with pytest.raises(IllegalAction, match="can't carry"):
        game.apply("board gun jeep")


def test_a_boarded_soldier_is_not_a_target() -> None:
    units = [
        unit(B, "jeep", "jeep", "allies", "A2", "E"),
        unit(B, "rifle", "m1-garand-rifle", "allies", "A2", carried_by="jeep"),
        unit(B, "mg", "mg-42-machine-gun-team", "axis", "A3"),
    ]
    game = position(B, units, phase="assault", active="axis")
    assert A.Attack("mg", "rifle") not in game.legal_actions()
    assert A.Attack("mg", "jeep") in game.legal_actions()


def test_dismount_that_does_not_fit_is_placed_by_the_opponent() -> None:
    units = [
        unit(B, "jeep", "jeep", "allies", "A2", "E"),
        unit(B, "rifle", "m1-garand-rifle", "allies", "A2", carried_by="jeep"),
        unit(B, "other", "bazooka", "allies", "A2"),
        unit(B, "e", "mauser-kar-98k", "axis", "E8"),
    ]
    game = position(B, units)
    game.apply("dismount rifle A2")
    assert game.decider() is Side.AXIS
    options = game.legal_actions()
    assert options and all(isinstance(a, A.Dismount) and a.unit == "rifle" for a in options)
    game.apply(options[0])
    rifle = game.state.units["rifle"]
    assert rifle.carried_by is None and rifle.hex in B.neighbours(B.parse("A2"))
    assert game.decider() is Side.ALLIES


def test_waiting_for_dice_then_resuming() -> None:
    game = position(
        B,
        [unit(B, "a", "mauser-kar-98k", "axis", "A1"), unit(B, "b", "m1-garand-rifle", "allies", "A2")],
        phase="assault",
        active="axis",
    )
    game.apply("attack a b")
    assert game.waiting_for_dice() and game.decider() is None and game.legal_actions() == []
    with pytest.raises(IllegalAction, match="waiting for dice"):
        game.apply("pass")
    game.push_dice([6, 6, 6])
    assert game.waiting_for_dice()
    game.push_dice([6, 6, 6, 6, 6])
    assert not game.waiting_for_dice()
    assert game.state.units["b"].pending == (Counter.DISRUPTED, Counter.DESTROYED)
    assert [entry.dice for entry in game.record] == [(6,) * 8]
