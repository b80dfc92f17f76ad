"""No ids anywhere a player reads (issue 33): every refusal the engine gives, worded by the window, and
the log, prompts, questions and hover boxes of played battles name units by their cards ("the second
Soviet Grenadiers" where an army has two), never by ids; plural card names take plural verbs.

No window: the battle screen shows what its `BattleController` says, and these tests read that.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from minis.ai.random_bot import RandomBot
from minis.army import Army
from minis.base.grammar import VERBS, plural, verb
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.content.rule_sets import NAMED
from minis.dice import Dice
from minis.engine import actions as A
from minis.engine import queries
from minis.engine.events import KINDS, Event, describe
from minis.engine.scenario import load_scenario, start_game
from minis.game import Game
from minis.hexgrid import FACINGS, Hex, neighbours
from minis.rules import obstacles
from minis.rules.errors import IllegalAction
from minis.rules.movement import cannot_move
from minis.state import Stage
from minis.ui.controller import BattleController
from minis.ui.plain import plain, unit_names, words
from minis.ui.readout import BattleReadout
from minis.ui.session import Session

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = card_catalogue()
#: Lower-case words with a hyphen that are English, not ids.
ENGLISH = frozenset({"face-down", "face-up", "half-hex", "half-hexes", "anti-tank", "off-map"})
KEBAB = re.compile(r"(?<![\w'\"#-])[a-z0-9]+(?:[-_][a-z0-9]+)+(?![\w#-])")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")

AXIS = (
    "panzer-iv-ausf-g",
    "mauser-kar-98k",
    "mauser-kar-98k",
    "pioneers",
    "mg-42-machine-gun-team",
    "ju-87-stuka",
)
ALLIES = ("m4a1-sherman", "soviet-grenadiers", "soviet-grenadiers", "bazooka", "rangers", "fm-1-wildcat")


def leaks(text: str, game: Game) -> list[str]:
    """The ids in `text`: the battle's unit, obstacle and card ids, any catalogue card id, a copy
    number ("#2"), and any lower-case kebab or snake token that is not an English word."""
    state = game.state
    ids = set(state.units) | {u.card.id for u in state.units.values()}
    if state.obstacles or state.obstacles_gone:
        ids |= set(obstacles.names(state))
    found = [m for m in KEBAB.findall(text) if m not in ENGLISH and re.search("[a-z]", m)]
    found += SNAKE.findall(text)
    found += re.findall(r"\S*#\d+", text)
    for token in re.findall(r"[\w#-]+", text):
        if token in ids or (token in CATALOGUE and token.lower() == token and "-" in token):
            found.append(token)
    return sorted(set(found))


def _games() -> Iterator[Game]:
    """Battles to take positions from: two armies with copies of plural-named cards and aircraft under
    2005 and 2010 (the overstack choice), and River Crossing (a scenario's own ids, obstacles, a boat)."""
    axis, allies = Army("Axis", Side.AXIS, units=AXIS), Army("Allies", Side.ALLIES, units=ALLIES)
    yield Game.new(axis, allies, configuration=1, dice=Dice(seed=3))
    yield Game.new(axis, allies, configuration=2, dice=Dice(seed=5), rules=NAMED["2010"])
    river = load_scenario(ROOT / "scenarios" / "river-crossing.toml")
    yield start_game(
        river,
        Army("Axis", Side.AXIS, units=("mauser-kar-98k", "mauser-kar-98k", "pioneers", "panzer-iv-ausf-g")),
        Army("Allies", Side.ALLIES, units=("m1-garand-rifle", "rangers")),
        dice=Dice(seed=2),
        check_armies=False,
    )


def _positions(every: int = 7, limit: int = 400) -> Iterator[Game]:
    """Positions of random battles: every `every`th decision, up to `limit` decisions a battle."""
    for number, game in enumerate(_games()):
        bot = RandomBot(number)
        for step in range(limit):
            if game.over or game.decider() is None:
                break
            if step % every == 0:
                yield game
            game.apply(bot.choose(game))


def _tries(game: Game, rng: random.Random, count: int) -> list[A.Action]:
    """Actions a player could give the window at this position, most of them refused: any unit, any
    hex, any target, in any stage."""
    state = game.state
    units = list(state.units.values())
    board = state.board
    hexes = sorted(board.hexes) if board is not None else [Hex(0, 0)]
    found: list[A.Action] = []
    for _ in range(count):
        unit, other, hex_ = rng.choice(units), rng.choice(units), rng.choice(hexes)
        start = unit.hex or hex_
        path = [start]
        for _ in range(rng.randint(1, 4)):
            path.append(rng.choice(neighbours(path[-1])))
        facing = rng.choice(FACINGS)
        found += [
            rng.choice(
                [
                    A.Move(unit.id, tuple(path[1:]), facing if unit.card.is_vehicle else None),
                    A.Move(unit.id, (hex_,)),
                    A.Attack(unit.id, other.id),
                    A.Fire(unit.id, hex_),
                    A.Face(unit.id, facing),
                    A.Deploy(unit.id, hex_, facing),
                    A.Deploy(unit.id, hex_),
                    A.Place(unit.id, hex_),
                    A.Arrive(unit.id, hex_),
                    A.BoardTransport(unit.id, other.id),
                    A.Dismount(unit.id, hex_),
                    A.Penalty(unit.id),
                    A.Objective(hex_),
                    rng.choice([A.Pass(), A.Hold(), A.Ready(), A.First(Side.AXIS), A.End("west")]),
                ]
            )
        ]
    return found


def test_every_refusal_the_window_shows_names_units_by_their_cards(tmp_path: Path) -> None:
    """Positions of random battles, many refused actions at each: the window's message never has an
    id, nor has the odds box of a refused attack or a refused path."""
    rng = random.Random(33)
    refused = 0
    reasons: set[str] = set()
    for game in _positions():
        session = Session(game.copy(), saves=tmp_path, autosave=False)
        control = BattleController(session)
        for action in _tries(game, rng, 12):
            if control.act(action):  # allowed after all: go on from the position again
                session = Session(game.copy(), saves=tmp_path, autosave=False)
                control = BattleController(session)
                continue
            refused += 1
            reasons.add(control.message)
            assert not leaks(control.message, game), (control.message, action)
        state = game.state
        for attacker in [u for u in state.units.values() if u.on_map][:6]:
            for target in [u for u in state.units.values() if u.side is not attacker.side and u.on_map][:6]:
                preview = queries.attack_preview(state, attacker.id, target.id)
                text = BattleReadout(control).attack_text(preview)
                assert not leaks(text, game), text
            if attacker.hex is not None and state.stage is Stage.ACT:
                reason = cannot_move(state, attacker)
                if reason:
                    assert not leaks(control.plain(reason), game), reason
                info = queries.path_info(state, attacker.id, (rng.choice(neighbours(attacker.hex)),))
                assert not leaks(control.texts.path(info), game), control.texts.path(info)
    assert refused > 500 and len(reasons) > 40, (refused, len(reasons))


def _refusal_templates() -> list[tuple[str, ast.JoinedStr]]:
    """Every `IllegalAction(f"...")` of the engine's source, and every f-string a rule returns as a
    problem (`return f"..."` in a function whose name says problem, reason, refuse or why)."""
    found = []
    for path in sorted((ROOT / "minis").rglob("*.py")):
        if "ui" in path.relative_to(ROOT / "minis").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalAction"
                and node.args
                and isinstance(node.args[0], ast.JoinedStr)
            ):
                found.append((f"{path.name}:{node.lineno}", node.args[0]))
            if isinstance(node, ast.FunctionDef) and re.search(r"problem|reason|refus|why", node.name):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and isinstance(inner.value, ast.JoinedStr):
                        found.append((f"{path.name}:{inner.lineno}", inner.value))
    return found


def test_every_refusal_template_of_the_engine_is_worded_without_ids() -> None:
    """The reasons in the engine's source, each unit in them filled in with an id of a battle's unit
    (a second copy of a plural-named card, a scenario's own id), worded as the window words them."""
    templates = _refusal_templates()
    assert len(templates) > 60
    game = next(_games())
    state = game.state
    fills = ["soviet-grenadiers#2", "mauser-kar-98k", "panzer-iv-ausf-g", "ju-87-stuka"]
    assert all(f in state.units for f in fills)
    bad = []
    for where, template in templates:
        for fill in fills:
            parts = []
            for value in template.values:
                if isinstance(value, ast.Constant):
                    parts.append(str(value.value))
                else:
                    assert isinstance(value, ast.FormattedValue)
                    source = ast.unparse(value.value)
                    parts.append(fill if re.search(r"\bid\b|unit|\.id$|firer|soldier", source) else "F7")
            text = words("".join(parts), state)
            if leaks(text, game):
                bad.append(f"{where}: {text} {leaks(text, game)}")
    assert not bad, "\n".join(bad)


def test_the_log_prompts_questions_and_hover_boxes_of_a_played_battle_name_units(tmp_path: Path) -> None:
    """A random battle played through the controller: after every action, the message, the panel (its
    heading, text, buttons and list), the question, the casualty report, the hover box of every
    occupied hex and the whole log have no id."""
    for number, game in enumerate(_games()):
        session = Session(game, saves=tmp_path, autosave=False)
        control = BattleController(session)
        bot = RandomBot(40 + number)
        for _ in range(300):
            if game.over or game.decider() is None:
                break
            events = session.last_events
            panel = BattleReadout(control).panel()
            question = BattleReadout(control).question()
            shown = [control.message, panel.heading, panel.info, *(c.caption for c in panel.choices)]
            shown += [row.name for row in panel.listing]
            if question is not None:
                shown += [question.title, question.text, *(c.caption for c in question.choices)]
            report = BattleReadout(control).casualty_report(events)
            if report is not None:
                shown += list(report)
            for hex_ in {u.hex for u in game.state.units.values() if u.hex is not None}:
                shown += BattleReadout(control).hover_lines(hex_)
            for text in shown:
                assert not leaks(text, game), text
            control.act(bot.choose(game))
            game = session.game
        for line in control.texts.log():
            assert not leaks(line, game), line


def test_a_second_copy_is_the_second_and_a_scenarios_own_ids_are_counted() -> None:
    """ "the second Soviet Grenadiers", as the log and every line of the window say it; River
    Crossing's riflemen ("rifle-1", "rifle-2" and an army's own) are told apart in order."""
    game = next(_games())
    names = unit_names(game.state.units.values())
    assert names["soviet-grenadiers"] == "Soviet Grenadiers"
    assert names["soviet-grenadiers#2"] == "the second Soviet Grenadiers"
    river = list(_games())[2]
    names = unit_names(river.state.units.values())
    riflemen = sorted(name for name in names.values() if name.endswith("M1 Garand Rifle"))
    assert riflemen == ["M1 Garand Rifle", "the second M1 Garand Rifle", "the third M1 Garand Rifle"]
    refused = words("soviet-grenadiers#2 has already acted this phase", game.state)
    assert refused == "the second Soviet Grenadiers have already acted this phase"
    # a scenario's id that is a plain word is a name only where the engine means the unit
    boat = plain("boat is not afloat: a boat needs water; the boat", {"boat": "Higgins Boat"})
    assert boat == "Higgins Boat is not afloat: a boat needs water; the boat"


SUBJECT_VERBS = {
    "deploy": "deploys",
    "move": "moves",
    "face": "faces",
    "stop": "stops",
    "retrace": "retraces",
    "spot": "sees",
    "attack": "attacks",
    "hits": "takes",
    "counter": "gets",
    "flip": "turns",
    "recover": "is",
    "removed": "is",
    "board": "boards",
    "dismount": "dismounts",
    "ability": "uses",
    "exit": "gets",
    "arrive": "arrives",
    "place": "flies",
    "land": "leaves",
    "stranded": "stays",
}


def test_every_card_name_takes_the_verb_its_number_needs() -> None:
    """Each log line with a unit as its subject, for every card of the catalogue (and a second copy):
    "Soviet Grenadiers move", "Panzer IV Ausf. G moves"."""
    hexes = (Hex(1, 1), Hex(2, 1))
    assert set(SUBJECT_VERBS) <= set(KINDS)
    wrong = []
    for card in CATALOGUE.values():
        for subject in (card.name, f"the second {card.name}"):
            for kind, singular in SUBJECT_VERBS.items():
                where = hexes[:1] if kind == "deploy" else hexes
                event = Event(kind, Side.AXIS, "u", target="t", hexes=where, dice=(3,), value=1, note="x")
                line = describe(event, lambda h: f"{h.q}/{h.r}", {"u": subject, "t": "Bazooka"}.__getitem__)
                if not line.startswith(f"{subject} {verb(subject, singular)} ") or (
                    plural(card.name) and f"{subject} {singular} " in line
                ):
                    wrong.append(line)
    assert not wrong, "\n".join(wrong[:20])


def test_plural_names_and_verbs() -> None:
    assert plural("Soviet Grenadiers") and plural("BEF infantrymen") and plural("the second Rangers")
    assert plural("soviet-grenadiers#2")
    assert not plural("Char B1-Bis") and not plural("Headquarters") and not plural("T-26 Series 1933")
    assert not plural('Sd Kfz 303 "Goliath"') and not plural("Panzer IV Ausf. G")
    assert [verb("Rangers", v) for v in ("is", "has", "moves", "flies", "reaches")] == [
        "are",
        "have",
        "move",
        "fly",
        "reach",
    ]
    assert {verb("Panzer IV Ausf. G", v) for v in VERBS} == set(VERBS)
    with pytest.raises(IllegalAction):
        next(_games()).apply(A.Pass())


def test_an_initiative_tie_says_why_and_that_both_roll_again(tmp_path: Path) -> None:
    """Rulebook: on equal totals the better initiative bonus wins; with equal bonuses the tie is rolled
    again. The initiative question, the dice row and the log say which happened."""
    from engine_support import board, position, unit

    from minis.ui.rolls import rolls

    b = board("C C C C C\n C C C C C\nC C C C C")
    plain_units = [
        unit(b, "m1-garand-rifle", "m1-garand-rifle", "allies", "A1"),
        unit(b, "mauser-kar-98k", "mauser-kar-98k", "axis", "C3"),
    ]
    game = position(b, plain_units, phase="initiative", dice=Dice.scripted())
    events = game.push_dice([3, 4, 2, 5, 6, 6, 1, 1])  # 7 to 7, no bonuses: again; then 12 to 2
    session = Session(game, saves=tmp_path, autosave=False)
    session.events = events
    question = BattleReadout(BattleController(session)).question()
    assert question is not None
    first, second = question.text.split("\n")[:2]
    assert first.endswith("a tie at 7 and equal initiative bonuses: both roll again"), first
    assert second.endswith(": the Axis win"), second
    assert [line for line in session.describe(events) if line.startswith("initiative")] == [
        "initiative (3 4 2 5, 7 to 7): a tie at 7 and equal initiative bonuses: both roll again",
        "initiative (6 6 1 1, 12 to 2): the Axis win",
    ]
    captain = [
        unit(b, "captain", "red-devil-captain", "allies", "A1"),
        unit(b, "b", "mauser-kar-98k", "axis", "C3"),
    ]
    game = position(b, captain, phase="initiative", dice=Dice.scripted())
    events = game.push_dice([6, 5, 4, 5])  # 11 to 9 + 2: a tie the Allied captain's bonus wins
    (roll,) = rolls(events, str)
    assert roll.result.endswith("a tie at 11: the Allies win it with the better initiative bonus (+2 to +0)")
