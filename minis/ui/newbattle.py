"""Setting up a battle from the main menu: armies in secret, hand-overs, the map, then the battle screen.

Standard: the Axis player builds an army (100 points), hand over, the Allied player builds one, hand
over to both, the map (rolled or chosen), and the battle screen takes it from the coin flip on.
Assault: first the players say who attacks; the attacker builds 120 points and the defender 80; the
defender chooses the map, then the battle screen (objective, end, deployment...).

The screens replace one another above the main menu, so Escape (after a confirmation) always leads
back to it. These steps are the flow's own; the battle it leads to is opened through the window's
routes (`minis.ui.navigation`), so this module imports no battle screen. Load game and Save are in
`gamefiles`.

Secrets: nothing one player can open in the game may show or name the other's army before both are
on the map. The two builders share an `ArmyFiles` (each side's army dialogs leave out what the other
saved), the autosave waits for the end of deployment (`session.armies_revealed`), and Load game
leaves out an older set-up autosave (`session.early_autosave`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade

from minis.army import Army
from minis.army import Scenario as ArmyScenario
from minis.cards import card_catalogue
from minis.errors import MinisError, escaped
from minis.game import Game
from minis.sides import Side
from minis.state import Scenario, Stage
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.armybuilder import ArmyBuilder, ArmyFiles
from minis.ui.cardpanel import SIDE_TEXT
from minis.ui.confirm import leave_dialog
from minis.ui.gamefiles import saves_of
from minis.ui.handover import HandOver
from minis.ui.mapchoice import MapChoice
from minis.ui.session import Session
from minis.ui.widgets import Box, Button, Label

if TYPE_CHECKING:
    from minis.scenario import Scenario as ScenarioFile


class NewBattle:
    """The steps before a battle; each step replaces the screen of the one before."""

    def __init__(self, window: MinisWindow, scenario: Scenario) -> None:
        self.window = window
        self.scenario = scenario
        self.attacker: Side | None = None
        self.armies: dict[Side, Army] = {}
        #: A scenario file's terms, or None for the rulebook's battles.
        self.plan: ScenarioFile | None = None
        #: The army files each player saves while building (hidden from the other player's dialogs).
        self.army_files = ArmyFiles()

    @classmethod
    def for_scenario(cls, window: MinisWindow, plan: ScenarioFile) -> NewBattle:
        """A battle of a scenario file: its army limits, its map, its sides or roles."""
        battle = cls(window, Scenario.ASSAULT if plan.is_attack else Scenario.STANDARD)
        battle.plan = plan
        battle.attacker = plan.attacker_side
        return battle

    def start(self) -> None:
        if self.scenario is Scenario.ASSAULT and self.attacker is None:
            self.window.open(AttackerChoice(self.window, self.attacker_chosen))
        else:
            self.window.open(self._axis_hand_over())

    def attacker_chosen(self, side: Side) -> None:
        self.attacker = side
        self.window.replace(self._axis_hand_over())

    def _axis_hand_over(self) -> HandOver:
        """The first step once the sides are known: the Axis player builds first."""
        return self._hand_over(Side.AXIS, "to build the Axis army in secret", self._build_axis)

    def _army_scenario(self, side: Side) -> ArmyScenario:
        if self.scenario is Scenario.STANDARD:
            return ArmyScenario.STANDARD
        return ArmyScenario.ASSAULT_ATTACKER if side is self.attacker else ArmyScenario.ASSAULT_DEFENDER

    def _hand_over(self, side: Side, then: str, go: Callable[[], object]) -> HandOver:
        detail = ""
        if self.scenario is Scenario.ASSAULT and self.attacker is not None:
            role = "attacker" if side is self.attacker else "defender"
            limit = self._army_scenario(side).points_limit
            detail = f"Assault: the {side.title} are the {role} ({limit} points)."
        return HandOver(self.window, side, then, go, detail=detail)

    def _builder(self, side: Side, done: Callable[[Army], object]) -> ArmyBuilder:
        if self.plan is None:
            return ArmyBuilder(self.window, side, self._army_scenario(side), done, files=self.army_files)
        plan = self.plan
        force = plan.force_of(side, self.attacker)
        cards = card_catalogue()
        return ArmyBuilder(
            self.window,
            side,
            self._army_scenario(side),
            done,
            check=lambda army: plan.army_problems(army, cards, side=side, attacker=self.attacker),
            points_limit=force.points,
            note=plan.title,
            files=self.army_files,
        )

    def _build_axis(self) -> None:
        self.window.replace(self._builder(Side.AXIS, self._axis_done))

    def _axis_done(self, army: Army) -> None:
        self.armies[Side.AXIS] = army
        self.window.replace(
            self._hand_over(Side.ALLIES, "to build the Allied army in secret", self._build_allies)
        )

    def _build_allies(self) -> None:
        self.window.replace(self._builder(Side.ALLIES, self._allies_done))

    def _allies_done(self, army: Army) -> None:
        self.armies[Side.ALLIES] = army
        chosen = None if self.plan is None else self.plan.doc.map  # a scenario's map may be fixed
        self.window.replace(BothPlayers(self.window, self._to_map, map_=chosen))

    def _to_map(self) -> None:
        if self.plan is not None:
            try:
                game = self.make_game(None)
            except (MinisError, ValueError, TypeError) as error:
                screen = self.window.top_screen
                if isinstance(screen, BothPlayers):
                    screen.error(f"This scenario can't be started: {_reason(error)}")
                return
            if game.state.stage is Stage.CHOOSE_CONFIGURATION:
                self.window.replace(MapChoice(self.window, self._begin, game=game))
            else:
                self._begin(game)  # the scenario's map (the engine rolled it if it says so)
            return
        if self.scenario is Scenario.ASSAULT:
            game = self.make_game(None)
            self.window.replace(MapChoice(self.window, self._begin, game=game))
        else:
            self.window.replace(MapChoice(self.window, self._begin, make_game=self.make_game))

    def make_game(self, configuration: int | None) -> Game:
        if self.plan is not None:
            from minis.scenario import start_game

            return start_game(
                self.plan,
                self.armies[Side.AXIS],
                self.armies[Side.ALLIES],
                attacker=self.attacker,
                dice=self.window.new_dice(),
            )
        return Game.new(
            self.armies[Side.AXIS],
            self.armies[Side.ALLIES],
            scenario=self.scenario,
            attacker=self.attacker,
            configuration=configuration,
            dice=self.window.new_dice(),
        )

    def _begin(self, game: Game) -> None:
        session = Session(game, saves=saves_of(self.window))
        session.autosave()  # only if the game starts with both armies on the map (else: after deployment)
        self.window.routes.battle(session)


class BothPlayers(Screen):
    """After the armies: both players may look again (the armies stay hidden until deployment)."""

    title = "Armies ready"
    hint = "Space or Enter when both players are at the screen"

    def __init__(
        self, window: MinisWindow, go: Callable[[], object], *, map_: int | str | None = None
    ) -> None:
        """`map_`: a scenario's map (its number or file, "roll" or "choose"); None: the players choose."""
        from minis.scenario import CHOOSE, MAP_ROLL

        super().__init__(window)
        self.text = Label("Both armies are ready.", size=30, bold=True, colour=theme.ACCENT, align="center")
        chooses = map_ is None or map_ == CHOOSE
        if map_ is None:
            then = "next comes the battle map, then the coin flip."
        elif map_ == CHOOSE:
            then = "the defender chooses the battle map."
        elif map_ == MAP_ROLL:
            then = "a die picks the battle map."
        else:
            then = "the scenario sets the battle map."
        self.more = Label(f"Both players may look now: {then}", size=theme.TEXT_SIZE + 2, align="center")
        self.go = Button(
            "Choose the battle map" if chooses else "Start the battle",
            go,
            shortcuts=[arcade.key.SPACE, arcade.key.ENTER],
        )
        self.problem = Label("", size=theme.TEXT_SIZE + 1, colour=theme.BAD, align="center")
        self.widgets = [self.text, self.more, self.go, self.problem]

    def error(self, text: str) -> None:
        self.problem.text = text

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.text.place(Box(cx - 400, height * 0.6, 800, 50))
        self.more.place(Box(cx - 450, height * 0.6 - 50, 900, 30))
        self.go.place(Box(cx - 160, height * 0.6 - 130, 320, 46))
        self.problem.place(Box(cx - 560, height * 0.6 - 190, 1120, 30))

    def on_back(self) -> bool:
        self.show_dialog(leave_dialog(self, "The armies built so far are lost."))
        return True


class AttackerChoice(Screen):
    """Assault: which side attacks (and so builds 120 points, against the defender's 80)."""

    title = "New Assault battle"
    hint = "A or X: the Axis attack · L: the Allies attack · Esc back"

    def __init__(self, window: MinisWindow, on_choose: Callable[[Side], object]) -> None:
        super().__init__(window)
        self.question = Label("Who attacks?", size=30, bold=True, colour=theme.ACCENT, align="center")
        self.about = Label(
            "The attacker has 120 points and must hold the objective at the end of turn 10; the defender "
            "has 80 points, chooses the map and the objective, and deploys first in its half.",
            size=theme.TEXT_SIZE + 1,
            multiline=True,
            align="left",
        )
        self.axis = Button(
            "The Axis attack (A)", lambda: on_choose(Side.AXIS), shortcuts=[arcade.key.A, arcade.key.X]
        )
        self.allies = Button(
            "The Allies attack (L)", lambda: on_choose(Side.ALLIES), shortcuts=[arcade.key.L]
        )
        self.axis.label.colour = SIDE_TEXT[Side.AXIS]
        self.widgets = [self.question, self.about, self.axis, self.allies]
        self.set_focus(self.axis)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.question.place(Box(cx - 400, height * 0.65, 800, 50))
        self.about.place(Box(cx - 330, height * 0.65 - 100, 660, 80))
        self.axis.place(Box(cx - 310, height * 0.65 - 180, 300, 46))
        self.allies.place(Box(cx + 10, height * 0.65 - 180, 300, 46))


def _reason(error: Exception) -> str:
    if isinstance(error, MinisError):
        return "; ".join(escaped(p.message) for p in error.problems[:3])
    return str(error)
