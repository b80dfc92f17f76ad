"""Hints at every decision, with a reason (issue 33): H gives what the computer would do in the player's
place and one line of why from its own numbers, at the end and first-player questions too; a hint never
says "end the phase" while a unit has an attack the computer rates useful; the computer's own choices
stay what they were (the hint adds only the reason, and that one rule).

The computer thinks on the calling thread (`InlineExecutor`), and its pauses follow a stepped clock.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
from engine_support import board, position, unit

from minis.ai.advice import advise, scored
from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.sides import Side
from minis.content.rule_sets import NAMED
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.state import Stage
from minis.ui.computer import ComputerPlayer, InlineExecutor
from minis.ui.readout import BattleReadout
from tests.test_ui_words import ALLIES, AXIS, leaks


def _hint(game: Game, side: Side) -> Any:
    return ComputerPlayer({}, executor=InlineExecutor(), seed=3).hint(game, side)


def test_no_hint_ends_a_phase_while_a_unit_has_an_attack_the_computer_rates_useful() -> None:
    """A Goliath two hexes from a Bazooka in its assault phase: the heuristic scores its Remote Control
    (an ability's own attack) below ending the phase, and the hint said "end the phase"; it proposes
    the attack, with its odds."""
    b = board("C F C C C C C\n C C F C C C C\nC C C H C C C\n C C C C C C C")
    units = [
        unit(b, "sd-kfz-303-goliath", "sd-kfz-303-goliath", "axis", "B3"),
        unit(b, "bazooka", "bazooka", "allies", "B5"),
    ]
    game = position(b, units, phase="assault", active="axis", dice=Dice(seed=1))
    bot = HeuristicBot(1)
    assert isinstance(bot.choose(view(game, Side.AXIS, 1)), A.Pass)  # the bot itself would end it
    hint = _hint(game, Side.AXIS)
    assert hint.text != "Hint: end the phase"
    assert hint.action == A.Use("sd-kfz-303-goliath", "remote-control", ("bazooka",))
    assert hint.text == 'Hint: use Remote Control with the Sd Kfz 303 "Goliath" on the Bazooka'
    assert hint.why.startswith("Remote Control: ") and "% to hit the Bazooka" in hint.why
    assert game.is_legal(hint.action) is None


def test_a_stuka_with_a_target_is_never_told_to_end_the_airstrike() -> None:
    b = board("C C C C C C C\n C C C C C C C\nC C C C C C C\n C C C C C C C")
    stuka = unit(b, "ju-87-stuka", "ju-87-stuka", "axis", "B3")
    units = [stuka, unit(b, "m4a1-sherman", "m4a1-sherman", "allies", "B5", facing="W")]
    game = position(b, units, phase="airstrike", active="axis", dice=Dice(seed=1))
    hint = _hint(game, Side.AXIS)
    assert hint.action == A.Attack("ju-87-stuka", "m4a1-sherman"), hint
    assert hint.why.startswith("")
    assert "% to hit the M4A1 Sherman" in hint.why


def _battles() -> list[Game]:
    """Battles whose decisions cover every kind: two armies with aircraft under 2005 and 2010 (the
    overstack choice, aircraft placed in turn), and an Assault (the defender's map end and objective)."""
    axis, allies = Army("Axis", Side.AXIS, units=AXIS), Army("Allies", Side.ALLIES, units=ALLIES)
    from minis.state import BattleKind

    return [
        Game.new(axis, allies, dice=Dice(seed=4)),
        Game.new(axis, allies, dice=Dice(seed=8), rules=NAMED["2010"]),
        Game.new(
            axis,
            allies,
            scenario=BattleKind.ASSAULT,
            attacker=Side.ALLIES,
            configuration=3,
            dice=Dice(seed=6),
        ),
    ]


def test_every_decision_gets_a_hint_with_a_reason_and_the_computers_choice() -> None:
    """Battles played by a random and a heuristic player: at every decision (the set-up's questions,
    deployment, every phase, defensive fire, shots at aircraft), the hint is a legal action with a
    reason in plain words; it is the heuristic's own choice except where it would end a phase with a
    useful attack."""
    seen: set[tuple[str, str]] = set()
    for number, game in enumerate(_battles()):
        players: dict[Side, Any] = {Side.AXIS: RandomBot(number), Side.ALLIES: HeuristicBot(number)}
        advisor = HeuristicBot(99)
        computer = ComputerPlayer({}, executor=InlineExecutor(), seed=5, advisor=advisor)
        for step in range(3000):
            side = game.decider()
            if game.over or side is None:
                break
            state = game.state
            kind = (state.stage.value, state.phase.value if state.stage is Stage.ACT else "")
            if kind not in seen or step % 9 == 0:
                seen.add(kind)
                hint = computer.hint(game, side)
                assert hint is not None and hint.text.startswith("Hint: ") and hint.why, (kind, hint)
                assert not leaks(hint.text, game) and not leaks(hint.why, game), hint
                assert game.is_legal(hint.action) is None, hint
                mine = view(game, side, 1)
                candidates = scored(advisor, mine)
                assert candidates is not None
                chosen = HeuristicBot(99).choose(mine)
                assert candidates[0][0] == chosen  # the scored list's first is the bot's choice
                advice = advise(mine, candidates)
                assert advice is not None
                if advice.action != chosen:  # only for an attack instead of ending the phase, or a move
                    assert state.stage is Stage.ACT and isinstance(advice.action, A.Attack | A.Use | A.Place)
            game.apply(players[side].choose(view(game, side, step)))
    wanted = {
        ("choose-first", ""),
        ("choose-end", ""),
        ("choose-objective", ""),
        ("deploy", ""),
        ("act", "movement"),
        ("act", "assault"),
        ("act", "flight"),
        ("act", "airstrike"),
        ("defensive-fire", ""),
    }
    assert wanted <= seen, (wanted - seen, seen)


# --- through the window --------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def driver(arcade: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from minis.ui.driver import Driver

    monkeypatch.setenv("MINIS_SAVES", str(tmp_path / "saves"))
    clock = Clock()
    monkeypatch.setattr(
        "minis.ui.newbattle.ComputerPlayer",
        functools.partial(ComputerPlayer, executor=InlineExecutor(), clock=clock),
    )
    drive = Driver.open()
    drive.clock = clock
    dice = random.Random(5)
    drive.window.new_dice = lambda: Dice(seed=dice.randrange(2**32))
    yield drive
    drive.close()


#: The dice of the battle the test plays (drawn at random, some battles ended before turn 2's question).
HINTS_SEED = 1


@pytest.mark.screenshots
def test_h_gives_a_hint_and_its_reason_at_the_questions_and_in_every_phase(
    driver: Any, arcade: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the computer, H at each of the player's decisions: in the end and first-player (and
    initiative) questions the dialog shows the hint and its reason (H did nothing there); in
    deployment and the phases the message says the hint and the panel starts with its reason."""
    from minis.dice import Dice
    from minis.ui.battle import BattleScreen
    from tests.helpers_window import end_phase
    from tests.test_ui_computer import computer_turns, menu

    key = arcade.key
    driver.window.new_dice = lambda: Dice(seed=HINTS_SEED)  # a battle that reaches turn 2's initiative
    monkeypatch.setattr("minis.ui.opponent.random.randrange", lambda _: HINTS_SEED)  # the computer's armies
    menu(driver, "Play against the computer")
    driver.key(key.Y)
    driver.key(key.Y)  # the computer builds both; the player is the Axis
    driver.key(key.ENTER)
    driver.key(key.R)
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    asked: dict[str, str] = {}
    hinted: set[str] = set()
    for _ in range(400):
        computer_turns(driver)
        if not isinstance(driver.screen, BattleScreen) or screen.game.over or screen.state.turn > 2:
            break
        dialog = screen.dialog
        if dialog is not None:
            title = dialog.title.text
            if title == "Choose an end" or title.startswith(("Coin", "Turn")):
                driver.key(key.H)
                body = screen.dialog.body.text
                assert "\nHint: " in body and "\nWhy: " in body, body
                if title not in asked:
                    asked[title] = body
                    name = "hint-end" if title == "Choose an end" else "hint-first-player"
                    driver.screenshot(shots / f"{name}.png")
                driver.key(key.W if title == "Choose an end" else key.A)
            else:
                driver.key(key.H)  # the casualty report: nothing to decide, and it says so
                assert screen.controller.message.startswith("Nothing to decide here")
                driver.key(key.ENTER)
            continue
        stage = screen.stage
        kind = stage.value if stage is not Stage.ACT else screen.state.phase.value
        driver.key(key.SLASH if stage in (Stage.DEFENSIVE_FIRE, Stage.REACTION) else key.H)
        control = screen.controller
        assert control.message.startswith("Hint: "), (kind, control.message)
        info = BattleReadout(control).panel().info
        assert info.startswith("Why: ") and len(info) > 12, kind
        hinted.add(kind)
        if stage is Stage.DEPLOY:
            driver.key(key.SPACE) if control.deployment.to_deploy() else driver.key(key.R)
        elif stage is Stage.ACT:
            end_phase(driver)
        elif stage in (Stage.DEFENSIVE_FIRE, Stage.REACTION):
            driver.key(key.H)  # hold
        else:
            pytest.fail(f"unexpected: {stage}")
    assert "Choose an end" in asked or any(t.startswith("Coin") for t in asked), asked
    assert any(t.startswith("Turn") for t in asked), asked
    assert {"deploy", "movement", "assault"} <= hinted, hinted


def test_the_hint_is_the_hard_bots_choice_and_names_the_threat_it_steps_out_of() -> None:
    """The hint uses the hard bot (the improved search): the Tiger beside the objective with three
    bazookas able to step into its hex next turn (tests/ai-positions) is told to leave, and why."""
    from minis.ai.sharp import SharpBot
    from minis.rulestest import load_rules_test

    positions = Path(__file__).resolve().parent / "ai-positions"
    game = load_rules_test(positions / "tiger-bazookas-next-turn.toml").game()
    advisor = SharpBot(1, workers=0, playouts=64)
    hint = ComputerPlayer({}, executor=InlineExecutor(), seed=3, advisor=advisor).hint(game, Side.AXIS)
    assert hint is not None and hint.text == "Hint: move the Tiger I to C5"
    assert hint.why == (
        "The Tiger I gets out of reach of the Bazooka, the second Bazooka and the third Bazooka, "
        "which could attack it next turn"
    )
    assert not leaks(hint.why, game)


def test_the_hint_counts_the_objectives_clock() -> None:
    from minis.ai.sharp import SharpBot
    from minis.rulestest import load_rules_test

    positions = Path(__file__).resolve().parent / "ai-positions"
    game = load_rules_test(positions / "objective-clock-turn-6.toml").game()
    advisor = SharpBot(1, workers=0, playouts=64)
    hint = ComputerPlayer({}, executor=InlineExecutor(), seed=3, advisor=advisor).hint(game, Side.AXIS)
    assert hint is not None and hint.text == "Hint: move the Type 99 LMG to B5"
    assert (
        hint.why
        == "The Type 99 LMG has to start for the objective now: 2 turns away, 2 turns left before it decides"
    )


def test_the_window_hints_with_the_hard_strength() -> None:
    from minis.ai.sharp import SharpBot
    from minis.ui.computer import HINT_BUDGET

    game = _battles()[0]
    computer = ComputerPlayer({}, executor=InlineExecutor(), seed=3)
    side = game.decider()
    assert side is not None and computer.hint(game, side) is not None
    assert isinstance(computer.advisor, SharpBot) and computer.advisor.name == "hard"
    assert computer.advisor.workers == 0 and computer.advisor.budget == HINT_BUDGET
