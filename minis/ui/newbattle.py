"""Setting up a battle from the main menu: armies in secret, hand-overs, the map, then the battle screen.

Standard: the Axis player builds an army (100 points), hand over, the Allied player builds one, hand
over to both, the map (rolled or chosen), and the battle screen takes it from the coin flip on.
Assault: first the players say who attacks; the attacker builds 120 points and the defender 80; the
defender chooses the map, then the battle screen (objective, end, deployment...).

The screens replace one another above the main menu, so Escape (after a confirmation) always leads
back to it. These steps are the flow's own; the battle it leads to is opened through the window's
routes (`minis.ui.navigation`), so this module imports no battle screen. Load game and Save are in
`gamefiles`.

Against the computer (`NewBattle.against`, a rulebook battle or a scenario file's): the computer's
army first (`make_army`, or `army_for_scenario` within a scenario's limits), then the player's, then
the map; the game's header says which sides the computer plays and how strongly (`computer.mark`), so
its saves come back against the computer (`computer_player`, `computer_chooses_map`).

The rule set (`minis.content.rule_sets`): the players choose it on the first screen of a rulebook battle (the
Axis hand-over of a Standard battle, "who attacks?" of an Assault; against the computer, its choices),
and it goes to the army builders, the computer's armies and `Game.new`. A scenario file plays under its
own set (`rules = "NAME"` in the file, 2005 when it names none): the screens show it, never offer another.

Secrets: nothing one player can open in the game may show or name the other's army before both are
on the map. The two builders share an `ArmyFiles` (each side's army dialogs leave out what the other
saved), the autosave waits for the end of deployment (`session.armies_revealed`), and Load game
leaves out an older set-up autosave (`session.early_autosave`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import arcade

from minis.ai.army_maker import army_for_scenario, make_army
from minis.ai.bot import view
from minis.ai.strength import bot_for
from minis.army import Army, ArmyScenario
from minis.base.errors import MinisError, escaped
from minis.base.kinds import BattleKind
from minis.base.sides import Side
from minis.cards import StatCard, card_catalogue
from minis.content.rule_sets import RULEBOOK, RuleSet
from minis.game import Game
from minis.state import Stage
from minis.ui import theme
from minis.ui.app import MinisWindow, Screen
from minis.ui.armybuilder import ArmyBuilder, ArmyFiles
from minis.ui.cardpanel import SIDE_TEXT
from minis.ui.computer import ComputerPlayer, mark
from minis.ui.confirm import leave_dialog
from minis.ui.gamefiles import saves_of
from minis.ui.handover import HandOver
from minis.ui.mapchoice import MapChoice
from minis.ui.opponent import Opponent, OpponentChoice
from minis.ui.rulechoice import RulesPicker
from minis.ui.session import Session
from minis.ui.widgets import Box, Button, Dialog, Label

if TYPE_CHECKING:
    from minis.engine.scenario import Scenario


class NewBattle:
    """The steps before a battle; each step replaces the screen of the one before."""

    def __init__(self, window: MinisWindow, scenario: BattleKind) -> None:
        self.window = window
        self.scenario = scenario
        self.attacker: Side | None = None
        self.armies: dict[Side, Army] = {}
        #: A scenario file's terms, or None for the rulebook's battles.
        self.plan: Scenario | None = None
        #: The army files each player saves while building (hidden from the other player's dialogs).
        self.army_files = ArmyFiles()
        #: Against the computer (or watching it): the player's choices; None for two players.
        self.opponent: Opponent | None = None
        #: The rule set the battle is played under (chosen on its first screen, or the scenario's).
        self.rules: RuleSet = RULEBOOK

    @classmethod
    def for_scenario(cls, window: MinisWindow, plan: Scenario) -> NewBattle:
        """A battle of a scenario file: its army limits, its map, its sides or roles."""
        battle = cls(window, BattleKind.ASSAULT if plan.is_attack else BattleKind.STANDARD)
        battle.plan = plan
        battle.attacker = plan.attacker_side
        battle.rules = plan.doc.rules
        return battle

    @classmethod
    def against(cls, window: MinisWindow, choice: Opponent) -> NewBattle:
        """A battle against the computer (or the computer against itself): the rulebook's, or the
        scenario file's of `choice.plan`."""
        battle = cls(window, choice.scenario)
        battle.opponent = choice
        battle.plan = choice.plan
        battle.attacker = choice.attacker
        battle.rules = choice.rules if choice.plan is None else choice.plan.doc.rules
        return battle

    def start(self) -> None:
        if self.opponent is not None:
            self._against_computer(self.opponent)
            return
        if self.scenario is BattleKind.ASSAULT and self.attacker is None:
            self.window.open(
                AttackerChoice(
                    self.window,
                    self.attacker_chosen,
                    rules=self.rules,
                    on_rules=self.rules_chosen if self.plan is None else None,
                    rules_fixed=self._rules_fixed(),
                )
            )
        else:
            self.window.open(self._axis_hand_over())

    def rules_chosen(self, rules: RuleSet) -> None:
        """The players' choice of the rule set (on the battle's first screen): the hand-over's line on
        the army follows it (the later sets play Standard battles at more points)."""
        self.rules = rules
        screen = self.window.top_screen
        if isinstance(screen, HandOver):
            screen.detail.text = self.terms_of(screen.side)

    def _rules_fixed(self) -> str:
        """Why the rule set can't be chosen any more ("" where it may be)."""
        return "set by the scenario" if self.plan is not None else ""

    def attacker_chosen(self, side: Side) -> None:
        self.attacker = side
        self.window.replace(self._axis_hand_over())

    def _axis_hand_over(self) -> HandOver:
        """The first step once the sides are known: the Axis player builds first. In a Standard battle
        of the rulebook it is the battle's first screen, so the rule set is chosen there."""
        choose = self.plan is None and self.scenario is BattleKind.STANDARD and self.opponent is None
        return self._hand_over(
            Side.AXIS, "to build the Axis army in secret", self._build_axis, choose_rules=choose
        )

    def _army_scenario(self, side: Side) -> ArmyScenario:
        if self.scenario is BattleKind.STANDARD:
            return ArmyScenario.STANDARD
        return ArmyScenario.ASSAULT_ATTACKER if side is self.attacker else ArmyScenario.ASSAULT_DEFENDER

    def _hand_over(
        self, side: Side, then: str, go: Callable[[], object], *, choose_rules: bool = False
    ) -> HandOver:
        return HandOver(
            self.window,
            side,
            then,
            go,
            detail=self.terms_of(side),
            rules=self.rules,
            on_rules=self.rules_chosen if choose_rules else None,
            rules_fixed=self._rules_fixed(),
        )

    def terms_of(self, side: Side) -> str:
        """What `side` builds, in a player's words: the battle, the side's role and its points."""
        if self.plan is None:
            battle = "Assault" if self.scenario is BattleKind.ASSAULT else "Standard battle"
            points = self._points_of(side)
            levels = self.rules.point_levels
            if self.scenario is BattleKind.STANDARD and len(levels) > 1:
                others = " or ".join(str(p) for p in levels[1:])
                text = army_terms(side, battle, points, None)
                return f"{text[:-1]} (or {others}: the army builder offers them)."
        else:
            battle = self.plan.title
            points = self.plan.force_of(side, self.attacker).points
        return army_terms(
            side, battle, points, self.attacker if self.scenario is BattleKind.ASSAULT else None
        )

    def _builder(self, side: Side, done: Callable[[Army], object]) -> ArmyBuilder:
        if self.plan is None:
            return ArmyBuilder(
                self.window, side, self._army_scenario(side), done, files=self.army_files, rules=self.rules
            )
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
            rules=self.rules,
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
        if self.scenario is BattleKind.ASSAULT:
            game = self.make_game(None)
            self.window.replace(MapChoice(self.window, self._begin, game=game))
        else:
            self.window.replace(MapChoice(self.window, self._begin, make_game=self.make_game))

    # --- against the computer ----------------------------------------------------------------------------
    def _against_computer(self, choice: Opponent) -> None:
        """The computer's army first, in secret (so it never sees the player's); then the player's army
        (built, loaded into the builder, or the computer's work too), then the map. No hand-overs: one
        player sits at the screen. A scenario whose limits no army can meet says so on the choice."""
        rng = random.Random(choice.seed)
        cards = card_catalogue()
        try:
            for side in Side:
                if side is not choice.side or choice.army == "computer":
                    self.armies[side] = self._computer_army(side, rng, cards)
        except MinisError as error:
            self._cannot_start(error)
            return
        human = choice.side
        if human is None or human in self.armies:
            self._computer_map()
            return
        builder = self._builder(human, self._player_done)
        self.window.replace(builder)
        if choice.army == "load":
            builder.load()

    def _computer_army(self, side: Side, rng: random.Random, cards: Mapping[str, StatCard]) -> Army:
        """An army the computer builds for `side`: within the scenario file's limits, or the battle's."""
        if self.plan is not None:  # under the scenario's own rule set
            return army_for_scenario(self.plan, side, rng, attacker=self.attacker, cards=cards)
        scenario = self._army_scenario(side)
        points = self._points_of(side)
        return make_army(cards, side, points, rng=rng, scenario=scenario, rules=self.rules)

    def _points_of(self, side: Side) -> int:
        """A rulebook battle's points for `side`: a Standard army's usual size under the rule set (the
        first of its levels: 100 in 2005), an Assault army's role's."""
        scenario = self._army_scenario(side)
        if scenario is ArmyScenario.STANDARD:
            return self.rules.point_levels[0]
        return scenario.points_limit

    def _cannot_start(self, error: Exception) -> None:
        """Say why the battle can't start: under the opponent choice's rows, else in a dialog that
        leads back to the menu (the armies built so far can't be played)."""
        text = f"This battle can't be started: {_reason(error)}"
        screen = self.window.top_screen
        if isinstance(screen, OpponentChoice):
            screen.error(text)
        elif screen is not None:
            menu = self.window.routes.main_menu
            screen.show_dialog(
                Dialog(
                    "This battle can't be started",
                    text,
                    [Button("Back to the menu (Enter)", menu, shortcuts=[arcade.key.ENTER])],
                    on_cancel=menu,
                )
            )

    def _player_done(self, army: Army) -> None:
        self.armies[army.side] = army
        self._computer_map()

    def _computer_map(self) -> None:
        """Standard: the player rolls or picks the map (watching: the engine rolls it). Assault, or a
        scenario that lets the defender choose: the defender chooses, the computer from its own view
        when it defends. A scenario's fixed or rolled map needs no choice."""
        choice = self.opponent
        assert choice is not None
        if self.plan is None and self.scenario is BattleKind.STANDARD:
            if choice.side is None:
                self._begin(self.make_game(None))
            else:
                self.window.replace(MapChoice(self.window, self._begin, make_game=self.make_game))
            return
        try:
            game = self.make_game(None)
        except (MinisError, ValueError, TypeError) as error:
            self._cannot_start(error)
            return
        if game.state.stage is Stage.CHOOSE_CONFIGURATION:
            defender = game.decider()
            if defender is not None and defender is choice.side:
                self.window.replace(MapChoice(self.window, self._begin, game=game))
                return
            computer_chooses_map(game, choice.strength, choice.seed)
        self._begin(game)

    def _computer(self) -> ComputerPlayer | None:
        choice = self.opponent
        if choice is None:
            return None
        return computer_player(choice.computer_sides, choice.strength, choice.seed)

    def make_game(self, configuration: int | None) -> Game:
        if self.plan is not None:
            from minis.engine.scenario import start_game

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
            rules=self.rules,
        )

    def _begin(self, game: Game) -> None:
        if self.opponent is not None:  # its saves say who the computer is (the load goes on so)
            mark(game, self.opponent.computer_sides, self.opponent.strength)
        session = Session(game, saves=saves_of(self.window))
        session.autosave()  # only if the game starts with both armies on the map (else: after deployment)
        self.window.routes.battle(session, computer=self._computer())


def computer_player(sides: Iterable[Side], strength: str, seed: int) -> ComputerPlayer:
    """The computer at the table for `sides` (a bot of `strength` each), its choices from `seed`: for
    a new battle against it, and for a loaded one whose save says it played."""
    seeds = random.Random(seed ^ 0x5EED)
    chosen = set(sides)
    bots = {side: bot_for(strength, seeds.randrange(2**63)) for side in Side if side in chosen}
    return ComputerPlayer(bots, strength=strength, seed=seeds.randrange(2**63))


def computer_chooses_map(game: Game, strength: str, seed: int) -> None:
    """The defender's map choice when the computer defends, decided from its own view (the player
    never sees the choosing)."""
    defender = game.decider()
    if defender is not None:
        seed = random.Random(seed).randrange(2**63)
        game.apply(bot_for(strength, seed, budget=0.5).choose(view(game, defender, seed)))


class BothPlayers(Screen):
    """After the armies: both players may look again (the armies stay hidden until deployment)."""

    title = "Armies ready"
    hint = "Space or Enter when both players are at the screen"

    def __init__(
        self, window: MinisWindow, go: Callable[[], object], *, map_: int | str | None = None
    ) -> None:
        """`map_`: a scenario's map (its number or file, "roll" or "choose"); None: the players choose."""
        from minis.engine.scenario import CHOOSE, MAP_ROLL

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
        wide = min(1120, width - 2 * theme.MARGIN)  # as wide as the window allows
        self.text.place(Box(cx - wide / 2, height * 0.6, wide, 50))
        self.more.place(Box(cx - wide / 2, height * 0.6 - 50, wide, 30))
        self.go.place(Box(cx - 160, height * 0.6 - 130, 320, 46))
        self.problem.place(Box(cx - wide / 2, height * 0.6 - 190, wide, 30))

    def on_back(self) -> bool:
        self.show_dialog(leave_dialog(self, "The armies built so far are lost."))
        return True


class AttackerChoice(Screen):
    """Assault: which side attacks (and so builds 120 points, against the defender's 80)."""

    title = "New Assault battle"
    hint = "A or X: the Axis attack · L: the Allies attack · Esc back"

    def __init__(
        self,
        window: MinisWindow,
        on_choose: Callable[[Side], object],
        *,
        rules: RuleSet = RULEBOOK,
        on_rules: Callable[[RuleSet], object] | None = None,
        rules_fixed: str = "",
    ) -> None:
        """`on_rules`: the players choose the rule set here, the Assault's first screen (else the set is
        shown: `rules_fixed` says why)."""
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
        self.rules = RulesPicker(rules, on_rules, fixed=rules_fixed or ("" if on_rules else "chosen"))
        self.widgets = [self.question, self.about, self.axis, self.allies, self.rules]
        if self.rules.choosable:
            self.hint = "R or a click: the rule set · " + AttackerChoice.hint
            self.set_hint(self.hint)
        self.set_focus(self.axis)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.question.place(Box(cx - 400, height * 0.65, 800, 50))
        self.about.place(Box(cx - 330, height * 0.65 - 100, 660, 80))
        self.axis.place(Box(cx - 310, height * 0.65 - 180, 300, 46))
        self.allies.place(Box(cx + 10, height * 0.65 - 180, 300, 46))
        wide = min(760, width - 2 * theme.MARGIN)
        need = self.rules.height_for(wide)
        self.rules.place(Box(cx - wide / 2, height * 0.65 - 210 - need, wide, need))


def army_terms(side: Side, battle: str, points: int, attacker: Side | None) -> str:
    """The hand-over's line on `side`'s army ("Assault: the Allies attack with up to 120 points"):
    the notation's roles ("assault-defender") and ids ("axis") are for files, not for players."""
    if attacker is None:
        return f"{battle}: the {side.title} have up to {points} points."
    role = "attack" if side is attacker else "defend"
    return f"{battle}: the {side.title} {role} with up to {points} points."


def _reason(error: Exception) -> str:
    if isinstance(error, MinisError):
        return "; ".join(escaped(p.message) for p in error.problems[:3])
    return str(error)
