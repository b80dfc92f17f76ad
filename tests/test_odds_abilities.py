"""The odds the window shows are the engine's (issue 33): for every ability that changes an attack's
dice, rolls, defense or hits, from one position each, the preview's odds (`queries.attack_preview`, what
the window shows) equal the exact distribution of what the engine's attack action does, and the preview
names the ability.

The abilities are the registry's classes that implement one of `ATTACK_HOOKS`, so a new one is not
missed. Their positions come from the rules-test files (tests/rules): the position just before a step
`attack U T` (or `fire U at H` in the window of the mover in H) where the ability has a say; of those,
the first where the odds differ from the same test played without the ability.

The engine's distribution is measured independently of `minis.odds`: the attack action itself
(`Game.apply`, the whole of it) is played on a copy of the game for every sequence of dice it draws
(a scripted dice source; the game waits for dice when it runs out, and each value is tried), the
attack dice as sorted multisets with multinomial weights (`test_the_attack_dice_are_interchangeable`
checks that their order never matters, by every ordered sequence), every later die one by one.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import factorial
from pathlib import Path

import pytest

from minis import abilities, queries
from minis.ability_api import class_hooks
from minis.ability_catalogue import ability_name
from minis.ability_loader import standard_abilities
from minis.actions import Attack, Fire
from minis.dice import Dice
from minis.events import Event
from minis.game import Game
from minis.odds import hit_odds, odds_inputs
from minis.rules.combat import AttackPlan, plan_attack
from minis.rules.errors import IllegalAction
from minis.rulestest import RulesTest, load_rules_test

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
CHANGERS = sorted(
    key for key, cls in standard_abilities().classes.items() if class_hooks(cls) & ATTACK_HOOKS
)

#: Abilities no rules-test file shows at work in an attack (each needs a file first: listed here so the
#: test says which; the list may only shrink).
NO_POSITION: frozenset[str] = frozenset()


# --- positions from the rules-test files -------------------------------------------------------------


class Spot:
    """A rules test played up to an attack step: the game, the action, attacker and target."""

    def __init__(self, test: RulesTest, game: Game, action: Attack | Fire, attacker: str, target: str):
        self.test, self.game, self.action = test, game, action
        self.attacker, self.target = attacker, target

    def __repr__(self) -> str:
        return f"{Path(self.test.path).relative_to(RULES)}: {self.game.format(self.action)}"


def _play(test: RulesTest, registry: object = None) -> Iterator[tuple[int, Game]]:
    """The test's game before each of its steps (stops at the first step the game refuses)."""
    try:
        game = test.game(registry)  # type: ignore[arg-type]
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
    return Spot(test, game.copy(), action, attacker, target)


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


def _at(path: Path, index: int, registry: object = None) -> Spot | None:
    test = load_rules_test(path)
    for at, game in _play(test, registry):
        if at == index:
            return _spot(test, index, game)
    return None


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


_ONE = tuple(((face,), Fraction(1, 6)) for face in range(1, 7))


def engine_odds(spot: Spot, batch: int, ordered: bool = False) -> dict[tuple[int, bool], Fraction]:
    """P(hits that land, destroyed at once) of the spot's action, played for every dice sequence."""
    found: dict[tuple[int, bool], Fraction] = {}
    defensive = isinstance(spot.action, Fire)

    def play(prefix: tuple[int, ...], chance: Fraction) -> None:
        trial = spot.game.copy(record=False)
        trial.dice = Dice.scripted(prefix)
        events = trial.apply(spot.action)
        if trial.waiting_for_dice():
            first = not prefix and batch > 1 and not ordered
            for values, weight in _multisets(batch) if first else _ONE:
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


@functools.cache
def _chosen(key: str) -> tuple[Spot, bool] | None:
    """The ability's position: the first where the odds without it differ (True), else the first."""
    first: Spot | None = None
    without = standard_abilities().without(key)
    for path, index in _spots().get(key, [])[:12]:
        spot = _at(path, index)
        if spot is None:
            continue
        first = first or spot
        other = _at(path, index, without)
        if other is None or _plan(other) is None:
            continue
        if _merge_gone(shown(spot)) != _merge_gone(shown(other)):
            return spot, True
    return (first, False) if first is not None else None


@pytest.mark.parametrize("key", CHANGERS)
def test_the_odds_shown_are_the_engines(key: str) -> None:
    chosen = _chosen(key)
    if chosen is None:
        assert key in NO_POSITION, f"no rules-test file shows {key} at work in an attack"
        return
    spot, changes = chosen
    assert _merge_gone(engine_odds(spot, _batch(spot))) == _merge_gone(shown(spot)), spot
    if changes:
        assert ability_name(key) in preview_words(spot), (spot, preview_words(spot))


def test_sirens_odds_are_not_the_numbers_alone() -> None:
    """The reported case: the old odds (the plan's numbers through `hit_odds`) miss Sirens' hit."""
    spot = _at(RULES / "aircraft-abilities" / "sirens-one-more-success-to-disrupt.toml", 0)
    assert spot is not None
    plan = _plan(spot)
    assert plan is not None
    engine = _merge_gone(engine_odds(spot, plan.dice))
    old = {(k, False): p for k, p in enumerate(hit_odds(*odds_inputs(plan))) if p}
    assert engine != old
    assert shown(spot) == engine
    assert "Sirens" in preview_words(spot)
