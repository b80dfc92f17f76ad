"""Playing against the computer: the computer player without a window (it decides only on its turns,
only from its side's view, and its actions go through the session), the easy strength, and through a
window driven by input events: a whole battle against the computer, a hint, the computer against
itself to the victory screen, and the pictures of the opponent choice, the computer's turn and a hint.

The computer thinks on the calling thread here (`InlineExecutor`) and its pauses follow a clock the
test steps: no sleeps, no threads.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from minis.ai.bot import view
from minis.ai.heuristic import HeuristicBot
from minis.ai.strength import STRENGTHS, EasyBot, bot_for
from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.state import Phase, Stage
from minis.ui import computer as computer_module
from minis.ui.computer import PAUSE, ComputerPlayer, InlineExecutor, action_words
from minis.ui.session import Session

AXIS = ("panzer-iv-ausf-g", "mauser-kar-98k", "mauser-kar-98k")
ALLIES = ("m4a1-sherman", "bazooka", "m1-garand-rifle")


class Clock:
    """A clock the test steps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def new_game(seed: int = 4) -> Game:
    return Game.new(
        Army("Axis", Side.AXIS, units=AXIS), Army("Allies", Side.ALLIES, units=ALLIES), dice=Dice(seed=seed)
    )


class Spy:
    """A bot that records the game it was handed and plays as the heuristic would."""

    name = "spy"

    def __init__(self) -> None:
        self.games: list[Game] = []
        self.inner = HeuristicBot(1)

    def choose(self, game: Game) -> A.Action:
        self.games.append(game)
        return self.inner.choose(game)


def test_the_elsewhere_decides_only_on_its_turns_from_its_view_and_acts_through_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session(new_game(), saves=tmp_path, autosave=False)
    viewed: list[tuple[Game, Side]] = []

    def spy_view(game: Game, side: Side, seed: int | None = None) -> Game:
        viewed.append((game, side))
        return view(game, side, seed)

    monkeypatch.setattr(computer_module, "view", spy_view)
    bot = Spy()
    clock = Clock()
    player = ComputerPlayer({Side.ALLIES: bot}, executor=InlineExecutor(), clock=clock)
    human = HeuristicBot(2)

    def apply(action: A.Action) -> bool:
        session.apply(action)
        session.seal()
        return True

    hidden_seen = False
    for _ in range(400):
        game = session.game
        if game.over:
            break
        side = game.decider()
        if side is Side.AXIS:  # the player's turn: the computer does nothing
            calls = len(viewed)
            assert player.tick(game, apply) is None
            assert len(viewed) == calls and player.status == ""
            session.apply(human.choose(view(game, Side.AXIS, 1)))
            continue
        record = len(game.record)
        acted = player.tick(game, apply)
        assert acted is not None, player.status
        clock.now += PAUSE  # the pause after an action
        assert len(session.game.record) == record + 1  # applied to the real game, through the session
        assert session.game.record[-1].action == game.format(acted)
        assert not session.can_undo  # the computer's action can't be taken back
        handed = bot.games[-1]
        assert handed is not session.game  # a copy, never the game itself
        assert viewed[-1] == (session.game, Side.ALLIES)
        if game.state.phase is Phase.SETUP:
            undeployed = {u.id for u in game.state.units.values() if u.side is Side.AXIS and u.hex is None}
            hidden_seen |= bool(undeployed)
            assert not undeployed & set(handed.state.units)  # the player's army not yet revealed
    assert all(side is Side.ALLIES for _, side in viewed)
    assert hidden_seen and player.played and session.game.state.turn >= 1


def test_the_computer_waits_for_its_pause_and_for_what_is_busy(tmp_path: Path) -> None:
    session = Session(new_game(), saves=tmp_path, autosave=False)
    clock = Clock()
    player = ComputerPlayer({side: HeuristicBot(3) for side in Side}, executor=InlineExecutor(), clock=clock)
    assert player.alone

    def apply(action: A.Action) -> bool:
        session.apply(action)
        return True

    assert player.tick(session.game, apply) is not None
    assert player.tick(session.game, apply) is None  # the pause
    assert "about to act" in player.status
    clock.now += PAUSE
    assert player.tick(session.game, apply, busy=True) is None  # motion still playing
    player.toggle_pause()
    assert player.tick(session.game, apply) is None and player.status.startswith("Paused")
    player.toggle_pause()
    assert player.tick(session.game, apply) is not None
    player.toggle_fast()
    clock.now += 0.1  # the fast pace waits far less than PAUSE
    assert player.tick(session.game, apply) is not None


def test_a_decision_for_a_position_that_is_gone_is_never_applied(tmp_path: Path) -> None:
    from concurrent.futures import Future

    class Later:
        """Decides only when the test says so."""

        def __init__(self) -> None:
            self.futures: list[Future[A.Action]] = []

        def submit(self, fn: Any, game: Game, /) -> Future[A.Action]:
            self.futures.append(Future())
            return self.futures[-1]

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            pass

    first = Session(new_game(1), saves=tmp_path, autosave=False)
    later = Later()
    player = ComputerPlayer({side: HeuristicBot(3) for side in Side}, executor=later, clock=Clock())
    applied: list[A.Action] = []
    assert player.tick(first.game, lambda a: applied.append(a) is None) is None
    other = Session(new_game(2), saves=tmp_path, autosave=False)  # a game loaded meanwhile
    later.futures[0].set_result(A.Pass())
    assert player.tick(other.game, lambda a: applied.append(a) is None) is None
    assert applied == [] and len(later.futures) == 2 and later.futures[0].cancelled() is False


def test_the_easy_bot_plays_legal_and_sometimes_not_the_best(tmp_path: Path) -> None:
    assert STRENGTHS == ("easy", "normal", "hard")
    game = new_game(5)
    easy, best = EasyBot(9, chance=1.0), HeuristicBot(9)
    differed = 0
    for _ in range(60):
        side = game.decider()
        if side is None:
            break
        seen = view(game, side, 3)
        action = easy.choose(seen)
        assert game.is_legal(action) is None
        differed += action != best.candidates(view(game, side, 3), 1)[0][0]
        game.apply(action)
    assert differed
    assert bot_for("normal", 1, workers=0).name == "normal"
    with pytest.raises(ValueError, match="unknown strength"):
        bot_for("brutal", 1)


def test_actions_in_plain_words() -> None:
    game = new_game()
    assert action_words(game, A.Pass()) == "end the phase"
    assert action_words(game, A.Attack("panzer-iv-ausf-g", "m4a1-sherman")) == (
        "attack the M4A1 Sherman with the Panzer IV Ausf. G"
    )
    assert "#" not in action_words(game, A.Attack("mauser-kar-98k#2", "bazooka"))


# --- through the window --------------------------------------------------------------------------------


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
    dice = random.Random(11)
    drive.window.new_dice = lambda: Dice(seed=dice.randrange(2**32))
    yield drive
    drive.close()


def menu(driver: Any, entry: str) -> None:
    driver.click_box(driver.screen.entry_box(entry))


def computer_turns(driver: Any, limit: int = 2000) -> int:
    """Let the computer act (the clock stepped past each pause) until the player decides or the battle
    is over; a frame is drawn every few actions. Returns the actions it took."""
    from minis.ui.battle import BattleScreen

    screen = driver.screen
    count = 0
    while isinstance(screen, BattleScreen) and screen.computer is not None and count < limit:
        if screen.dialog is not None or not screen.controller.elsewhere_decides():
            break
        driver.clock.now += 1.0
        screen.on_update(1 / 60)
        count += 1
        if count % 25 == 0:
            driver.frame()
        screen = driver.screen
    driver.frame()
    return count


def test_a_whole_battle_against_the_computer_by_input_events(driver: Any, arcade: Any) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.opponent import OpponentChoice
    from minis.ui.victory import VictoryScreen
    from tests.helpers_window import answer_battle_dialog, end_phase

    key = arcade.key
    menu(driver, "Play against the computer")
    assert isinstance(driver.screen, OpponentChoice)
    driver.key(key.S)  # the Allies
    driver.key(key.Y)  # load a file
    driver.key(key.Y)  # the computer builds both
    assert driver.screen.choice.side is Side.ALLIES and driver.screen.choice.army == "computer"
    driver.key(key.ENTER)
    driver.key(key.R)  # the map: a die
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen) and screen.computer is not None
    assert screen.computer.sides == {Side.AXIS}
    deployed = hints = 0
    for _ in range(600):
        computer_turns(driver)
        screen = driver.screen
        if not isinstance(screen, BattleScreen):
            break
        game, stage = screen.game, screen.stage
        if answer_battle_dialog(driver):  # the first player, an end, a casualty report
            continue
        assert game.decider() is Side.ALLIES, (stage, screen.computer.status)
        if stage is Stage.DEPLOY:
            if screen.controller.deployment.to_deploy():
                driver.key(key.H)  # the hint puts the cursor where the unit would go...
                hints += 1
                driver.key(key.SPACE)  # ...and Space places it there
                deployed += 1
            else:
                driver.key(key.R)
        elif stage is Stage.ACT:
            end_phase(driver)
        elif stage is Stage.DEFENSIVE_FIRE:
            driver.key(key.H)  # hold
        elif stage is Stage.PLACE:
            driver.key(key.H)
            driver.key(key.SPACE)
        else:
            pytest.fail(f"the player was asked something unexpected: {stage}")
    assert isinstance(driver.screen, VictoryScreen), driver.screen
    assert deployed >= len(ALLIES) and hints
    game = driver.screen.session.game
    assert game.over and game.state.turn >= 1


def test_a_hint_by_key_shows_without_acting(driver: Any, arcade: Any, shots: Path) -> None:
    from minis.ui.battle import BattleScreen

    key = arcade.key
    menu(driver, "Play against the computer")
    driver.key(key.Y)
    driver.key(key.Y)  # the computer builds both; the player is the Axis
    driver.key(key.ENTER)
    driver.key(key.R)
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(200):  # to the player's first movement decision: hints deploy, keys answer
        computer_turns(driver)
        if screen.dialog is not None:
            driver.key(key.W if screen.dialog.title.text == "Choose an end" else key.A)
        elif screen.stage is Stage.DEPLOY:
            driver.key(key.H)
            driver.key(key.SPACE) if screen.controller.deployment.to_deploy() else driver.key(key.R)
        elif screen.stage is Stage.ACT and screen.game.decider() is Side.AXIS and screen.state.turn >= 1:
            break
        elif screen.stage is Stage.ACT:
            from tests.helpers_window import end_phase

            end_phase(driver)
    assert screen.stage is Stage.ACT and screen.game.decider() is Side.AXIS
    record = len(screen.game.record)
    driver.key(key.H)
    control = screen.controller
    assert control.message.startswith("Hint: "), control.message
    if control.message.startswith("Hint: bring the "):  # a Hero or Paratrooper to bring in: its hex shown
        assert control.selected is None
    elif control.message.startswith("Hint: end the phase"):  # the hard bot's search may find no move
        assert control.selected is None  # worth making (its time is capped: the choice may vary)
    else:
        assert control.selected is not None, control.message
        assert screen.state.units[control.selected].side is Side.AXIS
    assert "#" not in control.message and "-" not in control.message.split(": ", 1)[1].split(" ")[0]
    ids = {u.id for u in screen.state.units.values()} | {u.card.id for u in screen.state.units.values()}
    assert not any(word.strip(".,") in ids for word in control.message.split()), control.message
    assert len(screen.game.record) == record  # shown, not done
    driver.frame()
    driver.screenshot(shots / "computer-hint.png")


def test_the_computer_plays_itself_to_the_victory_screen(driver: Any, arcade: Any, shots: Path) -> None:
    from minis.ui.battle import BattleScreen
    from minis.ui.opponent import OpponentChoice
    from minis.ui.victory import VictoryScreen

    key = arcade.key
    menu(driver, "Watch the computer play itself")
    assert isinstance(driver.screen, OpponentChoice)
    driver.screenshot(shots / "watch-choice.png")
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen) and screen.computer is not None and screen.computer.alone
    driver.key(key.F)
    assert screen.computer.fast
    driver.key(key.SPACE)  # paused: the clock goes on, the game does not
    record = len(screen.game.record)
    for _ in range(5):
        driver.clock.now += 1.0
        driver.frame()
    assert len(screen.game.record) == record and "Paused" in screen.computer.status
    driver.key(key.SPACE)
    for _ in range(8):
        driver.clock.now += 1.0
        driver.frame()
    assert len(screen.game.record) > record
    assert screen.phase_title.text.endswith("the computer's turn")
    driver.screenshot(shots / "computer-turn.png")
    computer_turns(driver, limit=5000)
    assert isinstance(driver.screen, VictoryScreen)
    assert driver.screen.session.game.over


def test_the_opponent_choice_screen(driver: Any, arcade: Any, shots: Path) -> None:
    from minis.ui.opponent import OpponentChoice

    key = arcade.key
    menu(driver, "Play against the computer")
    screen = driver.screen
    assert isinstance(screen, OpponentChoice)
    driver.key(key.B)  # Assault
    driver.key(key.A)  # the player defends
    driver.key(key.C)  # hard
    choice = screen.choice
    assert (choice.scenario.value, choice.attack, choice.strength) == ("assault", False, "hard")
    assert choice.attacker is Side.ALLIES and choice.computer_sides == (Side.ALLIES,)
    assert screen.attack.visible and "defend" in screen.attack.label.text
    driver.screenshot(shots / "opponent-choice.png")
    driver.key(key.ESCAPE)
    assert type(driver.screen).__name__ == "MainMenu"


def test_an_assault_where_the_computer_defends_chooses_its_map_and_objective(
    driver: Any, arcade: Any
) -> None:
    from minis.ui.battle import BattleScreen

    key = arcade.key
    menu(driver, "Play against the computer")
    driver.key(key.B)  # Assault; the player (the Axis) attacks
    driver.key(key.C)
    driver.key(key.C)  # normal, hard, then round to easy
    driver.key(key.Y)
    driver.key(key.Y)  # the computer builds both
    assert driver.screen.choice.strength == "easy"
    driver.key(key.ENTER)
    screen = driver.screen
    assert isinstance(screen, BattleScreen)  # no map choice for the player: the defender chose
    game = screen.game
    assert game.state.configuration is not None and game.state.attacker is Side.AXIS
    armies = {side: [u for u in game.state.units.values() if u.side is side] for side in Side}
    assert sum(u.card.cost for u in armies[Side.AXIS]) > 80  # the attacker's 120 points
    computer_turns(driver)
    assert game.state.objective is not None  # the computer defender chose it
