"""The odds the window shows are the engine's (issue 33): for every ability that changes an attack's
dice, rolls, defense or hits, from one position each, the preview's odds (`queries.attack_preview`, what
the window shows) equal the exact distribution of what the engine's attack action does, and the preview
names the ability.

The abilities are the registry's classes that implement one of `ATTACK_HOOKS`, so a new one is not
missed. Their positions come from the rules-test files (tests/rules): the position just before a step
`attack U T` (or `fire U at H` in the window of the mover in H) where the ability has a say; of those,
the first where the odds differ from the same test played without the ability.

The engine's distribution is measured independently of `minis.engine.odds`: the attack action itself
(`Game.apply`, the whole of it) is played on a copy of the game for every sequence of dice it draws (a
scripted dice source; the game waits for dice when it runs out, and each value is tried). Dice the
engine asks for at once (the attack dice; the dice an ability rolls again) are tried as sorted multisets
with multinomial weights over all six faces (over the die classes above `ALL_FACES` dice);
`test_the_attack_dice_are_interchangeable` checks that their order never matters.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from math import factorial
from pathlib import Path
from typing import Any

import pytest

from minis import abilities
from minis.content.ability_catalogue import ability_name
from minis.dice import Dice, NeedDice
from minis.engine import queries
from minis.engine.ability_api import Ability, AbilityRegistry, class_hooks
from minis.engine.ability_loader import standard_abilities
from minis.engine.actions import Attack, Fire
from minis.engine.events import Event
from minis.engine.odds import die_classes, hit_odds, odds_inputs
from minis.game import Game
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.errors import IllegalAction
from minis.rulestest import RulesTest, load_rules_test
from minis.ui.readout import BattleReadout

RULES = Path(__file__).parent / "rules"

#: The hooks by which an ability changes an attack's dice, its rolls, the defense or the hits.
ATTACK_HOOKS = frozenset(
    (
        "attack_options",
        "extra_dice",
        "die_modifier",
        "ignores_attack_penalty",
        "successes",
        "extra_successes",
        "destroys",
        "defense_modifier",
        "ignores_defense_penalty",
        "hits",
        "cover_allowed",
        "cover_automatic",
        "cover_modifier",
        "cover_without_terrain",
        "reroll_attack_dice",
    )
)

#: The abilities that change attacks (derived from the hooks their classes implement).
CHANGERS = sorted(key for key, cls in standard_abilities().classes.items() if class_hooks(cls) & ATTACK_HOOKS)

#: Abilities no rules-test file shows at work in an attack (each needs a file first: listed here so the
#: test says which; the list may only shrink).
NO_POSITION = frozenset(
    (
        # an ability's own attack (`use U ID T`): the window shows no odds before it
        "armor-piercing-rounds",
        "bombs",
        "he-round",
        "remote-control",
        "rockets",
        "speed-boost",
        # no rules-test file attacks with or at a unit that has it
        "fearless",
        "italian-hero",
        "japanese-hero",
        "soviet-hero",
        "stars-stripes",
        "u-k-hero",
    )
)


# --- positions from the rules-test files -------------------------------------------------------------


class Spot:
    """A rules test played up to an attack step: the game, the action, attacker and target."""

    def __init__(self, test: RulesTest, game: Game, action: Attack | Fire, attacker: str, target: str):
        self.test, self.game, self.action = test, game, action
        self.attacker, self.target = attacker, target

    def __repr__(self) -> str:
        return f"{Path(self.test.path).relative_to(RULES)}: {self.game.format(self.action)}"


def _play(test: RulesTest, registry: AbilityRegistry | None = None) -> Iterator[tuple[int, Game]]:
    """The test's game before each of its steps (stops at the first step the game refuses)."""
    try:
        game = test.game(registry)
    except ValueError:
        return
    for index, step in enumerate(test.steps):
        yield index, game
        if step.action is None and not step.dice:
            continue
        try:
            if step.action is None:
                game.push_dice(step.dice)
            else:
                game.dice.push(step.dice)
                game.apply(step.action)
        except (IllegalAction, ValueError):
            return


def _spot(test: RulesTest, index: int, game: Game) -> Spot | None:
    step = test.steps[index]
    if step.action is None or step.illegal or game.waiting_for_dice() or game.dice.unused():
        return None
    try:
        action = game.parse(step.action)
    except IllegalAction:
        return None
    state = game.state
    if isinstance(action, Attack):
        attacker, target = action.unit, action.target
    elif isinstance(action, Fire) and state.move is not None:
        attacker, target = action.unit, state.move.unit
        if state.units[target].hex != action.at:
            return None  # fire aimed at a later window
    else:
        return None
    if game.is_legal(action) is not None or attacker not in state.units or target not in state.units:
        return None
    spot = Spot(test, game.copy(), action, attacker, target)
    plan = _plan(spot)
    if plan is None:
        return None
    here = state.units[target].hex
    if abilities.blast(plan.ctx) and any(
        u.hex == here and u.id not in (attacker, target) for u in state.on_map()
    ):
        return None  # more attacks follow on the hex's other units: their dice are not this attack's
    if isinstance(action, Fire) and abilities.defensive_fire_attacks(state, state.units[attacker]) > 1:
        return None  # a second attack follows
    return spot


@functools.cache
def _spots() -> dict[str, list[tuple[Path, int]]]:
    """Per ability: the (file, step) of every attack where it has a say (its hook is among the sources)."""
    found: dict[str, list[tuple[Path, int]]] = {}
    for path in sorted(RULES.rglob("*.toml")):
        if path.parts[-2] == "set-up":
            continue
        test = load_rules_test(path)
        for index, game in _play(test):
            spot = _spot(test, index, game)
            if spot is None:
                continue
            plan = _plan(spot)
            if plan is None:
                continue
            ids = {h.id for _owner, h in plan.ctx.sources}
            ids.update(h.id for h in abilities.handlers(game.state, game.state.units[spot.target].card))
            for key in ids:
                found.setdefault(key, []).append((path, index))
    return found


def _plan(spot: Spot) -> AttackPlan | None:
    state = spot.game.state
    plan = plan_attack(
        state,
        state.units[spot.attacker],
        state.units[spot.target],
        defensive=isinstance(spot.action, Fire),
        mode=_mode(spot),
    )
    return plan if isinstance(plan, AttackPlan) else None


def _mode(spot: Spot) -> str:
    """The ability whose extra attack the step is ("" for a unit's normal attack or defensive fire)."""
    return "" if isinstance(spot.action, Fire) else queries.attack_mode(spot.game.state, spot.attacker)


def _at(path: Path, index: int, blanked: str = "") -> Spot | None:
    """The spot of step `index` of the file (`blanked`: played with that ability doing nothing)."""
    return _file_spots(path, blanked).get(index)


@functools.cache
def _file_spots(path: Path, blanked: str) -> dict[int, Spot]:
    test = load_rules_test(path)
    found = {}
    for index, game in _play(test, blank(blanked) if blanked else None):
        spot = _spot(test, index, game)
        if spot is not None:
            found[index] = spot
    return found


# --- the engine's distribution, measured by playing the action ---------------------------------------


@functools.cache
def _multisets(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    found = []
    for values in itertools.combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for face in range(1, 7):
            ways //= factorial(values.count(face))
        found.append((values, Fraction(ways, 6**count)))
    return tuple(found)


def _class_multisets(count: int, modifier: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Sorted rolls over the die classes (a 1, a 6, the other failures, the other successes)."""
    classes = die_classes(modifier)
    found = []
    for picks in itertools.combinations_with_replacement(range(len(classes)), count):
        weight = Fraction(factorial(count))
        for index, (_face, p) in enumerate(classes):
            weight = weight / factorial(picks.count(index)) * p ** picks.count(index)
        found.append((tuple(classes[i][0] for i in picks), weight))
    return tuple(found)


def _modifier(spot: Spot) -> int:
    plan = _plan(spot)
    assert plan is not None
    return plan.modifier


class Probe(Dice):
    """A scripted dice source that notes how many dice the engine asked for at once when it ran out
    (`roll_many`: the attack dice, or the dice an ability rolls again; `roll`: one die)."""

    __slots__ = ("wanted",)

    def __init__(self, script: tuple[int, ...]) -> None:
        super().__init__(script=script)
        self.wanted = 0

    def roll(self) -> int:
        if not self.remaining():
            self.wanted = 1
            raise NeedDice()
        return super().roll()

    def roll_many(self, count: int, batch: object = None) -> list[int]:
        if self.remaining() < count:
            self.wanted = count
            raise NeedDice()
        return super().roll_many(count, batch)


def engine_odds(spot: Spot, classes: bool = False) -> dict[tuple[int, bool], Fraction]:
    """P(hits that land, destroyed at once) of the spot's action, played for every dice sequence: the
    dice the engine asks for at once as sorted multisets (`classes`: over the die classes)."""
    found: dict[tuple[int, bool], Fraction] = {}
    defensive = isinstance(spot.action, Fire)
    modifier = _modifier(spot)

    def play(prefix: tuple[int, ...], chance: Fraction) -> None:
        trial = spot.game.copy(record=False)
        trial.dice = dice = Probe(prefix)
        events = trial.apply(spot.action)
        if trial.waiting_for_dice():
            count = dice.wanted
            choices = _class_multisets(count, modifier) if classes else _multisets(count)
            for values, weight in choices:
                play(prefix + values, chance * weight)
            return
        key = _outcome(events, spot.target, defensive)
        found[key] = found.get(key, Fraction(0)) + chance

    play((), Fraction(1))
    return found


def _outcome(events: list[Event], target: str, defensive: bool) -> tuple[int, bool]:
    """What the attack did to the target, read from its events: the hits after the cover roll (defensive
    fire: whether it hit), and whether the target was removed before the phase went on."""
    hits = covered = None
    gone = False
    for event in events:
        if event.kind in ("phase", "flip", "turn"):
            break
        if event.unit != target:
            continue
        if event.kind == "hits" and hits is None:
            hits = event.value or 0
        elif event.kind == "cover" and covered is None:
            covered = bool(event.value)
        elif event.kind == "removed":
            gone = True
    assert hits is not None, "the action made no attack on the target"
    if covered:
        hits = 0 if defensive else 1
    if defensive:
        hits = min(hits, 1)
    return min(hits, 3), gone


def shown(spot: Spot) -> dict[tuple[int, bool], Fraction]:
    """The preview's odds as the same kind of distribution (zero chances left out)."""
    preview = queries.attack_preview(
        spot.game.state, spot.attacker, spot.target, defensive=isinstance(spot.action, Fire)
    )
    assert isinstance(preview, queries.AttackPreview), preview
    found = {(k, False): p for k, p in enumerate(preview.odds) if p}
    if preview.destroyed:
        found[(0, True)] = preview.destroyed
    return found


def _merge_gone(odds: dict[tuple[int, bool], Fraction]) -> dict[tuple[int, bool], Fraction]:
    """Destroyed at once, whatever the hits (the preview gives one chance for it)."""
    found: dict[tuple[int, bool], Fraction] = {}
    for (hits, gone), p in odds.items():
        key = (0, True) if gone else (hits, False)
        found[key] = found.get(key, Fraction(0)) + p
    return {k: p for k, p in found.items() if p}


def preview_words(spot: Spot) -> str:
    preview = queries.attack_preview(
        spot.game.state, spot.attacker, spot.target, defensive=isinstance(spot.action, Fire)
    )
    assert isinstance(preview, queries.AttackPreview)
    return "\n".join([*(m.text for m in preview.modifiers), *preview.effects])


def _batch(spot: Spot) -> int:
    plan = _plan(spot)
    assert plan is not None
    return plan.dice


#: Attack dice up to which the engine is measured over all six faces of each die; above, over the die
#: classes (`minis.engine.odds.die_classes`, checked by the positions of this size or smaller).
ALL_FACES = 10
#: How many of an ability's attacks in the files are tried for its position (the files come sorted).
CANDIDATES = 8


@functools.cache
def blank(key: str) -> AbilityRegistry:
    """The shipped rule set with the ability `key` doing nothing (the card keeps it, it has no hook)."""
    return standard_abilities().with_classes(type("Blank", (Ability,), {"id": key}))


@functools.cache
def _chosen(key: str) -> tuple[Spot, bool] | None:
    """The ability's position: of those where the odds without it differ (True), the one with the fewest
    attack dice; else the first position where it has a say."""
    first: Spot | None = None
    best: tuple[int, Spot] | None = None
    for path, index in _spots().get(key, [])[:CANDIDATES]:
        spot = _at(path, index)
        if spot is None:
            continue
        first = first or spot
        other = _at(path, index, key)
        if other is None or _plan(other) is None:
            continue
        if _merge_gone(shown(spot)) != _merge_gone(shown(other)):
            dice = _batch(spot)
            if best is None or dice < best[0]:
                best = (dice, spot)
            if dice <= 6:
                break
    if best is not None:
        return best[1], True
    return (first, False) if first is not None else None


@pytest.mark.parametrize("key", CHANGERS)
def test_the_odds_shown_are_the_engines(key: str) -> None:
    chosen = _chosen(key)
    if chosen is None:
        assert key in NO_POSITION, f"no rules-test file shows {key} at work in an attack"
        return
    spot, changes = chosen
    measured = engine_odds(spot, classes=_batch(spot) > ALL_FACES)
    assert _merge_gone(measured) == _merge_gone(shown(spot)), spot
    if changes:
        assert ability_name(key) in preview_words(spot), (spot, preview_words(spot))


def test_sirens_odds_are_not_the_numbers_alone() -> None:
    """The reported case: the old odds (the plan's numbers through `hit_odds`) miss Sirens' hit."""
    spot = _at(RULES / "aircraft-abilities" / "sirens-one-more-success-to-disrupt.toml", 0)
    assert spot is not None
    plan = _plan(spot)
    assert plan is not None
    engine = _merge_gone(engine_odds(spot))
    old = {(k, False): p for k, p in enumerate(hit_odds(*odds_inputs(plan))) if p}
    assert engine != old
    assert shown(spot) == engine
    assert "Sirens" in preview_words(spot)


def test_the_window_shows_the_engines_odds_and_names_sirens(driver: object) -> None:
    """What the window's panel reads (`BattleController.attack_text`): the engine's odds and Sirens."""
    from minis.ui.controller import BattleController
    from minis.ui.session import Session

    spot = _at(RULES / "aircraft-abilities" / "sirens-one-more-success-to-disrupt.toml", 0)
    assert spot is not None
    control = BattleController(Session(spot.game.copy(), autosave=False))
    preview = queries.attack_preview(control.state, "stuka", "tommy")
    assert isinstance(preview, queries.AttackPreview)
    text = BattleReadout(control).attack_text(preview)
    engine = _merge_gone(engine_odds(spot))
    assert f"{queries.percent(1 - engine[(0, False)])} (on the sight line): at least one hit" in text
    assert "Sirens: changes the hits its successes make (at least one hit: 64% without)" in text


def test_the_result_line_says_what_sirens_did() -> None:
    """The dice row after the attack: 3 successes against defense 4 is no hit by the table; Sirens' one."""
    from minis.ui.rolls import rolls

    spot = _at(RULES / "aircraft-abilities" / "sirens-one-more-success-to-disrupt.toml", 0)
    assert spot is not None
    game = spot.game.copy()
    game.dice = Dice.scripted([4, 4, 4, 1, 1, 1, 1, 1])
    attack = next(r for r in rolls(game.apply(spot.action), str) if r.kind == "attack")
    assert (
        attack.result == "3 successes against defense 4: 1 hit (no hits by the table; Sirens makes it 1 hit)"
    )


#: The hooks that are given the attack dice themselves.
DIE_HOOKS = frozenset(("reroll_attack_dice", "extra_successes", "destroys", "attack_rolled"))


@pytest.mark.parametrize(
    "key", [k for k in CHANGERS if class_hooks(standard_abilities().classes[k]) & DIE_HOOKS]
)
def test_the_attack_dice_are_interchangeable(key: str) -> None:
    """The attack dice in any order do the same (seeded samples, each played as drawn and shuffled)."""
    chosen = _chosen(key)
    assert chosen is not None
    spot = chosen[0]
    dice = _batch(spot)
    rng = random.Random(key)
    for _ in range(60):
        rolls = [rng.randint(1, 6) for _ in range(dice)]
        rest = [rng.randint(1, 6) for _ in range(12)]
        mixed = rng.sample(rolls, dice)
        assert _played(spot, rolls + rest) == _played(spot, mixed + rest), (spot, rolls, mixed)


def _played(spot: Spot, values: list[int]) -> tuple[int, bool]:
    game = spot.game.copy(record=False)
    game.dice = Dice.scripted(values)
    return _outcome(game.apply(spot.action), spot.target, isinstance(spot.action, Fire))


def test_the_battle_screen_shows_sirens_odds(driver: Any, shots: Path) -> None:
    """The battle screen with the Stuka selected and the Soldier hovered: the panel reads the engine's
    odds and names Sirens (the picture: attack-odds-sirens.png)."""
    from minis.ui.battle import BattleScreen
    from minis.ui.session import Session

    spot = _at(RULES / "aircraft-abilities" / "sirens-one-more-success-to-disrupt.toml", 0)
    assert spot is not None
    screen = BattleScreen(driver.window, Session(spot.game.copy(), autosave=False))
    driver.window.open(screen)
    driver.frame()
    control = screen.controller
    control.select("stuka")
    control.hover_at(control.state.units["tommy"].hex)
    driver.frame(2)
    shown_text = BattleReadout(control).attack_text(control.preview)
    assert "Sirens" in shown_text and "86% (on the sight line)" in shown_text
    driver.screenshot(shots / "attack-odds-sirens.png")
    # the attack itself: the dice row explains Sirens' hit
    control.session.game.dice.push([4, 4, 4, 1, 1, 1, 1, 1])
    assert control.act(Attack("stuka", "tommy"))
    driver.frame(2)
    driver.screenshot(shots / "attack-result-sirens.png")
